// Hand-built DER for the cert.ts tests (tests/pki/cert*.test.ts): certificates assembled
// field by field, so that a test can put any shape in any place (a GeneralizedTime before
// 2050, a TBSCertificate cut short, a duplicate extension, a key of any algorithm).
// parseCertificateDer does not check signatures, so the signature is a fixed dummy; the
// expected values in the tests come from Go's crypto/x509, RFC 5280 and openssl, not from here.
import * as nodeCrypto from 'node:crypto';

export type Bytes = Uint8Array;

function derLen(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

export function cat(...parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

export function tlv(tag: number, ...body: Bytes[]): Bytes {
  const b = cat(...body);
  return cat(new Uint8Array([tag, ...derLen(b.length)]), b);
}

export const bytes = (...b: number[]): Bytes => new Uint8Array(b);
export const fromHexText = (h: string): Bytes => new Uint8Array(Buffer.from(h.replace(/[\s:]/g, ''), 'hex'));
export const seq = (...parts: Bytes[]): Bytes => tlv(0x30, ...parts);
export const set = (...parts: Bytes[]): Bytes => tlv(0x31, ...parts);
/** An INTEGER with exactly these content octets (no normalisation). */
export const int = (...content: number[]): Bytes => tlv(0x02, bytes(...content));
export const nul = (): Bytes => bytes(0x05, 0x00);
export const octets = (b: Bytes): Bytes => tlv(0x04, b);
export const bitString = (b: Bytes): Bytes => tlv(0x03, bytes(0), b);
export const utf8 = (s: string): Bytes => tlv(0x0c, new TextEncoder().encode(s));
export const ia5 = (s: string): Bytes => new TextEncoder().encode(s);

export function oid(dotted: string): Bytes {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out: number[] = [a! * 40 + b!];
  for (const n of rest) {
    const groups: number[] = [];
    let v = n;
    do {
      groups.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < groups.length - 1; i++) groups[i]! |= 0x80;
    out.push(...groups);
  }
  return tlv(0x06, new Uint8Array(out));
}

/** `CN=<cn>` as one RDN. */
export const name = (cn: string): Bytes => seq(set(seq(oid('2.5.4.3'), utf8(cn))));
/** UTCTime / GeneralizedTime from `YYMMDDhhmmssZ` / `YYYYMMDDhhmmssZ`. */
export const utcTime = (t: string): Bytes => tlv(0x17, new TextEncoder().encode(t));
export const genTime = (t: string): Bytes => tlv(0x18, new TextEncoder().encode(t));
export const alg = (dotted: string, params?: Bytes): Bytes => seq(oid(dotted), ...(params ? [params] : []));

export const OIDS = {
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  secp256k1: '1.3.132.0.10',
  ed25519: '1.3.101.112',
  ed448: '1.3.101.113',
  x25519: '1.3.101.110',
  x448: '1.3.101.111',
  dsa: '1.2.840.10040.4.1',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  nameConstraints: '2.5.29.30',
  certificatePolicies: '2.5.29.32',
  crlDistributionPoints: '2.5.29.31',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
} as const;

/** One Extension: SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }. */
export function ext(dotted: string, value: Bytes, critical = false): Bytes {
  return seq(oid(dotted), ...(critical ? [bytes(0x01, 0x01, 0xff)] : []), octets(value));
}

let p256Spki: Bytes | undefined;
/** A real P-256 SubjectPublicKeyInfo (node:crypto). */
export function p256(): Bytes {
  p256Spki ??= new Uint8Array(nodeCrypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }));
  return p256Spki;
}

/** A real SubjectPublicKeyInfo of the given node:crypto key type. */
export function spkiOf(type: 'ed25519' | 'ed448' | 'x25519' | 'x448'): Bytes {
  const kp = nodeCrypto.generateKeyPairSync(type as 'ed25519');
  return new Uint8Array(kp.publicKey.export({ type: 'spki', format: 'der' }));
}

/** A real SubjectPublicKeyInfo from node:crypto's generateKeyPairSync(type, options). */
export function nodeSpki(type: 'ec' | 'rsa' | 'rsa-pss' | 'dsa', options: object): Bytes {
  const generate = nodeCrypto.generateKeyPairSync as unknown as (t: string, o: object) => nodeCrypto.KeyPairKeyObjectResult;
  return new Uint8Array(generate(type, options).publicKey.export({ type: 'spki', format: 'der' }));
}

export interface TbsSpec {
  version?: Bytes | null;
  serial?: Bytes;
  sigAlg?: Bytes;
  issuer?: Bytes;
  validity?: Bytes;
  subject?: Bytes;
  spki?: Bytes;
  extensions?: Bytes[];
}

/** TBSCertificate fields, v3 by default (`version: null` leaves the [0] field out). */
export function tbsFields(s: TbsSpec = {}): Bytes[] {
  const version = s.version === undefined ? tlv(0xa0, int(2)) : s.version;
  return [
    ...(version ? [version] : []),
    s.serial ?? int(0x01, 0x02, 0x03),
    s.sigAlg ?? alg(OIDS.ecdsaWithSHA256),
    s.issuer ?? name('Issuer'),
    s.validity ?? seq(utcTime('260101000000Z'), utcTime('270101000000Z')),
    s.subject ?? name('Subject'),
    s.spki ?? p256(),
    ...(s.extensions ? [tlv(0xa3, seq(...s.extensions))] : []),
  ];
}

/** A Certificate around these TBSCertificate fields, with a dummy signature. */
export function certFrom(fields: Bytes[], sigAlg: Bytes = alg(OIDS.ecdsaWithSHA256)): Bytes {
  return seq(seq(...fields), sigAlg, bitString(bytes(0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01)));
}

export function cert(s: TbsSpec = {}): Bytes {
  return certFrom(tbsFields(s), s.sigAlg);
}
