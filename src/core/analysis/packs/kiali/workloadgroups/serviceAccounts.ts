// workloadgroups.ServiceAccountsChecker (Kiali business/checkers/workloadgroups/service_accounts_checker.go):
// a WorkloadGroup's template.serviceAccount must be a service account of its namespace in Kiali's
// cluster (compared as `<identity domain without "svc.">/ns/<ns>/sa/<name>`): otherwise KIA1701.
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';

export const serviceAccountsChecker = objectChecker('workloadgroups.ServiceAccountsChecker', KINDS.WorkloadGroup, ['KIA1701'], (ctx, wg) => {
  const spec = isObj(wg.body.spec) ? wg.body.spec : {};
  const sa = isObj(spec.template) ? str(spec.template.serviceAccount) : '';
  if (sa === '') return { checks: [], valid: true };
  const domain = ctx.identityDomain.startsWith('svc.') ? ctx.identityDomain.slice(4) : ctx.identityDomain;
  const target = `${domain}/ns/${wg.namespace}/sa/${sa}`;
  if ((ctx.serviceAccounts[ctx.cluster] ?? []).includes(target)) return { checks: [], valid: true };
  return { checks: [buildCheck('workloadgroup.template.serviceaccount.notfound', 'spec/template/serviceAccount')], valid: false };
});
