// Redaction, shape by shape: each test writes a workspace the way a person might (or types
// it half-way), and checks what the issue asks of a share link: no Secret value or private
// key in any encoding survives, the app's own reader finds no unredacted Secret value in the
// result, certificates (and only certificates) stay, and no line moves.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, redact } from '../../src/core/share/redact.ts';
// The fuzz target's oracle: the app's reader walked independently, certificates judged by Node.
import { appSecretValues, certificatesOnly } from '../../fuzz/targets/redact.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const indent = (s: string, n: number) =>
  s
    .trimEnd()
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');
const wrap = (s: string, width: number) => s.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
const CERT = M.leafCert!;
const KEY = M.rsaPkcs8!;

/** The body lines of a PEM block (what must not survive of a key). */
function bodyLines(pem: string): string[] {
  return pem.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----') && !l.includes(':'));
}

const breaks = (s: string) => (s.match(/\r\n|\r|\n/g) ?? []).length;

/** Redacts one file and checks what holds for every input; returns the redacted text. */
function shared(text: string, secrets: string[], path = 'ws.yaml'): string {
  const r = redact([{ path, text }]);
  const out = r.files[0]!.text;
  const flat = out.replace(/\s+/g, '');
  for (const s of secrets) {
    expect(out, `raw ${s.slice(0, 40)}`).not.toContain(s);
    for (const piece of s.replace(/\s+/g, '').match(/.{24}/g) ?? [])
      if (!piece.includes('-----')) expect(flat, `piece of ${s.slice(0, 30)}`).not.toContain(piece);
  }
  for (const v of appSecretValues(path, out)) {
    const plain = v.trim();
    expect(plain === 'REDACTED' || certificatesOnly(v), `Secret value left: ${plain.slice(0, 60)}`).toBe(true);
  }
  expect(breaks(out)).toBe(breaks(text));
  if (secrets.length > 0) expect(r.items.length).toBeGreaterThan(0);
  return out;
}

const secretDoc = (extra = '') => `apiVersion: v1
kind: Secret
metadata:
  name: ingress-cert
  namespace: istio-system
type: kubernetes.io/tls
data:
  tls.crt: ${b64(CERT)}
  tls.key: ${b64(KEY)}
stringData:
  password: hunter2-correct-horse
${extra}`;

describe('Secrets', () => {
  it('masks values, keeps certificates, identity and every line in place', () => {
    const out = shared(secretDoc(), [b64(KEY), 'hunter2-correct-horse', ...bodyLines(KEY)]);
    expect(out).toContain(`tls.crt: ${b64(CERT)}`);
    expect(out).toContain(`tls.key: "${DATA_MARKER}"`);
    expect(out).toContain(`password: "${STRING_MARKER}"`);
    expect(out).toContain('name: ingress-cert');
    expect(out).toContain('type: kubernetes.io/tls');
  });

  it('lists what it replaced with the line it was on', () => {
    const r = redact([{ path: 's.yaml', text: secretDoc() }]);
    expect(r.items).toEqual([
      { file: 's.yaml', line: 9, what: 'Secret istio-system/ingress-cert data["tls.key"]' },
      { file: 's.yaml', line: 11, what: 'Secret istio-system/ingress-cert stringData["password"]' },
    ]);
  });

  it('a certificate with anything else in the value is not public', () => {
    const withPassword = `${CERT}password: hunter2-correct-horse\n`;
    const text = `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  bundle: ${b64(withPassword)}\nstringData:\n  bundle.pem: |\n${indent(withPassword, 4)}\n  fake.pem: |\n    -----BEGIN CERTIFICATE-----\n    aHVudGVyMi1jb3JyZWN0LWhvcnNl\n    -----END CERTIFICATE-----\n`;
    const out = shared(text, ['hunter2-correct-horse', b64(withPassword), 'aHVudGVyMi1jb3JyZWN0LWhvcnNl']);
    expect(out).not.toContain('BEGIN CERTIFICATE');
  });

  it('keeps a chain of certificates and a DER certificate in data', () => {
    const der = Buffer.from(
      CERT.split('\n')
        .filter((l) => !l.startsWith('-----'))
        .join(''),
      'base64',
    ).toString('base64');
    const text = `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  chain: ${b64(CERT + M.rootCert)}\n  der: ${der}\n`;
    expect(shared(text, [])).toBe(text);
  });

  it('masks comments, the last-applied annotation and any other field', () => {
    const text = `apiVersion: v1
kind: Secret
metadata:
  name: s
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"pw":"aHVudGVyMi1jb3JyZWN0LWhvcnNl"}}'
    team: payments
# old password: hunter2-correct-horse
stringData:
  pw: other-password-value # was hunter2-correct-horse
extra: hunter2-correct-horse
`;
    const out = shared(text, ['hunter2-correct-horse', 'aHVudGVyMi1jb3JyZWN0LWhvcnNl', 'other-password-value']);
    expect(out).toContain('team: payments');
  });

  it('redacts a Secret below a document with an unclosed quote', () => {
    for (const q of ['"', "'"]) {
      const text = `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: typing\nspec:\n  hosts: [${q}reviews]\n---\n${secretDoc()}`;
      const out = shared(text, [b64(KEY), 'hunter2-correct-horse']);
      expect(out).toContain('kind: Secret');
      // Nothing in the broken document can be secret (no Secret in any reading, no data, no key): it stays readable.
      expect(out).toContain(`  hosts: [${q}reviews]`);
      // A broken document with a data key may be a Secret whose kind is still to be typed.
      const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typing\ndata:\n  note: ${q}half typed\n`;
      expect(shared(configMap, ['half typed'])).toContain('  note: REDACTED');
    }
  });

  it('masks every value of a broken document that could hold a secret', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typing\n  annotations: {note: "half typed}\ndata:\n  key.pem: ${b64(M.ecSec1!)}\n  mentions: the secret is hunter2-correct-horse\n`;
    const out = shared(text, [b64(M.ecSec1!), 'hunter2-correct-horse']);
    expect(out).toBe(
      'apiVersion: REDACTED\nkind: REDACTED\nmetadata:\n  name: REDACTED\n  annotations: REDACTED\ndata:\n  key.pem: REDACTED\n  mentions: REDACTED\n',
    );
  });

  it('a quote left open after kind: Secret runs on over the lines below (fuzz counterexample)', () => {
    const text = `apiVersion: v1\nkind: "Secret\nmetadata:\n  name: s\ndata: {"k0.config": ${b64('password = Tk1xAAaaAAaaaAAAAaaa00')}}\n`;
    shared(text, [b64('password = Tk1xAAaaAAaaaAAAAaaa00').slice(0, 36)]);
    const swallowed = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    note: "half typed\nstringData:\n  pw: hunter2-correct-horse\n    closes: "\n`;
    shared(swallowed, ['hunter2-correct-horse']);
    const kindSwallowed = `apiVersion: "v1\nkind: Secret\nmetadata:\n  name: s"\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(kindSwallowed, ['hunter2-correct-horse']);
    // Fuzz counterexample (seed 7): `kind: "List` read on to a quote at the end, swallowing a Secret.
    const listSwallowed = `apiVersion: v1\nkind: "List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n  stringData:\n    pw: hunter2-correct-horse\n  "\n`;
    shared(listSwallowed, ['hunter2-correct-horse']);
    const asText = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  secret.yaml: |\n    apiVersion: v1\n    kind: Secret\n    stringData: {pw: hunter2-correct-horse}\n`;
    shared(asText, ['hunter2-correct-horse']);
    // Fuzz counterexample (1M run, seed 20261207): the quote opened on the anchor's line swallows kind.
    const anchorSwallowed = `apiVersion: v1\nx-kind: "&k Secret\nkind: *k\nmetadata:\n  name: s\ndata: {"k0.token": ${b64('Tk0xA0aAAa000a0A0AAAAa')}}\n`;
    shared(anchorSwallowed, ['Tk0xA0aAAa000a0A0AAAAa', b64('Tk0xA0aAAa000a0A0AAAAa').slice(0, 24)]);
    // A quoted value over several lines that are prose, not mapping lines, is no sign of an open quote.
    const prose = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: "first line\n    second line"\n  pw.key: ${b64(M.ecSec1!)}\n`;
    expect(shared(prose, [b64(M.ecSec1!)])).toContain('second line');
    const noKind = `apiVersion: v1\nmetadata:\n  name: s\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(noKind, ['hunter2-correct-horse']);
  });

  it('masks a Secret that itself does not parse, keeping its keys', () => {
    const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  password: "hunter2-correct-horse\n  token: abcdefghijklmnopqrstuvwx\n`;
    const out = shared(text, ['hunter2-correct-horse', 'abcdefghijklmnopqrstuvwx']);
    expect(out).toContain('  password: REDACTED');
    expect(out).toContain('kind: REDACTED');
  });

  it('duplicate data keys: both blocks are masked; duplicate kind keys: the later wins, and a Secret either way', () => {
    const twoData = `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  a: ${b64('first-secret-value-123')}\ndata:\n  b: ${b64('second-secret-value-456')}\n`;
    shared(twoData, ['first-secret-value-123', 'second-secret-value-456', b64('first-secret-value-123')]);
    const laterSecret = `apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata: {name: s}\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(laterSecret, ['hunter2-correct-horse']);
    const laterConfigMap = `apiVersion: v1\nkind: Secret\nkind: ConfigMap\nmetadata: {name: s}\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(laterConfigMap, ['hunter2-correct-horse']);
    // Fuzz counterexamples: the Secret spelled with an escape or an alias, then overridden.
    const aliasThenConfigMap = `apiVersion: v1\nx-kind: &k Secret\nkind: *k\nkind: ConfigMap\nmetadata: {name: s}\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(aliasThenConfigMap, ['hunter2-correct-horse']);
    const escapedThenConfigMap = `apiVersion: v1\nkind: "Secre\\x74"\nkind: ConfigMap\nmetadata: {name: s}\ndata:\n  k0.token: ${b64('Tk0xa00AAaaaaaaaaaAaA0')}\n`;
    shared(escapedThenConfigMap, ['Tk0xa00AAaaaaaaaaaAaA0', b64('Tk0xa00AAaaaaaaaaaAaA0')]);
  });

  it('CR-only and mixed line endings', () => {
    const cr = secretDoc().replace(/\n/g, '\r');
    shared(cr, [b64(KEY), 'hunter2-correct-horse']);
    const two = `apiVersion: v1\rkind: ConfigMap\rmetadata:\r  name: c\r---\r${secretDoc().replace(/\n/g, '\r')}`;
    shared(two, [b64(KEY), 'hunter2-correct-horse']);
    const crlf = `apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: c\r\n---\r\n${secretDoc().replace(/\n/g, '\r\n')}`;
    const out = shared(crlf, [b64(KEY), 'hunter2-correct-horse']);
    expect(out).toContain(`tls.crt: ${b64(CERT)}`);
  });

  it('a separator line followed by a non-breaking space', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\u00a0\n${secretDoc()}`;
    shared(text, [b64(KEY), 'hunter2-correct-horse']);
  });

  it('kind written with escapes, in quotes, with a tag, or through an alias', () => {
    for (const kind of ['"Secre\\x74"', '"\\u0053ecret"', "'Secret'", '!!str Secret']) {
      shared(secretDoc().replace('kind: Secret', `kind: ${kind}`), [b64(KEY), 'hunter2-correct-horse']);
    }
    const alias = `apiVersion: v1\nmetadata:\n  name: s\n  labels: {k: &k Secret}\nkind: *k\nstringData:\n  pw: hunter2-correct-horse\n`;
    shared(alias, ['hunter2-correct-horse']);
  });

  it('a List item, a stringData map, or a value given by an alias; merge keys', () => {
    const listItem = `apiVersion: v1\nkind: List\nmetadata:\n  annotations:\n    x: &s {apiVersion: v1, kind: Secret, metadata: {name: a}, stringData: {pw: hunter2-correct-horse}}\nitems:\n- *s\n`;
    shared(listItem, ['hunter2-correct-horse']);
    const stringData = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  labels: &d {pw: hunter2-correct-horse}\nstringData: *d\n`;
    shared(stringData, ['hunter2-correct-horse']);
    const value = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  labels: {copy: &v hunter2-correct-horse}\nstringData:\n  pw: *v\n`;
    shared(value, ['hunter2-correct-horse']);
    const merge = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations: &base {pw: hunter2-correct-horse}\nstringData:\n  <<: *base\n  other: x\n`;
    shared(merge, ['hunter2-correct-horse']);
    const mergeRoot = `base: &b {apiVersion: v1, kind: Secret, stringData: {pw: hunter2-correct-horse}}\n<<: *b\nmetadata: {name: s}\n`;
    shared(mergeRoot, ['hunter2-correct-horse']);
  });

  it('Secrets in a kubectl List, in JSON, and an istio remote secret', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n  stringData: {token: abcdefghijklmnopqrstuvwx}\n`;
    expect(shared(list, ['abcdefghijklmnopqrstuvwx'])).toContain('token: "REDACTED"');
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'j' }, data: { k: b64('json-secret-value') } }, null, 2);
    const out = shared(json, ['json-secret-value', b64('json-secret-value')], 'j.json');
    expect(JSON.parse(out).data.k).toBe(DATA_MARKER);
    const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: east\n  cluster:\n    server: https://east.example:6443\nusers:\n- name: east\n  user:\n    token: eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.remote-token\n`;
    const remote = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: istio-remote-secret-east\n  namespace: istio-system\n  labels:\n    istio/multiCluster: "true"\n  annotations:\n    networking.istio.io/cluster: east\nstringData:\n  east: |\n${indent(kubeconfig, 4)}\n`;
    const r = shared(remote, ['eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.remote-token']);
    expect(r).toContain('istio/multiCluster: "true"');
  });

  it('a wrapped certificate-plus-key bundle in data, and Secrets inside a SecretList', () => {
    const bundle = wrap(b64(CERT + KEY), 76);
    shared(`apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  tls.pem: |\n${indent(bundle, 4)}\n`, [
      b64(CERT + KEY).slice(900, 1500),
      ...bodyLines(KEY),
    ]);
    const list = `apiVersion: v1\nkind: SecretList\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: a}\n  stringData: {pw: hunter2-correct-horse}\n`;
    shared(list, ['hunter2-correct-horse']);
  });

  it('leaves files without secrets exactly as they were', () => {
    const plain = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n  cert: |\n' + indent(CERT, 4) + '\n';
    const r = redact([{ path: 'p.yaml', text: plain }]);
    expect(r.files[0]!.text).toBe(plain);
    expect(r.items).toEqual([]);
  });
});

describe('private keys and credentials outside Secrets', () => {
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}\n`;

  it('a kubeconfig in a ConfigMap with a wrapped client-key-data and a token', () => {
    const keyData = wrap(b64(M.ecSec1!), 64);
    const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://10.0.0.1\nusers:\n- name: admin\n  user:\n    token: kubeconfig-token-0123456789\n    client-key-data: ${b64(M.ecSec1!)}\n`;
    shared(configMap(`  kubeconfig: |\n${indent(kubeconfig, 4)}`), [b64(M.ecSec1!), 'kubeconfig-token-0123456789', ...bodyLines(M.ecSec1!)]);
    const wrapped = configMap(`  client-key-data: |\n${indent(keyData, 4)}`);
    shared(wrapped, [b64(M.ecSec1!), ...keyData.split('\n').filter((l) => l.length >= 24)]);
  });

  it('a standalone kubeconfig keeps its cluster and masks its users', () => {
    const text = `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://10.0.0.1\n    certificate-authority-data: ${b64(M.rootCert!)}\nusers:\n- name: admin\n  user:\n    username: admin-user\n    password: kubeconfig-password-42\n    client-certificate-data: ${b64(CERT)}\n`;
    const out = shared(text, ['kubeconfig-password-42']);
    expect(out).toContain('server: https://10.0.0.1');
    expect(out).toContain(`certificate-authority-data: ${b64(M.rootCert!)}`);
    expect(out).toContain(`client-certificate-data: ${b64(CERT)}`);
  });

  it('every encoding of a key: PEM kinds, base64 of PEM, with text before BEGIN, DER, PKCS#12, OpenSSH, PGP', () => {
    for (const name of ['rsaPkcs8', 'rsaPkcs1', 'ecSec1', 'encryptedPkcs8', 'ed25519Pkcs8', 'opensshKey', 'pgpKey', 'bagAttributesPem']) {
      const pem = M[name]!;
      shared(configMap(`  key: |\n${indent(pem, 4)}`), bodyLines(pem));
      shared(configMap(`  key: ${b64(pem)}`), [b64(pem)]);
      shared(configMap(`  key: |\n${indent(wrap(b64(pem), 76), 4)}`), [b64(pem)]);
      shared(configMap(`  key: ${JSON.stringify(pem)}`), bodyLines(pem));
    }
    shared(configMap(`  der: ${M.rsaDerBase64}`), [M.rsaDerBase64!]);
    shared(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nbinaryData:\n  store.p12: ${M.pkcs12Base64}\n`, [M.pkcs12Base64!]);
  });

  it('a wrapped base64 key with a quote typed into it (fuzz counterexample)', () => {
    const wrapped = wrap(b64(KEY), 24).split('\n');
    wrapped[0] += '"';
    shared(configMap(`  k0.key: |\n${indent(wrapped.join('\n'), 4)}`), [b64(KEY).slice(24, 400)]);
  });

  it('a PEM header folded across lines, and keys in comments', () => {
    const folded = configMap(`  key: -----BEGIN RSA PRIVATE\n    KEY----- ${bodyLines(M.rsaPkcs1!).join(' ')} -----END RSA PRIVATE KEY-----`);
    shared(folded, bodyLines(M.rsaPkcs1!));
    const commented = `# ${M.ecSec1!.trimEnd().split('\n').join('\n# ')}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n# ${b64(M.ecSec1!)}\n`;
    shared(commented, [...bodyLines(M.ecSec1!), b64(M.ecSec1!)]);
  });

  it('keeps the certificates of a value that also held a key', () => {
    const out = shared(configMap(`  bundle: |\n${indent(CERT + KEY, 4)}`), bodyLines(KEY));
    expect(out).toContain(CERT.split('\n')[1]);
    expect(out).toContain(PRIVATE_KEY_MARKER);
  });

  it('a PEM file with a certificate and a key keeps the certificate as written', () => {
    const out = shared(CERT + KEY, bodyLines(KEY), 'tls.pem');
    expect(out.startsWith(CERT)).toBe(true);
    expect(out).toContain(PRIVATE_KEY_MARKER);
  });

  it('finds a private key in a file that is not YAML', () => {
    shared(`junk: [\n${KEY}`, bodyLines(KEY), 'k.pem');
  });
});
