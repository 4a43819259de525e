// AuthorizationPolicy as an Envoy proxy (a waypoint or a sidecar) enforces it for one
// request: Istio's documented semantics (CUSTOM, then DENY, then ALLOW; a rule matches when
// all its parts do; on a TCP chain, ALLOW rules with HTTP-only conditions never match and
// DENY rules lose them). Which policies attach where is decided by the caller.
import type { Resource } from '../document/types.ts';
import { authorizationPolicy, type Rule } from '../config/api/security.ts';
import { cidrContains } from './authz.ts';

export interface EnvoyRequest {
  /** An HTTP request (an HTTP chain); false for a TCP chain. */
  http: boolean;
  method?: string;
  path?: string;
  host?: string;
  headers?: Readonly<Record<string, string>>;
  /** The peer's SPIFFE identity (from its certificate), null for plaintext. */
  sourceIdentity: string | null;
  sourceIp: string;
  destinationIp: string;
  destinationPort: number;
}

export interface EnvoyPolicyResult {
  key: string;
  resourceKey: string;
  action: string;
  matched: boolean;
  why: string;
}

export interface EnvoyDecision {
  decision: 'ALLOW' | 'DENY';
  policy?: string;
  evaluated: EnvoyPolicyResult[];
  why: string;
  notes: string[];
}

const HTTP_SOURCE = ['requestPrincipals', 'notRequestPrincipals'] as const;
const HTTP_OPERATION = ['hosts', 'notHosts', 'methods', 'notMethods', 'paths', 'notPaths'] as const;

function principalOf(id: string | null): string {
  return id?.startsWith('spiffe://') ? id.slice('spiffe://'.length) : '';
}

function namespaceOf(id: string | null): string {
  const m = /\/ns\/([^/]+)\/sa\//.exec(id ?? '');
  return m ? (m[1] as string) : '';
}

/** Istio's string match for policy values: `*` any non-empty, `*x` suffix, `x*` prefix, else exact. */
function valueMatches(pattern: string, value: string | undefined, caseInsensitive = false): boolean {
  if (value === undefined) return false;
  const p = caseInsensitive ? pattern.toLowerCase() : pattern;
  const v = caseInsensitive ? value.toLowerCase() : value;
  if (p === '*') return v !== '';
  if (p.startsWith('*')) return v.endsWith(p.slice(1));
  if (p.endsWith('*')) return v.startsWith(p.slice(0, -1));
  return v === p;
}

function field(pos: readonly string[], neg: readonly string[], test: (p: string) => boolean): boolean {
  if (pos.length > 0 && !pos.some(test)) return false;
  if (neg.length > 0 && neg.some(test)) return false;
  return true;
}

function hostWithoutPort(h: string | undefined): string | undefined {
  if (h === undefined) return undefined;
  const i = h.lastIndexOf(':');
  return i > 0 && /^\d+$/.test(h.slice(i + 1)) ? h.slice(0, i) : h;
}

function whenMatches(key: string, values: readonly string[], notValues: readonly string[], r: EnvoyRequest): boolean | 'http-only' {
  const test = (get: () => string | undefined, f: (p: string, v: string | undefined) => boolean = valueMatches) => field(values, notValues, (p) => f(p, get()));
  const header = /^request\.headers\[(.+)\]$/.exec(key);
  if (header) {
    if (!r.http) return 'http-only';
    const name = (header[1] as string).toLowerCase();
    const h = Object.entries(r.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
    return test(() => h);
  }
  switch (key) {
    case 'source.ip':
    case 'remote.ip':
      return field(values, notValues, (c) => cidrContains(c, r.sourceIp));
    case 'source.namespace':
      return test(() => namespaceOf(r.sourceIdentity));
    case 'source.principal':
      return test(() => principalOf(r.sourceIdentity));
    case 'destination.ip':
      return field(values, notValues, (c) => cidrContains(c, r.destinationIp));
    case 'destination.port':
      return field(values, notValues, (p) => p === String(r.destinationPort));
    default:
      // request.auth.* (no JWT in a simulated request), connection.sni, experimental.*: nothing to match.
      if (key.startsWith('request.')) return r.http ? values.length === 0 : 'http-only';
      return values.length === 0;
  }
}

/** Whether one rule matches, or why not. */
function ruleMatches(rule: Rule, r: EnvoyRequest, action: string, policyNs: string): { matched: boolean; why: string } {
  // On a TCP chain an ALLOW rule with HTTP-only conditions never matches; a DENY rule loses them.
  const hasHttp =
    rule.from.some((f) => f.source !== undefined && HTTP_SOURCE.some((k) => (f.source as NonNullable<typeof f.source>)[k].length > 0)) ||
    rule.to.some((t) => t.operation !== undefined && HTTP_OPERATION.some((k) => (t.operation as NonNullable<typeof t.operation>)[k].length > 0)) ||
    rule.when.some((w) => w.key.startsWith('request.'));
  if (!r.http && hasHttp && action !== 'DENY') return { matched: false, why: 'has HTTP-only conditions, which never match on a TCP chain' };
  const stripHttp = !r.http && action === 'DENY';
  if (rule.from.length > 0) {
    const ok = rule.from.some(({ source: s }) => {
      if (!s) return true;
      if (!field(s.principals, s.notPrincipals, (p) => valueMatches(p, principalOf(r.sourceIdentity)))) return false;
      if (!field(s.namespaces, s.notNamespaces, (p) => valueMatches(p, namespaceOf(r.sourceIdentity)))) return false;
      if (
        !field(s.serviceAccounts, s.notServiceAccounts, (p) => {
          const [ns, sa] = p.includes('/') ? (p.split('/', 2) as [string, string]) : [policyNs, p];
          return r.sourceIdentity !== null && r.sourceIdentity.endsWith(`/ns/${ns}/sa/${sa}`);
        })
      )
        return false;
      if (!field(s.ipBlocks, s.notIpBlocks, (c) => cidrContains(c, r.sourceIp))) return false;
      if (!field(s.remoteIpBlocks, s.notRemoteIpBlocks, (c) => cidrContains(c, r.sourceIp))) return false;
      if (!stripHttp && !field(s.requestPrincipals, s.notRequestPrincipals, () => false)) return false;
      return true;
    });
    if (!ok) return { matched: false, why: 'no `from` source matches' };
  }
  if (rule.to.length > 0) {
    const ok = rule.to.some(({ operation: o }) => {
      if (!o) return true;
      if (!field(o.ports, o.notPorts, (p) => p === String(r.destinationPort))) return false;
      if (stripHttp) return true;
      if (!field(o.hosts, o.notHosts, (h) => valueMatches(h, hostWithoutPort(r.host), true) || valueMatches(h, r.host, true))) return false;
      if (!field(o.methods, o.notMethods, (m) => valueMatches(m, r.method))) return false;
      if (!field(o.paths, o.notPaths, (p) => valueMatches(p, r.path))) return false;
      return true;
    });
    if (!ok) return { matched: false, why: 'no `to` operation matches' };
  }
  for (const w of rule.when) {
    const m = whenMatches(w.key, w.values, w.notValues, r);
    if (m === 'http-only') {
      if (stripHttp) continue;
      return { matched: false, why: `\`when\` ${w.key} needs HTTP` };
    }
    if (!m) return { matched: false, why: `\`when\` ${w.key} does not match` };
  }
  return { matched: true, why: 'a rule matches' };
}

function policyMatches(p: Resource, r: EnvoyRequest): { matched: boolean; why: string } {
  const spec = authorizationPolicy(p);
  const action = spec.action || 'ALLOW';
  if (spec.rules.length === 0) return { matched: false, why: 'no rules: matches nothing' };
  let last = '';
  for (const rule of spec.rules) {
    const m = ruleMatches(rule, r, action, p.namespace);
    if (m.matched) return m;
    last = m.why;
  }
  return { matched: false, why: spec.rules.length === 1 ? last : `no rule matches (${last})` };
}

const isDryRun = (p: Resource) => ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(p.annotations['istio.io/dry-run'] ?? '');

/** Evaluates the attached policies for one request, in Envoy's order. */
export function evaluateEnvoy(policies: readonly Resource[], r: EnvoyRequest): EnvoyDecision {
  const notes: string[] = [];
  const evaluated: EnvoyPolicyResult[] = [];
  const byAction = (a: string) => policies.filter((p) => (authorizationPolicy(p).action || 'ALLOW') === a && !isDryRun(p));
  for (const p of policies) {
    const m = policyMatches(p, r);
    evaluated.push({
      key: `${p.namespace}/${p.name}`,
      resourceKey: p.key,
      action: authorizationPolicy(p).action || 'ALLOW',
      matched: m.matched,
      why: isDryRun(p) ? `dry-run (only logged): ${m.why}` : m.why,
    });
  }
  const result = (p: Resource) => evaluated.find((e) => e.resourceKey === p.key) as EnvoyPolicyResult;
  for (const p of byAction('CUSTOM')) {
    if (result(p).matched)
      notes.push(
        `CUSTOM policy ${p.namespace}/${p.name} sends the request to ext-authz provider "${authorizationPolicy(p).provider?.name ?? ''}"; its answer is not simulated (taken as allow).`,
      );
  }
  const deny = byAction('DENY').find((p) => result(p).matched);
  if (deny) return { decision: 'DENY', policy: `${deny.namespace}/${deny.name}`, evaluated, why: `DENY policy ${deny.namespace}/${deny.name} matches`, notes };
  const allows = byAction('ALLOW');
  if (allows.length === 0)
    return { decision: 'ALLOW', evaluated, why: policies.length === 0 ? 'no policy attached' : 'no DENY matched and no ALLOW policy applies', notes };
  const allow = allows.find((p) => result(p).matched);
  if (allow)
    return { decision: 'ALLOW', policy: `${allow.namespace}/${allow.name}`, evaluated, why: `ALLOW policy ${allow.namespace}/${allow.name} matches`, notes };
  return {
    decision: 'DENY',
    policy: allows.length === 1 ? `${(allows[0] as Resource).namespace}/${(allows[0] as Resource).name}` : undefined,
    evaluated,
    why: `no ALLOW policy matches (${allows.map((p) => `${p.namespace}/${p.name}`).join(', ')}): denied by default`,
    notes,
  };
}
