// authorization.NoHostChecker (Kiali business/checkers/authorization/no_host_checker.go): each
// `rules[].to[].operation.hosts[]` entry that names a service (a short name, or `svc.ns` with a
// known namespace) must be in the registry: a ServiceEntry, a VirtualService host, or a Service
// exported to the policy's namespace. KIA0104, a warning under ALLOW_ANY. Wildcards, hosts with
// two dots or more and other `a.b` names are HTTP Host header matchers, not checked.
import { KINDS } from '../../../../document/kinds.ts';
import { authorizationPolicy } from '../../../../config/api/security.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { hasMatchingServiceEntries, hasMatchingVirtualServices, hostString, isWildcard, parseTwoPartHost, type KialiHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

/** isHTTPHostHeaderMatcher: a host Kiali leaves to Istio's Host header matching. */
export function isHttpHostHeaderMatcher(host: string, policyNamespace: string, clusterNamespaces: readonly string[] | null): boolean {
  const h = host.trim();
  if (h === '') return false;
  if (h.startsWith('*') || h.endsWith('*')) return true;
  const dots = h.split('.').length - 1;
  if (dots >= 2) return true;
  if (dots === 1) {
    const ns = h.slice(h.indexOf('.') + 1);
    return ns !== policyNamespace && !(clusterNamespaces ?? []).includes(ns);
  }
  return false;
}

function hasMatchingService(ctx: KialiContext, host: KialiHost, itemNamespace: string): boolean {
  const [, localNs] = parseTwoPartHost(host);
  if (isWildcard(host) && localNs === itemNamespace) return true;
  if (hasMatchingServiceEntries(hostString(host), ctx.serviceEntryHosts)) return true;
  if (hasMatchingVirtualServices(host, ctx.virtualServiceHosts, ctx.identityDomain)) return true;
  return ctx.kubeServiceHosts.isValidForNamespace(hostString(host), itemNamespace);
}

export const authorizationNoHostChecker = objectChecker('authorization.NoHostChecker', KINDS.AuthorizationPolicy, ['KIA0104'], (ctx, ap) => {
  const checks: KialiCheck[] = [];
  let valid = true;
  authorizationPolicy(ap).rules.forEach((rule, r) => {
    rule.to.forEach((to, t) => {
      (to.operation?.hosts ?? []).forEach((h, i) => {
        if (isHttpHostHeaderMatcher(h, ap.namespace, ctx.namespaces)) return;
        const fqdn = ctx.host(h, ap.namespace);
        if (hasMatchingService(ctx, fqdn, ap.namespace)) return;
        const path = `spec/rules[${r}]/to[${t}]/operation/hosts[${i}]`;
        checks.push(buildCheck('authorizationpolicy.nodest.matchingregistry', path, ctx.policyAllowAny ? 'warning' : undefined));
        valid = false;
      });
    });
  });
  return { checks, valid };
});
