// workloadgroups.DuplicateLabelsChecker (Kiali business/checkers/workloadgroups/duplicate_labels_checker.go):
// WorkloadGroups of one namespace whose metadata labels are the same set each get KIA1702 on
// spec/metadata/labels, referencing the others, and are invalid.
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, stringMap } from '../../../../document/read.ts';
import { selectorString } from '../../../../config/labels.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

export const duplicateLabelsChecker: KialiChecker = {
  name: 'workloadgroups.DuplicateLabelsChecker',
  kinds: [KINDS.WorkloadGroup],
  codes: ['KIA1702'],
  run(ctx: KialiContext) {
    const groups = ctx.list(KINDS.WorkloadGroup).flatMap((wg) => {
      const spec = isObj(wg.body.spec) ? wg.body.spec : {};
      return isObj(spec.metadata) ? [{ wg, labels: selectorString(stringMap(spec.metadata.labels)) }] : [];
    });
    const results = new GroupResults();
    for (const g of groups) {
      const dups = groups.filter((o) => o.wg.namespace === g.wg.namespace && o.wg.name !== g.wg.name && o.labels === g.labels);
      if (dups.length > 0)
        results.add(
          g.wg,
          buildCheck('workloadgroup.labels.duplicate', 'spec/metadata/labels'),
          false,
          dups.map((d) => `${d.wg.namespace}/${d.wg.name}`),
        );
    }
    return results.list();
  },
};
