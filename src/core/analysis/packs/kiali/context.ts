// What Kiali's checkers are given besides the object they check, derived from the workspace
// the way Kiali derives it from a cluster: the known namespaces, the services, workloads and
// pods, the mesh config's outbound policy and auto-mTLS, the root namespace. What a workspace
// cannot know (which namespaces are accessible, Kiali's own config) can be overridden.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import { arr, has, isObj, str, stringMap, type Obj } from '../../../document/read.ts';
import type { ConfigView } from '../../../config/configView.ts';
import { serviceEntry, virtualService } from '../../../config/api/networking.ts';
import { getHost, hostString, KubeServiceHosts, parseHost, serviceEntryHostnames, type KialiHost } from './hosts.ts';
import { selectorMatches } from '../../../config/labels.ts';
import { DATAPLANE_MODE_AMBIENT, DATAPLANE_MODE_LABEL } from '../../../config/wellKnown.ts';
import { waypointInfrastructure } from '../../../config/waypoints.ts';
import { builtinGatewayClasses } from '../../../config/gatewayApi/builtins.ts';

/** Inputs a workspace cannot hold; each one given replaces what would be derived. */
export interface KialiContextOverrides {
  /**
   * Namespaces Kiali knows (accessible namespaces). `null` is Kiali's nil list (its tests
   * pass nil); by default every namespace named in the workspace.
   */
  namespaces?: readonly string[] | null;
  /** Kiali's `external_services.istio.istio_identity_domain`; default `svc.cluster.local`. */
  identityDomain?: string;
  /** Mesh config `outboundTrafficPolicy.mode` is ALLOW_ANY; by default read from the mesh config. */
  policyAllowAny?: boolean;
  /** Mesh config `enableAutoMtls`; by default read from the mesh config. */
  enableAutoMtls?: boolean;
  /** Istio's root namespace; by default the mesh config's `rootNamespace`. */
  rootNamespace?: string;
  /** Kiali's cluster name; default `Kubernetes`. */
  cluster?: string;
  /** Namespaces hosting a control plane (Kiali's MeshDiscovery.IsControlPlane); by default those running istiod. */
  controlPlaneNamespaces?: readonly string[];
  /** Kiali's `kiali_feature_flags.validations.skip_wildcard_gateway_hosts`; default false. */
  skipWildcardGatewayHosts?: boolean;
  /** Principals (`<trust domain>/ns/<ns>/sa/<name>`) per cluster; by default the home cluster's, from the workspace. */
  serviceAccounts?: Readonly<Record<string, readonly string[]>>;
  /** Trust domains Kiali knows; by default the mesh config's trust domain and its aliases. */
  knownTrustDomains?: readonly string[];
  /** Kiali's `external_services.istio.gateway_api_classes` class names; by default `istio` and the workspace's GatewayClasses. */
  gatewayApiClasses?: readonly string[];
  /** Each namespace's root namespace (Kiali's RootNamespaces, per control plane); by default the root namespace for all. */
  rootNamespaces?: Readonly<Record<string, string>>;
  /** istiod's PILOT_SCOPE_GATEWAY_TO_NAMESPACE (gateway selectors only match their namespace); default false. */
  gatewayToNamespace?: boolean;
  /**
   * Kiali's Namespace model per namespace name: its labels, IsAmbient and IsControlPlane. By
   * default the labels of the Namespace object, IsControlPlane from `controlPlaneNamespaces`,
   * and IsAmbient as Kiali sets it (see KialiContext.namespaceInfo).
   */
  namespaceInfo?: Readonly<Record<string, KialiNamespaceOverride>>;
  /** Kiali's workload flags per workload (`namespace/name`); by default derived from its pods (see workloadModel.ts). */
  workloads?: Readonly<Record<string, Partial<KialiWorkloadFlags>>>;
}

/** The flags Kiali computes for a workload (models.Workload), see workloadModel.ts. */
export interface KialiWorkloadFlags {
  isAmbient: boolean;
  istioSidecar: boolean;
  /** The waypoints capturing the workload, as `namespace/name`. */
  waypointWorkloads: readonly string[];
}

export interface KialiNamespaceOverride {
  labels?: Readonly<Record<string, string>>;
  isAmbient?: boolean;
  isControlPlane?: boolean;
}

/** Kiali's Namespace model (models.Namespace) of a namespace it knows. */
export interface KialiNamespace {
  name: string;
  labels: Readonly<Record<string, string>>;
  /** Namespace.IsAmbient: labelled `istio.io/dataplane-mode=ambient`, or a control plane of a cluster running ztunnel. */
  isAmbient: boolean;
  isControlPlane: boolean;
}

/** Kiali's workload: a controller (or a bare pod) and its pod template's labels. */
export interface KialiWorkload {
  name: string;
  namespace: string;
  kind: string;
  labels: Readonly<Record<string, string>>;
  resource: Resource;
}

/** The label keys Kiali reads an app name from, in order (config.GetAppLabelName with default config). */
export const APP_LABEL_NAMES = ['service.istio.io/canonical-name', 'app.kubernetes.io/name', 'app'] as const;

/** The app name of a label set, as Kiali finds it. */
export function appLabelOf(labels: Readonly<Record<string, string>>): string | undefined {
  for (const k of APP_LABEL_NAMES) if (labels[k] !== undefined) return labels[k];
  return undefined;
}

const WORKLOAD_KINDS = [KINDS.Deployment, KINDS.StatefulSet, KINDS.DaemonSet, KINDS.ReplicaSet, KINDS.Job, KINDS.CronJob] as const;

function templateLabels(r: Resource): Record<string, string> {
  const spec = isObj(r.body.spec) ? r.body.spec : {};
  let template: unknown = spec.template;
  if (r.kindId === KINDS.CronJob.id) {
    const job = isObj(spec.jobTemplate) ? spec.jobTemplate : {};
    template = isObj(job.spec) ? (job.spec as Obj).template : undefined;
  }
  const meta = isObj(template) && isObj(template.metadata) ? template.metadata : {};
  return { ...stringMap(meta.labels) };
}

function ownedByController(r: Resource): boolean {
  const meta = isObj(r.body.metadata) ? r.body.metadata : {};
  return arr(meta.ownerReferences).some((o) => isObj(o) && o.controller === true);
}

/** selectIn's index of a list: its items by namespace, and by namespace, label key and value. */
interface SelectIndex<T> {
  byNs: Map<string, T[]>;
  byLabel: Map<string, Map<string, Map<string, T[]>>>;
}

function listIn<T>(m: Map<string, T[]>, k: string): T[] {
  let l = m.get(k);
  if (l === undefined) m.set(k, (l = []));
  return l;
}

/** A VirtualService route's destination (KialiContext.routeDestinations). */
export interface RouteDestination {
  kind: 'http' | 'tcp' | 'tls';
  /** Indexes of the rule and of the route in it. */
  rule: number;
  route: number;
  /** The host and subset as written. */
  name: string;
  subset: string;
  host: ParsedHost | undefined;
}

/** A parsed host with its Host.String(), as KialiContext.host keeps it. */
export interface ParsedHost extends Readonly<KialiHost> {
  readonly text: string;
}

function parsed(h: KialiHost): ParsedHost {
  return { service: h.service, namespace: h.namespace, cluster: h.cluster, completeInput: h.completeInput, text: hostString(h) };
}

export class KialiContext {
  readonly view: ConfigView;
  readonly identityDomain: string;
  readonly namespaces: readonly string[] | null;
  readonly policyAllowAny: boolean;
  readonly enableAutoMtls: boolean;
  readonly rootNamespace: string;
  readonly cluster: string;
  readonly controlPlaneNamespaces: readonly string[];
  readonly skipWildcardGatewayHosts: boolean;
  readonly gatewayToNamespace: boolean;
  private readonly rootNamespaceOverrides: Readonly<Record<string, string>> | undefined;
  readonly knownTrustDomains: readonly string[];
  readonly gatewayApiClasses: readonly string[];
  private readonly serviceAccountOverrides: Readonly<Record<string, readonly string[]>> | undefined;
  private readonly namespaceOverrides: Readonly<Record<string, KialiNamespaceOverride>>;
  private readonly workloadOverrides: Readonly<Record<string, Partial<KialiWorkloadFlags>>>;
  private cache = new Map<string, unknown>();
  // The lookups every object of a large mesh makes, each in its own map: no key to build per call.
  private readonly lists = new Map<string, readonly Resource[]>();
  private readonly gotHosts = new Map<string, Map<string, ParsedHost>>();
  private readonly parsedHosts = new Map<string, Map<string, ParsedHost>>();
  private readonly namespaceInfos = new Map<string, KialiNamespace | undefined>();
  private knownNamespaces: ReadonlySet<string> | undefined;
  private servicesByName: Map<string, Map<string, Resource>> | undefined;
  private readonly selectIndexes = new Map<string, SelectIndex<unknown>>();
  private readonly routes = new Map<Resource, readonly RouteDestination[]>();

  constructor(view: ConfigView, overrides: KialiContextOverrides = {}) {
    this.view = view;
    const mesh = view.meshConfig;
    this.identityDomain = overrides.identityDomain ?? 'svc.cluster.local';
    this.namespaces = overrides.namespaces !== undefined ? overrides.namespaces : this.workspaceNamespaces();
    const policy = isObj(mesh.outboundTrafficPolicy) ? str(mesh.outboundTrafficPolicy.mode) : '';
    this.policyAllowAny = overrides.policyAllowAny ?? policy === 'ALLOW_ANY';
    this.enableAutoMtls = overrides.enableAutoMtls ?? mesh.enableAutoMtls;
    this.rootNamespace = overrides.rootNamespace ?? (mesh.rootNamespace || 'istio-system');
    this.cluster = overrides.cluster ?? 'Kubernetes';
    this.controlPlaneNamespaces = overrides.controlPlaneNamespaces ?? this.istiodNamespaces();
    this.skipWildcardGatewayHosts = overrides.skipWildcardGatewayHosts ?? false;
    this.gatewayToNamespace = overrides.gatewayToNamespace ?? false;
    this.rootNamespaceOverrides = overrides.rootNamespaces;
    this.knownTrustDomains = overrides.knownTrustDomains ?? [mesh.trustDomain, ...(mesh.trustDomainAliases ?? [])];
    this.serviceAccountOverrides = overrides.serviceAccounts;
    // Kiali (cache.go GatewayAPIClasses) discovers the cluster's GatewayClasses whose controller
    // is istio.io's: the ones istiod's class controller creates, and any the files add.
    this.gatewayApiClasses = overrides.gatewayApiClasses ?? [
      ...new Set([
        ...builtinGatewayClasses().keys(),
        ...view
          .list(KINDS.GatewayClass)
          .filter((c) => str(isObj(c.body.spec) ? c.body.spec.controllerName : undefined).startsWith('istio.io'))
          .map((c) => c.name),
      ]),
    ];
    this.namespaceOverrides = overrides.namespaceInfo ?? {};
    this.workloadOverrides = overrides.workloads ?? {};
  }

  /** A value built once per context (per analysis run): indexes the checkers share. */
  once<T>(key: string, build: () => T): T {
    const hit = this.cache.get(key);
    if (hit !== undefined || this.cache.has(key)) return hit as T;
    const v = build();
    this.cache.set(key, v);
    return v;
  }

  /** Resources of a kind, without the ones we made up (placeholders, derived pods, synthetic mesh config). */
  list(kind: (typeof KINDS)[keyof typeof KINDS]): readonly Resource[] {
    let l = this.lists.get(kind.id);
    if (l === undefined) this.lists.set(kind.id, (l = this.view.list(kind).filter((r) => r.synthetic === undefined)));
    return l;
  }

  /**
   * kubernetes.GetHost of a host written in `namespace` (with this context's namespaces and
   * identity domain), with its Host.String(); parsed once per run. Shared: never changed.
   */
  host(hostName: string, namespace: string): ParsedHost {
    let byName = this.gotHosts.get(namespace);
    if (byName === undefined) this.gotHosts.set(namespace, (byName = new Map()));
    let h = byName.get(hostName);
    if (h === undefined) byName.set(hostName, (h = parsed(getHost(hostName, namespace, this.namespaces, this.identityDomain))));
    return h;
  }

  /** kubernetes.ParseHost with this context's identity domain, as `host` keeps it. */
  parsedHost(hostName: string, namespace: string): ParsedHost {
    let byName = this.parsedHosts.get(namespace);
    if (byName === undefined) this.parsedHosts.set(namespace, (byName = new Map()));
    let h = byName.get(hostName);
    if (h === undefined) byName.set(hostName, (h = parsed(parseHost(hostName, namespace, this.identityDomain))));
    return h;
  }

  /** Whether Kiali knows the namespace (it is in `namespaces`). */
  knowsNamespace(name: string): boolean {
    this.knownNamespaces ??= new Set(this.namespaces ?? []);
    return this.knownNamespaces.has(name);
  }

  /** Every namespace the workspace names: Namespace objects and the namespaces of namespaced objects. */
  private workspaceNamespaces(): string[] {
    const out = new Set<string>();
    for (const ns of this.view.list(KINDS.Namespace)) if (ns.synthetic === undefined) out.add(ns.name);
    for (const kind of Object.values(KINDS)) {
      if (kind.clusterScoped || kind.synthetic) continue;
      for (const r of this.view.list(kind)) if (r.synthetic === undefined && r.namespace !== '') out.add(r.namespace);
    }
    return [...out].sort();
  }

  /** Namespaces with an istiod workload (the root namespace when there is none). */
  private istiodNamespaces(): string[] {
    const out = new Set<string>();
    for (const kind of [KINDS.Deployment, KINDS.Pod]) for (const r of this.view.list(kind)) if (r.labels.app === 'istiod') out.add(r.namespace);
    if (out.size === 0) out.add(this.rootNamespace);
    return [...out];
  }

  /**
   * Kiali's ServiceAccounts: cluster → principals. Derived for the home cluster from the
   * ServiceAccount objects, the service accounts workloads name and each known namespace's
   * `default`, under every known trust domain.
   */
  get serviceAccounts(): Readonly<Record<string, readonly string[]>> {
    if (this.serviceAccountOverrides) return this.serviceAccountOverrides;
    return this.once('serviceAccounts', () => {
      const names = new Set<string>();
      for (const sa of this.list(KINDS.ServiceAccount)) names.add(`${sa.namespace}/${sa.name}`);
      for (const ns of this.namespaces ?? []) names.add(`${ns}/default`);
      // istiod's deployment controller creates a ServiceAccount for each waypoint it deploys.
      for (const p of waypointInfrastructure(this.view, this.view.list(KINDS.Pod)).pods) {
        const sa = str(isObj(p.body.spec) ? p.body.spec.serviceAccountName : undefined);
        if (sa !== '') names.add(`${p.namespace}/${sa}`);
      }
      for (const ws of this.workloadsPerNamespace.values())
        for (const w of ws) {
          const spec = isObj(w.resource.body.spec) ? w.resource.body.spec : {};
          const podSpec = w.kind === 'Pod' ? spec : isObj(spec.template) && isObj(spec.template.spec) ? spec.template.spec : {};
          const sa = str((podSpec as Obj).serviceAccountName);
          if (sa !== '') names.add(`${w.namespace}/${sa}`);
        }
      const principals: string[] = [];
      for (const td of this.knownTrustDomains)
        for (const n of names) {
          const [ns, sa] = n.split('/');
          principals.push(`${td}/ns/${ns}/sa/${sa}`);
        }
      return { [this.cluster]: principals };
    });
  }

  /** The root namespace of the control plane that manages `namespace`. */
  rootNamespaceOf(namespace: string): string | undefined {
    return this.rootNamespaceOverrides ? this.rootNamespaceOverrides[namespace] : this.rootNamespace;
  }

  isControlPlane(namespace: string): boolean {
    return this.controlPlaneNamespaces.includes(namespace);
  }

  get services(): readonly Resource[] {
    return this.list(KINDS.Service);
  }

  get pods(): readonly Resource[] {
    return this.list(KINDS.Pod);
  }

  /**
   * Pods the workbench assumes or derives (the assumed ingress gateway, controllers' pods): a live
   * cluster runs them, so Kiali there would see what they select.
   */
  get assumedPods(): readonly Resource[] {
    return this.once('assumedPods', () => this.view.list(KINDS.Pod).filter((r) => r.synthetic !== undefined));
  }

  get deployments(): readonly Resource[] {
    return this.list(KINDS.Deployment);
  }

  get serviceEntries(): readonly Resource[] {
    return this.list(KINDS.ServiceEntry);
  }

  get virtualServices(): readonly Resource[] {
    return this.list(KINDS.VirtualService);
  }

  get destinationRules(): readonly Resource[] {
    return this.list(KINDS.DestinationRule);
  }

  get gateways(): readonly Resource[] {
    return this.list(KINDS.Gateway);
  }

  /** Kiali's KubeServiceHosts over every Service (no mesh-wide default exportTo, as in Kiali's tests). */
  get kubeServiceHosts(): KubeServiceHosts {
    return this.once('kubeServiceHosts', () => new KubeServiceHosts(this.services, this.identityDomain));
  }

  /** kubernetes.ServiceEntryHostnames over every ServiceEntry. */
  get serviceEntryHosts(): Map<string, string[]> {
    return this.once('serviceEntryHosts', () =>
      serviceEntryHostnames(
        this.serviceEntries.map((se) => {
          const spec = serviceEntry(se);
          return { hosts: spec.hosts, portProtocols: spec.ports.map((p) => p.protocol) };
        }),
      ),
    );
  }

  /**
   * The route destinations of a VirtualService's http, tcp and tls rules (its typed view), in
   * that order, with their hosts parsed in its namespace (`host` when written). Built once per
   * VirtualService: several checkers walk every route of a large mesh.
   */
  routeDestinations(vs: Resource): readonly RouteDestination[] {
    let out = this.routes.get(vs);
    if (out === undefined) {
      const list: RouteDestination[] = [];
      const spec = virtualService(vs);
      for (const [kind, rules] of [
        ['http', spec.http],
        ['tcp', spec.tcp],
        ['tls', spec.tls],
      ] as const)
        for (let rule = 0; rule < rules.length; rule++) {
          const routes = (rules[rule] as (typeof rules)[number]).route;
          for (let route = 0; route < routes.length; route++) {
            const d = (routes[route] as (typeof routes)[number]).destination;
            if (!d) continue;
            list.push({ kind, rule, route, name: d.host, subset: d.subset, host: d.host === '' ? undefined : this.host(d.host, vs.namespace) });
          }
        }
      this.routes.set(vs, (out = list));
    }
    return out;
  }

  /** VirtualServices as hosts per namespace (for kubernetes.HasMatchingVirtualServices). */
  get virtualServiceHosts(): { namespace: string; hosts: readonly string[] }[] {
    return this.once('virtualServiceHosts', () => this.virtualServices.map((vs) => ({ namespace: vs.namespace, hosts: virtualService(vs).hosts })));
  }

  /** Kiali's WorkloadsPerNamespace: controllers not owned by another, and pods without a controller. */
  get workloadsPerNamespace(): ReadonlyMap<string, readonly KialiWorkload[]> {
    return this.once('workloads', () => {
      const out = new Map<string, KialiWorkload[]>();
      const add = (w: KialiWorkload) => {
        const list = out.get(w.namespace);
        if (list) list.push(w);
        else out.set(w.namespace, [w]);
      };
      for (const kind of WORKLOAD_KINDS)
        for (const r of this.list(kind))
          if (!ownedByController(r)) add({ name: r.name, namespace: r.namespace, kind: kind.kind, labels: templateLabels(r), resource: r });
      for (const p of this.pods) if (!ownedByController(p)) add({ name: p.name, namespace: p.namespace, kind: 'Pod', labels: { ...p.labels }, resource: p });
      return out;
    });
  }

  /** MTLSDetails.PeerAuthentications as Kiali gathers them when validating `namespace`. */
  peerAuthenticationsIn(namespace: string): readonly Resource[] {
    return this.list(KINDS.PeerAuthentication).filter((pa) => pa.namespace === namespace);
  }

  /** MTLSDetails.MeshPeerAuthentications: the PeerAuthentications of the root namespace. */
  get meshPeerAuthentications(): readonly Resource[] {
    return this.peerAuthenticationsIn(this.rootNamespace);
  }

  /**
   * Kiali's models.Namespaces.GetNamespace: a known namespace, with the labels of its Namespace
   * object (none when the workspace lacks it); undefined for a namespace Kiali does not know.
   * IsAmbient is what Kiali's namespace service sets: the `istio.io/dataplane-mode=ambient`
   * label, except that a control-plane namespace is Ambient when the cluster runs ztunnel.
   */
  namespaceInfo(name: string): KialiNamespace | undefined {
    if (this.namespaceInfos.has(name)) return this.namespaceInfos.get(name);
    let info: KialiNamespace | undefined;
    if (this.knowsNamespace(name)) {
      const o = has(this.namespaceOverrides, name) ? this.namespaceOverrides[name] : undefined;
      const ns = this.list(KINDS.Namespace).find((n) => n.name === name);
      const labels = o?.labels ?? ns?.labels ?? {};
      const isControlPlane = o?.isControlPlane ?? this.isControlPlane(name);
      const isAmbient = o?.isAmbient ?? ((isControlPlane && this.runsZtunnel) || labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT);
      info = { name, labels, isAmbient, isControlPlane };
    }
    this.namespaceInfos.set(name, info);
    return info;
  }

  /** Kiali's Namespaces: every namespace it knows, as namespaceInfo gives it. */
  get kialiNamespaces(): readonly KialiNamespace[] {
    return (this.namespaces ?? []).map((n) => this.namespaceInfo(n) as KialiNamespace);
  }

  /** Ambient is installed: a ztunnel DaemonSet or pod is in the workspace. */
  private get runsZtunnel(): boolean {
    return this.once('runsZtunnel', () =>
      [KINDS.DaemonSet, KINDS.Pod].some((k) => this.view.list(k).some((r) => r.labels.app === 'ztunnel' || (k === KINDS.DaemonSet && r.name === 'ztunnel'))),
    );
  }

  /** The workload flags the overrides give for a workload (none when they give none). */
  /** Whether the overrides give any workload flag for the workload. */
  givesWorkloadFlags(w: KialiWorkload): boolean {
    for (const _ in this.workloadOverrides) return Object.keys(this.workloadFlagOverrides(w)).length > 0;
    return false;
  }

  workloadFlagOverrides(w: KialiWorkload): Partial<KialiWorkloadFlags> {
    const key = `${w.namespace}/${w.name}`;
    const o = has(this.workloadOverrides, key) ? this.workloadOverrides[key] : undefined;
    return o ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) : {};
  }

  workloadsIn(namespace: string): readonly KialiWorkload[] {
    return this.workloadsPerNamespace.get(namespace) ?? [];
  }

  /**
   * The items of `namespace` whose labels `selector` matches, in the items' order. Indexed once
   * per run (`key` names the list) by namespace and label, so a checker that selects for every
   * object of a large mesh looks at the few candidates sharing the selector's first label.
   */
  selectIn<T>(
    key: string,
    items: readonly T[],
    nsOf: (t: T) => string,
    labelsOf: (t: T) => Readonly<Record<string, string>>,
    namespace: string,
    selector: Readonly<Record<string, string>>,
  ): T[] {
    let index = this.selectIndexes.get(key) as SelectIndex<T> | undefined;
    if (index === undefined) {
      index = { byNs: new Map(), byLabel: new Map() };
      for (const t of items) {
        const ns = nsOf(t);
        listIn(index.byNs, ns).push(t);
        let byKey = index.byLabel.get(ns);
        if (byKey === undefined) index.byLabel.set(ns, (byKey = new Map()));
        const labels = labelsOf(t);
        for (const k in labels) {
          let byValue = byKey.get(k);
          if (byValue === undefined) byKey.set(k, (byValue = new Map()));
          listIn(byValue, String(labels[k])).push(t);
        }
      }
      this.selectIndexes.set(key, index);
    }
    let candidates: T[] | undefined;
    let empty = true;
    for (const k in selector) {
      candidates = index.byLabel.get(namespace)?.get(k)?.get(String(selector[k]));
      empty = false;
      break;
    }
    if (empty) candidates = index.byNs.get(namespace);
    return candidates === undefined ? [] : candidates.filter((t) => selectorMatches(selector, labelsOf(t)));
  }

  /** Every workload, namespace by namespace. */
  get workloads(): readonly KialiWorkload[] {
    return this.once('workloadList', () => [...this.workloadsPerNamespace.values()].flat());
  }

  /** The Service `namespace/name`, if the files hold it. */
  service(namespace: string, name: string): Resource | undefined {
    if (this.servicesByName === undefined) {
      const byNs = new Map<string, Map<string, Resource>>();
      for (const s of this.services) {
        let byName = byNs.get(s.namespace);
        if (byName === undefined) byNs.set(s.namespace, (byName = new Map()));
        // The first of two with one name, as Kiali's lookup finds it.
        if (!byName.has(s.name)) byName.set(s.name, s);
      }
      this.servicesByName = byNs;
    }
    return this.servicesByName.get(namespace)?.get(name);
  }
}
