// Envoy config dumps read defensively and rendered as `istioctl proxy-config` prints them.
// Every table comes as structured rows (for the UI) and as istioctl's text (tableText).
export {
  readConfigDump,
  configDumpFromValue,
  parseDumpText,
  ConfigDump,
  ConfigDumpError,
  SECTION,
  type DumpSection,
  type JsonObject,
  type JsonValue,
  type ReadResult,
} from './dump.ts';
export { tableText, type Table, type SummaryOptions } from './table.ts';
export { clusterTable, sortedClusters, type ClusterFilter, type ClusterRow, type ClusterEntry } from './clusters.ts';
export {
  listenerTable,
  waypointListenerTable,
  describeFilterChainMatch,
  describeFilters,
  type ListenerFilter,
  type ListenerRow,
  type ListenerEntry,
  type WaypointListenerRow,
} from './listeners.ts';
export { routeTable, sortedRouteConfigs, describeMatch, describeRouteDomains, type RouteFilter, type RouteRow, type RouteConfigEntry } from './routes.ts';
export { edsTable, hostTable, sortedEndpointConfigs, isClustersStatus, type EndpointFilter, type EdsRow, type HostRow, type ClaEntry } from './endpoints.ts';
export { secretSummary, secretSummaryText, secretItems, type SecretItem, type SecretSummary, type SecretOptions } from './secrets.ts';
export { ecdsTable, versionSummary, versionSummaryText, type EcdsRow, type VersionSummary } from './ecds.ts';
export { renderAll, type AllOptions, type RenderResult } from './all.ts';
export {
  renderProxyConfig,
  defaultOutput,
  PROXY_CONFIG_COMMANDS,
  type ProxyConfigCommand,
  type ProxyConfigInput,
  type ProxyConfigRequest,
  type OutputFormat,
} from './render.ts';
export { envoyProtoSchema, loadProtoSchema, type ProtoSchema, type ProtoField } from './protoSchema.ts';
export { marshalJsonpb, messageSliceJson, goJsonIndent } from './protoJson.ts';
export { jsonToYaml } from './goYaml.ts';
export { tableFindings, findingsByRow, formatShare, type TableFinding, type FindingFlag } from './tableFindings.ts';
