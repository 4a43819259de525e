// virtualservices.NoHostChecker (Kiali business/checkers/virtualservices/no_host_checker.go): the
// host of every http, tcp and tls route destination must be a ServiceEntry host (by suffix) or a
// Service exported to the VirtualService's namespace. KIA1101, a warning under ALLOW_ANY.
import { KINDS } from '../../../../document/kinds.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

function checkDestination(ctx: KialiContext, host: string, itemNamespace: string): boolean {
  for (const k of ctx.serviceEntryHosts.keys()) {
    const i = k.indexOf('*');
    if (host.endsWith(i > -1 ? k.slice(i + 1) : k)) return true;
  }
  return ctx.kubeServiceHosts.isValidForNamespace(host, itemNamespace);
}

export const virtualServiceNoHostChecker = objectChecker('virtualservices.NoHostChecker', KINDS.VirtualService, ['KIA1101'], (ctx, vs) => {
  const checks: KialiCheck[] = [];
  let valid = true;
  for (const d of ctx.routeDestinations(vs)) {
    if (d.host === undefined || checkDestination(ctx, d.host.text, vs.namespace)) continue;
    checks.push(
      buildCheck(
        'virtualservices.nohost.hostnotfound',
        `spec/${d.kind}[${d.rule}]/route[${d.route}]/destination/host`,
        ctx.policyAllowAny ? 'warning' : undefined,
      ),
    );
    valid = false;
  }
  return { checks, valid };
});
