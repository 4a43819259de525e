// The documented redaction rules (docs/sharing.md, the head of redact.ts), one
// by one, with the exact text a share link must carry: what a Secret keeps (its identity:
// apiVersion, kind, type, immutable; metadata name, namespace and the fields the API server
// sets; labels and annotations but kubectl's last-applied copy; data keys; empty values,
// markers and certificates), the marker each place gets (base64 of REDACTED in `data`,
// REDACTED elsewhere, the private-key marker where a PEM block stood), what counts as a
// Secret or a kubeconfig, where an item is listed, and that no line moves.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, findSecrets, redact } from '../../src/core/share/redact.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const indent = (s: string, n: number) =>
  s
    .trimEnd()
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');
const D = JSON.stringify(DATA_MARKER);
const S = JSON.stringify(STRING_MARKER);
const CONSERVATIVE = 'a document that could not be read as YAML: every value masked';

function one(text: string, path = 'p.yaml') {
  const r = redact([{ path, text }]);
  return { text: r.files[0]!.text, items: r.items, same: r.files[0] === undefined ? false : r.files[0].text === text };
}
const whats = (text: string) => one(text).items.map((i) => `${i.line} ${i.what}`);

describe('what a Secret keeps', () => {
  it('its identity and shape; every other value masked with the marker of its place', () => {
    const text = `apiVersion: v1
kind: Secret
immutable: true
metadata:
  name: s
  namespace: ns
  generateName: s-
  uid: 0a1b2c3d
  resourceVersion: "42"
  creationTimestamp: "2024-01-01T00:00:00Z"
  generation: 3
  deletionTimestamp: "2024-01-02T00:00:00Z"
  deletionGracePeriodSeconds: 30
  finalizers: [example.com/hold]
  ownerReferences: [{name: owner}]
  labels:
    app: web
  annotations:
    note: hello
type: Opaque
data:
  a: ${b64('hunter2-correct-horse')}
  empty: ""
  none:
stringData:
  pw: hunter2
  multi: |
    line one
    line two
  e: ''
extra: value # a comment
`;
    const want = text
      .replace('[example.com/hold]', `[${S}]`)
      .replace('[{name: owner}]', `[{name: ${S}}]`)
      .replace(`a: ${b64('hunter2-correct-horse')}`, `a: ${D}`)
      .replace('pw: hunter2', `pw: ${S}`)
      .replace('multi: |\n    line one\n    line two\n', `multi: ${S}\n\n\n`)
      .replace('extra: value # a comment', `extra: ${S} #`);
    const r = one(text);
    expect(r.text).toBe(want);
    expect(r.items.map((i) => `${i.line} ${i.what}`)).toEqual([
      '14 Secret ns/s metadata.finalizers',
      '15 Secret ns/s metadata.ownerReferences',
      '22 Secret ns/s data["a"]',
      '26 Secret ns/s stringData["pw"]',
      '27 Secret ns/s stringData["multi"]',
      '31 Secret ns/s extra',
      '31 Secret ns/s comment',
    ]);
  });

  it('names the Secret by namespace and name, by name alone, or not at all', () => {
    expect(whats('kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: hunter2\n')).toEqual(['4 Secret s stringData["pw"]']);
    expect(whats('kind: Secret\nmetadata: {namespace: ns}\nstringData:\n  pw: hunter2\n')).toEqual(['4 Secret ns/ stringData["pw"]']);
    expect(whats('kind: Secret\nstringData:\n  pw: hunter2\n')).toEqual(['3 Secret stringData["pw"]']);
  });

  it("kubectl's last-applied annotation is masked, other annotations and labels stay", () => {
    const text = `kind: Secret\nmetadata:\n  name: s\n  labels: {tier: db}\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{"kind":"Secret"}'\n    owner: team-a\n`;
    const r = one(text);
    expect(r.text).toBe(text.replace(`'{"kind":"Secret"}'`, S));
    expect(r.items.map((i) => i.what)).toEqual(['Secret s metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]']);
  });

  it('a key that is not a plain name is masked with its value (in the Secret, metadata, labels and data)', () => {
    const text = `kind: Secret\nmetadata:\n  name: s\n  "odd key": x\n  labels:\n    "a b": c\n? [complex]\n: v\ndata:\n  "k k": ${b64('hunter2-correct-horse')}\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: Secret\nmetadata:\n  name: s\n  ${S}: ${S}\n  labels:\n    ${S}: ${S}\n? [${S}]\n: ${S}\ndata:\n  ${S}: ${D}\n`);
  });

  it('an identity field that holds key material, or runs over lines, is masked too', () => {
    const key = JSON.stringify(M.ecSec1!);
    const text = `kind: Secret\nmetadata:\n  name: s\n  annotations:\n    k: ${key}\ntype: "kubernetes.io/tls\n  more"\n`;
    const r = one(text);
    expect(r.text).not.toContain('MHcCAQEE');
    expect(r.text).toContain(`type: ${S}\n`);
    expect(r.text.split('\n')).toHaveLength(text.split('\n').length);
  });

  it('keeps empty values and markers, so that redacting twice changes nothing', () => {
    const text = `kind: Secret\nmetadata: {name: s}\ndata:\n  a: ${D}\n  b: ""\n  c: ${b64(STRING_MARKER)}\n  d: ${b64(PRIVATE_KEY_MARKER)}\n  e: ${b64(`  ${STRING_MARKER}${' '.repeat(38)}`)}\nstringData:\n  f: ${S}\n  g: "${PRIVATE_KEY_MARKER}"\n  h: ${DATA_MARKER}\n  i: ''\n`;
    expect(b64(`  ${STRING_MARKER}${' '.repeat(38)}`)).toHaveLength(64);
    const r = one(text);
    expect(r.text).toBe(text);
    expect(r.items).toEqual([]);
  });

  it('keeps certificates: base64 of PEM or DER in data, PEM in stringData; not a key in either', () => {
    const der = b64(
      Buffer.from(
        M.leafCert!.split('\n')
          .filter((l) => l && !l.startsWith('-----'))
          .join(''),
        'base64',
      ),
    );
    const text = `kind: Secret\nmetadata: {name: s}\ndata:\n  ca.crt: ${b64(M.rootCert!)}\n  der: ${der}\n  k: ${M.rsaDerBase64}\nstringData:\n  tls.crt: |\n${indent(M.leafCert!, 4)}\n  tls.key: |\n${indent(M.ecSec1!, 4)}\n`;
    const r = one(text);
    expect(r.text).toContain(`ca.crt: ${b64(M.rootCert!)}\n`);
    expect(r.text).toContain(`der: ${der}\n`);
    expect(r.text).toContain(`k: ${D}\n`);
    expect(r.text).toContain(`tls.crt: |\n${indent(M.leafCert!, 4)}\n`);
    // A key inside a Secret gets the Secret's marker, not the private-key one, and its lines stay as blank lines.
    expect(r.text).toContain(`tls.key: ${S}\n${'\n'.repeat(M.ecSec1!.trimEnd().split('\n').length)}`);
    expect(r.text).not.toContain(PRIVATE_KEY_MARKER);
  });

  it('inside any other field: nested maps masked key by key (keys that are not plain names too), metadata maps but labels and annotations masked', () => {
    const text = `kind: Secret\nmetadata:\n  name: s\n  other: {k: v}\nextra:\n  "some secret key": v\n  plain: w\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: Secret\nmetadata:\n  name: s\n  other: {k: ${S}}\nextra:\n  ${S}: ${S}\n  plain: ${S}\n`);
    expect(r.items.map((i) => i.what)).toEqual(['Secret s metadata.other', 'Secret s extra', 'Secret s extra', 'Secret s extra']);
  });

  it('a data or stringData that is not a mapping is masked as a whole', () => {
    expect(one(`kind: Secret\nmetadata: {name: s}\ndata: ${b64('hunter2-correct-horse')}\n`).text).toBe(`kind: Secret\nmetadata: {name: s}\ndata: ${S}\n`);
  });
});

describe('what counts as a Secret', () => {
  const doc = (kind: string) => `apiVersion: v1\nkind: ${kind}\nmetadata: {name: s}\nstringData:\n  pw: hunter2\n`;

  it('Secret however written while typed: case, stray characters, a trailing word after a dash', () => {
    for (const kind of ['Secret', 'secret', 'SECRET', '"Secret"', `'Secret"'`, 'Se-cret', '" Secret"', 'Secret-old', '"Secret, v1"']) {
      expect(one(doc(kind)).text, kind).toContain(`pw: ${S}`);
    }
  });

  it('other kinds that only contain the word are not Secrets', () => {
    for (const kind of ['SecretProviderClass', 'Secrets', 'MySecret', 'ExternalSecret', '"x Secret"']) {
      const text = doc(kind);
      expect(one(text).text, kind).toBe(text);
    }
  });

  it('no kind and a data or a stringData field; or the word Secret in the apiVersion', () => {
    expect(one(`apiVersion: v1\nmetadata: {name: s}\ndata:\n  k: ${b64('hunter2-correct-horse')}\n`).text).toContain(`k: ${D}`);
    expect(one('apiVersion: v1\nmetadata: {name: s}\nstringData:\n  k: hunter2\n').text).toContain(`k: ${S}`);
    expect(one('apiVersion: v1 Secret\nkind: Thing\nmetadata: {name: s}\nspec:\n  k: hunter2\n').text).toContain(`k: ${S}`);
    // A kind that names something else keeps its data.
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: plain-value\n';
    expect(one(configMap).text).toBe(configMap);
    // A kind that is not a string is no kind.
    expect(one(`apiVersion: v1\nkind: 42\nmetadata: {name: c}\ndata:\n  k: ${b64('plain-value')}\n`).text).toContain(`k: ${D}`);
  });

  it('Secrets as List items and in a bare sequence, each named', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- kind: Secret\n  metadata: {name: a}\n  stringData: {pw: hunter2}\n- kind: ConfigMap\n  metadata: {name: b}\n  data: {k: plain}\n`;
    expect(one(text).text).toBe(text.replace('pw: hunter2', `pw: ${S}`));
    expect(whats(text)).toEqual(['6 Secret a stringData["pw"]']);
    const seq = `- kind: Secret\n  metadata: {name: a}\n  stringData: {pw: hunter2}\n- kind: Secret\n  metadata: {name: b}\n  stringData: {pw: swordfish}\n`;
    expect(one(seq).text).toBe(seq.replace('pw: hunter2', `pw: ${S}`).replace('pw: swordfish', `pw: ${S}`));
  });
});

describe('kubeconfigs', () => {
  const users = `users:\n- name: admin\n  user:\n    token: abcdefgh-token\n    client-certificate-data: ${b64(M.leafCert!)}\n`;
  const clusters = 'clusters:\n- name: c\n  cluster: {server: "https://10.0.0.1:6443"}\n';
  const contexts = 'contexts:\n- name: ctx\n  context: {cluster: c, user: admin}\ncurrent-context: ctx\n';
  const masked = (t: string) => t.replace('name: admin\n  user', `name: ${S}\n  user`).replace('token: abcdefgh-token', `token: ${S}`);

  it('kind Config, or users with clusters or contexts: clusters and contexts stay, users are masked but certificates', () => {
    for (const text of [
      `apiVersion: v1\nkind: Config\n${clusters}${contexts}${users}`,
      `kind: Config\n${users}`,
      `${clusters}${users}`,
      `${contexts}${users}`,
    ]) {
      const r = one(text);
      expect(r.text, text).toBe(masked(text));
      expect(r.items.map((i) => i.what)).toEqual(['kubeconfig users', 'kubeconfig users']);
    }
  });

  it('a kubeconfig kept in a value: masked as a whole, named as credentials', () => {
    const kubeconfig = `kind: Config\n${clusters}${users}`;
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  config: |\n${indent(kubeconfig, 4)}\n`;
    const r = one(text);
    expect(r.text).toBe(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  config: ${S}\n${'\n'.repeat(kubeconfig.trimEnd().split('\n').length)}`);
    expect(r.items.map((i) => `${i.line} ${i.what}`)).toEqual(['5 kubeconfig credentials']);
  });
});

describe('key material outside Secrets', () => {
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}\n`;

  it('a PEM block is cut where it stands and named by its label', () => {
    const text = configMap(`  tls.key: |\n${indent(M.ecSec1!, 4)}\n  other: plain`);
    const r = one(text);
    const lines = M.ecSec1!.trimEnd().split('\n').length;
    expect(r.text).toBe(configMap(`  tls.key: |\n    ${PRIVATE_KEY_MARKER}${'\n'.repeat(lines - 1)}\n  other: plain`));
    expect(r.items.map((i) => `${i.line} ${i.what}`)).toEqual(['7 ec private key']);
  });

  it('a base64 key becomes the data marker; a JSON-escaped one is cut in place', () => {
    const r = one(configMap(`  k: ${b64(M.rsaPkcs8!)}\n  j: ${JSON.stringify(M.rsaPkcs1!)}`));
    expect(r.text).toBe(configMap(`  k: ${D}\n  j: "${PRIVATE_KEY_MARKER}\\n"`));
    expect(r.items.map((i) => i.what)).toEqual(['private key (encoded)', 'rsa private key']);
  });

  it('a base64 key written in groups shorter than a key, spaced on one line, is masked (was shared as it was)', () => {
    const r = one(configMap(`  k: ${M.rsaDerBase64!.match(/.{1,32}/g)!.join(' ')}`));
    expect(r.text).toBe(configMap(`  k: ${D}`));
    expect(r.items.map((i) => i.what)).toEqual(['private key (encoded)']);
  });

  it('a key whose armour is folded: the whole value gets the private-key marker', () => {
    const folded = M.rsaPkcs1!.replace('-----BEGIN RSA PRIVATE KEY-----', '-----BEGIN RSA PRIVATE\nKEY-----');
    const r = one(configMap(`  k: |\n${indent(folded, 4)}`));
    expect(r.text).toBe(configMap(`  k: ${JSON.stringify(PRIVATE_KEY_MARKER)}${'\n'.repeat(folded.trimEnd().split('\n').length)}`));
    expect(r.items.map((i) => i.what)).toEqual(['private key (encoded)']);
  });

  it('what the value rule cannot place is caught by the check: the document is masked conservatively', () => {
    // A JSON-escaped key with its armour folded: read, it is a key; as written, the escapes
    // split its lines out of step, so no cut covers it.
    const folded = M.rsaPkcs1!.replace('-----BEGIN RSA PRIVATE KEY-----', '-----BEGIN RSA PRIVATE\n    KEY-----');
    const text = configMap(`  k: ${JSON.stringify(folded)}`);
    const r = one(text);
    expect(r.text).toBe('apiVersion: REDACTED\nkind: REDACTED\nmetadata:\n  name: REDACTED\ndata:\n  k: REDACTED\n');
    expect(r.items).toEqual([{ file: 'p.yaml', line: 1, what: CONSERVATIVE }]);
  });

  it('a Secret kept as text in a value is masked and named so', () => {
    const r = one(configMap('  s.yaml: "apiVersion: v1\\nkind: Secret\\nstringData: {pw: hunter2}"'));
    expect(r.text).toBe(configMap(`  s.yaml: ${S}`));
    expect(r.items.map((i) => i.what)).toEqual(['a Secret written as text']);
  });

  it('a key block at the start of a line is listed on that line', () => {
    const text = `${M.leafCert!}${M.ecSec1!}`;
    const r = one(text, 'tls.pem');
    expect(r.items).toEqual([{ file: 'tls.pem', line: M.leafCert!.split('\n').length, what: 'ec private key' }]);
    expect(r.text).toBe(`${M.leafCert!}${PRIVATE_KEY_MARKER}${'\n'.repeat(M.ecSec1!.split('\n').length - 1)}`);
  });

  it('in comments: a key wrapped and commented out line by line, and the shortest run read (40 characters)', () => {
    const lines = b64(M.ed25519Pkcs8!).match(/.{1,24}/g)!;
    const text = `kind: ConfigMap\n${lines.map((l) => `# ${l}`).join('\n')}\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: ConfigMap\n# ${DATA_MARKER}${'\n'.repeat(lines.length)}`);
    // The same after a YAML line whose last word reads as base64 too, and in a value after a word.
    const after = `kind: ConfigMap\n${lines.map((l) => `  # ${l}`).join('\n')}\n`;
    expect(one(after).text).toBe(`kind: ConfigMap\n  # ${DATA_MARKER}${'\n'.repeat(lines.length)}`);
    const value = `kind: ConfigMap\ndata:\n  k: |\n    backup\n${lines.map((l) => `    ${l}`).join('\n')}\n`;
    expect(one(value).text).not.toContain(lines[1]);
    const key30 = b64(Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), Buffer.alloc(15, 0x41)]));
    expect(key30).toHaveLength(40);
    expect(one(`kind: ConfigMap\n# ${key30}\n`).text).toBe(`kind: ConfigMap\n# ${DATA_MARKER}\n`);
  });

  it('a commented-out key two lines below the words that joined its run: the cut starts at the key', () => {
    const lines = b64(M.ed25519Pkcs8!).match(/.{1,24}/g)!;
    const text = `kind: ConfigMap\n# backup\n${lines.map((l) => `# ${l}`).join('\n')}\n`;
    expect(one(text).text).toBe(`kind: ConfigMap\n# backup\n# ${DATA_MARKER}${'\n'.repeat(lines.length)}`);
  });

  it('a comment holding a base64 key is cut from the raw text', () => {
    const text = `# ${b64(M.ed25519Pkcs8!)}\nkind: ConfigMap\n`;
    const r = one(text);
    expect(r.text).toBe(`# ${DATA_MARKER}\nkind: ConfigMap\n`);
    expect(r.items).toEqual([{ file: 'p.yaml', line: 1, what: 'private key (encoded)' }]);
  });
});

describe('a document the app cannot read', () => {
  // docs/sharing.md: masked conservatively "when it could hold a secret at all (it mentions a Secret,
  // has a data key, armour, base64 long enough for a key, an escape or an alias)".
  const broken = (sign: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nspec:\n  x: [unclosed\n${sign}\n`;
  const masked = (sign: string) => one(broken(sign)).items.some((i) => i.what === CONSERVATIVE);

  it('with no sign of a secret it stays as written', () => {
    for (const sign of ['  note: plain words only', `  note: ${'A'.repeat(39)}`, '  metadata: x', '  mydata: x', '  note: s e c r e x']) {
      expect(one(broken(sign)).text, sign).toBe(broken(sign));
    }
  });

  it('each sign alone makes it masked conservatively', () => {
    for (const sign of [
      '  note: the Secret',
      '  note: s-e-c-r-e-t',
      '  note: S e C r E t',
      '  users: []',
      '  note: BEGIN',
      '  note: b e g\tin',
      '  data: x',
      '  stringData: x',
      '  "data": x',
      "  'data' : x",
      '  {data: x}',
      '  ,data: x',
      '  data  :  x',
      '  note: a\\x',
      '  note: *ref',
      `  note: ${'A'.repeat(40)}`,
    ]) {
      expect(masked(sign), sign).toBe(true);
    }
    expect(one('data: [unclosed\n').items).toEqual([{ file: 'p.yaml', line: 1, what: CONSERVATIVE }]);
  });
});

describe('a quote that may have swallowed the lines below it', () => {
  const doc = (open: string, line: string, close: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${open}first line\n${line}${close}\n  other: plain\n`;

  it('a quoted value running over a line that reads as a mapping entry masks the document', () => {
    for (const q of ['"', "'"]) {
      for (const line of ['    second: line', '    - item: x', '    "quoted": x', "    'quoted': x", '    a.b/c-d_e: x', '    key:\tx', '\tkey: x', 'key: x']) {
        const text = doc(q, line, q);
        expect(one(text).items, `${q} ${line}`).toEqual([{ file: 'p.yaml', line: 1, what: CONSERVATIVE }]);
      }
    }
  });

  it('a quoted value running over prose, a URL or a list item without a key stays', () => {
    for (const q of ['"', "'"]) {
      for (const line of ['    just words here', '    see http://example.com', '    - item', '    key :x', '    two words: x']) {
        const text = doc(q, line, q);
        expect(one(text).text, `${q} ${line}`).toBe(text);
      }
    }
  });
});

describe('the check across documents', () => {
  const pw = 'correct-horse-battery-staple-0123456789';
  const secret = `kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${pw}\n`;

  it('a masked value repeated in another document masks that document conservatively', () => {
    const r = one(`${secret}---\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${pw}\n`);
    expect(r.text).toBe(`kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${S}\n---\nkind: REDACTED\nmetadata: REDACTED\ndata:\n  note: REDACTED\n`);
    expect(r.items).toEqual([
      { file: 'p.yaml', line: 4, what: 'Secret s stringData["pw"]' },
      { file: 'p.yaml', line: 6, what: CONSERVATIVE },
    ]);
  });

  it('a masked value written as a key elsewhere: the whole file is masked, keys too (bug: the key stayed)', () => {
    // Every line but its indentation, blank lines and document markers.
    expect(one(`${secret}---\nkind: ConfigMap\ndata:\n\n  ${pw}: x\n`).text).toBe(
      'REDACTED\nREDACTED\nREDACTED\n  REDACTED\n---\nREDACTED\nREDACTED\n\n  REDACTED\n',
    );
    for (const text of [`${secret}---\nkind: ConfigMap\ndata:\n  ${pw}: x\n`, `kind: ConfigMap\ndata:\n  ${pw}: x\n---\n${secret}`]) {
      const r = one(text);
      expect(r.text).not.toContain(pw);
      expect(r.text.split('\n')).toHaveLength(text.split('\n').length);
      expect(r.text).toContain('\n---\n');
      expect(r.items.map((i) => i.what)).toContain('the whole file: every value masked');
    }
  });

  it('items come in line order, also after the check added some', () => {
    const r = one(`kind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${pw}\n---\n${secret}`);
    expect(r.items.map((i) => i.line)).toEqual([1, 9]);
  });
});

describe('the API', () => {
  it('a file without secrets is returned as the same object; findSecrets lists what redact replaces', () => {
    const plain = { path: 'a.yaml', text: 'kind: ConfigMap\ndata: {a: b}\n' };
    const secret = { path: 'b.yaml', text: 'kind: Secret\nstringData: {pw: hunter2}\n' };
    const r = redact([plain, secret]);
    expect(r.files[0]).toBe(plain);
    expect(r.files[1]).not.toBe(secret);
    expect(findSecrets([plain, secret])).toEqual(r.items);
    expect(findSecrets([plain, secret])).toEqual([{ file: 'b.yaml', line: 2, what: 'Secret stringData["pw"]' }]);
  });
});

describe('places and lines', () => {
  it('lists items on the line they were on with LF, CRLF and lone CR', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const text = ['kind: Secret', 'metadata: {name: s}', '# note', 'stringData:', '  a: one-value', '  b: two-value', ''].join(nl);
      const r = one(text);
      expect(
        r.items.map((i) => i.line),
        JSON.stringify(nl),
      ).toEqual([3, 5, 6]);
      expect(r.text).toBe(text.replace('# note', '#').replace('one-value', S).replace('two-value', S));
    }
  });

  it('items across files and documents come in line order per file', () => {
    const r = redact([
      { path: 'a.yaml', text: 'kind: Secret\nstringData: {pw: hunter2}\n---\nkind: Secret\nstringData: {pw: swordfish}\n' },
      { path: 'b.yaml', text: 'kind: ConfigMap\n' },
    ]);
    expect(r.items).toEqual([
      { file: 'a.yaml', line: 2, what: 'Secret stringData["pw"]' },
      { file: 'a.yaml', line: 5, what: 'Secret stringData["pw"]' },
    ]);
    expect(r.files[1]!.text).toBe('kind: ConfigMap\n');
  });

  it('a document that cannot be read is masked conservatively and listed once', () => {
    const text = 'kind: ConfigMap\n---\nkind: Secret\nmetadata: {name: s}\ndata: {a: [unclosed\n---\nkind: ConfigMap\n';
    const r = one(text);
    expect(r.items).toEqual([{ file: 'p.yaml', line: 3, what: CONSERVATIVE }]);
    expect(r.text.startsWith('kind: ConfigMap\n---\n')).toBe(true);
    expect(r.text.endsWith('---\nkind: ConfigMap\n')).toBe(true);
    expect(r.text.split('\n')).toHaveLength(text.split('\n').length);
  });
});
