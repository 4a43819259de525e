// What src/core/pki/input.ts makes of one value before any certificate is parsed: empty and
// binary values, a BOM, JSON string literals, redaction markers, istioctl's table, base64,
// hex, YAML streams and the nesting limit. Expectations follow the certs spec §1.1 (bytes →
// text, strip a BOM, unescape a JSON string literal once, at most 4 levels deep) and §1.2
// (rules A–I and their order; G before H; "base64 of PEM" starts with LS0t, of DER with
// MII/MIG), Go's encoding/base64 StdEncoding (padding required), Kubernetes' Secret `data`
// semantics (base64 of the file; an empty key is kept), istioctl's `proxy-config secret`
// output (pkg/writer/envoy/configdump: the table header; `-o yaml` prints the
// SecretsConfigDump with only its non-empty lists), and the redaction markers of
// document/redactionMarkers.ts. Certificates come from pkiBuilder.ts.
import { describe, expect, it } from 'vitest';
import { decodeInputs, isRedactedText, type Decoded, type Value } from '../../src/core/pki/input.ts';
import { PRIVATE_KEY_MARKER, STRING_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { root } from './pkiBuilder.ts';
import { pem } from './istioFixtures.ts';
import { b64, secret } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Input Root' });
const caPem = pem(ca);
const caHex = Buffer.from(ca.der).toString('hex');

const decodeText = (text: string, name = 'in.txt'): Decoded => decodeInputs([{ name, text }]);
const decodeBytes = (bytes: Uint8Array, name = 'in.bin'): Decoded => decodeInputs([{ name, bytes }]);

/** The one value an input decoded to (the test fails when there are more or none). */
function onlyValue(d: Decoded): Value {
  expect(d.values).toHaveLength(1);
  return d.values[0]!;
}

/** Hex of every certificate found, in order. */
const certHexes = (values: Value[]): string[] =>
  values.flatMap((v) => v.artefacts.flatMap((a) => (a.kind === 'certificate' ? [Buffer.from(a.cert.der).toString('hex')] : [])));

/** `s` base64-encoded `times` times (kubectl prints Secret data as base64 of the file). */
function base64Times(s: string, times: number): string {
  let out = s;
  for (let i = 0; i < times; i++) out = b64(out);
  return out;
}

/** Base64 in 64-column lines, as PEM bodies and `base64 -w 64` write it. */
const wrapped = (s: string): string => s.replace(/(.{64})/g, '$1\n');

describe('isRedactedText: nothing but redaction markers', () => {
  it('an empty or blank text is not a marker', () => {
    expect(isRedactedText('')).toBe(false);
    expect(isRedactedText('  \n\t')).toBe(false);
  });

  it('several private-key markers (a file that held several keys) count, with blank lines between them', () => {
    expect(isRedactedText(`${PRIVATE_KEY_MARKER}\n${PRIVATE_KEY_MARKER}\n`)).toBe(true);
    expect(isRedactedText(`\n${PRIVATE_KEY_MARKER}\n\n  ${PRIVATE_KEY_MARKER}`)).toBe(true);
  });

  it('a marker next to other text is not a redacted value', () => {
    expect(isRedactedText(`${PRIVATE_KEY_MARKER}\nsomething else`)).toBe(false);
    expect(isRedactedText(`${caPem}${PRIVATE_KEY_MARKER}\n`)).toBe(false);
  });
});

describe('empty inputs and values', () => {
  it.each([
    ['text', { name: 'empty.pem', text: '' }],
    ['bytes', { name: 'empty.pem', bytes: new Uint8Array() }],
    ['neither', { name: 'empty.pem' }],
  ])('an empty input (%s) is one empty value with nothing found and nothing reported', (_, file) => {
    const d = decodeInputs([file]);
    const v = onlyValue(d);
    expect(v.encoding).toBe('empty');
    expect(v.artefacts).toEqual([]);
    expect(v.problems).toEqual([]);
    expect(v.origin).toEqual({ input: 'empty.pem', path: [] });
    expect(d.problems).toEqual([]);
    expect(d.hints).toEqual([]);
  });

  it('an empty Secret data key is kept as an empty value under its key (spec §1.2 F, Istio reports empty keys)', () => {
    const d = decodeText(secret('gw-cred', { cert: caPem, key: '' }), 'gw.yaml');
    const key = d.objects[0]!.values.get('key');
    expect(key?.encoding).toBe('empty');
    expect(key?.origin.key).toBe('key');
    expect(d.problems).toEqual([]);
  });

  it('a blank text holds nothing, so nothing is reported as unrecognised', () => {
    const v = onlyValue(decodeText('  \n \n'));
    expect(v.encoding).toBe('text');
    expect(v.problems).toEqual([]);
  });
});

describe('bytes that are not text (spec §1.1 step 1)', () => {
  it('binary data not starting with 0x30 is binary, an error naming its first byte', () => {
    const d = decodeBytes(new Uint8Array([0x01, 0x02, 0x03, 0xff]), 'blob.bin');
    const v = onlyValue(d);
    expect(v.encoding).toBe('binary');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
    expect(v.problems[0]!.message).toContain('0x01');
    expect(d.problems).toEqual(v.problems);
  });

  it('DER given as bytes is DER', () => {
    const v = onlyValue(decodeBytes(ca.der, 'ca.der'));
    expect(v.encoding).toBe('der');
    expect(certHexes([v])).toEqual([caHex]);
  });

  it('PEM given as bytes is PEM', () => {
    const v = onlyValue(decodeBytes(Buffer.from(caPem), 'ca.pem'));
    expect(v.encoding).toBe('pem');
    expect(v.problems).toEqual([]);
  });

  it('a paste is text: starting with "0" (0x30) and holding a control character does not make it DER', () => {
    const v = onlyValue(decodeText('0\u0001 not a certificate'));
    expect(v.encoding).toBe('text');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['info']);
    expect(v.problems[0]!.message).not.toBe('');
  });
});

describe('JSON string literals (spec §1.1 step 2: unescape once when it holds \\n escapes)', () => {
  it('a PEM copied out of a JSON dump is read, under a "JSON string" container', () => {
    const v = onlyValue(decodeText(JSON.stringify(caPem)));
    expect(v.encoding).toBe('json-string');
    expect(v.origin.path).toEqual(['JSON string']);
    expect(certHexes([v])).toEqual([caHex]);
  });

  it('a JSON string holding plain text keeps the text encoding', () => {
    const v = onlyValue(decodeText(JSON.stringify('first line\nsecond line')));
    expect(v.encoding).toBe('text');
    expect(v.origin.path).toEqual(['JSON string']);
  });

  it('a JSON string holding a Secret YAML is read as the Secret', () => {
    const d = decodeText(JSON.stringify(secret('cacerts', { 'root-cert.pem': caPem })));
    expect(d.objects.map((o) => `${o.ref.namespace}/${o.ref.name}`)).toEqual(['istio-system/cacerts']);
    expect(certHexes(d.values)).toEqual([caHex]);
    expect(d.problems).toEqual([]);
  });

  it("a quoted string without \\n escapes is not unescaped, so quoted base64 is no rule's token", () => {
    const v = onlyValue(decodeText(`"${Buffer.from(ca.der).toString('base64')}"`));
    expect(v.encoding).toBe('text');
    expect(v.artefacts).toEqual([]);
    expect(v.origin.path).toEqual([]);
  });
});

describe('redaction markers (document/redactionMarkers.ts)', () => {
  it('a file of private-key markers counts the keys removed', () => {
    const v = onlyValue(decodeText(`${PRIVATE_KEY_MARKER}\n${PRIVATE_KEY_MARKER}\n`, 'keys.pem'));
    expect(v.encoding).toBe('redacted-in-link');
    expect(v.keysRedactedInLink).toBe(2);
  });

  it('the plain text marker removed a value, not a key', () => {
    const v = onlyValue(decodeText(STRING_MARKER));
    expect(v.encoding).toBe('redacted-in-link');
    expect(v.keysRedactedInLink).toBeUndefined();
  });

  it('a PEM bundle counts the key markers left in it, and one without any counts none', () => {
    const withKey = onlyValue(decodeText(`${caPem}${PRIVATE_KEY_MARKER}\n`));
    expect(withKey.encoding).toBe('pem');
    expect(withKey.keysRedactedInLink).toBe(1);
    const plain = onlyValue(decodeText(caPem));
    expect(plain.encoding).toBe('pem');
    expect(plain.keysRedactedInLink).toBeUndefined();
  });
});

describe("istioctl's secret table (spec §1.2 I)", () => {
  // istioctl/pkg/writer/envoy/configdump/testdata/secret/istio/output (tabwriter, padding 5).
  const table = [
    'RESOURCE NAME              TYPE           STATUS      VALID CERT     SERIAL NUMBER                        NOT AFTER                NOT BEFORE',
    'configmap://some/thing                    WARMING     false                                                                        ',
    'default                    Cert Chain     ACTIVE      false          6fbee254c22900615cb1f74e3d2f1713     2023-05-16T01:32:52Z     2023-05-15T01:30:52Z',
    'ROOTCA                     CA             ACTIVE      true           0193a543fe2b0d9cd4847675394dfc54     2033-05-02T03:41:33Z     2023-05-05T03:41:33Z',
    '',
  ].join('\n');

  it('gives one hint naming the input, and is not reported as unrecognised', () => {
    const d = decodeText(table, 'secrets.txt');
    expect(d.hints).toHaveLength(1);
    expect(d.hints[0]).toContain('secrets.txt');
    const v = onlyValue(d);
    expect(v.encoding).toBe('text');
    expect(d.problems).toEqual([]);
  });

  it('after a shell prompt line too', () => {
    const d = decodeText(`$ istioctl proxy-config secret deploy/productpage\n${table}`, 'secrets.txt');
    expect(d.hints).toHaveLength(1);
  });
});

describe('base64 (spec §1.2 G)', () => {
  it('base64 of DER is base64-der', () => {
    const v = onlyValue(decodeText(Buffer.from(ca.der).toString('base64'), 'ca.b64'));
    expect(v.encoding).toBe('base64-der');
    expect(v.origin).toEqual({ input: 'ca.b64', path: ['base64'] });
    expect(certHexes([v])).toEqual([caHex]);
  });

  it('base64 of PEM (kubectl jsonpath of a data key) is base64-pem', () => {
    const text = b64(caPem);
    expect(text.startsWith('LS0t')).toBe(true);
    const v = onlyValue(decodeText(text));
    expect(v.encoding).toBe('base64-pem');
    expect(v.origin.path).toEqual(['base64 of PEM']);
  });

  it('base64 of a PEM file that starts with a blank line is still base64 of PEM', () => {
    const v = onlyValue(decodeText(b64(`\n${caPem}`)));
    expect(v.encoding).toBe('base64-pem');
    expect(v.origin.path).toEqual(['base64 of PEM']);
  });

  it('base64 of plain text keeps the text encoding', () => {
    const v = onlyValue(decodeText(b64('just a note, no certificate here')));
    expect(v.encoding).toBe('text');
    expect(v.origin.path).toEqual(['base64']);
  });

  it('base64 of base64 of PEM is read through both layers', () => {
    const d = decodeText(base64Times(caPem, 2));
    expect(certHexes(d.values)).toEqual([caHex]);
    expect(d.values[0]!.origin.path).toEqual(['base64', 'base64 of PEM']);
    expect(d.problems).toEqual([]);
  });

  it('eight base64 characters are a token too (rule G sets no minimum)', () => {
    const token = b64('012345');
    expect(token).toHaveLength(8);
    const v = onlyValue(decodeText(token));
    expect(v.origin.path).toEqual(['base64']);
  });

  it('text with characters outside the alphabet is not base64, even starting with MII', () => {
    const v = onlyValue(decodeText('MIIBCgKC!!!!AAAA'));
    expect(v.encoding).toBe('text');
    expect(v.problems.map((p) => p.severity)).toEqual(['info']);
  });

  it('MII… that is not valid StdEncoding base64 (length not a multiple of 4) is an error naming its start and length', () => {
    const token = 'MIIBCgKCAQ';
    const v = onlyValue(decodeText(token));
    expect(v.encoding).toBe('text');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
    expect(v.problems[0]!.message).toContain('MIIB');
    expect(v.problems[0]!.message).toContain(String(token.length));
  });

  it('invalid base64 with none of the DER or PEM prefixes is only unrecognised text', () => {
    for (const token of ['abcdMIIBxy', 'abcdefghij']) {
      const v = onlyValue(decodeText(token));
      expect(v.encoding).toBe('text');
      expect(v.problems.map((p) => p.severity)).toEqual(['info']);
    }
  });
});

describe('hex (spec §1.2 H)', () => {
  it('hex of a certificate is read under a "hex" container', () => {
    const v = onlyValue(decodeText(caHex, 'ca.hex'));
    expect(v.encoding).toBe('der');
    expect(v.origin).toEqual({ input: 'ca.hex', path: ['hex'] });
    expect(certHexes([v])).toEqual([caHex]);
  });

  it('sixteen hex digits of a DER SEQUENCE (8 bytes) are hex DER', () => {
    // SEQUENCE { INTEGER 1, INTEGER 2 }: DER, but no certificate, key, CRL, PKCS#7 or CSR.
    const v = onlyValue(decodeText('3006020101020102'));
    expect(v.origin.path).toEqual(['hex']);
    expect(v.encoding).toBe('der');
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
  });

  it('an odd number of hex digits is not hex (rule H: even length) and not base64 either', () => {
    const d = decodeText('30060201010201020');
    const v = onlyValue(d);
    expect(v.origin.path).toEqual([]);
    expect(v.encoding).toBe('text');
    expect(d.problems.map((p) => p.severity)).toEqual(['info']);
  });

  it('hex digits that do not decode to DER are a base64 token (G comes before H)', () => {
    const v = onlyValue(decodeText('0123456789abcdef'));
    expect(v.origin.path).toEqual(['base64']);
    expect(v.encoding).toBe('binary');
  });
});

describe('YAML streams and istioctl YAML (spec §1.2 B, F)', () => {
  // JSON is YAML: documents in flow style after a `---` separator.
  const secretJson = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'cacerts', namespace: 'istio-system' },
    data: { 'root-cert.pem': b64(caPem) },
  });

  it.each([
    ['---', '---\n'],
    ['--- with trailing spaces', '---  \n'],
  ])('documents after a %s separator are read as Kubernetes objects', (_, separator) => {
    const d = decodeText(`${separator}${secretJson}\n`, 'objects.yaml');
    expect(d.objects.map((o) => `${o.kind} ${o.ref.namespace}/${o.ref.name}`)).toEqual(['Secret istio-system/cacerts']);
    expect(certHexes(d.values)).toEqual([caHex]);
  });

  it('a Secret written with a space before each colon is YAML all the same (YAML 1.2 §7.4: white space before ":")', () => {
    const text = `apiVersion : v1\nkind : Secret\nmetadata :\n  name : cacerts\n  namespace : istio-system\ndata :\n  root-cert.pem : ${b64(caPem)}\n`;
    const d = decodeText(text, 'cacerts.yaml');
    expect(d.objects.map((o) => `${o.kind} ${o.ref.namespace}/${o.ref.name}`)).toEqual(['Secret istio-system/cacerts']);
    expect(certHexes(d.values)).toEqual([caHex]);
  });

  const secretEntry = (name: string) =>
    `- name: ${name}\n  versionInfo: "2026-06-01T00:00:00Z"\n  secret:\n    name: ${name}\n    validationContext:\n      trustedCa:\n        inlineBytes: ${b64(caPem)}\n`;

  it('`istioctl proxy-config secret -o yaml` with only warming secrets is read as the dump', () => {
    const d = decodeText(`dynamicWarmingSecrets:\n${secretEntry('ROOTCA')}`, 'secret.yaml');
    expect(d.dumps.map((x) => x.style)).toEqual(['istioctl']);
    expect(d.dumps[0]!.secrets.map((s) => [s.name, s.status])).toEqual([['ROOTCA', 'WARMING']]);
    expect(certHexes(d.values)).toEqual([caHex]);
  });

  it('and with only static secrets', () => {
    const d = decodeText(`staticSecrets:\n${secretEntry('file-root')}`, 'secret.yaml');
    expect(d.dumps[0]!.secrets.map((s) => [s.name, s.status])).toEqual([['file-root', 'STATIC']]);
    expect(certHexes(d.values)).toEqual([caHex]);
  });
});

describe('BOM (spec §1.1 step 1: strip a BOM)', () => {
  it('a pasted PEM that starts with a BOM reads as if it had none', () => {
    const v = onlyValue(decodeText(`\ufeff${caPem}`));
    expect(v.encoding).toBe('pem');
    expect(v.problems).toEqual([]);
    expect(v.artefacts.map((a) => [a.kind, a.block, a.offset])).toEqual([['certificate', 0, 0]]);
  });
});

describe('nesting: at most 4 levels deep (spec §1.1 step 2)', () => {
  it('base64 four times over a PEM is read', () => {
    const d = decodeText(base64Times(caPem, 4));
    expect(certHexes(d.values)).toEqual([caHex]);
    expect(d.values[0]!.origin.path).toEqual(['base64', 'base64', 'base64', 'base64 of PEM']);
  });

  it('base64 five times over a PEM stops at the fifth level with a warning', () => {
    const d = decodeText(base64Times(caPem, 5));
    const v = onlyValue(d);
    expect(v.origin.path).toHaveLength(5);
    expect(v.encoding).toBe('binary');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['warning']);
    expect(v.problems[0]!.message).not.toBe('');
  });

  it('hex counts as a level: hex DER inside base64 three times is read, four times is not', () => {
    expect(certHexes(decodeText(base64Times(caHex, 3)).values)).toEqual([caHex]);
    const deep = decodeText(base64Times(caHex, 4));
    expect(certHexes(deep.values)).toEqual([]);
    expect(onlyValue(deep).origin.path).toEqual(['base64', 'base64', 'base64', 'base64', 'hex']);
  });

  it('a JSON string adds no way round the limit: base64 five times inside one is not read', () => {
    const d = decodeText(JSON.stringify(wrapped(base64Times(caPem, 5))));
    expect(certHexes(d.values)).toEqual([]);
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
  });
});
