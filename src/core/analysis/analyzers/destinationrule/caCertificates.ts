// destinationrule.CaCertificateAnalyzer: a DestinationRule that originates TLS (SIMPLE or
// MUTUAL), at the top level or for a port, should give caCertificates so the server's
// certificate is verified. A credentialName on a rule with a workloadSelector counts too.
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { arr, isObj, num, specOf, str, type Obj } from '../../../model/read.ts';

/** ClientTLSSettings.TLSmode values by number, for rules that spell the mode numerically. */
const TLS_MODES = ['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL'];

export function tlsModeName(v: unknown): string {
  if (typeof v === 'number') return TLS_MODES[v] ?? String(v);
  return str(v) || 'DISABLE';
}

/** Go's prototext rendering of a PortSelector (`number:443`; empty for `{}`; `<nil>` when absent). */
export function portSelectorString(port: unknown): string {
  if (!isObj(port)) return '<nil>';
  const n = num(port.number);
  return n === 0 ? '' : `number:${n}`;
}

function needsCaCertificates(tls: Obj | undefined, hasWorkloadSelector: boolean): string | undefined {
  if (!tls) return undefined;
  const mode = tlsModeName(tls.mode);
  if (mode !== 'SIMPLE' && mode !== 'MUTUAL') return undefined;
  if (str(tls.caCertificates) !== '') return undefined;
  if (str(tls.credentialName) !== '' && hasWorkloadSelector) return undefined;
  return mode;
}

export const caCertificateAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'destinationrule.CaCertificateAnalyzer',
    description: 'Checks that DestinationRules originating TLS set caCertificates to verify the server',
    inputs: [KINDS.DestinationRule],
  },
  {
    kind: KINDS.DestinationRule,
    check(ctx, dr) {
      const spec = specOf(dr);
      const name = fullNameString(dr.namespace, dr.name);
      const host = str(spec.host);
      const hasWorkloadSelector = isObj(spec.workloadSelector);
      const policy = isObj(spec.trafficPolicy) ? spec.trafficPolicy : undefined;
      const mode = needsCaCertificates(isObj(policy?.tls) ? policy.tls : undefined, hasWorkloadSelector);
      if (mode) {
        // The missing caCertificates has no line: the editor points at the TLS mode instead.
        ctx.report(MESSAGES.NoServerCertificateVerificationDestinationLevel.at(dr, name, dr.namespace, mode, host), { fieldPath: 'spec.trafficPolicy.tls.caCertificates', highlightPath: 'spec.trafficPolicy.tls.mode' });
      }
      arr(policy?.portLevelSettings).forEach((p, i) => {
        if (!isObj(p)) return;
        const portMode = needsCaCertificates(isObj(p.tls) ? p.tls : undefined, hasWorkloadSelector);
        if (!portMode) return;
        ctx.report(MESSAGES.NoServerCertificateVerificationPortLevel.at(dr, name, dr.namespace, portMode, host, portSelectorString(p.port)), { fieldPath: `spec.trafficPolicy.portLevelSettings[${i}].tls.caCertificates`, highlightPath: `spec.trafficPolicy.portLevelSettings[${i}].tls.mode` });
      });
    },
  },
);
