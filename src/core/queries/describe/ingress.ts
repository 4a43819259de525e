// printIngressInfo of `istioctl x describe` (describe.go): the ingress gateway pods
// (`istio=ingressgateway`, running), the Services in their namespaces that select them, and for
// each Service port of the described pod, the VirtualService the gateway's routes come from,
// the Gateways it binds and where they are exposed.
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import { arr, isObj, str } from '../../document/read.ts';
import type { ConfigView } from '../../config/configView.ts';
import { toLabelMap, type LabelMap } from '../../config/labels.ts';
import { kubePortProtocol } from '../../config/protocol.ts';
import { podIndex } from '../../config/workloads.ts';
import { workspaceHasIngressGateway } from '../../xds/proxy.ts';
import type { ConfigDump } from '../../xds/configdump/dump.ts';
import { destinationRulePath, parseConfigPath, virtualServicePath } from './envoy.ts';
import { findPort, servicePorts, servicesOfNamespace, type ApiDefaults } from './pod.ts';
import { matchingSubsets, refOf, subsetFacts, virtualServiceFacts } from './routes.ts';
import type { IngressEvent, IngressExposure, IngressFacts } from './types.ts';

export type DumpResult = { ok: true; dump: ConfigDump } | { ok: false; error: string };

/** maps.Contains: every pair of `sub` is in `labels`. */
function contains(labels: LabelMap, sub: LabelMap): boolean {
  for (const k of Object.keys(sub)) if (labels[k] !== sub[k]) return false;
  return true;
}

function byNamespaceAndName(a: Resource, b: Resource): number {
  const ka = `${a.namespace}/${a.name}`;
  const kb = `${b.namespace}/${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A pod istioctl's `status.phase=Running` field selector keeps (a pod without status is taken as running). */
export function isRunning(pod: Resource): boolean {
  const status = isObj(pod.body.status) ? pod.body.status : {};
  const phase = str(status.phase);
  return phase === '' || phase === 'Running';
}

/** The ingress gateway pods, in API list order; the assumed gateway only when the files run none of their own. */
export function ingressGatewayPods(view: ConfigView): Resource[] {
  const all = podIndex(view).all;
  const skipPlaceholder = workspaceHasIngressGateway(all);
  return all.filter((p) => p.labels.istio === 'ingressgateway' && isRunning(p) && !(skipPlaceholder && p.synthetic === 'placeholder')).sort(byNamespaceAndName);
}

interface IngressInfo {
  service: Resource;
  pods: Resource[];
}

/** getIngressIP: the load balancer's first IP, else the first pod's host IP, else `unknown`. */
function ingressIp(info: IngressInfo): string {
  if (info.pods.length === 0) return 'unknown';
  const status = isObj(info.service.body.status) ? info.service.body.status : {};
  const lb = isObj(status.loadBalancer) ? status.loadBalancer : {};
  const first = arr(lb.ingress)[0];
  if (first !== undefined) return isObj(first) ? str(first.ip) : '';
  const podStatus = isObj(info.pods[0]?.body.status) ? (info.pods[0]?.body.status as Record<string, unknown>) : {};
  return str(podStatus.hostIP) || 'unknown';
}

const PORTS_TO_SHOW = new Set(['http2', 'http']);

/** printIngressService. */
function exposure(info: IngressInfo, defaults: ApiDefaults): IngressExposure {
  const ip = ingressIp(info);
  const urls: string[] = [];
  for (const p of servicePorts(info.service, defaults)) {
    if (p.protocol !== 'TCP' || !PORTS_TO_SHOW.has(p.name)) continue;
    if (!('port' in findPort(info.pods[0] as Resource, p, defaults))) continue;
    const protocol = kubePortProtocol(p.port, p.name, p.protocol, p.appProtocol);
    const scheme = protocol === 'HTTP' || protocol === 'HTTP2' ? 'http' : '';
    const defaultPort = scheme === 'http' ? 80 : 0;
    urls.push(`${scheme}://${ip}${defaultPort !== p.port ? `:${p.port}` : ''}`);
  }
  return { service: refOf(info.service), urls, ip };
}

export interface IngressInputs {
  view: ConfigView;
  /** The Services of the described pod (or the described Service). */
  services: readonly Resource[];
  podsLabels: readonly LabelMap[];
  describeNamespace: string;
  defaults: ApiDefaults;
  dumpFor(pod: Resource): DumpResult;
}

export function ingressFacts(inp: IngressInputs): IngressFacts {
  const { view } = inp;
  const pods = ingressGatewayPods(view);
  if (pods.length === 0) return { skipped: 'no ingress gateway pods', events: [] };
  const found: IngressInfo[] = [];
  for (const ns of [...new Set(pods.map((p) => p.namespace))].sort()) {
    const here = pods.filter((p) => p.namespace === ns);
    for (const svc of servicesOfNamespace(view, ns)) {
      const sel = toLabelMap(isObj(svc.body.spec) ? svc.body.spec.selector : undefined);
      const matched = here.filter((p) => contains(p.labels, sel));
      if (matched.length > 0) found.push({ service: svc, pods: matched });
    }
  }
  const out: IngressFacts = { events: [] };
  if (found.length === 0) out.skipped = 'no ingress gateway service';
  const seenGateways = new Set<string>();
  const events: IngressEvent[] = out.events;
  for (const gwPod of pods) {
    const d = inp.dumpFor(gwPod);
    if (!d.ok) {
      out.error = `failed to execute command on ingress gateway sidecar: ${d.error}`;
      return out;
    }
    for (const svc of inp.services) {
      for (const port of servicePorts(svc, inp.defaults)) {
        const drAt = parseConfigPath(destinationRulePath(d.dump, svc.name, svc.namespace, port.port), 'destination-rule');
        let dr: Resource | undefined;
        if (drAt) {
          dr = view.find(KINDS.DestinationRule, drAt.namespace, drAt.name);
          if (!dr) events.push({ type: 'stale', stale: { kind: 'destination rule', ...drAt } });
        }
        const subsets = dr ? matchingSubsets(subsetFacts(dr, inp.podsLabels)) : { matching: [], nonMatching: [] };
        const vsAt = parseConfigPath(virtualServicePath(d.dump, svc.name, svc.namespace, port.port) ?? '', 'virtual-service');
        if (!vsAt) continue;
        const vs = view.find(KINDS.VirtualService, vsAt.namespace, vsAt.name);
        if (!vs) {
          events.push({ type: 'stale', stale: { kind: 'virtual service', ...vsAt } });
          continue;
        }
        const spec = isObj(vs.body.spec) ? vs.body.spec : {};
        arr(spec.gateways).forEach((g, gi) => {
          let name = str(g);
          if (name === '' || name === 'mesh') return;
          let gns = vs.namespace;
          const slash = name.indexOf('/');
          if (slash >= 0) {
            gns = name.slice(0, slash);
            name = name.slice(slash + 1);
          }
          const id = `${gns}/${name}`;
          if (seenGateways.has(id)) return;
          const gw = view.find(KINDS.Gateway, gns, name);
          if (!gw) {
            events.push({ type: 'stale', stale: { kind: 'gateway', namespace: gns, name } });
            return;
          }
          seenGateways.add(id);
          const gwSpec = isObj(gw.body.spec) ? gw.body.spec : {};
          if (!isObj(gwSpec.selector)) {
            events.push({ type: 'selectorless', gateway: refOf(gw) });
            return;
          }
          const sel = toLabelMap(gwSpec.selector);
          const matched = found.filter((f) => f.pods.some((p) => contains(p.labels, sel)));
          if (matched.length === 0) return;
          const ingresses = matched.map((m) => exposure(m, inp.defaults)).sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
          const drName = dr ? (dr.namespace === inp.describeNamespace ? dr.name : `${dr.name}.${dr.namespace}`) : undefined;
          events.push({
            type: 'exposure',
            gateway: refOf(gw, `spec.selector`),
            ingresses,
            virtualService: {
              ...virtualServiceFacts(vs, svc.name, svc.namespace, { ...subsets, ...(drName ? { destinationRule: drName } : {}) }, inp.describeNamespace),
              ref: refOf(vs, `spec.gateways[${gi}]`),
            },
          });
        });
      }
    }
  }
  return out;
}
