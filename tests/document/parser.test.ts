import { describe, expect, it } from 'vitest';
import { splitDocuments } from '../../src/core/document/split.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { PARSER_CODES, jsonErrorOffset } from '../../src/core/document/parse.ts';
import { renderMessage } from '../../src/core/analysis/render.ts';
import { MESSAGES } from '../../src/core/analysis/messages.ts';
import type { Resource } from '../../src/core/document/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function model(files: Record<string, string>): WorkspaceModel {
  const m = new WorkspaceModel(kindProblems);
  m.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  return m;
}

function fieldLine(m: WorkspaceModel, r: Resource, fieldPath?: string): number | undefined {
  const d = renderMessage({ type: MESSAGES.ReferencedResourceNotFound, params: ['x', 'y'], resource: r, ...(fieldPath ? { fieldPath } : {}) }, 'test', (f, i) =>
    m.document(f, i),
  );
  return d.line;
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('document splitting and reference lines', () => {
  it('uses the first non-blank line after a separator, comments included', () => {
    const text = [
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: a}',
      '---',
      '',
      '# about b',
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: b}',
      '---   ',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: c}',
      '',
    ].join('\n');
    const docs = splitDocuments('f.yaml', text);
    expect(docs.map((d) => [d.index, d.startLine, d.referenceLine])).toEqual([
      [0, 1, 1],
      [1, 5, 6],
      [2, 12, 12],
    ]);
  });

  it('puts a field message on the value line, counted the way istioctl counts it', () => {
    const text = [
      '# leading comment',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: a',
      '---',
      '',
      '# comment first',
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      '  name: vs',
      'spec:',
      '  hosts:',
      '  - a.example',
      '',
    ].join('\n');
    const m = model({ 'f.yaml': text });
    const [svc, vs] = m.resources();
    expect(svc?.source?.line).toBe(1);
    expect(vs?.source?.line).toBe(8);
    expect(fieldLine(m, vs as Resource)).toBe(8);
    expect(fieldLine(m, vs as Resource, 'spec.hosts[0]')).toBe(lineOf(text, '- a.example'));
    // A path that does not resolve falls back to the resource line.
    expect(fieldLine(m, vs as Resource, 'spec.gateways[0]')).toBe(8);
  });

  it("takes `---` followed by Go's whitespace as a separator, and nothing else", () => {
    const doc = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
    // Form feed, vertical tab, NBSP and an ideographic space are whitespace to Go's unicode.IsSpace.
    for (const tail of ['', ' \t', '\f', '\v', '\u00a0', '\u3000', '\r']) {
      expect(splitDocuments('f.yaml', doc('a') + `---${tail}\n` + doc('b')).length, JSON.stringify(tail)).toBe(2);
    }
    // Anything else after the dashes makes it an ordinary line (a comment too, for istioctl's reader).
    for (const tail of ['x', ' # c', '-', '\ufeff']) {
      expect(splitDocuments('f.yaml', doc('a') + `---${tail}\n` + doc('b')).length, JSON.stringify(tail)).toBe(1);
    }
  });

  it("counts field lines from a separator that istioctl's reader keeps at the head of a chunk", () => {
    // Its reader ends a chunk at a separator only when it has read something since the last
    // one ended; otherwise the separator becomes the next chunk's first line, and field lines
    // (counted in the chunk, plus the reference line, minus one) come out one further down.
    const vs = (name: string) =>
      ['apiVersion: networking.istio.io/v1', 'kind: VirtualService', 'metadata:', `  name: ${name}`, 'spec:', '  hosts:', `  - ${name}.example`].join('\n') +
      '\n';
    const hostLine = (text: string, name: string) => {
      const m = model({ 'f.yaml': text });
      const r = m.resources().find((x) => x.name === name) as Resource;
      return {
        ref: r.source?.line,
        field: fieldLine(m, r, 'spec.hosts[0]'),
        own: lineOf(text, `- ${name}.example`),
        kept: m.document('f.yaml', r.source!.docIndex)?.separatorInChunk,
      };
    };
    // The file's first line.
    let text = '---\n' + vs('a') + '---\n' + vs('b');
    expect(hostLine(text, 'a')).toEqual({ ref: 2, field: lineOf(text, '- a.example') + 1, own: lineOf(text, '- a.example'), kept: true });
    expect(hostLine(text, 'b')).toMatchObject({ field: lineOf(text, '- b.example'), kept: false });
    // Two separators at the file's start: the second ends the (empty) chunk the first began.
    text = '---\n---\n' + vs('a');
    expect(hostLine(text, 'a')).toMatchObject({ ref: 3, field: lineOf(text, '- a.example'), kept: false });
    // The second of two separators between documents is kept; a blank line between them breaks the pair.
    text = vs('a') + '---\n---\n' + vs('b');
    expect(hostLine(text, 'b')).toMatchObject({ field: lineOf(text, '- b.example') + 1, kept: true });
    text = vs('a') + '---\n\n---\n' + vs('b');
    expect(hostLine(text, 'b')).toMatchObject({ field: lineOf(text, '- b.example'), kept: false });
    // A kept separator with trailing blanks is also the chunk's first line: the resource line moves up to it and fields keep their own lines.
    text = '---  \n' + vs('a');
    expect(hostLine(text, 'a')).toEqual({ ref: 1, field: lineOf(text, '- a.example'), own: lineOf(text, '- a.example'), kept: true });
    // CRLF line ends: the reader drops the CR with the LF, so this is a plain `---`.
    text = ('---\n' + vs('a')).replace(/\n/g, '\r\n');
    expect(hostLine(text, 'a')).toMatchObject({ ref: 2, field: lineOf(text, '- a.example') + 1, kept: true });
  });

  it('expands kind: List and *List documents into their items', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: s1}',
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata:',
      '    name: p1',
      '---',
      'apiVersion: v1',
      'kind: ServiceList',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: s2}',
      '',
    ].join('\n');
    const m = model({ 'l.yaml': text });
    const rs = m.resources();
    expect(rs.map((r) => `${r.gvk.kind}/${r.name}#${r.source?.itemIndex}`)).toEqual(['Service/s1#0', 'Pod/p1#1', 'Service/s2#0']);
    const pod = rs[1] as Resource;
    const d = renderMessage({ type: MESSAGES.ReferencedResourceNotFound, params: ['a', 'b'], resource: pod, fieldPath: 'metadata.name' }, undefined, (f, i) =>
      m.document(f, i),
    );
    expect(d.range?.startLine).toBe(lineOf(text, 'name: p1'));
    expect(m.problems()).toEqual([]);
  });

  // kubectl decodes a document with `items` as an UnstructuredList (apimachinery
  // meta/v1/unstructured/helpers.go decodeToList, `Items []json.RawMessage`): items that are not
  // a list make it refuse the document; `items: null` is an empty list.
  it('refuses a List whose items is not a list, with the decoding error kubectl gives, and reads items: null as empty', () => {
    const m = model({
      'l.yaml': 'apiVersion: v1\nkind: List\nitems: 5\n---\napiVersion: v1\nkind: ServiceList\nitems: {a: 1}\n---\napiVersion: v1\nkind: List\nitems: null\n',
    });
    expect(m.resources()).toEqual([]);
    const problems = m.problems();
    expect(problems.map((p) => [p.code, p.line])).toEqual([
      [PARSER_CODES.badList, 1],
      [PARSER_CODES.badList, 5],
    ]);
    expect(problems[0]!.message).toContain('json: cannot unmarshal number into Go struct field decodeList.items of type []json.RawMessage');
    expect(problems[1]!.message).toContain('cannot unmarshal object into Go struct field decodeList.items');
  });
});

describe('parser problems', () => {
  it('reports a YAML syntax error with its line and column, and still parses the other documents', () => {
    const text = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: [broken',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: fine',
      '',
    ].join('\n');
    const m = model({ 's.yaml': text });
    expect(m.resources().map((r) => r.name)).toEqual(['fine']);
    const [p] = m.problems();
    expect(p?.code).toBe(PARSER_CODES.syntax);
    expect(p?.file).toBe('s.yaml');
    expect(p?.line).toBe(4);
    expect(p?.range?.startLine).toBe(4);
    expect(p?.range?.startCol).toBeGreaterThan(1);
  });

  it("keeps the later value of a duplicate key; outside Istio's kinds the earlier key gets a warning", () => {
    const text = ['apiVersion: v1', 'kind: Service', 'metadata:', '  name: first', '  name: second', ''].join('\n');
    const m = model({ 'd.yaml': text });
    expect(m.resources().map((r) => r.name)).toEqual(['second']);
    const [p] = m.problems();
    expect(p?.code).toBe(PARSER_CODES.duplicateKey);
    expect(p?.level).toBe('Warning');
    expect(p?.line).toBe(4);
    expect(p?.message).toBe(
      'The API server would reject this object (as YAML with strict field validation; kubectl apply -f keeps the later value): strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map',
    );
  });

  it('rejects an alias bomb with a clear message', () => {
    const rows = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'data:', '  a: &a ["x","x","x","x","x","x","x","x","x"]'];
    let prev = 'a';
    for (const n of ['b', 'c', 'd', 'e', 'f']) {
      rows.push(`  ${n}: &${n} [${Array(9).fill(`*${prev}`).join(',')}]`);
      prev = n;
    }
    const m = model({ 'bomb.yaml': rows.join('\n') + '\n' });
    expect(m.resources()).toEqual([]);
    const [p] = m.problems();
    expect(p?.code).toBe(PARSER_CODES.aliasLimit);
    expect(p?.message).toMatch(/aliases expand too much/);
  });

  it('explains documents that are not Kubernetes objects', () => {
    const m = model({ 'n.yaml': 'just: a map\n---\n- a\n- list\n' });
    const ps = m.problems();
    expect(ps.map((p) => [p.code, p.line])).toEqual([
      [PARSER_CODES.notK8s, 1],
      [PARSER_CODES.notK8s, 3],
    ]);
    expect(ps[0]?.message).toMatch(/not a Kubernetes object/);
  });

  it("gives the items of a typed list written without kind and apiVersion the list's (apimachinery decodeToList), as the API server's lists are", () => {
    // `kubectl get --raw /api/v1/namespaces/ns/services`: the items carry no kind or apiVersion.
    const raw = {
      kind: 'ServiceList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7' },
      items: [
        { metadata: { name: 'a', namespace: 'ns' }, spec: { ports: [{ port: 80 }] } },
        { kind: 'Service', metadata: { name: 'b', namespace: 'ns' } },
        { apiVersion: 'v1', metadata: { name: 'c', namespace: 'ns' } },
      ],
    };
    const plain = { kind: 'List', apiVersion: 'v1', items: [{ metadata: { name: 'd', namespace: 'ns' } }] };
    const m = model({ 'raw.json': JSON.stringify(raw, null, 2), 'list.json': JSON.stringify(plain) });
    expect(m.resources().map((r) => [r.kindId, r.name, r.body.apiVersion, r.body.kind])).toEqual([['core/Service', 'a', 'v1', 'Service']]);
    // An item with a kind or an apiVersion of its own keeps it (kubectl then refuses it), and a
    // plain List has no kind to give.
    expect(m.problems().map((p) => [p.file, p.code])).toEqual([
      ['raw.json', PARSER_CODES.notK8s],
      ['raw.json', PARSER_CODES.notK8s],
      ['list.json', PARSER_CODES.notK8s],
    ]);
  });

  it('reads JSON files through the YAML reader (as istioctl does) and locates JSON syntax errors', () => {
    const good = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'j', namespace: 'ns' } }, null, 2);
    const flow = '{apiVersion: v1, kind: Service, metadata: {name: flow, namespace: ns}}\n';
    const bom = `\ufeff${JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'bom', namespace: 'ns' } })}`;
    const bad = '{\n  "apiVersion": "v1",\n  "kind": "Service",,\n}\n';
    const m = model({ 'good.json': good, 'flow.json': flow, 'bom.json': bom, 'bad.json': bad });
    expect(m.resources().map((r) => `${r.namespace}/${r.name}`)).toEqual(['ns/j', 'ns/flow', 'ns/bom']);
    const ps = m.problems();
    expect(ps).toHaveLength(1);
    expect(ps[0]?.code).toBe(PARSER_CODES.json);
    expect(ps[0]?.range).toMatchObject({ startLine: 3, startCol: 21 });
    expect(ps[0]?.message).not.toMatch(/\n/);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": tru}')).toBe(6);
  });

  it('does not parse binary files', () => {
    const m = model({ 'image.yaml': 'PNG\u0000\u0001\u0002binary' });
    expect(m.documentCount()).toBe(0);
    expect(m.problems().map((p) => p.code)).toEqual([PARSER_CODES.binary]);
  });
});

describe('incremental parsing', () => {
  it('re-parses only the edited document', () => {
    const docsText = Array.from({ length: 20 }, (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s${i}\n`);
    const m = new WorkspaceModel(kindProblems);
    m.update([{ path: 'm.yaml', text: docsText.join('---\n') }], []);
    expect(m.lastReparsed).toBe(20);
    m.update([{ path: 'other.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n' }], []);
    expect(m.lastReparsed).toBe(1); // m.yaml untouched
    const edited = [...docsText];
    edited[7] = edited[7]!.replace('s7', 's7-renamed');
    m.update([{ path: 'm.yaml', text: edited.join('---\n') }], []);
    expect(m.lastReparsed).toBe(1);
    expect(m.resources().map((r) => r.name)).toContain('s7-renamed');
    m.update([], ['other.yaml']);
    expect(m.lastReparsed).toBe(0);
    expect(m.fileList().map((f) => f.path)).toEqual(['m.yaml']);
  });
});
