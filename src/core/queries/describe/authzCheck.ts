// `istioctl x authz check` (istioctl/pkg/authz/listener.go): the AuthorizationPolicies a
// proxy's listeners enforce, read back from the RBAC filters' policy names
// (`ns[<ns>]-policy[<name>]-rule[<i>]`), grouped by action with the number of rules each.
import { type ConfigDump, field, list, objAt, str, type JsonObject } from '../../xds/configdump/dump.ts';
import { tabwrite } from '../../xds/configdump/tabwriter.ts';
import { activeListeners } from './envoy.ts';

export const ANONYMOUS_POLICY = '_anonymous_match_nothing_';
const HCM_NAMES = new Set(['envoy.filters.network.http_connection_manager', 'envoy.http_connection_manager']);
const HTTP_RBAC = 'envoy.filters.http.rbac';
const NETWORK_RBAC = 'envoy.filters.network.rbac';
const EXT_AUTHZ_PREFIX = 'istio-ext-authz-';
const NAME_RE = /(?:istio-ext-authz-)?ns\[(.+)\]-policy\[(.+)\]-rule\[(.+)\]/;

export type AuthzAction = 'DENY' | 'ALLOW' | 'LOG' | 'CUSTOM';
/** The order istioctl prints the actions in. */
export const AUTHZ_ACTIONS: readonly AuthzAction[] = ['DENY', 'ALLOW', 'LOG', 'CUSTOM'];

export interface AuthzCheckRow {
  action: AuthzAction;
  /** `<name>.<namespace>`, or `_anonymous_match_nothing_` for an RBAC filter without policies. */
  policy: string;
  namespace: string;
  name: string;
  /** Distinct rule indexes seen for the policy (over every action it appears under, as istioctl counts). */
  rules: number;
  /** Where the policy's rules were found: `<listener>/<filter chain index>`. */
  listeners: string[];
}

/** extractName: `name.namespace` and the rule index; two empty strings for a name of another shape. */
function extractName(key: string): { policy: string; namespace: string; name: string; rule: string } {
  const m = NAME_RE.exec(key);
  if (!m) return { policy: '', namespace: '', name: '', rule: '' };
  return { policy: `${m[2]}.${m[1]}`, namespace: m[1] as string, name: m[2] as string, rule: m[3] as string };
}

/** RBAC.Action as its enum name: absent (0) is ALLOW. */
function actionOf(rules: JsonObject | undefined): AuthzAction {
  const a = field(rules, 'action');
  if (a === 'DENY' || a === 1) return 'DENY';
  if (a === 'LOG' || a === 2) return 'LOG';
  return 'ALLOW';
}

interface RbacConfig {
  config: JsonObject;
  where: string;
}

/** Every RBAC config of the listeners: HTTP filters inside connection managers, and network filters. */
function rbacConfigs(listeners: readonly JsonObject[]): RbacConfig[] {
  const out: RbacConfig[] = [];
  for (const l of listeners) {
    const name = str(l, 'name');
    list(l, 'filter_chains').forEach((fc, i) => {
      const where = `${name}/${i}`;
      for (const f of list(fc, 'filters')) {
        const fname = str(f, 'name');
        const tc = objAt(f, 'typed_config');
        if (HCM_NAMES.has(fname)) {
          for (const hf of list(tc, 'http_filters')) {
            const c = objAt(hf, 'typed_config');
            if (str(hf, 'name') === HTTP_RBAC && c) out.push({ config: c, where });
          }
        } else if (fname === NETWORK_RBAC && tc) out.push({ config: tc, where });
      }
    });
  }
  return out;
}

/** The rows `authz check` prints, in its order (action, then policy name). */
export function authzCheck(dump: ConfigDump): AuthzCheckRow[] {
  const byAction = new Map<AuthzAction, Map<string, { namespace: string; name: string }>>();
  const rulesOf = new Map<string, Set<string>>();
  const whereOf = new Map<string, Set<string>>();
  const add = (action: AuthzAction, p: { policy: string; namespace: string; name: string; rule: string }, where: string) => {
    let m = byAction.get(action);
    if (!m) byAction.set(action, (m = new Map()));
    m.set(p.policy, { namespace: p.namespace, name: p.name });
    let r = rulesOf.get(p.policy);
    if (!r) rulesOf.set(p.policy, (r = new Set()));
    r.add(p.rule);
    let w = whereOf.get(p.policy);
    if (!w) whereOf.set(p.policy, (w = new Set()));
    w.add(where);
  };
  for (const { config, where } of rbacConfigs(activeListeners(dump))) {
    const rules = objAt(config, 'rules');
    const action = actionOf(rules);
    const policies = objAt(rules, 'policies') ?? {};
    for (const key of Object.keys(policies)) add(action, extractName(key), where);
    const shadow = objAt(config, 'shadow_rules', 'policies') ?? {};
    for (const key of Object.keys(shadow)) if (key.startsWith(EXT_AUTHZ_PREFIX)) add('CUSTOM', extractName(key), where);
    if (Object.keys(policies).length === 0) add(action, { policy: ANONYMOUS_POLICY, namespace: '', name: '', rule: '0' }, where);
  }
  const rows: AuthzCheckRow[] = [];
  for (const action of AUTHZ_ACTIONS) {
    const m = byAction.get(action);
    if (!m) continue;
    for (const policy of [...m.keys()].sort()) {
      const p = m.get(policy) as { namespace: string; name: string };
      rows.push({ action, policy, ...p, rules: rulesOf.get(policy)?.size ?? 0, listeners: [...(whereOf.get(policy) ?? [])] });
    }
  }
  return rows;
}

/** The table as istioctl prints it (tabwriter: padding 3). */
export function authzCheckText(rows: readonly AuthzCheckRow[]): string {
  let buf = 'ACTION\tAuthorizationPolicy\tRULES\n';
  for (const r of rows) buf += `${r.action}\t${r.policy}\t${r.rules}\n`;
  return tabwrite(buf, { padding: 3 });
}
