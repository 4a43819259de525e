// common.ExportToNamespaceChecker (Kiali business/checkers/common/export_to_namespace_checker.go):
// every `exportTo` entry of a DestinationRule, VirtualService or ServiceEntry other than `.` and
// `*` must be a known namespace: otherwise KIA0005 on spec/exportTo[i], and the object is invalid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

export const exportToNamespaceChecker = objectChecker(
  'common.ExportToNamespaceChecker',
  [KINDS.DestinationRule, KINDS.VirtualService, KINDS.ServiceEntry],
  ['KIA0005'],
  (ctx, r) => {
    const spec = isObj(r.body.spec) ? r.body.spec : {};
    const known = ctx.namespaces ?? [];
    const checks: KialiCheck[] = [];
    arr(spec.exportTo).forEach((v, i) => {
      const ns = str(v);
      if (ns !== '.' && ns !== '*' && !known.includes(ns)) checks.push(buildCheck('generic.exportto.namespacenotfound', `spec/exportTo[${i}]`));
    });
    return { checks, valid: checks.length === 0 };
  },
);
