// gateway.SecretAnalyzer: every credentialName of a Gateway's TLS servers must name a Secret
// in the namespace of the gateway's workload (IST0101), and that Secret must hold a
// certificate istiod would serve: cert/key (or tls.crt/tls.key) present, the first PEM block
// made of DER certificates that are all currently valid (IST0161). A Gateway whose selector
// matches no pod gets IST0101 for the selector instead. A certificate a share link redacted
// (its marker in place of the value) is not in the input: it is not checked, so no IST0161.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { firstSelectorKey, keySegment, selectorString } from '../../../config/labels.ts';
import { shortOrFullName } from '../../../config/hosts.ts';
import { gateway } from '../../../config/api/networking.ts';
import { firstPodSelectedBy } from '../../../config/workloads.ts';
import { secretData } from '../../../config/secrets.ts';
import { extractCertInfo, validateGatewayCredential } from '../../../pki/credential.ts';
import { utf8Text } from '../../../pki/bytes.ts';
import { isRedactionMarker } from '../../../document/redactionMarkers.ts';

export const secretAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'gateway.SecretAnalyzer',
    description: "Checks that the TLS Secrets a Gateway's servers reference exist and hold a usable, unexpired certificate",
    inputs: [KINDS.Gateway, KINDS.Pod, KINDS.Secret],
  },
  { kind: KINDS.Gateway, check: analyzeGateway },
);

/** Credential verdicts per Secret, computed once per run (certificate parsing is not free). */
function credentialValid(ctx: AnalysisContext, secret: Resource): boolean {
  const memo = ctx.lookups.cached('gateway.secret.valid', () => new Map<Resource, boolean>(), [KINDS.Secret]);
  let ok = memo.get(secret);
  if (ok === undefined) {
    const data = secretData(secret);
    try {
      const extracted = data !== undefined ? extractCertInfo(data) : undefined;
      // Redacted in a share link: the certificate is not in the input, so there is nothing to report.
      if (extracted?.ok && isRedactionMarker(utf8Text(extracted.value.cert))) ok = true;
      else ok = data !== undefined && validateGatewayCredential(data).ok;
    } catch {
      // Anything the decoders did not anticipate is a credential istiod could not use either.
      ok = false;
    }
    memo.set(secret, ok);
  }
  return ok;
}

function analyzeGateway(ctx: AnalysisContext, gw: Resource): void {
  const spec = gateway(gw);
  const selText = selectorString(spec.selector);
  // The namespace of the gateway's workload: that of the first pod the selector matches.
  const gwNs = firstPodSelectedBy(ctx, spec.selector)?.namespace ?? '';
  if (gwNs === '') {
    const label = firstSelectorKey(selText);
    // An empty selector has no label for Istio to point at; the squiggle goes to the selector.
    ctx.report(
      MESSAGES.ReferencedResourceNotFound.at(gw, 'selector', selText),
      label ? { fieldPath: `spec.selector${keySegment(label)}` } : { highlightPath: 'spec.selector' },
    );
    return;
  }
  spec.servers.forEach((server, i) => {
    const cn = server.tls?.credentialName ?? '';
    if (cn === '') return;
    const fieldPath = `spec.servers[${i}].tls.credentialName`;
    const ref = shortOrFullName(gwNs, cn);
    const secret = ctx.find(KINDS.Secret, ref.namespace, ref.name);
    // A Secret whose data is not base64 never loads in Kubernetes, so it counts as missing.
    if (!secret || secretData(secret) === undefined) {
      ctx.report(MESSAGES.ReferencedResourceNotFound.at(gw, 'credentialName', cn), { fieldPath });
      return;
    }
    if (!credentialValid(ctx, secret)) {
      ctx.report(MESSAGES.InvalidGatewayCredential.at(gw, gw.name, gwNs), { fieldPath });
    }
  });
}
