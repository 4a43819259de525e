// Where a workload runs: the locality of its Node (from the node's topology labels) and the
// labels Istio's service registry gives its endpoints, which add that locality, the node's
// hostname, and the cluster and network to the pod's own labels (pilot's AugmentLabels).
// Subsets and locality-aware routing select endpoints by these labels, not by pod labels.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from './configView.ts';
import type { LabelMap } from './labels.ts';
import { podSpec } from './api/kube.ts';
import {
  HOSTNAME_LABEL,
  TOPOLOGY_CLUSTER_LABEL,
  TOPOLOGY_NETWORK_LABEL,
  TOPOLOGY_REGION_LABEL,
  TOPOLOGY_SUBZONE_LABEL,
  TOPOLOGY_ZONE_LABEL,
} from './wellKnown.ts';

export interface Locality {
  region: string;
  zone: string;
  subzone: string;
}

/** Pilot's LocalityToString: `region[/zone[/subzone]]`; a subzone without a zone is dropped. */
export function localityToString(l: Locality): string {
  if (l.zone === '') return l.region;
  if (l.subzone === '') return `${l.region}/${l.zone}`;
  return `${l.region}/${l.zone}/${l.subzone}`;
}

/** Pilot's SplitLocalityLabel: region, zone and subzone of a `/`-separated locality. */
export function splitLocality(locality: string): Locality {
  const items = locality.split('/');
  return { region: items[0] ?? '', zone: items[1] ?? '', subzone: items[2] ?? '' };
}

/** The locality string of a node from its topology labels ('' when the Node is unknown). */
export function nodeLocality(view: Pick<ConfigView, 'find'>, nodeName: string): string {
  if (nodeName === '') return '';
  const node = view.find(KINDS.Node, '', nodeName);
  if (!node) return '';
  return localityToString({
    region: node.labels[TOPOLOGY_REGION_LABEL] ?? '',
    zone: node.labels[TOPOLOGY_ZONE_LABEL] ?? '',
    subzone: node.labels[TOPOLOGY_SUBZONE_LABEL] ?? '',
  });
}

/** What AugmentLabels adds to an endpoint's labels; empty values add nothing. */
export interface EndpointTopology {
  clusterId?: string;
  locality?: string;
  nodeName?: string;
  network?: string;
}

/** The label keys AugmentLabels may set: endpoint labels differ from pod labels only in these. */
export const ENDPOINT_TOPOLOGY_LABELS: ReadonlySet<string> = new Set([
  TOPOLOGY_REGION_LABEL,
  TOPOLOGY_ZONE_LABEL,
  TOPOLOGY_SUBZONE_LABEL,
  TOPOLOGY_CLUSTER_LABEL,
  HOSTNAME_LABEL,
  TOPOLOGY_NETWORK_LABEL,
]);

/**
 * Pilot's AugmentLabels: a copy of `labels` with the locality's region, zone and subzone,
 * the cluster and the node's hostname set (each only when non-empty, replacing the pod's own
 * value), and the network unless the labels already name one.
 */
export function augmentLabels(labels: LabelMap, t: EndpointTopology): LabelMap {
  const out = Object.assign(Object.create(null) as Record<string, string>, labels);
  const { region, zone, subzone } = splitLocality(t.locality ?? '');
  if (region !== '') out[TOPOLOGY_REGION_LABEL] = region;
  if (zone !== '') out[TOPOLOGY_ZONE_LABEL] = zone;
  if (subzone !== '') out[TOPOLOGY_SUBZONE_LABEL] = subzone;
  if (t.clusterId) out[TOPOLOGY_CLUSTER_LABEL] = t.clusterId;
  if (t.nodeName) out[HOSTNAME_LABEL] = t.nodeName;
  if (t.network && (out[TOPOLOGY_NETWORK_LABEL] ?? '') === '') out[TOPOLOGY_NETWORK_LABEL] = t.network;
  return out;
}

/**
 * A pod's endpoint labels as Istio's analyzers build them (no cluster, no network): its
 * labels with its node's locality and the node name as hostname. The node name counts even
 * when the Node is not in the workspace. Computed once per pod and mesh version.
 */
export function podEndpointLabels(view: ConfigView, pod: Resource): LabelMap {
  const memo = view.lookups.cached('config.podEndpointLabels', () => new Map<Resource, LabelMap>(), [KINDS.Pod, KINDS.Node]);
  let labels = memo.get(pod);
  if (!labels) {
    const nodeName = podSpec(pod).nodeName;
    labels = nodeName === '' ? pod.labels : augmentLabels(pod.labels, { locality: nodeLocality(view, nodeName), nodeName });
    memo.set(pod, labels);
  }
  return labels;
}
