// Redaction rules behind issue #28's last redact.ts survivors (run without fuzz smoke runs),
// with expected values from docs/sharing.md: a Secret is what a careful reader would take for
// one; its values become markers; redaction checks its own result with the app's reader (no
// Secret value but markers, empty values and certificates, no piece of anything masked) and masks
// a document that fails conservatively (every value `REDACTED`, keys and indentation kept), as it
// does a document the app cannot read (an open quote while typing).
//
// Writing them found five leaks, fixed with them: a Secret inside five or more nested Lists, a
// Secret written as a List's `items` object, a Secret whose name opens a double quote that an
// escaped quote keeps open (the value reader reads the lines below into the name, which the list
// of redacted items then carried into the link), a comment more than about 65 levels down in a
// Secret (the comment walk stopped at token depth 200), and a private key's base64 written as a
// simple key in a document masked conservatively (conservative masking keeps simple keys).
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/core/share/redact.ts';

const pw = 'hunter2-correct-horse-battery-staple';
const b64 = Buffer.from(pw).toString('base64');
const one = (text: string) => {
  const r = redact([{ path: 'p.yaml', text }]);
  return { text: r.files[0]!.text, items: r.items, what: r.items.map((i) => i.what).join('\n') };
};
const secretFlow = (extra = '') => `{apiVersion: v1, kind: Secret,${extra} metadata: {name: s}, stringData: {password: ${pw}}}`;
const nested = (n: number, inner: string) => {
  let s = inner;
  for (let i = 0; i < n; i++) s = `{apiVersion: v1, kind: List, items: [${s}]}`;
  return `${s}\n`;
};

describe('what a Secret is, not what it holds, stays', () => {
  it('immutable, and the metadata fields the API server sets or that name the object', () => {
    const text = [
      'apiVersion: v1',
      'kind: Secret',
      'type: Opaque',
      'immutable: true',
      'metadata:',
      '  name: s',
      '  namespace: ns',
      '  generateName: s-',
      '  uid: 0b7c5b9e-3f0a-4f6e-9a57-5d0c7a8f1e21',
      '  resourceVersion: "123456"',
      "  creationTimestamp: '2026-12-06T10:00:00Z'",
      '  generation: 3',
      "  deletionTimestamp: '2026-12-06T11:00:00Z'",
      '  deletionGracePeriodSeconds: 30',
      'stringData:',
      `  password: ${pw}`,
      '',
    ].join('\n');
    expect(one(text).text).toBe(text.replace(pw, '"REDACTED"'));
  });
});

describe('Secrets inside Lists', () => {
  it.each([1, 4, 5, 12])('a Secret inside %i nested Lists has its value masked', (n) => {
    const r = one(nested(n, secretFlow()));
    expect(r.text).not.toContain(pw);
    expect(r.text).toContain('password: "REDACTED"');
    expect(r.items).toEqual([{ file: 'p.yaml', line: 1, what: 'Secret s stringData["password"]' }]);
  });

  it('with a duplicated kind, deep in nested Lists too', () => {
    const r = one(`apiVersion: v1\nkind: List\nkind: List\nitems:\n- ${nested(9, secretFlow(' kind: Secret,'))}`);
    expect(r.text).not.toContain(pw);
  });

  it("a List's items written as one object (kubectl refuses it; a careful reader still sees a Secret)", () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n  apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n  stringData:\n    password: ${pw}\n`;
    expect(one(text).text).toBe(text.replace(pw, '"REDACTED"'));
  });

  it('with duplicated keys, a map under another field is no Secret: only the root, sequences and List items are', () => {
    // docs/sharing.md: any of a duplicated `kind` key counts, for the maps the app reads as resources.
    const text = `apiVersion: v1\nkind: ConfigMap\nkind: ConfigMap\nmetadata: {name: c}\nspec:\n  kind: Secret\n  stringData:\n    note: just-a-setting-not-a-secret\n`;
    expect(one(text).text).toBe(text);
  });
});

describe("a Secret's comments", () => {
  it('a comment 90 levels down in a Secret is masked (the reader reads up to 100 levels)', () => {
    let body = '';
    for (let i = 0; i < 90; i++) body += `${'  '.repeat(i + 1)}k${i}:\n`;
    const r = one(`apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nextra:\n${body}${'  '.repeat(91)}v: x # the password is ${pw}\n`);
    expect(r.text).not.toContain(pw);
    expect(r.items.map((i) => i.what)).toContain('Secret s comment');
  });

  it('comments after an explicit key with no key text (`? # …`) are masked too', () => {
    const r = one(`apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  ? # one ${pw}\n  : x\n  password: ${pw} # two ${pw}\n# three ${pw}\n`);
    expect(r.text).toBe('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  ? #\n  : "REDACTED"\n  password: "REDACTED" #\n#\n');
  });
});

describe('secret fields that are not mappings', () => {
  it('a data field written as a list fails the check (a list is no marker, empty value or certificate): masked conservatively', () => {
    const r = one(`apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: [${b64}]\n`);
    expect(r.text).toBe('apiVersion: REDACTED\nkind: REDACTED\nmetadata: REDACTED\ndata: REDACTED\n');
  });

  it.each([
    ['data', b64],
    ['stringData', pw],
  ])('a %s field written as one string is masked, and so is a copy of it in another document', (field, value) => {
    const r = one(
      `apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n${field}: ${value}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  copy: ${value}\n`,
    );
    expect(r.text).not.toContain(value);
    expect(r.text.split('---\n')[0]).toBe(`apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n${field}: "REDACTED"\n`);
  });
});

describe('a quoted value over several lines: masked conservatively when one of its lines reads as a mapping entry', () => {
  // redact.ts: a quoted scalar that runs over a line reading as a mapping entry (`key:` or
  // `- key:`, the key plain or quoted, blanks around) may have swallowed the lines below.
  const doc = (quote: string, line: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  note: ${quote}first\n${line}\n    last${quote}\n`;

  it.each([
    ['"', '    key: v'],
    ['"', '    - key: v'],
    ['"', '    -   key: v'],
    ["'", '    "key": v'],
    ['"', "    'key': v"],
    ['"', '    key : v'],
    ['"', '    key:'],
    ['"', '    a.b/c-d_e: v'],
    ['"', '    key:\tv'],
  ])('%s…%s', (quote, line) => {
    // Every value masked, apiVersion and kind too: what a normal redaction keeps.
    const r = one(doc(quote, line));
    expect(r.text.startsWith('apiVersion: REDACTED\nkind: REDACTED\nmetadata: REDACTED\ndata:\n  note: REDACTED\n')).toBe(true);
    expect(r.text.split('\n')).toHaveLength(doc(quote, line).split('\n').length);
  });

  it.each([
    ['"', '    some words here: x'],
    ['"', '    key:value'],
    ['"', '    see http://example.com/a'],
  ])('not %s…%s', (quote, line) => {
    const text = doc(quote, line);
    expect(one(text).text).toBe(text);
  });
});

describe('conservative masking keeps simple keys, but no key that is key material', () => {
  it('a simple key that is the start of a base64 private key does not survive (docs/sharing.md: no key material in the result)', () => {
    // The first 60 characters of a PKCS#8 RSA key's base64: SEQUENCE, INTEGER 0, SEQUENCE {rsaEncryption}…
    const prefix = 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCVUeuWOQqV';
    // An open quote: the document cannot be read, so it is masked conservatively, simple keys kept.
    const r = one(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "c}\ndata:\n  ${prefix}: x\n`);
    expect(r.text).not.toContain(prefix.slice(0, 40));
  });
});

describe('a quote kept open by an escaped quote', () => {
  // `"s \"` opens a double-quoted scalar that `\"` does not close: the value reader reads the
  // lines below into the name, up to the next quote (here in a comment).
  const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: "s \\"\nstringData:\n  password: ${pw}\n  x: y" # "\n`;

  it('the document is masked conservatively, and no item names what the quote swallowed', () => {
    const r = one(text);
    expect(r.text).toBe('apiVersion: REDACTED\nkind: REDACTED\nmetadata:\n  name: REDACTED\nstringData:\n  password: REDACTED\n  x: REDACTED\n');
    expect(r.what).not.toContain(pw);
  });

  it('the same with single quotes: a doubled quote does not close either', () => {
    const single = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: 's '''\nstringData:\n  password: ${pw}\n  x: y' # '\n`;
    const r = one(single);
    expect(r.text).not.toContain(pw);
    expect(r.what).not.toContain(pw);
  });

  it('a quote closed on its line changes nothing', () => {
    const closed = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: "s \\" t"\nstringData:\n  password: ${pw}\n`;
    expect(one(closed).text).toBe(closed.replace(pw, '"REDACTED"'));
  });
});
