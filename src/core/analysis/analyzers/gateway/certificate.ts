// gateway.CertificateAnalyzer: two Gateways that can land on the same workload (the other
// Gateway's selector includes all of this one's labels, or this one selects everything) must
// not serve the same certificate: the same credentialName, or the same serverCertificate and
// privateKey files (IST0138, on metadata.name).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { gateway, type ServerTLSSettings } from '../../../config/api/networking.ts';
import { listAt } from '../../../document/maps.ts';

/** How a TLS server identifies its certificate, or undefined when it can never match another. */
function certificateKey(tls: ServerTLSSettings): string | undefined {
  if (tls.credentialName !== '') return `cred\u0000${tls.credentialName}`;
  if (tls.serverCertificate !== '' && tls.privateKey !== '') return `file\u0000${tls.serverCertificate}\u0000${tls.privateKey}`;
  return undefined;
}

interface GatewayCerts {
  gw: Resource;
  fullName: string;
  selector: LabelMap;
  /** Certificate key → index of the first server serving it. */
  keys: Map<string, number>;
}

export const certificateAnalyzer: Analyzer = {
  metadata: {
    name: 'gateway.CertificateAnalyzer',
    description: 'Checks that Gateways sharing a workload do not serve the same TLS certificate',
    inputs: [KINDS.Gateway],
  },
  analyze(ctx) {
    const entries: GatewayCerts[] = [];
    const byKey = new Map<string, GatewayCerts[]>();
    for (const gw of ctx.list(KINDS.Gateway)) {
      const spec = gateway(gw);
      const e: GatewayCerts = { gw, fullName: fullNameString(gw.namespace, gw.name), selector: spec.selector, keys: new Map() };
      spec.servers.forEach((server, i) => {
        if (!server.tls) return;
        const k = certificateKey(server.tls);
        if (k !== undefined && !e.keys.has(k)) e.keys.set(k, i);
      });
      for (const k of e.keys.keys()) {
        listAt(byKey, k).push(e);
      }
      entries.push(e);
    }
    for (const e of entries) {
      const selectAll = Object.keys(e.selector).length === 0;
      const reported = new Set<GatewayCerts>();
      for (const [k, server] of e.keys) {
        for (const other of byKey.get(k) ?? []) {
          if (other === e || other.fullName === e.fullName || reported.has(other)) continue;
          // The other Gateway's selector holds every label of this one's.
          if (!selectAll && !selectorMatches(e.selector, other.selector)) continue;
          reported.add(other);
          // The shared certificate: its credentialName, or the serverCertificate file.
          ctx.report(MESSAGES.GatewayDuplicateCertificate.at(e.gw, [e.fullName, other.fullName]), {
            fieldPath: 'metadata.name',
            highlightPath: `spec.servers[${server}].tls.${k.startsWith('cred') ? 'credentialName' : 'serverCertificate'}`,
          });
        }
      }
    }
  },
};
