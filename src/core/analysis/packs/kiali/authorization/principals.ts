// authorization.PrincipalsChecker (Kiali business/checkers/authorization/principals_checker.go):
// each `from[].source.principals[]` entry must match a service account principal of Kiali's
// cluster (exactly, or as a `*` prefix/suffix pattern). Otherwise, and the policy is invalid:
// KIA0107 when a remote cluster has it, KIA0108 when its trust domain is unknown to Kiali,
// KIA0106 else.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

/** hasMatchingServiceAccount: `*`, a `*`-pattern as Kiali's regular expression (`*` → `.*`), or equality. */
export function principalMatches(serviceAccounts: readonly string[], principal: string): boolean {
  if (principal === '*') return true;
  const hasWild = principal.startsWith('*') || principal.endsWith('*');
  // Without a leading or trailing `*` only equality counts: a set answers (policies of a large mesh ask for thousands).
  if (!hasWild) return accountSet(serviceAccounts).has(principal);
  let re: RegExp | undefined;
  try {
    re = new RegExp(`^${principal.split('*').join('.*')}$`);
  } catch {
    re = undefined;
  }
  return serviceAccounts.some((sa) => (hasWild && re?.test(sa)) || sa === principal);
}

const ACCOUNT_SETS = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The accounts as a set, kept per list (the context builds each list once per run). */
function accountSet(serviceAccounts: readonly string[]): ReadonlySet<string> {
  let set = ACCOUNT_SETS.get(serviceAccounts);
  if (set === undefined) ACCOUNT_SETS.set(serviceAccounts, (set = new Set(serviceAccounts)));
  return set;
}

function hasForeignTrustDomain(ctx: KialiContext, principal: string): boolean {
  if (principal.includes('*')) return false;
  const idx = principal.indexOf('/ns/');
  if (idx <= 0) return false;
  return !ctx.knownTrustDomains.includes(principal.slice(0, idx));
}

export const principalsChecker = objectChecker('authorization.PrincipalsChecker', KINDS.AuthorizationPolicy, ['KIA0106', 'KIA0107', 'KIA0108'], (ctx, ap) => {
  const spec = isObj(ap.body.spec) ? ap.body.spec : {};
  const accounts = ctx.serviceAccounts;
  const local = accounts[ctx.cluster] ?? [];
  const checks: KialiCheck[] = [];
  let valid = true;
  arr(spec.rules).forEach((rule, r) => {
    if (!isObj(rule)) return;
    arr(rule.from).forEach((from, f) => {
      if (!isObj(from) || !isObj(from.source)) return;
      arr(from.source.principals).forEach((p, i) => {
        const principal = str(p);
        if (principalMatches(local, principal)) return;
        valid = false;
        const path = `spec/rules[${r}]/from[${f}]/source/principals[${i}]`;
        const remote = Object.entries(accounts).some(([cluster, sas]) => cluster !== ctx.cluster && principalMatches(sas, principal));
        if (remote) checks.push(buildCheck('authorizationpolicy.source.principalremote', path));
        else if (hasForeignTrustDomain(ctx, principal)) checks.push(buildCheck('authorizationpolicy.source.principalforeign', path));
        else checks.push(buildCheck('authorizationpolicy.source.principalnotfound', path));
      });
    });
  });
  return { checks, valid };
});
