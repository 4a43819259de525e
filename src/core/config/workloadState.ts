// Whether a workload is part of the mesh, and how: one predicate each for sidecar injection,
// Istio's analyzers' "in mesh" test, and ambient enrollment. Everything that asks these
// questions (analyzers, derived workloads, xDS, the ambient view) asks here.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { EMPTY_STRING_MAP, has, type StringMap } from '../document/read.ts';
import type { ResourceReader } from './resourceReader.ts';
import type { Container } from './api/kube.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  DATAPLANE_MODE_NONE,
  INJECTION_ENABLED,
  INJECTION_IGNORED_NAMESPACES,
  INJECTION_LABEL,
  ISTIO_PROXY_CONTAINER,
  ISTIO_SYSTEM_NAMESPACE,
  REVISION_LABEL,
  SIDECAR_INJECT,
  SIDECAR_STATUS_ANNOTATION,
} from './wellKnown.ts';

/** What the predicates read of a pod or a pod template. */
export interface WorkloadShape {
  namespace: string;
  labels: StringMap;
  annotations: StringMap;
  containers: readonly Container[];
  initContainers: readonly Container[];
  hostNetwork: boolean;
  /** The pod's name, when known (istio-cni recognises its own agent by name). */
  name?: string;
}

/** The namespace's labels (an empty map when the Namespace is not in the workspace). */
function namespaceLabels(view: Pick<ResourceReader, 'find'>, namespace: string): StringMap | undefined {
  return view.find(KINDS.Namespace, '', namespace)?.labels;
}

/**
 * Istio's analyzers' PodInMesh and DeploymentInMesh (analyzers/util/in_mesh.go): the first
 * `istio-proxy` container has an image (pods also look at init containers, Deployments do
 * not); else the inject label, then the inject annotation; else the namespace's
 * `istio-injection=enabled`, when the Namespace is known.
 */
export function inMeshForAnalysis(view: Pick<ResourceReader, 'find'>, w: WorkloadShape, includeInitContainers = true): boolean {
  const proxy =
    w.containers.find((c) => c.name === ISTIO_PROXY_CONTAINER) ??
    (includeInitContainers ? w.initContainers.find((c) => c.name === ISTIO_PROXY_CONTAINER) : undefined);
  if (proxy && proxy.image !== '') return true;
  if (has(w.labels, SIDECAR_INJECT)) return w.labels[SIDECAR_INJECT] === 'true';
  if (has(w.annotations, SIDECAR_INJECT)) return w.annotations[SIDECAR_INJECT] === 'true';
  return namespaceLabels(view, w.namespace)?.[INJECTION_LABEL] === INJECTION_ENABLED;
}

/** Which of the injector's checks decided (see `sidecarInjected`). */
export type InjectionCode = 'AlreadyInjected' | 'HostNetwork' | 'IgnoredNamespace' | 'NoWebhook' | 'PodOptOut' | 'Injected';

export interface InjectionDecision {
  inject: boolean;
  code: InjectionCode;
  /** The webhook that received the pod (`namespace.sidecar-injector.istio.io`, …), when one did. */
  webhook?: string;
  /** One sentence saying why, naming the labels that decided. */
  reason: string;
}

/** What the injector's installation looks like (istioctl's defaults when absent). */
export interface InjectorSettings {
  /** Revisions with an installed injector; `default` is the revision without a name. Default: `['default']`. */
  installedRevisions?: readonly string[];
  /** `sidecarInjectorWebhook.enableNamespacesByDefault` (default false). */
  enableNamespacesByDefault?: boolean;
}

const WEBHOOK_SUFFIX = 'sidecar-injector.istio.io';

/**
 * Whether Istio's injection webhooks would add a sidecar to a new pod of this shape, and why.
 * A pod that already carries the injector's status annotation was injected. Otherwise the
 * checks run in the order Istio's do (pkg/kube/inject/inject.go `injectRequired`, after the
 * webhook selectors of the istio-discovery chart's mutatingwebhook.yaml):
 * 1. host network → no sidecar;
 * 2. Kubernetes' own namespaces → no sidecar;
 * 3. which webhook receives the pod: namespace `istio-injection=enabled`
 *    (`namespace.`), else an installed namespace revision (`rev.namespace.`), else an
 *    installed pod revision (`rev.object.`), else the pod label
 *    `sidecar.istio.io/inject=true` (`object.`); a pod label `sidecar.istio.io/inject=false`
 *    keeps it from every webhook, and any other `istio-injection` value or a revision that is
 *    not installed sends it to none;
 * 4. inside the webhook the pod's `sidecar.istio.io/inject` label (else the legacy
 *    annotation) decides: `false` vetoes, anything else injects (policy enabled).
 */
export function sidecarInjected(view: Pick<ResourceReader, 'find'>, w: WorkloadShape, settings: InjectorSettings = {}): InjectionDecision {
  if (has(w.annotations, SIDECAR_STATUS_ANNOTATION)) {
    return { inject: true, code: 'AlreadyInjected', reason: `The pod carries ${SIDECAR_STATUS_ANNOTATION}: the injector has already added its sidecar.` };
  }
  if (w.hostNetwork) return { inject: false, code: 'HostNetwork', reason: 'The injector never injects host-network pods (spec.hostNetwork: true).' };
  if (INJECTION_IGNORED_NAMESPACES.has(w.namespace)) {
    return { inject: false, code: 'IgnoredNamespace', reason: `The injector never injects pods in ${w.namespace} (one of Kubernetes' own namespaces).` };
  }
  const installed = settings.installedRevisions ?? ['default'];
  const ns = namespaceLabels(view, w.namespace) ?? EMPTY_STRING_MAP;
  const nsInj = has(ns, INJECTION_LABEL) ? ns[INJECTION_LABEL] : undefined;
  const nsRev = has(ns, REVISION_LABEL) ? ns[REVISION_LABEL] : undefined;
  const podInjLabel = has(w.labels, SIDECAR_INJECT) ? w.labels[SIDECAR_INJECT] : undefined;
  const podRev = has(w.labels, REVISION_LABEL) ? w.labels[REVISION_LABEL] : undefined;
  let webhook: string | undefined;
  let why = '';
  if (podInjLabel === 'false') {
    return { inject: false, code: 'PodOptOut', reason: `The pod label ${SIDECAR_INJECT}=false keeps the pod out of every injection webhook's objectSelector.` };
  }
  if (nsInj === INJECTION_ENABLED) {
    webhook = `namespace.${WEBHOOK_SUFFIX}`;
    why = `namespace ${w.namespace} has ${INJECTION_LABEL}=enabled`;
  } else if (nsInj === undefined && nsRev !== undefined && installed.includes(nsRev)) {
    webhook = `rev.namespace.${WEBHOOK_SUFFIX}`;
    why = `namespace ${w.namespace} has ${REVISION_LABEL}=${nsRev}, an installed revision`;
  } else if (nsInj === undefined && nsRev === undefined && podRev !== undefined && installed.includes(podRev)) {
    webhook = `rev.object.${WEBHOOK_SUFFIX}`;
    why = `the pod has ${REVISION_LABEL}=${podRev}, an installed revision`;
  } else if (nsInj === undefined && nsRev === undefined && podRev === undefined && podInjLabel === 'true') {
    webhook = `object.${WEBHOOK_SUFFIX}`;
    why = `the pod has ${SIDECAR_INJECT}=true`;
  } else if (settings.enableNamespacesByDefault && nsInj === undefined && nsRev === undefined && podRev === undefined && podInjLabel === undefined) {
    webhook = `auto.${WEBHOOK_SUFFIX}`;
    why = 'the injector enables namespaces by default (enableNamespacesByDefault)';
  } else {
    let detail: string;
    if (nsInj !== undefined)
      detail = `namespace ${w.namespace} has ${INJECTION_LABEL}=${nsInj}, which only the value "enabled" turns on (any other value turns injection off)`;
    else if (nsRev !== undefined)
      detail = `namespace ${w.namespace} has ${REVISION_LABEL}=${nsRev}, which is not an installed revision (installed: ${installed.join(', ')})`;
    else if (podRev !== undefined) detail = `the pod's ${REVISION_LABEL}=${podRev} is not an installed revision (installed: ${installed.join(', ')})`;
    else detail = `neither namespace ${w.namespace} nor the pod asks for injection (no ${INJECTION_LABEL}, ${REVISION_LABEL} or ${SIDECAR_INJECT}=true label)`;
    return { inject: false, code: 'NoWebhook', reason: `No injection webhook receives the pod: ${detail}.` };
  }
  // Inside the webhook: the label (else the legacy annotation) can still veto.
  const objectSelector = podInjLabel ?? (has(w.annotations, SIDECAR_INJECT) ? w.annotations[SIDECAR_INJECT] : '');
  if (objectSelector === 'false') {
    return {
      inject: false,
      code: 'PodOptOut',
      webhook,
      reason: `The ${webhook} webhook receives the pod (${why}), but its ${SIDECAR_INJECT}=false annotation vetoes injection.`,
    };
  }
  return { inject: true, code: 'Injected', webhook, reason: `The ${webhook} webhook injects the pod: ${why}.` };
}
/**
 * Istio's analyzers' PodInAmbientMode: istio-cni has marked the pod as redirected. Pods we
 * derive from controllers carry the mark when `ambientEnrolled` holds for them.
 */
export function inAmbientForAnalysis(pod: Pick<Resource, 'annotations'> | undefined): boolean {
  return pod !== undefined && pod.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED;
}

/**
 * Istio's NamespaceInAmbientMode: labelled for ambient, and not for sidecar injection (an
 * `istio-injection=enabled` or non-empty revision label wins).
 */
export function namespaceInAmbientMode(ns: Pick<Resource, 'labels'> | undefined): boolean {
  if (!ns) return false;
  if (ns.labels[INJECTION_LABEL] === INJECTION_ENABLED) return false;
  if ((ns.labels[REVISION_LABEL] ?? '') !== '') return false;
  return ns.labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT;
}

/** The istio-cni settings enrollment depends on (Istio's chart defaults when absent). */
export interface CniSettings {
  /** `cni.excludeNamespaces` (default `[kube-system]`). */
  excludeNamespaces?: readonly string[];
  /** `cni.ambient.enabled` (default true: the ambient profile). */
  ambientEnabled?: boolean;
  /** istio-cni's and ztunnel's namespace (default `istio-system`). */
  systemNamespace?: string;
}

export const DEFAULT_CNI_EXCLUDED_NAMESPACES: readonly string[] = ['kube-system'];

/** Which rule of istio-cni's ordered decision classified the pod (the spec's reason codes). */
export type EnrollmentCode =
  | 'ExcludedNamespace'
  | 'CniAgent'
  | 'Ztunnel'
  | 'HostNetwork'
  | 'SidecarPresent'
  | 'PodLabelAmbient'
  | 'NamespaceLabelAmbient'
  | 'PodOptOut'
  | 'NotSelected'
  | 'AmbientDisabled';

export interface EnrollmentDecision {
  /** How the pod joins the mesh: captured by ztunnel, with its own sidecar, or not at all. */
  mode: 'ambient' | 'sidecar' | 'none';
  code: EnrollmentCode;
  /** Why, in one or two sentences naming the labels and settings that decided. */
  reason: string;
  /** The injector's decision, which runs first (a sidecar wins over ambient). */
  injection: InjectionDecision;
}

/**
 * How istio-cni classifies a new pod of this shape, after the injector has had its say
 * (istio-cni's default enablement selectors, cni/pkg/util/enablement_selector.go, and the
 * plugin's and node agent's checks). The first rule that matches decides:
 * 1. namespace in `excludeNamespaces` → none; 2. the CNI agent or a ztunnel pod → none;
 * 3. host network → none; 4. a sidecar (the injector's status annotation, or the injector
 * would add one) → sidecar; 5. pod label `istio.io/dataplane-mode=ambient` → ambient;
 * 6. namespace label `ambient` and the pod label is not `none` → ambient; 7. pod label
 * `none` in an ambient namespace → none (opt-out); 8. otherwise → none.
 */
export function ambientEnrolled(
  view: Pick<ResourceReader, 'find'>,
  w: WorkloadShape,
  cni: CniSettings = {},
  injector: InjectorSettings = {},
): EnrollmentDecision {
  const injection = sidecarInjected(view, w, injector);
  const excluded = cni.excludeNamespaces ?? DEFAULT_CNI_EXCLUDED_NAMESPACES;
  const systemNs = cni.systemNamespace ?? ISTIO_SYSTEM_NAMESPACE;
  const ns = namespaceLabels(view, w.namespace) ?? EMPTY_STRING_MAP;
  const nsMode = has(ns, DATAPLANE_MODE_LABEL) ? ns[DATAPLANE_MODE_LABEL] : undefined;
  const podMode = has(w.labels, DATAPLANE_MODE_LABEL) ? w.labels[DATAPLANE_MODE_LABEL] : undefined;
  const none = (code: EnrollmentCode, reason: string): EnrollmentDecision => ({ mode: 'none', code, reason, injection });
  if (excluded.includes(w.namespace)) {
    const labelled =
      nsMode === DATAPLANE_MODE_AMBIENT || podMode === DATAPLANE_MODE_AMBIENT ? ' The ambient label is ignored there (istio-cni logs a warning).' : '';
    return none(
      'ExcludedNamespace',
      `Namespace ${w.namespace} is in istio-cni's excludeNamespaces (${excluded.join(', ')}): the CNI plugin returns before any ambient check and the node agent never enables it.${labelled}`,
    );
  }
  if (w.namespace === systemNs && (w.name ?? '').startsWith('istio-cni-node-'))
    return none('CniAgent', 'This is the istio-cni node agent itself, which never redirects its own pod.');
  if (w.namespace === systemNs && w.labels.app === 'ztunnel')
    return none('Ztunnel', 'ztunnel pods are never handed to ztunnel (istio-cni skips app=ztunnel in the system namespace).');
  if (w.hostNetwork)
    return none(
      'HostNetwork',
      'Host-network pods are never enrolled: there is no pod network namespace to redirect. istiod still publishes a Workload for it (network mode HOST_NETWORK, protocol TCP).',
    );
  if (cni.ambientEnabled === false)
    return injection.inject
      ? { mode: 'sidecar', code: 'SidecarPresent', reason: injection.reason, injection }
      : none('AmbientDisabled', 'Ambient is not enabled in istio-cni (cni.ambient.enabled=false).');
  if (injection.inject) {
    const how =
      injection.code === 'AlreadyInjected'
        ? `The pod carries ${SIDECAR_STATUS_ANNOTATION}`
        : `${injection.reason.replace(/\.$/, '')}, so the pod gets ${SIDECAR_STATUS_ANNOTATION}`;
    return {
      mode: 'sidecar',
      code: 'SidecarPresent',
      reason: `${how}; istio-cni never enrolls a pod with that annotation in ambient (the sidecar takes precedence).`,
      injection,
    };
  }
  if (podMode === DATAPLANE_MODE_AMBIENT) {
    const nsNote = nsMode === undefined ? '' : ` (the namespace's ${DATAPLANE_MODE_LABEL}=${nsMode} is not consulted by that selector)`;
    return {
      mode: 'ambient',
      code: 'PodLabelAmbient',
      reason: `The pod label ${DATAPLANE_MODE_LABEL}=ambient matches istio-cni's first default selector, whose namespace selector is empty (every namespace)${nsNote}.`,
      injection,
    };
  }
  if (nsMode === DATAPLANE_MODE_AMBIENT && podMode !== DATAPLANE_MODE_NONE) {
    const podNote = podMode === undefined ? 'has no' : `has ${DATAPLANE_MODE_LABEL}=${podMode}, which is not 'none', so it passes the`;
    return {
      mode: 'ambient',
      code: 'NamespaceLabelAmbient',
      reason: `Namespace ${w.namespace} has ${DATAPLANE_MODE_LABEL}=ambient and the pod ${podNote}${podMode === undefined ? ` ${DATAPLANE_MODE_LABEL} label` : ' NotIn[none] pod selector'} (istio-cni's second default selector).`,
      injection,
    };
  }
  if (podMode === DATAPLANE_MODE_NONE && nsMode === DATAPLANE_MODE_AMBIENT) {
    return none(
      'PodOptOut',
      `The pod label ${DATAPLANE_MODE_LABEL}=none fails the NotIn[none] pod selector of the namespace selector entry, and the pod-only selector needs the value 'ambient': the pod opts out of its ambient namespace.`,
    );
  }
  let detail: string;
  if (nsMode !== undefined && nsMode !== DATAPLANE_MODE_AMBIENT && nsMode.toLowerCase() === DATAPLANE_MODE_AMBIENT)
    detail = `namespace ${w.namespace} has ${DATAPLANE_MODE_LABEL}=${nsMode}, but selectors compare exactly: only 'ambient' enrolls`;
  else if (nsMode !== undefined) detail = `namespace ${w.namespace} has ${DATAPLANE_MODE_LABEL}=${nsMode}, not 'ambient'`;
  else detail = `neither namespace ${w.namespace} nor the pod has ${DATAPLANE_MODE_LABEL}=ambient`;
  return none('NotSelected', `No istio-cni enablement selector matches: ${detail}.`);
}
/**
 * Istio's IsIstioControlPlane (analyzers/util/config.go): an object labelled `istio` (any
 * value) or `release: istio` belongs to Istio's own installation, which several checks skip.
 */
export function isIstioControlPlane(r: Pick<Resource, 'labels'>): boolean {
  return has(r.labels, 'istio') || r.labels.release === 'istio';
}
