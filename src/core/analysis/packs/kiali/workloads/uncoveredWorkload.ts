// workloads.UncoveredWorkloadChecker (Kiali business/checkers/workloads/uncovered_workload_checker.go):
// a workload that no AuthorizationPolicy of its namespace or of its root namespace applies to
// (no selector, or a selector matching its labels) gets KIA1301 on Kiali's `workload` pseudo-path.
// The validation is about Kiali's workload object (kind `Workload`); it stays valid.
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, stringMap } from '../../../../document/read.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import type { KialiContext } from '../context.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker, KialiValidation } from '../types.ts';

export const uncoveredWorkloadChecker: KialiChecker = {
  name: 'workloads.UncoveredWorkloadChecker',
  kinds: [KINDS.Deployment, KINDS.StatefulSet, KINDS.DaemonSet, KINDS.ReplicaSet, KINDS.Job, KINDS.CronJob, KINDS.Pod],
  codes: ['KIA1301'],
  run(ctx: KialiContext) {
    // Each policy's selector labels, by namespace (read once, not once per workload).
    const byNamespace = new Map<string, Array<Readonly<Record<string, string>>>>();
    for (const ap of ctx.list(KINDS.AuthorizationPolicy)) {
      const spec = isObj(ap.body.spec) ? ap.body.spec : {};
      const labels = isObj(spec.selector) ? stringMap(spec.selector.matchLabels) : {};
      byNamespace.set(ap.namespace, [...(byNamespace.get(ap.namespace) ?? []), labels]);
    }
    const out: KialiValidation[] = [];
    for (const [namespace, workloads] of ctx.workloadsPerNamespace) {
      const root = ctx.rootNamespaceOf(namespace);
      for (const w of workloads) {
        const applies = (labels: Readonly<Record<string, string>>) => Object.keys(labels).length === 0 || selectorMatches(labels, w.labels);
        const covered =
          (byNamespace.get(namespace) ?? []).some(applies) || (root !== undefined && root !== namespace && (byNamespace.get(root) ?? []).some(applies));
        out.push({
          object: { group: '', kind: 'Workload', namespace, name: w.name },
          resource: w.resource,
          checks: covered ? [] : [buildCheck('workload.authorizationpolicy.needstobecovered', 'workload')],
          valid: true,
        });
      }
    }
    return out;
  },
};
