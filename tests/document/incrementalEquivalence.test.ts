import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

// Every incremental update must give exactly what a fresh parse of the same text gives.
function signature(m: WorkspaceModel) {
  return {
    resources: m.resources().map((r) => [r.key, { ...r.source }]),
    problems: m.problems(),
    docs: m.fileList().flatMap((f) => f.documents.map((d) => ({ ...d.doc }))),
  };
}

const base =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\n# c\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: c\n';

const edits: Array<[string, (t: string) => string]> = [
  ['rename inside a middle document', (t) => t.replace('name: b', 'name: bb\n  namespace: x')],
  ['break a separator (two documents merge)', (t) => t.replace('---\n# c', '--x\n# c')],
  ['restore the separator', (t) => t.replace('--x\n# c', '---\n# c')],
  ['insert a new document', (t) => t.replace('name: a\n', 'name: a\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: new\n')],
  ['syntax error at the top', (t) => 'foo: [\n' + t],
  ['remove it again', (t) => t.slice(7)],
  ['trailing separator', (t) => t + '---\n'],
  ['remove trailing separator', (t) => t.replace(/---\n$/, '')],
  ['delete the first document', (t) => t.slice(t.indexOf('---\n') + 4)],
  ['edit the last line', (t) => t.replace('name: c', 'name: cc')],
  // istioctl keeps a separator in the next chunk when it ends none (split.ts, separatorKept):
  // edits above a run of separators change that for the document below the run.
  ['a separator above the first document', (t) => '---\n' + t],
  ['a line above the next separator', (t) => t.replace('  namespace: x\n', '  namespace: x\nz: 1\n')],
  ['that line becomes a separator (the next document now has two above it)', (t) => t.replace('z: 1\n', '---\n')],
  ['and back', (t) => t.replace('  namespace: x\n---\n---\n', '  namespace: x\nz: 1\n---\n')],
  ['the first separator gets trailing blanks', (t) => t.replace(/^---\n/, '---  \n')],
];

describe('incremental parsing', () => {
  it('matches a full parse after each edit and re-parses only what changed', () => {
    let text = base;
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'f.yaml', text }], []);
    for (const [label, edit] of edits) {
      const edited = edit(text);
      // An edit whose anchor text is gone would test nothing.
      expect(edited, label).not.toBe(text);
      text = edited;
      model.update([{ path: 'f.yaml', text }], []);
      const fresh = new WorkspaceModel(kindProblems);
      fresh.update([{ path: 'f.yaml', text }], []);
      expect(signature(model), label).toEqual(signature(fresh));
      expect(model.lastReparsed, label).toBeLessThanOrEqual(2);
    }
  });

  it('re-parses exactly one document when one document of a large file changes', () => {
    const docs = Array.from(
      { length: 300 },
      (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s${i}\n  namespace: ns\nspec:\n  ports:\n  - port: 80\n`,
    );
    const text = docs.join('---\n');
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'big.yaml', text }], []);
    expect(model.lastReparsed).toBe(300);
    const edited = text.replace('name: s150\n', 'name: s150-renamed\n  labels: {a: b}\n');
    model.update([{ path: 'big.yaml', text: edited }], []);
    expect(model.lastReparsed).toBe(1);
    const names = model.resources().map((r) => r.name);
    expect(names[150]).toBe('s150-renamed');
    const last = model.resources()[299]!;
    const fresh = new WorkspaceModel(kindProblems);
    fresh.update([{ path: 'big.yaml', text: edited }], []);
    expect(last.source).toEqual(fresh.resources()[299]!.source);
  });
});
