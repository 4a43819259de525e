// EnvoyFilter patching as istiod does it: selection for a proxy (select.ts), the patch
// wrappers (wrapper.ts), proto merge over proto3 JSON (protoJson.ts), the per-resource patch
// functions (clusters.ts, listeners.ts, routes.ts) and where generation applies them (apply.ts).
export { envoyFiltersForProxy, mergeEnvoyFilters, proxyMatches, rawProxyMetadata, type MergedPatches } from './select.ts';
export { envoyFilterWrapper, type EnvoyFilterWrapper, type PatchWrapper, type ApplyTo, type Operation, type PatchContext } from './wrapper.ts';
export { newRun, type PatchRun } from './run.ts';
export { applyClusterMerge, insertedClusters, clusterMatch, parseSubsetKey } from './clusters.ts';
export { applyListenerPatches } from './listeners.ts';
export { applyRouteConfigurationPatches, parseGatewayRdsRouteName } from './routes.ts';
export {
  patchSidecarListeners,
  patchGatewayListeners,
  patchRouteConfigs,
  patchSidecarClusters,
  patchGatewayClusters,
  patchWaypointClusters,
  patchNotes,
} from './apply.ts';
export { insertedExtensionConfigurations } from './extensions.ts';
export { mergeMessage, mergeAnyWithAny, readMessage } from './protoJson.ts';
