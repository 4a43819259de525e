// k8sgateways.MultiMatchChecker (Kiali business/checkers/k8sgateways/multi_match_checker.go): a
// Gateway API Gateway sharing an address (type and value) with another Gateway gets KIA1502 on
// spec/addresses/value; a listener with the hostname, port and protocol of another Gateway's
// listener gets KIA1501 on its hostname; two listeners of one Gateway with different names but
// the same hostname, port and protocol get KIA1503 on the name. Gateways are told apart by name,
// as Kiali does; an address without a type is an IPAddress (the API default). All stay valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str, type Obj } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

function specOf(r: Resource): Obj {
  return isObj(r.body.spec) ? r.body.spec : {};
}

function listeners(r: Resource): Obj[] {
  return arr(specOf(r).listeners).filter(isObj);
}

function addresses(r: Resource): { type: string; value: string }[] {
  return arr(specOf(r).addresses)
    .filter(isObj)
    .map((a) => ({ type: a.type === undefined ? 'IPAddress' : str(a.type), value: str(a.value) }));
}

/** Two listeners collide: both have a hostname, and hostname, port and protocol are equal. */
function sameListener(a: Obj, b: Obj): boolean {
  return (
    a.hostname !== undefined &&
    b.hostname !== undefined &&
    str(a.hostname) === str(b.hostname) &&
    str(a.port) === str(b.port) &&
    str(a.protocol) === str(b.protocol)
  );
}

export const k8sGatewayMultiMatchChecker: KialiChecker = {
  name: 'k8sgateways.MultiMatchChecker',
  kinds: [KINDS.KubernetesGateway],
  codes: ['KIA1501', 'KIA1502', 'KIA1503'],
  run(ctx: KialiContext) {
    const gateways = ctx.list(KINDS.KubernetesGateway);
    const results = new GroupResults();
    const ref = (g: Resource) => `${g.namespace}/${g.name}`;
    for (const g of gateways) {
      for (const address of addresses(g)) {
        const colliding = gateways.filter(
          (o) => o.name !== g.name && addresses(o).some((a) => a.value !== '' && address.value !== '' && a.type === address.type && a.value === address.value),
        );
        if (colliding.length > 0) results.add(g, buildCheck('k8sgateways.multimatch.ip', 'spec/addresses/value'), true, colliding.map(ref));
      }
      const own = listeners(g);
      own.forEach((listener, index) => {
        const colliding = gateways.filter((o) => o.name !== g.name && listeners(o).some((l) => sameListener(l, listener)));
        if (colliding.length > 0) results.add(g, buildCheck('k8sgateways.multimatch.listener', `spec/listeners[${index}]/hostname`), true, colliding.map(ref));
        own.forEach((l, i) => {
          if (str(listener.name) !== str(l.name) && sameListener(listener, l))
            results.add(g, buildCheck('k8sgateways.unique.listener', `spec/listeners[${i}]/name`), true);
        });
      });
    }
    return results.list();
  },
};
