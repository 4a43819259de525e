// The few facts istioctl's secret table takes from a certificate (Go's x509.ParseCertificate):
// serial number, validity, whether it is a CA, and its spiffe:// URI SANs. A small DER walk
// over the TBSCertificate, strict where Go is (a malformed certificate is an error).
import { DerError, TAG, children, expectTag, readOid, readTlv, type Tlv } from '../../pki/der.ts';

export interface CertFacts {
  serial: bigint;
  notBefore: Date;
  notAfter: Date;
  isCA: boolean;
  uris: string[];
}

const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;
const BOOLEAN = 0x01;
const CTX3 = 0xa3;
const URI_TAG = 0x86;
const OID_BASIC_CONSTRAINTS = '2.5.29.19';
const OID_SAN = '2.5.29.17';

function readTime(bytes: Uint8Array, t: Tlv): Date {
  const s = String.fromCharCode(...bytes.subarray(t.start, t.end));
  let m: RegExpExecArray | null;
  let year: number;
  let rest: string;
  if (t.tag === UTC_TIME) {
    m = /^(\d{2})(\d{10})Z$/.exec(s);
    if (!m) throw new DerError('malformed UTCTime');
    const yy = Number(m[1]);
    year = yy < 50 ? 2000 + yy : 1900 + yy;
    rest = m[2]!;
  } else if (t.tag === GENERALIZED_TIME) {
    m = /^(\d{4})(\d{10})Z$/.exec(s);
    if (!m) throw new DerError('malformed GeneralizedTime');
    year = Number(m[1]);
    rest = m[2]!;
  } else {
    throw new DerError('expected a time');
  }
  const [mo, d, h, mi, se] = [0, 2, 4, 6, 8].map((i) => Number(rest.slice(i, i + 2))) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, mo - 1, d, h, mi, se));
  date.setUTCFullYear(year);
  if (mo < 1 || mo > 12 || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) throw new DerError('invalid time');
  return date;
}

function readInteger(bytes: Uint8Array, t: Tlv): bigint {
  if (t.tag !== TAG.INTEGER || t.end === t.start) throw new DerError('expected INTEGER');
  if (t.end - t.start > 1 && ((bytes[t.start] === 0 && !(bytes[t.start + 1]! & 0x80)) || (bytes[t.start] === 0xff && bytes[t.start + 1]! & 0x80))) {
    throw new DerError('non-minimal INTEGER');
  }
  let v = 0n;
  for (let i = t.start; i < t.end; i++) v = (v << 8n) | BigInt(bytes[i]!);
  if (bytes[t.start]! & 0x80) v -= 1n << BigInt(8 * (t.end - t.start));
  return v;
}

function parseBasicConstraints(bytes: Uint8Array, value: Tlv): boolean {
  const seq = expectTag(readTlv(bytes, value.start, value.end), TAG.SEQUENCE, 'basic constraints');
  const parts = children(bytes, seq);
  const first = parts[0];
  if (first && first.tag === BOOLEAN) {
    if (first.end - first.start !== 1) throw new DerError('invalid BOOLEAN');
    return bytes[first.start] === 0xff;
  }
  return false;
}

function parseSanUris(bytes: Uint8Array, value: Tlv): string[] {
  const seq = expectTag(readTlv(bytes, value.start, value.end), TAG.SEQUENCE, 'subject alternative names');
  const uris: string[] = [];
  for (const name of children(bytes, seq)) {
    if (name.tag !== URI_TAG) continue;
    const s = String.fromCharCode(...bytes.subarray(name.start, name.end));
    if (/[^\x20-\x7e]/.test(s)) throw new DerError('SAN uniformResourceIdentifier is malformed');
    uris.push(s);
  }
  return uris;
}

/** Parses one DER certificate; throws DerError where Go's parser would fail. */
export function certFacts(der: Uint8Array): CertFacts {
  const cert = expectTag(readTlv(der, 0), TAG.SEQUENCE, 'certificate');
  const certParts = children(der, cert);
  if (certParts.length !== 3) throw new DerError('malformed certificate');
  const tbs = expectTag(certParts[0], TAG.SEQUENCE, 'tbs certificate');
  expectTag(certParts[1], TAG.SEQUENCE, 'signature algorithm');
  if (certParts[2]!.tag !== TAG.BIT_STRING) throw new DerError('malformed signature');
  const f = children(der, tbs);
  let i = 0;
  let version = 0;
  if (f[i]?.tag === TAG.CTX0) {
    const v = readTlv(der, f[i]!.start, f[i]!.end);
    version = Number(readInteger(der, v));
    i++;
  }
  if (version < 0 || version > 2) throw new DerError('invalid version');
  const serial = readInteger(der, f[i++]!);
  if (serial < 0n) throw new DerError('negative serial number');
  expectTag(f[i++], TAG.SEQUENCE, 'signature algorithm');
  expectTag(f[i++], TAG.SEQUENCE, 'issuer');
  const validity = expectTag(f[i++], TAG.SEQUENCE, 'validity');
  const times = children(der, validity);
  if (times.length !== 2) throw new DerError('malformed validity');
  const notBefore = readTime(der, times[0]!);
  const notAfter = readTime(der, times[1]!);
  expectTag(f[i++], TAG.SEQUENCE, 'subject');
  expectTag(f[i++], TAG.SEQUENCE, 'public key info');
  let isCA = false;
  let uris: string[] = [];
  for (; i < f.length; i++) {
    const t = f[i]!;
    if (t.tag !== CTX3) continue;
    const exts = expectTag(readTlv(der, t.start, t.end), TAG.SEQUENCE, 'extensions');
    const seen = new Set<string>();
    for (const ext of children(der, exts)) {
      const parts = children(der, expectTag(ext, TAG.SEQUENCE, 'extension'));
      const oid = readOid(der, expectTag(parts[0], TAG.OID, 'extension id'));
      if (seen.has(oid)) throw new DerError(`certificate contains duplicate extension with OID "${oid}"`);
      seen.add(oid);
      const value = parts[parts.length - 1];
      if (!value || value.tag !== TAG.OCTET_STRING) throw new DerError('malformed extension value');
      if (oid === OID_BASIC_CONSTRAINTS) isCA = parseBasicConstraints(der, value);
      else if (oid === OID_SAN) uris = parseSanUris(der, value);
    }
  }
  return { serial, notBefore, notAfter, isCA, uris };
}

/** The scheme and host of a URI as Go's url.Parse gives them (enough for `spiffe://td/...`). */
export function uriSchemeHost(uri: string): { scheme: string; host: string } | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/.exec(uri);
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  const rest = m[2]!;
  if (!rest.startsWith('//')) return { scheme, host: '' };
  const auth = rest.slice(2).split(/[/?#]/, 1)[0]!;
  const at = auth.lastIndexOf('@');
  return { scheme, host: at >= 0 ? auth.slice(at + 1) : auth };
}
