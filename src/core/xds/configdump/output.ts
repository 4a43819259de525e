// `proxy-config … -o json|yaml`: what istioctl prints for each command, byte for byte. Needs
// the proto schema (field order, JSON names, types), which the caller passes in.
import { filteredClusters, type ClusterFilter } from './clusters.ts';
import { type ConfigDump, ConfigDumpError, SECTION, type JsonValue } from './dump.ts';
import { ecdsFilters } from './ecds.ts';
import { filteredClusterStatuses, sortedEndpointConfigs, type EndpointFilter } from './endpoints.ts';
import { jsonToYaml } from './goYaml.ts';
import { filteredListeners, type ListenerFilter } from './listeners.ts';
import { goJsonIndent, marshalJsonpb, messageSliceJson } from './protoJson.ts';
import type { ProtoSchema } from './protoSchema.ts';
import { filteredRouteConfigs, type RouteFilter } from './routes.ts';

export type DumpFormat = 'json' | 'yaml';

const CLUSTER = 'envoy.config.cluster.v3.Cluster';
const LISTENER = 'envoy.config.listener.v3.Listener';
const ROUTE_CONFIG = 'envoy.config.route.v3.RouteConfiguration';
const CLA = 'envoy.config.endpoint.v3.ClusterLoadAssignment';
const CLUSTER_STATUS = 'envoy.admin.v3.ClusterStatus';

/** The JSON text, or its YAML conversion, with the newline istioctl's Fprintln adds. */
function finish(json: string, format: DumpFormat): string {
  return (format === 'yaml' ? jsonToYaml(json) : json) + '\n';
}

function slice(items: JsonValue[], typeName: string, schema: ProtoSchema, format: DumpFormat): string {
  return finish(
    messageSliceJson(
      items.map((json) => ({ json, typeName })),
      schema,
    ),
    format,
  );
}

/** PrintClusterDump. */
export function clustersDump(dump: ConfigDump, filter: ClusterFilter, schema: ProtoSchema, format: DumpFormat): string {
  return slice(
    filteredClusters(dump, filter).map((e) => e.cluster),
    CLUSTER,
    schema,
    format,
  );
}

/** PrintListenerDump. */
export function listenersDump(dump: ConfigDump, filter: ListenerFilter, schema: ProtoSchema, format: DumpFormat): string {
  return slice(
    filteredListeners(dump, filter).map((e) => e.listener),
    LISTENER,
    schema,
    format,
  );
}

/** PrintRouteDump. */
export function routesDump(dump: ConfigDump, filter: RouteFilter, schema: ProtoSchema, format: DumpFormat): string {
  return slice(
    filteredRouteConfigs(dump, filter).map((e) => e.routeConfig),
    ROUTE_CONFIG,
    schema,
    format,
  );
}

/** PrintEndpoints (EDS from the config dump). */
export function edsDump(dump: ConfigDump, filter: EndpointFilter, schema: ProtoSchema, format: DumpFormat): string {
  return slice(
    sortedEndpointConfigs(dump, filter).map((e) => e.cla),
    CLA,
    schema,
    format,
  );
}

/** clusters.go PrintEndpoints (from `/clusters?format=json`). */
export function clusterStatusesDump(clusters: unknown, filter: EndpointFilter, schema: ProtoSchema, format: DumpFormat): string {
  return slice(filteredClusterStatuses(clusters, filter), CLUSTER_STATUS, schema, format);
}

/** PrintBootstrapDump: jsonpb with a 4-space indent (Struct and map quirks included). */
export function bootstrapDump(dump: ConfigDump, schema: ProtoSchema, format: DumpFormat): string {
  const section = dump.section(SECTION.bootstrap);
  return finish(marshalJsonpb(section, 'envoy.admin.v3.BootstrapConfigDump', schema, { indent: '    ' }), format);
}

/** PrintSecretDump: jsonpb with a 4-space indent. */
export function secretsDump(dump: ConfigDump, schema: ProtoSchema, format: DumpFormat): string {
  const section = dump.optionalSection(SECTION.secrets);
  if (!section) throw new ConfigDumpError(`sidecar doesn't support secrets: config dump has no configuration type ${SECTION.secrets}`);
  return finish(marshalJsonpb(section, 'envoy.admin.v3.SecretsConfigDump', schema, { indent: '    ' }), format);
}

/**
 * PrintEcds: every EcdsConfigDump merged into one. istioctl prints protojson's multi-line form,
 * whose spacing protojson randomizes; we print it as istioctl's own test normalizes it
 * (json.MarshalIndent, 4 spaces).
 */
export function ecdsDump(dump: ConfigDump, schema: ProtoSchema, format: DumpFormat): string {
  const merged = { ecds_filters: ecdsFilters(dump) };
  return finish(goJsonIndent(marshalJsonpb(merged, 'envoy.admin.v3.EcdsConfigDump', schema)), format);
}

/** `proxy-config all -o json|yaml`: the dump as it was read (the file itself, for JSON). */
export function rawDump(text: string, value: unknown, format: DumpFormat): string {
  if (format === 'json') return text + '\n';
  const body = text.replace(/^\uFEFF/, '');
  const json = /^\s*[[{]/.test(body) ? body : JSON.stringify(value);
  return jsonToYaml(json) + '\n';
}
