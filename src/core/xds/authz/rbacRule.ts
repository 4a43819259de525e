// One AuthorizationPolicy rule as Envoy RBAC sees it (pilot/pkg/security/authz/model):
// `to` operations and the destination-side `when` keys become permissions, `from` sources
// and the source-side `when` keys become principals. Each value list becomes one OR entry,
// each not-list one NOT(OR) entry, and the entries of a permission or principal are AND-ed.
//
// Field order inside a permission: hosts, methods, paths, ports, then `when` keys in order;
// inside a principal: principals, requestPrincipals, serviceAccounts, trustDomains,
// namespaces, remoteIpBlocks, ipBlocks, then `when` keys in order (Istio inserts the source
// fields at the front in the reverse order).
import {
  type JsonObject,
  type StringMatcher,
  type ValueMatcher,
  containsPathTemplate,
  headerMatcher,
  hostMatcher,
  metadataListMatcher,
  metadataListValueMatcher,
  metadataStringMatcher,
  metadataValueMatcher,
  orMatcher,
  pathMatcher,
  pathTemplateMatcher,
  quoteMeta,
  stringMatcher,
  stringMatcherExact,
  stringMatcherPrefix,
  stringMatcherRegex,
  stringMatcherSuffix,
  stringMatcherWithPrefix,
  stringOrMatcher,
} from './matcher.ts';
import { goQuote } from '../../go/fmt.ts';
import { numError, parseUint10 } from '../../go/strconv.ts';
import { addrToCidrRange, type CidrRange } from './cidrRange.ts';
import { expandTrustDomainAliases, replaceTrustDomainAliases, type TrustDomainBundle } from './trustDomain.ts';

/** envoy.config.rbac.v3.Permission / Principal / Policy in proto3 JSON. */
export type Permission = JsonObject;
export type Principal = JsonObject;
export interface RbacPolicy extends JsonObject {
  permissions: Permission[];
  principals: Principal[];
}

/** RBAC actions (envoy.config.rbac.v3.RBAC.Action). */
export type RbacAction = 'ALLOW' | 'DENY' | 'LOG';

export const RBAC_TCP_FILTER_STAT_PREFIX = 'tcp.';
export const RBAC_SHADOW_EFFECTIVE_POLICY_ID = 'shadow_effective_policy_id';
export const RBAC_SHADOW_RULES_ALLOW_STAT_PREFIX = 'istio_dry_run_allow_';
export const RBAC_SHADOW_RULES_DENY_STAT_PREFIX = 'istio_dry_run_deny_';
export const RBAC_EXT_AUTHZ_SHADOW_RULES_STAT_PREFIX = 'istio_ext_authz_';

/** The jwt_authn filter and the metadata key its payload is written under. */
export const JWT_FILTER_NAME = 'envoy.filters.http.jwt_authn';
export const JWT_FILTER_PAYLOAD = 'payload';

const ATTR_REQUEST_HEADER = 'request.headers';
const ATTR_SRC_IP = 'source.ip';
const ATTR_REMOTE_IP = 'remote.ip';
const ATTR_SRC_NAMESPACE = 'source.namespace';
const ATTR_SRC_SERVICE_ACCOUNT = 'source.serviceAccount';
const ATTR_SRC_TRUST_DOMAIN = 'source.trustDomain';
const ATTR_SRC_PRINCIPAL = 'source.principal';
const ATTR_REQUEST_PRINCIPAL = 'request.auth.principal';
const ATTR_REQUEST_AUDIENCES = 'request.auth.audiences';
const ATTR_REQUEST_PRESENTER = 'request.auth.presenter';
const ATTR_REQUEST_CLAIMS = 'request.auth.claims';
const ATTR_DEST_IP = 'destination.ip';
const ATTR_DEST_PORT = 'destination.port';
const ATTR_CONN_SNI = 'connection.sni';
const ATTR_ENVOY_FILTER = 'experimental.envoy.filters.';

const METHOD_HEADER = ':method';
const PATH_MATCHER = 'path-matcher';
const HOST_HEADER = ':authority';

const SPIFFE_PREFIX = 'spiffe://';
const PEER_PRINCIPAL_FILTER_STATE = 'io.istio.peer_principal';

/** A generator's refusal (an HTTP-only field on TCP, a bad IP, an unknown key…). */
export class Refusal {
  constructor(readonly message: string) {}
}

type Result<T> = T | Refusal | null;

// ---------------------------------------------------------------------------------------
// Envoy RBAC building blocks

export const permissionAny = (): Permission => ({ any: true });
export const permissionAnd = (rules: Permission[]): Permission => ({ andRules: { rules } });
export const permissionOr = (rules: Permission[]): Permission => ({ orRules: { rules } });
export const permissionNot = (p: Permission): Permission => ({ notRule: p });
export const principalAny = (): Principal => ({ any: true });
export const principalAnd = (ids: Principal[]): Principal => ({ andIds: { ids } });
export const principalOr = (ids: Principal[]): Principal => ({ orIds: { ids } });
export const principalNot = (p: Principal): Principal => ({ notId: p });

function cidr(c: CidrRange): JsonObject {
  return { addressPrefix: c.addressPrefix, prefixLen: c.prefixLen };
}

/** Authenticated peer principal (sidecars, gateways), or the peer principal in filter state (waypoints). */
function principalAuthenticated(name: StringMatcher, useAuthenticated: boolean): Principal {
  if (useAuthenticated) return { authenticated: { principalName: name } };
  return { filterState: { key: PEER_PRINCIPAL_FILTER_STATE, stringMatch: name } };
}

// ---------------------------------------------------------------------------------------
// JWT claim matchers (model/util.go)

export function metadataStringMatcherForJwtClaim(claim: string, m: StringMatcher): JsonObject {
  return { filter: JWT_FILTER_NAME, path: [{ key: JWT_FILTER_PAYLOAD }, { key: claim }], value: { stringMatch: m } };
}

export function metadataListValueMatcherForJwtClaims(claims: readonly string[], value: ValueMatcher): JsonObject {
  return metadataListValueMatcher(JWT_FILTER_NAME, [JWT_FILTER_PAYLOAD, ...claims], value, true);
}

export function metadataMatcherForJwtClaims(claims: readonly string[], value: StringMatcher): JsonObject {
  return metadataListMatcher(JWT_FILTER_NAME, [JWT_FILTER_PAYLOAD, ...claims], value, true);
}

function convertToPort(v: string): number | Refusal {
  // strconv.ParseUint(v, 10, 32), then at most 65535.
  const n = parseUint10(v, 32);
  if (typeof n === 'string') return new Refusal(`invalid port ${v}: ${numError('ParseUint', v, n)}`);
  if (n > 65535n) return new Refusal(`invalid port ${v}: <nil>`);
  return Number(n);
}

function extractNameInBrackets(s: string): string | Refusal {
  if (!s.startsWith('[') || !s.endsWith(']')) return new Refusal(`expecting format [<NAME>], but found ${s}`);
  // TrimPrefix(TrimSuffix(s, "]"), "[")
  return s.slice(0, -1).replace(/^\[/, '');
}

function extractNameInNestedBrackets(s: string): string[] | Refusal {
  const claims: string[] = [];
  const findEndBracket = (begin: number): number => {
    if (begin >= s.length || s[begin] !== '[') return -1;
    for (let i = begin + 1; i < s.length; i++) {
      if (s[i] === '[') return -1;
      if (s[i] === ']') return i;
    }
    return -1;
  };
  for (let begin = 0; begin < s.length; ) {
    const end = findEndBracket(begin);
    if (end === -1) {
      const one = extractNameInBrackets(s);
      return one instanceof Refusal ? one : [one];
    }
    claims.push(s.slice(begin + 1, end));
    begin = end + 1;
  }
  return claims;
}

/** Go's strings.Trim(s, "[]"). */
function trimBrackets(s: string): string {
  return s.replace(/^[[\]]+/, '').replace(/[[\]]+$/, '');
}

function isListValue(v: string): boolean {
  return v.startsWith('[') && v.endsWith(']');
}

// ---------------------------------------------------------------------------------------
// Generators (model/generator.go)

interface Generator {
  permission(key: string, value: string, forTCP: boolean): Result<Permission>;
  principal(key: string, value: string, forTCP: boolean, useAuthenticated: boolean): Result<Principal>;
}

interface ExtendedGenerator {
  extendedPermission(key: string, values: readonly string[], forTCP: boolean): Result<Permission>;
  extendedPrincipal(key: string, values: readonly string[], forTCP: boolean): Result<Principal>;
}

const unimplemented = (): Refusal => new Refusal('unimplemented');
const httpOnly = (key: string): Refusal => new Refusal(`${goQuote(key)} is HTTP only`);

const destIPGenerator: Generator = {
  permission: (_k, value) => {
    const c = addrToCidrRange(value);
    return 'error' in c ? new Refusal(c.error) : { destinationIp: cidr(c) };
  },
  principal: unimplemented,
};

const destPortGenerator: Generator = {
  permission: (_k, value) => {
    const p = convertToPort(value);
    return p instanceof Refusal ? p : { destinationPort: p };
  },
  principal: unimplemented,
};

const connSNIGenerator: Generator = {
  permission: (_k, value) => ({ requestedServerName: stringMatcher(value) }),
  principal: unimplemented,
};

function envoyFilterKeyParts(key: string): string[] | Refusal {
  // "experimental.envoy.filters.a.b[c]" → ["envoy.filters.a.b", "c"]
  let k = key.startsWith('experimental.') ? key.slice('experimental.'.length) : key;
  if (k.endsWith(']')) k = k.slice(0, -1);
  const i = k.indexOf('[');
  if (i < 0) return new Refusal(`invalid key: ${key}`);
  return [k.slice(0, i), k.slice(i + 1)];
}

const envoyFilterGenerator: Generator & ExtendedGenerator = {
  permission: (key, value) => {
    const parts = envoyFilterKeyParts(key);
    if (parts instanceof Refusal) return parts;
    const [filter, k] = parts as [string, string];
    if (isListValue(value)) return { metadata: metadataListMatcher(filter, [k], stringMatcher(trimBrackets(value)), false) };
    return { metadata: metadataStringMatcher(filter, k, stringMatcher(value)) };
  },
  extendedPermission: (key, values) => {
    const parts = envoyFilterKeyParts(key);
    if (parts instanceof Refusal) return parts;
    const [filter, k] = parts as [string, string];
    const matchers: ValueMatcher[] = values.map(
      (value): ValueMatcher =>
        isListValue(value) ? { listMatch: { oneOf: { stringMatch: stringMatcher(trimBrackets(value)) } } } : { stringMatch: stringMatcher(value) },
    );
    return { metadata: metadataValueMatcher(filter, k, orMatcher(matchers)) };
  },
  principal: unimplemented,
  extendedPrincipal: unimplemented,
};

const srcIPGenerator: Generator = {
  permission: unimplemented,
  principal: (_k, value) => {
    const c = addrToCidrRange(value);
    return 'error' in c ? new Refusal(c.error) : { directRemoteIp: cidr(c) };
  },
};

const remoteIPGenerator: Generator = {
  permission: unimplemented,
  principal: (_k, value) => {
    const c = addrToCidrRange(value);
    return 'error' in c ? new Refusal(c.error) : { remoteIp: cidr(c) };
  },
};

const srcNamespaceGenerator: Generator = {
  permission: unimplemented,
  principal: (_k, value, _tcp, useAuthenticated) => {
    const regexNamespace = value.split('*').map(quoteMeta).join('.*');
    return principalAuthenticated(stringMatcherRegex(`.*/ns/${regexNamespace}/.*`), useAuthenticated);
  },
};

/**
 * serviceAccountRegex: `[<namespace>/]<name>`, the namespace defaulting to the policy's.
 * Matches `spiffe://<td…>/ns/<ns>/<optional k/v pairs>/sa/<sa>` optionally followed by more
 * `/k/v` pairs (the `/` keeps `<sa>-junk` out).
 */
export function serviceAccountRegex(defaultNamespace: string, value: string): string {
  const slash = value.indexOf('/');
  const ns = slash < 0 ? defaultNamespace : value.slice(0, slash);
  const sa = slash < 0 ? value : value.slice(slash + 1);
  return `spiffe://.+/ns/${quoteMeta(ns)}/(.+/|)sa/${quoteMeta(sa)}(/.+)?`;
}

function srcServiceAccountGenerator(policyNamespace: string): Generator {
  return {
    permission: unimplemented,
    principal: (_k, value, _tcp, useAuthenticated) => principalAuthenticated(stringMatcherRegex(serviceAccountRegex(policyNamespace, value)), useAuthenticated),
  };
}

const srcTrustDomainGenerator: Generator = {
  permission: unimplemented,
  principal: (_k, value, _tcp, useAuthenticated) => {
    let m: StringMatcher;
    if (value === '*') {
      m = stringMatcherPrefix(SPIFFE_PREFIX, false);
    } else if (!value.includes('*')) {
      m = stringMatcherPrefix(`${SPIFFE_PREFIX}${value}/`, false);
    } else {
      // SplitN(value, "*", 2): only the first `*` is a wildcard; a second one is quoted.
      const i = value.indexOf('*');
      const escaped = `${quoteMeta(value.slice(0, i))}[^/]*${quoteMeta(value.slice(i + 1))}`;
      m = stringMatcherRegex(`spiffe://${escaped}/.*`);
    }
    return principalAuthenticated(m, useAuthenticated);
  },
};

const srcPrincipalGenerator: Generator = {
  permission: unimplemented,
  principal: (_k, value, _tcp, useAuthenticated) => principalAuthenticated(stringMatcherWithPrefix(value, SPIFFE_PREFIX), useAuthenticated),
};

const matchAny = (): StringMatcher => stringMatcherRegex('.+');

const requestPrincipalGenerator: ExtendedGenerator = {
  extendedPermission: unimplemented,
  extendedPrincipal: (key, values, forTCP) => {
    if (forTCP) return httpOnly(key);
    const or: Principal[] = [];
    for (const value of values) {
      // The last `/` splits issuer and subject: an issuer may be a URL.
      const idx = value.lastIndexOf('/');
      const found = idx >= 0;
      const iss = found ? value.slice(0, idx) : value;
      const sub = found ? value.slice(idx + 1) : '';
      let matchIss: StringMatcher;
      let matchSub: StringMatcher;
      if (value === '*') {
        matchIss = matchAny();
        matchSub = matchAny();
      } else if (value.startsWith('*')) {
        if (found) {
          matchIss = iss === '*' ? matchAny() : stringMatcherSuffix(iss.slice(1), false);
          matchSub = stringMatcherExact(sub, false);
        } else {
          matchIss = matchAny();
          matchSub = stringMatcherSuffix(value.slice(1), false);
        }
      } else if (value.endsWith('*')) {
        if (found) {
          matchIss = stringMatcherExact(iss, false);
          matchSub = sub === '*' ? matchAny() : stringMatcherPrefix(sub.slice(0, -1), false);
        } else {
          matchIss = stringMatcherPrefix(value.slice(0, -1), false);
          matchSub = matchAny();
        }
      } else {
        matchSub = stringMatcherExact(sub, false);
        matchIss = stringMatcherExact(iss, false);
      }
      or.push(principalAnd([{ metadata: metadataStringMatcherForJwtClaim('iss', matchIss) }, { metadata: metadataStringMatcherForJwtClaim('sub', matchSub) }]));
    }
    if (or.length === 1) return or[0] as Principal;
    if (or.length > 0) return principalOr(or);
    return null;
  },
};

const requestAudiencesGenerator: ExtendedGenerator = {
  extendedPermission: unimplemented,
  extendedPrincipal: (key, values, forTCP) => {
    if (forTCP) return httpOnly(key);
    return { metadata: metadataListValueMatcherForJwtClaims(['aud'], stringOrMatcher(values)) };
  },
};

const requestPresenterGenerator: ExtendedGenerator = {
  extendedPermission: unimplemented,
  extendedPrincipal: (key, values, forTCP) => {
    if (forTCP) return httpOnly(key);
    return { metadata: metadataListValueMatcherForJwtClaims(['azp'], stringOrMatcher(values)) };
  },
};

const requestHeaderGenerator: Generator = {
  permission: unimplemented,
  principal: (key, value, forTCP) => {
    if (forTCP) return httpOnly(key);
    const header = extractNameInBrackets(key.slice(ATTR_REQUEST_HEADER.length));
    if (header instanceof Refusal) return header;
    return { header: headerMatcher(header, value) };
  },
};

const requestClaimGenerator: ExtendedGenerator = {
  extendedPermission: unimplemented,
  extendedPrincipal: (key, values, forTCP) => {
    if (forTCP) return httpOnly(key);
    const claims = extractNameInNestedBrackets(key.slice(ATTR_REQUEST_CLAIMS.length));
    if (claims instanceof Refusal) return claims;
    return { metadata: metadataListValueMatcherForJwtClaims(claims, stringOrMatcher(values)) };
  },
};

const hostGenerator: Generator = {
  permission: (key, value, forTCP) => (forTCP ? httpOnly(key) : { header: hostMatcher(HOST_HEADER, value) }),
  principal: unimplemented,
};

const pathGenerator: Generator = {
  permission: (key, value, forTCP): Result<Permission> => {
    if (forTCP) return httpOnly(key);
    if (containsPathTemplate(value)) return { uriTemplate: { name: 'uri-template', typedConfig: pathTemplateMatcher(value) } };
    return { urlPath: pathMatcher(value) };
  },
  principal: unimplemented,
};

const methodGenerator: Generator = {
  permission: (key, value, forTCP) => (forTCP ? httpOnly(key) : { header: headerMatcher(METHOD_HEADER, value) }),
  principal: unimplemented,
};

// ---------------------------------------------------------------------------------------
// The model (model/model.go)

/** One field (key) of a rule with its values and not-values; shared by reference like Istio's *rule. */
interface RuleField {
  key: string;
  values: readonly string[];
  notValues: readonly string[];
  g?: Generator;
  extended?: ExtendedGenerator;
}

type RuleList = RuleField[];

/** The parts of an AuthorizationPolicy rule the model reads (security.v1beta1.Rule). */
export interface RuleInput {
  from: readonly { source?: SourceInput | undefined }[];
  to: readonly { operation?: OperationInput | undefined }[];
  when: readonly { key: string; values: readonly string[]; notValues: readonly string[] }[];
}

export interface SourceInput {
  principals: readonly string[];
  notPrincipals: readonly string[];
  requestPrincipals: readonly string[];
  notRequestPrincipals: readonly string[];
  namespaces: readonly string[];
  notNamespaces: readonly string[];
  ipBlocks: readonly string[];
  notIpBlocks: readonly string[];
  remoteIpBlocks: readonly string[];
  notRemoteIpBlocks: readonly string[];
  serviceAccounts: readonly string[];
  notServiceAccounts: readonly string[];
  trustDomains: readonly string[];
  notTrustDomains: readonly string[];
}

export interface OperationInput {
  hosts: readonly string[];
  notHosts: readonly string[];
  ports: readonly string[];
  notPorts: readonly string[];
  methods: readonly string[];
  notMethods: readonly string[];
  paths: readonly string[];
  notPaths: readonly string[];
}

function field(
  key: string,
  values: readonly string[],
  notValues: readonly string[],
  g: Generator | undefined,
  extended?: ExtendedGenerator,
): RuleField | undefined {
  if (values.length === 0 && notValues.length === 0) return undefined;
  return { key, values, notValues, g, extended };
}

function appendLast(list: RuleList, f: RuleField | undefined): void {
  if (f) list.push(f);
}

function insertFront(list: RuleList, f: RuleField | undefined): void {
  if (f) list.unshift(f);
}

export class Model {
  private constructor(
    readonly permissions: RuleList[],
    readonly principals: RuleList[],
  ) {}

  /** model.New: the model, or a refusal when a `when` key is unknown (the rule is then skipped). */
  static build(policyNamespace: string, r: RuleInput): Model | Refusal {
    const basePermission: RuleList = [];
    const basePrincipal: RuleList = [];
    for (const when of r.when) {
      const k = when.key;
      const v = when.values;
      const nv = when.notValues;
      if (k === ATTR_DEST_IP) appendLast(basePermission, field(k, v, nv, destIPGenerator));
      else if (k === ATTR_DEST_PORT) appendLast(basePermission, field(k, v, nv, destPortGenerator));
      else if (k === ATTR_CONN_SNI) appendLast(basePermission, field(k, v, nv, connSNIGenerator));
      else if (k.startsWith(ATTR_ENVOY_FILTER)) appendLast(basePermission, field(k, v, nv, undefined, envoyFilterGenerator));
      else if (k === ATTR_SRC_IP) appendLast(basePrincipal, field(k, v, nv, srcIPGenerator));
      else if (k === ATTR_REMOTE_IP) appendLast(basePrincipal, field(k, v, nv, remoteIPGenerator));
      else if (k === ATTR_SRC_NAMESPACE) appendLast(basePrincipal, field(k, v, nv, srcNamespaceGenerator));
      else if (k === ATTR_SRC_TRUST_DOMAIN) appendLast(basePrincipal, field(k, v, nv, srcTrustDomainGenerator));
      else if (k === ATTR_SRC_SERVICE_ACCOUNT) appendLast(basePrincipal, field(k, v, nv, srcServiceAccountGenerator(policyNamespace)));
      else if (k === ATTR_SRC_PRINCIPAL) appendLast(basePrincipal, field(k, v, nv, srcPrincipalGenerator));
      else if (k === ATTR_REQUEST_PRINCIPAL) appendLast(basePrincipal, field(k, v, nv, undefined, requestPrincipalGenerator));
      else if (k === ATTR_REQUEST_AUDIENCES) appendLast(basePrincipal, field(k, v, nv, undefined, requestAudiencesGenerator));
      else if (k === ATTR_REQUEST_PRESENTER) appendLast(basePrincipal, field(k, v, nv, undefined, requestPresenterGenerator));
      else if (k.startsWith(ATTR_REQUEST_HEADER)) appendLast(basePrincipal, field(k, v, nv, requestHeaderGenerator));
      else if (k.startsWith(ATTR_REQUEST_CLAIMS)) appendLast(basePrincipal, field(k, v, nv, undefined, requestClaimGenerator));
      else return new Refusal(`unknown attribute ${k}`);
    }

    const principals: RuleList[] = [];
    for (const from of r.from) {
      const merged = [...basePrincipal];
      const s = from.source;
      if (s) {
        insertFront(merged, field(ATTR_SRC_IP, s.ipBlocks, s.notIpBlocks, srcIPGenerator));
        insertFront(merged, field(ATTR_REMOTE_IP, s.remoteIpBlocks, s.notRemoteIpBlocks, remoteIPGenerator));
        insertFront(merged, field(ATTR_SRC_NAMESPACE, s.namespaces, s.notNamespaces, srcNamespaceGenerator));
        insertFront(merged, field(ATTR_SRC_TRUST_DOMAIN, s.trustDomains, s.notTrustDomains, srcTrustDomainGenerator));
        insertFront(merged, field(ATTR_SRC_SERVICE_ACCOUNT, s.serviceAccounts, s.notServiceAccounts, srcServiceAccountGenerator(policyNamespace)));
        insertFront(merged, field(ATTR_REQUEST_PRINCIPAL, s.requestPrincipals, s.notRequestPrincipals, undefined, requestPrincipalGenerator));
        insertFront(merged, field(ATTR_SRC_PRINCIPAL, s.principals, s.notPrincipals, srcPrincipalGenerator));
      }
      principals.push(merged);
    }
    if (r.from.length === 0) principals.push(basePrincipal);

    const permissions: RuleList[] = [];
    for (const to of r.to) {
      const merged = [...basePermission];
      const o = to.operation;
      if (o) {
        insertFront(merged, field(ATTR_DEST_PORT, o.ports, o.notPorts, destPortGenerator));
        insertFront(merged, field(PATH_MATCHER, o.paths, o.notPaths, pathGenerator));
        insertFront(merged, field(METHOD_HEADER, o.methods, o.notMethods, methodGenerator));
        insertFront(merged, field(HOST_HEADER, o.hosts, o.notHosts, hostGenerator));
      }
      permissions.push(merged);
    }
    if (r.to.length === 0) permissions.push(basePermission);

    return new Model(permissions, principals);
  }

  /**
   * MigrateTrustDomain: rewrites `source.principal` values for the bundle and expands
   * `source.trustDomain` values. Like Istio, it works on the shared field objects, so a
   * `when` field shared by several `from` entries is rewritten once per entry.
   */
  migrateTrustDomain(bundle: TrustDomainBundle, log?: (msg: string) => void): void {
    for (const p of this.principals) {
      for (const r of p) {
        if (r.key === ATTR_SRC_PRINCIPAL) {
          if (r.values.length !== 0) r.values = replaceTrustDomainAliases(bundle, r.values, log);
          if (r.notValues.length !== 0) r.notValues = replaceTrustDomainAliases(bundle, r.notValues, log);
        } else if (r.key === ATTR_SRC_TRUST_DOMAIN) {
          if (r.values.length !== 0) r.values = expandTrustDomainAliases(bundle, r.values);
          if (r.notValues.length !== 0) r.notValues = expandTrustDomainAliases(bundle, r.notValues);
        }
      }
    }
  }

  /** Generate: the Envoy policy, or why the rule is dropped (only for ALLOW). */
  generate(forTCP: boolean, useAuthenticated: boolean, action: RbacAction): RbacPolicy | Refusal {
    const permissions: Permission[] = [];
    for (const rl of this.permissions) {
      const and: Permission[] = [];
      for (const r of rl) {
        const ps = fieldPermission(r, forTCP, action);
        if (ps instanceof Refusal) return ps;
        and.push(...ps);
      }
      if (and.length === 0) and.push(permissionAny());
      permissions.push(permissionAnd(and));
    }
    if (permissions.length === 0) return new Refusal('must have at least 1 permission');
    const principals: Principal[] = [];
    for (const rl of this.principals) {
      const and: Principal[] = [];
      for (const r of rl) {
        const ps = fieldPrincipal(r, forTCP, useAuthenticated, action);
        if (ps instanceof Refusal) return ps;
        and.push(...ps);
      }
      if (and.length === 0) and.push(principalAny());
      principals.push(principalAnd(and));
    }
    if (principals.length === 0) return new Refusal('must have at least 1 principal');
    return { permissions, principals };
  }
}

/**
 * checkError: for ALLOW a refusal drops the whole rule (a narrower allow); for DENY and
 * AUDIT the value is ignored and generation goes on (a wider deny).
 */
function refusalFor(action: RbacAction, r: Result<unknown>): Refusal | undefined {
  return r instanceof Refusal && action === 'ALLOW' ? r : undefined;
}

function ok<T extends JsonObject>(r: Result<T>): T | undefined {
  return r === null || r instanceof Refusal ? undefined : r;
}

function fieldPermission(r: RuleField, forTCP: boolean, action: RbacAction): Permission[] | Refusal {
  const out: Permission[] = [];
  for (const [list, negate] of [
    [r.values, false],
    [r.notValues, true],
  ] as const) {
    if (list.length === 0) continue;
    if (r.extended) {
      const p = r.extended.extendedPermission(r.key, list, forTCP);
      const refused = refusalFor(action, p);
      if (refused) return refused;
      const got = ok(p);
      if (got) out.push(negate ? permissionNot(got) : got);
    } else {
      const or: Permission[] = [];
      for (const value of list) {
        const p = (r.g as Generator).permission(r.key, value, forTCP);
        const refused = refusalFor(action, p);
        if (refused) return refused;
        const got = ok(p);
        if (got) or.push(got);
      }
      if (or.length > 0) out.push(negate ? permissionNot(permissionOr(or)) : permissionOr(or));
    }
  }
  return out;
}

function fieldPrincipal(r: RuleField, forTCP: boolean, useAuthenticated: boolean, action: RbacAction): Principal[] | Refusal {
  const out: Principal[] = [];
  for (const [list, negate] of [
    [r.values, false],
    [r.notValues, true],
  ] as const) {
    if (list.length === 0) continue;
    if (r.extended) {
      const p = r.extended.extendedPrincipal(r.key, list, forTCP);
      const refused = refusalFor(action, p);
      if (refused) return refused;
      const got = ok(p);
      if (got) out.push(negate ? principalNot(got) : got);
    } else {
      const or: Principal[] = [];
      for (const value of list) {
        const p = (r.g as Generator).principal(r.key, value, forTCP, useAuthenticated);
        const refused = refusalFor(action, p);
        if (refused) return refused;
        const got = ok(p);
        if (got) or.push(got);
      }
      if (or.length > 0) out.push(negate ? principalNot(principalOr(or)) : principalOr(or));
    }
  }
  return out;
}
