// Kubernetes Secrets and ConfigMaps as src/core/pki/input.ts reads them (certs spec §1.2 row
// F). Expectations follow Kubernetes: a Secret's `data` is base64 (decoded by Go's
// encoding/json into []byte with base64.StdEncoding, which skips \r and \n but not a space,
// so a value wrapped in a block scalar is fine and one folded into a plain scalar is not; a
// number is "cannot unmarshal number into []byte"; checked with Go 1.26 json.Unmarshal), a
// null value is an empty one (the key is kept: spec F, Istio reports empty keys),
// `stringData` is plain text, a ConfigMap's `data` is text and `binaryData` base64; an object
// with no namespace is in `default`, a Secret with no type is `Opaque` (a ConfigMap has no
// type); names are DNS names and data keys match `[-._a-zA-Z0-9]+`, so the API server refuses
// a name or key with a space. Istio remote secrets (label `istio/multiCluster: "true"`) hold
// a kubeconfig per key, in `data` or `stringData`; a share link's redaction marker
// (document/redactionMarkers.ts) stands for a removed value. Nesting counts as in spec §1.1
// (at most 4 containers: the Secret, then each base64 layer). Lines are those of the texts
// built here; certificates come from pkiBuilder.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type KubeObject, type Value } from '../../src/core/pki/input.ts';
import { DATA_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { leaf, root, type Issued } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';
import { b64, configMap, secret } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Kube Root' });
const other = await root({ subject: 'CN=Other Root' });
const server = await leaf(ca);
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const decodeYaml = (text: string, name = 'objects.yaml'): Decoded => decodeInputs([{ name, text }]);

/** The 1-based line of the first line of `lines` that starts with `start` (after indentation). */
function lineOf(lines: string[], start: string): number {
  const i = lines.findIndex((l) => l.trimStart().startsWith(start));
  expect(i, `a line starting with ${start}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/** The certificates (as DER hex) of a value. */
const certsOf = (v: Value | undefined): string[] => (v?.artefacts ?? []).flatMap((a) => (a.kind === 'certificate' ? [hexOf(a.cert.der)] : []));

const derHex = (c: Issued): string => hexOf(c.der);

function onlyObject(d: Decoded): KubeObject {
  expect(d.objects).toHaveLength(1);
  return d.objects[0]!;
}

describe('defaults the API server applies', () => {
  it('a Secret with no namespace is in "default", and with no type is Opaque; it is no remote secret', () => {
    const text = ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: gw-cred', 'data:', `  cacert: ${b64(pem(ca))}`, ''].join('\n');
    const d = decodeYaml(text);
    const obj = onlyObject(d);
    expect(obj.ref).toEqual({ kind: 'Secret', namespace: 'default', name: 'gw-cred' });
    expect(obj.type).toBe('Opaque');
    expect(obj.badKeys).toEqual([]);
    expect(certsOf(obj.values.get('cacert'))).toEqual([derHex(ca)]);
    expect(d.remotes).toEqual([]);
    expect(d.problems).toEqual([]);
  });

  it('a ConfigMap has no type', () => {
    const obj = onlyObject(decodeYaml(configMap('istio-ca-root-cert', { 'root-cert.pem': pem(ca) })));
    expect(obj.kind).toBe('ConfigMap');
    expect(obj.type).toBe('');
    expect(certsOf(obj.values.get('root-cert.pem'))).toEqual([derHex(ca)]);
  });

  it('a Secret of type kubernetes.io/tls keeps its type', () => {
    const obj = onlyObject(decodeYaml(secret('ingress-cert', { 'tls.crt': pem(server) }, { type: 'kubernetes.io/tls' })));
    expect(obj.type).toBe('kubernetes.io/tls');
  });
});

describe('names and keys the API server would refuse', () => {
  // A space is allowed in none of them: metadata names and namespaces are DNS names, data keys [-._a-zA-Z0-9]+.
  const badName = 'ca certs';
  const badNamespace = 'istio system';
  const badDataKey = 'root cert';
  const badTextKey = 'chain pem';
  const lines = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    `  name: ${badName}`,
    `  namespace: ${badNamespace}`,
    'data:',
    `  ${badDataKey}: ${b64(pem(ca))}`,
    'stringData:',
    `  ${badTextKey}: ${JSON.stringify(pem(server))}`,
    '',
  ];
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  let obj!: KubeObject;
  beforeEach(() => {
    d = decodeYaml(lines.join('\n'));
    obj = onlyObject(d);
  });

  it('each is a warning at the object, naming the field it is in', () => {
    const objectLine = lineOf(lines, 'name:');
    expect(d.problems.map((p) => [p.severity, p.origin.line])).toEqual([
      ['warning', objectLine],
      ['warning', objectLine],
      ['warning', objectLine],
      ['warning', objectLine],
    ]);
    const fields = ['metadata.namespace', 'metadata.name', 'data key', 'stringData key'];
    fields.forEach((field, i) => expect(d.problems[i]!.message).toContain(field));
  });

  it('none is shown as given; a placeholder names its length, and the namespace given is not replaced by "default"', () => {
    expect(obj.ref.name).not.toContain(badName);
    expect(obj.ref.name).toContain(String(badName.length));
    expect(obj.ref.namespace).not.toContain(badNamespace);
    expect(obj.ref.namespace).not.toBe('default');
    expect(obj.ref.namespace).toContain(String(badNamespace.length));
    const keys = [...obj.values.keys()];
    expect(keys).toHaveLength(2);
    expect(keys.join(' ')).not.toContain(badDataKey);
    expect(keys[0]).toContain(String(badDataKey.length));
    expect(keys[1]).toContain(String(badTextKey.length));
  });

  it('the values are still read', () => {
    const [dataValue, textValue] = [...obj.values.values()];
    expect(certsOf(dataValue)).toEqual([derHex(ca)]);
    expect(certsOf(textValue)).toEqual([derHex(server)]);
  });
});

describe('data values (base64, decoded as encoding/json decodes []byte)', () => {
  it('an empty value (null in YAML) in data and in stringData is an empty key, kept, with no problem', () => {
    const text = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: gw-cred',
      '  namespace: istio-system',
      'data:',
      '  key:',
      'stringData:',
      '  cacert:',
      '',
    ].join('\n');
    const d = decodeYaml(text);
    const obj = onlyObject(d);
    expect(obj.badKeys).toEqual([]);
    expect([...obj.values.entries()].map(([k, v]) => [k, v.encoding, v.bytes.length])).toEqual([
      ['key', 'empty', 0],
      ['cacert', 'empty', 0],
    ]);
    expect(d.problems).toEqual([]);
  });

  it("base64 wrapped over lines in a block scalar is read (Go's base64 skips line breaks)", () => {
    const wrapped = b64(pem(ca)).replace(/(.{76})/g, '$1\n    ');
    const text = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: cacerts',
      '  namespace: istio-system',
      'data:',
      '  root-cert.pem: |',
      `    ${wrapped}`,
      '',
    ].join('\n');
    const d = decodeYaml(text);
    const obj = onlyObject(d);
    expect(obj.badKeys).toEqual([]);
    expect(certsOf(obj.values.get('root-cert.pem'))).toEqual([derHex(ca)]);
    expect(d.problems).toEqual([]);
  });

  it.each([
    ['a number', '12345678'],
    ['text that is not base64', '"not base64!"'],
    // A plain scalar folded over two lines is "QUJD REVG": Go's decoder stops at the space ("illegal base64 data at input byte 4").
    ['base64 with a space in it', 'QUJD\n    REVG'],
  ])('%s is a bad key: an error at the key naming it, and no value for it', (_, written) => {
    const lines = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: cacerts',
      '  namespace: istio-system',
      'data:',
      `  root-cert.pem: ${b64(pem(ca))}`,
      `  serial: ${written}`,
      '',
    ];
    const d = decodeYaml(lines.join('\n'), 'cacerts.yaml');
    const obj = onlyObject(d);
    expect(obj.badKeys).toEqual(['serial']);
    expect([...obj.values.keys()]).toEqual(['root-cert.pem']);
    expect(d.problems.map((p) => [p.severity, p.origin.input, p.origin.key, p.origin.line])).toEqual([
      ['error', 'cacerts.yaml', 'serial', lineOf(lines, 'serial:')],
    ]);
    expect(d.problems[0]!.origin.object).toEqual({ kind: 'Secret', namespace: 'istio-system', name: 'cacerts' });
    expect(d.problems[0]!.message).toContain('serial');
  });

  it("a ConfigMap's binaryData is base64 (here of DER) and its data is text", () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: trust',
      '  namespace: istio-system',
      'binaryData:',
      `  root.der: ${Buffer.from(ca.der).toString('base64')}`,
      'data:',
      `  other.pem: ${JSON.stringify(pem(other))}`,
      '',
    ].join('\n');
    const obj = onlyObject(decodeYaml(text));
    const der = obj.values.get('root.der');
    expect(der?.encoding).toBe('der');
    expect(certsOf(der)).toEqual([derHex(ca)]);
    expect(certsOf(obj.values.get('other.pem'))).toEqual([derHex(other)]);
  });
});

describe('a key whose value holds another container', () => {
  it("each key keeps its own leaf value (base64 of PEM inside data), not another key's", () => {
    const d = decodeYaml(secret('cacerts', { 'ca-cert.pem': pem(ca), 'cert-chain.pem': b64(pem(server)), 'root-cert.pem': b64(pem(other)) }));
    const obj = onlyObject(d);
    expect(certsOf(obj.values.get('ca-cert.pem'))).toEqual([derHex(ca)]);
    expect(certsOf(obj.values.get('cert-chain.pem'))).toEqual([derHex(server)]);
    expect(certsOf(obj.values.get('root-cert.pem'))).toEqual([derHex(other)]);
    expect(obj.values.get('root-cert.pem')?.origin.path).toEqual(['Secret istio-system/cacerts', 'root-cert.pem', 'base64 of PEM']);
  });

  it("the same key in two objects: each object's key holds that object's certificate", () => {
    const text = `${secret('gw-a', { 'ca.crt': b64(pem(ca)) })}---\n${secret('gw-b', { 'ca.crt': b64(pem(other)) })}`;
    const d = decodeYaml(text);
    expect(d.objects.map((o) => o.ref.name)).toEqual(['gw-a', 'gw-b']);
    expect(certsOf(d.objects[0]!.values.get('ca.crt'))).toEqual([derHex(ca)]);
    expect(certsOf(d.objects[1]!.values.get('ca.crt'))).toEqual([derHex(other)]);
  });

  const nested = (pemText: string, times: number): string => {
    let s = pemText;
    for (let i = 0; i < times; i++) s = b64(s);
    return s;
  };

  it('the Secret counts as a container: base64 three times more inside its data is read (four containers)', () => {
    const d = decodeYaml(secret('deep', { 'ca.crt': nested(pem(ca), 3) }));
    const v = onlyObject(d).values.get('ca.crt');
    expect(certsOf(v)).toEqual([derHex(ca)]);
    expect(v?.origin.path).toEqual(['Secret istio-system/deep', 'ca.crt', 'base64', 'base64', 'base64 of PEM']);
  });

  it('four times more is a fifth container: not read, a warning', () => {
    const d = decodeYaml(secret('deep', { 'ca.crt': nested(pem(ca), 4) }));
    expect(d.values.flatMap((v) => certsOf(v))).toEqual([]);
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
  });
});

describe('Istio remote secrets (a kubeconfig per key)', () => {
  const kubeconfig = async (): Promise<string> =>
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: west',
      '  cluster:',
      '    server: https://west.example:6443',
      `    certificate-authority-data: ${b64(pem(ca))}`,
      'contexts:',
      '- name: west',
      '  context:',
      '    cluster: west',
      '    user: west',
      'current-context: west',
      'users:',
      '- name: west',
      '  user:',
      `    client-certificate-data: ${b64(pem(server))}`,
      `    client-key-data: ${b64(await keyPem(server.keys))}`,
      '',
    ].join('\n');

  const remoteSecret = (field: 'data' | 'stringData', value: string): string =>
    [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: istio-remote-secret-west',
      '  namespace: istio-system',
      '  labels:',
      '    istio/multiCluster: "true"',
      `${field}:`,
      `  west: ${JSON.stringify(value)}`,
      '',
    ].join('\n');

  it('a kubeconfig given in stringData is read like one in data', async () => {
    const d = decodeYaml(remoteSecret('stringData', await kubeconfig()));
    expect(d.remotes.map((r) => [r.clusterId, r.server, r.auth, r.error])).toEqual([['west', 'https://west.example:6443', 'client certificate', undefined]]);
    expect(certsOf(d.remotes[0]!.ca)).toEqual([derHex(ca)]);
    expect(certsOf(d.remotes[0]!.clientCert)).toEqual([derHex(server)]);
    expect(d.problems).toEqual([]);
  });

  it('a kubeconfig a share link redacted is not checked: an info naming the key, and no cluster', () => {
    const text = remoteSecret('data', DATA_MARKER);
    const d = decodeYaml(text);
    expect(d.remotes).toEqual([]);
    expect(d.problems.map((p) => [p.severity, p.origin.key, p.origin.line])).toEqual([['info', 'west', lineOf(text.split('\n'), 'west:')]]);
    expect(d.problems[0]!.message).toContain('"west"');
  });
});
