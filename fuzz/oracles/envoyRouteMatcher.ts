// An independent statement of Envoy's HTTP route matching, for the xds-simulate fuzz target's
// oracle. Written from Envoy's documentation (api v3 route.proto / route_components.proto,
// "HTTP routing" in the architecture overview) and its router sources as they read today
// (source/common/router/config_impl.cc: RouteMatcher::findVirtualHost, findWildcardVirtualHost,
// RouteEntryImplBase::matchRoute and the Prefix/Path/Regex/PathSeparatedPrefix entries;
// source/common/http/header_utility.cc: matchHeaders, getPortStart;
// source/common/router/config_utility.cc: QueryParameterMatcher::matches). It shares no code
// with src/core/xds: it reads the RouteConfiguration as proto3 JSON (camelCase) and answers
// which virtual host, which route and which action Envoy picks, or says it cannot tell.
//
// What it does not model answers `unknown` (never a guess): runtime fractions, TLS-context,
// dynamic-metadata and filter-state matches, URI templates, matcher trees, `vhost_header`,
// CONNECT, regexes that JavaScript might read differently from RE2, and headers such as
// `:scheme` that the request model does not define.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** ASCII lower case, as absl::AsciiStrToLower (non-ASCII letters are left alone). */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** A google.protobuf.BoolValue in proto3 JSON: `true` or `{ "value": true }`. */
function boolValue(v: unknown, dflt: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (isObj(v) && typeof v.value === 'boolean') return v.value;
  return dflt;
}

function uint(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (isObj(v)) return uint(v.value);
  return 0;
}

/** The request as Envoy's router sees it, after the codec and the connection manager. */
export interface RouterRequest {
  /** `:authority` (the Host header), as sent. */
  authority: string;
  /** `:path`, with its query string. */
  path: string;
  method: string;
  /** Other headers, names lower case; pseudo-headers are added from the fields above. */
  headers: ReadonlyMap<string, string>;
}

export type RouteActionOutcome =
  | { kind: 'clusters'; clusters: string[] }
  | { kind: 'redirect' }
  | { kind: 'direct'; status: number }
  | { kind: 'other'; what: string };

export type RouteOutcome =
  | { kind: 'unknown'; why: string }
  | { kind: 'no-virtual-host' }
  | { kind: 'tls-redirect'; virtualHost: string }
  | { kind: 'no-route'; virtualHost: string }
  | { kind: 'route'; virtualHost: string; index: number; action: RouteActionOutcome };

class Unknown extends Error {}
const unknown = (why: string): never => {
  throw new Unknown(why);
};

// ---- regexes: RE2 read by JavaScript only where both read it the same --------------------

const SAFE_ESCAPES = new Set([
  'd',
  'D',
  'w',
  'W',
  '.',
  '/',
  '-',
  '\\',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '*',
  '+',
  '?',
  '|',
  '^',
  '$',
  ':',
  '_',
  '=',
  '&',
  '!',
  '@',
  '%',
  ',',
  ';',
  '~',
  '#',
  "'",
  '"',
  '<',
  '>',
  ' ',
]);

/**
 * An RE2 regex as a JavaScript RegExp that full-matches (Envoy's safe_regex matches the whole
 * value), or unknown when the pattern uses syntax where the two could differ: flags, named or
 * non-capturing-with-flags groups, look-around, back references, \s \b \p \Q \z \A \C, POSIX
 * classes, and `{` that is not a well-formed repeat.
 */
export function re2FullMatcher(re: string): RegExp {
  let i = 0;
  let inClass = false;
  while (i < re.length) {
    const c = re[i] as string;
    const code = c.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) unknown(`regex ${JSON.stringify(re)}: a character outside printable ASCII`);
    if (c === '\\') {
      const n = re[i + 1];
      if (n === undefined || !SAFE_ESCAPES.has(n)) unknown(`regex ${JSON.stringify(re)}: escape \\${n ?? ''}`);
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === '[') unknown(`regex ${JSON.stringify(re)}: [ inside a class (POSIX class or nesting)`);
      if (c === ']') inClass = false;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      i++;
      if (re[i] === '^') i++;
      if (re[i] === ']') unknown(`regex ${JSON.stringify(re)}: ] first in a class`);
      continue;
    }
    if (c === '(' && re[i + 1] === '?') {
      if (re[i + 2] !== ':') unknown(`regex ${JSON.stringify(re)}: (? group other than (?:`);
      i += 3;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(re.slice(i));
      if (!m) unknown(`regex ${JSON.stringify(re)}: { that is not a repeat`);
      i += (m as RegExpExecArray)[0].length;
      continue;
    }
    i++;
  }
  if (inClass) unknown(`regex ${JSON.stringify(re)}: unclosed class`);
  try {
    return new RegExp(`^(?:${re})$`);
  } catch {
    return unknown(`regex ${JSON.stringify(re)}: JavaScript cannot read it`);
  }
}

// ---- string, header and query parameter matchers -----------------------------------------

/** envoy.type.matcher.v3.StringMatcher. */
export function stringMatcherMatches(m: unknown, value: string): boolean {
  if (!isObj(m)) return unknown('a string matcher that is not an object');
  const ic = m.ignoreCase === true;
  const fold = (s: string) => (ic ? asciiLower(s) : s);
  if (typeof m.exact === 'string') return fold(value) === fold(m.exact);
  if (typeof m.prefix === 'string') return fold(value).startsWith(fold(m.prefix));
  if (typeof m.suffix === 'string') return fold(value).endsWith(fold(m.suffix));
  if (typeof m.contains === 'string') return fold(value).includes(fold(m.contains));
  if (isObj(m.safeRegex) && typeof m.safeRegex.regex === 'string') return re2FullMatcher(m.safeRegex.regex).test(value);
  return unknown(`string matcher ${JSON.stringify(m)}`);
}

const MODELLED_PSEUDO = new Set([':authority', ':path', ':method']);

function headerValue(req: RouterRequest, name: string): string | undefined {
  if (name === ':authority') return req.authority;
  if (name === ':path') return req.path;
  if (name === ':method') return req.method;
  if (name.startsWith(':') || name === 'host') unknown(`a header matcher on ${name}, which the request model does not define`);
  return req.headers.get(name);
}

/** envoy.config.route.v3.HeaderMatcher (HeaderUtility::matchHeaders). */
export function headerMatcherMatches(h: unknown, req: RouterRequest): boolean {
  if (!isObj(h) || typeof h.name !== 'string') return unknown('a header matcher without a name');
  const name = asciiLower(h.name);
  if (name.startsWith(':') && !MODELLED_PSEUDO.has(name)) unknown(`a header matcher on ${name}`);
  const invert = h.invertMatch === true;
  const missingAsEmpty = h.treatMissingHeaderAsEmpty === true;
  const present = typeof h.presentMatch === 'boolean' ? h.presentMatch : undefined;
  const isPresentType =
    present !== undefined ||
    !['exactMatch', 'safeRegexMatch', 'rangeMatch', 'prefixMatch', 'suffixMatch', 'containsMatch', 'stringMatch'].some((k) => h[k] !== undefined);
  const presentValue = present ?? true;
  let value = headerValue(req, name);
  if (value === undefined) {
    // Missing header, not read as empty: only a presence matcher can hold.
    if (!missingAsEmpty) return invert ? isPresentType && presentValue : isPresentType && !presentValue;
    value = '';
  }
  let match: boolean;
  if (typeof h.exactMatch === 'string') match = h.exactMatch === '' || value === h.exactMatch;
  else if (isObj(h.safeRegexMatch) && typeof h.safeRegexMatch.regex === 'string') match = re2FullMatcher(h.safeRegexMatch.regex).test(value);
  else if (isObj(h.rangeMatch)) {
    const n = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
    match = Number.isSafeInteger(n) && n >= Number(h.rangeMatch.start ?? 0) && n < Number(h.rangeMatch.end ?? 0);
  } else if (typeof h.prefixMatch === 'string') match = value.startsWith(h.prefixMatch);
  else if (typeof h.suffixMatch === 'string') match = value.endsWith(h.suffixMatch);
  else if (typeof h.containsMatch === 'string') match = value.includes(h.containsMatch);
  else if (h.stringMatch !== undefined) match = stringMatcherMatches(h.stringMatch, value);
  else match = presentValue;
  return match !== invert;
}

/** Http::Utility::QueryParamsMulti::parseQueryString: no decoding; the first value of a name counts. */
export function firstQueryValues(path: string): Map<string, string> {
  const out = new Map<string, string>();
  const q = path.indexOf('?');
  if (q < 0) return out;
  for (const part of path.slice(q + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!out.has(name)) out.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  return out;
}

/** envoy.config.route.v3.QueryParameterMatcher (ConfigUtility::QueryParameterMatcher::matches). */
export function queryMatcherMatches(m: unknown, params: ReadonlyMap<string, string>): boolean {
  if (!isObj(m) || typeof m.name !== 'string') return unknown('a query parameter matcher without a name');
  const v = params.get(m.name);
  if (typeof m.presentMatch === 'boolean') return (v !== undefined) === m.presentMatch;
  if (v === undefined) return false;
  if (m.stringMatch === undefined) return true;
  return stringMatcherMatches(m.stringMatch, v);
}

// ---- routes ------------------------------------------------------------------------------

/** Http::PathUtil::removeQueryAndFragment. */
function pathOnly(path: string): string {
  const cut = path.search(/[?#]/);
  return cut < 0 ? path : path.slice(0, cut);
}

function isGrpcContentType(ct: string | undefined): boolean {
  if (ct === undefined || !ct.startsWith('application/grpc')) return false;
  return ct.length === 16 || ct[16] === '+' || ct[16] === ';';
}

/** RouteMatch: the path specifier, then RouteEntryImplBase::matchRoute's other conditions. */
export function routeMatchHolds(match: unknown, req: RouterRequest): boolean {
  if (!isObj(match)) return unknown('a route without a match');
  for (const k of ['runtimeFraction', 'tlsContext', 'dynamicMetadata', 'filterState', 'pathMatchPolicy', 'connectMatcher']) {
    if (match[k] !== undefined) unknown(`route match field ${k}`);
  }
  const cs = boolValue(match.caseSensitive, true);
  const p = pathOnly(req.path);
  const fold = (s: string) => (cs ? s : asciiLower(s));
  let pathOk: boolean;
  if (typeof match.prefix === 'string') pathOk = fold(p).startsWith(fold(match.prefix));
  else if (typeof match.path === 'string') pathOk = fold(p) === fold(match.path);
  else if (isObj(match.safeRegex) && typeof match.safeRegex.regex === 'string') pathOk = re2FullMatcher(match.safeRegex.regex).test(p);
  else if (typeof match.pathSeparatedPrefix === 'string') {
    const pre = match.pathSeparatedPrefix;
    pathOk = p.length >= pre.length && fold(p).startsWith(fold(pre)) && (p.length === pre.length || p[pre.length] === '/');
  } else return unknown(`a route match without a path specifier Envoy accepts: ${JSON.stringify(match)}`);
  if (!pathOk) return false;
  if (match.grpc !== undefined && !isGrpcContentType(req.headers.get('content-type'))) return false;
  for (const h of list(match.headers)) if (!headerMatcherMatches(h, req)) return false;
  const qs = list(match.queryParameters);
  if (qs.length > 0) {
    const params = firstQueryValues(req.path);
    for (const q of qs) if (!queryMatcherMatches(q, params)) return false;
  }
  return true;
}

function actionOf(route: Obj): RouteActionOutcome {
  if (isObj(route.redirect)) return { kind: 'redirect' };
  if (isObj(route.directResponse)) return { kind: 'direct', status: uint(route.directResponse.status) };
  if (isObj(route.route)) {
    const a = route.route;
    if (typeof a.cluster === 'string') return { kind: 'clusters', clusters: [a.cluster] };
    if (isObj(a.weightedClusters)) {
      const names = list(a.weightedClusters.clusters)
        .filter((c): c is Obj => isObj(c) && typeof c.name === 'string' && uint(c.weight) > 0)
        .map((c) => c.name as string);
      return { kind: 'clusters', clusters: names };
    }
    return {
      kind: 'other',
      what: `route action ${
        Object.keys(a)
          .filter((k) => /cluster/i.test(k))
          .join(', ') || 'without a cluster'
      }`,
    };
  }
  return {
    kind: 'other',
    what: `action ${Object.keys(route)
      .filter((k) => k !== 'match' && k !== 'name')
      .join(', ')}`,
  };
}

// ---- virtual hosts -----------------------------------------------------------------------

/** HeaderUtility::getPortStart: the last ':' unless a ']' follows it (an IPv6 literal). */
function stripPort(host: string): string {
  const colon = host.lastIndexOf(':');
  if (colon < 0) return host;
  const bracket = host.lastIndexOf(']');
  return bracket < 0 || bracket < colon ? host.slice(0, colon) : host;
}

interface VhostIndex {
  exact: Map<string, Obj>;
  suffixes: Map<number, Map<string, Obj>>;
  prefixes: Map<number, Map<string, Obj>>;
  dflt?: Obj;
}

function indexVirtualHosts(rc: Obj): VhostIndex {
  const ix: VhostIndex = { exact: new Map(), suffixes: new Map(), prefixes: new Map() };
  const add = (m: Map<string, Obj>, key: string, vh: Obj) => {
    if (m.has(key)) unknown(`domain ${key} in two virtual hosts (Envoy rejects the route configuration)`);
    m.set(key, vh);
  };
  const byLength = (m: Map<number, Map<string, Obj>>, n: number) => {
    let inner = m.get(n);
    if (!inner) m.set(n, (inner = new Map()));
    return inner;
  };
  for (const vh of list(rc.virtualHosts)) {
    if (!isObj(vh)) continue;
    if (vh.matcher !== undefined) unknown('a virtual host with a matcher tree');
    for (const d of list(vh.domains)) {
      if (typeof d !== 'string') continue;
      const domain = asciiLower(d);
      if (domain === '*') {
        if (ix.dflt) unknown('two virtual hosts with the domain * (Envoy rejects the route configuration)');
        ix.dflt = vh;
      } else if (domain.startsWith('*')) add(byLength(ix.suffixes, domain.length - 1), domain.slice(1), vh);
      else if (domain.endsWith('*')) add(byLength(ix.prefixes, domain.length - 1), domain.slice(0, -1), vh);
      else add(ix.exact, domain, vh);
    }
  }
  return ix;
}

function longestWildcard(host: string, m: Map<number, Map<string, Obj>>, piece: (h: string, n: number) => string): Obj | undefined {
  for (const n of [...m.keys()].sort((a, b) => b - a)) {
    // Strictly shorter than the host: `*.foo.com` does not match `.foo.com`.
    if (n >= host.length) continue;
    const hit = m.get(n)?.get(piece(host, n));
    if (hit) return hit;
  }
  return undefined;
}

/** RouteMatcher::findVirtualHost. */
export function findVirtualHost(rc: unknown, authority: string): Obj | undefined {
  if (!isObj(rc)) return unknown('a route configuration that is not an object');
  if (typeof rc.vhostHeader === 'string' && rc.vhostHeader !== '') unknown('vhost_header');
  const ix = indexVirtualHosts(rc);
  if (ix.exact.size === 0 && ix.suffixes.size === 0 && ix.prefixes.size === 0) return ix.dflt;
  let host = authority;
  if (boolValue(rc.ignorePortInHostMatching, false)) host = stripPort(host);
  host = asciiLower(host);
  return (
    ix.exact.get(host) ??
    longestWildcard(host, ix.suffixes, (h, n) => h.slice(h.length - n)) ??
    longestWildcard(host, ix.prefixes, (h, n) => h.slice(0, n)) ??
    ix.dflt
  );
}

/** The whole decision for a plaintext HTTP request: virtual host, first matching route, its action. */
export function matchRouteConfiguration(rc: unknown, req: RouterRequest): RouteOutcome {
  try {
    const vh = findVirtualHost(rc, req.authority);
    if (!vh) return { kind: 'no-virtual-host' };
    const name = typeof vh.name === 'string' ? vh.name : '';
    const tls = vh.requireTls;
    if (tls === 'ALL') return { kind: 'tls-redirect', virtualHost: name };
    if (tls !== undefined && tls !== 'NONE') unknown(`require_tls ${String(tls)}`);
    const routes = list(vh.routes);
    for (let i = 0; i < routes.length; i++) {
      const r = routes[i];
      if (!isObj(r)) continue;
      if (routeMatchHolds(r.match, req)) return { kind: 'route', virtualHost: name, index: i, action: actionOf(r) };
    }
    return { kind: 'no-route', virtualHost: name };
  } catch (e) {
    if (e instanceof Unknown) return { kind: 'unknown', why: e.message };
    throw e;
  }
}
