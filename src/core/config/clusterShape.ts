// The shape of the cluster the manifests run on, as far as they do not say it themselves:
// which nodes there are and which node each pod runs on, the pods' IPs, Services' cluster
// IPs and ServiceEntries' allocated addresses. What the files say wins; what we assume is
// deterministic (the same files give the same cluster) and marked as assumed.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { arr, isObj, str, type StringMap, EMPTY_STRING_MAP } from '../document/read.ts';
import type { ResourceReader } from './resourceReader.ts';
import type { ConfigView } from './configView.ts';
import { allocateClusterIps, assumedServiceIps, needsAssumedClusterIp, writtenClusterIps } from './services.ts';
import { podSpec, podStatus, serviceSpec } from './api/kube.ts';
import { serviceEntry, serviceEntryStatus } from './api/networking.ts';
import { isWildcardHost } from './hosts.ts';
import { fnv32a } from './fnv.ts';
import { rangeAddress, type AddressRange } from './addressRing.ts';
import { DEFAULT_POD_RANGE } from './derivedWorkloads.ts';

/** The nodes assumed when neither the files nor the user name any. */
export const DEFAULT_NODES: readonly string[] = ['node-a', 'node-b'];

/** What the user says about the cluster (the data-plane view's "cluster shape" settings). */
export interface ClusterShapeSettings {
  /** The node list to schedule pods on that name no node; replaces the assumed `node-a`, `node-b`. */
  nodes?: readonly string[];
}

export interface ClusterNode {
  name: string;
  /** Where we know it from: a Node object, the user's node list, a pod's `nodeName`, or assumed. */
  source: 'Node' | 'settings' | 'pod' | 'assumed';
  labels: StringMap;
  /** An address for host-network pods (the Node's InternalIP, else one of 192.168.0.0/24). */
  address: string;
}

function nodeInternalIp(node: Resource): string {
  const status = isObj(node.body.status) ? node.body.status : {};
  for (const a of arr(status.addresses)) if (isObj(a) && a.type === 'InternalIP') return str(a.address);
  return '';
}

/**
 * The cluster's nodes: Node objects, then the user's node list, then nodes that pods name
 * in `spec.nodeName`; `node-a` and `node-b` when there are none at all.
 */
export function clusterNodes(view: Pick<ResourceReader, 'list'>, pods: readonly Resource[], settings: ClusterShapeSettings = {}): ClusterNode[] {
  const out: ClusterNode[] = [];
  const seen = new Set<string>();
  const add = (name: string, source: ClusterNode['source'], labels: StringMap = EMPTY_STRING_MAP, address = '') => {
    if (name === '' || seen.has(name)) return;
    seen.add(name);
    out.push({ name, source, labels, address });
  };
  for (const n of view.list(KINDS.Node)) add(n.name, 'Node', n.labels, nodeInternalIp(n));
  for (const n of settings.nodes ?? []) add(n.trim(), 'settings');
  for (const p of pods) add(podSpec(p).nodeName, 'pod');
  if (out.length === 0) for (const n of DEFAULT_NODES) add(n, 'assumed');
  out.forEach((n, i) => {
    if (n.address === '') n.address = `192.168.0.${10 + (i % 240)}`;
  });
  return out;
}

/** The nodes pods without a `nodeName` are spread over: the user's list, else Node objects, else every known node. */
export function schedulableNodes(nodes: readonly ClusterNode[], settings: ClusterShapeSettings = {}): string[] {
  const user = (settings.nodes ?? []).map((n) => n.trim()).filter((n) => n !== '');
  if (user.length > 0) return user;
  const fromObjects = nodes.filter((n) => n.source === 'Node').map((n) => n.name);
  return fromObjects.length > 0 ? fromObjects : nodes.map((n) => n.name);
}

export interface PodPlacement {
  node: string;
  /** True when the pod names no node and we placed it (round-robin, in load order). */
  nodeAssumed: boolean;
  ips: string[];
  /** True when the pod has no status at all and we gave it an IP from its node's range. */
  ipAssumed: boolean;
  phase: string;
  ready: boolean;
}

function podIpsOf(pod: Resource): string[] {
  const st = podStatus(pod);
  const ips = st.podIPs.map((p) => p.ip).filter((ip) => ip !== '');
  if (ips.length === 0 && st.podIP !== '') ips.push(st.podIP);
  return ips;
}

function readyCondition(pod: Resource): boolean {
  const conditions = podStatus(pod).conditions;
  for (const c of arr(conditions)) if (isObj(c) && c.type === 'Ready') return str(c.status) === 'True';
  return false;
}

/**
 * Where each pod runs and at which IPs. A pod's `nodeName` and `status.podIPs` are used as
 * written. A pod without a node is placed round-robin (in load order) over the schedulable
 * nodes. A pod whose manifest has no `status` at all is taken as running and ready, with an
 * IP from its node's range (the /24 numbered n+1 of the pod CIDR, 10.244.<n+1>.0/24 in the
 * default one; host-network pods get the node's address); a pod whose status says otherwise
 * (no IP yet, not ready) is taken at its word.
 */
export function placePods(
  pods: readonly Resource[],
  nodes: readonly ClusterNode[],
  settings: ClusterShapeSettings = {},
  podRange: AddressRange = DEFAULT_POD_RANGE,
): Map<Resource, PodPlacement> {
  const targets = schedulableNodes(nodes, settings);
  const nodeIndex = new Map(nodes.map((n, i) => [n.name, i]));
  const taken = new Set<string>();
  for (const p of pods) for (const ip of podIpsOf(p)) taken.add(ip);
  const out = new Map<Resource, PodPlacement>();
  let next = 0;
  for (const pod of pods) {
    const spec = podSpec(pod);
    let node = spec.nodeName;
    let nodeAssumed = false;
    if (node === '' && targets.length > 0) {
      node = targets[next++ % targets.length] as string;
      nodeAssumed = true;
    }
    const hasStatus = isObj(pod.body.status);
    let ips = podIpsOf(pod);
    let ipAssumed = false;
    if (ips.length === 0 && !hasStatus) {
      ipAssumed = true;
      if (spec.hostNetwork) ips = [nodes.find((n) => n.name === node)?.address ?? '192.168.0.10'];
      else {
        // A pod CIDR of one /24 gives every node that one.
        const blocks = podRange.slots / 254;
        const block = blocks > 1 ? ((nodeIndex.get(node) ?? 0) % Math.min(250, blocks - 1)) + 1 : 0;
        let slot = fnv32a(`${pod.namespace}/${pod.name}`) % 253;
        for (let tries = 0; tries < 253; tries++) {
          const ip = rangeAddress(podRange, block * 254 + slot + 1);
          if (!taken.has(ip)) {
            taken.add(ip);
            ips = [ip];
            break;
          }
          slot = (slot + 1) % 253;
        }
      }
    }
    const phase = hasStatus ? podStatus(pod).phase || 'Pending' : 'Running';
    const ready = hasStatus ? readyCondition(pod) : true;
    out.set(pod, { node, nodeAssumed, ips, ipAssumed, phase, ready });
  }
  return out;
}

export interface ServiceAddresses {
  /** Cluster IPs ([] for a headless or ExternalName Service). */
  vips: string[];
  headless: boolean;
  /** True when the Service names no cluster IP and we allocated one from 10.96.0.0/16. */
  assumed: boolean;
}

/**
 * The cluster IPs of the workspace's Services and of `extra` ones (objects the cluster would
 * have that the files do not): as written, else assumed (a derived Service's written address is
 * assumed too). The workspace's Services get the
 * addresses every other view of the mesh gives them (services.ts assumedServiceIps); the
 * extra ones are allocated after them, clear of those.
 */
export function serviceAddresses(view: ConfigView, extra: readonly Resource[] = []): Map<Resource, ServiceAddresses> {
  const services = [...view.list(KINDS.Service), ...extra];
  const assumed = new Map(assumedServiceIps(view));
  const taken = new Set<string>(assumed.values());
  for (const s of services) for (const ip of writtenClusterIps(s)) if (ip !== 'None') taken.add(ip);
  allocateClusterIps(
    extra.filter((s) => !assumed.has(s) && needsAssumedClusterIp(s)),
    taken,
    assumed,
  );
  const out = new Map<Resource, ServiceAddresses>();
  for (const s of services) {
    if (serviceSpec(s).type === 'ExternalName') {
      out.set(s, { vips: [], headless: false, assumed: false });
      continue;
    }
    const written = writtenClusterIps(s);
    if (written.includes('None')) out.set(s, { vips: [], headless: true, assumed: false });
    // A derived Service's written address is one of ours (assumedGatewayDeployments writes it in).
    else if (written.length > 0) out.set(s, { vips: written, headless: false, assumed: s.synthetic === 'derived' });
    else {
      const vip = assumed.get(s);
      out.set(s, { vips: vip ? [vip] : [], headless: false, assumed: true });
    }
  }
  return out;
}

export interface ServiceEntryHostAddresses {
  addresses: string[];
  /** `spec` (written addresses), `status` (istiod's allocation, as written), `allocated` (ours, approximate), or `none`. */
  source: 'spec' | 'status' | 'allocated' | 'none';
}

/**
 * The addresses of each ServiceEntry host: `spec.addresses`, else `status.addresses` for
 * that host, else one IPv4 from istiod's auto-allocation range 240.240.0.0/16, given in
 * manifest order starting at 240.240.0.1 (istiod's order depends on its controller; ours is
 * an approximation). No address for `resolution: NONE`, for a ServiceEntry labelled
 * `networking.istio.io/enable-autoallocate-ip=false`, or for a wildcard host unless its
 * resolution is DYNAMIC_DNS.
 */
export function serviceEntryAddresses(view: Pick<ResourceReader, 'list'>): Map<Resource, Map<string, ServiceEntryHostAddresses>> {
  const out = new Map<Resource, Map<string, ServiceEntryHostAddresses>>();
  const taken = new Set<string>();
  const entries = view.list(KINDS.ServiceEntry);
  for (const se of entries) for (const a of serviceEntryStatus(se).addresses) taken.add(a.value);
  let next = 1;
  const allocate = (): string => {
    for (;;) {
      const ip = `240.240.${Math.floor(next / 256) % 256}.${next % 256}`;
      next++;
      if (next % 256 === 0) next++;
      if (!taken.has(ip)) {
        taken.add(ip);
        return ip;
      }
    }
  };
  for (const se of entries) {
    const spec = serviceEntry(se);
    const byHost = new Map<string, ServiceEntryHostAddresses>();
    const status = serviceEntryStatus(se).addresses;
    for (const host of spec.hosts) {
      if (spec.addresses.length > 0) {
        byHost.set(host, { addresses: [...spec.addresses], source: 'spec' });
        continue;
      }
      const fromStatus = status.filter((a) => a.host === host).map((a) => a.value);
      if (fromStatus.length > 0) {
        byHost.set(host, { addresses: fromStatus, source: 'status' });
        continue;
      }
      const resolution = spec.resolution || 'NONE';
      const optOut = se.labels['networking.istio.io/enable-autoallocate-ip'] === 'false';
      if (resolution === 'NONE' || optOut || (isWildcardHost(host) && resolution !== 'DYNAMIC_DNS')) {
        byHost.set(host, { addresses: [], source: 'none' });
        continue;
      }
      byHost.set(host, { addresses: [allocate()], source: 'allocated' });
    }
    out.set(se, byHost);
  }
  return out;
}
