// Private keys in the encodings Go (and so Istio) reads: PKCS#1 `RSA PRIVATE KEY`, SEC1
// `EC PRIVATE KEY` and PKCS#8 `PRIVATE KEY` (RSA, EC, Ed25519, X25519). Decoded with the
// @peculiar/asn1-* schemas; the public half is written as a DER SubjectPublicKeyInfo so a
// key matches a certificate exactly when their SPKI digests are equal — no private-key
// operation. Where the file does not carry the public key (an EC key without its optional
// public point, an Ed25519 seed), WebCrypto imports the key and exports its JWK.
import { asn1, asnX509, asnRsa, asnEcc, asnPkcs8 } from './lib.ts';
import { concatBytes, hex, sha256, toArrayBuffer, webCrypto } from './bytes.ts';
import { publicKeyFacts, type PublicKeyFacts } from './cert.ts';
import { CURVES, OID } from './oids.ts';
import { decodeBase64Std } from './base64.ts';

export type KeyEncoding = 'PKCS#1' | 'PKCS#8' | 'SEC1';

export interface PrivateKeyFacts {
  encoding: KeyEncoding;
  /** The PEM block type the key came in (null for DER). */
  pemType: string | null;
  /** The public half; null when it cannot be derived here (unsupported algorithm). */
  publicKey: PublicKeyFacts | null;
  /** What Istio's ParsePemEncodedKey says about this block: `supported` or its error. */
  istioParsePemEncodedKey: string;
}

export interface PrivateKey {
  der: Uint8Array;
  encoding: KeyEncoding;
  pemType: string | null;
  /** Algorithm OID (rsaEncryption, id-ecPublicKey, Ed25519, …). */
  algorithm: string;
  /** Curve OID for EC keys. */
  curveOid?: string;
  /** The SubjectPublicKeyInfo when it can be written without WebCrypto. */
  spki?: Uint8Array;
  /** PKCS#8 DER (for WebCrypto), when the key is one WebCrypto can import. */
  pkcs8?: Uint8Array;
}

export class KeyParseError extends Error {}

function algId(oid: string, params?: Uint8Array | null): asnX509.AlgorithmIdentifier {
  return new asnX509.AlgorithmIdentifier({ algorithm: oid, parameters: params === undefined ? undefined : params ? toArrayBuffer(params) : null });
}

function spkiDer(alg: asnX509.AlgorithmIdentifier, key: Uint8Array): Uint8Array {
  return new Uint8Array(asn1.AsnConvert.serialize(new asnX509.SubjectPublicKeyInfo({ algorithm: alg, subjectPublicKey: toArrayBuffer(key) })));
}

/** DER of a named-curve OID (ECParameters is a CHOICE, so it serialises as the OID itself). */
function oidDer(oid: string): Uint8Array {
  return new Uint8Array(asn1.AsnConvert.serialize(new asnEcc.ECParameters({ namedCurve: oid })));
}

const NULL_DER = new Uint8Array([0x05, 0x00]);

function rsaSpki(modulus: ArrayBuffer, exponent: ArrayBuffer): Uint8Array {
  const pub = new Uint8Array(asn1.AsnConvert.serialize(new asnRsa.RSAPublicKey({ modulus, publicExponent: exponent })));
  return spkiDer(algId(OID.rsaEncryption, NULL_DER), pub);
}

function ecSpki(curveOid: string, point: Uint8Array): Uint8Array {
  return spkiDer(algId(OID.ecPublicKey, oidDer(curveOid)), point);
}

function pkcs8Of(algorithm: asnX509.AlgorithmIdentifier, inner: Uint8Array): Uint8Array {
  return new Uint8Array(
    asn1.AsnConvert.serialize(
      new asnPkcs8.PrivateKeyInfo({ version: 0, privateKeyAlgorithm: algorithm, privateKey: new asnPkcs8.PrivateKey(toArrayBuffer(inner)) }),
    ),
  );
}

function fromPkcs1(der: Uint8Array): Omit<PrivateKey, 'pemType'> {
  const k = asn1.AsnConvert.parse(der, asnRsa.RSAPrivateKey);
  if (k.version !== 0 && k.version !== 1) throw new KeyParseError('unknown RSAPrivateKey version');
  return {
    der,
    encoding: 'PKCS#1',
    algorithm: OID.rsaEncryption,
    spki: rsaSpki(k.modulus, k.publicExponent),
    pkcs8: pkcs8Of(algId(OID.rsaEncryption, NULL_DER), der),
  };
}

function fromSec1(der: Uint8Array, curveFromAlgorithm?: string, encoding: KeyEncoding = 'SEC1'): Omit<PrivateKey, 'pemType'> {
  const k = asn1.AsnConvert.parse(der, asnEcc.ECPrivateKey);
  if (k.version !== 1) throw new KeyParseError('unknown ECPrivateKey version');
  const curveOid = k.parameters?.namedCurve ?? curveFromAlgorithm;
  if (!curveOid) throw new KeyParseError('EC private key without a named curve');
  const out: Omit<PrivateKey, 'pemType'> = { der, encoding, algorithm: OID.ecPublicKey, curveOid };
  if (k.publicKey && k.publicKey.byteLength > 0) out.spki = ecSpki(curveOid, new Uint8Array(k.publicKey));
  if (CURVES[curveOid] && ['P-256', 'P-384', 'P-521'].includes(CURVES[curveOid]!.name)) {
    out.pkcs8 = encoding === 'PKCS#8' ? der : pkcs8Of(algId(OID.ecPublicKey, oidDer(curveOid)), der);
  }
  return out;
}

function fromPkcs8(der: Uint8Array): Omit<PrivateKey, 'pemType'> {
  const k = asn1.AsnConvert.parse(der, asnPkcs8.PrivateKeyInfo);
  const alg = k.privateKeyAlgorithm.algorithm;
  const inner = new Uint8Array(k.privateKey.buffer);
  if (alg === OID.rsaEncryption) return { ...fromPkcs1(inner), der, encoding: 'PKCS#8', pkcs8: der };
  if (alg === OID.ecPublicKey) {
    const p = k.privateKeyAlgorithm.parameters ? asn1.AsnConvert.parse(k.privateKeyAlgorithm.parameters, asnEcc.ECParameters) : undefined;
    const sec1 = fromSec1(inner, p?.namedCurve, 'PKCS#8');
    return { ...sec1, der, pkcs8: sec1.pkcs8 ? der : undefined };
  }
  if (alg === OID.ed25519 || alg === OID.x25519 || alg === OID.ed448 || alg === OID.x448) return { der, encoding: 'PKCS#8', algorithm: alg, pkcs8: der };
  return { der, encoding: 'PKCS#8', algorithm: alg };
}

const PARSERS: Record<KeyEncoding, (der: Uint8Array) => Omit<PrivateKey, 'pemType'>> = { 'PKCS#1': fromPkcs1, 'PKCS#8': fromPkcs8, SEC1: (d) => fromSec1(d) };

const BY_PEM_TYPE: Record<string, KeyEncoding> = { 'RSA PRIVATE KEY': 'PKCS#1', 'EC PRIVATE KEY': 'SEC1', 'PRIVATE KEY': 'PKCS#8' };

/**
 * Parses a DER private key: the encoding its PEM type names first, then the others (as Go's
 * tls.X509KeyPair does, which ignores the type). Throws KeyParseError when nothing fits.
 */
export function parsePrivateKeyDer(der: Uint8Array, pemType: string | null = null): PrivateKey {
  const first = pemType ? BY_PEM_TYPE[pemType] : undefined;
  const order: KeyEncoding[] = first ? [first, ...(['PKCS#1', 'PKCS#8', 'SEC1'] as const).filter((e) => e !== first)] : ['PKCS#1', 'PKCS#8', 'SEC1'];
  let firstError = '';
  for (const enc of order) {
    try {
      return { ...PARSERS[enc](der.slice()), pemType };
    } catch (e) {
      if (!firstError) firstError = e instanceof Error ? e.message : String(e);
    }
  }
  throw new KeyParseError(`not a private key (PKCS#1, PKCS#8 or SEC1): ${firstError}`);
}

/** Curves Go's crypto/x509 namedCurveFromOID knows; any other is "x509: unknown elliptic curve". */
const GO_CURVES = ['P-224', 'P-256', 'P-384', 'P-521'];

/** Go's error for a key our parser reads but crypto/x509 refuses (sec1.go, pkcs8.go), if any. */
function goRefusal(k: Omit<PrivateKey, 'pemType'>): string | undefined {
  if (k.algorithm === OID.ecPublicKey && !GO_CURVES.includes(CURVES[k.curveOid!]?.name ?? '')) {
    return k.encoding === 'PKCS#8' ? 'x509: failed to parse EC private key embedded in PKCS#8: x509: unknown elliptic curve' : 'x509: unknown elliptic curve';
  }
  if (k.encoding === 'PKCS#8' && !([OID.rsaEncryption, OID.ecPublicKey, OID.ed25519, OID.x25519] as string[]).includes(k.algorithm)) {
    return `x509: PKCS#8 wrapping contained private key with unknown algorithm: ${k.algorithm}`;
  }
  return undefined;
}

/** Istio's ParsePemEncodedKey verdict for a block of this type (crypto.go): `supported` or the error. */
export function istioKeyVerdict(pemType: string, der: Uint8Array): string {
  const enc = BY_PEM_TYPE[pemType];
  if (!enc) return `unsupported PEM block type for a private key: ${pemType}`;
  try {
    const refused = goRefusal(PARSERS[enc](der.slice()));
    if (refused) throw new KeyParseError(refused);
    return 'supported';
  } catch (e) {
    const what = enc === 'SEC1' ? 'the ECDSA private key' : enc === 'PKCS#1' ? 'the RSA private key' : 'the PKCS8 private key';
    return `failed to parse ${what}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

const JWK_CURVES: Record<string, string> = { 'P-256': '1.2.840.10045.3.1.7', 'P-384': '1.3.132.0.34', 'P-521': '1.3.132.0.35' };

function b64urlBytes(s: string): Uint8Array {
  return decodeBase64Std(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)) ?? new Uint8Array();
}

/** The key's SubjectPublicKeyInfo; WebCrypto derives it when the file does not carry it. */
export async function publicKeyOf(key: PrivateKey): Promise<Uint8Array | undefined> {
  if (key.spki) return key.spki;
  if (!key.pkcs8) return undefined;
  const subtle = webCrypto();
  if (key.algorithm === OID.ecPublicKey && key.curveOid) {
    const name = CURVES[key.curveOid]!.name;
    const k = await subtle.importKey('pkcs8', toArrayBuffer(key.pkcs8), { name: 'ECDSA', namedCurve: name }, true, ['sign']);
    const jwk = await subtle.exportKey('jwk', k);
    if (!jwk.x || !jwk.y) return undefined;
    key.spki = ecSpki(JWK_CURVES[name]!, concatBytes(new Uint8Array([4]), b64urlBytes(jwk.x), b64urlBytes(jwk.y)));
    return key.spki;
  }
  if (key.algorithm === OID.ed25519 || key.algorithm === OID.x25519) {
    const alg = key.algorithm === OID.ed25519 ? 'Ed25519' : 'X25519';
    const k = await subtle.importKey('pkcs8', toArrayBuffer(key.pkcs8), { name: alg }, true, alg === 'Ed25519' ? ['sign'] : ['deriveBits']);
    const jwk = await subtle.exportKey('jwk', k);
    if (!jwk.x) return undefined;
    key.spki = spkiDer(algId(key.algorithm), b64urlBytes(jwk.x));
    return key.spki;
  }
  return undefined;
}

/** Facts of a parsed key, with the digest of its public half. */
export async function privateKeyFacts(key: PrivateKey): Promise<PrivateKeyFacts> {
  let spki: Uint8Array | undefined;
  try {
    spki = await publicKeyOf(key);
  } catch {
    spki = undefined;
  }
  let publicKey: PublicKeyFacts | null = null;
  if (spki) {
    publicKey = publicKeyFacts(spki);
    publicKey.spkiSha256 = hex(await sha256(spki));
  }
  return {
    encoding: key.encoding,
    pemType: key.pemType,
    publicKey,
    istioParsePemEncodedKey: key.pemType ? istioKeyVerdict(key.pemType, key.der) : 'supported',
  };
}

/** Go's tls.X509KeyPair verdict for a certificate's key and a private key. */
export function x509KeyPairError(certKeyType: string, keyFacts: PrivateKeyFacts, certSpkiSha256: string): string | undefined {
  const keyType = keyFacts.publicKey?.type;
  if (!keyType) return 'tls: unknown private key type';
  if (keyType !== certKeyType) return 'tls: private key type does not match public key type';
  if (keyFacts.publicKey!.spkiSha256 !== certSpkiSha256) return 'tls: private key does not match public key';
  return undefined;
}
