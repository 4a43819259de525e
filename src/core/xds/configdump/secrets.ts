// `istioctl proxy-config secret` (configdump.go PrintSecretSummary, with the secret items of
// istioctl/pkg/writer/compare/sds). The VALID CERT column depends on the clock, which is a
// parameter here so that tests and goldens can pin it.
import { decodeBase64Std } from '../../pki/base64.ts';
import { decodePem } from '../../pki/pem.ts';
import { certFacts, uriSchemeHost } from './certInfo.ts';
import { type ConfigDump, ConfigDumpError, SECTION, asObject, field, list, objAt, str, typeUrlOf, type JsonObject, type JsonValue } from './dump.ts';
import { tabwriteRows } from './tabwriter.ts';
import type { SummaryOptions, Table } from './table.ts';

const SECRET_TYPE = 'envoy.extensions.transport_sockets.tls.v3.Secret';
const SPIFFE_VALIDATOR = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.SPIFFECertValidatorConfig';

export interface SecretItem {
  name: string;
  /** WARMING or ACTIVE. */
  state: string;
  /** Trust domain given by a SPIFFE bundle (the item's own). */
  trustDomain: string;
  valid: boolean;
  /** From the certificate (empty when there is none or it does not parse): */
  type: string;
  serialNumber: string;
  notAfter: string;
  notBefore: string;
  /** The bundle's trust domain, else the host of the certificate's spiffe:// URI SAN. */
  certTrustDomain: string;
  /** The PEM text the facts come from ('' when none). */
  data: string;
  /** The dump entry (dynamic active or warming secret). */
  secret: JsonObject;
}

/** Go's time.Format(time.RFC3339) of a UTC time. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

/** A bytes field of proto JSON (base64) as the latin-1 string of its bytes, '' when absent or not base64. */
function bytesField(o: unknown, protoName: string): string {
  const v = field(o, protoName);
  if (typeof v !== 'string' || v === '') return '';
  // protojson accepts standard or URL-safe base64, padded or not.
  let b64 = v.replace(/-/g, '+').replace(/_/g, '/');
  if (b64.length % 4 !== 0) b64 += '='.repeat(4 - (b64.length % 4));
  const bytes = decodeBase64Std(b64);
  return bytes ? latin1(bytes) : '';
}

function buildItem(secret: JsonObject, name: string, state: string, data: string, trustDomain: string, now: Date): SecretItem {
  const item: SecretItem = {
    name,
    state,
    trustDomain,
    valid: false,
    type: '',
    serialNumber: '',
    notAfter: '',
    notBefore: '',
    certTrustDomain: '',
    data,
    secret,
  };
  if (data === '') return item;
  const { block } = decodePem(latin1ToBytes(data));
  if (!block) return item;
  let facts;
  try {
    facts = certFacts(block.bytes);
  } catch {
    return item;
  }
  let td = trustDomain;
  if (td === '') {
    for (const uri of facts.uris) {
      const u = uriSchemeHost(uri);
      if (u?.scheme === 'spiffe') td = u.host;
    }
  }
  const t = now.getTime();
  return {
    ...item,
    type: facts.isCA ? 'CA' : 'Cert Chain',
    serialNumber: facts.serial.toString(16).padStart(32, '0'),
    notAfter: rfc3339(facts.notAfter),
    notBefore: rfc3339(facts.notBefore),
    valid: t > facts.notBefore.getTime() && t < facts.notAfter.getTime(),
    certTrustDomain: td,
  };
}

function latin1ToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

function parseDynamicSecret(entry: JsonObject, state: string, now: Date): SecretItem[] {
  const any = asObject(field(entry, 'secret'));
  const name = str(entry, 'name');
  if (!any || typeUrlOf(any).split('/').pop() !== SECRET_TYPE) {
    // Any.UnmarshalTo's error; istioctl says "warming" for active secrets too.
    throw new ConfigDumpError(`failed building warming secret ${name}: mismatched message type`);
  }
  const chain = bytesField(objAt(any, 'tls_certificate', 'certificate_chain'), 'inline_bytes');
  const ca = bytesField(objAt(any, 'validation_context', 'trusted_ca'), 'inline_bytes');
  if (chain.length > 0) return [buildItem(entry, name, state, chain, '', now)];
  if (ca.length > 0) return [buildItem(entry, name, state, ca, '', now)];
  const validator = asObject(field(objAt(any, 'validation_context', 'custom_validator_config'), 'typed_config'));
  if (validator && typeUrlOf(validator) === SPIFFE_VALIDATOR) {
    const secretName = str(any, 'name');
    return list(validator, 'trust_domains').map((td: JsonValue) =>
      buildItem(entry, secretName, state, bytesField(objAt(td, 'trust_bundle'), 'inline_bytes'), str(td, 'name'), now),
    );
  }
  return [buildItem(entry, name, state, '', '', now)];
}

/** GetEnvoySecrets: warming secrets, then active ones. */
export function secretItems(dump: ConfigDump, now: Date): SecretItem[] {
  const section = dump.section(SECTION.secrets);
  const items: SecretItem[] = [];
  for (const s of list(section, 'dynamic_warming_secrets')) items.push(...parseDynamicSecret(asObject(s) ?? {}, 'WARMING', now));
  for (const s of list(section, 'dynamic_active_secrets')) items.push(...parseDynamicSecret(asObject(s) ?? {}, 'ACTIVE', now));
  return items;
}

export interface SecretSummary {
  /** A one-line message instead of a table (`No active or warming secrets found.`, `No secret items to show.`). */
  message?: string;
  table?: Table<SecretItem>;
}

export interface SecretOptions extends SummaryOptions {
  /** The clock for VALID CERT (istioctl uses time.Now()). */
  now: Date;
}

/** The secrets summary (PrintSecretSummary). */
export function secretSummary(dump: ConfigDump, opts: SecretOptions): SecretSummary {
  const section = dump.section(SECTION.secrets);
  if (list(section, 'dynamic_active_secrets').length === 0 && list(section, 'dynamic_warming_secrets').length === 0) {
    return { message: 'No active or warming secrets found.' };
  }
  const items = secretItems(dump, opts.now);
  if (items.length === 0) return { message: 'No secret items to show.' };
  const withTrustDomain = items.every((s) => s.certTrustDomain !== '');
  const columns = ['RESOURCE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'];
  if (withTrustDomain) columns.push('TRUST DOMAIN');
  const cells = items.map((s) => {
    const name = opts.includeConfigType ? `secret/${s.name}` : s.name;
    const c = [name, s.type, s.state, String(s.valid), s.serialNumber, s.notAfter, s.notBefore];
    if (withTrustDomain) c.push(s.certTrustDomain);
    return c;
  });
  return { table: { columns, rows: items, cells, padding: 5 } };
}

export function secretSummaryText(summary: SecretSummary): string {
  if (summary.message !== undefined) return `${summary.message}\n`;
  const t = summary.table!;
  return tabwriteRows([t.columns, ...t.cells], { padding: t.padding });
}
