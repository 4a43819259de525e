// Lookups fix providers share: the hosts a namespace can route to, the ports behind a host,
// and the subsets DestinationRules define. Each is built once per mesh version through the
// config lookups.
import { KINDS } from '../../document/kinds.ts';
import type { Resource } from '../../document/types.ts';
import { KUBE_SERVICE_DOMAIN, hostToFqdn, isWildcardHost } from '../../config/hosts.ts';
import { serviceSpec } from '../../config/api/kube.ts';
import { destinationRule, serviceEntry } from '../../config/api/networking.ts';
import type { FixContext } from './context.ts';
import { listAt } from '../../document/maps.ts';

export function serviceFqdn(svc: Resource): string {
  return `${svc.name}.${svc.namespace}.${KUBE_SERVICE_DOMAIN}`;
}

/** `name.ns.svc.cluster.local` (or `name.ns`, `name.ns.svc`) → the Service's namespace and name. */
function serviceNameOf(namespace: string, host: string): { namespace: string; name: string } | undefined {
  if (!host.includes('.')) return { namespace, name: host };
  const m = /^([^.]+)\.([^.]+)(?:\.svc(?:\.cluster\.local)?)?$/.exec(host);
  return m ? { namespace: m[2] as string, name: m[1] as string } : undefined;
}

const positive = (n: number) => n > 0;

/** ServiceEntry hosts → their ports (first ServiceEntry wins). */
function serviceEntryHosts(ctx: FixContext): Map<string, number[]> {
  return ctx.view.lookups.cached('fix.serviceEntryHosts', (store) => {
    const out = new Map<string, number[]>();
    for (const se of store.list(KINDS.ServiceEntry)) {
      const spec = serviceEntry(se);
      for (const h of spec.hosts) if (h && !out.has(h)) out.set(h, spec.ports.map((p) => p.number).filter(positive));
    }
    return out;
  });
}

/** The ports a destination host exposes, or undefined when the host is unknown. */
export function portsOfHost(ctx: FixContext, namespace: string, host: string): number[] | undefined {
  const se = serviceEntryHosts(ctx).get(host);
  if (se) return se;
  const ref = serviceNameOf(namespace, host);
  const svc = ref ? ctx.view.find(KINDS.Service, ref.namespace, ref.name) : undefined;
  return svc
    ? serviceSpec(svc)
        .ports.map((p) => p.port)
        .filter(positive)
    : undefined;
}

/** Host spellings a VirtualService in `namespace` can route to: short names of its namespace, FQDNs, ServiceEntry hosts. */
export function routableHosts(ctx: FixContext, namespace: string): string[] {
  return ctx.view.lookups.cached(`fix.routableHosts/${namespace}`, (store) => {
    const out = new Set<string>();
    for (const svc of store.list(KINDS.Service)) {
      if (svc.synthetic) continue;
      if (svc.namespace === namespace) out.add(svc.name);
      out.add(serviceFqdn(svc));
    }
    for (const h of serviceEntryHosts(ctx).keys()) if (!isWildcardHost(h)) out.add(h);
    return [...out];
  });
}

/** Subset names the DestinationRules define for a host (as seen from `namespace`). */
export function subsetsOfHost(ctx: FixContext, namespace: string, host: string): string[] {
  const byHost = ctx.view.lookups.cached('fix.subsetsByHost', (store) => {
    const m = new Map<string, string[]>();
    for (const dr of store.list(KINDS.DestinationRule)) {
      const spec = destinationRule(dr);
      const key = hostToFqdn(dr.namespace, spec.host);
      const l = listAt(m, key);
      for (const ss of spec.subsets) if (ss.name) l.push(ss.name);
    }
    return m;
  });
  return byHost.get(hostToFqdn(namespace, host)) ?? [];
}
