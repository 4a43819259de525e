// k8sreferencegrants.NamespaceChecker (Kiali business/checkers/k8sreferencegrants/namespace_checker.go):
// every `from[].namespace` of a ReferenceGrant must be a known namespace: otherwise KIA1601, invalid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

export const referenceGrantNamespaceChecker = objectChecker('k8sreferencegrants.NamespaceChecker', KINDS.ReferenceGrant, ['KIA1601'], (ctx, grant) => {
  const spec = isObj(grant.body.spec) ? grant.body.spec : {};
  const checks: KialiCheck[] = [];
  arr(spec.from).forEach((from, i) => {
    if (!(ctx.namespaces ?? []).includes(isObj(from) ? str(from.namespace) : ''))
      checks.push(buildCheck('k8sreferencegrants.from.namespacenotfound', `spec/from[${i}]/namespace`));
  });
  return { checks, valid: checks.length === 0 };
});
