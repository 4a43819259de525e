// Resource and field lines around `---` separators against the golden files' model of
// istioctl's reader (tests/conformance/goldenLog.ts, written from Istio's Go reader, not
// from our splitter): files made of documents, List documents, empty and blank lines, comments and separators (with
// and without trailing blanks) in any order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { renderMessage } from '../../src/core/analysis/render.ts';
import { MESSAGES } from '../../src/core/analysis/messages.ts';
import { locateResources } from '../conformance/goldenLog.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

type Piece = { kind: 'doc' } | { kind: 'list' } | { kind: 'blank' } | { kind: 'spaces' } | { kind: 'comment' } | { kind: 'separator'; trailing: string };

const piece: fc.Arbitrary<Piece> = fc.oneof(
  { arbitrary: fc.constant<Piece>({ kind: 'doc' }), weight: 3 },
  { arbitrary: fc.constant<Piece>({ kind: 'list' }), weight: 1 },
  { arbitrary: fc.constant<Piece>({ kind: 'blank' }), weight: 1 },
  // A line of blanks is not empty for istioctl's reader (it can be a chunk's first line), but the chunk is trimmed before it is parsed.
  { arbitrary: fc.constant<Piece>({ kind: 'spaces' }), weight: 1 },
  { arbitrary: fc.constant<Piece>({ kind: 'comment' }), weight: 1 },
  {
    arbitrary: fc.constantFrom<Piece>({ kind: 'separator', trailing: '' }, { kind: 'separator', trailing: ' ' }, { kind: 'separator', trailing: '  \t' }),
    weight: 3,
  },
);

/** The file's lines: two documents always have a separator between them (else they would be one broken document). */
function fileText(pieces: readonly Piece[]): { text: string; names: string[] } {
  const lines: string[] = [];
  const names: string[] = [];
  let needSeparator = false;
  for (const p of pieces) {
    if (p.kind === 'doc') {
      if (needSeparator) lines.push('---');
      const name = `vs${names.length}`;
      names.push(name);
      lines.push(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        `  name: ${name}`,
        '  namespace: default',
        'spec:',
        '  hosts:',
        `  - ${name}.example`,
      );
      needSeparator = true;
    } else if (p.kind === 'list') {
      if (needSeparator) lines.push('---');
      const name = `vs${names.length}`;
      names.push(name);
      lines.push(
        'apiVersion: v1',
        'kind: List',
        'items:',
        '- apiVersion: networking.istio.io/v1',
        '  kind: VirtualService',
        '  metadata:',
        `    name: ${name}`,
        '    namespace: default',
        '  spec:',
        '    hosts:',
        `    - ${name}.example`,
      );
      needSeparator = true;
    } else if (p.kind === 'blank') lines.push('');
    else if (p.kind === 'spaces') lines.push('   ');
    else if (p.kind === 'comment') lines.push('# note');
    else {
      lines.push(`---${p.trailing}`);
      needSeparator = false;
    }
  }
  return { text: lines.join('\n') + '\n', names };
}

describe("reference and field lines around separators, as istioctl's reader gives them", () => {
  it('agree with the golden files’ model of the reader on generated files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mwb-separators-'));
    try {
      fc.assert(
        fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
          const { text, names } = fileText(pieces);
          if (names.length === 0) return;
          writeFileSync(join(dir, 'f.yaml'), text);
          const istio = locateResources(dir, ['f.yaml']);
          const model = new WorkspaceModel(kindProblems);
          model.update([{ path: 'f.yaml', text }], []);
          for (const name of names) {
            const r = model.resources().find((x) => x.name === name);
            const expected = istio.get(`VirtualService default/${name}`)?.[0];
            expect(r, `${name} in\n${text}`).toBeDefined();
            expect(expected, `${name} for istioctl in\n${text}`).toBeDefined();
            // The lines a message prints: on the resource (no field), and on a field.
            const lineOf = (fieldPath?: string) =>
              renderMessage(
                { type: MESSAGES.ReferencedResourceNotFound, params: ['host', 'x'], resource: r!, ...(fieldPath ? { fieldPath } : {}) },
                'test',
                (f, i) => model.document(f, i),
              ).line;
            expect({ resource: lineOf(), field: lineOf('spec.hosts[0]') }, `${name} in\n${JSON.stringify(text)}`).toEqual({
              resource: expected!.line,
              field: expected!.fields.get('{.spec.hosts[0]}'),
            });
          }
        }),
        { seed: 20261202, numRuns: 300 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
