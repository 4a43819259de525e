// serviceentries.PortChecker (Kiali business/checkers/serviceentries/port_checker.go): a port
// named against its protocol gets KIA0601 on spec/ports[i]/name.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { matchPortNameRule } from '../gateways/port.ts';
import type { KialiCheck } from '../types.ts';

export const serviceEntryPortChecker = objectChecker('serviceentries.PortChecker', KINDS.ServiceEntry, ['KIA0601'], (_ctx, se) => {
  const spec = isObj(se.body.spec) ? se.body.spec : {};
  const checks: KialiCheck[] = [];
  arr(spec.ports).forEach((port, i) => {
    if (!isObj(port)) return;
    if (!matchPortNameRule(str(port.name), str(port.protocol))) checks.push(buildCheck('port.name.mismatch', `spec/ports[${i}]/name`));
  });
  return { checks, valid: checks.length === 0 };
});
