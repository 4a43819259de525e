// Lookups fix providers share: the hosts a namespace can route to, the ports behind a host,
// and the subsets DestinationRules define. Built once per run through the context memo.
import { KINDS } from '../../model/kinds.ts';
import type { Resource } from '../../model/types.ts';
import { KUBE_SERVICE_DOMAIN, hostToFqdn, isWildcardHost } from '../../config/hosts.ts';
import { arr, isObj, num, specOf, str } from '../../model/read.ts';
import type { FixContext } from './context.ts';

export function serviceFqdn(svc: Resource): string {
  return `${svc.name}.${svc.namespace}.${KUBE_SERVICE_DOMAIN}`;
}

/** `name.ns.svc.cluster.local` (or `name.ns`, `name.ns.svc`) → the Service's namespace and name. */
function serviceNameOf(namespace: string, host: string): { namespace: string; name: string } | undefined {
  if (!host.includes('.')) return { namespace, name: host };
  const m = /^([^.]+)\.([^.]+)(?:\.svc(?:\.cluster\.local)?)?$/.exec(host);
  return m ? { namespace: m[2] as string, name: m[1] as string } : undefined;
}

/** Service ports (`port`), or ServiceEntry ports (`number`), of the first resource giving them. */
function servicePorts(svc: Resource): number[] {
  return arr(specOf(svc).ports).map((p) => (isObj(p) ? num(p.port) : 0)).filter((n) => n > 0);
}

function serviceEntryPorts(): (se: Resource) => number[] {
  return (se) => arr(specOf(se).ports).map((p) => (isObj(p) ? num(p.number) : 0)).filter((n) => n > 0);
}

/** ServiceEntry hosts → their ports (first ServiceEntry wins). */
function serviceEntryHosts(ctx: FixContext): Map<string, number[]> {
  return ctx.memo('fix.serviceEntryHosts', () => {
    const out = new Map<string, number[]>();
    const portsOf = serviceEntryPorts();
    for (const se of ctx.store.list(KINDS.ServiceEntry)) {
      for (const h of arr(specOf(se).hosts).map(str)) if (h && !out.has(h)) out.set(h, portsOf(se));
    }
    return out;
  });
}

/** The ports a destination host exposes, or undefined when the host is unknown. */
export function portsOfHost(ctx: FixContext, namespace: string, host: string): number[] | undefined {
  const se = serviceEntryHosts(ctx).get(host);
  if (se) return se;
  const ref = serviceNameOf(namespace, host);
  const svc = ref ? ctx.store.find(KINDS.Service, ref.namespace, ref.name) : undefined;
  return svc ? servicePorts(svc) : undefined;
}

/** Host spellings a VirtualService in `namespace` can route to: short names of its namespace, FQDNs, ServiceEntry hosts. */
export function routableHosts(ctx: FixContext, namespace: string): string[] {
  return ctx.memo(`fix.routableHosts/${namespace}`, () => {
    const out = new Set<string>();
    for (const svc of ctx.store.list(KINDS.Service)) {
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
  const byHost = ctx.memo('fix.subsetsByHost', () => {
    const m = new Map<string, string[]>();
    for (const dr of ctx.store.list(KINDS.DestinationRule)) {
      const spec = specOf(dr);
      const key = hostToFqdn(dr.namespace, str(spec.host));
      let l = m.get(key);
      if (!l) m.set(key, (l = []));
      for (const ss of arr(spec.subsets)) if (isObj(ss) && str(ss.name)) l.push(str(ss.name));
    }
    return m;
  });
  return byHost.get(hostToFqdn(namespace, host)) ?? [];
}
