// The networking.istio.io API as its CRDs accept it, in every served version (they share one
// schema): fields, types, enum values, bounds, formats and the CEL rules the API server runs,
// transcribed from Istio's CRDs into our shapes. The help lines are ours. The schema validator,
// the editor's completion and hover, and the typed views' consistency test read these.
import { DestinationRuleSpec } from './networking/destinationRule.ts';
import { EnvoyFilterSpec } from './networking/envoyFilter.ts';
import { GatewaySpec } from './networking/gateway.ts';
import { ProxyConfigSpec } from './networking/proxyConfig.ts';
import { ServiceEntrySpec } from './networking/serviceEntry.ts';
import { SidecarSpec } from './networking/sidecar.ts';
import { VirtualServiceSpec } from './networking/virtualService.ts';
import { WorkloadEntrySpec } from './networking/workloadEntry.ts';
import { WorkloadGroupSpec } from './networking/workloadEntry.ts';
/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  {
    group: 'networking.istio.io',
    kind: 'DestinationRule',
    versions: ['v1', 'v1alpha3', 'v1beta1'],
    storage: 'v1',
    spec: DestinationRuleSpec,
    specRequired: false,
  },
  { group: 'networking.istio.io', kind: 'EnvoyFilter', versions: ['v1alpha3'], storage: 'v1alpha3', spec: EnvoyFilterSpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'Gateway', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: GatewaySpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'ProxyConfig', versions: ['v1beta1'], storage: 'v1beta1', spec: ProxyConfigSpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'ServiceEntry', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: ServiceEntrySpec, specRequired: true },
  { group: 'networking.istio.io', kind: 'Sidecar', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: SidecarSpec, specRequired: false },
  {
    group: 'networking.istio.io',
    kind: 'VirtualService',
    versions: ['v1', 'v1alpha3', 'v1beta1'],
    storage: 'v1',
    spec: VirtualServiceSpec,
    specRequired: false,
  },
  { group: 'networking.istio.io', kind: 'WorkloadEntry', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: WorkloadEntrySpec, specRequired: true },
  { group: 'networking.istio.io', kind: 'WorkloadGroup', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: WorkloadGroupSpec, specRequired: true },
] as const;
