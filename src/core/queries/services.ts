// The `services` view: Kubernetes Services and ServiceEntries with their hosts (FQDNs), ports,
// visibility, and the pods their selectors pick (from the files and derived).
import type { Resource } from '../model/types.ts';
import { KINDS } from '../model/kinds.ts';
import { isObj } from '../model/read.ts';
import { serviceSpec } from '../config/api/kube.ts';
import { serviceEntry } from '../config/api/networking.ts';
import { hostToFqdn } from '../config/hosts.ts';
import { EXPORT_TO_ANNOTATION } from '../config/registry.ts';
import { toLabelMap } from '../config/labels.ts';
import { podsSelectedBy } from '../config/workloads.ts';
import type { ConfigView } from '../config/configView.ts';
import { argBag, containsText, optOneOf, optString, page, plainMap, sourceLocation, type QueryState } from './common.ts';
import type { ServicesArgs, ServicesResult, ServiceSummary } from './views.ts';

/** Pod names listed per service (the total is always given). */
export const MAX_POD_NAMES = 50;

export function readServicesArgs(raw: unknown): ServicesArgs & { offset: number; limit: number } {
  const bag = argBag(raw);
  return { namespace: optString(bag, 'namespace'), text: optString(bag, 'text'), kind: optOneOf(bag, 'kind', ['Service', 'ServiceEntry'] as const), ...page(bag) };
}

function selectedPods(view: ConfigView, selector: Record<string, string> | null, namespace: string): ServiceSummary['pods'] {
  // A Service without a selector has its endpoints managed by hand: it selects no pods.
  if (!selector || Object.keys(selector).length === 0) return { total: 0, names: [] };
  const pods = podsSelectedBy(view, selector, namespace);
  return { total: pods.length, names: pods.slice(0, MAX_POD_NAMES).map((p) => `${p.namespace}/${p.name}`) };
}

function kubeService(view: ConfigView, state: QueryState, r: Resource): ServiceSummary {
  const spec = serviceSpec(r);
  const selector = isObj(r.body.spec) && isObj(r.body.spec.selector) ? plainMap(spec.selector) : null;
  const anno = r.annotations[EXPORT_TO_ANNOTATION] ?? '';
  const out: ServiceSummary = {
    key: r.key,
    kind: 'Service',
    namespace: r.namespace,
    name: r.name,
    hosts: [hostToFqdn(r.namespace, r.name)],
    ports: spec.ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol || 'TCP', ...(p.targetPort !== undefined ? { targetPort: p.targetPort } : {}) })),
    exportTo: anno === '' ? ['*'] : anno.split(',').map((s) => s.trim()).filter((s) => s !== ''),
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

function serviceEntrySummary(view: ConfigView, state: QueryState, r: Resource): ServiceSummary {
  const spec = serviceEntry(r);
  // networking's WorkloadSelector is `{labels: {...}}`.
  const rawSelector = isObj(r.body.spec) && isObj(r.body.spec.workloadSelector) ? r.body.spec.workloadSelector.labels : undefined;
  const selector = isObj(rawSelector) ? toLabelMap(rawSelector) : null;
  const out: ServiceSummary = {
    key: r.key,
    kind: 'ServiceEntry',
    namespace: r.namespace,
    name: r.name,
    hosts: spec.hosts.map((h) => hostToFqdn(r.namespace, h)),
    ports: spec.ports.map((p) => ({ name: p.name, port: p.number, protocol: p.protocol, ...(p.targetPort ? { targetPort: p.targetPort } : {}) })),
    exportTo: spec.exportTo.length === 0 ? ['*'] : [...spec.exportTo],
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
  matching.sort((a, b) => (a.namespace !== b.namespace ? (a.namespace < b.namespace ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : a.kindId < b.kindId ? -1 : 1));
  const items = matching
    .slice(args.offset, args.offset + args.limit)
    .map((r) => (r.kindId === KINDS.Service.id ? kubeService(view, state, r) : serviceEntrySummary(view, state, r)));
  return { total: matching.length, offset: args.offset, items };
}
