// "Why does my proxy differ from my config?": a real Envoy `/config_dump` (or `istioctl
// proxy-config all -o json`) against the config generated from the workspace for a proxy.
// Both sides are read the same way (proto field names or JSON names, as protojson accepts)
// and written in one canonical proto JSON form (configdump/protoJson's jsonpb printer: JSON
// names, zero values left out, enums by name), so a field Envoy writes as its default and a
// field we leave out compare equal. Then listeners, route configurations, clusters and
// endpoint sets are matched by name (diff.ts) and the differing fields listed. Fields that
// only the running proxy knows are left out first: version_info, last_updated (entries'
// bookkeeping, not resources) and the endpoints' health_status.
import { type ConfigDump, SECTION, asObject, field, list, str, typeUrlOf, type JsonObject, type JsonValue } from './configdump/dump.ts';
import { marshalJsonpb } from './configdump/protoJson.ts';
import type { ProtoSchema } from './configdump/protoSchema.ts';
import { diffResources, type FieldChange, type ResourceSet, type ResourceType } from './diff.ts';
import type { Json } from './types.ts';

export type DumpDiffStatus = 'only-in-dump' | 'only-generated' | 'differs';

export interface DumpDifference {
  type: ResourceType;
  name: string;
  status: DumpDiffStatus;
  /** `differs`: the fields, `before` = generated, `after` = the dump (at most 20). */
  fields: FieldChange[];
  moreFields: number;
}

export interface DumpDiffCount {
  dump: number;
  generated: number;
  same: number;
  differs: number;
  onlyInDump: number;
  onlyGenerated: number;
}

export interface DumpDiffResult {
  differences: DumpDifference[];
  counts: Record<ResourceType, DumpDiffCount>;
  /** The dump's node id (`sidecar~10.0.0.1~pod.ns~ns.svc.cluster.local`), when it has a bootstrap. */
  nodeId?: string;
  /** `<pod>.<namespace>` from the node id: the proxy the dump was taken from. */
  dumpProxy?: string;
  /** What was not compared, and why. */
  notes: string[];
}

/** Fields only a running proxy has: never a difference. */
export const RUNTIME_ONLY_FIELDS = ['versionInfo', 'lastUpdated', 'healthStatus'] as const;
const IGNORED = new Set<string>(RUNTIME_ONLY_FIELDS);

const TYPE_NAMES: Record<ResourceType, string> = {
  listener: 'envoy.config.listener.v3.Listener',
  route: 'envoy.config.route.v3.RouteConfiguration',
  cluster: 'envoy.config.cluster.v3.Cluster',
  endpoints: 'envoy.config.endpoint.v3.ClusterLoadAssignment',
};

const RESOURCE_TYPES: ResourceType[] = ['listener', 'route', 'cluster', 'endpoints'];

/** The dynamic (xDS-delivered) resources of a dump, as they came. */
export function dumpResources(dump: ConfigDump): { resources: Record<ResourceType, JsonObject[]>; hasEds: boolean } {
  const out: Record<ResourceType, JsonObject[]> = { listener: [], route: [], cluster: [], endpoints: [] };
  const push = (t: ResourceType, v: unknown) => {
    const o = asObject(v);
    if (o) out[t].push(o);
  };
  const listeners = dump.optionalSection(SECTION.listeners);
  for (const l of list(listeners, 'dynamic_listeners')) {
    const active = asObject(field(l, 'active_state'));
    push('listener', field(active ?? asObject(field(l, 'warming_state')), 'listener'));
  }
  for (const r of list(dump.optionalSection(SECTION.routes), 'dynamic_route_configs')) push('route', field(r, 'route_config'));
  const clusters = dump.optionalSection(SECTION.clusters);
  for (const c of [...list(clusters, 'dynamic_active_clusters'), ...list(clusters, 'dynamic_warming_clusters')]) push('cluster', field(c, 'cluster'));
  const eds = dump.optionalSection(SECTION.endpoints);
  for (const e of list(eds, 'dynamic_endpoint_configs')) push('endpoints', field(e, 'endpoint_config'));
  return { resources: out, hasEds: eds !== undefined };
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (IGNORED.has(k)) continue;
    // defineProperty: a `__proto__` key is data in a dump, not this object's prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: strip(x), enumerable: true, writable: true, configurable: true });
    else out[k] = strip(x);
  }
  return out;
}

/** One resource in canonical proto JSON, without `@type` and runtime-only fields. */
export function canonicalResource(res: JsonObject, type: ResourceType, schema: ProtoSchema): Json {
  // Names key the comparison; one that is not text is compared as written (the caller's fallback).
  for (const k of ['name', 'clusterName', 'cluster_name']) {
    if (Object.hasOwn(res, k) && res[k] !== undefined && res[k] !== null && typeof res[k] !== 'string') throw new Error(`${k} is not text`);
  }
  const typeUrl = typeUrlOf(res) || `type.googleapis.com/${TYPE_NAMES[type]}`;
  const text = marshalJsonpb({ ...res, '@type': typeUrl } as JsonValue, 'google.protobuf.Any', schema);
  // A field of the wrong type is printed as its JSON text (see protoJson's asText), so such a
  // resource still has one canonical form.
  const canon = JSON.parse(text) as Record<string, unknown>;
  delete canon['@type'];
  return strip(canon) as Json;
}

/** `<pod>.<namespace>` of an Envoy node id (`<type>~<ip>~<pod>.<ns>~<ns>.svc.<domain>`). */
export function proxyOfNodeId(id: string): string | undefined {
  const parts = id.split('~');
  return parts.length === 4 && parts[2] !== '' ? parts[2] : undefined;
}

function canonicalSet(resources: Record<ResourceType, JsonObject[]>, schema: ProtoSchema, side: string, notes: string[]): ResourceSet {
  const conv = (t: ResourceType) =>
    resources[t].map((r) => {
      try {
        return canonicalResource(r, t, schema);
      } catch (e) {
        notes.push(
          `${side}: ${t} ${str(r, 'name') || str(r, 'cluster_name')} could not be read as ${TYPE_NAMES[t]} (${e instanceof Error ? e.message : String(e)}); compared as written.`,
        );
        const raw = strip(r) as Json;
        // Names key the comparison: a name that is not text is shown as its JSON.
        for (const k of ['name', 'clusterName', 'cluster_name']) if (raw[k] !== undefined && typeof raw[k] !== 'string') raw[k] = JSON.stringify(raw[k]);
        if (raw.clusterName === undefined && typeof raw.cluster_name === 'string') raw.clusterName = raw.cluster_name;
        return raw;
      }
    });
  return { listeners: conv('listener'), routes: conv('route'), clusters: conv('cluster'), endpoints: conv('endpoints') };
}

/** Differences between a real dump and the dump generated for a proxy. */
export function diffDumpWithGenerated(real: ConfigDump, generated: ConfigDump, schema: ProtoSchema): DumpDiffResult {
  const notes: string[] = [];
  const a = dumpResources(real);
  const g = dumpResources(generated);
  if (!a.hasEds) {
    notes.push(
      'The dump has no endpoints section (Envoy writes it with /config_dump?include_eds, istioctl with proxy-config all -o json): endpoints are not compared.',
    );
    a.resources.endpoints = [];
    g.resources.endpoints = [];
  }
  const dumpSet = canonicalSet(a.resources, schema, 'dump', notes);
  const genSet = canonicalSet(g.resources, schema, 'generated', notes);
  const changes = diffResources(genSet, dumpSet);
  const differences: DumpDifference[] = changes.map((c) => ({
    type: c.type,
    name: c.name,
    status: c.change === 'added' ? 'only-in-dump' : c.change === 'removed' ? 'only-generated' : 'differs',
    fields: c.fields,
    moreFields: c.moreFields,
  }));
  const counts = {} as Record<ResourceType, DumpDiffCount>;
  for (const t of RESOURCE_TYPES) {
    const mine = differences.filter((d) => d.type === t);
    const differs = mine.filter((d) => d.status === 'differs').length;
    const onlyInDump = mine.filter((d) => d.status === 'only-in-dump').length;
    const onlyGenerated = mine.filter((d) => d.status === 'only-generated').length;
    counts[t] = {
      dump: a.resources[t].length,
      generated: g.resources[t].length,
      same: a.resources[t].length - differs - onlyInDump,
      differs,
      onlyInDump,
      onlyGenerated,
    };
  }
  const nodeId = str(asObject(field(asObject(field(real.optionalSection(SECTION.bootstrap), 'bootstrap')), 'node')), 'id');
  const result: DumpDiffResult = { differences, counts, notes };
  if (nodeId !== '') {
    result.nodeId = nodeId;
    const p = proxyOfNodeId(nodeId);
    if (p) result.dumpProxy = p;
  }
  return result;
}

const LABEL: Record<DumpDiffStatus, string> = { 'only-in-dump': 'only in dump', 'only-generated': 'only generated', differs: 'differs' };

/** The differences as text (the CLI's output): one line per resource, its differing fields under it. */
export function dumpDiffText(r: DumpDiffResult, proxy: string): string {
  const lines: string[] = [];
  lines.push(`Dump${r.nodeId ? ` of ${r.nodeId}` : ''} compared with the config generated for ${proxy}.`);
  lines.push(`Ignored (runtime only): ${RUNTIME_ONLY_FIELDS.join(', ')}.`);
  for (const n of r.notes) lines.push(n);
  if (r.dumpProxy && r.dumpProxy !== proxy) lines.push(`Note: the dump comes from ${r.dumpProxy}, not ${proxy}.`);
  lines.push('');
  if (r.differences.length === 0) lines.push('No differences in listeners, routes, clusters or endpoints.');
  else {
    const w = Math.max(...r.differences.map((d) => d.type.length));
    const st = Math.max(...r.differences.map((d) => LABEL[d.status].length));
    for (const d of r.differences) {
      lines.push(`${d.type.padEnd(w)}  ${LABEL[d.status].padEnd(st)}  ${d.name}`);
      for (const f of d.fields) lines.push(`    ${f.path}: generated ${f.before ?? '(absent)'}, dump ${f.after ?? '(absent)'}`);
      if (d.moreFields > 0) lines.push(`    … and ${d.moreFields} more`);
    }
  }
  lines.push('');
  for (const t of RESOURCE_TYPES) {
    const c = r.counts[t];
    lines.push(
      `${t}: ${c.dump} in the dump, ${c.generated} generated; ${c.same} the same, ${c.differs} differ, ${c.onlyInDump} only in the dump, ${c.onlyGenerated} only generated`,
    );
  }
  return `${lines.join('\n')}\n`;
}
