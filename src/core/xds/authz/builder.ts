// AuthorizationPolicies → Envoy filters (pilot/pkg/security/authz/builder/builder.go).
//
// Local policies (ALLOW, DENY, AUDIT) give one RBAC filter per action, in the order AUDIT,
// DENY, ALLOW. CUSTOM policies give, per provider (sorted by name), a shadow RBAC filter
// that only records which policy matched and an ext_authz filter enabled by that record.
import { numError, parseBool } from '../../go/strconv.ts';
import { cloneJson, type JsonObject } from './matcher.ts';
import {
  BAD_CUSTOM_ACTION_SUFFIX,
  EXT_AUTHZ_MATCH_PREFIX,
  HTTP_EXT_AUTHZ_FILTER,
  HTTP_RBAC_FILTER,
  TCP_EXT_AUTHZ_FILTER,
  TCP_RBAC_FILTER,
  filterEnabledMetadata,
  getExtAuthz,
  type BuiltExtAuthz,
} from './extAuthz.ts';
import {
  Model,
  RBAC_EXT_AUTHZ_SHADOW_RULES_STAT_PREFIX,
  RBAC_SHADOW_RULES_ALLOW_STAT_PREFIX,
  RBAC_SHADOW_RULES_DENY_STAT_PREFIX,
  RBAC_TCP_FILTER_STAT_PREFIX,
  Refusal,
  permissionAny,
  permissionNot,
  principalAny,
  principalNot,
  type RbacAction,
  type RbacPolicy,
} from './rbacRule.ts';
import type { AuthorizationPoliciesResult, AuthzPolicy } from './policies.ts';
import type { TrustDomainBundle } from './trustDomain.ts';

export const HTTP_RBAC_TYPE = 'type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC';
export const TCP_RBAC_TYPE = 'type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC';

/** An HTTP filter (hcm.HttpFilter) or network filter (listener.Filter) in proto3 JSON. */
export interface EnvoyFilter {
  name: string;
  typedConfig: JsonObject & { '@type': string };
}

/** What istiod would log while building, with its level (authz scope). */
export interface AuthzLogEntry {
  level: 'error' | 'warn' | 'debug';
  message: string;
}

/** AuthzLogger: messages collected while building, reported with the filters. */
export class AuthzLogger {
  readonly entries: AuthzLogEntry[] = [];
  debug(message: string): void {
    this.entries.push({ level: 'debug', message });
  }
  warn(message: string): void {
    this.entries.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.entries.push({ level: 'error', message });
  }
}

export const DRY_RUN_ANNOTATION = 'istio.io/dry-run';

/** isDryRun: the `istio.io/dry-run` annotation as a Go bool; unparsable is false, with an error. */
export function isDryRun(policy: AuthzPolicy, log?: AuthzLogger): boolean {
  const val = Object.hasOwn(policy.annotations, DRY_RUN_ANNOTATION) ? policy.annotations[DRY_RUN_ANNOTATION] : undefined;
  if (val === undefined) return false;
  const b = parseBool(val);
  if (b === undefined) {
    log?.error(`failed to parse the value of ${DRY_RUN_ANNOTATION}: ${numError('ParseBool', val, 'invalid syntax')}`);
    return false;
  }
  return b;
}

/** envoy.config.rbac.v3.RBAC while it is being filled. */
interface Rbac {
  action: RbacAction;
  policies: Map<string, RbacPolicy>;
}

function rbacJson(r: Rbac): JsonObject {
  const out: JsonObject = {};
  // ALLOW is the enum's zero value: proto3 JSON leaves it out.
  if (r.action !== 'ALLOW') out.action = r.action;
  if (r.policies.size > 0) out.policies = Object.fromEntries(r.policies);
  return out;
}

function shadowRuleStatPrefix(rule: Rbac | undefined): string {
  // A nil RBAC reads as action ALLOW (GetAction on nil), so "no shadow rules" gives the ALLOW prefix.
  const action = rule?.action ?? 'ALLOW';
  if (action === 'ALLOW') return RBAC_SHADOW_RULES_ALLOW_STAT_PREFIX;
  if (action === 'DENY') return RBAC_SHADOW_RULES_DENY_STAT_PREFIX;
  return '';
}

const policyMatchNever = (): RbacPolicy => ({
  permissions: [permissionNot(permissionAny())],
  principals: [principalNot(principalAny())],
});

export interface BuilderOptions {
  /** The mesh trust domain and its aliases (trustdomain.NewBundle). */
  trustDomainBundle: TrustDomainBundle;
  /**
   * Match peers by the `io.istio.peer_principal` filter state instead of the TLS
   * `authenticated` principal: istiod does so for waypoints.
   */
  useFilterState?: boolean;
  /** CUSTOM only: the processed mesh extension providers (processExtensionProviders). */
  extensions?: ReadonlyMap<string, BuiltExtAuthz>;
  /** PILOT_ENABLE_MULTIPLE_CUSTOM_AUTHZ_PROVIDERS (default false). */
  enableMultipleCustomAuthzProviders?: boolean;
}

interface BuiltRule {
  rules?: Rbac;
  shadowRules?: Rbac;
  providerRules: Map<string, Rbac>;
  providerShadowRules: Map<string, Rbac>;
}

function policyName(namespace: string, name: string, rule: number, provider: string, isCustom: boolean): string {
  let prefix = '';
  if (isCustom) prefix = provider !== '' ? `${EXT_AUTHZ_MATCH_PREFIX}-${provider}-` : `${EXT_AUTHZ_MATCH_PREFIX}-`;
  return `${prefix}ns[${namespace}]-policy[${name}]-rule[${rule}]`;
}

function badCustomDenyRules(rules: Rbac | undefined): Rbac {
  const out: Rbac = { action: 'DENY', policies: new Map() };
  for (const [k, v] of rules?.policies ?? []) out.policies.set(k + BAD_CUSTOM_ACTION_SUFFIX, v);
  return out;
}

function rbacFilter(name: string, type: string, body: JsonObject): EnvoyFilter {
  return { name, typedConfig: { '@type': type, ...body } };
}

/**
 * builder.Builder: one for the local actions (ALLOW/DENY/AUDIT) or one for CUSTOM, over the
 * policies selected for a proxy. `buildHTTP` and `buildTCP` return the filters in the order
 * istiod inserts them; both are empty when no policy applies.
 */
export class AuthzBuilder {
  constructor(
    private readonly kind: 'local' | 'custom',
    private readonly policies: AuthorizationPoliciesResult,
    private readonly options: BuilderOptions,
  ) {}

  /** HTTP filters (envoy.filters.http.rbac, envoy.filters.http.ext_authz) for an HCM. */
  buildHTTP(log = new AuthzLogger()): EnvoyFilter[] {
    return this.run((rule) => this.translateHTTP(rule, log), 'HTTP', false, log);
  }

  /** Network filters (envoy.filters.network.rbac, envoy.filters.network.ext_authz) for a TCP chain. */
  buildTCP(log = new AuthzLogger()): EnvoyFilter[] {
    return this.run((rule) => this.translateTCP(rule, log), 'TCP', true, log);
  }

  /** TCP semantics (HTTP-only fields dropped) in HTTP RBAC filters: the waypoint's HBONE termination layer. */
  buildTCPRulesAsHTTPFilter(log = new AuthzLogger()): EnvoyFilter[] {
    return this.run((rule) => this.translateHTTP(rule, log), 'HTTP for TCP', true, log);
  }

  private run(translate: (rule: BuiltRule) => EnvoyFilter[], logType: string, forTCP: boolean, log: AuthzLogger): EnvoyFilter[] {
    const p = this.policies;
    if (this.kind === 'custom') {
      const built = this.build(p.custom, 'DENY', forTCP, log);
      if (!built) return [];
      const t = translate(built);
      log.debug(`built ${t.length} ${logType} filters for CUSTOM action`);
      return t;
    }
    const out: EnvoyFilter[] = [];
    for (const [list, action, label] of [
      [p.audit, 'LOG', 'AUDIT'],
      [p.deny, 'DENY', 'DENY'],
      [p.allow, 'ALLOW', 'ALLOW'],
    ] as const) {
      const built = this.build(list, action, forTCP, log);
      if (!built) continue;
      const t = translate(built);
      log.debug(`built ${t.length} ${logType} filters for ${label} action`);
      out.push(...t);
    }
    return out;
  }

  private build(policies: readonly AuthzPolicy[], action: RbacAction, forTCP: boolean, log: AuthzLogger): BuiltRule | undefined {
    if (policies.length === 0) return undefined;
    const isCustom = this.kind === 'custom';
    const enforceRules: Rbac = { action, policies: new Map() };
    const shadowRules: Rbac = { action, policies: new Map() };
    const providerRules = new Map<string, Rbac>();
    const providerShadowRules = new Map<string, Rbac>();
    let hasEnforcePolicy = false;
    let hasDryRunPolicy = false;
    const filterType = forTCP ? 'TCP' : 'HTTP';
    const bundle = this.options.trustDomainBundle;

    for (const policy of policies) {
      let current: Rbac;
      let providerName = '';
      if (isCustom) {
        providerName = policy.provider;
        if (!providerRules.has(providerName)) {
          providerRules.set(providerName, { action, policies: new Map() });
          providerShadowRules.set(providerName, { action, policies: new Map() });
        }
        if (isDryRun(policy, log)) {
          current = providerShadowRules.get(providerName) as Rbac;
          hasDryRunPolicy = true;
        } else {
          current = providerRules.get(providerName) as Rbac;
          hasEnforcePolicy = true;
        }
      } else if (isDryRun(policy, log)) {
        current = shadowRules;
        hasDryRunPolicy = true;
      } else {
        current = enforceRules;
        hasEnforcePolicy = true;
      }

      policy.rules.forEach((rule, i) => {
        // The key is what ext_authz later reads back from the RBAC filter's dynamic metadata.
        const name = policyName(policy.namespace, policy.name, i, providerName, isCustom);
        if (rule === null) {
          log.error(`skipped nil rule ${name}`);
          return;
        }
        const m = Model.build(policy.namespace, rule);
        if (m instanceof Refusal) {
          log.error(`skipped invalid rule ${name}: ${m.message}`);
          return;
        }
        m.migrateTrustDomain(bundle, (msg) => log.warn(msg));
        if (bundle.trustDomains.length > 1) log.debug(`patched source principal with trust domain aliases [${bundle.trustDomains.join(' ')}]`);
        const generated = m.generate(forTCP, !this.options.useFilterState, action);
        if (generated instanceof Refusal) {
          log.debug(`skipped rule ${name} on TCP filter chain: ${generated.message}`);
          return;
        }
        current.policies.set(name, generated);
        log.debug(`generated config from rule ${name} on ${filterType} filter chain successfully`);
      });
      if (policy.rules.length === 0) {
        // No rules: a policy that never matches (an ALLOW policy without rules allows nothing).
        const name = policyName(policy.namespace, policy.name, 0, providerName, isCustom);
        log.debug(`generated config from policy ${name} on ${filterType} filter chain successfully`);
        current.policies.set(name, policyMatchNever());
      }
    }
    return {
      rules: hasEnforcePolicy ? enforceRules : undefined,
      shadowRules: hasDryRunPolicy ? shadowRules : undefined,
      providerRules,
      providerShadowRules,
    };
  }

  private localRbac(rule: BuiltRule, forTCP: boolean): JsonObject {
    const body: JsonObject = {};
    if (rule.rules) body.rules = rbacJson(rule.rules);
    if (forTCP) body.statPrefix = RBAC_TCP_FILTER_STAT_PREFIX;
    if (rule.shadowRules) body.shadowRules = rbacJson(rule.shadowRules);
    const prefix = shadowRuleStatPrefix(rule.shadowRules);
    if (prefix !== '') body.shadowRulesStatPrefix = prefix;
    return body;
  }

  private uniqueProviders(rule: BuiltRule): string[] {
    return [...new Set([...rule.providerRules.keys(), ...rule.providerShadowRules.keys()])].sort();
  }

  private translateHTTP(rule: BuiltRule, log: AuthzLogger): EnvoyFilter[] {
    if (this.kind === 'local') return [rbacFilter(HTTP_RBAC_FILTER, HTTP_RBAC_TYPE, this.localRbac(rule, false))];
    return this.translateCustom(rule, log, false);
  }

  private translateTCP(rule: BuiltRule, log: AuthzLogger): EnvoyFilter[] {
    if (this.kind === 'local') return [rbacFilter(TCP_RBAC_FILTER, TCP_RBAC_TYPE, this.localRbac(rule, true))];
    return this.translateCustom(rule, log, true);
  }

  private translateCustom(rule: BuiltRule, log: AuthzLogger, tcp: boolean): EnvoyFilter[] {
    const rbacName = tcp ? TCP_RBAC_FILTER : HTTP_RBAC_FILTER;
    const rbacType = tcp ? TCP_RBAC_TYPE : HTTP_RBAC_TYPE;
    const denyFilter = (provider: string): EnvoyFilter => {
      const body: JsonObject = { rules: rbacJson(badCustomDenyRules(rule.providerRules.get(provider))) };
      if (tcp) body.statPrefix = RBAC_TCP_FILTER_STAT_PREFIX;
      return rbacFilter(rbacName, rbacType, body);
    };
    const providers = this.uniqueProviders(rule);
    const out: EnvoyFilter[] = [];
    if (providers.length > 1 && !this.options.enableMultipleCustomAuthzProviders) {
      log.error(
        'multiple CUSTOM authorization providers per workload requires PILOT_ENABLE_MULTIPLE_CUSTOM_AUTHZ_PROVIDERS feature flag, ' +
          `found ${providers.length} providers: [${providers.join(' ')}]`,
      );
      // No provider can be picked safely: every CUSTOM policy denies.
      for (const provider of providers) out.push(denyFilter(provider));
      return out;
    }
    for (const provider of providers) {
      const ext = getExtAuthz(this.options.extensions ?? new Map(), provider);
      if ('error' in ext) {
        log.error(`failed to process CUSTOM action for provider ${provider}, will generate deny configs: ${ext.error}`);
        out.push(denyFilter(provider));
        continue;
      }
      for (const w of ext.warnings) log.warn(w);
      const ext2 = tcp ? ext.tcp : ext.http;
      if (!ext2) {
        log.debug(`ignored CUSTOM action with HTTP provider on TCP filter chain for provider ${provider}`);
        continue;
      }
      // The RBAC filter never enforces: enforced CUSTOM policies go to its shadow rules, dry-run
      // ones to its rules, and ext_authz runs when a policy of this provider matched.
      const body: JsonObject = {};
      const providerShadow = rule.providerShadowRules.get(provider);
      if (providerShadow && providerShadow.policies.size > 0) body.rules = rbacJson(providerShadow);
      if (tcp) body.statPrefix = RBAC_TCP_FILTER_STAT_PREFIX;
      const enforced = rule.providerRules.get(provider);
      if (enforced) body.shadowRules = rbacJson(enforced);
      body.shadowRulesStatPrefix = RBAC_EXT_AUTHZ_SHADOW_RULES_STAT_PREFIX;
      const extFilter = cloneJson(ext2) as EnvoyFilter['typedConfig'];
      extFilter.filterEnabledMetadata = filterEnabledMetadata(rbacName, provider);
      out.push(rbacFilter(rbacName, rbacType, body), { name: tcp ? TCP_EXT_AUTHZ_FILTER : HTTP_EXT_AUTHZ_FILTER, typedConfig: extFilter });
    }
    return out;
  }
}
