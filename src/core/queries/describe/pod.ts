// The pod and Service facts of `istioctl x describe pod` (describe.go: printPod, printService,
// findProtocolForPort, GetRevisionFromPodAnnotation; FindPort from the kube registry), read
// from the objects as the API server would return them.
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import { arr, has, isObj, num, str, type Obj } from '../../document/read.ts';
import type { ConfigView } from '../../config/configView.ts';
import { selectorMatches, toLabelMap } from '../../config/labels.ts';
import { kubePortProtocol } from '../../config/protocol.ts';
import { goJsonField } from '../../config/injector.ts';
import { ambientEnrolled, inAmbientForAnalysis } from '../../config/workloadState.ts';
import { podShape } from '../../config/workloads.ts';
import { CANONICAL_NAME_LABEL, CANONICAL_REVISION_LABEL, ISTIO_PROXY_CONTAINER, REVISION_LABEL, SIDECAR_STATUS_ANNOTATION } from '../../config/wellKnown.ts';
import { kname, refOf } from './routes.ts';
import type { PodFacts, PodPortFact, PodWarning, ServicePortFact } from './types.ts';

/** How the objects read: as a real API server returns them (protocols and targetPort defaulted), or as Istio's fake clientset holds them. */
export interface ApiDefaults {
  /** Default an absent protocol to TCP and an absent targetPort to the port (the API server does; Istio's test clientset does not). */
  apiServerDefaults: boolean;
}

const UID = 1337;
const NAME_LABELS = [CANONICAL_NAME_LABEL, 'app.kubernetes.io/name', 'app'];
const REVISION_LABELS = [CANONICAL_REVISION_LABEL, 'app.kubernetes.io/version', 'version'];

function podSpecRaw(pod: Resource): Obj {
  return isObj(pod.body.spec) ? pod.body.spec : {};
}

function objs(v: unknown): Obj[] {
  return arr(v).map((x) => (isObj(x) ? x : {}));
}

/** GetRevisionFromPodAnnotation. */
export function podRevision(annotations: Readonly<Record<string, string>>): string {
  if (has(annotations, REVISION_LABEL)) return annotations[REVISION_LABEL] as string;
  let status: unknown;
  try {
    status = JSON.parse(annotations[SIDECAR_STATUS_ANNOTATION] ?? '');
  } catch {
    return '';
  }
  if (!isObj(status)) return '';
  const rev = goJsonField(status, 'revision');
  return typeof rev === 'string' ? rev : '';
}

/** inject.FindSidecar: an `istio-proxy` container, or init container (native sidecar). */
export function hasSidecar(pod: Resource): boolean {
  const spec = podSpecRaw(pod);
  return [...objs(spec.containers), ...objs(spec.initContainers)].some((c) => c.name === ISTIO_PROXY_CONTAINER);
}

function runAsUser(o: Obj): number | undefined {
  const sc = o.securityContext;
  return isObj(sc) && typeof sc.runAsUser === 'number' ? sc.runAsUser : undefined;
}

function meshMode(view: ConfigView, pod: Resource, sidecar: boolean): { mode: PodFacts['meshMode']; reason: string } {
  const decision = ambientEnrolled(view, { ...podShape(pod), name: pod.name });
  if (sidecar) return { mode: 'sidecar', reason: 'The pod has an istio-proxy container.' };
  if (inAmbientForAnalysis(pod)) return { mode: 'ambient', reason: 'istio-cni has marked the pod as redirected to ztunnel (ambient).' };
  return { mode: decision.mode === 'ambient' ? 'ambient' : 'none', reason: decision.reason };
}

function readyWarnings(pod: Resource): PodWarning[] {
  const status = isObj(pod.body.status) ? pod.body.status : {};
  const out: PodWarning[] = [];
  objs(status.containerStatuses).forEach((c, i) => {
    if (c.ready !== true) out.push({ type: 'containerNotReady', container: str(c.name), source: refOf(pod, `status.containerStatuses[${i}]`) });
  });
  objs(status.initContainerStatuses).forEach((c, i) => {
    if (c.ready !== true) out.push({ type: 'initContainerNotReady', container: str(c.name), source: refOf(pod, `status.initContainerStatuses[${i}]`) });
  });
  return out;
}

/** printPod's facts and warnings (warnings in the order istioctl prints them). */
export function podFacts(view: ConfigView, pod: Resource, describeNamespace: string, defaults: ApiDefaults): PodFacts {
  const spec = podSpecRaw(pod);
  const ports: PodPortFact[] = [];
  const warnings: PodWarning[] = [];
  objs(spec.containers).forEach((c, i) => {
    objs(c.ports).forEach((p, j) => {
      const protocol = str(p.protocol) || (defaults.apiServerDefaults ? 'TCP' : '');
      ports.push({ port: num(p.containerPort), protocol, container: str(c.name), source: refOf(pod, `spec.containers[${i}].ports[${j}]`) });
    });
    if (c.name !== ISTIO_PROXY_CONTAINER && c.name !== 'istio-operator' && runAsUser(c) === UID) {
      warnings.push({ type: 'uid1337Container', container: str(c.name), source: refOf(pod, `spec.containers[${i}].securityContext.runAsUser`) });
    }
  });
  const status = isObj(pod.body.status) ? pod.body.status : {};
  const phase = str(status.phase);
  const sidecar = hasSidecar(pod);
  const mode = meshMode(view, pod, sidecar);
  if (phase === '' || phase === 'Running') {
    warnings.push(...readyWarnings(pod));
    if (!sidecar) warnings.push({ type: 'notMeshed' });
    else {
      if (runAsUser(spec) === UID) warnings.push({ type: 'uid1337Pod', source: refOf(pod, 'spec.securityContext.runAsUser') });
      if (!NAME_LABELS.some((l) => has(pod.labels, l))) warnings.push({ type: 'noCanonicalName', source: refOf(pod, 'metadata.labels') });
      if (!REVISION_LABELS.some((l) => has(pod.labels, l))) warnings.push({ type: 'noCanonicalRevision', source: refOf(pod, 'metadata.labels') });
    }
  }
  return {
    ref: refOf(pod),
    kname: kname(pod.namespace, pod.name, describeNamespace),
    ...(pod.derivedFrom ? { derivedFrom: { ...pod.derivedFrom } } : {}),
    revision: podRevision(pod.annotations),
    ports,
    phase,
    meshMode: mode.mode,
    meshReason: mode.reason,
    hasSidecar: sidecar,
    warnings,
  };
}

/** The Services of the pod's namespace whose non-empty selector matches its labels, by name (as the API lists them). */
export function servicesSelecting(view: ConfigView, pod: Resource): Resource[] {
  return servicesOfNamespace(view, pod.namespace).filter((s) => {
    const sel = toLabelMap(isObj(s.body.spec) ? s.body.spec.selector : undefined);
    return Object.keys(sel).length > 0 && selectorMatches(sel, pod.labels);
  });
}

/** A namespace's Services sorted by name, as the API server lists them. */
export function servicesOfNamespace(view: ConfigView, namespace: string): Resource[] {
  return view
    .list(KINDS.Service)
    .filter((s) => s.namespace === namespace)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface RawServicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
  /** A number, a name, or undefined when absent. */
  targetPort: number | string | undefined;
  index: number;
}

export function servicePorts(svc: Resource, defaults: ApiDefaults): RawServicePort[] {
  const spec = isObj(svc.body.spec) ? svc.body.spec : {};
  return objs(spec.ports).map((p, index) => {
    const port = num(p.port);
    const tp = p.targetPort;
    const targetPort = typeof tp === 'number' ? tp : typeof tp === 'string' && tp !== '' ? (/^\d+$/.test(tp) ? Number(tp) : tp) : undefined;
    return {
      name: str(p.name),
      port,
      protocol: str(p.protocol) || (defaults.apiServerDefaults ? 'TCP' : ''),
      ...(typeof p.appProtocol === 'string' ? { appProtocol: p.appProtocol } : {}),
      targetPort: targetPort ?? (defaults.apiServerDefaults ? port : undefined),
      index,
    };
  });
}

/** FindPort: a numeric targetPort as is; a named one in the containers (and native sidecar init containers) with the same protocol. */
export function findPort(pod: Resource, p: RawServicePort, defaults: ApiDefaults): { port: number } | { error: string } {
  if (typeof p.targetPort === 'number') return { port: p.targetPort };
  if (typeof p.targetPort === 'string') {
    const spec = podSpecRaw(pod);
    const sidecars = objs(spec.initContainers).filter((c) => c.restartPolicy === 'Always');
    for (const c of [...objs(spec.containers), ...sidecars]) {
      for (const cp of objs(c.ports)) {
        const protocol = str(cp.protocol) || (defaults.apiServerDefaults ? 'TCP' : '');
        if (str(cp.name) === p.targetPort && protocol === p.protocol) return { port: num(cp.containerPort) };
      }
    }
    const meta = isObj(pod.body.metadata) ? pod.body.metadata : {};
    return { error: `no suitable port for manifest: ${str(meta.uid)}` };
  }
  // An absent targetPort is the zero IntOrString: an int, 0.
  return { port: 0 };
}

/** findProtocolForPort. */
export function protocolForPort(p: RawServicePort): string {
  if (p.name === '' && p.appProtocol === undefined && p.protocol !== 'UDP') return 'auto-detect';
  const proto = kubePortProtocol(p.port, p.name, p.protocol, p.appProtocol);
  if (proto === 'UnsupportedProtocol' && p.appProtocol === 'hbone') return 'HBONE';
  return proto;
}

/** printService's port lines (non-TCP ports are skipped, as istioctl skips UDP). */
export function servicePortFacts(svc: Resource, pod: Resource | undefined, defaults: ApiDefaults): ServicePortFact[] {
  return servicePorts(svc, defaults).map((p) => {
    const found = pod ? findPort(pod, p, defaults) : { error: 'no pod' };
    return {
      name: p.name,
      port: p.port,
      protocol: p.protocol,
      istioProtocol: protocolForPort(p),
      ...('port' in found ? { targetPort: found.port } : { error: found.error }),
      skipped: p.protocol !== 'TCP',
      source: refOf(svc, `spec.ports[${p.index}]`),
    };
  });
}
