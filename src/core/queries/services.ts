// The `services` view: Kubernetes Services and ServiceEntries with their hosts (FQDNs), ports,
// visibility, and the pods their selectors pick (from the files and derived).
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { serviceSpec } from '../config/api/kube.ts';
import { serviceEntry } from '../config/api/networking.ts';
import { hostToFqdn } from '../config/hosts.ts';
import { isWritten } from '../config/views.ts';
import { meshServices, type MeshService } from '../config/services.ts';
import { podsSelectedBy } from '../config/workloads.ts';
import type { ConfigView } from '../config/configView.ts';
import { argBag, containsText, optOneOf, optString, page, plainMap, sourceLocation, type QueryState } from './common.ts';
import type { ServicesArgs, ServicesResult, ServiceSummary } from './views.ts';
import { listAt } from '../document/maps.ts';

/** Pod names listed per service (the total is always given). */
export const MAX_POD_NAMES = 50;

export function readServicesArgs(raw: unknown): ServicesArgs & { offset: number; limit: number } {
  const bag = argBag(raw);
  return {
    namespace: optString(bag, 'namespace'),
    text: optString(bag, 'text'),
    kind: optOneOf(bag, 'kind', ['Service', 'ServiceEntry'] as const),
    ...page(bag),
  };
}

function selectedPods(view: ConfigView, selector: Record<string, string> | null, namespace: string): ServiceSummary['pods'] {
  // A Service without a selector has its endpoints managed by hand: it selects no pods.
  if (!selector || Object.keys(selector).length === 0) return { total: 0, names: [] };
  const pods = podsSelectedBy(view, selector, namespace);
  return { total: pods.length, names: pods.slice(0, MAX_POD_NAMES).map((p) => `${p.namespace}/${p.name}`) };
}

/** The registry's services, by the Service or ServiceEntry that defines them (exportTo and endpoints live there). */
function registryByResource(view: ConfigView): Map<Resource, MeshService[]> {
  const m = new Map<Resource, MeshService[]>();
  for (const s of meshServices(view)) {
    listAt(m, s.resource).push(s);
  }
  return m;
}

function kubeService(view: ConfigView, state: QueryState, r: Resource, registry: Map<Resource, MeshService[]>): ServiceSummary {
  const spec = serviceSpec(r);
  const selector = isWritten(r, ['spec', 'selector']) ? plainMap(spec.selector) : null;
  const out: ServiceSummary = {
    key: r.key,
    kind: 'Service',
    namespace: r.namespace,
    name: r.name,
    hosts: [hostToFqdn(r.namespace, r.name)],
    ports: spec.ports.map((p) => ({
      name: p.name,
      port: p.port,
      protocol: p.protocol || 'TCP',
      ...(p.targetPort !== undefined ? { targetPort: p.targetPort } : {}),
    })),
    exportTo: [...(registry.get(r)?.[0]?.exportTo ?? ['*'])],
    selector,
    pods: selectedPods(view, selector, r.namespace),
    type: spec.type || 'ClusterIP',
  };
  if (spec.clusterIP) out.clusterIP = spec.clusterIP;
  if (r.synthetic === 'placeholder') out.placeholder = true;
  const source = sourceLocation(r, state);
  if (source) out.source = source;
  return out;
}

function serviceEntrySummary(view: ConfigView, state: QueryState, r: Resource, registry: Map<Resource, MeshService[]>): ServiceSummary {
  const spec = serviceEntry(r);
  const selector = spec.workloadSelector ? plainMap(spec.workloadSelector.labels) : null;
  const out: ServiceSummary = {
    key: r.key,
    kind: 'ServiceEntry',
    namespace: r.namespace,
    name: r.name,
    hosts: spec.hosts.map((h) => hostToFqdn(r.namespace, h)),
    ports: spec.ports.map((p) => ({ name: p.name, port: p.number, protocol: p.protocol, ...(p.targetPort ? { targetPort: p.targetPort } : {}) })),
    exportTo: [...(registry.get(r)?.[0]?.exportTo ?? ['*'])],
    selector,
    pods: selectedPods(view, selector, r.namespace),
    endpoints: spec.endpoints.length,
    resolution: spec.resolution || 'NONE',
    location: spec.location || 'MESH_EXTERNAL',
  };
  const source = sourceLocation(r, state);
  if (source) out.source = source;
  return out;
}

export function answerServices(raw: unknown, state: QueryState): ServicesResult {
  const args = readServicesArgs(raw);
  const view = state.view;
  const candidates: Resource[] = [];
  if (args.kind !== 'ServiceEntry') candidates.push(...view.list(KINDS.Service));
  if (args.kind !== 'Service') candidates.push(...view.list(KINDS.ServiceEntry));
  const matching: Resource[] = [];
  for (const r of candidates) {
    if (args.namespace !== undefined && r.namespace !== args.namespace) continue;
    if (args.text) {
      const hosts = r.kindId === KINDS.Service.id ? [hostToFqdn(r.namespace, r.name)] : serviceEntry(r).hosts;
      if (!containsText(`${r.namespace}/${r.name} ${hosts.join(' ')}`, args.text)) continue;
    }
    matching.push(r);
  }
  matching.sort((a, b) =>
    a.namespace !== b.namespace ? (a.namespace < b.namespace ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : a.kindId < b.kindId ? -1 : 1,
  );
  const registry = registryByResource(view);
  const items = matching
    .slice(args.offset, args.offset + args.limit)
    .map((r) => (r.kindId === KINDS.Service.id ? kubeService(view, state, r, registry) : serviceEntrySummary(view, state, r, registry)));
  return { total: matching.length, offset: args.offset, items };
}
