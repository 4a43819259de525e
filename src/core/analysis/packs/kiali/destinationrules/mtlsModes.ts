// The four DestinationRule mTLS checkers of Kiali share these reads (kiali/kubernetes/istio.go).
import type { Resource } from '../../../../document/types.ts';
import { destinationRuleModeForHost, peerAuthnNamespaceWideMode } from '../mtls.ts';

/** kubernetes.DestinationRuleHasMeshWideMTLSEnabled's mode: the TLS mode of a `*.local` rule. */
export function meshWideDrMode(dr: Resource): string {
  return destinationRuleModeForHost(dr, '*.local');
}

/** kubernetes.DestinationRuleHasNamespaceWideMTLSEnabled's mode: the TLS mode of a `*.<ns>.<identity domain>` rule. */
export function namespaceWideDrMode(dr: Resource, identityDomain: string): string {
  return destinationRuleModeForHost(dr, `*.${dr.namespace}.${identityDomain}`);
}

/** kubernetes.PeerAuthnHasMTLSEnabled: a selector-less PeerAuthentication in STRICT or PERMISSIVE mode. */
export function peerAuthnEnablesMtls(pa: Resource): boolean {
  const mode = peerAuthnNamespaceWideMode(pa);
  return mode === 'STRICT' || mode === 'PERMISSIVE';
}

export const TLS_MODE_PATH = 'spec/trafficPolicy/tls/mode';
