// The Kiali analyzer pack: Kiali's validations (KIA codes), run offline on the workspace's mesh.
// Each checker lives in its own file, named after Kiali's (business/checkers/<folder>/...).
import type { ConfigView } from '../../../config/configView.ts';
import { KialiContext, type KialiContextOverrides } from './context.ts';
import type { KialiChecker, KialiValidation } from './types.ts';
import { noDestinationChecker } from './destinationrules/noDestination.ts';
import { authorizationNoHostChecker } from './authorization/noHost.ts';
import { virtualServiceNoHostChecker } from './virtualservices/noHost.ts';
import { subsetPresenceChecker } from './virtualservices/subsetPresence.ts';
import { portMappingChecker } from './services/portMapping.ts';
import { destinationRuleMultiMatchChecker } from './destinationrules/multiMatch.ts';
import { gatewayMultiMatchChecker } from './gateways/multiMatch.ts';
import { mtlsEnabledChecker } from './authorization/mtlsEnabled.ts';
import { egressHostChecker } from './sidecars/egressListener.ts';
import { serviceEntryMultiMatchChecker } from './serviceentries/multiMatch.ts';
import { meshWideMtlsChecker } from './destinationrules/meshWideMtls.ts';
import { namespaceWideMtlsChecker } from './destinationrules/namespaceWideMtls.ts';
import { disabledMeshWideMtlsChecker } from './destinationrules/disabledMeshWideMtls.ts';
import { disabledNamespaceWideMtlsChecker } from './destinationrules/disabledNamespaceWideMtls.ts';
import { meshMtlsChecker } from './peerauthentications/meshMtls.ts';
import { namespaceMtlsChecker } from './peerauthentications/namespaceMtls.ts';
import { disabledMeshWideChecker } from './peerauthentications/disabledMeshWide.ts';
import { disabledNamespaceWideChecker } from './peerauthentications/disabledNamespaceWide.ts';
import { namespaceMethodChecker } from './authorization/namespaceMethod.ts';
import { exportToNamespaceChecker } from './common/exportToNamespace.ts';
import { noGatewayChecker } from './virtualservices/noGateway.ts';
import { routeChecker } from './virtualservices/route.ts';
import { singleHostChecker } from './virtualservices/singleHost.ts';
import { globalChecker } from './sidecars/global.ts';
import { outboundTrafficPolicyModeChecker } from './sidecars/outboundTrafficPolicyMode.ts';
import { workloadSelectorNoWorkloadFoundChecker } from './common/workloadSelector.ts';
import { gatewaySelectorChecker } from './gateways/selector.ts';
import { gatewayPortChecker } from './gateways/port.ts';
import { serviceEntryPortChecker } from './serviceentries/port.ts';
import { trafficPolicyChecker } from './destinationrules/trafficPolicy.ts';
import { noK8sGatewayChecker } from './k8shttproutes/noK8sGateway.ts';
import { k8sHttpRouteNoHostChecker } from './k8shttproutes/noHost.ts';
import { uncoveredWorkloadChecker } from './workloads/uncoveredWorkload.ts';
import { principalsChecker } from './authorization/principals.ts';
import { serviceAccountsChecker } from './workloadgroups/serviceAccounts.ts';
import { k8sGatewayMultiMatchChecker } from './k8sgateways/multiMatch.ts';
import { gatewayClassChecker } from './k8sgateways/gatewayClass.ts';
import { referenceGrantNamespaceChecker } from './k8sreferencegrants/namespace.ts';
import { duplicateLabelsChecker } from './workloadgroups/duplicateLabels.ts';
import { requestAuthenticationMultiMatchChecker, sidecarSelectorMultiMatchChecker } from './common/multiMatchSelector.ts';
import { ambientPolicyChecker } from './ambientPolicy.ts';
import { ambientWorkloadChecker } from './ambient/ambientWorkload.ts';

export type { KialiCheck, KialiChecker, KialiObjectRef, KialiSeverity, KialiValidation } from './types.ts';
export { KialiContext, type KialiContextOverrides, type KialiNamespace, type KialiNamespaceOverride, type KialiWorkloadFlags } from './context.ts';
export { KIALI_CATALOG, type KialiCheckDescriptor } from './catalog.ts';
export { buildCheck, fullMessage, kialiDescriptor, kialiFieldPath } from './messages.ts';

/** Every implemented checker, by Kiali's name. */
export const KIALI_CHECKERS: readonly KialiChecker[] = [
  noDestinationChecker,
  authorizationNoHostChecker,
  virtualServiceNoHostChecker,
  subsetPresenceChecker,
  portMappingChecker,
  destinationRuleMultiMatchChecker,
  gatewayMultiMatchChecker,
  mtlsEnabledChecker,
  egressHostChecker,
  serviceEntryMultiMatchChecker,
  meshWideMtlsChecker,
  namespaceWideMtlsChecker,
  disabledMeshWideMtlsChecker,
  disabledNamespaceWideMtlsChecker,
  meshMtlsChecker,
  namespaceMtlsChecker,
  disabledMeshWideChecker,
  disabledNamespaceWideChecker,
  namespaceMethodChecker,
  exportToNamespaceChecker,
  noGatewayChecker,
  routeChecker,
  singleHostChecker,
  globalChecker,
  outboundTrafficPolicyModeChecker,
  workloadSelectorNoWorkloadFoundChecker,
  gatewaySelectorChecker,
  gatewayPortChecker,
  serviceEntryPortChecker,
  trafficPolicyChecker,
  noK8sGatewayChecker,
  k8sHttpRouteNoHostChecker,
  uncoveredWorkloadChecker,
  principalsChecker,
  serviceAccountsChecker,
  k8sGatewayMultiMatchChecker,
  gatewayClassChecker,
  referenceGrantNamespaceChecker,
  duplicateLabelsChecker,
  sidecarSelectorMultiMatchChecker,
  requestAuthenticationMultiMatchChecker,
  ambientPolicyChecker,
  ambientWorkloadChecker,
];

const BY_NAME = new Map(KIALI_CHECKERS.map((c) => [c.name, c]));

export function kialiChecker(name: string): KialiChecker | undefined {
  return BY_NAME.get(name);
}

/**
 * Runs checkers over the mesh and merges their validations per object, as Kiali's
 * IstioValidations.MergeValidations does: the checks add up, and an object stays valid only
 * when every checker found it valid.
 */
export function runKialiPack(
  view: ConfigView,
  overrides: KialiContextOverrides = {},
  checkers: readonly KialiChecker[] = KIALI_CHECKERS,
  /** `findingsOnly`: leave out the validations without checks (what the editor shows; `valid` flags are then partial). */
  o: { findingsOnly?: boolean } = {},
): KialiValidation[] {
  const ctx = new KialiContext(view, overrides);
  const merged = new Map<string, KialiValidation>();
  for (const checker of checkers) {
    for (const v of checker.run(ctx, o)) {
      if (o.findingsOnly && v.checks.length === 0) continue;
      const key = `${v.object.group}/${v.object.kind}/${v.object.namespace}/${v.object.name}`;
      const prev = merged.get(key);
      if (!prev) merged.set(key, { ...v, checks: [...v.checks], references: [...(v.references ?? [])] });
      else {
        // Kiali's MergeValidations keeps one check per (path, severity, message).
        for (const c of v.checks) if (!prev.checks.some((p) => p.path === c.path && p.severity === c.severity && p.message === c.message)) prev.checks.push(c);
        prev.valid = prev.valid && v.valid;
        for (const r of v.references ?? []) if (!prev.references?.includes(r)) prev.references?.push(r);
      }
    }
  }
  return [...merged.values()];
}
