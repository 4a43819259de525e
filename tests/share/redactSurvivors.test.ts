// Redaction rules that the mutation run (issue #28, reports/mutation/share.nofuzz-survivors.txt)
// showed no unit test pinned: what counts as a kubeconfig, empty and non-text values in a
// Secret, which item names are listed, the self-check (the app's reading of the result and
// the search for pieces of masked values across documents), duplicated kind keys, and the
// last resort. Expected values come from docs/sharing.md's redaction rules and the comments
// of src/core/share/redact.ts, Kubernetes' Secret (data is base64, stringData plain text)
// and kubeconfig formats, and RFC 7468 armour.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, redact } from '../../src/core/share/redact.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const D = JSON.stringify(DATA_MARKER);
const S = JSON.stringify(STRING_MARKER);
const CONSERVATIVE = 'a document that could not be read as YAML: every value masked';

function one(text: string, path = 'p.yaml') {
  const r = redact([{ path, text }]);
  return { text: r.files[0]!.text, items: r.items.map((i) => `${i.line} ${i.what}`), same: r.files[0]!.text === text };
}

/** The body lines of a PEM block. */
const body = (pem: string) =>
  pem
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('-----'));

/**
 * A private key the value rule cannot cut where it is written: its armour folded (as a
 * person typing might), its body wrapped at 16 characters, and the whole written as one
 * JSON-escaped string. Read, it is a key; as written, no armour line and no base64 run of
 * key length shows, and no 32-character piece of it stands in the text (every 16 characters
 * an escape), so only the check's reading of the result can tell.
 */
function escapedNarrowKey(pem: string): string {
  const lines = body(pem)
    .join('')
    .match(/.{1,16}/g)!;
  const label = /-----BEGIN (.*)-----/.exec(pem)![1]!;
  const folded = `-----BEGIN ${label.replace(/ KEY$/, '')}\n KEY-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
  return JSON.stringify(folded);
}

const conservativeConfigMap = (data: string) => `apiVersion: REDACTED\nkind: REDACTED\nmetadata:\n  name: REDACTED\n${data}`;

describe('the check reads the result: key material the value rule could not cut', () => {
  const key = escapedNarrowKey(M.ecSec1!);

  it('is what the test says it is: no armour line and no 32-character piece of the key in the written text', () => {
    expect(key).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    const flatKey = body(M.ecSec1!).join('');
    for (let i = 0; i + 32 <= flatKey.length; i += 8) expect(key).not.toContain(flatKey.slice(i, i + 32));
  });

  it('in a mapping value: the document is masked conservatively', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: ${key}\n`;
    const r = one(text);
    expect(r.text).toBe(conservativeConfigMap('data:\n  k: REDACTED\n'));
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });

  it('in a sequence, after another item: the document is masked conservatively', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nkeys:\n- plain\n- ${key}\n`;
    const r = one(text);
    expect(r.text).toBe(conservativeConfigMap('keys:\n- REDACTED\n- REDACTED\n'));
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });

  it('written as a mapping key: the document is masked conservatively (keys are read too)', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  ${key}: x\n`;
    const r = one(text);
    expect(r.text).toBe(conservativeConfigMap('data:\n  REDACTED\n'));
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });

  it('an empty list or map next to a Secret is no finding: the Secret is masked precisely', () => {
    const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  finalizers: []\n  labels: {}\nstringData:\n  pw: hunter2\n`;
    const r = one(text);
    expect(r.text).toBe(text.replace('pw: hunter2', `pw: ${S}`));
    expect(r.items).toEqual(['8 Secret s stringData["pw"]']);
  });
});

describe('kubeconfigs', () => {
  it('a user token copied into another document: that document is masked conservatively', () => {
    const token = 'tok-0123456789abcdefghij';
    const text = `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://10.0.0.1:6443"}\nusers:\n- name: admin\n  user:\n    token: ${token}\n---\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  copied: ${token}\n`;
    const r = one(text);
    expect(r.text).toBe(
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://10.0.0.1:6443"}\nusers:\n- name: ${S}\n  user:\n    token: ${S}\n---\nkind: REDACTED\nmetadata: REDACTED\ndata:\n  copied: REDACTED\n`,
    );
    expect(r.items).toEqual(['7 kubeconfig users', '9 kubeconfig users', `11 ${CONSERVATIVE}`]);
  });

  it('users without a user field, empty values, booleans and client certificates: masked precisely, certificates and empty values kept', () => {
    const cert = b64(M.leafCert!);
    const text = `kind: Config\nclusters: []\nusers:\n- name: a\n- name: b\n  user:\n    token: ""\n    insecure: true\n    port: 6443\n    client-certificate-data: ${cert}\n`;
    const r = one(text);
    expect(r.text).toBe(
      `kind: Config\nclusters: []\nusers:\n- name: ${S}\n- name: ${S}\n  user:\n    token: ""\n    insecure: ${S}\n    port: ${S}\n    client-certificate-data: ${cert}\n`,
    );
    expect(r.items).toEqual(['4 kubeconfig users', '5 kubeconfig users', '8 kubeconfig users', '9 kubeconfig users']);
  });

  it('users pulled in by a merge key are not masked where they stand: the check reads them and masks the document conservatively', () => {
    // A token shorter than the pieces searched for (12 characters): only the reading can tell.
    const text = 'kind: Config\nbase: &b\n  users:\n  - name: a\n    user: {token: abc123}\n<<: *b\nclusters: []\n';
    const r = one(text);
    expect(r.text).toBe('kind: REDACTED\nbase: REDACTED\n  users:\n  - name: REDACTED\n    user: REDACTED\nREDACTED\nclusters: REDACTED\n');
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });

  it('kind Config without a users list, a users list alone, clusters alone: no kubeconfig, comments and values stay', () => {
    for (const text of [
      'apiVersion: example.com/v1\nkind: Config\nspec:\n  users: 3 # how many users\n',
      'kind: Team\nusers:\n- name: a\n  user: {token: abc} # users of the app\n',
      'users:\n- name: a # the users list\n  user: {token: abc}\n',
      'clusters:\n- name: c # users are elsewhere\n',
      'contexts:\n- name: c # users are elsewhere\n',
    ]) {
      const r = one(text);
      expect(r.text, text).toBe(text);
      expect(r.items, text).toEqual([]);
    }
  });

  it('kind Config with a users list, or users with clusters or contexts, is one: its comments are masked', () => {
    expect(one('kind: Config\nusers: [] # users\n').text).toBe('kind: Config\nusers: [] #\n');
    expect(one('users: [] # users\nclusters: []\n').text).toBe('users: [] #\nclusters: []\n');
    expect(one('users: [] # users\ncontexts: []\n').text).toBe('users: [] #\ncontexts: []\n');
    expect(one('kind: Config\nusers: [] # users\n').items).toEqual(['2 kubeconfig comment']);
  });
});

describe('what counts as a Secret', () => {
  it('apiVersion is text: a list that mentions Secret is no apiVersion', () => {
    const text = 'apiVersion: [v1, Secret]\nkind: Thing\nspec:\n  k: hunter2\n';
    expect(one(text).text).toBe(text);
  });

  it('a Secret after an empty item in a sequence', () => {
    const text = '-\n- kind: Secret\n  metadata: {name: a}\n  stringData: {pw: hunter2}\n';
    const r = one(text);
    expect(r.text).toBe(text.replace('pw: hunter2', `pw: ${S}`));
    expect(r.items).toEqual(['4 Secret a stringData["pw"]']);
  });

  it('Secrets nested in sequences are read down to eight levels', () => {
    const text = `${'['.repeat(8)}{kind: Secret, stringData: {pw: hunter2}}${']'.repeat(8)}\n`;
    expect(one(text).text).toBe(text.replace('pw: hunter2', `pw: ${S}`));
  });

  it('a List whose items key is not the last: the items are found where they are', () => {
    const text = 'apiVersion: v1\nkind: List\nitems:\n- kind: Secret\n  metadata: {name: a}\n  stringData: {pw: hunter2}\nmetadata: {name: l}\n';
    const r = one(text);
    expect(r.text).toBe(text.replace('pw: hunter2', `pw: ${S}`));
    expect(r.items).toEqual(['6 Secret a stringData["pw"]']);
  });
});

describe('a Secret: empty values and values that are not text', () => {
  it('empty values stay as written wherever they are (null, ~, "", \'\', nothing)', () => {
    const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  labels:\n    a: ""\n  finalizers: ~\ndata:\n  a: ~\n  b: null\n  c: ""\nstringData:\n  d: ''\n  e:\n  f: null\nextra: null\nother: ""\nmore: ~\n`;
    const r = one(text);
    expect(r.text).toBe(text);
    expect(r.items).toEqual([]);
  });

  it('numbers and booleans under data and stringData are masked, without failing', () => {
    const text = `kind: Secret\nmetadata: {name: s}\ndata:\n  n: 5\nstringData:\n  port: 8080\n  flag: true\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: Secret\nmetadata: {name: s}\ndata:\n  n: ${D}\nstringData:\n  port: ${S}\n  flag: ${S}\n`);
    expect(r.items).toEqual(['4 Secret s data["n"]', '6 Secret s stringData["port"]', '7 Secret s stringData["flag"]']);
  });

  it('a map or a list under data is no Secret value the check accepts: the document is masked conservatively', () => {
    for (const v of ['{inner: value}', '[a, b]']) {
      const r = one(`kind: Secret\nmetadata: {name: s}\ndata:\n  k: ${v}\n`);
      expect(r.text, v).toBe('kind: REDACTED\nmetadata: REDACTED\ndata:\n  k: REDACTED\n');
      expect(r.items, v).toEqual([`1 ${CONSERVATIVE}`]);
    }
  });

  it('a data value that is not base64 is masked, without failing', () => {
    const text = 'kind: Secret\nmetadata: {name: s}\ndata:\n  bad: hunter2!!hunter2\n';
    expect(one(text).text).toBe(`kind: Secret\nmetadata: {name: s}\ndata:\n  bad: ${D}\n`);
  });

  it('a data value is a marker only when it decodes to one and is no longer than 64 characters; wrapped base64 counts', () => {
    const long = b64(`${STRING_MARKER}${' '.repeat(50)}`);
    // Base64 of the data marker itself, padded: decoded, it reads as the marker too.
    const longData = b64(`${DATA_MARKER}${' '.repeat(50)}`);
    expect(long.length).toBeGreaterThan(64);
    expect(longData.length).toBeGreaterThan(64);
    const text = `kind: Secret\nmetadata: {name: s}\ndata:\n  wrapped: |\n    UkVEQUNU\n    RUQ=\n  long: ${long}\n  longData: ${longData}\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: Secret\nmetadata: {name: s}\ndata:\n  wrapped: |\n    UkVEQUNU\n    RUQ=\n  long: ${D}\n  longData: ${D}\n`);
    expect(r.items).toEqual(['7 Secret s data["long"]', '8 Secret s data["longData"]']);
  });

  it('a value an alias pulls into the Secret is masked where its anchor stands; the alias stays', () => {
    const text = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  labels: {copy: &v hunter2-correct-horse}\nstringData:\n  pw: *v\n';
    const r = one(text);
    expect(r.text).toBe(text.replace('&v hunter2-correct-horse', `&v ${S}`));
    expect(r.items).toEqual(['5 Secret s stringData["pw"]']);
  });
});

describe('a Secret: the name of each item', () => {
  it('keys that are not plain names, fields that run over lines, and the Secret named in each', () => {
    const text = `kind: Secret\nmetadata:\n  name: s\n  uid: "0a1b\n    2c3d"\n  "odd key": x\n  labels:\n    "a b": c\n    app: "web\n      tier"\n  annotations:\n    note: "one\n      two"\ntype: "kubernetes.io/tls\n  more"\n? [complex]\n: v\ndata:\n  "k k": ${b64('hunter2-correct-horse')}\n`;
    const r = one(text);
    expect(r.text).toBe(
      `kind: Secret\nmetadata:\n  name: s\n  uid: ${S}\n\n  ${S}: ${S}\n  labels:\n    ${S}: ${S}\n    app: ${S}\n\n  annotations:\n    note: ${S}\n\ntype: ${S}\n\n? [${S}]\n: ${S}\ndata:\n  ${S}: ${D}\n`,
    );
    expect(r.items).toEqual([
      '4 Secret s metadata.uid',
      '6 Secret s metadata',
      '6 Secret s metadata',
      '8 Secret s metadata.labels',
      '8 Secret s metadata.labels',
      '9 Secret s metadata.labels["app"]',
      '12 Secret s metadata.annotations["note"]',
      '14 Secret s type',
      '16 Secret s',
      '17 Secret s',
      '19 Secret s data["?"]',
      '19 Secret s data["?"]',
    ]);
  });

  it('key material in a kept field is listed under the field, not as a key', () => {
    const text = `kind: Secret\nmetadata:\n  name: s\n  annotations:\n    backup: ${M.rsaDerBase64}\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: Secret\nmetadata:\n  name: s\n  annotations:\n    backup: ${D}\n`);
    expect(r.items).toEqual(['5 Secret s metadata.annotations["backup"]']);
  });
});

describe('the check across documents: pieces of what was masked', () => {
  const configMap = (v: string) => `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${v}\n`;
  const maskedConfigMap = 'kind: REDACTED\nmetadata: REDACTED\ndata:\n  note: REDACTED\n';

  it('a stringData value of twelve characters is searched for; a shorter one is not (it may stand in public fields)', () => {
    const secret = (pw: string) => `kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${pw}\n`;
    const twelve = 'abcdefghijkl';
    expect(one(`${secret(twelve)}---\n${configMap(twelve)}`).text).toBe(`${secret(S)}---\n${maskedConfigMap}`);
    const eleven = 'abcdefghijk';
    expect(one(`${secret(eleven)}---\n${configMap(eleven)}`).text).toBe(`${secret(S)}---\n${configMap(eleven)}`);
  });

  it('every secret value is searched for, also after an empty value, a certificate or another secret', () => {
    const cert = b64(M.leafCert!);
    const secret = (a: string, b: string) => `kind: Secret\nmetadata: {name: s}\ndata:\n  empty: ""\n  ca.crt: ${cert}\n  first: ${a}\n  second: ${b}\n`;
    const a = b64('first-secret-value-0123456789');
    const b = b64('second-secret-value-0123456789');
    expect(one(`${secret(a, b)}---\n${configMap(b)}`).text).toBe(`${secret(D, D)}---\n${maskedConfigMap}`);
  });

  it('a data value is searched for decoded too (wrapped over lines); a stringData value is not decoded', () => {
    const pw = 'correct-horse-battery-staple-0';
    const wrapped = b64(pw).match(/.{1,20}/g)!;
    expect(wrapped.join('')).toBe(b64(pw));
    const secret = `kind: Secret\nmetadata: {name: s}\ndata:\n  pw: ${wrapped.join('\n    ')}\n`;
    expect(one(`${secret}---\n${configMap(pw)}`).text).toBe(
      `kind: Secret\nmetadata: {name: s}\ndata:\n  pw: ${D}\n${'\n'.repeat(wrapped.length - 1)}---\n${maskedConfigMap}`,
    );
    const stringData = `kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${b64(pw)}\n`;
    expect(one(`${stringData}---\n${configMap(pw)}`).text).toBe(`kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${S}\n---\n${configMap(pw)}`);
  });

  it('a Secret in a List: its values are searched for', () => {
    const pw = 'correct-horse-battery-staple-1';
    const list = `apiVersion: v1\nkind: List\nitems:\n- kind: Secret\n  metadata: {name: a}\n  stringData: {pw: ${pw}}\n`;
    expect(one(`${list}---\n${configMap(pw)}`).text).toBe(`${list.replace(pw, S)}---\n${maskedConfigMap}`);
  });

  it('a line of a private key copied into another document (too short to be a key itself) masks that document, for every key of the first', () => {
    const lines = body(M.rsaPkcs1!);
    const copied = lines[3]!;
    expect(one(configMap(copied)).same).toBe(true);
    const keys = `kind: ConfigMap\nmetadata: {name: keys}\ndata:\n  ec: ${JSON.stringify(M.ecSec1!)}\n  rsa: ${JSON.stringify(M.rsaPkcs1!)}\n`;
    const r = one(`${keys}---\n${configMap(copied)}`);
    expect(r.text).toBe(
      `kind: ConfigMap\nmetadata: {name: keys}\ndata:\n  ec: "${PRIVATE_KEY_MARKER}\\n"\n  rsa: "${PRIVATE_KEY_MARKER}\\n"\n---\n${maskedConfigMap}`,
    );
  });

  it('a kubeconfig user string copied elsewhere counts too, but its field names do not', () => {
    const cert = b64(M.leafCert!);
    const text = `kind: Config\nclusters: []\nusers:\n- name: a\n  user:\n    client-certificate-data: ${cert}\n---\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: client-certificate-data\n`;
    expect(one(text).text).toBe(text.replace('- name: a', `- name: ${S}`));
  });
});

describe('what a Secret shows in public: its certificates', () => {
  it('a bundle masked for its key shares its certificate with the tls.crt beside it: no leak, base64 or PEM, wrapped or not', () => {
    const bundle = M.leafCert! + M.ecSec1!;
    const wrappedCert = b64(M.leafCert!).match(/.{1,76}/g)!;
    const text = `kind: Secret\nmetadata:\n  name: s\n  annotations:\n    description: ${'a long description of this Secret, more than forty characters'}\ndata:\n  tls.crt: |\n    ${wrappedCert.join('\n    ')}\n  bundle.pem: ${b64(bundle)}\n`;
    const r = one(text);
    expect(r.text).toBe(text.replace(`bundle.pem: ${b64(bundle)}`, `bundle.pem: ${D}`));
    expect(r.items).toEqual([`${8 + wrappedCert.length} Secret s data["bundle.pem"]`]);
    const pem = `kind: Secret\nmetadata: {name: s}\nstringData:\n  tls.crt: ${JSON.stringify(M.leafCert!)}\n  bundle.pem: ${JSON.stringify(bundle)}\n`;
    expect(one(pem).text).toBe(pem.replace(`bundle.pem: ${JSON.stringify(bundle)}`, `bundle.pem: ${S}`));
  });
});

describe('duplicated kind keys: any kind that names a Secret', () => {
  it('in a sequence (after a scalar item) and in a List: the map is masked as a Secret', () => {
    const seq = '- plain\n- kind: Secret\n  kind: ConfigMap\n  metadata: {name: a}\n  stringData: {pw: hunter2}\n';
    const r = one(seq);
    expect(r.text).toBe(seq.replace('pw: hunter2', `pw: ${S}`));
    expect(r.items).toEqual(['5 Secret stringData["pw"]']);
    const list = 'apiVersion: v1\nkind: List\nitems:\n- kind: Secret\n  kind: ConfigMap\n  stringData: {pw: hunter2}\n';
    expect(one(list).text).toBe(list.replace('pw: hunter2', `pw: ${S}`));
  });

  it('a duplicated key in a document of another kind changes nothing, even with Secret as some other value', () => {
    const text = 'kind: ConfigMap\nmetadata: {name: c}\nnote: Secret\ndata:\n  a: one\n  a: two\n';
    const r = one(text);
    expect(r.text).toBe(text);
    expect(r.items).toEqual([]);
  });
});

describe('a document the app cannot read', () => {
  it('armour spelled with blanks between every letter, the last two too, is a sign of a secret: masked conservatively', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nspec:\n  x: [unclosed\n  note: b e g i n\n';
    const r = one(text);
    expect(r.text).toBe('apiVersion: REDACTED\nkind: REDACTED\nmetadata:\n  name: REDACTED\nspec:\n  x: REDACTED\n  note: REDACTED\n');
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });
});

describe('documents read as nothing, and targets the positioned parse does not place', () => {
  it('a document of comments only (read as nothing, without a complaint) stays as written: the raw scan covers it', () => {
    const text = 'kind: ConfigMap\n---\n# the Secret and its data: key are in the vault\n# users: see the wiki\n';
    const r = one(text);
    expect(r.text).toBe(text);
    expect(r.items).toEqual([]);
  });

  it('List items that come in through a merge key: the Secret is not where the reading found it, so the document is masked conservatively', () => {
    const text = 'base: &b\n  items:\n  - kind: Secret\n    stringData: {pw: hunter2}\nkind: List\n<<: *b\n';
    const r = one(text);
    expect(r.text).toBe('base: REDACTED\n  items:\n  - kind: REDACTED\n    stringData: REDACTED\nkind: REDACTED\nREDACTED\n');
    expect(r.items).toEqual([`1 ${CONSERVATIVE}`]);
  });
});

describe('a quote that may have swallowed lines: only quoted values, and only their lines after the first', () => {
  it('a quoted value running over a line that reads as a mapping entry: blanks after a sequence dash or before the colon, nothing after the colon', () => {
    for (const q of ['"', "'"]) {
      for (const line of ['    -  item: x', '    key : x', '    key:']) {
        const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${q}first line\n${line}\n    last line${q}\n  other: plain\n`;
        expect(one(text).items, `${q} ${line}`).toEqual([`1 ${CONSERVATIVE}`]);
      }
    }
  });

  it('a block value over lines that read as mapping entries, or a one-line quoted value that reads as one, stays as written', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  app.conf: |\n    listen: 8080\n    - item: x\n  note: "a: b" # it's quoted, one quote left open on this line\n`;
    const r = one(text);
    expect(r.text).toBe(text);
    expect(r.items).toEqual([]);
  });
});

describe('values outside Secrets', () => {
  it('keys without a value (? key) are walked without failing', () => {
    for (const lonely of ['? lonely\n', '? lonely\n:\n', '? [a, b]\n']) {
      const text = `kind: ConfigMap\nmetadata: {name: c}\n${lonely}data:\n  k: ${M.rsaDerBase64}\n`;
      const r = one(text);
      expect(r.text, lonely).toBe(`kind: ConfigMap\nmetadata: {name: c}\n${lonely}data:\n  k: ${D}\n`);
    }
  });

  it('a base64 key in a sequence gets the data marker where it stands', () => {
    const text = `kind: ConfigMap\nmetadata: {name: c}\nkeys:\n- ${M.rsaDerBase64}\n- plain\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: ConfigMap\nmetadata: {name: c}\nkeys:\n- ${D}\n- plain\n`);
    expect(r.items).toEqual(['4 private key (encoded)']);
  });

  it('words and a base64 key in one value: the private-key marker (the value is not base64)', () => {
    const text = `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: "backup of tls.key: ${M.rsaDerBase64}"\n`;
    const r = one(text);
    expect(r.text).toBe(`kind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${JSON.stringify(PRIVATE_KEY_MARKER)}\n`);
    expect(r.items).toEqual(['4 private key (encoded)']);
  });

  it('a PEM key and a base64 key in one value: the value is masked and named by its armour label (RFC 7468), lower-cased', () => {
    const value = (pem: string) =>
      `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: |\n${[...pem.trim().split('\n'), M.rsaDerBase64!].map((l) => `    ${l}`).join('\n')}\n`;
    for (const [pem, label] of [
      [M.ecSec1!, 'ec private key'],
      [M.ed25519Pkcs8!, 'private key'],
      [M.encryptedPkcs8!, 'encrypted private key'],
    ] as const) {
      const r = one(value(pem));
      expect(r.text, label).toBe(
        `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: ${JSON.stringify(PRIVATE_KEY_MARKER)}${'\n'.repeat(pem.trim().split('\n').length + 2)}`,
      );
      expect(r.items, label).toEqual([`4 ${label}`]);
    }
  });
});

describe('raw text', () => {
  it('a PEM key block without its END line is cut to the end of the text', () => {
    const pem = M.ecSec1!.trim().split('\n').slice(0, -1).join('\n');
    const text = `${M.leafCert!}${pem}\n`;
    const r = one(text, 'tls.pem');
    expect(r.text).toBe(`${M.leafCert!}${PRIVATE_KEY_MARKER}${'\n'.repeat(pem.split('\n').length)}`);
    expect(r.items).toEqual([`${M.leafCert!.split('\n').length} ec private key`]);
    // White space the cut ran into on its last line stays (the next line would keep its place).
    const indented = one(`${M.leafCert!}${pem}\n   `, 'tls.pem');
    expect(indented.text).toBe(`${M.leafCert!}${PRIVATE_KEY_MARKER}${'\n'.repeat(pem.split('\n').length)}   `);
  });

  it('two key blocks back to back (the first without its final line break, as `cat a.key b.key` gives): each is cut and listed', () => {
    const first = M.ecSec1!.trim();
    const text = `${first}${M.ed25519Pkcs8!}`;
    const r = one(text, 'keys.pem');
    const breaks = (s: string) => s.split('\n').length - 1;
    expect(r.text).toBe(`${PRIVATE_KEY_MARKER}${'\n'.repeat(breaks(first))}${PRIVATE_KEY_MARKER}${'\n'.repeat(breaks(M.ed25519Pkcs8!))}`);
    expect(r.items).toEqual(['1 ec private key', `${breaks(first) + 1} private key`]);
  });

  it('a wrapped base64 key alone in a file (read as one plain scalar): the marker and its line breaks, nothing of its last line', () => {
    const lines = Buffer.from(M.ecSec1!)
      .toString('base64')
      .match(/.{1,64}/g)!;
    const r = one(`${lines.join('\n')}\n`, 'key.b64');
    expect(r.text).toBe(`${D}${'\n'.repeat(lines.length)}`);
    expect(r.items).toEqual(['1 private key (encoded)']);
  });
});

describe('the last resort: every line masked', () => {
  it('keeps indentation, blank and white-space-only lines, and document markers alone on their line', () => {
    const pw = 'correct-horse-battery-staple-0123456789';
    // An indented `---` or one after a sequence dash is no document marker.
    const text = `kind: Secret\nmetadata: {name: s}\nstringData:\n  pw: ${pw}\n---  \nkind: ConfigMap\ndata:\n    \n  ${pw}: x ---\n  --- x\n  ---\n- ---\n...\n`;
    const r = one(text);
    expect(r.text).toBe('REDACTED\nREDACTED\nREDACTED\n  REDACTED\n---  \nREDACTED\nREDACTED\n    \n  REDACTED\n  REDACTED\n  REDACTED\nREDACTED\n...\n');
    expect(r.items.at(-1)).toBe('1 the whole file: every value masked');
  });
});
