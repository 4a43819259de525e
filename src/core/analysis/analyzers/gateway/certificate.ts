// gateway.CertificateAnalyzer: two Gateways that can land on the same workload (the other
// Gateway's selector includes all of this one's labels, or this one selects everything) must
// not serve the same certificate: the same credentialName, or the same serverCertificate and
// privateKey files (IST0138, on metadata.name).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { toLabelMap, type LabelMap } from '../../../config/labels.ts';
import { arr, isObj, specOf, str, type Obj } from '../../../model/read.ts';
import { fullNameString } from '../../../config/hosts.ts';

/** How a TLS server identifies its certificate, or undefined when it can never match another. */
function certificateKey(tls: Obj): string | undefined {
  const cn = str(tls.credentialName);
  if (cn !== '') return `cred\u0000${cn}`;
  const cert = str(tls.serverCertificate);
  const key = str(tls.privateKey);
  if (cert !== '' && key !== '') return `file\u0000${cert}\u0000${key}`;
  return undefined;
}

/** Every label of `sub` is on `sup` with the same value (an empty `sub` is handled by the caller). */
function selectorSubset(sub: LabelMap, sup: LabelMap): boolean {
  for (const k in sub) if (sup[k] !== sub[k]) return false;
  return true;
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
      const spec = specOf(gw);
      const e: GatewayCerts = { gw, fullName: fullNameString(gw.namespace, gw.name), selector: toLabelMap(spec.selector), keys: new Map() };
      arr(spec.servers).forEach((server, i) => {
        if (!isObj(server) || !isObj(server.tls)) return;
        const k = certificateKey(server.tls);
        if (k !== undefined && !e.keys.has(k)) e.keys.set(k, i);
      });
      for (const k of e.keys.keys()) {
        let l = byKey.get(k);
        if (!l) byKey.set(k, (l = []));
        l.push(e);
      }
      entries.push(e);
    }
    for (const e of entries) {
      const selectAll = Object.keys(e.selector).length === 0;
      const reported = new Set<GatewayCerts>();
      for (const [k, server] of e.keys) {
        for (const other of byKey.get(k) ?? []) {
          if (other === e || other.fullName === e.fullName || reported.has(other)) continue;
          if (!selectAll && !selectorSubset(e.selector, other.selector)) continue;
          reported.add(other);
          // The shared certificate: its credentialName, or the serverCertificate file.
          ctx.report(MESSAGES.GatewayDuplicateCertificate.at(e.gw, [e.fullName, other.fullName]), { fieldPath: 'metadata.name', highlightPath: `spec.servers[${server}].tls.${k.startsWith('cred') ? 'credentialName' : 'serverCertificate'}` });
        }
      }
    }
  },
};
