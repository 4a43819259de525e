// The ambient data-plane model of one mesh version under one set of settings: the cluster
// (pods, enrollment, waypoints) and ztunnel's view of it. Built on first use and kept with
// the version's lookups (a few settings variants at a time, for the what-if controls).
import { KINDS, type KindInfo } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import { buildCluster, type Cluster } from './cluster.ts';
import { buildZtunnelState, type ZtunnelState } from './ztunnel.ts';
import { resolveSettings, settingsKey, type AmbientSettings } from './settings.ts';

export interface AmbientModel {
  cluster: Cluster;
  ztunnel: ZtunnelState;
}

/** Everything the model reads, so an edit to any of these kinds rebuilds it. */
const INPUTS: readonly KindInfo[] = [
  KINDS.Pod,
  KINDS.Service,
  KINDS.Namespace,
  KINDS.Node,
  KINDS.ServiceEntry,
  KINDS.WorkloadEntry,
  KINDS.KubernetesGateway,
  KINDS.GatewayClass,
  KINDS.AuthorizationPolicy,
  KINDS.PeerAuthentication,
  KINDS.ConfigMap,
  KINDS.Deployment,
  KINDS.StatefulSet,
  KINDS.DaemonSet,
  KINDS.ReplicaSet,
  KINDS.Job,
  KINDS.CronJob,
];

const MAX_VARIANTS = 6;

export function buildAmbientModel(view: ConfigView, settings: AmbientSettings = {}): AmbientModel {
  const cluster = buildCluster(view, resolveSettings(settings));
  return { cluster, ztunnel: buildZtunnelState(view, cluster) };
}

/** The model for this version and settings (cached per version, a few settings variants at a time). */
export function ambientModel(view: ConfigView, settings: AmbientSettings = {}): AmbientModel {
  const cache = view.lookups.cached('ambient.models', () => new Map<string, AmbientModel>(), INPUTS);
  const key = settingsKey(resolveSettings(settings));
  let m = cache.get(key);
  if (m) {
    cache.delete(key);
    cache.set(key, m);
    return m;
  }
  m = buildAmbientModel(view, settings);
  cache.set(key, m);
  while (cache.size > MAX_VARIANTS) cache.delete(cache.keys().next().value as string);
  return m;
}
