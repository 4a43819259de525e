// destinationrule.CaCertificateAnalyzer: a DestinationRule that originates TLS (SIMPLE or
// MUTUAL), at the top level or for a port, should give caCertificates so the server's
// certificate is verified. A credentialName on a rule with a workloadSelector counts too.
// (A mode spelled as its enum number reads as its name, as protobuf JSON allows.)
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { destinationRule, type ClientTLSSettings } from '../../../config/api/networking.ts';

/** Go's prototext rendering of a PortSelector (`number:443`; empty for `{}`; `<nil>` when absent). */
export function portSelectorString(port: { number: number } | undefined): string {
  if (!port) return '<nil>';
  return port.number === 0 ? '' : `number:${port.number}`;
}

function needsCaCertificates(tls: ClientTLSSettings | undefined, hasWorkloadSelector: boolean): string | undefined {
  if (!tls) return undefined;
  const mode = tls.mode;
  if (mode !== 'SIMPLE' && mode !== 'MUTUAL') return undefined;
  if (tls.caCertificates !== '') return undefined;
  if (tls.credentialName !== '' && hasWorkloadSelector) return undefined;
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
      const spec = destinationRule(dr);
      const name = fullNameString(dr.namespace, dr.name);
      const host = spec.host;
      const hasWorkloadSelector = spec.workloadSelector !== undefined;
      const policy = spec.trafficPolicy;
      const mode = needsCaCertificates(policy?.tls, hasWorkloadSelector);
      if (mode) {
        // The missing caCertificates has no line: the editor points at the TLS mode instead.
        ctx.report(MESSAGES.NoServerCertificateVerificationDestinationLevel.at(dr, name, dr.namespace, mode, host), {
          fieldPath: 'spec.trafficPolicy.tls.caCertificates',
          highlightPath: 'spec.trafficPolicy.tls.mode',
        });
      }
      policy?.portLevelSettings.forEach((p, i) => {
        const portMode = needsCaCertificates(p.tls, hasWorkloadSelector);
        if (!portMode) return;
        ctx.report(MESSAGES.NoServerCertificateVerificationPortLevel.at(dr, name, dr.namespace, portMode, host, portSelectorString(p.port)), {
          fieldPath: `spec.trafficPolicy.portLevelSettings[${i}].tls.caCertificates`,
          highlightPath: `spec.trafficPolicy.portLevelSettings[${i}].tls.mode`,
        });
      });
    },
  },
);
