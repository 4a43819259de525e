// The GatewayClass controllers istiod handles and what each implies (gatewaycommon/classinfo.go
// GetClassInfos); the classes istiod creates when missing are in builtins.ts.
import { EASTWEST_CONTROLLER, GATEWAY_CONTROLLER, MESH_CONTROLLER, UNMANAGED_CONTROLLER } from './builtins.ts';
import type { ConvertOptions } from './types.ts';

export interface ClassInfo {
  controller: string;
  description: string;
  disableRouteGeneration: boolean;
  supportsListenerSet: boolean;
  disableNameSuffix: boolean;
  addressType: '' | 'Hostname' | 'IPAddress';
}

export function classInfos(o: ConvertOptions): Map<string, ClassInfo> {
  const m = new Map<string, ClassInfo>();
  m.set(GATEWAY_CONTROLLER, {
    controller: GATEWAY_CONTROLLER,
    description: 'The default Istio GatewayClass',
    disableRouteGeneration: false,
    supportsListenerSet: true,
    disableNameSuffix: false,
    addressType: 'Hostname',
  });
  if (o.multiNetwork !== false) {
    m.set(UNMANAGED_CONTROLLER, {
      controller: UNMANAGED_CONTROLLER,
      description: 'Remote to this cluster. Does not deploy or affect configuration.',
      disableRouteGeneration: true,
      supportsListenerSet: false,
      disableNameSuffix: false,
      addressType: 'Hostname',
    });
  }
  if (o.waypoints !== false) {
    m.set(MESH_CONTROLLER, {
      controller: MESH_CONTROLLER,
      description: 'The default Istio waypoint GatewayClass',
      disableRouteGeneration: false,
      supportsListenerSet: false,
      disableNameSuffix: true,
      addressType: '',
    });
  }
  if (o.eastWest) {
    m.set(EASTWEST_CONTROLLER, {
      controller: EASTWEST_CONTROLLER,
      description: 'The default GatewayClass for Istio East West Gateways',
      disableRouteGeneration: false,
      supportsListenerSet: false,
      disableNameSuffix: true,
      addressType: '',
    });
  }
  return m;
}
