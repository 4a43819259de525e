// `istioctl proxy-config ecds` (ecds.go) and the bootstrap summary (configdump.go
// PrintBootstrapSummary, the first part of `proxy-config all`).
import { type ConfigDump, ConfigDumpError, SECTION, asObject, field, list, objAt, str, typeUrlOf, type JsonObject, type JsonValue } from './dump.ts';
import { goSortSlice } from './goSort.ts';
import { goLess, type Table } from './table.ts';
import { tabwriteRows } from './tabwriter.ts';

const TYPE_URL_PREFIX = 'type.googleapis.com/';
const TYPED_EXTENSION_CONFIG = 'envoy.config.core.v3.TypedExtensionConfig';

export interface EcdsRow {
  name: string;
  /** typed_config's type URL without `type.googleapis.com/` ('' when there is none). */
  type: string;
  /** The TypedExtensionConfig. */
  config: JsonObject;
  /** Its EcdsFilterConfig entry (version, last update). */
  filter: JsonObject;
}

/** The ECDS filters of every EcdsConfigDump section, concatenated (GetEcdsConfigDump). */
export function ecdsFilters(dump: ConfigDump): JsonObject[] {
  const sections = dump.sections(SECTION.ecds);
  if (sections.length === 0) throw new ConfigDumpError(`config dump has no configuration type ${SECTION.ecds}`);
  return sections.flatMap((s) => list(s, 'ecds_filters').map((f) => asObject(f) ?? {}));
}

/** The ECDS summary table (PrintEcdsSummary). */
export function ecdsTable(dump: ConfigDump): Table<EcdsRow> {
  const rows: EcdsRow[] = [];
  for (const f of ecdsFilters(dump)) {
    const config = asObject(field(f, 'ecds_filter'));
    if (!config || typeUrlOf(config).split('/').pop() !== TYPED_EXTENSION_CONFIG) {
      throw new ConfigDumpError('failed to retrieve TypedExtensionConfig: mismatched message type');
    }
    const url = typeUrlOf(field(config, 'typed_config'));
    rows.push({ name: str(config, 'name'), type: url.startsWith(TYPE_URL_PREFIX) ? url.slice(TYPE_URL_PREFIX.length) : url, config, filter: f });
  }
  const urls = new Map(rows.map((r) => [r, typeUrlOf(field(r.config, 'typed_config'))]));
  goSortSlice(rows, (a, b) => {
    const x = urls.get(a)!;
    const y = urls.get(b)!;
    return x === y ? goLess(a.name, b.name) : goLess(x, y);
  });
  return { columns: ['ECDS NAME', 'TYPE'], rows, cells: rows.map((r) => [r.name, r.type]), padding: 5 };
}

// ---- bootstrap --------------------------------------------------------------------------------

export interface VersionSummary {
  istioVersion: string;
  istioProxySha: string;
  envoyVersion: string;
}

function structString(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function hasKey(o: JsonObject | undefined, k: string): o is JsonObject {
  return !!o && Object.hasOwn(o, k);
}

/** The Istio and Envoy versions of the bootstrap section (getIstioVersionInfo, getUserAgentVersionInfo). */
export function versionSummary(dump: ConfigDump): VersionSummary {
  const bootstrap = dump.section(SECTION.bootstrap);
  const node = objAt(bootstrap, 'bootstrap', 'node');
  const md = asObject(field(node, 'metadata'));
  const istioVersion = hasKey(md, 'ISTIO_VERSION') ? structString(md.ISTIO_VERSION) : '';
  let istioProxySha = hasKey(md, 'ISTIO_PROXY_SHA') ? structString(md.ISTIO_PROXY_SHA) : '';
  const parts = istioProxySha.split(':');
  if (parts.length > 1) istioProxySha = parts[1]!;
  const build = asObject(field(node, 'user_agent_build_version'));
  const version = asObject(field(build, 'version'));
  const n = (k: string) => {
    const v = field(version, k);
    return typeof v === 'number' ? Math.trunc(v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
  };
  let envoyVersion = `${n('major_number')}.${n('minor_number')}.${n('patch')}`;
  const bmd = asObject(field(build, 'metadata'));
  if (hasKey(bmd, 'build.label')) envoyVersion += `-${structString(bmd['build.label'])}`;
  if (hasKey(bmd, 'revision.status')) envoyVersion += `/${structString(bmd['revision.status'])}`;
  if (hasKey(bmd, 'build.type')) envoyVersion += `/${structString(bmd['build.type'])}`;
  if (hasKey(bmd, 'ssl.version')) envoyVersion += `/${structString(bmd['ssl.version'])}`;
  return { istioVersion, istioProxySha, envoyVersion };
}

/** PrintBootstrapSummary's text (tabwriter padding 1). */
export function versionSummaryText(v: VersionSummary): string {
  const rows: string[][] = [];
  if (v.istioVersion.length > 0) rows.push(['Istio Version:', v.istioVersion]);
  if (v.istioProxySha.length > 0) rows.push(['Istio Proxy Version:', v.istioProxySha]);
  if (v.envoyVersion.length > 0) rows.push(['Envoy Version:', v.envoyVersion]);
  return tabwriteRows(rows, { padding: 1 });
}
