// One X.509 certificate: decoded with @peculiar/asn1-x509, plus the raw DER slices Go's
// crypto/x509 compares byte for byte (subject, issuer, public key, SAN extension) and the
// encodings the libraries normalise away (serial sign and length, UTCTime vs
// GeneralizedTime). Parsing is synchronous; digests and signatures are added later.
import { asn1, asnX509, asnRsa } from './lib.ts';
import { children, DerError, readOid, readTlv, TAG, type Tlv } from './der.ts';
import { colonHex, hex } from './bytes.ts';
import { commonName, fromAsnName, goNameString, opensslName, rfc2253Name, type ParsedName } from './names.ts';
import { CURVES, EXT_KEY_USAGES, EXTENSION_NAMES, GO_HANDLED_EXTENSIONS, KEY_USAGE_BITS, OID, SIGNATURE_ALGORITHMS, type KeyUsageName } from './oids.ts';
import { parseSpiffeUri, type SpiffeId } from './spiffe.ts';
import { goQuote } from '../go/fmt.ts';

export class CertParseError extends Error {}

export interface PublicKeyFacts {
  type: 'RSA' | 'EC' | 'Ed25519' | 'Ed448' | 'X25519' | 'X448' | 'DSA' | 'RSA-PSS' | 'unknown';
  /** Modulus bits (counted, not rounded), curve bits, or 256/456 for Edwards keys. */
  bits: number;
  exponent?: number;
  /** NIST / WebCrypto curve name. */
  curve?: string;
  /** openssl's curve short name (the corpus field of this name holds it). */
  curveOid?: string;
  algorithmOid: string;
  /** SHA-256 of the DER SubjectPublicKeyInfo (hex), filled in by `digestCertificate`. */
  spkiSha256: string;
}

export interface SanFacts {
  present: boolean;
  critical: boolean;
  dns: string[];
  uri: string[];
  ip: string[];
  email: string[];
  other: string[];
}

export interface ExtensionFacts {
  oid: string;
  name: string;
  critical: boolean;
  /** One-line decoding of the value, when we know the extension. */
  text?: string;
}

/** Everything the views and the corpus compare, as plain data. */
export interface CertificateFacts {
  subject: string;
  subjectRFC2253: string;
  /** Go's pkix.Name.String() (Istio's error texts). */
  subjectGo: string;
  issuer: string;
  issuerRFC2253: string;
  issuerGo: string;
  subjectEmpty: boolean;
  subjectCommonName: string | null;
  selfIssued: boolean;
  version: number;
  serialHex: string;
  serialNegative: boolean;
  serialDerOctets: number;
  /** istioctl's `%032x` form (null for a negative serial, which Go cannot parse). */
  serialIstioctl: string | null;
  serialDecimal: string;
  notBefore: string;
  notAfter: string;
  notBeforeEncoding: 'UTCTime' | 'GeneralizedTime';
  notAfterEncoding: 'UTCTime' | 'GeneralizedTime';
  timeEncodingRfc5280: boolean;
  validitySeconds: number;
  signatureAlgorithm: string;
  signatureAlgorithmOid: string;
  publicKey: PublicKeyFacts;
  sha256Fingerprint: string;
  sha256FingerprintHex: string;
  sha1Fingerprint: string;
  basicConstraints: { present: boolean; critical: boolean; ca: boolean; pathLen: number | null };
  /** Go's IsCA: BasicConstraints present with cA=TRUE. */
  isCA: boolean;
  pathLen: number | null;
  keyUsage: { present: boolean; critical: boolean; usages: KeyUsageName[] };
  extKeyUsage: { present: boolean; critical: boolean; usages: string[] };
  subjectAltName: SanFacts;
  spiffe: SpiffeId[];
  subjectKeyIdentifier: string | null;
  authorityKeyIdentifier: string | null;
  nameConstraints: { present: boolean; critical: boolean; text: string[] };
  extensions: ExtensionFacts[];
  extensionsPresent: string[];
  /** `ok`, or why Go's x509.ParseCertificate refuses it (every reason, for the lint). */
  goParseExpectation: string;
  /** The error Go's x509.ParseCertificate returns (its first, in parser.go's order), or null. */
  goParseError: string | null;
  /** Critical extensions Go does not handle (Verify fails on them). */
  unhandledCriticalExtensions: string[];
  /** Filled in once the signature has been checked against the certificate's own key. */
  selfSigned: boolean;
}

export interface Certificate {
  der: Uint8Array;
  tbs: Uint8Array;
  subjectDer: Uint8Array;
  issuerDer: Uint8Array;
  spkiDer: Uint8Array;
  /** extnValue of the SAN extension (Go's alreadyInChain compares it). */
  sanDer: Uint8Array | null;
  subjectName: ParsedName;
  issuerName: ParsedName;
  notBefore: Date;
  notAfter: Date;
  /** Serial as a signed integer. */
  serial: bigint;
  /** EKU OIDs (for Go's usage checks). */
  ekuOids: string[];
  facts: CertificateFacts;
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function bigFromBytes(bytes: Uint8Array, signed: boolean): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (signed && bytes.length > 0 && bytes[0]! & 0x80) v -= 1n << BigInt(8 * bytes.length);
  return v;
}

function upperHexEven(v: bigint): string {
  let h = v.toString(16).toUpperCase();
  if (h.length % 2) h = '0' + h;
  return h;
}

/** openssl `-serial`: the content octets without a leading 00 (when more follow); `-` and the magnitude when negative. */
export function serialForms(content: Uint8Array): { hex: string; negative: boolean; value: bigint; istioctl: string | null } {
  const value = bigFromBytes(content, true);
  const negative = value < 0n;
  let h: string;
  if (negative) h = '-' + upperHexEven(-value);
  else {
    let start = 0;
    while (start < content.length - 1 && content[start] === 0) start++;
    h = hex(content.subarray(start)).toUpperCase();
  }
  return { hex: h, negative, value, istioctl: negative ? null : value.toString(16).padStart(32, '0') };
}

function bitIsSet(bits: Uint8Array, i: number): boolean {
  const byte = bits[i >> 3];
  return byte !== undefined && (byte & (0x80 >> (i & 7))) !== 0;
}

function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

function generalNameText(g: asnX509.GeneralName): { kind: keyof Omit<SanFacts, 'present' | 'critical'>; text: string } {
  if (g.dNSName !== undefined) return { kind: 'dns', text: g.dNSName };
  if (g.uniformResourceIdentifier !== undefined) return { kind: 'uri', text: g.uniformResourceIdentifier };
  if (g.iPAddress !== undefined) return { kind: 'ip', text: g.iPAddress };
  if (g.rfc822Name !== undefined) return { kind: 'email', text: g.rfc822Name };
  if (g.directoryName) return { kind: 'other', text: `DirName:${opensslName(fromAsnName(g.directoryName))}` };
  if (g.registeredID) return { kind: 'other', text: `Registered ID:${g.registeredID}` };
  if (g.otherName) return { kind: 'other', text: `othername:${g.otherName.typeId}` };
  return { kind: 'other', text: 'unsupported name' };
}

/**
 * The GeneralNames of a SAN value. Go's forEachSAN (parser.go) skips the kinds it does not use;
 * @peculiar/asn1-x509 cannot decode an x400Address [3] or ediPartyName [5], so when it fails the
 * elements are read one by one and those two kept as empty names ('unsupported name').
 */
function sanGeneralNames(value: Uint8Array): asnX509.GeneralName[] {
  try {
    return [...asn1.AsnConvert.parse(value, asnX509.SubjectAlternativeName)];
  } catch (e) {
    const top = readTlv(value, 0);
    if (top.tag !== TAG.SEQUENCE) throw e;
    return children(value, top).map((t) =>
      t.tag === 0xa3 || t.tag === 0xa5 ? new asnX509.GeneralName() : asn1.AsnConvert.parse(value.subarray(t.offset, t.next), asnX509.GeneralName),
    );
  }
}

const SAN_LABEL: Record<string, string> = { dns: 'DNS', uri: 'URI', ip: 'IP Address', email: 'email', other: '' };

function generalNameLine(g: asnX509.GeneralName): string {
  const { kind, text } = generalNameText(g);
  return kind === 'other' ? text : `${SAN_LABEL[kind]}:${text}`;
}

/** Public key facts of a DER SubjectPublicKeyInfo (digest not yet filled in). */
export function publicKeyFacts(spkiDer: Uint8Array): PublicKeyFacts {
  const spki = asn1.AsnConvert.parse(spkiDer, asnX509.SubjectPublicKeyInfo);
  const alg = spki.algorithm.algorithm;
  const key = new Uint8Array(spki.subjectPublicKey);
  const base = { algorithmOid: alg, spkiSha256: '' };
  if (alg === OID.rsaEncryption || alg === OID.rsassaPss) {
    const rsa = asn1.AsnConvert.parse(key, asnRsa.RSAPublicKey);
    const e = bigFromBytes(new Uint8Array(rsa.publicExponent), false);
    return { ...base, type: alg === OID.rsassaPss ? 'RSA-PSS' : 'RSA', bits: bitLength(new Uint8Array(rsa.modulus)), exponent: Number(e) };
  }
  if (alg === OID.ecPublicKey) {
    const params = spki.algorithm.parameters ? new Uint8Array(spki.algorithm.parameters) : undefined;
    let curveOid = '';
    if (params && params[0] === TAG.OID) curveOid = readOid(params, readTlv(params, 0));
    const curve = CURVES[curveOid];
    return curve
      ? { ...base, type: 'EC', bits: curve.bits, curve: curve.name, curveOid: curve.openssl }
      : { ...base, type: 'EC', bits: Math.max(0, (key.length - 1) * 4), curve: curveOid || 'explicit parameters', curveOid: curveOid || 'explicit' };
  }
  if (alg === OID.ed25519) return { ...base, type: 'Ed25519', bits: 256 };
  if (alg === OID.ed448) return { ...base, type: 'Ed448', bits: 456 };
  if (alg === OID.x25519) return { ...base, type: 'X25519', bits: 253 };
  if (alg === OID.x448) return { ...base, type: 'X448', bits: 448 };
  if (alg === OID.dsa) return { ...base, type: 'DSA', bits: 0 };
  return { ...base, type: 'unknown', bits: key.length * 8 };
}

/**
 * The error processExtensions (Go's parser.go) returns for an extension whose contents it cannot
 * read: the first one each parse function gives. Go has finer ones for some contents (a SAN of
 * the wrong length, a constraint it cannot parse); where our decoder and Go's disagree on what is
 * readable, the text names the extension as Go's would.
 */
const GO_EXTENSION_ERRORS: Readonly<Record<string, string>> = {
  [OID.basicConstraints]: 'x509: invalid basic constraints',
  [OID.keyUsage]: 'x509: invalid key usage',
  [OID.extKeyUsage]: 'x509: invalid extended key usages',
  [OID.subjectAltName]: 'x509: invalid subject alternative names',
  [OID.subjectKeyIdentifier]: 'x509: invalid subject key identifier',
  [OID.authorityKeyIdentifier]: 'x509: invalid authority key identifier',
  [OID.nameConstraints]: 'x509: invalid NameConstraints extension',
  [OID.certificatePolicies]: 'x509: invalid certificate policies',
  [OID.crlDistributionPoints]: 'x509: invalid CRL distribution points',
  [OID.authorityInfoAccess]: 'x509: invalid authority info access',
};

/** Go's namedCurveFromOID (x509.go): the curves crypto/x509 accepts in a certificate. */
const GO_NAMED_CURVES: ReadonlySet<string> = new Set(['1.3.132.0.33', '1.2.840.10045.3.1.7', '1.3.132.0.34', '1.3.132.0.35']);

/**
 * Why Go's parsePublicKey (parser.go) refuses the key, making ParseCertificate fail, or null.
 * Go parses only rsaEncryption, DSA, id-ecPublicKey and Ed25519 keys (getPublicKeyAlgorithmFromOID).
 * Not modelled: DSA parameters, non-minimal INTEGERs, and whether an EC point is on its curve.
 */
function goPublicKeyProblem(spkiDer: Uint8Array): string | null {
  const spki = asn1.AsnConvert.parse(spkiDer, asnX509.SubjectPublicKeyInfo);
  const alg = spki.algorithm.algorithm;
  // The parameters as written (the library reads a NULL as no parameters).
  const p = children(spkiDer, children(spkiDer, readTlv(spkiDer, 0))[0]!)[1];
  const params = p ? spkiDer.subarray(p.offset, p.next) : new Uint8Array(0);
  const key = new Uint8Array(spki.subjectPublicKey);
  if (alg === OID.rsaEncryption) {
    // A two-octet element is a tag and a zero length (the DER walk refuses a truncated one).
    if (params.length !== 2 || params[0] !== TAG.NULL) return 'RSA key missing NULL parameters';
    const rsa = asn1.AsnConvert.parse(key, asnRsa.RSAPublicKey);
    if (bigFromBytes(new Uint8Array(rsa.modulus), true) <= 0n) return 'RSA modulus is not a positive number';
    if (bigFromBytes(new Uint8Array(rsa.publicExponent), true) <= 0n) return 'RSA public exponent is not a positive number';
  } else if (alg === OID.ecPublicKey) {
    if (params[0] !== TAG.OID) return 'invalid ECDSA parameters';
    if (!GO_NAMED_CURVES.has(readOid(params, readTlv(params, 0)))) return 'unsupported elliptic curve';
  } else if (alg === OID.ed25519) {
    if (params.length > 0) return 'Ed25519 key encoded with illegal parameters';
    if (key.length !== 32) return 'wrong Ed25519 public key size';
  }
  return null;
}

interface RawTbs {
  serial: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  spki: Uint8Array;
  timeTags: [number, number];
  extensionOids: string[];
}

/**
 * The TBSCertificate's fields as the bytes in the certificate. A small DER walk is kept
 * (instead of the library's re-serialisation) because Go compares these bytes as written.
 */
function rawTbs(der: Uint8Array): RawTbs {
  const top = readTlv(der, 0);
  if (top.tag !== TAG.SEQUENCE) throw new DerError('not a SEQUENCE');
  const tbs = children(der, top)[0];
  if (!tbs || tbs.tag !== TAG.SEQUENCE) throw new DerError('no TBSCertificate');
  const f = children(der, tbs);
  let i = 0;
  if (f[0]?.tag === TAG.CTX0) i = 1;
  const at = (t: Tlv | undefined, what: string) => {
    if (!t) throw new DerError(`missing ${what}`);
    return der.subarray(t.offset, t.next);
  };
  const serialTlv = f[i];
  if (!serialTlv || serialTlv.tag !== TAG.INTEGER) throw new DerError('missing serial number');
  const validity = f[i + 3];
  if (!validity || validity.tag !== TAG.SEQUENCE) throw new DerError('missing validity');
  const times = children(der, validity);
  const extensionOids: string[] = [];
  for (const t of f.slice(i + 6)) {
    if (t.tag !== 0xa3) continue;
    const seq = readTlv(der, t.start, t.end);
    for (const ext of children(der, seq)) {
      const oid = children(der, ext)[0];
      if (oid) extensionOids.push(readOid(der, oid));
    }
  }
  return {
    serial: der.subarray(serialTlv.start, serialTlv.end),
    issuer: at(f[i + 2], 'issuer'),
    subject: at(f[i + 4], 'subject'),
    spki: at(f[i + 5], 'subject public key info'),
    timeTags: [times[0]?.tag ?? 0, times[1]?.tag ?? 0],
    extensionOids,
  };
}

function encodingOf(tag: number): 'UTCTime' | 'GeneralizedTime' {
  return tag === 0x18 ? 'GeneralizedTime' : 'UTCTime';
}

function rfc5280Encoding(d: Date, enc: 'UTCTime' | 'GeneralizedTime'): boolean {
  return d.getUTCFullYear() >= 2050 === (enc === 'GeneralizedTime');
}

/** Parses one DER certificate. Throws CertParseError for anything that is not one. */
export function parseCertificateDer(input: Uint8Array): Certificate {
  const der = input.slice();
  let raw: RawTbs;
  let cert: asnX509.Certificate;
  try {
    raw = rawTbs(der);
    cert = asn1.AsnConvert.parse(der, asnX509.Certificate);
  } catch (e) {
    throw new CertParseError(`malformed certificate: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return build(der, raw, cert);
  } catch (e) {
    if (e instanceof CertParseError) throw e;
    throw new CertParseError(`malformed certificate: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function build(der: Uint8Array, raw: RawTbs, cert: asnX509.Certificate): Certificate {
  const tbs = cert.tbsCertificate;
  const tbsDer = cert.tbsCertificateRaw ? new Uint8Array(cert.tbsCertificateRaw) : der.subarray(0, 0);
  // The library parsed the names with the certificate already (the same bytes as raw.subject/issuer).
  const subjectName = fromAsnName(tbs.subject);
  const issuerName = fromAsnName(tbs.issuer);
  const serial = serialForms(raw.serial);
  const notBefore = tbs.validity.notBefore.getTime();
  const notAfter = tbs.validity.notAfter.getTime();
  const nbEnc = encodingOf(raw.timeTags[0]);
  const naEnc = encodingOf(raw.timeTags[1]);
  const sigOid = cert.signatureAlgorithm.algorithm;
  const version = (tbs.version ?? 0) + 1;

  const facts: CertificateFacts = {
    subject: opensslName(subjectName),
    subjectRFC2253: rfc2253Name(subjectName),
    subjectGo: goNameString(subjectName),
    issuer: opensslName(issuerName),
    issuerRFC2253: rfc2253Name(issuerName),
    issuerGo: goNameString(issuerName),
    subjectEmpty: subjectName.length === 0,
    subjectCommonName: commonName(subjectName) ?? null,
    selfIssued: raw.subject.length === raw.issuer.length && raw.subject.every((b, i) => b === raw.issuer[i]),
    version,
    serialHex: serial.hex,
    serialNegative: serial.negative,
    serialDerOctets: raw.serial.length,
    serialIstioctl: serial.istioctl,
    serialDecimal: serial.value.toString(10),
    notBefore: iso(notBefore),
    notAfter: iso(notAfter),
    notBeforeEncoding: nbEnc,
    notAfterEncoding: naEnc,
    timeEncodingRfc5280: rfc5280Encoding(notBefore, nbEnc) && rfc5280Encoding(notAfter, naEnc),
    validitySeconds: Math.round((notAfter.getTime() - notBefore.getTime()) / 1000),
    signatureAlgorithm: SIGNATURE_ALGORITHMS[sigOid]?.name ?? sigOid,
    signatureAlgorithmOid: sigOid,
    publicKey: publicKeyFacts(raw.spki),
    sha256Fingerprint: '',
    sha256FingerprintHex: '',
    sha1Fingerprint: '',
    basicConstraints: { present: false, critical: false, ca: false, pathLen: null },
    isCA: false,
    pathLen: null,
    keyUsage: { present: false, critical: false, usages: [] },
    extKeyUsage: { present: false, critical: false, usages: [] },
    subjectAltName: { present: false, critical: false, dns: [], uri: [], ip: [], email: [], other: [] },
    spiffe: [],
    subjectKeyIdentifier: null,
    authorityKeyIdentifier: null,
    nameConstraints: { present: false, critical: false, text: [] },
    extensions: [],
    extensionsPresent: [],
    goParseExpectation: 'ok',
    goParseError: null,
    unhandledCriticalExtensions: [],
    selfSigned: false,
  };

  let sanDer: Uint8Array | null = null;
  const ekuOids: string[] = [];
  // Why Go refuses the certificate, in the order parseCertificate meets it (the serial, the key,
  // a repeated extension while the extensions are read, then each extension's contents in
  // processExtensions): our reason for the lint, and Go's error (it returns the first).
  const goProblems: Array<{ reason: string; error: string }> = [];
  if (serial.negative) goProblems.push({ reason: 'negative serial; Go >= 1.23 default x509negativeserial=0', error: 'x509: negative serial number' });
  const keyProblem = goPublicKeyProblem(raw.spki);
  if (keyProblem) goProblems.push({ reason: keyProblem, error: `x509: ${keyProblem}` });
  const repeated = raw.extensionOids.find((oid, i) => raw.extensionOids.indexOf(oid) < i);
  if (repeated !== undefined)
    goProblems.push({ reason: 'duplicate extension', error: `x509: certificate contains duplicate extension with OID ${goQuote(repeated)}` });

  for (const ext of tbs.extensions ?? []) {
    const oid = ext.extnID;
    const critical = !!ext.critical;
    const value = new Uint8Array(ext.extnValue.buffer);
    const name = EXTENSION_NAMES[oid] ?? oid;
    const e: ExtensionFacts = { oid, name, critical };
    try {
      switch (oid) {
        case OID.basicConstraints: {
          const bc = asn1.AsnConvert.parse(value, asnX509.BasicConstraints);
          const pathLen = bc.pathLenConstraint ?? null;
          facts.basicConstraints = { present: true, critical, ca: !!bc.cA, pathLen };
          e.text = `CA:${bc.cA ? 'TRUE' : 'FALSE'}${pathLen !== null ? `, pathlen:${pathLen}` : ''}`;
          break;
        }
        case OID.keyUsage: {
          const ku = asn1.AsnConvert.parse(value, asnX509.KeyUsage);
          const bits = new Uint8Array(ku.value);
          const usages = KEY_USAGE_BITS.filter((_, i) => bitIsSet(bits, i));
          facts.keyUsage = { present: true, critical, usages: [...usages] };
          e.text = usages.join(', ');
          break;
        }
        case OID.extKeyUsage: {
          const eku = asn1.AsnConvert.parse(value, asnX509.ExtendedKeyUsage);
          const oids = [...eku].map(String);
          ekuOids.push(...oids);
          facts.extKeyUsage = { present: true, critical, usages: oids.map((o) => EXT_KEY_USAGES[o] ?? o) };
          e.text = facts.extKeyUsage.usages.join(', ');
          break;
        }
        case OID.subjectAltName: {
          sanDer = value;
          const san = sanGeneralNames(value);
          const out: SanFacts = { present: true, critical, dns: [], uri: [], ip: [], email: [], other: [] };
          for (const g of san) {
            const { kind, text } = generalNameText(g);
            out[kind].push(text);
          }
          facts.subjectAltName = out;
          e.text = san.map(generalNameLine).join(', ');
          break;
        }
        case OID.subjectKeyIdentifier: {
          const ski = asn1.AsnConvert.parse(value, asnX509.SubjectKeyIdentifier);
          facts.subjectKeyIdentifier = colonHex(new Uint8Array(ski.buffer));
          e.text = facts.subjectKeyIdentifier;
          break;
        }
        case OID.authorityKeyIdentifier: {
          const aki = asn1.AsnConvert.parse(value, asnX509.AuthorityKeyIdentifier);
          facts.authorityKeyIdentifier = aki.keyIdentifier ? colonHex(new Uint8Array(aki.keyIdentifier.buffer)) : null;
          e.text = facts.authorityKeyIdentifier ?? '(no key identifier)';
          break;
        }
        case OID.nameConstraints: {
          const nc = asn1.AsnConvert.parse(value, asnX509.NameConstraints);
          const text: string[] = [];
          for (const s of nc.permittedSubtrees ?? []) text.push(`Permitted: ${generalNameLine(s.base)}`);
          for (const s of nc.excludedSubtrees ?? []) text.push(`Excluded: ${generalNameLine(s.base)}`);
          facts.nameConstraints = { present: true, critical, text };
          e.text = text.join('; ');
          break;
        }
        case OID.certificatePolicies: {
          const cp = asn1.AsnConvert.parse(value, asnX509.CertificatePolicies);
          e.text = [...cp].map((p) => `Policy: ${p.policyIdentifier}`).join(', ');
          break;
        }
        case OID.crlDistributionPoints: {
          const dp = asn1.AsnConvert.parse(value, asnX509.CRLDistributionPoints);
          e.text = [...dp].flatMap((p) => (p.distributionPoint?.fullName ?? []).map(generalNameLine)).join(', ');
          break;
        }
        case OID.authorityInfoAccess: {
          const aia = asn1.AsnConvert.parse(value, asnX509.AuthorityInfoAccessSyntax);
          e.text = [...aia]
            .map(
              (a) =>
                `${a.accessMethod === '1.3.6.1.5.5.7.48.1' ? 'OCSP' : a.accessMethod === '1.3.6.1.5.5.7.48.2' ? 'CA Issuers' : a.accessMethod} - ${generalNameLine(a.accessLocation)}`,
            )
            .join(', ');
          break;
        }
        default:
          e.text = `${value.length} bytes: ${hex(value.subarray(0, 32))}${value.length > 32 ? '…' : ''}`;
      }
    } catch {
      e.text = 'could not be decoded';
      // Only the extensions decoded above can throw, and each has Go's error.
      goProblems.push({ reason: `malformed ${name}`, error: GO_EXTENSION_ERRORS[oid] as string });
    }
    if (critical && !GO_HANDLED_EXTENSIONS.has(oid)) facts.unhandledCriticalExtensions.push(oid);
    facts.extensions.push(e);
    facts.extensionsPresent.push(`${name}${critical ? ' (critical)' : ''}`);
  }
  facts.isCA = facts.basicConstraints.present && facts.basicConstraints.ca;
  facts.pathLen = facts.basicConstraints.present ? facts.basicConstraints.pathLen : null;
  facts.spiffe = facts.subjectAltName.uri.filter((u) => u.startsWith('spiffe://')).map(parseSpiffeUri);
  if (goProblems.length > 0) facts.goParseExpectation = `rejected (${goProblems.map((p) => p.reason).join('; ')})`;
  facts.goParseError = goProblems[0]?.error ?? null;

  return {
    der,
    tbs: tbsDer,
    subjectDer: raw.subject,
    issuerDer: raw.issuer,
    spkiDer: raw.spki,
    sanDer,
    subjectName,
    issuerName,
    notBefore,
    notAfter,
    serial: serial.value,
    ekuOids,
    facts,
  };
}

/** Whether Go's x509.ParseCertificate accepts the certificate. */
export function goParses(c: Certificate): boolean {
  return c.facts.goParseExpectation === 'ok';
}

/** The error Go's x509.ParseCertificate gives a certificate it refuses (`x509: <why>`), undefined when it takes it. */
export function goParseError(c: Certificate): string | undefined {
  return c.facts.goParseError ?? undefined;
}

/**
 * Parses every certificate in a DER byte string (Go's x509.ParseCertificates): zero bytes
 * give an empty list; an element that is not a certificate is an error.
 */
export function parseCertificatesDer(der: Uint8Array): Certificate[] {
  const out: Certificate[] = [];
  let pos = 0;
  while (pos < der.length) {
    let t: Tlv;
    try {
      t = readTlv(der, pos);
    } catch (e) {
      throw new CertParseError(`malformed certificate: ${(e as Error).message}`);
    }
    out.push(parseCertificateDer(der.subarray(pos, t.next)));
    pos = t.next;
  }
  return out;
}

export function isoTime(d: Date): string {
  return iso(d);
}
