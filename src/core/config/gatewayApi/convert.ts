// Gateway API → Istio Gateway / VirtualService / DestinationRule, and the status istiod writes
// back, as pilot/pkg/config/kube/gateway does it (conversion.go, gateway_collection.go,
// route_collections.go, backend_policies.go, conditions.go and gatewaycommon/). Pure: the
// inputs are plain objects and a service registry; nothing here reads the workspace.
//
// This module is the entry point: convertGatewayApi runs the steps in istiod's order over one
// ConversionContext (context.ts), which holds what each step leaves for the later ones. The steps
// are split as Istio's sources are:
//   gateways.ts          GatewayClasses, Gateways, ListenerSets → Istio Gateways (gateway_collection.go)
//   listeners.ts         one listener → a server and its status (conversion.go buildListener)
//   listenerTls.ts       listener and backend client TLS, certificate references (conversion.go buildTLS)
//   listenerConflicts.ts conflicting listeners, allowed ListenerSets (gatewaycommon/listener_conflict.go)
//   gatewayStatus.ts     Gateway and ListenerSet status, addresses, attached routes (reportGatewayStatus)
//   routeCollections.ts  each route → VirtualServices and status (route_collections.go)
//   routeParents.ts      the parents a route may attach to (conversion.go extractParentReferenceInfo)
//   routeStatus.ts       a route's status.parents (conditions.go createRouteStatus)
//   httpRoutes.ts, httpFilters.ts, grpcRoutes.ts, tcpTlsRoutes.ts   rules of each route kind (conversion.go)
//   backendRefs.ts       backendRefs → destinations (conversion.go buildDestination)
//   referenceGrants.ts   ReferenceGrants (gatewaycommon/references.go)
//   backendPolicies.ts   BackendTLSPolicy, XBackendTrafficPolicy, XBackend → DestinationRules (backend_policies.go)
// and the shared pieces: types.ts (inputs and outputs), groupKinds.ts, classInfo.ts, istioConfig.ts,
// labelSelectors.ts, model.ts.
import type { GwObject } from './objects.ts';
import { destinationRules } from './backendPolicies.ts';
import { ConversionContext } from './context.ts';
import { writeFinalGatewayStatuses } from './gatewayStatus.ts';
import { convertGatewayClasses, convertGatewaysAndListenerSets } from './gateways.ts';
import { inferencePoolStatus } from './inferencePoolStatus.ts';
import { cmp, sortByCreation } from './istioConfig.ts';
import { type RouteWithKey, convertHTTPOrGRPCRoute, convertTCPOrTLSRoute, mergeHTTPRoutes } from './routeCollections.ts';
import type { ConvertOptions, GatewayApiResult, IstioConfig } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Names and constants istiod uses (the gateway names and built-in classes are in builtins.ts,
// which analysis reads without loading the conversion)

export {
  EASTWEST_CONTROLLER,
  GATEWAY_CONTROLLER,
  KUBERNETES_GATEWAY_NAME,
  MESH_CONTROLLER,
  UNMANAGED_CONTROLLER,
  builtinGatewayClasses,
  internalGatewayName,
  isInternalGatewayName,
} from './builtins.ts';
export {
  ANNOTATION_GATEWAY_SEMANTICS,
  ANNOTATION_GATEWAY_SERVICE,
  ANNOTATION_PARENTS,
  ANNOTATION_PARENT_NAMESPACE,
  ANNOTATION_ROUTE_SEMANTICS,
  ANNOTATION_SERVICE_ACCOUNT,
} from './istioConfig.ts';
export type { ConvertOptions, GatewayApiResult, IstioConfig, RegistryService, ServiceRegistry, StatusWrite } from './types.ts';
export { sortHTTPRoutes } from './httpRoutes.ts';
export { inferencePoolServiceName } from './backendRefs.ts';

/** Converts every Gateway API object in `objects` (plus the Services, ServiceEntries, Secrets, ConfigMaps and Namespaces they refer to). */
export function convertGatewayApi(objects: readonly GwObject[], opts: ConvertOptions): GatewayApiResult {
  const ctx = new ConversionContext(objects, opts);
  convertGatewayClasses(ctx);
  convertGatewaysAndListenerSets(ctx);
  const vs: IstioConfig[] = [];
  const base: RouteWithKey[] = [];
  for (const r of sortByCreation(ctx.all('TCPRoute').slice())) vs.push(...convertTCPOrTLSRoute(ctx, r, 'TCPRoute'));
  for (const r of sortByCreation(ctx.all('TLSRoute').slice())) vs.push(...convertTCPOrTLSRoute(ctx, r, 'TLSRoute'));
  for (const r of sortByCreation(ctx.all('HTTPRoute').slice())) base.push(...convertHTTPOrGRPCRoute(ctx, r, 'HTTPRoute'));
  for (const r of sortByCreation(ctx.all('GRPCRoute').slice())) base.push(...convertHTTPOrGRPCRoute(ctx, r, 'GRPCRoute'));
  vs.push(...mergeHTTPRoutes(base));
  const drs = destinationRules(ctx);
  writeFinalGatewayStatuses(ctx);
  if (ctx.opts.inferenceExtension) {
    const inputs = {
      httpRoutes: ctx.all('HTTPRoute'),
      findGateway: (ns: string, name: string) => ctx.find('Gateway', ns, name),
      findService: (ns: string, name: string) => ctx.find('Service', ns, name),
      builtinClasses: ctx.builtinClasses,
      now: ctx.now,
    };
    for (const pool of ctx.all('InferencePool')) ctx.writeStatus(pool, inferencePoolStatus(pool, inputs));
  }
  const gateways = ctx.gatewayEntries.filter((g) => g.valid).map((g) => g.config);
  const byCreation = (xs: IstioConfig[]) =>
    xs.sort((a, b) => a.created - b.created || cmp(a.metadata.namespace, b.metadata.namespace) || cmp(a.metadata.name, b.metadata.name));
  const usedClasses = new Map<string, { name: string; controller: string; assumed: boolean }>();
  for (const c of ctx.gatewayClasses.values()) usedClasses.set(c.name, { ...c, assumed: false });
  for (const [name, controller] of ctx.builtinClasses) if (!usedClasses.has(name)) usedClasses.set(name, { name, controller, assumed: true });
  return {
    gateways: byCreation(gateways),
    virtualServices: byCreation(vs),
    destinationRules: byCreation(drs),
    statuses: ctx.statuses,
    classes: [...usedClasses.values()],
  };
}
