// The proxies of the mesh and what generation reads of each (spec §0.2): a sidecar for every
// injected pod (real or derived from a controller), an ingress/egress gateway ("router") for
// every pod an Istio Gateway selects, and waypoints (listed; generation for them is a TODO until
// the Gateway API branch lands). Service targets: the (service, port) pairs whose endpoints are
// the proxy's address.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import { podIndex, podAddress, podIp, podShape, podServiceAccount, podAddresses } from '../config/workloads.ts';
import { sidecarInjected } from '../config/workloadState.ts';
import { selectorMatches, type LabelMap } from '../config/labels.ts';
import { gateway as gatewaySpec } from '../config/api/networking.ts';
import { podSpec } from '../config/api/kube.ts';
import { nodeLocality, splitLocality } from '../config/locality.ts';
import { assumedGatewayDeployments, DEFAULT_CLUSTER_ID, podWorkloadName, type ServicePortInfo } from '../config/services.ts';
import { GATEWAY_MANAGED_LABEL, GATEWAY_NAME_LABEL, MESH_GATEWAY_CONTROLLER, PROXY_CONFIG_ANNOTATION, TOPOLOGY_NETWORK_LABEL } from '../config/wellKnown.ts';
import { isObj, str } from '../document/read.ts';
import { injectorConfigMapName, injectorGlobalString } from '../config/injector.ts';
import { loadYaml } from '../document/yamlSchema.ts';
import type { PushContext, Service } from './pushContext.ts';
import type { InterceptionMode, Proxy, ProxyType } from './types.ts';
import { isIPv4, isIPv6 } from './net.ts';
import { ambientModel } from '../ambient/dataPlane.ts';
import { GATEWAY_CLASS_NAME_LABEL, waypointInfrastructure } from '../config/waypoints.ts';

/** The Istio version the generated config targets (gates a few version-dependent fields). */
export const DEFAULT_ISTIO_VERSION = '1.30.0';

/** A proxy of the mesh, as listed for the picker. */
export interface ProxyRef {
  /** `<pod>.<namespace>`, as `istioctl proxy-config` takes it. */
  id: string;
  type: ProxyType;
  pod: Resource;
  /** The pod's address is ours (it had none). */
  syntheticAddress: boolean;
  /** The address of a pod the store does not hold (a waypoint's deployment, placed by the ambient model). */
  address?: string;
}

/** What makes a pod a gateway: an Istio Gateway selecting it, or the labels of Istio's gateway charts. */
function isRouterPod(view: ConfigView, pod: Resource): boolean {
  const role = pod.labels.istio;
  if (role === 'ingressgateway' || role === 'egressgateway' || role === 'eastwestgateway') return true;
  if (pod.labels[GATEWAY_NAME_LABEL] !== undefined && pod.labels[GATEWAY_MANAGED_LABEL] !== MESH_GATEWAY_CONTROLLER) return true;
  for (const gw of view.list(KINDS.Gateway)) {
    const sel = gatewaySpec(gw).selector;
    if (Object.keys(sel).length > 0 && selectorMatches(sel, pod.labels)) return true;
  }
  for (const c of podSpec(pod).containers) if (c.name === 'istio-proxy' && c.args.includes('router')) return true;
  return false;
}

function isWaypointPod(pod: Resource): boolean {
  return pod.labels[GATEWAY_MANAGED_LABEL] === MESH_GATEWAY_CONTROLLER;
}

/** agentgateway waypoints are not Envoy: istiod sends them no LDS/CDS, so they are not proxies here. */
function isAgentgateway(pod: Resource): boolean {
  return pod.labels[GATEWAY_CLASS_NAME_LABEL] === 'istio-agentgateway-waypoint';
}

/**
 * Whether the workspace runs an ingress gateway of its own: a pod from the files (or derived
 * from a Deployment in them) labelled `istio: ingressgateway`, the label Istio's ingress
 * chart gives its pods, the placeholder carries and Istio Gateways select by default. Such a
 * pod takes every role the placeholder plays, so the placeholder is no proxy of its own then
 * ("Assume an ingress gateway … when the workspace has none"). The analysis keeps the
 * placeholder as istioctl does (it adds its dummy pod whatever the files hold).
 */
export function workspaceHasIngressGateway(pods: readonly Resource[]): boolean {
  return pods.some((p) => p.synthetic !== 'placeholder' && p.labels.istio === 'ingressgateway');
}

/** Every proxy of the mesh: gateways, waypoints and injected pods, in pod order. */
export function listProxies(view: ConfigView): ProxyRef[] {
  return view.lookups.cached('xds.proxies', () => {
    const out: ProxyRef[] = [];
    const addrs = podAddresses(view);
    const pods = podIndex(view).all;
    const skipPlaceholder = workspaceHasIngressGateway(pods);
    for (const pod of pods) {
      if (skipPlaceholder && pod.synthetic === 'placeholder') continue;
      let type: ProxyType | undefined;
      if (isWaypointPod(pod)) {
        if (isAgentgateway(pod)) continue;
        type = 'waypoint';
      } else if (isRouterPod(view, pod)) type = 'router';
      else if (sidecarInjected(view, podShape(pod)).inject) type = 'sidecar';
      if (!type) continue;
      out.push({ id: `${pod.name}.${pod.namespace}`, type, pod, syntheticAddress: addrs.get(pod)?.synthetic ?? false });
    }
    // Waypoints istiod's deployment controller would run for waypoint Gateways whose pods the files do not hold.
    // (Only when there are such Gateways: the ambient model, which places them, is not free on a large mesh.)
    const listed = new Set(out.map((p) => p.id));
    const infra =
      view.list(KINDS.KubernetesGateway).length > 0 && waypointInfrastructure(view, podIndex(view).all).pods.length > 0 ? ambientModel(view).cluster.pods : [];
    for (const p of infra) {
      if (p.role !== 'waypoint' || p.origin !== 'waypoint' || isAgentgateway(p.resource)) continue;
      const id = `${p.name}.${p.namespace}`;
      if (listed.has(id)) continue;
      out.push({ id, type: 'waypoint', pod: p.resource, syntheticAddress: p.ipAssumed, ...(p.ips[0] ? { address: p.ips[0] } : {}) });
    }
    // Gateways istiod's deployment controller would run for Kubernetes Gateways of class istio.
    for (const pod of assumedGatewayDeployments(view).pods) {
      const id = `${pod.name}.${pod.namespace}`;
      if (listed.has(id)) continue;
      const ip = podIp(pod);
      out.push({ id, type: 'router', pod, syntheticAddress: true, ...(ip ? { address: ip } : {}) });
    }
    return out;
  });
}

/** Finds a proxy by `<pod>.<namespace>`, `<pod>` in `namespace`, or a controller name (`reviews-v1.default`). */
export function findProxy(view: ConfigView, ref: string, namespace = 'default'): ProxyRef | undefined {
  const all = listProxies(view);
  const exact = all.find((p) => p.id === ref) ?? all.find((p) => p.pod.name === ref && p.pod.namespace === namespace);
  if (exact) return exact;
  const dot = ref.lastIndexOf('.');
  const [name, ns] = dot > 0 ? [ref.slice(0, dot), ref.slice(dot + 1)] : [ref, namespace];
  const byController = all.find((p) => p.pod.namespace === ns && (p.pod.derivedFrom?.name === name || podWorkloadName(p.pod) === name));
  if (byController) return byController;
  // A Deployment's pods are named `<deployment>-<replica set hash>-<suffix>` (also without owner references).
  const named = all.filter((p) => p.pod.namespace === ns && /^-[a-z0-9]{1,10}-[a-z0-9]{5}$/.test(p.pod.name.slice(name.length)) && p.pod.name.startsWith(name));
  return named.length === 1 ? named[0] : undefined;
}

function proxyConfigOf(view: ConfigView, pod: Resource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const mesh = view.meshConfig.defaultConfig;
  if (isObj(mesh)) Object.assign(out, mesh);
  const ann = pod.annotations[PROXY_CONFIG_ANNOTATION];
  if (ann) {
    try {
      const parsed = loadYaml(ann);
      if (isObj(parsed)) {
        const pm = { ...(isObj(out.proxyMetadata) ? out.proxyMetadata : {}), ...(isObj(parsed.proxyMetadata) ? parsed.proxyMetadata : {}) };
        Object.assign(out, parsed, { proxyMetadata: pm });
      }
    } catch {
      // An unreadable annotation is ignored, as the injector would reject it.
    }
  }
  return out;
}

/**
 * The proxy's MESH_ID node metadata. An injected pod's istio-proxy env is what istio-agent reads
 * (pkg/bootstrap/config.go GetNodeMetaData: env ISTIO_META_* over proxyMetadata). For a pod the
 * injector has still to inject: injection-template.yaml:335-341 sets ISTIO_META_MESH_ID to
 * values.global.meshID, else valueOrDefault(meshConfig.trustDomain, values.global.trustDomain),
 * and the ProxyConfig's proxyMetadata env entries (:357) come after it and win.
 */
function meshIdOf(view: ConfigView, pod: Resource, meta: Record<string, unknown>): string {
  for (const c of podSpec(pod).containers) {
    if (c.name !== 'istio-proxy') continue;
    const e = c.env.filter((x) => x.name === 'ISTIO_META_MESH_ID').pop();
    if (e?.value) return e.value;
  }
  const fromMeta = str(meta.ISTIO_META_MESH_ID);
  if (fromMeta !== '') return fromMeta;
  const cmName = injectorConfigMapName(pod.labels['istio.io/rev'] ?? '');
  const cms = view.list(KINDS.ConfigMap).filter((c) => c.name === cmName);
  const cm = cms.find((c) => c.namespace === 'istio-system') ?? cms[0];
  const meshId = cm ? injectorGlobalString(cm, 'meshID') : '';
  if (meshId !== '') return meshId;
  return view.meshConfig.trustDomain || (cm ? injectorGlobalString(cm, 'trustDomain') : '');
}

/** The proxy of a pod as istiod sees it when the pod's proxy connects. */
export function proxyForPod(view: ConfigView, ref: ProxyRef): Proxy {
  const pod = ref.pod;
  const ip = podAddress(view, pod) || ref.address || '';
  const pc = proxyConfigOf(view, pod);
  const meta = isObj(pc.proxyMetadata) ? pc.proxyMetadata : {};
  const interception = (pod.annotations['sidecar.istio.io/interceptionMode'] ?? str(pc.interceptionMode)) || 'REDIRECT';
  const nodeName = podSpec(pod).nodeName;
  const locality = splitLocality(nodeLocality(view, nodeName) || pod.labels['istio-locality']?.replace(/\./g, '/') || '');
  const ips = ip === '' ? [] : [ip];
  return {
    id: ref.id,
    type: ref.type,
    ipAddresses: ips,
    configNamespace: pod.namespace,
    namespace: pod.namespace,
    labels: pod.labels,
    dnsDomain: `${pod.namespace}.svc.cluster.local`,
    istioVersion: DEFAULT_ISTIO_VERSION,
    interceptionMode: (['REDIRECT', 'TPROXY', 'NONE'].includes(interception) ? interception : 'REDIRECT') as InterceptionMode,
    locality,
    network: pod.labels[TOPOLOGY_NETWORK_LABEL] ?? '',
    clusterId: DEFAULT_CLUSTER_ID,
    serviceAccount: podServiceAccount(pod),
    workload: pod,
    workloadName: podWorkloadName(pod),
    nodeName,
    metadata: {
      dnsCapture: str(meta.ISTIO_META_DNS_CAPTURE).toLowerCase() === 'true',
      dnsAutoAllocate: str(meta.ISTIO_META_DNS_AUTO_ALLOCATE).toLowerCase() === 'true',
      ...(typeof meta.ISTIO_META_HTTP10 === 'string' && meta.ISTIO_META_HTTP10 === '1' ? { http10: true } : {}),
      ...(str(meta.ISTIO_META_IDLE_TIMEOUT) !== '' ? { idleTimeout: str(meta.ISTIO_META_IDLE_TIMEOUT) } : {}),
      // istio-agent always reports its static listeners' ports.
      envoyStatusPort: 15021,
      envoyPrometheusPort: 15090,
      ...(str(meta.ISTIO_META_UNPRIVILEGED_POD) !== '' ? { unprivileged: true } : {}),
      meshId: meshIdOf(view, pod, meta),
    },
  };
}

/** A proxy from an explicit description (the test harness, or a user-described proxy). */
export function describeProxy(d: Partial<Omit<Proxy, 'locality'>> & { locality?: string }): Proxy {
  const configNamespace = d.configNamespace || 'default';
  return {
    id: d.id || 'app.test',
    type: d.type ?? 'sidecar',
    ipAddresses: d.ipAddresses ?? ['1.1.1.1'],
    configNamespace,
    namespace: d.namespace || configNamespace,
    labels: d.labels ?? {},
    dnsDomain: d.dnsDomain || `${configNamespace}.svc.cluster.local`,
    istioVersion: d.istioVersion || '1.23.0',
    interceptionMode: d.interceptionMode ?? 'REDIRECT',
    locality: splitLocality(d.locality ?? ''),
    network: d.network ?? '',
    clusterId: d.clusterId ?? '',
    serviceAccount: d.serviceAccount ?? 'default',
    ...(d.workload ? { workload: d.workload } : {}),
    workloadName: d.workloadName ?? '',
    nodeName: d.nodeName ?? '',
    metadata: d.metadata ?? {},
  };
}

// ---- ports a proxy may listen on ----------------------------------------------------------

/**
 * CanBindToPort (model/context.go): false for privileged ports of an unprivileged proxy that
 * binds, and for a wildcard (or unbound HTTP) listener on a port the agent's static listeners
 * or, when `virtualPorts` is given, the virtual listeners use.
 */
export function canBindToPort(
  p: Proxy,
  bindToPort: boolean,
  bind: string,
  port: number,
  http: boolean,
  wildcard: string,
  virtualPorts?: readonly number[],
): boolean {
  if (bindToPort && p.metadata.unprivileged && port > 0 && port < 1024) return false;
  if (bind !== '') {
    if (bind !== wildcard) return true;
  } else if (!http) return true;
  const m = p.metadata;
  if ((m.envoyStatusPort ?? 0) === port || (m.envoyPrometheusPort ?? 0) === port) return false;
  if (virtualPorts?.includes(port)) return false;
  return true;
}

// ---- IP family ------------------------------------------------------------------------

export type IpMode = 'IPv4' | 'IPv6' | 'Dual';

/** DiscoverIPMode: the families of the proxy's addresses (no address counts as IPv4). */
export function ipMode(p: Proxy): IpMode {
  const v4 = p.ipAddresses.some(isIPv4);
  const v6 = p.ipAddresses.some(isIPv6);
  if (v4 && v6) return 'Dual';
  if (v6) return 'IPv6';
  return 'IPv4';
}

export function supportsIPv4(p: Proxy): boolean {
  return ipMode(p) !== 'IPv6';
}

export function supportsIPv6(p: Proxy): boolean {
  return ipMode(p) !== 'IPv4';
}

/** getWildcardsAndLocalHost: the wildcard and localhost binds for the proxy's IP family. */
export function wildcardsAndLocalhost(p: Proxy, dualStack: boolean): { wildcards: string[]; localhosts: string[] } {
  switch (ipMode(p)) {
    case 'IPv6':
      return { wildcards: ['::'], localhosts: ['::1'] };
    case 'Dual':
      return dualStack ? { wildcards: ['0.0.0.0', '::'], localhosts: ['127.0.0.1', '::1'] } : { wildcards: ['0.0.0.0'], localhosts: ['127.0.0.1'] };
    default:
      return { wildcards: ['0.0.0.0'], localhosts: ['127.0.0.1'] };
  }
}

// ---- service targets -------------------------------------------------------------------

/** A (service, port) the proxy is an instance of (model.ServiceTarget). */
export interface ServiceTarget {
  service: Service;
  port: ServicePortInfo;
  targetPort: number;
}

/** GetProxyServiceTargets, ordered by service creation time then hostname. */
export function serviceTargets(push: PushContext, proxy: Proxy): ServiceTarget[] {
  const ips = new Set(proxy.ipAddresses);
  const out: ServiceTarget[] = [];
  if (ips.size === 0) return out;
  for (const svc of push.services) {
    if (svc.resolution === 'Alias') continue;
    for (const ep of svc.endpoints) {
      if (!ips.has(ep.address)) continue;
      for (const port of svc.ports) {
        const target = ep.ports[port.name];
        if (target === undefined) continue;
        if (out.some((t) => t.service === svc && t.port.port === port.port)) continue;
        out.push({ service: svc, port, targetPort: target });
      }
    }
  }
  out.sort(
    (a, b) =>
      a.service.creationTime - b.service.creationTime || (a.service.hostname < b.service.hostname ? -1 : a.service.hostname > b.service.hostname ? 1 : 0),
  );
  return out;
}

export function labelsOf(p: Proxy): LabelMap {
  return p.labels;
}
