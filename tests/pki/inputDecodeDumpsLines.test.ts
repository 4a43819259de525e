// Where src/core/pki/input.ts says an object and its keys sit (Origin.line, 1-based), how objects
// from the workspace store and single values are decoded, and which names it shows. Expected
// lines are those of the texts built here (the line where each document, `name:` or key was put).
// YAML documents are separated by `---` lines, which may carry a comment (YAML 1.2 §9.1.4);
// comment and blank lines before a document are not part of it. Kubernetes: object names are DNS
// subdomains and data keys match [-._a-zA-Z0-9]+, both at most 253 characters
// (apimachinery validation IsDNS1123Subdomain, IsConfigMapKey). Go's encoding/pem reads the label
// between "-----BEGIN " and "-----"; a PEM folded onto one line makes that label run on into
// the body, which must not be echoed (it may be a private key).
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeInputs, decodeKubeObject, decodeValue, type Decoded } from '../../src/core/pki/input.ts';
import { root } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';
import { b64, secret } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Lines Root' });
const caPem = pem(ca);
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The 1-based line of the first line equal to `line` at or after `from` (1-based). */
function lineOf(lines: string[], line: string, from = 1): number {
  const i = lines.indexOf(line, from - 1);
  expect(i, `line "${line}"`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

const decodeLines = (lines: string[]): Decoded => decodeInputs([{ name: 'objects.yaml', text: lines.join('\n') }]);

/** [namespace, line] of every object. */
const objectLines = (d: Decoded) => d.objects.map((o) => [o.ref.namespace, o.origin.line]);

describe('the line of each document of a YAML stream', () => {
  // Names in flow style are not on a line of their own, so each object is placed at its
  // document's first line.
  const lines = [
    '# ConfigMaps exported by hand',
    '  # from two namespaces',
    '---',
    '',
    '   ',
    'apiVersion: v1',
    '# ----- the first namespace -----',
    'kind: ConfigMap',
    'metadata: {name: roots, namespace: first}',
    `data: {root-cert.pem: ${JSON.stringify(caPem)}}`,
    '--- # the second namespace',
    '# same name',
    '',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: roots, namespace: second}',
    `data: {root-cert.pem: ${JSON.stringify(caPem)}}`,
  ];
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  beforeEach(() => {
    d = decodeLines(lines);
  });

  it('each object is placed at the first line of its document, past comments, blank lines and separators', () => {
    expect(objectLines(d)).toEqual([
      ['first', lineOf(lines, 'apiVersion: v1')],
      ['second', lineOf(lines, 'apiVersion: v1', lineOf(lines, '--- # the second namespace'))],
    ]);
  });

  it('the certificates are read from both', () => {
    expect(d.values.flatMap((v) => v.artefacts).map((a) => (a.kind === 'certificate' ? hexOf(a.cert.der) : a.kind))).toEqual([hexOf(ca.der), hexOf(ca.der)]);
  });
});

describe('the line of an object and of its keys (block style)', () => {
  // The second Secret starts with its metadata, so its name is on the line right after the
  // document's first line.
  const lines = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: cacerts',
    '  namespace: first',
    'data:',
    `  ca.crt: ${b64(caPem)}`,
    '  bad.key: not*base64',
    '---',
    'metadata:',
    '  name: cacerts',
    '  namespace: second',
    'apiVersion: v1',
    'kind: Secret',
    'data:',
    `  ca.crt: ${b64(caPem)}`,
    '  bad.key: not*base64',
  ];
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  beforeEach(() => {
    d = decodeLines(lines);
  });
  const second = lineOf(lines, '---');

  it('an object is at the line of its `name:`, the second one past the first one’s', () => {
    expect(objectLines(d)).toEqual([
      ['first', lineOf(lines, '  name: cacerts')],
      ['second', lineOf(lines, '  name: cacerts', second)],
    ]);
  });

  it('a key is at its own line in its own object', () => {
    expect(d.objects.map((o) => o.values.get('ca.crt')?.origin.line)).toEqual([
      lineOf(lines, `  ca.crt: ${b64(caPem)}`),
      lineOf(lines, `  ca.crt: ${b64(caPem)}`, second),
    ]);
  });

  it('an error about a key names its line in its own object', () => {
    expect(d.problems.map((p) => [p.severity, p.origin.key, p.origin.line])).toEqual([
      ['error', 'bad.key', lineOf(lines, '  bad.key: not*base64')],
      ['error', 'bad.key', lineOf(lines, '  bad.key: not*base64', second)],
    ]);
  });

  it('a name with characters a regular expression treats specially is found literally', () => {
    const dotted = ['apiVersion: v1', 'kind: Secret', 'data: {}', 'metadata:', '  namespace: a', '  name: gw.example.com'];
    const withDots = decodeLines(dotted);
    expect(withDots.objects.map((o) => [o.ref.name, o.origin.line])).toEqual([['gw.example.com', 6]]);
  });
});

describe("kubectl's layout: fields sorted, so data comes before metadata", () => {
  // `kubectl get secret -o yaml` (one object) and `kubectl get secrets -o yaml` (a List).
  it('one Secret: its key is at its own line, above the name', () => {
    const lines = [
      'apiVersion: v1',
      'data:',
      `  ca.crt: ${b64(caPem)}`,
      'kind: Secret',
      'metadata:',
      '  name: cacerts',
      '  namespace: istio-system',
      'type: Opaque',
    ];
    const d = decodeLines(lines);
    expect(objectLines(d)).toEqual([['istio-system', 6]]);
    expect(d.objects[0]!.values.get('ca.crt')?.origin.line).toBe(3);
  });

  it('two in a stream: the first one’s key is in the first one, though its name is its last-but-one line', () => {
    const doc = (ns: string) => ['apiVersion: v1', 'data:', `  ca.crt: ${b64(caPem)}`, 'kind: Secret', 'metadata:', '  name: cacerts', `  namespace: ${ns}`];
    const lines = [...doc('first'), '---', ...doc('second')];
    const d = decodeLines(lines);
    expect(d.objects.map((o) => [o.ref.namespace, o.origin.line, o.values.get('ca.crt')?.origin.line])).toEqual([
      ['first', 6, 3],
      ['second', 14, 11],
    ]);
  });

  it('a List: each item’s key is in that item, not in the next one', () => {
    const item = (name: string) => [
      '- apiVersion: v1',
      '  data:',
      `    ca.crt: ${b64(caPem)}`,
      '  kind: Secret',
      '  metadata:',
      `    name: ${name}`,
      '    namespace: istio-system',
      '  type: Opaque',
    ];
    const lines = ['apiVersion: v1', 'items:', ...item('first'), ...item('second'), 'kind: List', 'metadata:', '  resourceVersion: ""'];
    const d = decodeLines(lines);
    expect(d.objects.map((o) => [o.ref.name, o.origin.line, o.values.get('ca.crt')?.origin.line])).toEqual([
      ['first', lineOf(lines, '    name: first'), lineOf(lines, `    ca.crt: ${b64(caPem)}`)],
      ['second', lineOf(lines, '    name: second'), lineOf(lines, `    ca.crt: ${b64(caPem)}`, lineOf(lines, '    name: first'))],
    ]);
  });
});

describe('decodeKubeObject: an object from the workspace store', () => {
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'cacerts', namespace: 'istio-system' },
    data: { 'ca.crt': b64(caPem) },
  };

  it('is placed at the line the store gives, under the object alone', () => {
    const d = decodeKubeObject('cluster/istio-system/cacerts.yaml', body, 12);
    expect(d.objects.map((o) => o.origin)).toEqual([
      {
        input: 'cluster/istio-system/cacerts.yaml',
        path: ['Secret istio-system/cacerts'],
        object: { kind: 'Secret', namespace: 'istio-system', name: 'cacerts' },
        line: 12,
      },
    ]);
    expect(d.objects[0]!.values.get('ca.crt')?.origin).toMatchObject({ path: ['Secret istio-system/cacerts', 'ca.crt'], key: 'ca.crt', line: 12 });
  });

  it('without a line, at line 1', () => {
    expect(decodeKubeObject('store', body, undefined).objects.map((o) => o.origin.line)).toEqual([1]);
  });
});

describe('decodeValue: one value on its own', () => {
  it('base64 of a PEM: the value is the inner PEM, with its certificate', () => {
    const { value, decoded } = decodeValue({ input: 'ca.b64', path: [] }, new TextEncoder().encode(b64(caPem)));
    expect(value?.encoding).toBe('base64-pem');
    expect(value?.artefacts.map((a) => (a.kind === 'certificate' ? hexOf(a.cert.der) : a.kind))).toEqual([hexOf(ca.der)]);
    expect(decoded.values).toEqual([value]);
  });

  it('a Secret file: the value is the key that holds the certificate, not the empty key before it', () => {
    const text = secret('gw-cred', { 'tls.key': '', 'tls.crt': caPem });
    const { value } = decodeValue({ input: 'gw.yaml', path: [] }, new TextEncoder().encode(text), text);
    expect(value?.origin.key).toBe('tls.crt');
    expect(value?.artefacts.map((a) => a.kind)).toEqual(['certificate']);
  });

  it('a PEM value is returned as it is', () => {
    const { value, decoded } = decodeValue({ input: 'ca.pem', path: ['x'] }, new TextEncoder().encode(caPem), caPem);
    expect(value?.encoding).toBe('pem');
    expect(value?.origin).toEqual({ input: 'ca.pem', path: ['x'] });
    expect(decoded.problems).toEqual([]);
  });
});

describe('names Kubernetes would refuse are not shown', () => {
  const named = (name: string): Decoded => decodeInputs([{ name: 'in.yaml', text: secret(name, { 'ca.crt': caPem }) }]);

  it('a name of 253 characters (the DNS subdomain limit) is shown', () => {
    const name = 'a'.repeat(253);
    const d = named(name);
    expect(d.objects.map((o) => o.ref.name)).toEqual([name]);
    expect(d.problems).toEqual([]);
  });

  it('a name of 254 characters is refused: a warning, and the name is not shown', () => {
    const name = 'a'.repeat(254);
    const d = named(name);
    expect(d.objects[0]!.ref.name).not.toContain(name.slice(0, 64));
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
    expect(d.problems[0]!.message).toContain('254');
  });

  it('a name with a space is refused the same way', () => {
    const d = named('"ca certs"');
    expect(d.objects[0]!.ref.name).not.toContain('ca certs');
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
  });
});

describe('PEM labels', () => {
  it('a PEM folded onto one line (a plain YAML scalar) does not put its body into any message', async () => {
    const key = (await keyPem(ca.keys)).trim().split('\n');
    const body = key.slice(1, -1).join('');
    const folded = [key[0], ...key.slice(1, -1), key.at(-1)].join(' ');
    const d = decodeInputs([{ name: 'key.txt', text: `${folded}\n` }]);
    expect(d.problems.length).toBeGreaterThan(0);
    for (const p of d.problems) expect(p.message).not.toContain(body.slice(0, 24));
    for (const a of d.values.flatMap((v) => v.artefacts)) expect(a.pemType ?? '').not.toContain(body.slice(0, 24));
  });
});
