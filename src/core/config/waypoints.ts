// Waypoints: which Gateways istiod treats as waypoints, the objects its deployment
// controller creates for them when the files do not hold them, and which waypoint (if any)
// serves each Service, ServiceEntry and pod, with the status istiod would write
// (after pilot/pkg/serviceregistry/ambient/waypoints.go, services.go and status.go).
import type { Resource } from '../document/types.ts';
import { parseBool } from '../go/strconv.ts';
import { KINDS } from '../document/kinds.ts';
import { EMPTY_STRING_MAP, arr, isObj, str, type StringMap } from '../document/read.ts';
import type { ResourceReader } from './resourceReader.ts';
import { chainedSuffix, fnv32a } from './fnv.ts';
import type { AddressRing } from './addressRing.ts';
import { kubernetesGateway, gatewayClass } from './api/gatewayapi.ts';
import { compileLabelSelector, compiledMatches, type CompiledSelector } from './labelSelector.ts';
import {
  DATAPLANE_MODE_LABEL,
  GATEWAY_MANAGED_LABEL,
  GATEWAY_NAME_LABEL,
  MESH_GATEWAY_CONTROLLER,
  EASTWEST_GATEWAY_CONTROLLER,
  SIDECAR_INJECT,
  CANONICAL_NAME_LABEL,
  CANONICAL_REVISION_LABEL,
  USE_WAYPOINT_LABEL,
} from './wellKnown.ts';

export const USE_WAYPOINT_NAMESPACE_LABEL = 'istio.io/use-waypoint-namespace';
export const WAYPOINT_FOR_LABEL = 'istio.io/waypoint-for';
export const INGRESS_USE_WAYPOINT_LABEL = 'istio.io/ingress-use-waypoint';
export const GATEWAY_CLASS_NAME_LABEL = 'gateway.networking.k8s.io/gateway-class-name';
export const NAME_OVERRIDE_ANNOTATION = 'gateway.istio.io/name-override';
export const SERVICE_ACCOUNT_ANNOTATION = 'gateway.istio.io/service-account';
/** The GatewayClass of Istio's waypoints, and its controller. */
export const WAYPOINT_CLASS = 'istio-waypoint';
export const MESH_CONTROLLER_NAME = 'istio.io/mesh-controller';
/** Classes whose controller deploys an HBONE proxy that can serve as a waypoint. */
export const WAYPOINT_CLASSES: readonly string[] = [WAYPOINT_CLASS, 'istio-agentgateway-waypoint'];
/** Classes Istio's own controllers deploy (their Gateways get a status address once ready). */
const ISTIO_DEPLOYED_CLASSES: readonly string[] = [WAYPOINT_CLASS, 'istio-agentgateway-waypoint', 'istio', 'istio-east-west'];
export const HBONE_PORT = 15008;

export type TrafficType = 'service' | 'workload' | 'all' | 'none' | string;

export interface WaypointAddress {
  /** The Gateway's first Hostname status address (what stock waypoints have). */
  hostname?: { namespace: string; hostname: string };
  /** Else its first IPAddress status address. */
  ip?: string;
  hboneMtlsPort: number;
}

export interface Waypoint {
  namespace: string;
  name: string;
  gateway: Resource;
  className: string;
  /** The class deploys an HBONE proxy (istio-waypoint or a class of the mesh controller). */
  waypointClass: boolean;
  trafficType: TrafficType;
  /** Where the traffic type comes from. */
  trafficTypeFrom: 'Gateway' | 'GatewayClass' | 'default';
  address: WaypointAddress;
  /** True when the Gateway has no status in the files and we assumed the one istiod writes once it is ready. */
  addressAssumed: boolean;
  allowedRoutes: { from: 'All' | 'Selector' | 'Same'; selector?: CompiledSelector };
  /** Service accounts of the waypoint's pods (sorted). */
  serviceAccounts: string[];
  /** The name of its Deployment and Service (`gateway.istio.io/name-override`, else the Gateway's). */
  serviceName: string;
}

export interface WaypointSettings {
  /** Waypoints (`ns/name`) the user marks as not ready: istiod then ignores them, as when they are missing. */
  notReady?: readonly string[];
}

const ref = (ns: string, name: string) => `${ns}/${name}`;

function gatewayStatusAddresses(gw: Resource): Array<{ type: string; value: string }> {
  const status = isObj(gw.body.status) ? gw.body.status : {};
  return (
    arr(status.addresses)
      .filter(isObj)
      // The API server defaults an address's type to IPAddress.
      .map((a) => ({ type: a.type === undefined || a.type === null ? 'IPAddress' : str(a.type), value: str(a.value) }))
      .filter((a) => a.value !== '')
  );
}

function classOf(view: Pick<ResourceReader, 'find'>, name: string): Resource | undefined {
  return view.find(KINDS.GatewayClass, '', name);
}

function isWaypointClass(view: Pick<ResourceReader, 'find'>, className: string): boolean {
  if (WAYPOINT_CLASSES.includes(className)) return true;
  const cls = classOf(view, className);
  return cls !== undefined && gatewayClass(cls).controllerName === MESH_CONTROLLER_NAME;
}

/** The Deployment/Service name istiod's deployment controller gives a Gateway's objects. */
export function gatewayServiceName(gw: Resource): string {
  return gw.annotations[NAME_OVERRIDE_ANNOTATION] || gw.name;
}

/** True when istiod's deployment controller creates a Deployment and Service for this Gateway. */
function deployedByIstio(view: Pick<ResourceReader, 'find'>, gw: Resource): boolean {
  const cls = kubernetesGateway(gw).gatewayClassName;
  return ISTIO_DEPLOYED_CLASSES.includes(cls) || isWaypointClass(view, cls);
}

function allowedRoutesOf(gw: Resource): Waypoint['allowedRoutes'] {
  // The default HBONE listener decides (inbound bindings are not simulated).
  for (const l of kubernetesGateway(gw).listeners) {
    if (l.protocol !== 'HBONE' || l.port !== HBONE_PORT) continue;
    const ar = isObj(l.allowedRoutes) ? l.allowedRoutes : undefined;
    const ns = ar && isObj(ar.namespaces) ? ar.namespaces : undefined;
    if (!ns) return { from: 'Same' };
    const from = str(ns.from) || 'Same';
    if (from === 'All') return { from: 'All' };
    if (from === 'Selector') return { from: 'Selector', selector: compileLabelSelector(ns.selector) ?? [] };
    return { from: 'Same' };
  }
  return { from: 'Same' };
}

/**
 * Objects istiod's deployment controller creates for waypoint Gateways and that the files do
 * not hold: the Service `<name>` (status port 15021, then one port per listener port) and one
 * pod of the Deployment, with the labels the waypoint template gives it. Marked derived from
 * their Gateway.
 */
export function waypointInfrastructure(view: Pick<ResourceReader, 'list' | 'find'>, pods: readonly Resource[]): { services: Resource[]; pods: Resource[] } {
  const services: Resource[] = [];
  const newPods: Resource[] = [];
  for (const gw of view.list(KINDS.KubernetesGateway)) {
    const spec = kubernetesGateway(gw);
    if (!isWaypointClass(view, spec.gatewayClassName)) continue;
    const name = gatewayServiceName(gw);
    const gwLabels = { [GATEWAY_NAME_LABEL]: gw.name, [GATEWAY_CLASS_NAME_LABEL]: spec.gatewayClassName, [GATEWAY_MANAGED_LABEL]: MESH_GATEWAY_CONTROLLER };
    const derivedFrom = { kind: 'Gateway', namespace: gw.namespace, name: gw.name };
    if (!view.find(KINDS.Service, gw.namespace, name)) {
      const ports: Array<Record<string, unknown>> = [{ name: 'status-port', port: 15021, targetPort: 15021, protocol: 'TCP', appProtocol: 'tcp' }];
      const seen = new Set<number>();
      for (const l of spec.listeners) {
        if (seen.has(l.port) || l.port === 0) continue;
        seen.add(l.port);
        ports.push({
          name: l.name || `port-${l.port}`,
          port: l.port,
          targetPort: l.port,
          protocol: 'TCP',
          ...(l.protocol === 'HBONE' ? { appProtocol: 'hbone' } : {}),
        });
      }
      services.push(
        synthetic(
          KINDS.Service,
          gw.namespace,
          name,
          { ...gwLabels },
          EMPTY_STRING_MAP,
          { spec: { type: 'ClusterIP', selector: { [GATEWAY_NAME_LABEL]: gw.name }, ports } },
          derivedFrom,
        ),
      );
    }
    if (!hasGatewayPods(gw, pods)) {
      newPods.push(
        deployedPod(gw, name, 'waypoint', (hash) => ({
          ...gwLabels,
          'pod-template-hash': hash,
          [DATAPLANE_MODE_LABEL]: 'none',
          [SIDECAR_INJECT]: 'false',
          [CANONICAL_NAME_LABEL]: name,
          [CANONICAL_REVISION_LABEL]: 'latest',
        })),
      );
    }
  }
  return { services, pods: newPods };
}

function hasGatewayPods(gw: Resource, pods: readonly Resource[]): boolean {
  return pods.some((p) => p.namespace === gw.namespace && p.labels[GATEWAY_NAME_LABEL] === gw.name);
}

/**
 * The one pod of the Deployment `name` that istiod's deployment controller runs for `gw`:
 * Kubernetes' naming (`<name>-<template hash>-<suffix>`), its service account, an
 * `istio-proxy` container running `proxy <role>`, and the status `statusFor` gives its name.
 * The labels are the template's for that role, given the template hash.
 */
function deployedPod(
  gw: Resource,
  name: string,
  role: 'waypoint' | 'router',
  labelsFor: (hash: string) => Record<string, string>,
  statusFor?: (podName: string) => Record<string, unknown>,
): Resource {
  const hash = chainedSuffix(`${gw.namespace}/${name}`, 9);
  const podName = `${name}-${hash}-${chainedSuffix(`${gw.namespace}/${name}#0`, 5)}`;
  const body = {
    metadata: { generateName: `${name}-${hash}-`, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${hash}`, controller: true }] },
    spec: {
      serviceAccountName: gw.annotations[SERVICE_ACCOUNT_ANNOTATION] || name,
      containers: [
        {
          name: 'istio-proxy',
          image: 'auto',
          args: ['proxy', role],
          ports: [
            { name: 'metrics', containerPort: 15020 },
            { name: 'status-port', containerPort: 15021 },
            { name: 'http-envoy-prom', containerPort: 15090 },
          ],
        },
      ],
    },
    ...(statusFor ? { status: statusFor(podName) } : {}),
  };
  return synthetic(KINDS.Pod, gw.namespace, podName, labelsFor(hash), EMPTY_STRING_MAP, body, { kind: 'Gateway', namespace: gw.namespace, name: gw.name });
}

/** Gateway classes whose Gateways istiod's deployment controller runs as gateways (routers). */
const ROUTER_CLASSES: readonly string[] = ['istio', 'istio-east-west'];

/** gatewaycommon.IsManaged: no addresses, or one IP address (a Hostname names an existing Service). */
function isManagedGateway(gw: Resource): boolean {
  const spec = isObj(gw.body.spec) ? gw.body.spec : {};
  const addresses = arr(spec.addresses);
  if (addresses.length === 0) return true;
  if (addresses.length > 1) return false;
  const first = addresses[0];
  const type = isObj(first) && typeof first.type === 'string' ? first.type : undefined;
  return type === undefined || type === 'IPAddress';
}

/**
 * What istiod's deployment controller creates for a Gateway of class `istio` (or
 * `istio-east-west`) and the files do not hold (kube-gateway.yaml, extractServicePorts): the
 * Service `<gateway>-<class>` (status port 15021, then one port per listener port, targetPort
 * the same port) and one pod running `proxy router`, labelled with the gateway's name. The
 * pod's address is taken from `podAddresses` (the pod CIDR, with every pod's address already
 * reserved). Marked derived from their Gateway. The analyzers never see these (istioctl does
 * not); the generated config does.
 */
export function managedGatewayInfrastructure(
  view: Pick<ResourceReader, 'list' | 'find'>,
  pods: readonly Resource[],
  podAddresses: AddressRing,
): { services: Resource[]; pods: Resource[] } {
  const services: Resource[] = [];
  const newPods: Resource[] = [];
  for (const gw of view.list(KINDS.KubernetesGateway)) {
    const spec = kubernetesGateway(gw);
    if (!ROUTER_CLASSES.includes(spec.gatewayClassName) || !isManagedGateway(gw)) continue;
    const name = gw.annotations[NAME_OVERRIDE_ANNOTATION] || `${gw.name}-${spec.gatewayClassName}`;
    const gwLabels = { [GATEWAY_NAME_LABEL]: gw.name, [GATEWAY_CLASS_NAME_LABEL]: spec.gatewayClassName };
    const derivedFrom = { kind: 'Gateway', namespace: gw.namespace, name: gw.name };
    if (!view.find(KINDS.Service, gw.namespace, name)) {
      const ports: Array<Record<string, unknown>> = [{ name: 'status-port', port: 15021, protocol: 'TCP', appProtocol: 'tcp' }];
      const seen = new Set<number>();
      const used = new Set(['status-port']);
      spec.listeners.forEach((l, i) => {
        if (seen.has(l.port) || l.port === 0) return;
        seen.add(l.port);
        let portName = (l.name.replace(/\./g, '-') || `${l.protocol.toLowerCase()}-${i}`).slice(0, 63);
        if (used.has(portName)) portName = `${portName.slice(0, 63 - String(l.port).length - 1)}-${l.port}`;
        used.add(portName);
        ports.push({ name: portName, port: l.port, protocol: 'TCP', appProtocol: l.protocol.toLowerCase() });
      });
      services.push(
        synthetic(
          KINDS.Service,
          gw.namespace,
          name,
          { ...gwLabels },
          EMPTY_STRING_MAP,
          { spec: { type: 'LoadBalancer', selector: { [GATEWAY_NAME_LABEL]: gw.name }, ports } },
          derivedFrom,
        ),
      );
    }
    if (!hasGatewayPods(gw, pods)) {
      const labelsFor = (hash: string) => ({
        [SIDECAR_INJECT]: 'false',
        [CANONICAL_NAME_LABEL]: name,
        [CANONICAL_REVISION_LABEL]: 'latest',
        ...gwLabels,
        [GATEWAY_MANAGED_LABEL]: 'istio.io-gateway-controller',
        'pod-template-hash': hash,
      });
      // Addressed by a hash of the pod's own name, as derived pods are.
      newPods.push(
        deployedPod(gw, name, 'router', labelsFor, (podName) => ({
          phase: 'Running',
          podIP: podAddresses.take(fnv32a(`${gw.namespace}/${podName}`)),
        })),
      );
    }
  }
  return { services, pods: newPods };
}

function synthetic(
  kind: typeof KINDS.Pod,
  namespace: string,
  name: string,
  labels: Record<string, string>,
  annotations: StringMap,
  body: Record<string, unknown>,
  derivedFrom: Resource['derivedFrom'],
): Resource {
  const meta = isObj(body.metadata) ? body.metadata : {};
  const l = Object.assign(Object.create(null) as Record<string, string>, labels);
  const fullBody = {
    apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
    kind: kind.kind,
    ...body,
    metadata: { ...meta, name, namespace, labels: { ...labels } },
  };
  return {
    key: `${kind.id}/${namespace}/${name}`,
    kindId: kind.id,
    gvk: { group: kind.group, version: kind.version, kind: kind.kind },
    namespace,
    name,
    labels: l,
    annotations,
    body: fullBody,
    synthetic: 'derived',
    derivedFrom,
  };
}

/**
 * The waypoints istiod knows: every Gateway with a status address (istiod checks nothing
 * else). A Gateway of a class Istio deploys that has no status in the files is assumed
 * ready, with the addresses istiod writes (the Service's hostname, then its cluster IP),
 * unless the user marks it not ready.
 */
export function recognizeWaypoints(
  view: Pick<ResourceReader, 'list' | 'find'>,
  pods: readonly Resource[],
  clusterIpOf: (namespace: string, service: string) => string | undefined,
  settings: WaypointSettings = {},
): Map<string, Waypoint> {
  const out = new Map<string, Waypoint>();
  const notReady = new Set(settings.notReady ?? []);
  for (const gw of view.list(KINDS.KubernetesGateway)) {
    const spec = kubernetesGateway(gw);
    const key = ref(gw.namespace, gw.name);
    if (notReady.has(key)) continue;
    let addresses = gatewayStatusAddresses(gw);
    let addressAssumed = false;
    const serviceName = gatewayServiceName(gw);
    if (addresses.length === 0 && deployedByIstio(view, gw)) {
      addressAssumed = true;
      addresses = [{ type: 'Hostname', value: `${serviceName}.${gw.namespace}.svc.cluster.local` }];
      const ip = clusterIpOf(gw.namespace, serviceName);
      if (ip) addresses.push({ type: 'IPAddress', value: ip });
    }
    if (addresses.length === 0) continue;
    const host = addresses.find((a) => a.type === 'Hostname');
    const ip = addresses.find((a) => a.type === 'IPAddress');
    const address: WaypointAddress = host
      ? { hostname: { namespace: gw.namespace, hostname: host.value }, hboneMtlsPort: HBONE_PORT }
      : { ip: ip?.value ?? '', hboneMtlsPort: HBONE_PORT };
    const cls = classOf(view, spec.gatewayClassName);
    let trafficType: TrafficType = 'service';
    let trafficTypeFrom: Waypoint['trafficTypeFrom'] = 'default';
    if (cls && Object.hasOwn(cls.labels, WAYPOINT_FOR_LABEL)) {
      trafficType = cls.labels[WAYPOINT_FOR_LABEL] as string;
      trafficTypeFrom = 'GatewayClass';
    }
    if (Object.hasOwn(gw.labels, WAYPOINT_FOR_LABEL)) {
      trafficType = gw.labels[WAYPOINT_FOR_LABEL] as string;
      trafficTypeFrom = 'Gateway';
    }
    const serviceAccounts = pods
      .filter((p) => p.namespace === gw.namespace && p.labels[GATEWAY_NAME_LABEL] === gw.name)
      .map((p) => {
        const s = isObj(p.body.spec) ? p.body.spec : {};
        return str(s.serviceAccountName) || str(s.serviceAccount) || 'default';
      })
      .sort();
    out.set(key, {
      namespace: gw.namespace,
      name: gw.name,
      gateway: gw,
      className: spec.gatewayClassName,
      waypointClass: isWaypointClass(view, spec.gatewayClassName),
      trafficType,
      trafficTypeFrom,
      address,
      addressAssumed,
      allowedRoutes: allowedRoutesOf(gw),
      serviceAccounts,
      serviceName,
    });
  }
  return out;
}

/** The waypoint address as ztunnel names it: `namespace/hostname`, or `network/ip`. */
export function waypointDestination(a: WaypointAddress, network = ''): string {
  return a.hostname ? `${a.hostname.namespace}/${a.hostname.hostname}` : `${network}/${a.ip ?? ''}`;
}

// ---- binding --------------------------------------------------------------------------

export type WaypointErrorReason = 'WaypointIsNotReady' | 'AttachmentDenied' | 'UnsupportedTrafficType';

export interface WaypointBinding {
  /** The bound waypoint, if any. */
  waypoint?: Waypoint;
  /** The error istiod reports (written as the WaypointBound condition for Services and ServiceEntries). */
  error?: { reason: WaypointErrorReason; message: string };
  /** How the binding was decided. */
  via: 'object' | 'namespace' | 'optOut' | 'none' | 'isWaypoint' | 'instance';
  /** The waypoint the labels ask for (`ns/name`), if any. */
  requested?: string;
  /** One sentence on why. */
  explanation: string;
}

export interface BindingContext {
  waypoints: ReadonlyMap<string, Waypoint>;
  /** A namespace's labels (undefined when the Namespace is unknown). */
  namespaceLabels(namespace: string): StringMap | undefined;
}

interface ObjectMeta {
  namespace: string;
  labels: StringMap;
}

function waypointFromLabels(labels: StringMap, fallbackNamespace: string): { none: true } | { none: false; ref?: string } {
  if (!Object.hasOwn(labels, USE_WAYPOINT_LABEL)) return { none: false };
  const value = labels[USE_WAYPOINT_LABEL] as string;
  if (value === 'none') return { none: true };
  const ns = Object.hasOwn(labels, USE_WAYPOINT_NAMESPACE_LABEL) ? (labels[USE_WAYPOINT_NAMESPACE_LABEL] as string) : fallbackNamespace;
  return { none: false, ref: ref(ns, value) };
}

function admits(w: Waypoint, namespace: string, nsLabels: StringMap | undefined): boolean {
  switch (w.allowedRoutes.from) {
    case 'All':
      return true;
    case 'Selector':
      return compiledMatches(w.allowedRoutes.selector ?? null, nsLabels ?? EMPTY_STRING_MAP);
    default:
      return w.namespace === namespace;
  }
}

const notReady = (r: string) => ({ reason: 'WaypointIsNotReady' as const, message: `waypoint "${r}" is not ready` });
const denied = (r: string) => ({ reason: 'AttachmentDenied' as const, message: `we are not permitted to attach to waypoint "${r}" (missing allowedRoutes?)` });
const unsupported = (r: string, t: string) => ({
  reason: 'UnsupportedTrafficType' as const,
  message: `attempting to bind to traffic type "${t}" which the waypoint "${r}" does not support`,
});

/** istiod's fetchWaypointForTarget: the object's own label (`none` opts out), else its namespace's. */
function waypointForTarget(ctx: BindingContext, o: ObjectMeta): WaypointBinding {
  const own = waypointFromLabels(o.labels, o.namespace);
  if (own.none) return { via: 'optOut', explanation: `${USE_WAYPOINT_LABEL}=none opts out; the namespace's label is not consulted.` };
  const nsLabels = ctx.namespaceLabels(o.namespace);
  if (own.ref) {
    const w = ctx.waypoints.get(own.ref);
    if (!w)
      return {
        via: 'object',
        requested: own.ref,
        error: notReady(own.ref),
        explanation: `The object's ${USE_WAYPOINT_LABEL} label names ${own.ref}, which is missing or has no address (not ready); there is no fallback to the namespace's waypoint.`,
      };
    if (!admits(w, o.namespace, nsLabels))
      return {
        via: 'object',
        requested: own.ref,
        error: denied(own.ref),
        explanation: `${own.ref} does not admit namespace ${o.namespace}: its HBONE listener's allowedRoutes allow ${w.allowedRoutes.from === 'Same' ? 'only its own namespace' : 'only namespaces matching its selector'}.`,
      };
    return { via: 'object', requested: own.ref, waypoint: w, explanation: `The object's ${USE_WAYPOINT_LABEL} label names ${own.ref}.` };
  }
  if (nsLabels) {
    const fromNs = waypointFromLabels(nsLabels, o.namespace);
    if (!fromNs.none && fromNs.ref) {
      const w = ctx.waypoints.get(fromNs.ref);
      if (!w)
        return {
          via: 'namespace',
          requested: fromNs.ref,
          error: notReady(fromNs.ref),
          explanation: `Namespace ${o.namespace}'s ${USE_WAYPOINT_LABEL} label names ${fromNs.ref}, which is missing or has no address (not ready).`,
        };
      if (!admits(w, o.namespace, nsLabels))
        return {
          via: 'namespace',
          requested: fromNs.ref,
          error: denied(fromNs.ref),
          explanation: `${fromNs.ref} does not admit namespace ${o.namespace} (allowedRoutes).`,
        };
      return { via: 'namespace', requested: fromNs.ref, waypoint: w, explanation: `Inherited from namespace ${o.namespace}'s ${USE_WAYPOINT_LABEL} label.` };
    }
  }
  return { via: 'none', explanation: `Neither the object nor namespace ${o.namespace} has ${USE_WAYPOINT_LABEL}.` };
}

/**
 * The waypoint of a Service or ServiceEntry (istiod's fetchWaypointForService): none for a
 * waypoint's or east-west gateway's own Service; otherwise the object's label, else the
 * namespace's; the waypoint must accept `service` (or `all`) traffic, even when the binding
 * is inherited from the namespace.
 */
export function serviceWaypoint(ctx: BindingContext, svc: ObjectMeta): WaypointBinding {
  const managed = svc.labels[GATEWAY_MANAGED_LABEL];
  if (managed === MESH_GATEWAY_CONTROLLER || managed === EASTWEST_GATEWAY_CONTROLLER) {
    return {
      via: 'isWaypoint',
      explanation: `This is a ${managed === MESH_GATEWAY_CONTROLLER ? "waypoint's" : "east-west gateway's"} own Service (${GATEWAY_MANAGED_LABEL}=${managed}): it never gets a waypoint.`,
    };
  }
  const b = waypointForTarget(ctx, svc);
  if (!b.waypoint) return b;
  const t = b.waypoint.trafficType;
  if (t !== 'service' && t !== 'all') {
    return {
      via: b.via,
      requested: b.requested,
      error: unsupported(b.requested ?? '', 'service'),
      explanation: `${b.requested} is for '${t}' traffic (${WAYPOINT_FOR_LABEL}), not 'service': the Service is not bound, and the error is reported even though ${b.via === 'namespace' ? 'the binding is inherited from the namespace' : 'the label is on the object'}.`,
    };
  }
  return b;
}

/**
 * The workload waypoint of a pod (istiod's computeWaypoint): none for a waypoint's own pods;
 * otherwise the pod's label, else the namespace's; the waypoint must accept `workload` (or
 * `all`) traffic; when it does not, a label on the pod itself is an error (which istiod
 * writes nowhere for pods), an inherited one is silently no waypoint.
 */
export function workloadWaypoint(ctx: BindingContext, pod: ObjectMeta): WaypointBinding {
  const instanceOf = pod.labels[GATEWAY_NAME_LABEL];
  if (instanceOf && ctx.waypoints.has(ref(pod.namespace, instanceOf))) {
    return {
      via: 'instance',
      explanation: `This pod is an instance of waypoint ${ref(pod.namespace, instanceOf)} (${GATEWAY_NAME_LABEL}): it never gets a waypoint.`,
    };
  }
  const b = waypointForTarget(ctx, pod);
  if (!b.waypoint) return b;
  const t = b.waypoint.trafficType;
  if (t === 'workload' || t === 'all') return b;
  if (b.via === 'object') {
    return {
      via: b.via,
      requested: b.requested,
      error: unsupported(b.requested ?? '', 'workload'),
      explanation: `The pod names ${b.requested} directly, but that waypoint only accepts '${t}' traffic (${WAYPOINT_FOR_LABEL}): no waypoint, and an UnsupportedTrafficType error that istiod does not write anywhere for pods.`,
    };
  }
  return {
    via: 'namespace',
    requested: b.requested,
    explanation: `The namespace's waypoint ${b.requested} is for '${t}' traffic only; pods inherit nothing from it (no error).`,
  };
}

/** `istio.io/ingress-use-waypoint` on the Service, else its namespace: whether it is present, and its value as istiod reads it. */
export function ingressUseWaypoint(svcLabels: StringMap, nsLabels: StringMap | undefined): { present: boolean; value: boolean } {
  let v: string | undefined;
  if (Object.hasOwn(svcLabels, INGRESS_USE_WAYPOINT_LABEL)) v = svcLabels[INGRESS_USE_WAYPOINT_LABEL];
  else if (nsLabels && Object.hasOwn(nsLabels, INGRESS_USE_WAYPOINT_LABEL)) v = nsLabels[INGRESS_USE_WAYPOINT_LABEL];
  if (v === undefined) return { present: false, value: false };
  return { present: true, value: parseBool(v) === true };
}

export interface StatusCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** The `istio.io/WaypointBound` condition istiod writes on a Service or ServiceEntry (null: none). */
export function waypointBoundCondition(b: WaypointBinding, ingress: { present: boolean; value: boolean }): StatusCondition | null {
  if (b.waypoint) {
    let message = `Successfully attached to waypoint ${ref(b.waypoint.namespace, b.waypoint.name)}`;
    if (ingress.value) message += '. Ingress traffic will traverse the waypoint';
    else if (ingress.present) message += '. Ingress traffic is not using the waypoint, set the istio.io/ingress-use-waypoint label to true if desired.';
    return { type: 'istio.io/WaypointBound', status: 'True', reason: 'WaypointAccepted', message };
  }
  if (b.error) return { type: 'istio.io/WaypointBound', status: 'False', reason: b.error.reason, message: b.error.message };
  return null;
}
