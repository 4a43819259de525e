// ValidateDestinationRule: host, traffic policies (load balancing, connection pools, outlier
// detection, client TLS, port-level settings, tunnels), subsets, exportTo and the selector.
import { goQuote } from '../../go/fmt.ts';
import { validateExportTo, validateFQDN, validateLabels, validatePort, validateWildcardDomain } from './names.ts';
import { validateIPAddress } from './addresses.ts';
import { at, b, enumv, get, has, idx, items, list, msg, msgEntries, n, s, strEntries, strs, wrappedNum, type Obj } from './read.ts';
import { one, V } from './result.ts';
import { durationOf, SPEC, validateClientTLS, validateDuration, validatePercent, validateSubsetName, workloadSelector, type Cfg } from './common.ts';

const H2_UPGRADE = ['DEFAULT', 'DO_NOT_UPGRADE', 'UPGRADE'] as const;
const TOPOLOGY_LABELS = new Set(['topology.kubernetes.io/region', 'topology.kubernetes.io/zone', 'topology.istio.io/subzone']);

function validateOutlierDetection(od: Obj | undefined, path: string): V {
  const v = new V();
  if (!od) return v;
  v.add(validateDuration(od, 'baseEjectionTime', at(path, od, 'baseEjectionTime')));
  if (n(od, 'consecutiveErrors') !== 0)
    v.warn(
      'outlier detection consecutive errors is deprecated, use consecutiveGatewayErrors or consecutive5xxErrors instead',
      at(path, od, 'consecutiveErrors'),
    );
  if (!b(od, 'splitExternalLocalOriginErrors') && (wrappedNum(od, 'consecutiveLocalOriginFailures') ?? 0) > 0) {
    v.err(
      'outlier detection consecutive local origin failures is specified, but split external local origin errors is set to false',
      at(path, od, 'consecutiveLocalOriginFailures'),
    );
  }
  v.add(validateDuration(od, 'interval', at(path, od, 'interval')));
  v.add(validatePercent(n(od, 'maxEjectionPercent'), at(path, od, 'maxEjectionPercent')));
  v.add(validatePercent(n(od, 'minHealthPercent'), at(path, od, 'minHealthPercent')));
  return v;
}

export function validateConnectionPool(cp: Obj | undefined, path: string): V {
  const v = new V();
  if (!cp) return v;
  const http = msg(cp, 'http');
  const tcp = msg(cp, 'tcp');
  if (!http && !tcp) return v.err('connection pool must have at least one field', path);
  if (http) {
    const hp = at(path, cp, 'http');
    if (n(http, 'http1MaxPendingRequests') < 0) v.err('http1 max pending requests must be non-negative', hp);
    if (n(http, 'http2MaxRequests') < 0) v.err('http2 max requests must be non-negative', hp);
    if (n(http, 'maxRequestsPerConnection') < 0) v.err('max requests per connection must be non-negative', hp);
    if (n(http, 'maxRetries') < 0) v.err('max retries must be non-negative', hp);
    v.addErrors(validateDuration(http, 'idleTimeout', at(hp, http, 'idleTimeout')));
    if (enumv(http, 'h2UpgradePolicy', H2_UPGRADE) === 'UPGRADE' && b(http, 'useClientProtocol'))
      v.err('use client protocol must not be true when H2UpgradePolicy is UPGRADE', hp);
    if (n(http, 'maxConcurrentStreams') < 0) v.err('max concurrent streams must be non-negative', hp);
    const ka = msg(http, 'http2KeepAlive');
    if (ka) {
      const kp = at(hp, http, 'http2KeepAlive');
      if (!has(ka, 'interval')) v.err('http2 keepalive interval is required', kp);
      else v.addErrors(validateDuration(ka, 'interval', at(kp, ka, 'interval')));
      if (!has(ka, 'timeout')) v.err('http2 keepalive timeout is required', kp);
      else v.addErrors(validateDuration(ka, 'timeout', at(kp, ka, 'timeout')));
    }
  }
  if (tcp) {
    const tp = at(path, cp, 'tcp');
    if (n(tcp, 'maxConnections') < 0) v.err('max connections must be non-negative', tp);
    v.addErrors(validateDuration(tcp, 'connectTimeout', at(tp, tcp, 'connectTimeout')));
    v.addErrors(validateDuration(tcp, 'maxConnectionDuration', at(tp, tcp, 'maxConnectionDuration')));
    const idle = durationOf(tcp, 'idleTimeout');
    // 0s disables the timeout; AsDuration().Milliseconds() truncates toward zero.
    if (idle !== undefined && idle / 1_000_000n !== 0n) v.addErrors(validateDuration(tcp, 'idleTimeout', at(tp, tcp, 'idleTimeout')));
    const ka = msg(tcp, 'tcpKeepalive');
    if (ka) {
      v.addErrors(validateDuration(ka, 'time', at(at(tp, tcp, 'tcpKeepalive'), ka, 'time')));
      v.addErrors(validateDuration(ka, 'interval', at(at(tp, tcp, 'tcpKeepalive'), ka, 'interval')));
    }
  }
  return v;
}

/** Envoy's primality check for Maglev table sizes. */
function isPrime(x: number): boolean {
  if (x !== 0 && x < 4) return true;
  if (x % 2 === 0) return false;
  const limit = Math.floor(Math.sqrt(x));
  for (let f = 3; f <= limit; f += 2) if (x % f === 0) return false;
  return true;
}

const localityError = (locality: string, what: string) => `locality ${locality} ${what}`;

function validateLocalities(localities: readonly string[]): string | undefined {
  const map = new Map<string, Map<string, Map<string, boolean>>>();
  for (const locality of localities) {
    const stars = locality.split('*').length - 1;
    if (stars > 0 && (stars > 1 || !locality.endsWith('*'))) return localityError(locality, "wildcard '*' number can not exceed 1 and must be in the end");
    if (map.has('*')) return localityError(locality, 'overlap with previous specified ones');
    const itemsL = splitN(locality, '/', 3);
    if (itemsL.some((x) => x === '')) return localityError(locality, 'must not contain empty region/zone/subzone info');
    const [region, zone = '', subZone = ''] = itemsL as [string, string?, string?];
    const index = itemsL.length - 1;
    const overlap = localityError(locality, 'overlap with previous specified ones');
    if (index === 0) {
      if (map.has(region)) return overlap;
      map.set(region, new Map([['*', new Map([['*', true]])]]));
    } else if (index === 1) {
      const r = map.get(region);
      if (r) {
        if (r.has('*') || r.has(zone)) return overlap;
        r.set(zone, new Map([['*', true]]));
      } else map.set(region, new Map([[zone, new Map([['*', true]])]]));
    } else {
      const r = map.get(region);
      if (r) {
        if (r.has('*')) return overlap;
        const z = r.get(zone);
        if (z) {
          if (z.get('*') || z.get(subZone)) return overlap;
          z.set(subZone, true);
        } else r.set(zone, new Map([[subZone, true]]));
      } else map.set(region, new Map([[zone, new Map([[subZone, true]])]]));
    }
  }
  return undefined;
}

/** strings.SplitN */
export function splitN(str: string, sep: string, count: number): string[] {
  const out: string[] = [];
  let rest = str;
  while (out.length < count - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** agent.ValidateLocalityLbSetting */
export function validateLocalityLbSetting(lb: Obj | undefined, hasOutlier: boolean, path: string): V {
  const v = new V();
  if (!lb) return v;
  const distribute = items(lb, 'distribute');
  const failover = items(lb, 'failover');
  const priority = strs(lb, 'failoverPriority');
  if (distribute.length > 0 && failover.length > 0) return v.err("can not simultaneously specify 'distribute' and 'failover'", path);
  if (failover.length > 0 && priority.length > 0) {
    for (const l of priority) {
      if (TOPOLOGY_LABELS.has(l)) return v.err(`can not simultaneously set 'failover' and topology label '${l}' in 'failover_priority'`, path);
    }
  }
  const src: string[] = [];
  for (const d of distribute) {
    src.push(s(d ?? undefined, 'from'));
    let total = 0;
    const dest: string[] = [];
    for (const [loc, weight] of strEntries(d ?? undefined, 'to')) {
      dest.push(loc);
      const w = Number(weight) || 0;
      if (w <= 0 || w > 100) return v.err('locality weight must be in range [1, 100]', path);
      total += w;
    }
    if (total !== 100) return v.err(`total locality weight ${total} != 100`, path);
    const e = validateLocalities(dest);
    if (e) v.err(e, path);
  }
  const e = validateLocalities(src);
  if (e) v.err(e, path);
  if ((failover.length !== 0 || priority.length !== 0) && !hasOutlier) v.warn('outlier detection policy must be provided for failover', path);
  for (const f of failover) {
    const from = s(f ?? undefined, 'from');
    const to = s(f ?? undefined, 'to');
    if (from === to) v.err('locality lb failover settings must specify different regions', path);
    if (from.includes('/') || to.includes('/')) v.err('locality lb failover only specify region', path);
    if (to.includes('*') || from.includes('*')) v.err("locality lb failover region should not contain '*' wildcard", path);
  }
  return v;
}

/** agent.ValidateZoneAwareLbSetting */
export function validateZoneAwareLbSetting(lb: Obj | undefined, hasOutlier: boolean, path: string): V {
  const v = new V();
  if (!lb) return v;
  const priority = strs(lb, 'failoverPriority');
  const failover = items(lb, 'failover');
  for (const l of priority) {
    if (TOPOLOGY_LABELS.has(l))
      v.err(`'failover_priority' for zone aware lb must not use topology label '${l}'; region- and zone-level routing are handled automatically`, path);
  }
  if ((failover.length !== 0 || priority.length !== 0) && !hasOutlier) v.warn('outlier detection policy must be provided for failover', path);
  for (const f of failover) {
    const from = s(f ?? undefined, 'from');
    const to = s(f ?? undefined, 'to');
    if (from === to) v.err('zone aware lb failover settings must specify different regions', path);
    if (from.includes('/') || to.includes('/'))
      v.err('zone aware lb failover only specifies region; zone and subzone failover are handled automatically', path);
    if (to.includes('*') || from.includes('*')) v.err("zone aware lb failover region should not contain '*' wildcard", path);
  }
  return v;
}

function validateLoadBalancer(lb: Obj | undefined, hasOutlier: boolean, path: string): V {
  const v = new V();
  if (!lb) return v;
  const ch = msg(lb, 'consistentHash');
  if (ch) {
    const cp = at(path, lb, 'consistentHash');
    const cookie = msg(ch, 'httpCookie');
    if (cookie && s(cookie, 'name') === '') v.err('name required for HttpCookie', at(cp, ch, 'httpCookie'));
    if (cookie) {
      const names = new Set<string>();
      for (const attr of items(cookie, 'attributes')) {
        const name = s(attr ?? undefined, 'name');
        if (name === '') {
          v.err('cookie attribute name cannot be empty', at(cp, ch, 'httpCookie'));
          continue;
        }
        if (names.has(name)) v.err(`duplicate cookie attribute name: ${name}`, at(cp, ch, 'httpCookie'));
        else names.add(name);
      }
    }
    const minRing = n(ch, 'minimumRingSize');
    if (minRing !== 0)
      v.warn("consistent hash MinimumRingSize is deprecated, use ConsistentHashLB's RingHash configuration instead", at(cp, ch, 'minimumRingSize'));
    if (minRing !== 0 && (msg(ch, 'ringHash') || msg(ch, 'maglev'))) v.err('only one of MinimumRingSize or Maglev/Ringhash can be specified', cp);
    const ml = msg(ch, 'maglev');
    if (ml) {
      const size = Math.max(0, n(ml, 'tableSize'));
      const mp = at(cp, ch, 'maglev');
      if (size === 0) v.err('tableSize must be set for maglev', mp);
      if (size >= 5000011) v.err('tableSize must be less than 5000011 for maglev', mp);
      if (!isPrime(size)) v.err('tableSize must be a prime number for maglev', mp);
    }
  }
  const locality = msg(lb, 'localityLbSetting');
  const zoneAware = msg(lb, 'zoneAwareLbSetting');
  if (locality && zoneAware) v.err('only one of localityLbSetting and zoneAwareLbSetting can be set', path);
  v.add(validateLocalityLbSetting(locality, hasOutlier, at(path, lb, 'localityLbSetting')));
  v.add(validateZoneAwareLbSetting(zoneAware, hasOutlier, at(path, lb, 'zoneAwareLbSetting')));
  const warm = msg(lb, 'warmup');
  if (warm) {
    const wp = at(path, lb, 'warmup');
    if (!has(warm, 'duration')) v.err('duration is required', wp);
    else v.add(validateDuration(warm, 'duration', at(wp, warm, 'duration')));
    if ((wrappedNum(warm, 'minimumPercent') ?? 0) > 100) v.err('minimumPercent value should be less than or equal to 100', wp);
    const aggression = wrappedNum(warm, 'aggression');
    if (aggression !== undefined && aggression <= 0) v.err('aggression should be greater than 0', wp);
  }
  return v;
}

function validateTunnel(t: Obj | undefined, path: string): V {
  const v = new V();
  if (!t) return v;
  const protocol = s(t, 'protocol');
  if (protocol !== '' && protocol !== 'CONNECT' && protocol !== 'POST') v.err('tunnel protocol must be "CONNECT" or "POST"', path);
  const host = s(t, 'targetHost');
  const fqdnErr = validateFQDN(host);
  const ipErr = validateIPAddress(host);
  if (fqdnErr && ipErr) v.err(`tunnel target host must be valid FQDN or IP address: ${fqdnErr}; ${ipErr}`, path);
  const portErr = validatePort(n(t, 'targetPort'));
  if (portErr) v.err(`tunnel target port is invalid: ${portErr}`, path);
  return v;
}

function validateProxyProtocol(pp: Obj | undefined, path: string): V {
  if (!pp) return new V();
  const version = enumv(pp, 'version', ['V1', 'V2']);
  if (version !== 'V1' && version !== 'V2') return one(`proxy protocol version is invalid: ${version}`, path);
  return new V();
}

function validatePortTrafficPolicies(ns: string, pls: readonly (Obj | null)[], path: string): V {
  const v = new V();
  pls.forEach((t, i) => {
    const p = idx(path, i);
    if (t === null) {
      v.err('traffic policy may not be null', p);
      return;
    }
    if (!msg(t, 'port')) v.err('portTrafficPolicy must have valid port', p);
    const od = msg(t, 'outlierDetection');
    const cp = msg(t, 'connectionPool');
    const lb = msg(t, 'loadBalancer');
    const tls = msg(t, 'tls');
    if (!od && !cp && !lb && !tls) v.err('port traffic policy must have at least one field', p);
    else {
      // Each part only when written (see validateTrafficPolicy).
      if (od) v.addErrors(validateOutlierDetection(od, at(p, t, 'outlierDetection')));
      if (cp) v.addErrors(validateConnectionPool(cp, at(p, t, 'connectionPool')));
      if (lb) v.addErrors(validateLoadBalancer(lb, od !== undefined, at(p, t, 'loadBalancer')));
      if (tls) v.addErrors(validateClientTLS(ns, tls, at(p, t, 'tls')));
    }
  });
  return v;
}

export function validateTrafficPolicy(ns: string, policy: Obj | undefined, path: string): V {
  const v = new V();
  if (!policy) return v;
  const od = msg(policy, 'outlierDetection');
  const cp = msg(policy, 'connectionPool');
  const lb = msg(policy, 'loadBalancer');
  const tls = msg(policy, 'tls');
  const pls = list(policy, 'portLevelSettings');
  const tunnel = msg(policy, 'tunnel');
  const pp = msg(policy, 'proxyProtocol');
  if (!od && !cp && !lb && !tls && pls === undefined && !tunnel && !pp && !msg(policy, 'retryBudget'))
    return v.err('traffic policy must have at least one field', path);
  if (tunnel && pp) return v.err('tunnel and proxyProtocol must not be set together', path);
  // Each part only when written: their checks find nothing in an absent part, and a mesh's
  // thousands of rules would otherwise build a path and a result for every one of them.
  if (od) v.add(validateOutlierDetection(od, at(path, policy, 'outlierDetection')));
  if (cp) v.add(validateConnectionPool(cp, at(path, policy, 'connectionPool')));
  if (lb) v.add(validateLoadBalancer(lb, od !== undefined, at(path, policy, 'loadBalancer')));
  if (tls) v.add(validateClientTLS(ns, tls, at(path, policy, 'tls')));
  if (pls !== undefined) v.add(validatePortTrafficPolicies(ns, items(policy, 'portLevelSettings'), at(path, policy, 'portLevelSettings')));
  if (tunnel) v.add(validateTunnel(tunnel, at(path, policy, 'tunnel')));
  if (pp) v.add(validateProxyProtocol(pp, at(path, policy, 'proxyProtocol')));
  return v;
}

export function validateDestinationRule(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const hostErr = validateWildcardDomain(s(spec, 'host'));
  if (hostErr) v.err(hostErr, at(SPEC, spec, 'host'));
  const policy = msg(spec, 'trafficPolicy');
  if (policy) v.add(validateTrafficPolicy(cfg.namespace, policy, at(SPEC, spec, 'trafficPolicy')));
  const names = new Set<string>();
  items(spec, 'subsets').forEach((subset, i) => {
    const p = idx(at(SPEC, spec, 'subsets'), i);
    if (subset === null) {
      v.err('subset may not be null', p);
      return;
    }
    const name = s(subset, 'name');
    if (names.has(name)) v.err(`duplicate subset names: ${name}`, at(p, subset, 'name'));
    names.add(name);
    const ne = validateSubsetName(name);
    if (ne) v.err(ne, at(p, subset, 'name'));
    v.addErrors(validateLabels(strEntries(subset, 'labels'), at(p, subset, 'labels')));
    const subsetPolicy = msg(subset, 'trafficPolicy');
    if (subsetPolicy) v.addErrors(validateTrafficPolicy(cfg.namespace, subsetPolicy, at(p, subset, 'trafficPolicy')));
  });
  const hasSelector = msg(spec, 'workloadSelector') !== undefined;
  v.add(validateExportTo(cfg.namespace, strs(spec, 'exportTo'), false, hasSelector, at(SPEC, spec, 'exportTo')));
  v.add(workloadSelector(spec, 'workloadSelector'));
  return v;
}

export { get, goQuote, msgEntries };
