// virtualservices.SingleHostChecker (Kiali business/checkers/virtualservices/single_host_checker.go):
// VirtualServices bound to the same gateway (or to none) that name the same host each get
// KIA1106 on spec/hosts, referencing each other; so do a `*` host of a namespace and the other
// hosts of that namespace. The VirtualServices stay valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { virtualService } from '../../../../config/api/networking.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

function child<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
}

export const singleHostChecker: KialiChecker = {
  name: 'virtualservices.SingleHostChecker',
  kinds: [KINDS.VirtualService],
  codes: ['KIA1106'],
  run(ctx: KialiContext) {
    // gateway → cluster → namespace → service → VirtualServices (a VirtualService once per host naming it).
    const counter = new Map<string, Map<string, Map<string, Map<string, Resource[]>>>>();
    for (const vs of ctx.virtualServices) {
      const spec = virtualService(vs);
      const gateways = spec.gateways.length > 0 ? spec.gateways : ['no-gateway'];
      for (const h of spec.hosts) {
        const host = ctx.host(h, vs.namespace);
        for (const gw of gateways) {
          const byNs = child(
            child(counter, gw, () => new Map()),
            host.cluster,
            () => new Map(),
          );
          child(
            child(byNs, host.namespace, () => new Map()),
            host.service,
            () => [] as Resource[],
          ).push(vs);
        }
      }
    }
    const results = new GroupResults();
    const flag = (vs: Resource, refs: readonly Resource[]) =>
      results.add(
        vs,
        buildCheck('virtualservices.singlehost', 'spec/hosts'),
        true,
        refs.filter((r) => r.key !== vs.key).map((r) => `${r.namespace}/${r.name}`),
      );
    for (const byCluster of counter.values())
      for (const byNs of byCluster.values())
        for (const byService of byNs.values()) {
          const wildcard = byService.get('*') ?? [];
          for (const vss of byService.values()) {
            for (const vs of vss) {
              if (vss.length > 1) flag(vs, vss);
              if (wildcard.length > 0 && byService.size > 1) {
                const inWildcard = wildcard.some((w) => w.name === vs.name && w.namespace === vs.namespace);
                flag(vs, inWildcard ? [...byService.values()].flat() : wildcard);
              }
            }
          }
        }
    return results.list();
  },
};
