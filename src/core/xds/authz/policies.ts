// AuthorizationPolicies as the authz builder reads them, and the listing of those that apply
// to a proxy (model.GetAuthorizationPolicies + ListAuthorizationPolicies).
import { list, message, nullable, raw, string, type Infer } from '../../config/shape.ts';
import { PolicyTargetReference, WorkloadSelector } from '../../config/api/common.ts';
import { Rule } from '../../config/api/security.ts';
import { isObj } from '../../document/read.ts';
import type { RuleInput } from './rbacRule.ts';
import {
  compareByCreationTime,
  shouldAttachPolicy,
  uniqueInOrder,
  type PolicyTargetRef,
  type SelectionFlags,
  type TargetablePolicy,
  type WorkloadPolicyMatcher,
} from './selection.ts';
import { listAt } from '../../document/maps.ts';

/** An AuthorizationPolicy as plain input: metadata and the spec as parsed (YAML/JSON). */
export interface AuthorizationPolicyInput {
  name: string;
  namespace: string;
  annotations?: Readonly<Record<string, string>>;
  /** RFC 3339; orders policies like istiod (oldest first, then name, then namespace). */
  creationTimestamp?: string;
  spec: unknown;
}

export type AuthzAction = 'ALLOW' | 'DENY' | 'AUDIT' | 'CUSTOM';

/** A policy read for the builder (model.AuthorizationPolicy). */
export interface AuthzPolicy {
  name: string;
  namespace: string;
  annotations: Readonly<Record<string, string>>;
  creationTimestamp?: string;
  /** undefined for an action istiod does not know (the policy is ignored). */
  action: AuthzAction | undefined;
  /** `provider.name` (CUSTOM). */
  provider: string;
  /** The rules; null where the YAML has a null item (a nil rule, skipped with a log). */
  rules: readonly (RuleInput | null)[];
  targeting: TargetablePolicy;
}

/** model.AuthorizationPoliciesResult */
export interface AuthorizationPoliciesResult {
  custom: AuthzPolicy[];
  deny: AuthzPolicy[];
  allow: AuthzPolicy[];
  audit: AuthzPolicy[];
}

const p = { proto: true };

const AuthzSpec = message(
  {
    selector: WorkloadSelector,
    targetRef: PolicyTargetReference,
    targetRefs: list(PolicyTargetReference),
    rules: list(nullable(Rule)),
    action: raw,
    provider: message({ name: string }, p),
  },
  p,
);
type AuthzSpec = Infer<typeof AuthzSpec> & object;

const ACTIONS: readonly AuthzAction[] = ['ALLOW', 'DENY', 'AUDIT', 'CUSTOM'];

/** The action enum as protojson reads it: a name or a number; absent is ALLOW (0). */
function actionOf(v: unknown): AuthzAction | undefined {
  if (v === undefined || v === null) return 'ALLOW';
  if (typeof v === 'string') return (ACTIONS as readonly string[]).includes(v) ? (v as AuthzAction) : undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return ACTIONS[v];
  return undefined;
}

function targetRefOf(r: NonNullable<AuthzSpec['targetRef']>): PolicyTargetRef {
  return { group: r.group, kind: r.kind, name: r.name, namespace: r.namespace };
}

/** The selector and targets of a policy spec (any kind with selector/targetRef/targetRefs). */
export function targetingOf(spec: unknown): TargetablePolicy {
  const s = AuthzSpec.readOrEmpty(spec);
  return targetingFrom(s);
}

function targetingFrom(s: AuthzSpec): TargetablePolicy {
  return {
    selector: s.selector ? s.selector.matchLabels : undefined,
    targetRef: s.targetRef ? targetRefOf(s.targetRef) : undefined,
    targetRefs: s.targetRefs.map(targetRefOf),
  };
}

/** Reads a policy for the builder. */
export function readAuthorizationPolicy(input: AuthorizationPolicyInput): AuthzPolicy {
  const s = AuthzSpec.readOrEmpty(isObj(input.spec) ? input.spec : undefined);
  return {
    name: input.name,
    namespace: input.namespace,
    annotations: input.annotations ?? {},
    creationTimestamp: input.creationTimestamp,
    action: actionOf(s.action),
    provider: s.provider?.name ?? '',
    rules: s.rules.map((r) =>
      r === null
        ? null
        : {
            from: r.from.map((f) => ({ source: f.source })),
            to: r.to.map((t) => ({ operation: t.operation })),
            when: r.when,
          },
    ),
    targeting: targetingFrom(s),
  };
}

/**
 * ListAuthorizationPolicies: the policies of the root namespace, the workload's namespace
 * and the matcher's service namespace (in that order, each oldest first) that attach to the
 * workload, grouped by action. Policies with an unknown action are reported and ignored.
 */
export function listAuthorizationPolicies(
  policies: readonly (AuthorizationPolicyInput | AuthzPolicy)[],
  matcher: WorkloadPolicyMatcher,
  rootNamespace: string,
  flags: SelectionFlags = {},
  log?: (msg: string) => void,
): AuthorizationPoliciesResult {
  const out: AuthorizationPoliciesResult = { custom: [], deny: [], allow: [], audit: [] };
  const read = policies.map((x) => ('targeting' in x ? x : readAuthorizationPolicy(x))).sort(compareByCreationTime);
  const byNamespace = new Map<string, AuthzPolicy[]>();
  for (const pol of read) {
    listAt(byNamespace, pol.namespace).push(pol);
  }
  const namespaces = uniqueInOrder([rootNamespace, matcher.workloadNamespace, ...matcher.services.map((s) => s.namespace)]);
  for (const ns of namespaces) {
    for (const pol of byNamespace.get(ns) ?? []) {
      if (!shouldAttachPolicy(matcher, pol.namespace, pol.targeting, flags)) continue;
      switch (pol.action) {
        case 'ALLOW':
          out.allow.push(pol);
          break;
        case 'DENY':
          out.deny.push(pol);
          break;
        case 'AUDIT':
          out.audit.push(pol);
          break;
        case 'CUSTOM':
          out.custom.push(pol);
          break;
        default:
          log?.(`ignored authorization policy ${pol.namespace}.${pol.name} with unsupported action`);
      }
    }
  }
  return out;
}
