// Resources that almost apply to a pod: a selector or subset one character edit away from the
// pod's labels, a selector that would match in another namespace, an exportTo that hides a
// VirtualService, DestinationRule or ServiceEntry of the pod's Service from the pod's
// namespace, or a host one edit away from the Service's. A selector that picks other pods is
// taken as meant for them (v1 and v2 are one edit apart), so only selectors and subsets that
// select no pod at all are near misses.
import type { Resource } from '../../document/types.ts';
import { KINDS, type KindInfo } from '../../document/kinds.ts';
import { arr, has, isObj, str, strList, type Obj } from '../../document/read.ts';
import { editDistance } from '../../document/editDistance.ts';
import type { ConfigView } from '../../config/configView.ts';
import { toLabelMap, type LabelMap } from '../../config/labels.ts';
import { podsSelectedBy } from '../../config/workloads.ts';
import { servicesByHostname } from '../../config/services.ts';
import { pushContext } from '../../xds/pushContext.ts';
import { resolveShortname } from '../../xds/hostname.ts';
import { extendFqdn } from './envoy.ts';
import { refOf } from './routes.ts';
import type { AlmostApplies, AlmostReason } from './types.ts';

/** Where each kind keeps its workload selector, and whether one in the root namespace applies mesh-wide. */
const SELECTORS: ReadonlyArray<{ kind: KindInfo; path: readonly string[]; what: string; rootWide: boolean; namespaced: boolean }> = [
  { kind: KINDS.Service, path: ['selector'], what: 'select the pod as an endpoint', rootWide: false, namespaced: true },
  { kind: KINDS.PeerAuthentication, path: ['selector', 'matchLabels'], what: 'set the mTLS mode of the pod', rootWide: false, namespaced: true },
  { kind: KINDS.AuthorizationPolicy, path: ['selector', 'matchLabels'], what: 'authorize requests to the pod', rootWide: true, namespaced: true },
  { kind: KINDS.RequestAuthentication, path: ['selector', 'matchLabels'], what: 'authenticate requests to the pod', rootWide: true, namespaced: true },
  { kind: KINDS.Telemetry, path: ['selector', 'matchLabels'], what: 'configure telemetry of the pod', rootWide: true, namespaced: true },
  { kind: KINDS.WasmPlugin, path: ['selector', 'matchLabels'], what: 'add a Wasm plugin to the pod', rootWide: true, namespaced: true },
  { kind: KINDS.Sidecar, path: ['workloadSelector', 'labels'], what: "scope the pod's sidecar", rootWide: false, namespaced: true },
  { kind: KINDS.EnvoyFilter, path: ['workloadSelector', 'labels'], what: "patch the pod's Envoy config", rootWide: true, namespaced: true },
  { kind: KINDS.DestinationRule, path: ['workloadSelector', 'matchLabels'], what: "apply to the pod's outbound traffic", rootWide: false, namespaced: true },
  { kind: KINDS.Gateway, path: ['selector'], what: 'run on the pod as a gateway', rootWide: false, namespaced: false },
];

function specOf(r: Resource): Obj {
  return isObj(r.body.spec) ? r.body.spec : {};
}

function at(o: Obj, path: readonly string[]): unknown {
  let cur: unknown = o;
  for (const p of path) cur = isObj(cur) ? cur[p] : undefined;
  return cur;
}

/** The reasons a selector misses the pod by single-character edits, or undefined when it misses by more (or matches). */
function nearMiss(selector: LabelMap, labels: LabelMap, fieldPrefix: string): AlmostReason[] | undefined {
  const reasons: AlmostReason[] = [];
  for (const key of Object.keys(selector)) {
    const want = selector[key] as string;
    if (has(labels, key)) {
      const have = labels[key] as string;
      if (have === want) continue;
      if (editDistance(have, want, 1) > 1) return undefined;
      reasons.push({ type: 'labelValue', key, want, have, fieldPath: `${fieldPrefix}.${key}` });
      continue;
    }
    const podKey = Object.keys(labels).find((k) => !has(selector, k) && labels[k] === want && editDistance(k, key, 1) <= 1);
    if (podKey === undefined) return undefined;
    reasons.push({ type: 'labelKey', key, podKey, value: want, fieldPath: `${fieldPrefix}.${key}` });
  }
  return reasons.length > 0 ? reasons : undefined;
}

function reasonText(r: AlmostReason): string {
  switch (r.type) {
    case 'labelValue':
      return `${r.key}: ${JSON.stringify(r.want)} where the pod has ${JSON.stringify(r.have)}`;
    case 'labelKey':
      return `label key ${JSON.stringify(r.key)} where the pod has ${JSON.stringify(r.podKey)}`;
    case 'namespace':
      return `it is in namespace ${r.resourceNamespace}, the pod in ${r.podNamespace}`;
    case 'exportTo':
      return `exportTo [${r.exportTo.join(', ')}] hides it from namespace ${r.podNamespace}`;
    case 'host':
      return `host ${JSON.stringify(r.host)} is one edit away from ${r.service}`;
  }
}

function entry(r: Resource, fieldPath: string | undefined, what: string, reasons: AlmostReason[]): AlmostApplies {
  return {
    ref: refOf(r, fieldPath),
    what,
    reasons,
    message: `${r.gvk.kind} ${r.namespace}/${r.name} would ${what}, but ${reasons.map(reasonText).join('; ')}.`,
  };
}

function selectorNearMisses(view: ConfigView, pod: Resource, root: string): AlmostApplies[] {
  const out: AlmostApplies[] = [];
  for (const s of SELECTORS) {
    for (const r of view.list(s.kind)) {
      const raw = at(specOf(r), s.path);
      const sel = toLabelMap(raw);
      if (Object.keys(sel).length === 0) continue;
      const field = `spec.${s.path.join('.')}`;
      const appliesHere = !s.namespaced || r.namespace === pod.namespace || (s.rootWide && r.namespace === root);
      const reasons = nearMiss(sel, pod.labels, field);
      if (reasons) {
        // A typo leaves the selector selecting nothing; one that selects other pods is meant for them.
        if (!appliesHere || podsSelectedBy(view, sel, s.namespaced && r.namespace !== root ? r.namespace : undefined).length > 0) continue;
        out.push(entry(r, field, s.what, reasons));
      } else if (!appliesHere && Object.keys(sel).every((k) => pod.labels[k] === sel[k])) {
        out.push(entry(r, field, s.what, [{ type: 'namespace', resourceNamespace: r.namespace, podNamespace: pod.namespace }]));
      }
    }
  }
  return out;
}

/** The FQDNs of the pod's Services. */
function serviceHosts(services: readonly Resource[]): Map<string, Resource> {
  return new Map(services.map((s) => [extendFqdn(`${s.name}.${s.namespace}`), s]));
}

function fqdn(host: string, namespace: string): string {
  return host === '' ? '' : extendFqdn(resolveShortname(host, namespace, 'cluster.local'));
}

function subsetNearMisses(view: ConfigView, pod: Resource, hosts: Map<string, Resource>): AlmostApplies[] {
  const out: AlmostApplies[] = [];
  for (const dr of view.list(KINDS.DestinationRule)) {
    const svc = hosts.get(fqdn(str(specOf(dr).host), dr.namespace));
    if (!svc) continue;
    const svcSelector = toLabelMap(isObj(svc.body.spec) ? svc.body.spec.selector : undefined);
    arr(specOf(dr).subsets).forEach((s, i) => {
      const o = isObj(s) ? s : {};
      const labels = toLabelMap(o.labels);
      const reasons = nearMiss(labels, pod.labels, `spec.subsets[${i}].labels`);
      if (!reasons) return;
      if (podsSelectedBy(view, { ...svcSelector, ...labels }, svc.namespace).length > 0) return;
      out.push(entry(dr, `spec.subsets[${i}]`, `define subset ${JSON.stringify(str(o.name))} of ${svc.name} for the pod`, reasons));
    });
  }
  return out;
}

/** exportTo as Istio reads it: the list or the mesh default, `.` as the resource's namespace. */
function exportSet(raw: readonly string[], namespace: string, meshDefault: readonly string[]): string[] {
  return (raw.length > 0 ? raw : meshDefault).map((e) => (e === '.' ? namespace : e));
}

function hidden(exportTo: readonly string[], ns: string): boolean {
  return !exportTo.includes('*') && !exportTo.includes(ns);
}

function exportToNearMisses(view: ConfigView, pod: Resource, hosts: Map<string, Resource>): AlmostApplies[] {
  const out: AlmostApplies[] = [];
  const mesh = pushContext(view).mesh;
  const check = (r: Resource, targets: readonly string[], meshDefault: readonly string[], what: string) => {
    const raw = strList(specOf(r).exportTo);
    const set = exportSet(raw, r.namespace, meshDefault);
    if (!targets.some((h) => hosts.has(h)) || !hidden(set, pod.namespace)) return;
    out.push(
      entry(r, raw.length > 0 ? 'spec.exportTo' : undefined, what, [
        { type: 'exportTo', exportTo: set, podNamespace: pod.namespace, fieldPath: 'spec.exportTo' },
      ]),
    );
  };
  for (const vs of view.list(KINDS.VirtualService)) {
    check(
      vs,
      strList(specOf(vs).hosts).map((h) => fqdn(h, vs.namespace)),
      mesh.defaultVirtualServiceExportTo,
      "route requests for the pod's Service",
    );
  }
  for (const dr of view.list(KINDS.DestinationRule)) {
    if (isObj(specOf(dr).workloadSelector)) continue;
    check(dr, [fqdn(str(specOf(dr).host), dr.namespace)], mesh.defaultDestinationRuleExportTo, "set the traffic policy of the pod's Service");
  }
  const seDefault = strList(view.meshConfig.defaultServiceExportTo);
  for (const se of view.list(KINDS.ServiceEntry)) {
    check(
      se,
      strList(specOf(se).hosts).map((h) => fqdn(h, se.namespace)),
      seDefault.length > 0 ? seDefault : ['*'],
      "add entries for the pod's Service host",
    );
  }
  return out;
}

function hostNearMisses(view: ConfigView, hosts: Map<string, Resource>): AlmostApplies[] {
  const out: AlmostApplies[] = [];
  const known = servicesByHostname(view);
  const near = (h: string): Resource | undefined => {
    if (h === '' || h.startsWith('*') || hosts.has(h) || known.has(h)) return undefined;
    for (const [svcHost, svc] of hosts) if (editDistance(h, svcHost, 1) <= 1) return svc;
    return undefined;
  };
  const add = (r: Resource, host: string, fieldPath: string, what: string) => {
    const svc = near(fqdn(host, r.namespace));
    if (svc) out.push(entry(r, fieldPath, what, [{ type: 'host', host, service: `${svc.name}.${svc.namespace}`, fieldPath }]));
  };
  for (const vs of view.list(KINDS.VirtualService)) {
    const s = specOf(vs);
    strList(s.hosts).forEach((h, i) => add(vs, h, `spec.hosts[${i}]`, "route requests for the pod's Service"));
    for (const kind of ['http', 'tcp', 'tls'] as const) {
      arr(s[kind]).forEach((route, i) => {
        arr(isObj(route) ? route.route : undefined).forEach((d, j) => {
          const dest = isObj(d) && isObj(d.destination) ? d.destination : {};
          add(vs, str(dest.host), `spec.${kind}[${i}].route[${j}].destination.host`, "send requests to the pod's Service");
        });
      });
    }
  }
  for (const dr of view.list(KINDS.DestinationRule)) add(dr, str(specOf(dr).host), 'spec.host', "set the traffic policy of the pod's Service");
  return out;
}

/** Every near miss for the pod, selectors first, then subsets, exportTo and hosts. */
export function almostApplies(view: ConfigView, pod: Resource, services: readonly Resource[]): AlmostApplies[] {
  const root = pushContext(view).mesh.rootNamespace;
  const hosts = serviceHosts(services);
  return [
    ...selectorNearMisses(view, pod, root),
    ...subsetNearMisses(view, pod, hosts),
    ...exportToNearMisses(view, pod, hosts),
    ...hostNearMisses(view, hosts),
  ];
}
