// L4 authorization in ambient: how istiod turns AuthorizationPolicies and PeerAuthentications
// into ztunnel's Authorization resources (pilot/pkg/serviceregistry/ambient/authorization.go,
// policies.go), which of them apply to a workload (workloads.go buildWorkloadPolicies), and
// how ztunnel evaluates them for a connection (ztunnel src/state.rs assert_rbac, src/rbac.rs).
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { isObj, num, str, type StringMap } from '../document/read.ts';
import type { ConfigView } from '../config/configView.ts';
import { authorizationPolicy, peerAuthentication, type Rule } from '../config/api/security.ts';
import { selectorMatches } from '../config/labels.ts';
import { SelectorIndex } from '../config/selectorIndex.ts';
import { listAt } from '../document/maps.ts';
import { REVISION_LABEL } from '../config/wellKnown.ts';
import { parseIpv4 } from '../config/addresses.ts';
import { ipv6Value } from '../go/netip.ts';

export type L4StringMatch = { type: 'exact' | 'prefix' | 'suffix'; value: string } | { type: 'presence' };

export interface RbacMatch {
  namespaces?: L4StringMatch[];
  notNamespaces?: L4StringMatch[];
  serviceAccounts?: Array<{ namespace: string; serviceAccount: string }>;
  notServiceAccounts?: Array<{ namespace: string; serviceAccount: string }>;
  principals?: L4StringMatch[];
  notPrincipals?: L4StringMatch[];
  sourceIps?: string[];
  notSourceIps?: string[];
  destinationIps?: string[];
  notDestinationIps?: string[];
  destinationPorts?: number[];
  notDestinationPorts?: number[];
}

export type RbacScope = 'Global' | 'Namespace' | 'WorkloadSelector';

/** ztunnel's Authorization (its config_dump names the groups `rules`: groups → clauses → matches). */
export interface ZtunnelAuthorization {
  name: string;
  namespace: string;
  scope: RbacScope;
  action: 'Allow' | 'Deny';
  rules: RbacMatch[][][];
  dryRun: boolean;
}

export interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** One AuthorizationPolicy as ztunnel sees it. */
export interface PolicyConversion {
  resource: Resource;
  /** What istiod sends to ztunnel (absent: nothing is sent). */
  authorization?: ZtunnelAuthorization;
  /** For WORKLOAD_SELECTOR policies: the selector. */
  selector?: StringMap;
  /** The `ZtunnelAccepted` condition istiod writes (absent for targetRefs policies, which ztunnel never sees). */
  condition?: Condition;
  /** Why nothing is sent, when nothing is. */
  excluded?: string;
  /** HTTP attributes istiod dropped (sorted). */
  droppedHttp: string[];
}

const HTTP_OPERATION_FIELDS = ['hosts', 'notHosts', 'methods', 'notMethods', 'paths', 'notPaths'] as const;
const HTTP_SOURCE_FIELDS = ['remoteIpBlocks', 'notRemoteIpBlocks', 'requestPrincipals', 'notRequestPrincipals'] as const;
const L4_WHEN_KEYS = new Set(['source.ip', 'source.namespace', 'source.principal', 'destination.ip', 'destination.port']);

const HTTP_DENY_NO_EFFECT =
  'After omitting unsupported HTTP attributes, this DENY policy has no enforceable rules at ztunnel and will have no effect. Deploy a waypoint proxy and use a targetRef to enforce this policy.';
const HTTP_DENY_MIXED = 'DENY policy with HTTP attributes is enforced without the HTTP rules. This will be more restrictive than requested.';
const HTTP_ALLOW = 'Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.';

export const STATIC_STRICT_POLICY = 'istio_converted_static_strict';

function stringToMatch(values: readonly string[]): L4StringMatch[] {
  return values.map((v) => {
    if (v === '*') return { type: 'presence' as const };
    if (v.startsWith('*')) return { type: 'suffix' as const, value: v.slice(1) };
    if (v.endsWith('*')) return { type: 'prefix' as const, value: v.slice(0, -1) };
    return { type: 'exact' as const, value: v };
  });
}

function stringToPort(values: readonly string[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    if (!/^\d+$/.test(v)) continue;
    const p = Number(v);
    if (p <= 65535) out.push(p);
  }
  return out;
}

function stringToIp(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (v === '') continue;
    const [addr, bits] = v.includes('/') ? (v.split('/', 2) as [string, string]) : [v, undefined];
    if (parseIpv4(addr) !== undefined) {
      if (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > 32)) continue;
      out.push(`${addr}/${bits ?? 32}`);
    } else if (ipv6Value(addr) !== undefined) {
      if (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > 128)) continue;
      out.push(`${addr}/${bits ?? 128}`);
    }
  }
  return out;
}

/**
 * True when a CIDR (`a.b.c.d/n` or an IPv6 `x::/n`; no prefix: a single address) holds the IP,
 * as ztunnel's IpNet::contains (rbac.rs) and Envoy's CidrRange::isInRange do: a /0 holds every
 * address of its family, and an address of the other family is never held.
 */
export function cidrContains(cidr: string, ip: string): boolean {
  const [addr, bitsText] = cidr.split('/', 2) as [string, string];
  const a = parseIpv4(addr);
  const b = parseIpv4(ip);
  if (a !== undefined && b !== undefined) {
    const bits = Number(bitsText ?? 32);
    if (bits === 0) return true;
    const mask = bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
    return (a & mask) >>> 0 === (b & mask) >>> 0;
  }
  const a6 = ipv6Value(addr);
  const b6 = ipv6Value(ip);
  if (a6 !== undefined && b6 !== undefined) {
    const bits = Math.min(Number(bitsText ?? 128), 128);
    if (!Number.isInteger(bits) || bits < 0) return a6 === b6;
    const host = (1n << BigInt(128 - bits)) - 1n;
    return (a6 | host) === (b6 | host);
  }
  return addr === ip;
}

function serviceAccountMatches(values: readonly string[], ruleNamespace: string): Array<{ namespace: string; serviceAccount: string }> {
  return values.map((v) => {
    const slash = v.indexOf('/');
    return slash >= 0 ? { namespace: v.slice(0, slash), serviceAccount: v.slice(slash + 1) } : { namespace: ruleNamespace, serviceAccount: v };
  });
}

function compact(m: RbacMatch): RbacMatch {
  const out: RbacMatch = {};
  for (const [k, v] of Object.entries(m) as Array<[keyof RbacMatch, unknown[] | undefined]>) if (v && v.length > 0) (out as Record<string, unknown>)[k] = v;
  return out;
}

export function isEmptyMatch(m: RbacMatch): boolean {
  return Object.keys(m).length === 0;
}

/** istiod's handleRule: one rule → clauses (to, from, each when), and the HTTP attributes it found. */
function handleRule(action: 'Allow' | 'Deny', rule: Rule, ruleNamespace: string): { clauses: RbacMatch[][] | undefined; http: string[] } {
  const http = new Set<string>();
  const toMatches: RbacMatch[] = [];
  for (const to of rule.to) {
    const op = to.operation;
    if (op) for (const f of HTTP_OPERATION_FIELDS) if (op[f].length > 0) http.add(f);
    toMatches.push(compact({ destinationPorts: stringToPort(op?.ports ?? []), notDestinationPorts: stringToPort(op?.notPorts ?? []) }));
  }
  const fromMatches: RbacMatch[] = [];
  for (const from of rule.from) {
    const s = from.source;
    if (s) for (const f of HTTP_SOURCE_FIELDS) if (s[f].length > 0) http.add(f);
    fromMatches.push(
      compact({
        sourceIps: stringToIp(s?.ipBlocks ?? []),
        notSourceIps: stringToIp(s?.notIpBlocks ?? []),
        namespaces: stringToMatch(s?.namespaces ?? []),
        notNamespaces: stringToMatch(s?.notNamespaces ?? []),
        serviceAccounts: serviceAccountMatches(s?.serviceAccounts ?? [], ruleNamespace),
        notServiceAccounts: serviceAccountMatches(s?.notServiceAccounts ?? [], ruleNamespace),
        principals: stringToMatch(s?.principals ?? []),
        notPrincipals: stringToMatch(s?.notPrincipals ?? []),
      }),
    );
  }
  const clauses: RbacMatch[][] = [];
  if (toMatches.length > 0) clauses.push(toMatches);
  if (fromMatches.length > 0) clauses.push(fromMatches);
  for (const when of rule.when) {
    if (!L4_WHEN_KEYS.has(when.key)) http.add(when.key);
    const pick = <T>(key: string, invert: boolean, f: (v: readonly string[]) => T[]): T[] => (when.key === key ? f(invert ? when.notValues : when.values) : []);
    clauses.push([
      compact({
        namespaces: pick('source.namespace', false, stringToMatch),
        principals: pick('source.principal', false, stringToMatch),
        sourceIps: pick('source.ip', false, stringToIp),
        destinationPorts: pick('destination.port', false, stringToPort),
        destinationIps: pick('destination.ip', false, stringToIp),
        notNamespaces: pick('source.namespace', true, stringToMatch),
        notPrincipals: pick('source.principal', true, stringToMatch),
        notSourceIps: pick('source.ip', true, stringToIp),
        notDestinationPorts: pick('destination.port', true, stringToPort),
        notDestinationIps: pick('destination.ip', true, stringToIp),
      }),
    ]);
  }
  // L7 rules never match for ALLOW; for DENY the rule stays (empty matches are skipped by ztunnel).
  if (action === 'Allow' && http.size > 0) return { clauses: undefined, http: [...http] };
  return { clauses, http: [...http] };
}

/** Whether some group can fire at ztunnel (a group whose every clause has a non-empty match). */
export function hasEffectiveRules(groups: readonly RbacMatch[][][]): boolean {
  return groups.some((g) => g.length === 0 || g.every((clause) => clause.some((m) => !isEmptyMatch(m))));
}

function hasTargetRefs(r: Resource): boolean {
  const spec = isObj(r.body.spec) ? r.body.spec : {};
  return (Array.isArray(spec.targetRefs) && spec.targetRefs.length > 0) || isObj(spec.targetRef);
}

/** istiod's convertAuthorizationPolicy, with the status it writes. */
export function convertAuthorizationPolicy(r: Resource, rootNamespace: string): PolicyConversion {
  const spec = authorizationPolicy(r);
  const dryRunText = r.annotations['istio.io/dry-run'];
  const dryRun = dryRunText !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(dryRunText);
  if (dryRun) {
    const message = `found policy "${r.namespace}/${r.name}" using dry-run annotation, but support for ambient dry-run authorizationPolicies isn't enabled`;
    return {
      resource: r,
      condition: { type: 'ZtunnelAccepted', status: 'False', reason: 'UnsupportedValue', message },
      excluded: 'dry-run (istio.io/dry-run): not sent to ztunnel unless AMBIENT_ENABLE_DRY_RUN_AUTHORIZATION_POLICY',
      droppedHttp: [],
    };
  }
  if (hasTargetRefs(r)) return { resource: r, excluded: 'has targetRefs: never sent to ztunnel (it is for a waypoint or gateway)', droppedHttp: [] };
  const hasSelector = isObj(r.body.spec) && isObj((r.body.spec as Record<string, unknown>).selector);
  let scope: RbacScope = 'WorkloadSelector';
  if (!hasSelector) scope = r.namespace === rootNamespace ? 'Global' : 'Namespace';
  const actionText = spec.action || 'ALLOW';
  if (actionText !== 'ALLOW' && actionText !== 'DENY') {
    const message = `ztunnel does not support the ${actionText} action`;
    return {
      resource: r,
      condition: { type: 'ZtunnelAccepted', status: 'False', reason: 'UnsupportedValue', message },
      excluded: `${actionText} is not supported by ztunnel (status ZtunnelAccepted=False, '${message}')`,
      droppedHttp: [],
    };
  }
  const action = actionText === 'DENY' ? 'Deny' : 'Allow';
  const groups: RbacMatch[][][] = [];
  const http = new Set<string>();
  for (const rule of spec.rules) {
    const { clauses, http: found } = handleRule(action, rule, r.namespace);
    if (clauses) groups.push(clauses);
    for (const f of found) http.add(f);
  }
  const authorization: ZtunnelAuthorization = { name: r.name, namespace: r.namespace, scope, action, rules: groups, dryRun: false };
  // istiod attaches a WORKLOAD_SELECTOR policy by GetSelector().GetMatchLabels(): a selector
  // without matchLabels is nil there and selects no workload (buildWorkloadPolicies).
  const rawSelector = hasSelector ? ((r.body.spec as Record<string, unknown>).selector as Record<string, unknown>) : undefined;
  const selector = rawSelector && isObj(rawSelector.matchLabels) ? spec.selector?.matchLabels : undefined;
  const droppedHttp = [...http].sort();
  let condition: Condition = { type: 'ZtunnelAccepted', status: 'True', reason: 'Accepted', message: 'attached to ztunnel' };
  if (droppedHttp.length > 0) {
    const boilerplate = action === 'Deny' ? (hasEffectiveRules(groups) ? HTTP_DENY_MIXED : HTTP_DENY_NO_EFFECT) : HTTP_ALLOW;
    condition = {
      type: 'ZtunnelAccepted',
      status: 'True',
      reason: 'UnsupportedValue',
      message: `ztunnel does not support HTTP attributes (found: ${droppedHttp.join(', ')}). In ambient mode you must use a waypoint proxy to enforce HTTP rules. ${boilerplate}`,
    };
  }
  return { resource: r, authorization, ...(selector ? { selector } : {}), condition, droppedHttp };
}

// ---- PeerAuthentication -------------------------------------------------------------

type MtlsMode = 'UNSET' | 'STRICT' | 'PERMISSIVE' | 'DISABLE';

function mode(v: string | undefined): MtlsMode {
  return v === 'STRICT' || v === 'PERMISSIVE' || v === 'DISABLE' ? v : 'UNSET';
}

interface PeerAuthn {
  resource: Resource;
  order: number;
  created: string;
  selector: StringMap | undefined;
  mode: MtlsMode;
  /** The spec has an `mtls` block at all (istiod's "unset" also covers a missing block). */
  ports: Array<{ port: number; mode: MtlsMode }>;
}

function readPeerAuthn(r: Resource, order: number): PeerAuthn {
  const spec = peerAuthentication(r);
  const meta = isObj(r.body.metadata) ? r.body.metadata : {};
  const sel = spec.selector?.matchLabels;
  const ports: PeerAuthn['ports'] = [];
  if (isObj(spec.portLevelMtls)) {
    for (const [k, v] of Object.entries(spec.portLevelMtls)) {
      const port = num(k);
      if (port <= 0) continue;
      ports.push({ port, mode: mode(isObj(v) ? str(v.mode) : undefined) });
    }
  }
  ports.sort((a, b) => a.port - b.port);
  return {
    resource: r,
    order,
    created: str(meta.creationTimestamp),
    selector: sel && Object.keys(sel).length > 0 ? sel : undefined,
    mode: mode(spec.mtls?.mode),
    ports,
  };
}

function older(a: PeerAuthn, b: PeerAuthn): boolean {
  if (a.created !== b.created && a.created !== '' && b.created !== '') return a.created < b.created;
  return a.order < b.order;
}

function oldest(list: readonly PeerAuthn[]): PeerAuthn | undefined {
  let out: PeerAuthn | undefined;
  for (const p of list) if (!out || older(p, out)) out = p;
  return out;
}

export const convertedPeerAuthenticationName = (name: string) => `converted_peer_authentication_${name}`;

const presence: L4StringMatch = { type: 'presence' };

/** istiod's convertPeerAuthentication: the DENY policy that encodes a workload policy's port exceptions (or nothing). */
function convertPeerAuthentication(
  pa: PeerAuthn,
  ns: PeerAuthn | undefined,
  root: PeerAuthn | undefined,
  rootNamespace: string,
): ZtunnelAuthorization | undefined {
  if (pa.resource.namespace === rootNamespace || !pa.selector || pa.ports.length === 0) return undefined;
  const rules: RbacMatch[][] = [];
  const groups: RbacMatch[][][] = [];
  if (pa.mode === 'STRICT') rules.push([{ notPrincipals: [presence] }]);
  let foundNonStrict = false;
  for (const { port, mode: pm } of pa.ports) {
    if (pm === 'STRICT') {
      if (
        pa.mode === 'STRICT' ||
        (pa.mode === 'UNSET' && ns !== undefined && ns.mode === 'STRICT') ||
        ((ns === undefined || ns.mode === 'UNSET') && root !== undefined && root.mode === 'STRICT')
      )
        continue;
      groups.push([[{ notPrincipals: [presence], destinationPorts: [port] }]]);
    } else if (pm === 'PERMISSIVE' || pm === 'DISABLE') {
      if (pa.mode === 'PERMISSIVE' || pa.mode === 'DISABLE') continue;
      if (
        pa.mode === 'UNSET' &&
        ((ns !== undefined && ns.mode !== 'STRICT') ||
          (ns === undefined && root !== undefined && root.mode !== 'STRICT') ||
          (ns === undefined && root === undefined))
      )
        continue;
      foundNonStrict = true;
      rules.push([{ notDestinationPorts: [port] }]);
    }
  }
  if (pa.mode === 'STRICT' && !foundNonStrict) return undefined;
  if (rules.length === 0 && groups.length === 0) return undefined;
  let mergeStrict = false;
  if (root !== undefined && root.mode === 'STRICT' && (ns === undefined || ns.mode === 'UNSET' || ns.mode === 'STRICT')) mergeStrict = true;
  else if (ns !== undefined && ns.mode === 'STRICT') mergeStrict = true;
  if (mergeStrict && foundNonStrict) rules.push([{ notPrincipals: [presence] }]);
  if (rules.length > 0) groups.push(rules);
  return {
    name: convertedPeerAuthenticationName(pa.resource.name),
    namespace: pa.resource.namespace,
    scope: 'WorkloadSelector',
    action: 'Deny',
    rules: groups,
    dryRun: false,
  };
}

// ---- the policy set -------------------------------------------------------------------

export interface PolicySet {
  /** Every Authorization sent to ztunnel, by `ns/name`. */
  byKey: Map<string, ZtunnelAuthorization>;
  /** Each AuthorizationPolicy's fate (sent or not, and its condition). */
  conversions: PolicyConversion[];
  /** Selector-based Authorizations (from AuthorizationPolicies), with their selectors. */
  selectorPolicies: Array<{ key: string; namespace: string; selector: StringMap }>;
  peerAuthns: PeerAuthn[];
  /** PeerAuthentication-derived Authorizations, by the PeerAuthentication's `ns/name`. */
  convertedPeerAuthns: Map<string, ZtunnelAuthorization>;
  rootNamespace: string;
}

interface PolicyIndex {
  selectorPolicies: SelectorIndex<string>;
  peerAuthns: Map<string, PeerAuthn[]>;
}

/** What each workload looks up: the selector policies by label, the PeerAuthentications by namespace (a cluster has thousands of workloads). */
function policyIndex(set: PolicySet): PolicyIndex {
  const known = POLICY_INDEXES.get(set);
  if (known) return known;
  const selectorPolicies = new SelectorIndex<string>();
  for (const p of set.selectorPolicies) selectorPolicies.add(p.namespace, p.selector, p.key);
  const peerAuthns = new Map<string, PeerAuthn[]>();
  for (const p of set.peerAuthns) listAt(peerAuthns, p.resource.namespace).push(p);
  const index = { selectorPolicies, peerAuthns };
  POLICY_INDEXES.set(set, index);
  return index;
}

/** policyIndex per policy set, built on first use. */
const POLICY_INDEXES = new WeakMap<PolicySet, PolicyIndex>();

function peerAuthnsIn(set: PolicySet, namespace: string): readonly PeerAuthn[] {
  return policyIndex(set).peerAuthns.get(namespace) ?? [];
}

/** Everything istiod sends to ztunnel as Authorizations, built once per mesh version. */
export function buildPolicySet(view: ConfigView, revision = 'default'): PolicySet {
  const rootNamespace = view.meshConfig.rootNamespace || 'istio-system';
  const byKey = new Map<string, ZtunnelAuthorization>();
  const conversions: PolicyConversion[] = [];
  const selectorPolicies: PolicySet['selectorPolicies'] = [];
  for (const r of view.list(KINDS.AuthorizationPolicy)) {
    const rev = r.labels[REVISION_LABEL];
    if (rev !== undefined && rev !== revision && !(revision === 'default' && rev === '')) {
      conversions.push({ resource: r, excluded: `labelled ${REVISION_LABEL}=${rev}: another revision's istiod handles it`, droppedHttp: [] });
      continue;
    }
    const c = convertAuthorizationPolicy(r, rootNamespace);
    conversions.push(c);
    if (!c.authorization) continue;
    const key = `${r.namespace}/${r.name}`;
    byKey.set(key, c.authorization);
    if (c.authorization.scope === 'WorkloadSelector' && c.selector) selectorPolicies.push({ key, namespace: r.namespace, selector: c.selector });
  }
  const peerAuthns = view.list(KINDS.PeerAuthentication).map((r, i) => readPeerAuthn(r, i));
  const convertedPeerAuthns = new Map<string, ZtunnelAuthorization>();
  const nsLevel = (ns: string) => oldest(peerAuthns.filter((p) => p.resource.namespace === ns && !p.selector));
  const rootLevel = nsLevel(rootNamespace);
  for (const pa of peerAuthns) {
    const converted = convertPeerAuthentication(pa, nsLevel(pa.resource.namespace), rootLevel, rootNamespace);
    if (!converted) continue;
    convertedPeerAuthns.set(`${pa.resource.namespace}/${pa.resource.name}`, converted);
    byKey.set(`${converted.namespace}/${converted.name}`, converted);
  }
  if (peerAuthns.length > 0) {
    byKey.set(`${rootNamespace}/${STATIC_STRICT_POLICY}`, {
      name: STATIC_STRICT_POLICY,
      namespace: rootNamespace,
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[{ notPrincipals: [presence] }]]],
      dryRun: false,
    });
  }
  return { byKey, conversions, selectorPolicies, peerAuthns, convertedPeerAuthns, rootNamespace };
}

export interface EffectiveMtls {
  mode: 'STRICT' | 'PERMISSIVE' | 'DISABLE' | 'UNSET';
  /** The PeerAuthentication that decided (workload, namespace or mesh level). */
  from?: string;
}

/** istiod's convertedSelectorPeerAuthentications: the PeerAuthentication-derived keys a workload lists. */
function peerAuthnKeys(set: PolicySet, namespace: string, labels: StringMap): string[] {
  const root = set.rootNamespace;
  const relevant = peerAuthnsIn(set, namespace).filter((p) => !p.selector || selectorMatches(p.selector, labels));
  if (namespace !== root) for (const p of peerAuthnsIn(set, root)) if (!p.selector) relevant.push(p);
  let mesh: PeerAuthn | undefined;
  let nsCfg: PeerAuthn | undefined;
  let wl: PeerAuthn | undefined;
  for (const p of relevant) {
    if (!p.selector) {
      if (p.resource.namespace === root) {
        if (!mesh || older(p, mesh)) mesh = p;
      } else if (!nsCfg || older(p, nsCfg)) nsCfg = p;
    } else if (p.resource.namespace !== root && (!wl || older(p, wl))) wl = p;
  }
  let strict = false;
  if (mesh) strict = mesh.mode === 'STRICT';
  if (nsCfg && nsCfg.mode !== 'UNSET') strict = nsCfg.mode === 'STRICT';
  let portKey = '';
  if (wl) {
    if (wl.mode === 'STRICT') strict = true;
    if (wl.mode === 'PERMISSIVE' || wl.mode === 'DISABLE') strict = false;
    if (wl.ports.length > 0) {
      const key = `${wl.resource.namespace}/${convertedPeerAuthenticationName(wl.resource.name)}`;
      if (wl.mode === 'STRICT') {
        if (wl.ports.some((p) => p.mode === 'PERMISSIVE' || p.mode === 'DISABLE')) {
          portKey = key;
          strict = false;
        }
      } else if (wl.mode === 'PERMISSIVE' || wl.mode === 'DISABLE') {
        if (wl.ports.some((p) => p.mode === 'STRICT')) portKey = key;
      } else if (strict) {
        if (wl.ports.some((p) => p.mode === 'PERMISSIVE')) {
          portKey = key;
          strict = false;
        }
      } else {
        strict = false;
        if (wl.ports.some((p) => p.mode === 'STRICT')) portKey = key;
      }
    }
  }
  const out = new Set<string>();
  if (strict) out.add(`${root}/${STATIC_STRICT_POLICY}`);
  if (portKey !== '') out.add(portKey);
  return [...out].sort();
}

/** The effective PeerAuthentication mode of a workload (workload > namespace > mesh; UNSET inherits). */
export function effectiveMtls(set: PolicySet, namespace: string, labels: StringMap): EffectiveMtls {
  const root = set.rootNamespace;
  const pick = (list: PeerAuthn[]) => oldest(list);
  const mesh = pick(peerAuthnsIn(set, root).filter((p) => !p.selector));
  const ns = namespace === root ? undefined : pick(peerAuthnsIn(set, namespace).filter((p) => !p.selector));
  const wl = namespace === root ? undefined : pick(peerAuthnsIn(set, namespace).filter((p) => p.selector && selectorMatches(p.selector, labels)));
  let out: EffectiveMtls = { mode: 'UNSET' };
  for (const p of [mesh, ns, wl]) if (p && p.mode !== 'UNSET') out = { mode: p.mode, from: `${p.resource.namespace}/${p.resource.name}` };
  return out;
}

/** The `authorization_policies` istiod lists on a workload: matching selector policies (its namespace or the root namespace), sorted, then the PeerAuthentication-derived keys. */
export function workloadPolicyKeys(set: PolicySet, namespace: string, labels: StringMap): string[] {
  const index = policyIndex(set).selectorPolicies;
  const selected = index.matching(namespace, labels);
  if (namespace !== set.rootNamespace) for (const key of index.matching(set.rootNamespace, labels)) selected.push(key);
  selected.sort();
  return [...selected, ...peerAuthnKeys(set, namespace, labels)];
}

// ---- evaluation ---------------------------------------------------------------------

export interface L4Connection {
  srcIp: string;
  dstIp: string;
  /** The target (container) port at the destination pod. */
  dstPort: number;
  /** The peer's SPIFFE identity, or null for plaintext. */
  srcIdentity: string | null;
}

export interface PolicyResult {
  key: string;
  action: 'Allow' | 'Deny';
  scope: RbacScope;
  matched: boolean;
  /** Why it matched or not, briefly. */
  why: string;
}

export interface L4Decision {
  decision: 'ALLOW' | 'DENY';
  /** ztunnel's reason: ExplicitlyDenied, NotAllowed, or the allow path taken. */
  code: 'ExplicitlyDenied' | 'NotAllowed' | 'NoAllowPolicies' | 'AllowMatched';
  /** The policy that decided (the matching DENY or ALLOW). */
  policy?: string;
  policyScope?: RbacScope;
  /** Every policy ztunnel looked at, in its order (namespace, global, workload). */
  evaluated: PolicyResult[];
  why: string;
}

function stringMatches(m: L4StringMatch, check: string): boolean {
  switch (m.type) {
    case 'presence':
      return check !== '';
    case 'exact':
      return check === m.value;
    case 'prefix':
      return check.startsWith(m.value);
    case 'suffix':
      return check.endsWith(m.value);
  }
}

function field<T>(positive: readonly T[] | undefined, negative: readonly T[] | undefined, pred: (t: T) => boolean): boolean {
  const pm = !positive || positive.length === 0 ? true : positive.some(pred);
  const nm = !negative || negative.length === 0 ? true : !negative.some(pred);
  return pm && nm;
}

function parseIdentity(id: string | null): { namespace: string; serviceAccount: string } | undefined {
  if (!id) return undefined;
  const m = /^spiffe:\/\/[^/]+\/ns\/([^/]+)\/sa\/([^/]+)$/.exec(id);
  return m ? { namespace: m[1] as string, serviceAccount: m[2] as string } : undefined;
}

/** ztunnel's Authorization::matches. */
export function policyMatches(p: ZtunnelAuthorization, conn: L4Connection): boolean {
  const id = conn.srcIdentity ?? '';
  const parsed = parseIdentity(conn.srcIdentity);
  const ns = parsed?.namespace ?? '';
  if (p.rules.length === 0) return false;
  for (const group of p.rules) {
    let groupMatch = true;
    for (const clause of group) {
      let clauseMatch = false;
      for (const m of clause) {
        if (isEmptyMatch(m)) continue;
        let ok = true;
        ok &&= field(m.destinationIps, m.notDestinationIps, (c) => cidrContains(c, conn.dstIp));
        ok &&= field(m.sourceIps, m.notSourceIps, (c) => cidrContains(c, conn.srcIp));
        ok &&= field(m.destinationPorts, m.notDestinationPorts, (port) => port === conn.dstPort);
        ok &&= field(
          m.serviceAccounts,
          m.notServiceAccounts,
          (sa) => parsed !== undefined && parsed.namespace === sa.namespace && parsed.serviceAccount === sa.serviceAccount,
        );
        ok &&= field(m.principals, m.notPrincipals, (s) => id.startsWith('spiffe://') && stringMatches(s, id.slice('spiffe://'.length)));
        ok &&= field(m.namespaces, m.notNamespaces, (s) => stringMatches(s, ns));
        if (ok) {
          clauseMatch = true;
          break;
        }
      }
      if (clause.length === 0) clauseMatch = true;
      groupMatch &&= clauseMatch;
      if (!groupMatch) break;
    }
    if (groupMatch) return true;
  }
  return false;
}

/** The policies ztunnel checks for a destination workload, in its order: its namespace's, the global ones, then the workload's list. */
export function applicablePolicies(set: PolicySet, namespace: string, workloadKeys: readonly string[]): ZtunnelAuthorization[] {
  const out: ZtunnelAuthorization[] = [];
  const seen = new Set<string>();
  const add = (key: string) => {
    const p = set.byKey.get(key);
    if (p && !seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  };
  for (const [key, p] of set.byKey) if (p.scope === 'Namespace' && p.namespace === namespace) add(key);
  for (const [key, p] of set.byKey) if (p.scope === 'Global') add(key);
  for (const key of workloadKeys) add(key);
  return out;
}

/** ztunnel's assert_rbac: DENY first, then ALLOW (none → allow; some, none matching → deny). */
export function evaluateL4(policies: readonly ZtunnelAuthorization[], conn: L4Connection): L4Decision {
  const evaluated: PolicyResult[] = policies.map((p) => {
    const matched = policyMatches(p, conn);
    const why = p.rules.length === 0 ? 'no rules: never matches' : matched ? 'a rule matches' : 'no rule matches';
    return { key: `${p.namespace}/${p.name}`, action: p.action, scope: p.scope, matched, why };
  });
  const live = evaluated.filter((_, i) => !(policies[i] as ZtunnelAuthorization).dryRun);
  const deny = live.find((e) => e.action === 'Deny' && e.matched);
  if (deny) return { decision: 'DENY', code: 'ExplicitlyDenied', policy: deny.key, policyScope: deny.scope, evaluated, why: `DENY policy ${deny.key} matches` };
  const allows = live.filter((e) => e.action === 'Allow');
  if (allows.length === 0) return { decision: 'ALLOW', code: 'NoAllowPolicies', evaluated, why: 'no DENY matched and no ALLOW policy applies' };
  const allow = allows.find((e) => e.matched);
  if (allow)
    return { decision: 'ALLOW', code: 'AllowMatched', policy: allow.key, policyScope: allow.scope, evaluated, why: `ALLOW policy ${allow.key} matches` };
  return {
    decision: 'DENY',
    code: 'NotAllowed',
    evaluated,
    why: `ALLOW policies apply (${allows.map((a) => a.key).join(', ')}) and none matches: default deny`,
  };
}

/** A match as one line of text: `field: values` for each populated field (`presence` for `*`). */
export function matchText(m: RbacMatch): string {
  const sm = (s: L4StringMatch) => (s.type === 'presence' ? 'presence' : s.type === 'exact' ? s.value : s.type === 'prefix' ? `${s.value}*` : `*${s.value}`);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(m) as Array<[string, unknown[]]>) {
    const values = v.map((x) =>
      typeof x === 'number'
        ? String(x)
        : typeof x === 'string'
          ? x
          : 'type' in (x as object)
            ? sm(x as L4StringMatch)
            : `${(x as { namespace: string }).namespace}/${(x as { serviceAccount: string }).serviceAccount}`,
    );
    parts.push(`${k}: ${values.join(', ')}`);
  }
  return parts.join('; ');
}
