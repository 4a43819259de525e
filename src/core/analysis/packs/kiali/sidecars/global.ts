// sidecars.GlobalChecker (Kiali business/checkers/sidecars/global_checker.go): the Sidecar of
// the root namespace is the mesh default and should select no workloads (KIA1006).
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, stringMap } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';

export const globalChecker = objectChecker('sidecars.GlobalChecker', KINDS.Sidecar, ['KIA1006'], (ctx, sidecar) => {
  const spec = isObj(sidecar.body.spec) ? sidecar.body.spec : {};
  if (sidecar.namespace !== ctx.rootNamespace) return { checks: [], valid: true };
  const ws = spec.workloadSelector;
  if (isObj(ws) && Object.keys(stringMap(ws.labels)).length > 0)
    return { checks: [buildCheck('sidecar.global.selector', 'spec/workloadSelector')], valid: true };
  return { checks: [], valid: true };
});
