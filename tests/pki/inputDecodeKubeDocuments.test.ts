// Which container a JSON or YAML document is, as src/core/pki/input.ts decides it (certs spec
// §1.2 rules A, B, C and F, in that order, and E for text around PEM blocks). Expectations
// follow the spec's signatures: A is an Envoy /config_dump whose `configs` hold a
// SecretsConfigDump, other entries ignored; B is istioctl's SecretsConfigDump with any of its
// lists at the top (protojson writes only the non-empty ones, in either casing); C is a list
// of objects with `identity`, `state` and `certChain`, or an object whose `certificates` are
// such objects; F is a Secret, a ConfigMap, or `kind: List` of them (`kubectl get -o yaml`),
// one per `---` document (helm template output has empty and comment-only documents). JSON
// follows RFC 8259 as JSON.parse and Go's encoding/json read it (a repeated member: the last
// one wins), where a YAML reader refuses repeated keys. A kubeconfig (`kind: Config`) is read
// for its certificates as client-go reads it (current-context → cluster and user). Lines are
// those of the texts built here (1-based); certificates come from pkiBuilder.ts.
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type Value } from '../../src/core/pki/input.ts';
import { leaf, root, type Issued } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';
import { b64, secret } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Documents Root' });
const other = await root({ subject: 'CN=Documents Other Root' });
const client = await leaf(ca);
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const derHex = (c: Issued): string => hexOf(c.der);

const decode = (text: string, name = 'in.yaml'): Decoded => decodeInputs([{ name, text }]);

/** Every certificate found (DER hex), in order. */
const certs = (values: Value[]): string[] => values.flatMap((v) => v.artefacts.flatMap((a) => (a.kind === 'certificate' ? [hexOf(a.cert.der)] : [])));

function lineOf(lines: string[], start: string, from = 0): number {
  const i = lines.findIndex((l, n) => n >= from && l.trimStart().startsWith(start));
  expect(i, `a line starting with ${start}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/** Nothing recognised: the whole text is one value with no artefact and an info (spec: no rule matched). */
function expectUnrecognised(d: Decoded): void {
  expect(d.objects).toEqual([]);
  expect(d.dumps).toEqual([]);
  expect(d.ztunnel).toEqual([]);
  expect(d.remotes).toEqual([]);
  expect(d.values.map((v) => [v.encoding, v.artefacts.length])).toEqual([['text', 0]]);
  expect(d.problems.map((p) => p.severity)).toEqual(['info']);
}

const secretObject = (name: string, namespace: string, rootPem: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  data: { 'root-cert.pem': b64(rootPem) },
});

describe('JSON is read as JSON', () => {
  it('a pasted JSON Secret (after a blank line) with a repeated member takes the last one, as JSON.parse and encoding/json do', () => {
    const stale = JSON.stringify(secretObject('old', 'istio-system', pem(other)));
    const current = JSON.stringify(secretObject('cacerts', 'istio-system', pem(ca)));
    // The members of the second object repeat those of the first: {"apiVersion":…,"kind":…,…,"apiVersion":…}.
    const text = `\n${stale.slice(0, -1)},${current.slice(1)}\n`;
    const d = decode(text, 'cacerts.json');
    expect(d.objects.map((o) => `${o.kind} ${o.ref.namespace}/${o.ref.name}`)).toEqual(['Secret istio-system/cacerts']);
    expect(certs(d.values)).toEqual([derHex(ca)]);
    expect(d.problems).toEqual([]);
  });
});

describe('YAML that cannot be read', () => {
  it.each([
    ['kind:', ''],
    ['kind :', ' '],
  ])('a Secret written with "%s" and a bad indentation is an error naming the line, and nothing else is read', (_, gap) => {
    const lines = [`apiVersion${gap}: v1`, `kind${gap}: Secret`, 'metadata:', `  name${gap}: cacerts`, `    namespace${gap}: istio-system`, 'data: {}', ''];
    const d = decode(lines.join('\n'), 'cacerts.yaml');
    expect(d.values).toEqual([]);
    expect(d.objects).toEqual([]);
    expect(d.problems.map((p) => [p.severity, p.origin.input])).toEqual([['error', 'cacerts.yaml']]);
    // js-yaml marks the place as (line:column); the bad line is the fifth.
    expect(d.problems[0]!.message).toMatch(/\(5:\d+\)/);
  });

  it('a PEM followed by a Secret manifest is PEM with text after it (spec E: text around blocks is ignored)', () => {
    const text = `${pem(ca)}apiVersion: v1\nkind: Secret\n`;
    const d = decode(text, 'notes.txt');
    expect(d.values.map((v) => v.encoding)).toEqual(['pem']);
    expect(certs(d.values)).toEqual([derHex(ca)]);
    expect(d.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });
});

describe('YAML streams', () => {
  it('helm template output: empty and comment-only documents are skipped, and each key has the line it is on', () => {
    const lines = [
      '---',
      '# Source: mesh/templates/notes.yaml',
      '---',
      '---',
      '# Source: mesh/templates/cacerts.yaml',
      ...secret('cacerts', { 'root-cert.pem': pem(ca) })
        .trimEnd()
        .split('\n'),
      '',
    ];
    const d = decode(lines.join('\n'));
    expect(d.objects.map((o) => o.ref.name)).toEqual(['cacerts']);
    expect(d.values.map((v) => [v.origin.key, v.origin.line])).toEqual([['root-cert.pem', lineOf(lines, '"root-cert.pem":')]]);
    expect(certs(d.values)).toEqual([derHex(ca)]);
  });

  it("two Secrets of the same name in two namespaces: the second one's key is on its own line", () => {
    const first = secret('cacerts', { 'root-cert.pem': pem(ca) }, { namespace: 'mesh-a' });
    const second = secret('cacerts', { 'root-cert.pem': pem(other) }, { namespace: 'mesh-b' });
    const lines = `${first}---\n${second}`.split('\n');
    const d = decode(lines.join('\n'));
    expect(d.objects.map((o) => o.ref.namespace)).toEqual(['mesh-a', 'mesh-b']);
    const separator = lines.indexOf('---');
    expect(d.values.map((v) => [v.origin.object?.namespace, v.origin.line])).toEqual([
      ['mesh-a', lineOf(lines, '"root-cert.pem":')],
      ['mesh-b', lineOf(lines, '"root-cert.pem":', separator)],
    ]);
  });

  it('`kubectl get secret -o yaml` writes data before metadata: each key still has the line it is on', () => {
    const lines = [
      'apiVersion: v1',
      'data:',
      `  ca.crt: ${b64(pem(ca))}`,
      `  tls.crt: ${b64(pem(client))}`,
      'kind: Secret',
      'metadata:',
      '  name: ingress-cert',
      '  namespace: istio-system',
      'type: kubernetes.io/tls',
      '',
    ];
    const d = decode(lines.join('\n'));
    expect(d.values.map((v) => [v.origin.key, v.origin.line])).toEqual([
      ['ca.crt', 3],
      ['tls.crt', 4],
    ]);
  });

  it('helm output of other kinds only (a Deployment) holds no container: one unrecognised value', () => {
    const text = [
      '---',
      '# Source: app/templates/deployment.yaml',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: reviews',
      'spec:',
      '  replicas: 1',
      '',
    ].join('\n');
    expectUnrecognised(decode(text));
  });
});

describe('kind: List (kubectl get -o yaml)', () => {
  it('a List of Secrets gives each Secret, with the line of each key', () => {
    const lines = [
      'apiVersion: v1',
      'items:',
      '- apiVersion: v1',
      '  data:',
      `    ca.crt: ${b64(pem(ca))}`,
      '  kind: Secret',
      '  metadata:',
      '    name: gw-a',
      '    namespace: istio-system',
      '- apiVersion: v1',
      '  data:',
      `    cacert: ${b64(pem(other))}`,
      '  kind: Secret',
      '  metadata:',
      '    name: gw-b',
      '    namespace: istio-system',
      'kind: List',
      'metadata:',
      '  resourceVersion: ""',
      '',
    ];
    const d = decode(lines.join('\n'));
    expect(d.objects.map((o) => o.ref.name)).toEqual(['gw-a', 'gw-b']);
    expect(certs(d.values)).toEqual([derHex(ca), derHex(other)]);
    expect(d.values.map((v) => [v.origin.key, v.origin.line])).toEqual([
      ['ca.crt', lineOf(lines, 'ca.crt:')],
      ['cacert', lineOf(lines, 'cacert:')],
    ]);
    expect(d.problems).toEqual([]);
  });

  it('a List of TLS Secrets with the same keys: each key has the line it is on in its own item', () => {
    const item = (name: string, c: Issued): string[] => [
      '- apiVersion: v1',
      '  data:',
      `    tls.crt: ${b64(pem(c))}`,
      '  kind: Secret',
      '  metadata:',
      `    name: ${name}`,
      '    namespace: istio-system',
      '  type: kubernetes.io/tls',
    ];
    const lines = ['apiVersion: v1', 'items:', ...item('gw-a', client), ...item('gw-b', other), 'kind: List', 'metadata:', '  resourceVersion: ""', ''];
    const d = decode(lines.join('\n'));
    const second = lines.indexOf('    name: gw-a');
    expect(d.values.map((v) => [v.origin.object?.name, v.origin.key, v.origin.line])).toEqual([
      ['gw-a', 'tls.crt', lineOf(lines, 'tls.crt:')],
      ['gw-b', 'tls.crt', lineOf(lines, 'tls.crt:', second)],
    ]);
    expect(certs(d.values)).toEqual([derHex(client), derHex(other)]);
  });

  it("a SecretList from the API (kubectl get --raw), whose items carry no kind or apiVersion, gives each Secret (apimachinery's decodeToList takes the list's)", () => {
    const raw = {
      kind: 'SecretList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '42' },
      items: [
        { metadata: { name: 'cacerts', namespace: 'istio-system' }, type: 'Opaque', data: { 'root-cert.pem': b64(pem(ca)) } },
        { metadata: { name: 'gw', namespace: 'istio-system' }, type: 'Opaque', data: { cacert: b64(pem(other)) } },
      ],
    };
    const d = decode(JSON.stringify(raw, null, 2), 'secrets.json');
    expect(d.objects.map((o) => [o.ref.kind, o.ref.name])).toEqual([
      ['Secret', 'cacerts'],
      ['Secret', 'gw'],
    ]);
    expect(certs(d.values)).toEqual([derHex(ca), derHex(other)]);
    // A plain List gives no kind: its kind-less items stay unread.
    const plain = decode(JSON.stringify({ ...raw, kind: 'List' }), 'list.json');
    expect(plain.objects).toEqual([]);
  });

  it('a List of Deployments holds no container: one unrecognised value', () => {
    const text = [
      'apiVersion: v1',
      'items:',
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      '    name: reviews',
      '    namespace: default',
      'kind: List',
      'metadata:',
      '  resourceVersion: ""',
      '',
    ].join('\n');
    expectUnrecognised(decode(text));
  });
});

describe('Envoy /config_dump (rule A)', () => {
  const secretsDump = {
    '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump',
    dynamic_active_secrets: [
      {
        name: 'ROOTCA',
        version_info: '2026-06-01T00:00:00Z',
        secret: { name: 'ROOTCA', validation_context: { trusted_ca: { inline_bytes: b64(pem(ca)) } } },
      },
    ],
  };
  const bootstrap = { '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump', bootstrap: { node: { id: 'sidecar~10.0.0.1~reviews.default' } } };

  it('only the SecretsConfigDump entry is read; other entries (another dump, one without @type) are ignored', () => {
    const d = decode(JSON.stringify({ configs: [{}, bootstrap, secretsDump] }, null, 2), 'config_dump.json');
    expect(d.dumps.map((x) => [x.style, x.secrets.map((s) => [s.name, s.status])])).toEqual([['config_dump', [['ROOTCA', 'ACTIVE']]]]);
    expect(d.values).toHaveLength(1);
    expect(certs(d.values)).toEqual([derHex(ca)]);
    expect(d.problems).toEqual([]);
  });

  it('a dump without a SecretsConfigDump is an info naming the missing type, and nothing else', () => {
    const d = decode(JSON.stringify({ configs: [bootstrap] }, null, 2), 'config_dump.json');
    expect(d.dumps).toEqual([]);
    expect(d.values).toEqual([]);
    expect(d.problems.map((p) => [p.severity, p.origin.input])).toEqual([['info', 'config_dump.json']]);
    expect(d.problems[0]!.message).toContain('SecretsConfigDump');
  });
});

describe('istioctl proxy-config secret -o json (rule B): any one list at the top', () => {
  const camelEntry = { name: 'ROOTCA', secret: { name: 'ROOTCA', validationContext: { trustedCa: { inlineBytes: b64(pem(ca)) } } } };
  const snakeEntry = { name: 'ROOTCA', secret: { name: 'ROOTCA', validation_context: { trusted_ca: { inline_bytes: b64(pem(ca)) } } } };

  it.each([
    ['dynamicActiveSecrets', camelEntry, 'ACTIVE'],
    ['dynamicWarmingSecrets', camelEntry, 'WARMING'],
    ['staticSecrets', camelEntry, 'STATIC'],
    ['dynamic_warming_secrets', snakeEntry, 'WARMING'],
    ['static_secrets', snakeEntry, 'STATIC'],
  ])('%s alone', (list, entry, status) => {
    const d = decode(JSON.stringify({ [list]: [entry] }, null, 2), 'secret.json');
    expect(d.dumps.map((x) => [x.style, x.secrets.map((s) => [s.name, s.status])])).toEqual([['istioctl', [['ROOTCA', status]]]]);
    expect(certs(d.values)).toEqual([derHex(ca)]);
    expect(d.problems).toEqual([]);
  });
});

describe('ztunnel certificates (rule C)', () => {
  const identity = 'spiffe://cluster.local/ns/default/sa/reviews';
  const certEntry = (c: Issued) => ({ pem: b64(pem(c)), serialNumber: '1', validFrom: '2026-06-01T00:00:00Z', expirationTime: '2026-06-02T00:00:00Z' });
  const entry = { identity, state: 'Available', certChain: [certEntry(client)], rootCerts: [certEntry(ca)] };

  it('a full dump (an object with certificates) gives each identity and its certificates, and nothing else', () => {
    const d = decode(JSON.stringify({ certificates: [entry], workloads: [] }, null, 2), 'ztunnel.json');
    expect(d.ztunnel.map((z) => z.identities.map((i) => [i.identity, i.state, i.certChain.length, i.rootCerts.length]))).toEqual([
      [[identity, 'Available', 1, 1]],
    ]);
    expect(certs(d.values)).toEqual([derHex(client), derHex(ca)]);
    expect(d.values).toHaveLength(2);
    expect(d.problems).toEqual([]);
  });

  it.each([
    ['objects of another shape', [{ name: 'reviews' }]],
    ['entries without an identity', [{ state: 'Available', certChain: [] }]],
    ['entries with an identity only', [{ identity }]],
    ['an identity next to an object of another shape', [{ identity, state: 'Available', certChain: [] }, { name: 'reviews' }]],
  ])('a list of %s is no ztunnel dump', (_, list) => {
    expectUnrecognised(decode(JSON.stringify(list, null, 2), 'list.json'));
  });

  it.each([
    ['objects without an identity', [{ certFile: '/etc/certs/tls.crt', keyFile: '/etc/certs/tls.key' }]],
    ['an identity next to an object without one', [{ identity, state: 'Available', certChain: [] }, { certFile: '/etc/certs/tls.crt' }]],
  ])('an object whose certificates are %s is no ztunnel dump', (_, list) => {
    expectUnrecognised(decode(JSON.stringify({ certificates: list }, null, 2), 'certs.json'));
  });
});

describe('a kubeconfig (kind: Config)', () => {
  it('its current context gives the cluster CA and the client certificate and key, with one info and nothing else', async () => {
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: west',
      '  cluster:',
      '    server: https://west.example:6443',
      `    certificate-authority-data: ${b64(pem(ca))}`,
      'contexts:',
      '- name: west-admin',
      '  context:',
      '    cluster: west',
      '    user: admin',
      'current-context: west-admin',
      'users:',
      '- name: admin',
      '  user:',
      `    client-certificate-data: ${b64(pem(client))}`,
      `    client-key-data: ${b64(await keyPem(client.keys))}`,
      '',
    ].join('\n');
    const d = decode(text, 'kubeconfig');
    expect(d.remotes.map((r) => [r.server, r.auth, r.error])).toEqual([['https://west.example:6443', 'client certificate', undefined]]);
    const remote = d.remotes[0]!;
    expect(certs([remote.ca!])).toEqual([derHex(ca)]);
    expect(certs([remote.clientCert!])).toEqual([derHex(client)]);
    expect(remote.clientKey?.artefacts.map((a) => a.kind)).toEqual(['private-key']);
    expect(d.values).toHaveLength(3);
    expect(d.problems.map((p) => [p.severity, p.origin.input])).toEqual([['info', 'kubeconfig']]);
    expect(d.problems[0]!.message).toContain('clusters');
    expect(d.problems[0]!.message).toContain('users');
  });
});
