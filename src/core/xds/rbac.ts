// Envoy's RBAC filter (envoy.filters.http.rbac / envoy.filters.network.rbac) evaluated over one
// request, as Envoy does it: a policy matches when one of its permissions and one of its
// principals match; an ALLOW engine denies when no policy matched, a DENY engine denies when
// one matched, a LOG engine never denies; shadow rules are evaluated for their verdict but
// never enforce. Works on the generated filters in proto3 JSON (what a config dump holds).
import { isObj } from '../document/read.ts';
import { parsePrefix, prefixContains, isIP } from './net.ts';
import { headerMatches, stringMatches } from './envoyMatchers.ts';

/** What the destination's RBAC filters see of a request. */
export interface RbacRequest {
  /** The peer certificate's URI SAN (the source's SPIFFE id); undefined without mTLS. */
  principal?: string;
  /** Source address (direct_remote_ip and remote_ip: no X-Forwarded-For in a simulated call). */
  sourceIp: string;
  destinationIp: string;
  destinationPort: number;
  /** Lower-case names; pseudo-headers `:method`, `:path`, `:authority` included for HTTP. */
  headers: ReadonlyMap<string, string>;
  /** The TLS server name the client sent ('' for none). */
  sni: string;
  /** Dynamic metadata by filter (e.g. `envoy.filters.http.jwt_authn`); empty: no JWT was validated. */
  metadata?: Readonly<Record<string, unknown>>;
  /** Filter state (waypoints: `io.istio.peer_principal`). */
  filterState?: Readonly<Record<string, string>>;
}

export type RbacAction = 'ALLOW' | 'DENY' | 'LOG';

export interface RbacEngineResult {
  action: RbacAction;
  /** The policies (map keys) that matched, in the filter's order. */
  matched: string[];
  /** Every policy of the engine. */
  policies: string[];
  /** Whether this engine would deny the request. */
  denies: boolean;
  /** Matchers that read something the simulation does not have (JWT claims, metadata). */
  unknowns: string[];
}

export interface RbacFilterResult {
  rules?: RbacEngineResult;
  shadowRules?: RbacEngineResult;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function pathOnly(headers: ReadonlyMap<string, string>): string | undefined {
  const p = headers.get(':path');
  if (p === undefined) return undefined;
  const q = p.search(/[?#]/);
  return q < 0 ? p : p.slice(0, q);
}

function cidrMatches(r: unknown, ip: string): boolean {
  if (!isObj(r) || !isIP(ip)) return false;
  const p = parsePrefix(`${str(r.addressPrefix)}/${Number(isObj(r.prefixLen) ? r.prefixLen.value : (r.prefixLen ?? 0))}`);
  return p !== undefined && prefixContains(p, ip);
}

/** The uri_template path matcher: `*` one segment, `**` any number of segments (also none). */
function uriTemplateMatches(template: string, path: string): boolean {
  const parts = template.split('/');
  let re = '';
  for (const [i, seg] of parts.entries()) {
    if (i > 0) re += '/';
    if (seg === '**') re += '.*';
    else if (seg === '*') re += '[^/]+';
    else
      re += seg
        .replace(/[\\^$.|?+()[\]{}]/g, '\\$&')
        .replace(/\*\*/g, '.*')
        .replace(/\*/g, '[^/]*');
  }
  return new RegExp(`^${re}$`).test(path);
}

function metadataValue(meta: Readonly<Record<string, unknown>> | undefined, filter: string, path: unknown[]): unknown {
  let v: unknown = meta?.[filter];
  for (const seg of path) {
    const key = isObj(seg) ? str(seg.key) : '';
    if (!isObj(v)) return undefined;
    v = v[key];
  }
  return v;
}

function valueMatches(m: unknown, v: unknown): boolean {
  if (!isObj(m)) return false;
  if (isObj(m.orMatch)) return arr(m.orMatch.valueMatchers).some((x) => valueMatches(x, v));
  if (isObj(m.listMatch)) return Array.isArray(v) && v.some((x) => valueMatches(isObj(m.listMatch) ? m.listMatch.oneOf : undefined, x));
  if (m.presentMatch === true) return v !== undefined;
  if (isObj(m.stringMatch)) return typeof v === 'string' && stringMatches(m.stringMatch, v);
  if (typeof m.boolMatch === 'boolean') return v === m.boolMatch;
  if (isObj(m.nullMatch)) return v === null;
  return false;
}

interface EvalCtx {
  req: RbacRequest;
  unknowns: string[];
}

function metadataMatches(m: unknown, ctx: EvalCtx): boolean {
  if (!isObj(m)) return false;
  const filter = str(m.filter);
  const v = metadataValue(ctx.req.metadata, filter, arr(m.path));
  if (v === undefined && !ctx.req.metadata?.[filter]) {
    const what =
      filter === 'envoy.filters.http.jwt_authn'
        ? 'the JWT (request.auth.*): the simulated request carries no validated token'
        : `dynamic metadata of ${filter}`;
    if (!ctx.unknowns.includes(what)) ctx.unknowns.push(what);
  }
  const ok = valueMatches(m.value, v);
  return m.invert === true ? !ok : ok;
}

function permissionMatches(p: unknown, ctx: EvalCtx): boolean {
  if (!isObj(p)) return false;
  const { req } = ctx;
  if (p.any === true) return true;
  if (isObj(p.andRules)) return arr(p.andRules.rules).every((r) => permissionMatches(r, ctx));
  if (isObj(p.orRules)) return arr(p.orRules.rules).some((r) => permissionMatches(r, ctx));
  if (isObj(p.notRule)) return !permissionMatches(p.notRule, ctx);
  if (isObj(p.header)) return headerMatches(p.header, req.headers);
  if (isObj(p.urlPath)) return stringMatches(p.urlPath.path, pathOnly(req.headers));
  if (isObj(p.uriTemplate)) return uriTemplateMatches(str(p.uriTemplate.pathTemplate), pathOnly(req.headers) ?? '');
  if (isObj(p.destinationIp)) return cidrMatches(p.destinationIp, req.destinationIp);
  if (p.destinationPort !== undefined) return Number(p.destinationPort) === req.destinationPort;
  if (isObj(p.destinationPortRange))
    return req.destinationPort >= Number(p.destinationPortRange.start ?? 0) && req.destinationPort < Number(p.destinationPortRange.end ?? 0);
  if (isObj(p.requestedServerName)) return stringMatches(p.requestedServerName, req.sni);
  if (isObj(p.metadata)) return metadataMatches(p.metadata, ctx);
  if (isObj(p.matcher)) {
    // Extension matchers (the uri_template path matcher among them).
    const tc = isObj(p.matcher.typedConfig) ? p.matcher.typedConfig : p.matcher;
    if (typeof tc.pathTemplate === 'string') return uriTemplateMatches(tc.pathTemplate, pathOnly(req.headers) ?? '');
    const what = `matcher ${str(p.matcher.name) || str(tc['@type'])}`;
    if (!ctx.unknowns.includes(what)) ctx.unknowns.push(what);
    return false;
  }
  return false;
}

function principalMatches(p: unknown, ctx: EvalCtx): boolean {
  if (!isObj(p)) return false;
  const { req } = ctx;
  if (p.any === true) return true;
  if (isObj(p.andIds)) return arr(p.andIds.ids).every((r) => principalMatches(r, ctx));
  if (isObj(p.orIds)) return arr(p.orIds.ids).some((r) => principalMatches(r, ctx));
  if (isObj(p.notId)) return !principalMatches(p.notId, ctx);
  if (isObj(p.authenticated)) {
    if (req.principal === undefined) return false;
    return isObj(p.authenticated.principalName) ? stringMatches(p.authenticated.principalName, req.principal) : true;
  }
  if (isObj(p.sourceIp)) return cidrMatches(p.sourceIp, req.sourceIp);
  if (isObj(p.directRemoteIp)) return cidrMatches(p.directRemoteIp, req.sourceIp);
  if (isObj(p.remoteIp)) return cidrMatches(p.remoteIp, req.sourceIp);
  if (isObj(p.header)) return headerMatches(p.header, req.headers);
  if (isObj(p.urlPath)) return stringMatches(p.urlPath.path, pathOnly(req.headers));
  if (isObj(p.metadata)) return metadataMatches(p.metadata, ctx);
  if (isObj(p.filterState)) {
    const v = req.filterState?.[str(p.filterState.key)];
    return isObj(p.filterState.stringMatch) ? stringMatches(p.filterState.stringMatch, v) : v !== undefined;
  }
  return false;
}

/** Whether one RBAC policy (permissions × principals) matches. */
export function policyMatches(policy: unknown, req: RbacRequest, unknowns: string[] = []): boolean {
  if (!isObj(policy)) return false;
  const ctx: EvalCtx = { req, unknowns };
  return arr(policy.permissions).some((p) => permissionMatches(p, ctx)) && arr(policy.principals).some((p) => principalMatches(p, ctx));
}

function engine(rbac: unknown, req: RbacRequest): RbacEngineResult | undefined {
  if (!isObj(rbac)) return undefined;
  const action: RbacAction = rbac.action === 'DENY' ? 'DENY' : rbac.action === 'LOG' ? 'LOG' : 'ALLOW';
  const policies = isObj(rbac.policies) ? rbac.policies : {};
  const names = Object.keys(policies).sort();
  const unknowns: string[] = [];
  const matched = names.filter((n) => policyMatches(policies[n], req, unknowns));
  const denies = action === 'ALLOW' ? matched.length === 0 : action === 'DENY' ? matched.length > 0 : false;
  return { action, matched, policies: names, denies, unknowns };
}

/** One RBAC filter's typed config (HTTP or network) over a request. */
export function evaluateRbacFilter(typedConfig: unknown, req: RbacRequest): RbacFilterResult {
  if (!isObj(typedConfig)) return {};
  const out: RbacFilterResult = {};
  const rules = engine(typedConfig.rules, req);
  if (rules) out.rules = rules;
  const shadow = engine(typedConfig.shadowRules, req);
  if (shadow) out.shadowRules = shadow;
  return out;
}

/** `ns[<ns>]-policy[<name>]-rule[<i>]` (also inside CUSTOM and bad-CUSTOM names) → its parts. */
export function parseRbacPolicyName(key: string): { namespace: string; name: string; rule: number } | undefined {
  const m = /ns\[([^\]]*)\]-policy\[([^\]]*)\]-rule\[(\d+)\]/.exec(key);
  return m ? { namespace: m[1] as string, name: m[2] as string, rule: Number(m[3]) } : undefined;
}
