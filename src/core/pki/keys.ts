// Public and private key structures, parsed synchronously from DER so that "does this key
// belong to this certificate?" can be answered inside the (synchronous) analyzers:
//   RSA: PKCS#1 RSAPrivateKey or PKCS#8 → modulus and public exponent;
//   EC:  SEC1 ECPrivateKey or PKCS#8 → curve and private scalar, public point computed as d·G.
// The certificate side is its SubjectPublicKeyInfo.
import { children, content, DerError, expectTag, readBigInt, readBitString, readOid, readTlv, TAG, bytesToBigInt } from './der.ts';
import { curveByOid, onCurve, publicPoint, type AffinePoint, type Curve } from './ec.ts';

export const OID_RSA = '1.2.840.113549.1.1.1';
export const OID_EC_PUBLIC_KEY = '1.2.840.10045.2.1';

export type PublicKeyInfo =
  | { kind: 'rsa'; n: bigint; e: bigint }
  | { kind: 'ec'; curve: Curve; point: AffinePoint }
  | { kind: 'unsupported'; algorithm: string };

export type PrivateKeyInfo =
  | { kind: 'rsa'; format: 'pkcs1' | 'pkcs8'; n: bigint; e: bigint; d: bigint }
  | { kind: 'ec'; format: 'sec1' | 'pkcs8'; curve: Curve; d: bigint; embeddedPublic?: AffinePoint }
  | { kind: 'unsupported'; format: 'pkcs8'; algorithm: string };

/** Decodes an EC point (uncompressed `04‖X‖Y` or compressed `02/03‖X`) on the curve. */
export function decodeEcPoint(curve: Curve, bytes: Uint8Array): AffinePoint | undefined {
  const size = curve.size;
  if (bytes.length === 1 + 2 * size && bytes[0] === 4) {
    const pt = { x: bytesToBigInt(bytes.subarray(1, 1 + size)), y: bytesToBigInt(bytes.subarray(1 + size)) };
    return pt.x < curve.p && pt.y < curve.p && onCurve(curve, pt) ? pt : undefined;
  }
  if (bytes.length === 1 + size && (bytes[0] === 2 || bytes[0] === 3)) {
    const x = bytesToBigInt(bytes.subarray(1));
    if (x >= curve.p) return undefined;
    // All three curves have p ≡ 3 (mod 4), so a square root is a single exponentiation.
    const p = curve.p;
    const rhs = (((x * x) % p) * x - 3n * x + curve.b) % p;
    const y2 = rhs < 0n ? rhs + p : rhs;
    let y = powMod(y2, (p + 1n) / 4n, p);
    if ((y * y) % p !== y2) return undefined;
    if ((y & 1n) !== BigInt(bytes[0]! & 1)) y = p - y;
    return { x, y };
  }
  return undefined;
}

function powMod(base: bigint, exp: bigint, p: bigint): bigint {
  let r = 1n;
  let b = base % p;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % p;
    b = (b * b) % p;
    e >>= 1n;
  }
  return r;
}

function algorithmOf(der: Uint8Array, alg: { start: number; end: number }): { oid: string; params?: { tag: number; oid?: string } } {
  const parts = children(der, alg);
  const oid = readOid(der, expectTag(parts[0], TAG.OID, 'algorithm OID'));
  const p = parts[1];
  if (!p) return { oid };
  return { oid, params: { tag: p.tag, oid: p.tag === TAG.OID ? readOid(der, p) : undefined } };
}

/** Parses a DER SubjectPublicKeyInfo. Throws DerError on malformed input. */
export function parseSubjectPublicKeyInfo(spki: Uint8Array): PublicKeyInfo {
  const top = readTlv(spki, 0);
  if (top.tag !== TAG.SEQUENCE || top.next !== spki.length) throw new DerError('expected SubjectPublicKeyInfo');
  const [alg, bits] = children(spki, top);
  const { oid, params } = algorithmOf(spki, expectTag(alg, TAG.SEQUENCE, 'AlgorithmIdentifier'));
  const key = readBitString(spki, expectTag(bits, TAG.BIT_STRING, 'subjectPublicKey'));
  if (oid === OID_RSA) {
    const seq = readTlv(key, 0);
    const [n, e] = children(key, expectTag(seq, TAG.SEQUENCE, 'RSAPublicKey'));
    return { kind: 'rsa', n: readBigInt(key, expectTag(n, TAG.INTEGER, 'modulus')), e: readBigInt(key, expectTag(e, TAG.INTEGER, 'exponent')) };
  }
  if (oid === OID_EC_PUBLIC_KEY) {
    const curve = params?.oid ? curveByOid(params.oid) : undefined;
    if (!curve) return { kind: 'unsupported', algorithm: `${oid} (${params?.oid ?? 'explicit curve'})` };
    const point = decodeEcPoint(curve, key);
    if (!point) throw new DerError('invalid EC point');
    return { kind: 'ec', curve, point };
  }
  return { kind: 'unsupported', algorithm: oid };
}

function parsePkcs1(der: Uint8Array): PrivateKeyInfo {
  const top = readTlv(der, 0);
  if (top.tag !== TAG.SEQUENCE || top.next !== der.length) throw new DerError('expected RSAPrivateKey');
  const f = children(der, top);
  if (f.length < 9) throw new DerError('short RSAPrivateKey');
  const ints = f.slice(0, 9).map((t) => readBigInt(der, expectTag(t, TAG.INTEGER, 'INTEGER')));
  if (ints[0] !== 0n && ints[0] !== 1n) throw new DerError('unknown RSAPrivateKey version');
  const [, n, e, d] = ints as [bigint, bigint, bigint, bigint];
  if (n <= 0n || e <= 0n) throw new DerError('invalid RSA key');
  return { kind: 'rsa', format: 'pkcs1', n, e, d };
}

function parseSec1(der: Uint8Array, curveFromAlgorithm?: Curve): PrivateKeyInfo & { kind: 'ec' } {
  const top = readTlv(der, 0);
  if (top.tag !== TAG.SEQUENCE || top.next !== der.length) throw new DerError('expected ECPrivateKey');
  const f = children(der, top);
  if (readBigInt(der, expectTag(f[0], TAG.INTEGER, 'version')) !== 1n) throw new DerError('unknown ECPrivateKey version');
  const scalar = content(der, expectTag(f[1], TAG.OCTET_STRING, 'privateKey'));
  let curve = curveFromAlgorithm;
  let embeddedPublic: AffinePoint | undefined;
  for (const t of f.slice(2)) {
    if (t.tag === TAG.CTX0) {
      const inner = readTlv(der, t.start, t.end);
      if (inner.tag === TAG.OID) curve = curveByOid(readOid(der, inner)) ?? curve;
    } else if (t.tag === TAG.CTX1 && curve) {
      const inner = readTlv(der, t.start, t.end);
      embeddedPublic = decodeEcPoint(curve, readBitString(der, expectTag(inner, TAG.BIT_STRING, 'publicKey')));
    }
  }
  if (!curve) throw new DerError('unknown or missing EC curve');
  const d = bytesToBigInt(scalar);
  if (d <= 0n || d >= curve.n) throw new DerError('invalid EC private scalar');
  return embeddedPublic ? { kind: 'ec', format: 'sec1', curve, d, embeddedPublic } : { kind: 'ec', format: 'sec1', curve, d };
}

function parsePkcs8(der: Uint8Array): PrivateKeyInfo {
  const top = readTlv(der, 0);
  if (top.tag !== TAG.SEQUENCE || top.next !== der.length) throw new DerError('expected PrivateKeyInfo');
  const f = children(der, top);
  const version = readBigInt(der, expectTag(f[0], TAG.INTEGER, 'version'));
  if (version !== 0n && version !== 1n) throw new DerError('unknown PrivateKeyInfo version');
  const { oid, params } = algorithmOf(der, expectTag(f[1], TAG.SEQUENCE, 'AlgorithmIdentifier'));
  const inner = content(der, expectTag(f[2], TAG.OCTET_STRING, 'privateKey'));
  if (oid === OID_RSA) return { ...parsePkcs1(inner), format: 'pkcs8' };
  if (oid === OID_EC_PUBLIC_KEY) {
    const curve = params?.oid ? curveByOid(params.oid) : undefined;
    if (!curve) throw new DerError('unsupported EC curve');
    return { ...parseSec1(inner, curve), format: 'pkcs8' };
  }
  return { kind: 'unsupported', format: 'pkcs8', algorithm: oid };
}

/**
 * Parses a private key in any of the DER encodings Go's tls.X509KeyPair accepts, trying
 * PKCS#1, then PKCS#8, then SEC1 (the PEM block type is not trusted). Undefined when none fits.
 */
export function parsePrivateKey(der: Uint8Array): PrivateKeyInfo | undefined {
  for (const parse of [parsePkcs1, parsePkcs8, (b: Uint8Array) => parseSec1(b)]) {
    try {
      return parse(der);
    } catch (e) {
      if (!(e instanceof DerError)) throw e;
    }
  }
  return undefined;
}

/** The public half of a private key (EC: computed from the scalar, not read from the file). */
export function publicKeyOf(key: PrivateKeyInfo): PublicKeyInfo {
  if (key.kind === 'rsa') return { kind: 'rsa', n: key.n, e: key.e };
  if (key.kind === 'ec') {
    const point = publicPoint(key.curve, key.d);
    if (!point) throw new DerError('invalid EC private scalar');
    return { kind: 'ec', curve: key.curve, point };
  }
  return { kind: 'unsupported', algorithm: key.algorithm };
}

export type KeyMatch = 'match' | 'mismatch' | 'unsupported';

/** Whether the private key is the one for this public key (same algorithm, same numbers). */
export function keyMatchesPublicKey(pub: PublicKeyInfo, key: PrivateKeyInfo): KeyMatch {
  if (pub.kind === 'unsupported' || key.kind === 'unsupported') return 'unsupported';
  if (pub.kind !== key.kind) return 'mismatch';
  const derived = publicKeyOf(key);
  if (pub.kind === 'rsa' && derived.kind === 'rsa') return pub.n === derived.n && pub.e === derived.e ? 'match' : 'mismatch';
  if (pub.kind === 'ec' && derived.kind === 'ec') {
    return pub.curve === derived.curve && pub.point.x === derived.point.x && pub.point.y === derived.point.y ? 'match' : 'mismatch';
  }
  return 'mismatch';
}
