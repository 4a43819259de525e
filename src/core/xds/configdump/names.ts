// Istio's cluster-name parsing (model.ParseSubsetKey) and the config path in Istio's
// `istio` filter metadata (describeManagement), shared by the cluster, route and endpoint tables.
import { asObject, field } from './dump.ts';
import { goAtoi, goLess } from './table.ts';

export interface SubsetKey {
  direction: string;
  subset: string;
  hostname: string;
  /** strconv.Atoi of the port part (0 when it is not a number). */
  port: bigint;
}

/** model.ParseSubsetKey: `dir|port|subset|host`, or the DNS SRV form `outbound_.port_.subset_.host`. */
export function parseSubsetKey(s: string): SubsetKey {
  const sep = s.startsWith('outbound_') || s.startsWith('inbound_') ? '_.' : '|';
  const out: SubsetKey = { direction: '', subset: '', hostname: '', port: 0n };
  const cut = (x: string): [string, string] | undefined => {
    const i = x.indexOf(sep);
    return i < 0 ? undefined : [x.slice(0, i), x.slice(i + sep.length)];
  };
  let c = cut(s);
  if (!c) return out;
  out.direction = c[0];
  c = cut(c[1]);
  if (!c) return out;
  out.port = goAtoi(c[0]) ?? 0n;
  c = cut(c[1]);
  if (!c) return out;
  out.subset = c[0];
  if (c[1].includes(sep)) return out;
  out.hostname = c[1];
  return out;
}

/** istioctl's safelyParseSubsetKey: names with fewer than 3 `|` sort as hostname = name, port 0. */
export function safelyParseSubsetKey(key: string): SubsetKey {
  if (key.split('|').length > 3) return parseSubsetKey(key);
  return { direction: '', subset: '', hostname: key, port: 0n };
}

/** The comparator istioctl sorts clusters and endpoints with: hostname, subset, port, direction. */
export function subsetKeyLess(a: SubsetKey, b: SubsetKey): boolean {
  if (a.hostname === b.hostname) {
    if (a.subset === b.subset) {
      if (a.port === b.port) return goLess(a.direction, b.direction);
      return a.port < b.port;
    }
    return goLess(a.subset, b.subset);
  }
  return goLess(a.hostname, b.hostname);
}

/** renderConfig: `/apis/networking.istio.io/v1/namespaces/<ns>/<kind>/<name>` → `<name>.<ns>`. */
export function renderConfigPath(configPath: string): string {
  if (configPath.startsWith('/apis/networking.istio.io/')) {
    const pieces = configPath.split('/');
    if (pieces.length !== 8) return '';
    return `${pieces[7]}.${pieces[5]}`;
  }
  return '<unknown>';
}

/** describeManagement: the config that made a resource, from `metadata.filter_metadata.istio.config`. */
export function describeManagement(metadata: unknown): string {
  const md = asObject(metadata);
  if (!md) return '';
  const fm = asObject(field(md, 'filter_metadata'));
  if (!fm || !Object.hasOwn(fm, 'istio')) return '';
  const istio = asObject(fm.istio);
  if (!istio || !Object.hasOwn(istio, 'config')) return '';
  const v = istio.config;
  // GetStringValue of a non-string Value is ''.
  return renderConfigPath(typeof v === 'string' ? v : '');
}
