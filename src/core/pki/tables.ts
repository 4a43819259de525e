// istioctl's tables for pasted dumps, byte for byte: `proxy-config secret` (from an Envoy
// config dump or its own `-o json`) and `ztunnel-config certificates`. The rows follow
// istioctl's code (istioctl/pkg/writer/compare/sds, …/ztunnel/configdump/certificates.go),
// including what it gets wrong (an uninitialised active secret still says ACTIVE).
import type { EnvoyDump, Value, ZtunnelDump } from './input.ts';
import type { PkiContext } from './istio.ts';
import { goParseRFC3339Error } from '../go/time.ts';
import { decodePem } from './pem.ts';
import type { IstioctlTable } from './report.ts';
import { spiffeHost } from './spiffe.ts';

/** Go's text/tabwriter with padding `pad` and no flags: every cell but the last of a line is padded to its column. */
export function tabwrite(rows: string[][], pad: number): string {
  const widths: number[] = [];
  for (const r of rows) r.slice(0, -1).forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c + ' '.repeat(widths[i]! + pad - [...c].length) : c)).join('') + '\n').join('');
}

interface Meta {
  type: string;
  valid: boolean;
  serial: string;
  notAfter: string;
  notBefore: string;
  trustDomain: string;
}

/** secretMetaFromCert: the first PEM block of the bytes, parsed by Go. */
function meta(ctx: PkiContext, v: Value | undefined, trustDomain: string, now: Date): Meta | undefined {
  if (!v || v.bytes.length === 0) return undefined;
  const { block } = decodePem(v.bytes);
  if (!block) return undefined;
  const { cert } = ctx.goParse(block.bytes);
  if (!cert) return undefined;
  let td = trustDomain;
  // `uri.Scheme == "spiffe"` then `uri.Host`: url.Parse lowercases the scheme, and an opaque
  // `spiffe:…` URI has an empty host.
  if (td === '') for (const u of cert.facts.subjectAltName.uri) if (/^spiffe:/i.test(u)) td = /^spiffe:\/\//i.test(u) ? spiffeHost(u) : '';
  const t = now.getTime();
  return {
    type: cert.facts.isCA ? 'CA' : 'Cert Chain',
    valid: t > cert.notBefore.getTime() && t < cert.notAfter.getTime(),
    serial: cert.facts.serialIstioctl ?? '',
    notAfter: cert.facts.notAfter,
    notBefore: cert.facts.notBefore,
    trustDomain: td,
  };
}

const SECRET_COLUMNS = ['RESOURCE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'];

export function istioctlSecretTables(dumps: readonly EnvoyDump[], ctx: PkiContext, now: Date): IstioctlTable[] {
  return dumps.map((d) => {
    const rows: Array<Record<string, string | boolean>> = [];
    const notes: string[] = [];
    const ordered = [...d.secrets.filter((s) => s.status === 'WARMING'), ...d.secrets.filter((s) => s.status === 'ACTIVE')];
    for (const s of ordered) {
      // Build(): without a parsed certificate SecretMeta stays empty, its TrustDomain too (the
      // validator's trust domain only goes to SecretItem.TrustDomain, which the table does not print).
      const row = (m: Meta | undefined) => ({
        'RESOURCE NAME': s.name,
        TYPE: m?.type ?? '',
        STATUS: s.status,
        'VALID CERT': m?.valid ?? false,
        'SERIAL NUMBER': m?.serial ?? '',
        'NOT AFTER': m?.notAfter ?? '',
        'NOT BEFORE': m?.notBefore ?? '',
        'TRUST DOMAIN': m?.trustDomain ?? '',
      });
      if (s.status === 'ACTIVE' && s.versionInfo === 'uninitialized')
        notes.push(`${s.name}: istioctl prints ACTIVE, but Envoy never initialised it (version_info "uninitialized")`);
      if (s.certificateChain && s.certificateChain.bytes.length > 0) rows.push(row(meta(ctx, s.certificateChain, '', now)));
      else if (s.trustedCa && s.trustedCa.bytes.length > 0) rows.push(row(meta(ctx, s.trustedCa, '', now)));
      else if (s.spiffe.length > 0) for (const b of s.spiffe) rows.push(row(meta(ctx, b.bundle, b.trustDomain, now)));
      else rows.push(row(undefined));
    }
    const withTd = rows.length > 0 && rows.every((r) => r['TRUST DOMAIN'] !== '');
    const columns = withTd ? [...SECRET_COLUMNS, 'TRUST DOMAIN'] : SECRET_COLUMNS;
    if (!withTd) for (const r of rows) delete r['TRUST DOMAIN'];
    const text = rows.length === 0 ? 'No active or warming secrets found.\n' : tabwrite([columns, ...rows.map((r) => columns.map((c) => String(r[c])))], 5);
    return { source: d.origin.input, columns, rows, text, notes };
  });
}

/**
 * certNotExpired: false unless both times pass time.Parse(time.RFC3339, …) (which also covers its
 * early return for two empty times), then strictly between them. Date.parse alone would take
 * dates without a time or zone, `t`/`z`, hour 24 or 30 February; Go's comma fraction it would not.
 */
function validZ(from: string, to: string, now: Date): boolean {
  if (goParseRFC3339Error(to, false) !== undefined || goParseRFC3339Error(from, false) !== undefined) return false;
  return now.getTime() > Date.parse(from.replace(',', '.')) && now.getTime() < Date.parse(to.replace(',', '.'));
}

const ZTUNNEL_COLUMNS = ['CERTIFICATE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'];

/**
 * `new(big.Int).SetString(dec, 10)` printed with `%x`: an optional sign and decimal digits only
 * (BigInt() would also take "", whitespace and 0x/0o/0b prefixes); otherwise the *big.Int is nil,
 * which big.Int's Format prints as `<nil>`.
 */
function hexOfDecimal(dec: string): string {
  return /^[+-]?[0-9]+$/.test(dec) ? BigInt(dec).toString(16) : '<nil>';
}

export function ztunnelTables(dumps: readonly ZtunnelDump[], now: Date): IstioctlTable[] {
  return dumps.map((z) => {
    const rows: Array<Record<string, string | boolean>> = [];
    const na = (s: string) => (s === '' ? 'NA' : s);
    for (const id of z.identities) {
      const state = id.state.includes('Unavailable') ? 'Unavailable' : id.state;
      if (id.certChain.length === 0) {
        rows.push({
          'CERTIFICATE NAME': id.identity,
          TYPE: 'NA',
          STATUS: state,
          'VALID CERT': false,
          'SERIAL NUMBER': 'NA',
          'NOT AFTER': 'NA',
          'NOT BEFORE': 'NA',
        });
        continue;
      }
      const legacy = id.rootCerts.length === 0;
      id.certChain.forEach((c, i) => {
        const type = i === 0 ? 'Leaf' : i === id.certChain.length - 1 && legacy ? 'Root' : 'Intermediate';
        rows.push({
          'CERTIFICATE NAME': id.identity,
          TYPE: type,
          STATUS: state,
          'VALID CERT': validZ(c.validFrom, c.expirationTime, now),
          'SERIAL NUMBER': hexOfDecimal(c.serialNumber),
          'NOT AFTER': na(c.expirationTime),
          'NOT BEFORE': na(c.validFrom),
        });
      });
      for (const c of id.rootCerts)
        rows.push({
          'CERTIFICATE NAME': id.identity,
          TYPE: 'Root',
          STATUS: state,
          'VALID CERT': validZ(c.validFrom, c.expirationTime, now),
          'SERIAL NUMBER': hexOfDecimal(c.serialNumber),
          'NOT AFTER': na(c.expirationTime),
          'NOT BEFORE': na(c.validFrom),
        });
    }
    const text = tabwrite([ZTUNNEL_COLUMNS, ...rows.map((r) => ZTUNNEL_COLUMNS.map((c) => String(r[c])))], 5);
    return { source: z.origin.input, columns: ZTUNNEL_COLUMNS, rows, text, notes: [] };
  });
}
