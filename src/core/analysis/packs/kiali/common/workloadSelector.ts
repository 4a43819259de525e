// common.WorkloadSelectorNoWorkloadFoundChecker (Kiali business/checkers/common/workload_selector_checker.go):
// a Sidecar's workloadSelector labels must select some workload of its namespace: otherwise
// KIA0004 on spec/workloadSelector/labels. The Sidecar stays valid.
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, stringMap } from '../../../../document/read.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

/** GenericNoWorkloadFoundChecker: KIA0004 at `path` when the labels select no workload of the namespace. */
export function noWorkloadFound(ctx: KialiContext, namespace: string, labels: Readonly<Record<string, string>>, path: string): KialiCheck[] {
  if (Object.keys(labels).length === 0) return [];
  if (ctx.workloadsIn(namespace).some((w) => selectorMatches(labels, w.labels))) return [];
  return [buildCheck('generic.selector.workloadnotfound', path)];
}

export const workloadSelectorNoWorkloadFoundChecker = objectChecker(
  'common.WorkloadSelectorNoWorkloadFoundChecker',
  KINDS.Sidecar,
  ['KIA0004'],
  (ctx, sidecar) => {
    const spec = isObj(sidecar.body.spec) ? sidecar.body.spec : {};
    const labels = isObj(spec.workloadSelector) ? stringMap(spec.workloadSelector.labels) : {};
    return { checks: noWorkloadFound(ctx, sidecar.namespace, labels, 'spec/workloadSelector/labels'), valid: true };
  },
);
