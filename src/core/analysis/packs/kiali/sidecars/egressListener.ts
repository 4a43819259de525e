// sidecars.EgressHostChecker (Kiali business/checkers/sidecars/egress_listener_checker.go): each
// `egress[].hosts[]` entry `<namespace>/<dnsName>` that names one host (not `*`) must be a
// ServiceEntry host (by suffix) or a Service exported to the Sidecar's namespace; otherwise
// KIA1004 on spec/egress[i]/hosts[j]. The Sidecar stays valid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { hasMatchingServiceEntries, hostString, isWildcard, parseHost, type KialiHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

function hasMatchingService(ctx: KialiContext, host: KialiHost, itemNamespace: string): boolean {
  if (isWildcard(host) && host.namespace === itemNamespace) return true;
  if (hasMatchingServiceEntries(hostString(host), ctx.serviceEntryHosts)) return true;
  return ctx.kubeServiceHosts.isValidForNamespace(hostString(host), itemNamespace);
}

export const egressHostChecker = objectChecker('sidecars.EgressHostChecker', KINDS.Sidecar, ['KIA1004'], (ctx, sidecar) => {
  const spec = isObj(sidecar.body.spec) ? sidecar.body.spec : {};
  const checks: KialiCheck[] = [];
  arr(spec.egress).forEach((egress, i) => {
    if (!isObj(egress)) return;
    arr(egress.hosts).forEach((h, j) => {
      const parts = str(h).split('/');
      // Kiali logs and compares '' for a host without a namespace part.
      const dnsName = parts.length < 2 ? '' : (parts[1] as string);
      if (dnsName === '*') return;
      const fqdn = parseHost(dnsName, sidecar.namespace, ctx.identityDomain);
      if (!hasMatchingService(ctx, fqdn, sidecar.namespace)) checks.push(buildCheck('sidecar.egress.servicenotfound', `spec/egress[${i}]/hosts[${j}]`));
    });
  });
  return { checks, valid: true };
});
