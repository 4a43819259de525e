// What counts as key material, rule by rule, with expected values taken from the formats'
// specifications rather than from our own output: PEM armour labels and framing (RFC 7468,
// and the OpenPGP armour of RFC 4880 §6.2), base64 (RFC 4648, both alphabets), the DER
// shapes of private keys (PKCS#1 RFC 8017 A.1.2, PKCS#8 / OneAsymmetricKey RFC 5208 and
// RFC 5958, SEC1 ECPrivateKey RFC 5915, EncryptedPrivateKeyInfo RFC 5958 §3, PKCS#12 PFX
// RFC 7292 §4), OpenSSH's key file (PROTOCOL.key), OpenPGP secret-key packets (RFC 4880
// §4.2 and §5.5, RFC 9580 for version 6), and kubeconfig user fields.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  BASE64_RUN,
  decodeBase64Loose,
  hasPrivateKeyArmour,
  holdsPrivateKey,
  holdsSecretManifest,
  isCertificatesOnly,
  isCertificatesOnlyBase64,
  isKubeconfigWithCredentials,
  isPrivateKeyDer,
  isSecretMaterial,
  keyStartInRun,
} from '../../src/core/share/keyMaterial.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const b64url = (s: string | Uint8Array) => Buffer.from(s).toString('base64url');
const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('latin1') : undefined);
/** The DER inside a PEM block (RFC 7468: base64 between the encapsulation boundaries). */
const derOf = (pem: string) =>
  Uint8Array.from(
    Buffer.from(
      pem
        .split('\n')
        .filter((l) => l && !l.startsWith('-----'))
        .join(''),
      'base64',
    ),
  );
/** A DER length octet string (X.690 8.1.3: short form below 128, else long form). */
function len(n: number): string {
  if (n < 128) return n.toString(16).padStart(2, '0');
  const h = n.toString(16).padStart(n < 256 ? 2 : 4, '0');
  return `${(0x80 + h.length / 2).toString(16)}${h}`;
}
const tlv = (tag: string, body: string) => `${tag}${len(body.replace(/\s+/g, '').length / 2)}${body.replace(/\s+/g, '')}`;
/** Pads a byte string with zero bytes to at least n bytes (past the shortest length read). */
const padded = (h: string, n = 32) => hex(h.replace(/\s+/g, '').padEnd(n * 2, '0'));

const RSA_ALG = tlv('30', '06092a864886f70d010101 0500'); // rsaEncryption, NULL
const PBES2 = '06092a864886f70d01050d'; // 1.2.840.113549.1.5.13
const PKCS12_PBE_3DES = '060a2a864886f70d010c0103'; // 1.2.840.113549.1.12.1.3
const SHA256_RSA = '06092a864886f70d01010b'; // 1.2.840.113549.1.1.11 (a signature, not a key)
const INT = (n: number) => tlv('02', n.toString(16).padStart(2, '0'));
const BIG = tlv('02', '00' + 'c3'.repeat(64)); // a modulus-sized INTEGER

describe('PEM and PGP armour (RFC 7468, RFC 4880 §6.2)', () => {
  it('recognises every private-key label, and no other', () => {
    for (const label of [
      'PRIVATE KEY',
      'RSA PRIVATE KEY',
      'EC PRIVATE KEY',
      'DSA PRIVATE KEY',
      'ENCRYPTED PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'PGP PRIVATE KEY BLOCK',
    ]) {
      expect(hasPrivateKeyArmour(`-----BEGIN ${label}-----\nMIIB\n-----END ${label}-----\n`), label).toBe(true);
    }
    for (const label of ['CERTIFICATE', 'PUBLIC KEY', 'RSA PUBLIC KEY', 'CERTIFICATE REQUEST', 'X509 CRL', 'PGP PUBLIC KEY BLOCK', 'PGP MESSAGE']) {
      expect(hasPrivateKeyArmour(`-----BEGIN ${label}-----\nMIIB\n-----END ${label}-----\n`), label).toBe(false);
    }
  });

  it('reads the label however it is spaced, folded or cased', () => {
    expect(hasPrivateKeyArmour('-----BEGIN RSA PRIVATE\n  KEY-----\nMIIB')).toBe(true);
    expect(hasPrivateKeyArmour('-----begin private key-----\nMIIB')).toBe(true);
    // A fold anywhere in the line, inside BEGIN too (a value wrapped at a fixed width).
    expect(hasPrivateKeyArmour('-----BE\nGIN PRIVATE KEY-----\nMIIB')).toBe(true);
  });

  it('three dashes are enough (a YAML reader takes the first three for a marker), two are not', () => {
    // 20 characters: the shortest line with a label and its spaces.
    expect(hasPrivateKeyArmour('---BEGIN PRIVATE KEY')).toBe(true);
    expect(hasPrivateKeyArmour('--BEGIN PRIVATE KEY--')).toBe(false);
    expect(hasPrivateKeyArmour('the BEGIN PRIVATE KEY line')).toBe(false);
    // Shorter than 20 characters there is no room for a label and its framing.
    expect(hasPrivateKeyArmour('---BEGINPRIVATEKEY')).toBe(false);
    expect(hasPrivateKeyArmour('---BEGIN PRIVATEKEY')).toBe(false);
  });
});

describe('lenient base64 (RFC 4648)', () => {
  it('decodes the test vectors of RFC 4648 §10, with and without padding', () => {
    const vectors: Array<[string, string]> = [
      ['Zg==', 'f'],
      ['Zm8=', 'fo'],
      ['Zm9v', 'foo'],
      ['Zm9vYg==', 'foob'],
      ['Zm9vYmE=', 'fooba'],
      ['Zm9vYmFy', 'foobar'],
    ];
    for (const [encoded, plain] of vectors) {
      expect(text(decodeBase64Loose(encoded)), encoded).toBe(plain);
      expect(text(decodeBase64Loose(encoded.replace(/=+$/, ''))), `${encoded} unpadded`).toBe(plain);
    }
  });

  it('reads the URL and filename safe alphabet (§5): - is 62, _ is 63', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0xfe]);
    expect(b64url(bytes)).toBe('-_-__g');
    expect(decodeBase64Loose('-_-__g')).toEqual(bytes);
    expect(decodeBase64Loose('+/+//g==')).toEqual(bytes);
  });

  it('drops white space and line breaks, keeps what precedes the first padding, drops a lone last character', () => {
    expect(text(decodeBase64Loose('Zm9v\n  YmFy\r\n'))).toBe('foobar');
    expect(text(decodeBase64Loose('Zg==Zm9v'))).toBe('f');
    expect(decodeBase64Loose('=Zm9v')).toEqual(new Uint8Array(0));
    // Five characters: the fifth cannot make a byte on its own (6 bits).
    expect(text(decodeBase64Loose('Zm9vY'))).toBe('foo');
  });

  it('is undefined for text outside both alphabets, also after the padding', () => {
    expect(decodeBase64Loose('Zm9v!mFy')).toBeUndefined();
    expect(decodeBase64Loose('Zg==.!')).toBeUndefined();
  });

  it('finds runs wrapped over lines, indented or commented out, and only whole lines of base64', () => {
    const runs = (s: string) => [...s.matchAll(BASE64_RUN)].map((m) => m[0]);
    expect(runs('k: Zm9vYmFy\n   Zm9vYmFy\n')).toEqual(['Zm9vYmFy\n   Zm9vYmFy']);
    expect(runs('Zm9vYmFy \n\t# \tZm9vYmFy')).toEqual(['Zm9vYmFy \n\t# \tZm9vYmFy']);
    expect(runs('Zm9vYmFy\nZm9vYmFy==\nZm9v')).toEqual(['Zm9vYmFy\nZm9vYmFy==\nZm9v']);
    // A next line that goes on with other text, or is shorter than one quantum, is not joined.
    expect(runs('Zm9vYmFy\nZm9vYmFy: x')).toEqual(['Zm9vYmFy', 'Zm9vYmFy']);
    expect(runs('Zm9vYmFy\nZm9\n')).toEqual(['Zm9vYmFy']);
    expect(runs('Zm9vYmFy\n\nZm9vYmFy')).toEqual(['Zm9vYmFy', 'Zm9vYmFy']);
    expect(runs('Zm9vYmFy\n##Zm9vYmFy')).toEqual(['Zm9vYmFy', 'Zm9vYmFy']);
    expect(runs('Zm9vYmFy\r\nZm9vYmFy \r\n')).toEqual(['Zm9vYmFy\r\nZm9vYmFy']);
  });
});

describe('DER private keys', () => {
  it('PKCS#1 RSAPrivateKey and PKCS#8 PrivateKeyInfo: a SEQUENCE opening with version INTEGER 0', () => {
    expect(isPrivateKeyDer(derOf(M.rsaPkcs1!))).toBe(true);
    expect(isPrivateKeyDer(derOf(M.rsaPkcs8!))).toBe(true);
    expect(isPrivateKeyDer(derOf(M.ed25519Pkcs8!))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(0) + BIG + INT(3))))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(0) + RSA_ALG + tlv('04', '00'.repeat(20)))))).toBe(true);
    // Version 0 and then neither an INTEGER nor a SEQUENCE (an OCTET STRING).
    expect(isPrivateKeyDer(hex(tlv('30', INT(0) + tlv('04', '00'.repeat(20)))))).toBe(false);
  });

  it('SEC1 ECPrivateKey and OneAsymmetricKey v2: version INTEGER 1, then an OCTET STRING or a SEQUENCE', () => {
    expect(isPrivateKeyDer(derOf(M.ecSec1!))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(1) + tlv('04', '11'.repeat(32)))))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(1) + RSA_ALG + tlv('04', '00'.repeat(20)))))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(1) + BIG)))).toBe(false);
  });

  it('PKCS#12 PFX: version INTEGER 3, then the authSafe ContentInfo SEQUENCE', () => {
    expect(isPrivateKeyDer(Uint8Array.from(Buffer.from(M.pkcs12Base64!, 'base64')))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(3) + tlv('30', '06092a864886f70d010701' + '00'.repeat(8)))))).toBe(true);
    expect(isPrivateKeyDer(hex(tlv('30', INT(3) + BIG)))).toBe(false);
  });

  it('other versions are not keys', () => {
    for (const v of [2, 4, 5]) {
      expect(isPrivateKeyDer(hex(tlv('30', INT(v) + RSA_ALG + tlv('04', '00'.repeat(20))))), `version ${v}`).toBe(false);
    }
    // A version INTEGER longer than one octet, or a BOOLEAN where the version should be.
    expect(isPrivateKeyDer(hex(tlv('30', tlv('02', '0000') + RSA_ALG + '00'.repeat(20))))).toBe(false);
    expect(isPrivateKeyDer(hex(tlv('30', tlv('02', '0030') + RSA_ALG + '00'.repeat(20))))).toBe(false);
    expect(isPrivateKeyDer(hex(tlv('30', tlv('01', '00') + BIG)))).toBe(false);
    // The same elements in a SET, or bare, are no key.
    expect(isPrivateKeyDer(hex(tlv('31', INT(0) + BIG)))).toBe(false);
    expect(isPrivateKeyDer(hex(INT(0) + BIG))).toBe(false);
  });

  it('a truncated key still gives itself away by its first elements (short and long form lengths)', () => {
    const full = derOf(M.rsaPkcs1!);
    expect(full[1]).toBe(0x82);
    expect(isPrivateKeyDer(full.subarray(0, 40))).toBe(true);
    expect(isPrivateKeyDer(padded('307f 020100 0241 00c3c3c3', 40))).toBe(true);
    expect(isPrivateKeyDer(padded('307f 020102 0241 00c3c3c3', 40))).toBe(false);
  });

  it('EncryptedPrivateKeyInfo: a PBES2, PKCS#5 v1.5 or PKCS#12 PBE algorithm first', () => {
    expect(isPrivateKeyDer(derOf(M.encryptedPkcs8!))).toBe(true);
    const epki = (alg: string, params = '0500') => hex(tlv('30', tlv('30', alg + params) + tlv('04', 'ab'.repeat(48))));
    expect(isPrivateKeyDer(epki(PBES2, tlv('30', '00'.repeat(16))))).toBe(true);
    expect(isPrivateKeyDer(epki('06092a864886f70d010503'))).toBe(true); // pbeWithMD5AndDES-CBC
    expect(isPrivateKeyDer(epki(PKCS12_PBE_3DES, tlv('30', tlv('04', '00'.repeat(8)) + INT(8))))).toBe(true);
    // The algorithm identifier long enough for a long-form length (parameters of 200 octets).
    expect(isPrivateKeyDer(epki(PBES2, tlv('30', '00'.repeat(200))))).toBe(true);
    // Truncated inside the algorithm identifier.
    expect(isPrivateKeyDer(padded(`30820500 304e ${PBES2} 3041`, 24))).toBe(true);
    // Other algorithms: a signature algorithm, rsaEncryption (a public key's), and an OID that only shares a prefix.
    expect(isPrivateKeyDer(epki(SHA256_RSA))).toBe(false);
    expect(isPrivateKeyDer(epki('06092a864886f70d010101'))).toBe(false);
    expect(isPrivateKeyDer(epki('06072a864886f70d01', '3000'))).toBe(false);
    expect(isPrivateKeyDer(epki('06082a864886f70d010c', '0500'))).toBe(false);
    // The OID bytes inside an OCTET STRING, not as the algorithm's OBJECT IDENTIFIER; nor as the first element.
    expect(isPrivateKeyDer(hex(tlv('30', tlv('30', tlv('04', PBES2.slice(4)) + '0500') + tlv('04', 'ab'.repeat(8)))))).toBe(false);
    expect(isPrivateKeyDer(hex(tlv('30', tlv('04', PBES2 + '0500') + tlv('04', 'ab'.repeat(8)))))).toBe(false);
    // Exactly 16 bytes, truncated right after the PKCS#5 prefix of the algorithm.
    expect(isPrivateKeyDer(hex('30820500 304e 0609 2a864886f70d0105'))).toBe(true);
    // A SEQUENCE first that does not open with an OID.
    expect(isPrivateKeyDer(hex(tlv('30', tlv('30', BIG) + tlv('04', 'ab'.repeat(8)))))).toBe(false);
  });

  it('a certificate and a public key are not private keys', () => {
    expect(isPrivateKeyDer(derOf(M.leafCert!))).toBe(false);
    expect(isPrivateKeyDer(derOf(M.rootCert!))).toBe(false);
    expect(isPrivateKeyDer(hex(tlv('30', RSA_ALG + tlv('03', '00' + tlv('30', BIG + INT(3))))))).toBe(false);
  });

  it("OpenSSH's key file: the magic openssh-key-v1 and a NUL, 16 bytes at the shortest", () => {
    const magic = Buffer.from('openssh-key-v1\0', 'latin1');
    expect(isPrivateKeyDer(Uint8Array.from(Buffer.concat([magic, Buffer.from([0])])))).toBe(true);
    expect(isPrivateKeyDer(Uint8Array.from(Buffer.concat([Buffer.from('openssh-key-v2\0', 'latin1'), Buffer.alloc(8)])))).toBe(false);
    expect(
      isPrivateKeyDer(
        Uint8Array.from(
          Buffer.from(
            M.opensshKey!.split('\n')
              .filter((l) => l && !l.startsWith('-----'))
              .join(''),
            'base64',
          ),
        ),
      ),
    ).toBe(true);
  });

  it('fewer than 16 bytes are no key, whatever their shape', () => {
    expect(isPrivateKeyDer(hex('300d 020100 0208 c3c3c3c3c3c3c3c3'))).toBe(false);
    expect(isPrivateKeyDer(hex('300e 020100 0209 00c3c3c3c3c3c3c3c3'))).toBe(true);
  });

  it('OpenPGP secret-key and secret-subkey packets (tags 5 and 7), old and new format, versions 3 to 6', () => {
    // Old format (RFC 4880 §4.2.1): 0b10 tttt ll; length type 0 is one octet, 1 is two octets.
    for (const [b0, at] of [
      [0x94, 2],
      [0x9c, 2],
      [0x95, 3],
      [0x9d, 3],
    ] as const) {
      for (const version of [3, 4, 5, 6]) {
        const bytes = padded(b0.toString(16), 24);
        bytes[at] = version;
        expect(isPrivateKeyDer(bytes), `${b0.toString(16)} v${version}`).toBe(true);
      }
      for (const version of [2, 7]) {
        const bytes = padded(b0.toString(16), 24);
        bytes[at] = version;
        expect(isPrivateKeyDer(bytes), `${b0.toString(16)} v${version}`).toBe(false);
      }
    }
    // New format (§4.2.2): 0b11 tttttt; a first length octet below 192 is the length, 192 to 223 start two.
    for (const b0 of [0xc5, 0xc7]) {
      expect(isPrivateKeyDer(padded(`${b0.toString(16)} 58 04`, 24))).toBe(true);
      expect(isPrivateKeyDer(padded(`${b0.toString(16)} bf 04`, 24))).toBe(true);
      expect(isPrivateKeyDer(padded(`${b0.toString(16)} c0 10 04`, 24))).toBe(true);
      expect(isPrivateKeyDer(padded(`${b0.toString(16)} c0 04 10`, 24))).toBe(false);
      expect(isPrivateKeyDer(padded(`${b0.toString(16)} 58 07`, 24))).toBe(false);
    }
    // Public-key packets (tags 6 and 14) and other first octets with a version-like octet.
    expect(isPrivateKeyDer(padded('99 010d 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('98 0d 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('c6 58 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('02 04 04 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('96 04 04 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('9e 04 04 04', 24))).toBe(false);
    expect(isPrivateKeyDer(padded('c4 04 04 04', 24))).toBe(false);
    // The real packet of the fixture's armour.
    const armour = M.pgpKey!.split('\n');
    const body = armour
      .slice(armour.indexOf('') + 1)
      .filter((l) => l && !l.startsWith('-----') && !l.startsWith('='))
      .join('');
    expect(isPrivateKeyDer(Uint8Array.from(Buffer.from(body, 'base64')))).toBe(true);
  });
});

describe('private keys in any encoding', () => {
  it('armour in the value, base64 of PEM or DER, and base64 of that once more', () => {
    expect(holdsPrivateKey(M.rsaPkcs8!)).toBe(true);
    expect(holdsPrivateKey(b64(M.ecSec1!))).toBe(true);
    expect(holdsPrivateKey(M.rsaDerBase64!)).toBe(true);
    expect(holdsPrivateKey(b64(b64(M.ecSec1!)))).toBe(true);
    expect(holdsPrivateKey(b64(b64(derOf(M.ecSec1!))))).toBe(true);
    expect(holdsPrivateKey(`client-key-data: ${b64url(M.ed25519Pkcs8!)}`)).toBe(true);
  });

  it('words above a key that joined its run (bug: the key was missed, and shared from a comment)', () => {
    const wrapped = b64(M.ecSec1!)
      .match(/.{1,64}/g)!
      .join('\n');
    expect(keyStartInRun(wrapped)).toBe(0);
    expect(keyStartInRun(`ConfigMap\n${wrapped}`)).toBe(10);
    expect(keyStartInRun(`previous\r\nbackup\r\n${wrapped.replace(/\n/g, '\r\n')}`)).toBe(18);
    expect(keyStartInRun(`ConfigMap\n${b64(M.leafCert!)}`)).toBe(-1);
    expect(keyStartInRun('ConfigMap')).toBe(-1);
    expect(keyStartInRun(`alpha\nbravo\ncharlie\ndelta\n${M.rsaDerBase64!.match(/.{1,64}/g)!.join('\n')}`)).toBe(26);
    expect(holdsPrivateKey(`backup\n${wrapped}`)).toBe(true);
  });

  it('nesting is bounded: base64 three times over is read, four times is not', () => {
    expect(holdsPrivateKey(b64(b64(b64(M.ed25519Pkcs8!))))).toBe(true);
    expect(holdsPrivateKey(b64(b64(b64(b64(M.ed25519Pkcs8!)))))).toBe(false);
  });

  it('base64 inside decoded text is read again when the text is text: wrapped with LF, CRLF, tabs or spaces', () => {
    const inner = b64(M.ed25519Pkcs8!);
    const quanta = inner.match(/.{1,4}/g)!;
    for (const [name, joined] of [
      ['LF', quanta.join('\n')],
      ['CRLF', quanta.join('\r\n')],
      ['tab', quanta.map((q) => `\t${q}`).join('\n')],
      ['spaces', quanta.map((q) => `    ${q}`).join('\n')],
    ] as const) {
      expect(holdsPrivateKey(b64(joined)), name).toBe(true);
    }
  });

  it('decoded bytes that are not mostly text (under 90% printable) are not read as base64 again', () => {
    const inner = b64(M.ed25519Pkcs8!) + '\n';
    // Exactly 90% text: still text. One more binary byte: not.
    const total = Math.ceil(inner.length / 0.9 / 10) * 10;
    const at90 = inner + 'A'.repeat(total * 0.9 - inner.length) + '\0'.repeat(total / 10);
    expect(holdsPrivateKey(b64(Buffer.from(at90, 'latin1')))).toBe(true);
    const below = at90.slice(0, -total / 10 - 1) + '\0'.repeat(total / 10 + 1);
    expect(holdsPrivateKey(b64(Buffer.from(below, 'latin1')))).toBe(false);
    expect(holdsPrivateKey(b64(Buffer.from(inner + '\x7f'.repeat(inner.length), 'latin1')))).toBe(false);
    expect(holdsPrivateKey(b64(Buffer.from(inner + '\x1f'.repeat(inner.length), 'latin1')))).toBe(false);
  });

  it('the shortest value read is 40 characters, and so is the shortest run in a longer value', () => {
    const key30 = Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), Buffer.alloc(15, 0x41)]);
    expect(b64(key30)).toHaveLength(40);
    expect(holdsPrivateKey(b64(key30))).toBe(true);
    expect(holdsPrivateKey(`key: ${b64(key30)} end`)).toBe(true);
    const key27 = key30.subarray(0, 27);
    expect(holdsPrivateKey(`key: ${b64(key27)} and more text`)).toBe(false);
  });

  it('a base64 key with a stray character or two is read with them dropped, padding inside it too', () => {
    const body = M.rsaDerBase64!;
    const quoted = `${body.slice(0, 30)}"${body.slice(30, 70)},${body.slice(70)}`;
    expect(holdsPrivateKey(quoted)).toBe(true);
    const withPad = `${body.slice(0, 37)}=,${body.slice(37)}`;
    expect(holdsPrivateKey(withPad)).toBe(true);
    // Padding after the first 12 characters: what precedes it alone (9 bytes) is too short to tell.
    expect(holdsPrivateKey(`${body.slice(0, 12)}==,${body.slice(12)}`)).toBe(true);
    // Spaces between groups shorter than a run that could hold a key (bug: such a key was shared).
    expect(holdsPrivateKey(body.match(/.{1,32}/g)!.join(' '))).toBe(true);
    expect(
      holdsPrivateKey(
        b64(M.ecSec1!)
          .match(/.{1,8}/g)!
          .join(' \t '),
      ),
    ).toBe(true);
    // Padding typed inside with nothing else (bug: the key was missed), and exactly one character in ten outside the alphabet.
    expect(holdsPrivateKey(`${body.slice(0, 12)}==${body.slice(12)}`)).toBe(true);
    const tenth = body.slice(0, 900).match(/.{9}/g)!.join(',') + ',';
    expect(tenth.replace(/[^,]/g, '')).toHaveLength(100);
    expect(holdsPrivateKey(tenth)).toBe(true);
    // More than one character in ten outside the alphabet: not base64.
    expect(holdsPrivateKey(body.slice(0, 60).split('').join('!'))).toBe(false);
  });

  it('a value shorter than 40 characters holds no key, even with a header', () => {
    expect(holdsPrivateKey('-----BEGIN PRIVATE KEY-----\nMIIBVQIBADA')).toBe(false);
    expect(holdsPrivateKey('-----BEGIN PRIVATE KEY-----\nMIIBVQIBADAN')).toBe(true);
  });

  it('plain values, certificates and public keys hold no private key', () => {
    expect(holdsPrivateKey('a'.repeat(39))).toBe(false);
    expect(holdsPrivateKey(M.leafCert!)).toBe(false);
    expect(holdsPrivateKey(b64(M.rootCert!))).toBe(false);
    expect(holdsPrivateKey('just a long sentence with words in it, nothing secret at all.')).toBe(false);
  });
});

describe('kubeconfigs and Secret manifests as values', () => {
  const kubeconfig = (user: string) =>
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: https://k}\nusers:\n- name: u\n  user:\n${user}\n`;

  it('a kubeconfig whose user has a credential field (kubectl config set-credentials)', () => {
    for (const field of [
      'token',
      'password',
      'client-key-data',
      'client-key',
      'id-token',
      'refresh-token',
      'client-secret',
      'access-token',
      'tokenFile',
      'username',
    ]) {
      expect(isKubeconfigWithCredentials(kubeconfig(`    ${field}: x`)), field).toBe(true);
      expect(isKubeconfigWithCredentials(kubeconfig(`    "${field}": x`)), `"${field}"`).toBe(true);
    }
    expect(isKubeconfigWithCredentials(kubeconfig('\ttoken:\tx'))).toBe(true);
    expect(isKubeconfigWithCredentials(kubeconfig('    token : x'))).toBe(true);
    expect(isKubeconfigWithCredentials(kubeconfig('    token:   x'))).toBe(true);
    // 20 characters, the shortest read.
    expect(isKubeconfigWithCredentials('users:\ntoken: abcdef')).toBe(true);
    expect(isKubeconfigWithCredentials('users :\n\ntoken: abcd')).toBe(true);
  });

  it('a field with no value, another field, or no users is no credential', () => {
    expect(isKubeconfigWithCredentials(kubeconfig('    token:'))).toBe(false);
    expect(isKubeconfigWithCredentials(kubeconfig('    client-certificate-data: abc'))).toBe(false);
    expect(isKubeconfigWithCredentials(kubeconfig('    # token: abc'))).toBe(false);
    expect(isKubeconfigWithCredentials(kubeconfig('    mytoken: abc'))).toBe(false);
    expect(isKubeconfigWithCredentials(kubeconfig('    xtoken: abc'))).toBe(false);
    expect(isKubeconfigWithCredentials('clusters: []\ntoken: abcdefgh12345')).toBe(false);
    expect(isKubeconfigWithCredentials('superusers: []\ntoken: abcdefgh')).toBe(false);
    expect(isKubeconfigWithCredentials('users:\ntoken: abcde')).toBe(false);
  });

  it('JSON kubeconfigs, on one line and spaced', () => {
    expect(isKubeconfigWithCredentials('{"users":[{"name":"u","user":{"token":"abc"}}]}')).toBe(true);
    expect(isKubeconfigWithCredentials('{"users" : [{"user": {"client-key-data" : "abc"}}]}')).toBe(true);
    expect(isKubeconfigWithCredentials('{"users":\n[{"user":\n{"password":\n"abc"}}]}')).toBe(true);
    expect(isKubeconfigWithCredentials('{"users":[{"name":"u","user":{"client-certificate-data":"abc"}}]}')).toBe(false);
  });

  it('a Secret manifest kept as text', () => {
    expect(holdsSecretManifest('apiVersion: v1\nkind: Secret\n')).toBe(true);
    expect(holdsSecretManifest('{"apiVersion":"v1","kind":"Secret"}')).toBe(true);
    expect(holdsSecretManifest("{'apiVersion':'v1','kind': 'secret'}")).toBe(true);
    expect(holdsSecretManifest('apiVersion: v1\nkind:\n  Secret\n')).toBe(true);
    expect(holdsSecretManifest('apiVersion: v1\nkind : Secret\n')).toBe(true);
    expect(holdsSecretManifest('kind: "Secret\nstringData: {a: b}')).toBe(true);
    expect(holdsSecretManifest('apiVersion: v1\nkind: SecretProviderClass\n')).toBe(false);
    expect(holdsSecretManifest('apiVersion: v1\nkind: ConfigMap # Secret\n')).toBe(false);
    expect(holdsSecretManifest('mykind: xSecret and more')).toBe(false);
    expect(holdsSecretManifest('kind:Secret')).toBe(false);
    expect(holdsSecretManifest('kind: Secret  ......')).toBe(true);
    expect(holdsSecretManifest('kind: Secret  .....')).toBe(false);
    expect(isSecretMaterial('apiVersion: v1\nkind: Secret\n')).toBe(true);
    expect(isSecretMaterial(kubeconfig('    token: abc'))).toBe(true);
    expect(isSecretMaterial(M.ecSec1!)).toBe(true);
    expect(isSecretMaterial(M.leafCert!)).toBe(false);
  });
});

describe('certificates only (what may stay public)', () => {
  it('one or more PEM CERTIFICATE blocks with white space around them', () => {
    expect(isCertificatesOnly(M.leafCert!)).toBe(true);
    expect(isCertificatesOnly(`\n  ${M.leafCert!}\n${M.rootCert!}  \n`)).toBe(true);
    expect(isCertificatesOnly(M.leafCert!.replace(/CERTIFICATE/g, 'TRUSTED CERTIFICATE'))).toBe(true);
    expect(isCertificatesOnly(M.leafCert!.replace(/\n/g, '\r\n'))).toBe(true);
  });

  it('anything else in the value, or a block that is no certificate, is not public', () => {
    expect(isCertificatesOnly('')).toBe(false);
    expect(isCertificatesOnly('   \n')).toBe(false);
    expect(isCertificatesOnly(`password: x\n${M.leafCert!}`)).toBe(false);
    expect(isCertificatesOnly(M.leafCert! + M.ecSec1!)).toBe(false);
    expect(isCertificatesOnly(M.leafCert!.replace(/-----/g, '----'))).toBe(false);
    // A private key (or a public key) written under a CERTIFICATE label.
    const relabel = (pem: string) => pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '-----$1 CERTIFICATE-----');
    expect(isCertificatesOnly(relabel(M.rsaPkcs8!))).toBe(false);
    expect(isCertificatesOnly(relabel(M.rsaPkcs1!))).toBe(false);
    expect(isCertificatesOnly(relabel(M.encryptedPkcs8!))).toBe(false);
    expect(isCertificatesOnly(relabel(M.ecSec1!))).toBe(false);
    // A certificate with bytes after it, two certificates in one block, a body that is not base64.
    const der = derOf(M.leafCert!);
    const pemOf = (bytes: Uint8Array) =>
      `-----BEGIN CERTIFICATE-----\n${b64(bytes)
        .match(/.{1,64}/g)!
        .join('\n')}\n-----END CERTIFICATE-----\n`;
    expect(isCertificatesOnly(pemOf(Buffer.concat([der, Buffer.from([0, 0])])))).toBe(false);
    expect(isCertificatesOnly(pemOf(Buffer.concat([der, der])))).toBe(false);
    expect(isCertificatesOnly('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')).toBe(false);
    expect(isCertificatesOnly('-----BEGIN CERTIFICATE-----\nMIIBxx=\n-----END CERTIFICATE-----\n')).toBe(false);
    expect(isCertificatesOnly('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')).toBe(false);
    // A SEQUENCE whose first element is not a SEQUENCE, or whose TBS opens with neither [0] nor an INTEGER.
    expect(isCertificatesOnly(pemOf(hex(tlv('30', BIG + BIG))))).toBe(false);
    expect(isCertificatesOnly(pemOf(hex(tlv('30', tlv('30', RSA_ALG + BIG) + BIG))))).toBe(false);
    expect(isCertificatesOnly(pemOf(hex(tlv('30', '3082ffff' + BIG))))).toBe(false);
    // A SET, or a TBS that is an OCTET STRING, shaped like a certificate otherwise.
    expect(isCertificatesOnly(pemOf(hex(tlv('31', tlv('30', INT(1) + BIG)))))).toBe(false);
    expect(isCertificatesOnly(pemOf(hex(tlv('30', tlv('04', INT(1) + BIG)))))).toBe(false);
  });

  it('Secret data: base64 of PEM certificates, or of DER certificates back to back', () => {
    const der = derOf(M.leafCert!);
    const root = derOf(M.rootCert!);
    expect(isCertificatesOnlyBase64(b64(M.leafCert!))).toBe(true);
    expect(isCertificatesOnlyBase64(b64(der))).toBe(true);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, root])))).toBe(true);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, Buffer.from([0x30])])))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, Buffer.from([0x02, 0x01, 0x00])])))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, hex(tlv('30', BIG))])))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, hex(tlv('31', tlv('30', INT(1) + BIG)))])))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(Buffer.concat([der, hex(tlv('30', tlv('30', '0500') + BIG))])))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(derOf(M.rsaPkcs1!)))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(derOf(M.encryptedPkcs8!)))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(M.leafCert! + M.ecSec1!))).toBe(false);
    expect(isCertificatesOnlyBase64('='.repeat(40))).toBe(false);
    expect(isCertificatesOnlyBase64(b64('x'.repeat(40)))).toBe(false);
  });

  it('the shortest base64 read is 40 characters (a certificate is longer)', () => {
    // 30 bytes: a minimal certificate-shaped DER element of 28 content bytes.
    const tiny = hex(tlv('30', tlv('30', INT(1) + '00'.repeat(23))));
    expect(b64(tiny)).toHaveLength(40);
    expect(isCertificatesOnlyBase64(b64(tiny))).toBe(true);
    expect(isCertificatesOnlyBase64(b64(tiny.subarray(0, 27)))).toBe(false);
    expect(isCertificatesOnlyBase64(b64(hex(tlv('30', tlv('30', INT(1))))))).toBe(false);
  });
});
