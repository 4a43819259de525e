// injection.Analyzer: namespaces without an injection label (IST0102, or IST0148 when the
// injector enables namespaces by default), namespaces with conflicting injection labels
// (IST0123), and pods in injected namespaces that run without the proxy (IST0103).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { has } from '../../../document/read.ts';
import { keySegment } from '../../../config/labels.ts';
import { podSpec, type Container, type PodSpec } from '../../../config/api/kube.ts';
import { isWritten } from '../../../config/views.ts';
import { enableNamespacesByDefault, injectorConfigMapName } from '../../../config/injector.ts';
import {
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  INJECTION_ENABLED,
  INJECTION_LABEL,
  ISTIO_PROXY_CONTAINER,
  REVISION_LABEL,
  SIDECAR_INJECT,
} from '../../../config/wellKnown.ts';

export const injectionAnalyzer: Analyzer = {
  metadata: {
    name: 'injection.Analyzer',
    description: 'Checks namespace injection labels and that pods in injected namespaces carry the Istio proxy',
    inputs: [KINDS.Namespace, KINDS.Pod, KINDS.ConfigMap],
    optionalInputs: [KINDS.Pod],
  },
  analyze(ctx) {
    // Istio scans the ConfigMaps (any namespace) for the first one with the injector's name.
    const firstConfigMap = new Map<string, Resource>();
    for (const cm of ctx.list(KINDS.ConfigMap)) if (!firstConfigMap.has(cm.name)) firstConfigMap.set(cm.name, cm);

    // Like Istio, the flag carries over from one namespace to the next when no ConfigMap matches.
    let enabledByDefault = false;
    const injected = new Set<string>();
    for (const ns of ctx.list(KINDS.Namespace)) {
      if (ns.name === 'istio-system') continue;
      const labels = ns.labels;
      const hasInjection = has(labels, INJECTION_LABEL);
      const injection = labels[INJECTION_LABEL] ?? '';
      const hasRevision = has(labels, REVISION_LABEL);
      const revision = labels[REVISION_LABEL] ?? '';

      const istioLabels: string[] = [];
      // The first of the conflicting labels (the one the editor points at).
      let firstLabel = INJECTION_LABEL;
      if (hasInjection) istioLabels.push(`${INJECTION_LABEL}=${injection}`);
      for (const l of [REVISION_LABEL, DATAPLANE_MODE_LABEL]) {
        if (has(labels, l) && (!hasInjection || injection === INJECTION_ENABLED)) {
          if (istioLabels.length === 0) firstLabel = l;
          istioLabels.push(`${l}=${labels[l]}`);
        }
      }
      if (istioLabels.length > 1) {
        ctx.report(MESSAGES.NamespaceMultipleInjectionLabels.at(ns, istioLabels), { highlightPath: `metadata.labels${keySegment(firstLabel)}` });
      }

      if (labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT) continue;

      const cm = firstConfigMap.get(injectorConfigMapName(revision));
      if (cm) enabledByDefault = enableNamespacesByDefault(cm);

      if (injection === '' && !hasRevision) {
        if (enabledByDefault) {
          ctx.report(MESSAGES.NamespaceInjectionEnabledByDefault.at(ns), { highlightPath: 'metadata.name' });
        } else {
          ctx.report(MESSAGES.NamespaceNotInjected.at(ns, ns.name, ns.name), { fieldPath: 'metadata.name' });
        }
        continue;
      }
      // Any other value of the legacy label deliberately opts out (and a revision label alone is not checked).
      if (injection !== INJECTION_ENABLED) continue;
      injected.add(ns.name);
    }

    if (injected.size === 0) return;
    for (const pod of ctx.list(KINDS.Pod)) {
      if (!injected.has(pod.namespace)) continue;
      let inject = pod.annotations[SIDECAR_INJECT] ?? '';
      if (has(pod.labels, SIDECAR_INJECT)) inject = pod.labels[SIDECAR_INJECT] as string;
      if (inject.toLowerCase() === 'false') continue;
      const spec = podSpec(pod);
      if (spec.hostNetwork) continue;
      const proxy = proxyContainer(spec);
      if (proxy && proxy.container.image !== '') continue;
      const fullName = pod.namespace ? `${pod.namespace}/${pod.name}` : pod.name;
      // The container list the proxy is missing from, or the proxy container's empty image
      // (its name when it has no image at all).
      const highlightPath = !proxy ? 'spec.containers' : isWritten(pod, [...proxy.path, 'image']) ? `${proxy.at}.image` : `${proxy.at}.name`;
      ctx.report(MESSAGES.PodMissingProxy.at(pod, fullName), { highlightPath });
    }
  },
};

/** The first istio-proxy container among the containers, then the init containers, and where it is. */
function proxyContainer(spec: PodSpec): { container: Container; path: [string, string, number]; at: string } | undefined {
  for (const list of ['containers', 'initContainers'] as const) {
    const i = spec[list].findIndex((c) => c.name === ISTIO_PROXY_CONTAINER);
    if (i >= 0) return { container: spec[list][i] as Container, path: ['spec', list, i], at: `spec.${list}[${i}]` };
  }
  return undefined;
}
