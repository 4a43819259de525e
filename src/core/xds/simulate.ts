// Traffic simulation over generated config: which listener, filter chain, route configuration,
// virtual host, route and cluster a call would hit. A port of Istio's test harness
// (pilot/pkg/simulation/traffic.go, spec §11), with its simplifications kept on purpose so the
// transcribed expectations mean the same thing here: Go-regexp path matching without anchors,
// header matchers ignored, `path_separated_prefix` treated as a prefix.
import type { Json } from './types.ts';
import { isObj } from '../document/read.ts';
import { HCM_NAME, TCP_PROXY_NAME, TLS_INSPECTOR_NAME, HTTP_INSPECTOR_NAME } from './filters.ts';
import { VIRTUAL_INBOUND, VIRTUAL_OUTBOUND } from './names.ts';
import { hostSubsetOf } from '../config/hosts.ts';
import { parsePrefix, prefixContains, isIP } from './net.ts';

export type SimProtocol = 'http' | 'http2' | 'tcp' | '';
export type SimTls = 'plaintext' | 'tls' | 'mtls';
export type SimCallMode = 'outbound' | 'inbound' | 'gateway';

export interface SimCall {
  address?: string;
  port: number;
  path?: string;
  protocol?: SimProtocol;
  tls?: SimTls;
  alpn?: string;
  /** The Host header (also the SNI of `tls` calls unless `sni` is given). */
  host?: string;
  sni?: string;
  mode?: SimCallMode;
  /** The SDS name a chain's first certificate must carry to count as Istio mTLS (default `default`). */
  mtlsSecretConfigName?: string;
}

export const SIM_ERRORS = {
  ErrNoListener: 'no listener matched',
  ErrNoFilterChain: 'no filter chains matched',
  ErrNoRoute: 'no route matched',
  ErrTLSRedirect: 'tls required, sending 301',
  ErrNoVirtualHost: 'no virtual host matched',
  ErrMultipleFilterChain: 'multiple filter chains matched',
  ErrProtocolError: 'protocol error',
  ErrTLSError: 'invalid TLS',
  ErrMTLSError: 'invalid mTLS',
} as const;
export type SimErrorName = keyof typeof SIM_ERRORS;

export interface SimResult {
  /** A key of SIM_ERRORS, or `invalid call: …` for calls the harness refuses. */
  error?: SimErrorName | string;
  listener?: string;
  filterChain?: string;
  routeConfig?: string;
  virtualHost?: string;
  route?: string;
  /** Index of the matched route in its virtual host, and of the filter chain (-1: the default chain). */
  routeIndex?: number;
  filterChainIndex?: number;
  cluster?: string;
  /** Step-by-step explanation, for people (not compared). */
  trace: string[];
}

export interface SimInput {
  listeners: readonly Json[];
  routes: readonly Json[];
}

interface FilledCall {
  address: string;
  port: number;
  path: string;
  protocol: SimProtocol;
  tls: SimTls;
  alpn: string;
  host: string;
  sni: string;
  mode: SimCallMode;
  mtlsSecretConfigName: string;
}

function mtlsAlpn(p: SimProtocol): string {
  return p === 'http' ? 'istio-http/1.1' : p === 'http2' ? 'istio-h2' : 'istio';
}

function tlsAlpn(p: SimProtocol): string {
  return p === 'http' ? 'http/1.1' : p === 'http2' ? 'h2' : '';
}

function plainAlpn(p: SimProtocol): string {
  return p === 'http' ? 'http/1.1' : p === 'http2' ? 'h2c' : '';
}

/** Call.FillDefaults. */
function fillDefaults(c: SimCall): FilledCall {
  const tls = c.tls ?? 'plaintext';
  const protocol = c.protocol ?? '';
  let alpn = c.alpn ?? '';
  if (tls === 'mtls' && alpn === '') alpn = mtlsAlpn(protocol);
  if (tls === 'tls' && alpn === '') alpn = tlsAlpn(protocol);
  return {
    address: c.address || '1.3.3.7',
    port: c.port,
    path: c.path || '/',
    protocol,
    tls,
    alpn,
    host: c.host ?? '',
    sni: c.sni || (tls === 'tls' ? (c.host ?? '') : ''),
    mode: c.mode ?? 'outbound',
    mtlsSecretConfigName: c.mtlsSecretConfigName || 'default',
  };
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function socketAddress(l: Json): { address: string; port: number } | undefined {
  const a = isObj(l.address) && isObj(l.address.socketAddress) ? l.address.socketAddress : undefined;
  if (!a) return undefined;
  return { address: typeof a.address === 'string' ? a.address : '', port: typeof a.portValue === 'number' ? a.portValue : 0 };
}

function matchListener(listeners: readonly Json[], c: FilledCall): Json | undefined {
  if (c.mode === 'inbound') return listeners.find((l) => l.name === VIRTUAL_INBOUND);
  const at = (addr: string) =>
    listeners.find((l) => {
      const a = socketAddress(l);
      return a !== undefined && a.address === addr && a.port === c.port;
    });
  return at(c.address) ?? at('0.0.0.0') ?? listeners.find((l) => l.name === VIRTUAL_OUTBOUND);
}

/** EvaluateListenerFilterPredicates. */
function evalPredicate(p: unknown, port: number): boolean {
  if (!isObj(p)) return true;
  if (isObj(p.notMatch)) return !evalPredicate(p.notMatch, port);
  if (isObj(p.orMatch)) return arr(p.orMatch.rules).some((r) => evalPredicate(r, port));
  if (isObj(p.destinationPortRange)) {
    const r = p.destinationPortRange;
    return port >= Number(r.start ?? 0) && port < Number(r.end ?? 0);
  }
  return true;
}

function hasFilterOnPort(l: Json, name: string, port: number): boolean {
  let found: Json | undefined;
  for (const f of arr(l.listenerFilters)) if (isObj(f) && f.name === name) found = f;
  if (!found) return false;
  if (!isObj(found.filterDisabled)) return true;
  return !evalPredicate(found.filterDisabled, port);
}

type Chain = Json;

function fcm(c: Chain): Json {
  return isObj(c.filterChainMatch) ? c.filterChainMatch : {};
}

function isUnset(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/** filterRank: keep the best-ranked chains; none set → all; none matched → the chains without the field. */
function filterRank(chains: Chain[], extract: (m: Json) => unknown, rank: (v: unknown) => number, trace: string[], desc: string): Chain[] {
  if (!chains.some((c) => !isUnset(extract(fcm(c))))) return chains;
  let best = 0;
  let res: Chain[] = [];
  for (const c of chains) {
    const r = rank(extract(fcm(c)));
    if (r <= 0) continue;
    if (r > best) {
      best = r;
      res = [c];
    } else if (r === best) res.push(c);
  }
  if (res.length > 0) {
    trace.push(`${desc}: ${res.length} chain(s) matched`);
    return res;
  }
  const empty = chains.filter((c) => isUnset(extract(fcm(c))));
  trace.push(`${desc}: no chain matched; ${empty.length} chain(s) do not set it`);
  return empty;
}

function matchFilterChain(l: Json, c: FilledCall, hasTlsInspector: boolean, trace: string[]): { chain?: Chain; error?: SimErrorName } {
  let chains = arr(l.filterChains).filter(isObj) as Chain[];
  chains = filterRank(
    chains,
    (m) => m.destinationPort,
    (v) => (Number(v) === c.port ? 1 : 0),
    trace,
    'destination port',
  );
  chains = filterRank(
    chains,
    (m) => m.prefixRanges,
    (v) => {
      let best = 0;
      for (const r of arr(v)) {
        if (!isObj(r)) continue;
        const p = parsePrefix(`${String(r.addressPrefix ?? '')}/${Number(r.prefixLen ?? 0)}`);
        if (p && isIP(c.address) && prefixContains(p, c.address)) best = Math.max(best, p.bits);
      }
      return best;
    },
    trace,
    'destination prefix',
  );
  chains = filterRank(
    chains,
    (m) => m.serverNames,
    (v) => {
      let best = 0;
      for (const s of arr(v)) {
        if (typeof s !== 'string') continue;
        if (c.sni === s) best = Number.MAX_SAFE_INTEGER;
        else if (hostSubsetOf(c.sni, s)) best = Math.max(best, s.length);
      }
      return best;
    },
    trace,
    'server names',
  );
  chains = filterRank(
    chains,
    (m) => m.transportProtocol,
    (v) => {
      if (!hasTlsInspector) return v === 'raw_buffer' ? 1 : 0;
      if (v === 'tls') return c.tls === 'tls' || c.tls === 'mtls' ? 1 : 0;
      if (v === 'raw_buffer') return c.tls === 'plaintext' ? 1 : 0;
      return 0;
    },
    trace,
    'transport protocol',
  );
  chains = filterRank(
    chains,
    (m) => m.applicationProtocols,
    (v) => (arr(v).includes(c.alpn) ? 1 : 0),
    trace,
    'application protocols',
  );
  if (chains.length > 1) return { error: 'ErrMultipleFilterChain' };
  if (chains.length === 0) {
    if (isObj(l.defaultFilterChain)) {
      trace.push('no filter chain matched: the default filter chain applies');
      return { chain: l.defaultFilterChain };
    }
    return { error: 'ErrNoFilterChain' };
  }
  return { chain: chains[0] };
}

function requiresMtls(fc: Chain, sdsName: string): boolean {
  const ts = isObj(fc.transportSocket) ? fc.transportSocket : undefined;
  const t = ts && isObj(ts.typedConfig) ? ts.typedConfig : undefined;
  if (!t) return false;
  const common = isObj(t.commonTlsContext) ? t.commonTlsContext : {};
  const sds = arr(common.tlsCertificateSdsSecretConfigs);
  if (sds.length === 0) return false;
  if (!isObj(sds[0]) || sds[0].name !== sdsName) return false;
  return t.requireClientCertificate === true;
}

function filterNamed(fc: Chain, name: string): Json | undefined {
  for (const f of arr(fc.filters)) if (isObj(f) && f.name === name) return isObj(f.typedConfig) ? f.typedConfig : {};
  return undefined;
}

/**
 * Envoy's HeaderUtility::getPortStart (source/common/http/header_utility.cc), as
 * RouteMatcher::findVirtualHost uses it under ignore_port_in_host_matching: the Host up to its
 * last ':', unless a ']' comes after that ':' (an IPv6 literal without a port). The brackets stay,
 * as in the domains Istio writes for IPv6 addresses (util.IPv6Compliant in httproute.go).
 */
function stripPort(h: string): string {
  const colon = h.lastIndexOf(':');
  return h.lastIndexOf(']') < colon ? h.slice(0, colon) : h;
}

/** ASCII lower case (absl::AsciiStrToLower): host names are case-insensitive. */
const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * Envoy's RouteMatcher::findVirtualHost: the Host (port dropped when the route configuration
 * says so) and the domains are compared in lower case, as Envoy lowercases both
 * (source/common/router/config_impl.cc; route_components.proto VirtualHost.domains).
 */
function matchVirtualHost(rc: Json, hostIn: string): Json | undefined {
  let host = hostIn;
  if (rc.ignorePortInHostMatching === true) host = stripPort(host);
  host = asciiLower(host);
  const vhosts = arr(rc.virtualHosts).filter(isObj) as Json[];
  const domains = (vh: Json) =>
    arr(vh.domains)
      .filter((d): d is string => typeof d === 'string')
      .map(asciiLower);
  for (const vh of vhosts) if (domains(vh).includes(host)) return vh;
  let best: Json | undefined;
  let longest = 0;
  for (const vh of vhosts) {
    for (const d of domains(vh)) {
      if (d[0] !== '*') continue;
      if (host.length >= d.length && host.endsWith(d.slice(1)) && d.length > longest) {
        best = vh;
        longest = d.length;
      }
    }
  }
  if (best) return best;
  longest = 0;
  for (const vh of vhosts) {
    for (const d of domains(vh)) {
      if (d[d.length - 1] !== '*') continue;
      if (host.length >= d.length && host.startsWith(d.slice(0, -1)) && d.length > longest) {
        best = vh;
        longest = d.length;
      }
    }
  }
  if (best) return best;
  return vhosts.find((vh) => domains(vh).includes('*'));
}

/** Go's RE2 syntax as JavaScript reads it (the common subset; `(?i)` flags are lifted). */
function goRegexp(re: string): RegExp | undefined {
  let src = re;
  let flags = '';
  const m = /^\(\?([imsU]+)\)/.exec(src);
  if (m) {
    src = src.slice(m[0].length);
    const f = m[1] ?? '';
    if (f.includes('i')) flags += 'i';
    if (f.includes('s')) flags += 's';
    if (f.includes('m')) flags += 'm';
  }
  src = src.replace(/\(\?P</g, '(?<').replace(/\\z/g, '$');
  try {
    return new RegExp(src, flags);
  } catch {
    return undefined;
  }
}

function matchRoute(vh: Json, c: FilledCall): { route?: Json; index?: number; problem?: string } {
  for (const [index, r] of arr(vh.routes).entries()) {
    if (!isObj(r)) continue;
    const m = isObj(r.match) ? r.match : {};
    if (typeof m.prefix === 'string') {
      if (!c.path.startsWith(m.prefix)) continue;
    } else if (typeof m.pathSeparatedPrefix === 'string') {
      if (!c.path.startsWith(m.pathSeparatedPrefix)) continue;
    } else if (typeof m.path === 'string') {
      if (c.path !== m.path) continue;
    } else if (isObj(m.safeRegex)) {
      const re = goRegexp(String(m.safeRegex.regex ?? ''));
      if (!re) return { problem: `invalid regex ${String(m.safeRegex.regex)}` };
      if (!re.test(c.path)) continue;
    } else {
      return { problem: `unknown route path type in ${JSON.stringify(m)}` };
    }
    return { route: r, index };
  }
  return {};
}

/** Runs one call through the listeners and routes (Simulation.Run). */
export function simulate(input: SimInput, call: SimCall): SimResult {
  const trace: string[] = [];
  const res: SimResult = { trace };
  const c = fillDefaults(call);
  if (c.alpn !== '' && c.tls === 'plaintext') {
    res.error = 'invalid call, ALPN can only be sent in TLS requests';
    return res;
  }
  const l = matchListener(input.listeners, c);
  if (!l) {
    res.error = 'ErrNoListener';
    return res;
  }
  res.listener = String(l.name ?? '');
  trace.push(`listener ${res.listener}`);
  const hasTls = hasFilterOnPort(l, TLS_INSPECTOR_NAME, c.port);
  if (!hasTls) c.alpn = '';
  if (hasFilterOnPort(l, HTTP_INSPECTOR_NAME, c.port)) {
    const a = plainAlpn(c.protocol);
    if (a !== '' && c.tls === 'plaintext') c.alpn = a;
  }
  const m = matchFilterChain(l, c, hasTls, trace);
  if (m.error || !m.chain) {
    res.error = m.error ?? 'ErrNoFilterChain';
    return res;
  }
  const fc = m.chain;
  res.filterChainIndex = arr(l.filterChains).indexOf(fc);
  res.filterChain = typeof fc.name === 'string' ? fc.name : '';
  trace.push(`filter chain ${res.filterChain || '(unnamed)'}`);
  const hasSocket = isObj(fc.transportSocket);
  if (hasSocket && c.tls === 'plaintext') {
    res.error = 'ErrTLSError';
    return res;
  }
  if (hasSocket && requiresMtls(fc, c.mtlsSecretConfigName) !== (c.tls === 'mtls')) {
    res.error = 'ErrMTLSError';
    return res;
  }
  const hcm = filterNamed(fc, HCM_NAME);
  if (hcm) {
    if (c.tls !== 'plaintext' && !hasSocket) {
      res.error = 'ErrProtocolError';
      return res;
    }
    if (c.protocol !== 'http' && c.protocol !== 'http2') {
      res.error = 'ErrProtocolError';
      return res;
    }
    let rc: Json | undefined = isObj(hcm.routeConfig) ? hcm.routeConfig : undefined;
    if (!rc) {
      const name = isObj(hcm.rds) && typeof hcm.rds.routeConfigName === 'string' ? hcm.rds.routeConfigName : '';
      res.routeConfig = name;
      rc = input.routes.find((r) => r.name === name);
      trace.push(`route configuration ${name}${rc ? '' : ' (not generated)'}`);
    }
    const vh = rc ? matchVirtualHost(rc, c.host) : undefined;
    if (!vh) {
      res.error = 'ErrNoVirtualHost';
      return res;
    }
    res.virtualHost = String(vh.name ?? '');
    trace.push(`virtual host ${res.virtualHost}`);
    if (vh.requireTls === 'ALL' && c.tls === 'plaintext') {
      res.error = 'ErrTLSRedirect';
      return res;
    }
    const r = matchRoute(vh, c);
    if (r.problem) {
      res.error = r.problem;
      return res;
    }
    if (!r.route) {
      res.error = 'ErrNoRoute';
      return res;
    }
    res.route = typeof r.route.name === 'string' ? r.route.name : '';
    res.routeIndex = r.index;
    trace.push(`route ${res.route || '(unnamed)'}`);
    if (isObj(r.route.route) && typeof r.route.route.cluster === 'string') res.cluster = r.route.route.cluster;
  } else {
    const tcp = filterNamed(fc, TCP_PROXY_NAME);
    if (tcp && typeof tcp.cluster === 'string') res.cluster = tcp.cluster;
  }
  if (res.cluster !== undefined) trace.push(`cluster ${res.cluster}`);
  return res;
}
