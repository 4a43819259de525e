// Kiali's GenericMultiMatchChecker (business/checkers/common/multi_match_selector_checker.go) in
// the two forms the corpus exercises. common.SidecarSelectorMultiMatchChecker: two or more
// selector-less Sidecars of a namespace each get KIA0002, and Sidecars of one namespace whose
// selectors match the same workload each get KIA0003 (on spec/workloadSelector, invalid,
// referencing the others); only Sidecars of namespaces that have workloads take part.
// common.RequestAuthenticationMultiMatchChecker: Kiali skips both analyses for
// RequestAuthentications, so it reports nothing.
import { KINDS, type KindInfo } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { isObj, stringMap } from '../../../../document/read.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

interface Subject {
  resource: Resource;
  selector: Readonly<Record<string, string>>;
}

function multiMatch(ctx: KialiContext, subjects: readonly Subject[], path: string, analyze: { selectorLess: boolean; selectors: boolean }): GroupResults {
  const results = new GroupResults();
  const ref = (r: Resource) => `${r.namespace}/${r.name}`;
  if (analyze.selectorLess) {
    const less = subjects.filter((s) => Object.keys(s.selector).length === 0);
    if (less.length >= 2)
      less.forEach((s, i) => {
        const same = less.filter((o, j) => j !== i && o.resource.namespace === s.resource.namespace);
        if (same.length > 0)
          results.add(
            s.resource,
            buildCheck('generic.multimatch.selectorless', path),
            false,
            same.map((o) => ref(o.resource)),
          );
      });
  }
  if (analyze.selectors) {
    // Workload → the subjects selecting it, in order.
    const byWorkload = new Map<string, Subject[]>();
    for (const s of subjects) {
      if (Object.keys(s.selector).length === 0) continue;
      for (const [ns, workloads] of ctx.workloadsPerNamespace)
        for (const w of workloads) {
          if (!selectorMatches(s.selector, w.labels)) continue;
          const key = `${w.kind}/${ns}/${w.name}`;
          byWorkload.set(key, [...(byWorkload.get(key) ?? []), s]);
        }
    }
    for (const scs of byWorkload.values()) {
      if (scs.length < 2) continue;
      scs.forEach((s, i) => {
        const same = scs.filter((o, j) => j !== i && o.resource.namespace === s.resource.namespace);
        if (same.length > 0)
          results.add(
            s.resource,
            buildCheck('generic.multimatch.selector', path),
            false,
            same.map((o) => ref(o.resource)),
          );
      });
    }
  }
  return results;
}

function groupChecker(name: string, kind: KindInfo, run: (ctx: KialiContext) => GroupResults): KialiChecker {
  return { name, kinds: [kind], codes: ['KIA0002', 'KIA0003'], run: (ctx) => run(ctx).list() };
}

export const sidecarSelectorMultiMatchChecker = groupChecker('common.SidecarSelectorMultiMatchChecker', KINDS.Sidecar, (ctx) => {
  const subjects = ctx
    .list(KINDS.Sidecar)
    .filter((s) => ctx.workloadsPerNamespace.has(s.namespace))
    .map((s) => {
      const spec = isObj(s.body.spec) ? s.body.spec : {};
      return { resource: s, selector: isObj(spec.workloadSelector) ? stringMap(spec.workloadSelector.labels) : {} };
    });
  return multiMatch(ctx, subjects, 'spec/workloadSelector', { selectorLess: true, selectors: true });
});

export const requestAuthenticationMultiMatchChecker = groupChecker('common.RequestAuthenticationMultiMatchChecker', KINDS.RequestAuthentication, (ctx) =>
  multiMatch(ctx, [], 'spec/selector', { selectorLess: false, selectors: false }),
);
