// gateways.PortChecker (Kiali business/checkers/gateways/port_checker.go): a server port named
// against its protocol (kubernetes.MatchPortNameRule) gets KIA0601 on spec/servers[i]/port/name.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

/** kubernetes.MatchPortNameRule: TCP and UDP ports may be named anything; others `<protocol>[-suffix]`. */
export function matchPortNameRule(portName: string, protocol: string): boolean {
  const p = protocol.toLowerCase();
  if (p === 'tcp' || p === 'udp') return true;
  if (!portName.startsWith(p)) return false;
  return portName.length === p.length || portName.slice(p.length).startsWith('-');
}

export const gatewayPortChecker = objectChecker('gateways.PortChecker', KINDS.Gateway, ['KIA0601'], (_ctx, gw) => {
  const spec = isObj(gw.body.spec) ? gw.body.spec : {};
  const checks: KialiCheck[] = [];
  arr(spec.servers).forEach((server, i) => {
    if (!isObj(server)) return;
    const port = server.port;
    if (!isObj(port) || !matchPortNameRule(str(port.name), str(port.protocol))) checks.push(buildCheck('port.name.mismatch', `spec/servers[${i}]/port/name`));
  });
  return { checks, valid: checks.length === 0 };
});
