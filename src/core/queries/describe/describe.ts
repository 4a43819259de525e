// `istioctl x describe pod|service` as a pure query over the mesh model: the facts its
// describePodServices, describePeerAuthentication and printIngressInfo print, where istioctl
// reads each proxy's live /config_dump and we read the config we generate for it.
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import { isObj } from '../../document/read.ts';
import type { ConfigView } from '../../config/configView.ts';
import { selectorMatches, toLabelMap, type LabelMap } from '../../config/labels.ts';
import { listProxies, proxyForPod } from '../../xds/proxy.ts';
import { generateForProxy } from '../../xds/generate.ts';
import { configDump } from '../../xds/dump.ts';
import { configDumpFromValue } from '../../xds/configdump/dump.ts';
import { pushContext } from '../../xds/pushContext.ts';
import { composePeerAuthentication } from '../../xds/peerAuthn.ts';
import { destinationRulePath, inboundRbacPolicies, parseConfigPath, virtualServicePath } from './envoy.ts';
import { ingressFacts, isRunning, type DumpResult } from './ingress.ts';
import { hasSidecar, podFacts, servicePortFacts, servicePorts, servicesSelecting, type ApiDefaults } from './pod.ts';
import { destinationRuleFacts, kname, matchingSubsets, refOf, virtualServiceFacts } from './routes.ts';
import { almostApplies } from './almost.ts';
import type { PeerAuthenticationFacts, PodDescription, ServiceDescription, ServiceOnlyDescription, ServicePortDescription } from './types.ts';

export interface DescribeOptions extends Partial<ApiDefaults> {
  /** istioctl's -n: names in it print bare (default `default`). */
  describeNamespace?: string;
  /** --ignoreUnmeshed: no warnings for a pod without a sidecar, and no failure reading its config. */
  ignoreUnmeshed?: boolean;
  /** Where a proxy's Envoy config comes from (default: generated from the mesh). */
  dumpFor?: (pod: Resource) => DumpResult;
  /** Leave out the almost-applies search (istioctl has none; the CLI does not print it). */
  skipAlmostApplies?: boolean;
}

/** The config dump we generate for a pod's proxy (no bootstrap: describe reads none of it). */
export function generatedDump(view: ConfigView, pod: Resource): DumpResult {
  const ref = listProxies(view).find((p) => p.pod === pod);
  if (!ref) return { ok: false, error: `pod ${pod.name}.${pod.namespace} runs no Envoy proxy (no sidecar, and not a gateway)` };
  return view.lookups.cached(`describe.dump:${pod.key}`, () => {
    const gen = generateForProxy(view, proxyForPod(view, ref));
    const r = configDumpFromValue(configDump(gen, { omitBootstrap: true }).dump);
    return r.ok ? { ok: true, dump: r.dump } : { ok: false, error: r.error };
  });
}

/**
 * The Envoy config istioctl would read from a pod: its proxy's admin endpoint answers only when
 * the pod runs one, that is when it has an istio-proxy container (a sidecar, or a gateway's
 * proxy). A pod written without it has no Envoy to read, even where our model of the mesh would
 * inject one (an injection-enabled namespace, `sidecar.istio.io/inject: "true"`): describe reads
 * the cluster's pod as it is, and says so in its "not part of mesh" warning.
 */
export function describedDump(view: ConfigView, pod: Resource): DumpResult {
  if (!hasSidecar(pod)) return { ok: false, error: `pod ${pod.name}.${pod.namespace} runs no Envoy proxy (no istio-proxy container)` };
  return generatedDump(view, pod);
}

function resolved(view: ConfigView, opts: DescribeOptions) {
  return {
    ns: opts.describeNamespace ?? 'default',
    defaults: { apiServerDefaults: opts.apiServerDefaults ?? true },
    dumpFor: opts.dumpFor ?? ((p: Resource) => describedDump(view, p)),
  };
}

/** describePodServices, for one proxy's dump. */
function describeServices(
  view: ConfigView,
  dump: DumpResult & { ok: true },
  pod: Resource,
  services: readonly Resource[],
  podsLabels: readonly LabelMap[],
  ns: string,
  defaults: ApiDefaults,
): ServiceDescription[] {
  return services.map((svc) => {
    const byPort: ServicePortDescription[] = servicePorts(svc, defaults).map((p) => {
      const out: ServicePortDescription = { port: p.port, rbacPolicies: inboundRbacPolicies(dump.dump, p.port), stale: [] };
      const drAt = parseConfigPath(destinationRulePath(dump.dump, svc.name, svc.namespace, p.port), 'destination-rule');
      let subsets = { matching: [] as string[], nonMatching: [] as string[] };
      let drName: string | undefined;
      if (drAt) {
        const dr = view.find(KINDS.DestinationRule, drAt.namespace, drAt.name);
        if (dr) {
          out.destinationRule = destinationRuleFacts(dr, podsLabels, ns);
          subsets = matchingSubsets(out.destinationRule.subsets);
          drName = out.destinationRule.kname;
        } else out.stale.push({ kind: 'destination rule', ...drAt });
      }
      const vsAt = parseConfigPath(virtualServicePath(dump.dump, svc.name, svc.namespace, p.port) ?? '', 'virtual-service');
      if (vsAt) {
        const vs = view.find(KINDS.VirtualService, vsAt.namespace, vsAt.name);
        if (vs) out.virtualService = virtualServiceFacts(vs, svc.name, svc.namespace, { ...subsets, ...(drName ? { destinationRule: drName } : {}) }, ns);
        else out.stale.push({ kind: 'virtual service', ...vsAt });
      }
      return out;
    });
    return { ref: refOf(svc), kname: kname(svc.namespace, svc.name, ns), ports: servicePortFacts(svc, pod, defaults), byPort };
  });
}

/** describePeerAuthentication: the root namespace's and the pod's namespace's policies whose selector matches, and the mode they compose to. */
function peerAuthenticationFacts(view: ConfigView, pod: Resource): PeerAuthenticationFacts {
  const push = pushContext(view);
  const root = push.mesh.rootNamespace;
  const byName = (a: Resource, b: Resource) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const inNs = (ns: string) =>
    view
      .list(KINDS.PeerAuthentication)
      .filter((r) => r.namespace === ns)
      .sort(byName);
  // istioctl lists both namespaces, so a pod of the root namespace sees its policies twice.
  const applied = [...inNs(root), ...inNs(pod.namespace)].filter((pa) => {
    const spec = isObj(pa.body.spec) ? pa.body.spec : {};
    const sel = isObj(spec.selector) ? toLabelMap(spec.selector.matchLabels) : {};
    return selectorMatches(sel, pod.labels);
  });
  const merged = composePeerAuthentication(push, pod.namespace, pod.labels);
  return {
    mode: merged.mode,
    perPort: [...merged.perPort].sort((a, b) => a[0] - b[0]).map(([port, mode]) => ({ port, mode })),
    applied: applied.map((r) => refOf(r)),
    decidedBy: merged.from.map((f) => {
      const r = view.list(KINDS.PeerAuthentication).find((x) => x.key === f.resourceKey);
      return r ? refOf(r, f.fieldPath) : { kind: 'PeerAuthentication', namespace: '', name: '', resourceKey: f.resourceKey };
    }),
  };
}

/** `describe pod`: everything istioctl prints about the pod, and what nearly applies to it. */
export function describePod(view: ConfigView, pod: Resource, opts: DescribeOptions = {}): PodDescription {
  const { ns, defaults, dumpFor } = resolved(view, opts);
  const facts = podFacts(view, pod, ns, defaults);
  if (opts.ignoreUnmeshed)
    facts.warnings = facts.warnings.filter((w) => w.type === 'containerNotReady' || w.type === 'initContainerNotReady' || w.type === 'uid1337Container');
  const services = servicesSelecting(view, pod);
  const podsLabels = [pod.labels];
  const out: PodDescription = {
    describeNamespace: ns,
    pod: facts,
    services: [],
    noServices: services.length === 0 && !opts.ignoreUnmeshed,
    almostApplies: opts.skipAlmostApplies ? [] : almostApplies(view, pod, services),
    notes: [],
  };
  if (pod.synthetic === 'derived') {
    out.notes.push(
      `The pod is derived from ${pod.derivedFrom?.kind ?? 'its controller'} ${pod.derivedFrom?.namespace}/${pod.derivedFrom?.name}: its name and the injected sidecar are the workbench's (a real injected pod also lists the istio-proxy port 15090 and the injector's revision).`,
    );
  }
  const dump = dumpFor(pod);
  if (!dump.ok) {
    if (!opts.ignoreUnmeshed) {
      out.proxyError = `failed to execute command on sidecar: ${dump.error}`;
      return out;
    }
  } else out.services = describeServices(view, dump, pod, services, podsLabels, ns, defaults);
  out.peerAuthentication = peerAuthenticationFacts(view, pod);
  out.ingress = ingressFacts({ view, services, podsLabels, describeNamespace: ns, defaults, dumpFor });
  return out;
}

/** Pods of a namespace selected by a Service, by name. */
function podsOfService(view: ConfigView, svc: Resource): Resource[] {
  const sel = toLabelMap(isObj(svc.body.spec) ? svc.body.spec.selector : undefined);
  if (Object.keys(sel).length === 0) return [];
  return view
    .list(KINDS.Pod)
    .filter((p) => p.namespace === svc.namespace && selectorMatches(sel, p.labels))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** containerReady for istio-proxy: from the pod's container statuses; a pod without status reads as all containers ready. */
function proxyReady(pod: Resource): boolean | 'absent' {
  const status = isObj(pod.body.status) ? pod.body.status : undefined;
  const lists = status ? [status.containerStatuses, status.initContainerStatuses] : undefined;
  if (!lists || (!Array.isArray(lists[0]) && !Array.isArray(lists[1]))) return hasSidecar(pod) ? true : 'absent';
  for (const l of lists) for (const c of Array.isArray(l) ? l : []) if (isObj(c) && c.name === 'istio-proxy') return c.ready === true;
  return 'absent';
}

/** `describe service`: the Service described through the config of its first ready meshed pod. */
export function describeService(view: ConfigView, svc: Resource, opts: DescribeOptions = {}): ServiceOnlyDescription {
  const { ns, defaults, dumpFor } = resolved(view, opts);
  const out: ServiceOnlyDescription = {
    describeNamespace: ns,
    service: refOf(svc),
    kname: kname(svc.namespace, svc.name, ns),
    outcome: 'described',
    selectedPods: 0,
    podLines: [],
    services: [],
  };
  const selected = podsOfService(view, svc);
  out.selectedPods = selected.length;
  const meshed: Resource[] = [];
  for (const p of selected) {
    const status = isObj(p.body.status) ? p.body.status : {};
    if (!isRunning(p)) {
      out.podLines.push(`   Pod is not Running (${String(status.phase ?? '')})`);
      continue;
    }
    const ready = proxyReady(p);
    if (ready === 'absent') out.podLines.push(`Pod ${kname(p.namespace, p.name, ns)}: no container "istio-proxy" in pod`);
    else if (!ready) out.podLines.push(`WARNING: Pod ${kname(p.namespace, p.name, ns)} Container istio-proxy NOT READY`);
    else meshed.push(p);
  }
  if (meshed.length === 0) {
    out.outcome = selected.length === 0 ? 'noPods' : 'noIstioPods';
    return out;
  }
  const podsLabels = meshed.map((p) => p.labels);
  const first = meshed[0] as Resource;
  const dump = dumpFor(first);
  if (!dump.ok) {
    out.proxyError = `failed to execute command on sidecar: ${dump.error}`;
    return out;
  }
  out.services = describeServices(view, dump, first, [svc], podsLabels, ns, defaults);
  out.ingress = ingressFacts({ view, services: [svc], podsLabels, describeNamespace: ns, defaults, dumpFor });
  return out;
}
