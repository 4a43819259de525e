// injection.ImageAnalyzer: pods in injected namespaces whose istio-proxy image differs from
// the one the namespace's injector ConfigMap would inject now (IST0158, one per namespace).
// The image variant (e.g. `distroless`) comes from the effective ProxyConfig, as in Istio.
import { loadYaml } from '../../../document/yamlSchema.ts';
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { has, isObj, str } from '../../../document/read.ts';
import { keySegment, selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { ProxyConfigSpec, proxyConfig } from '../../../config/api/networking.ts';
import { injectorConfigMapName, injectorProxyImage } from '../../../config/injector.ts';
import { podContainers } from '../../../config/workloads.ts';
import {
  INJECTION_ENABLED,
  INJECTION_LABEL,
  INJECTOR_CONFIGMAP,
  ISTIO_PROXY_CONTAINER,
  PROXY_CONFIG_ANNOTATION,
  PROXY_IMAGE_ANNOTATION,
  REVISION_LABEL,
} from '../../../config/wellKnown.ts';
import { listAt } from '../../../document/maps.ts';

export const injectionImageAnalyzer: Analyzer = {
  metadata: {
    name: 'injection.ImageAnalyzer',
    description: 'Checks that running istio-proxy images match the image the injector configuration would inject',
    inputs: [KINDS.Namespace, KINDS.Pod, KINDS.ConfigMap, KINDS.MeshConfig, KINDS.ProxyConfig],
  },
  analyze(ctx) {
    // Every injector ConfigMap by name (any namespace; a later one of the same name wins).
    const proxyImages = new Map<string, string>();
    for (const cm of ctx.list(KINDS.ConfigMap)) {
      if (cm.name.startsWith(INJECTOR_CONFIGMAP)) proxyImages.set(cm.name, injectorProxyImage(cm));
    }
    if (proxyImages.size === 0) return;

    const namespaces = new Map<string, Resource>();
    const injected = new Map<string, string>();
    for (const ns of ctx.list(KINDS.Namespace)) {
      namespaces.set(ns.name, ns);
      if (has(ns.labels, REVISION_LABEL)) injected.set(ns.name, ns.labels[REVISION_LABEL] as string);
      else if (ns.labels[INJECTION_LABEL] === INJECTION_ENABLED) injected.set(ns.name, 'default');
    }
    if (injected.size === 0) return;

    const resolver = new ImageTypeResolver(ctx);
    const mismatched = new Map<string, string[]>();
    for (const pod of ctx.list(KINDS.Pod)) {
      const revision = injected.get(pod.namespace);
      if (revision === undefined) continue;
      // A custom proxy image always overrides the injector.
      if ((pod.annotations[PROXY_IMAGE_ANNOTATION] ?? '') !== '') continue;
      const expected = proxyImages.get(injectorConfigMapName(revision));
      const proxies = podContainers(pod, true).filter((c) => c.name === ISTIO_PROXY_CONTAINER);
      if (proxies.length === 0 || expected === undefined) continue;
      const variant = resolver.imageType(pod);
      for (const c of proxies) {
        if (c.image !== expected && c.image !== `${expected}-${variant}`) {
          listAt(mismatched, pod.namespace).push(pod.name);
        }
      }
    }
    for (const [ns, pods] of mismatched) {
      // Istio sorts the names (byte order) so the message is stable.
      pods.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      // The namespace label that picks the injector whose image the pods do not run.
      const nsResource = namespaces.get(ns);
      const label = nsResource && has(nsResource.labels, REVISION_LABEL) ? REVISION_LABEL : INJECTION_LABEL;
      ctx.report(MESSAGES.PodsIstioProxyImageMismatchInNamespace.at(nsResource, pods), { highlightPath: `metadata.labels${keySegment(label)}` });
    }
  },
};

/**
 * The image type a pod's `proxy.istio.io/config` annotation sets: the annotation is a
 * ProxyConfig in YAML, decoded as Go does (unknown fields are allowed, a field of the wrong
 * type fails the whole decoding); '' when it sets none or does not decode.
 */
function annotationImageType(text: string): string {
  let v: unknown;
  try {
    v = loadYaml(text);
  } catch {
    return '';
  }
  if (!isObj(v)) return '';
  const image = v.image;
  if (!isObj(image)) return '';
  return typeof image.imageType === 'string' ? image.imageType : '';
}

/**
 * Istio's EffectiveProxyConfigResolver.ImageType: mesh default config, then the root
 * namespace ProxyConfig, the pod's namespace ProxyConfig, matching workload ProxyConfigs
 * and the pod's proxy.istio.io/config annotation; `default` means no variant.
 */
class ImageTypeResolver {
  private readonly base: string;
  private readonly byNamespace = new Map<string, string>();
  /** Workload ProxyConfigs (with a selector), sorted by `namespace/name`. */
  private readonly workloads: Array<{ key: string; matchLabels: LabelMap; imageType: string }> = [];
  private readonly memo = new Map<string, string>();

  constructor(ctx: AnalysisContext) {
    // Mesh config is not a resource: its fields are read as Go decodes them into a ProxyConfig.
    const rootNamespace = str(ctx.meshConfig.rootNamespace) || 'istio-system';
    let variant = ProxyConfigSpec.readOrEmpty(ctx.meshConfig.defaultConfig).image?.imageType ?? '';
    let root: Resource | undefined;
    for (const pc of ctx.list(KINDS.ProxyConfig)) {
      const spec = proxyConfig(pc);
      if (pc.namespace === rootNamespace) {
        root = pc;
        continue;
      }
      const imageType = spec.image?.imageType ?? '';
      if (spec.selector === undefined) this.byNamespace.set(pc.namespace, imageType);
      else this.workloads.push({ key: `${pc.namespace}/${pc.name}`, matchLabels: spec.selector.matchLabels, imageType });
    }
    if (root) {
      const t = proxyConfig(root).image?.imageType ?? '';
      if (t !== '') variant = t;
    }
    this.base = variant;
    this.workloads.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Workload ProxyConfigs whose `namespace/name` starts with the namespace (Istio's prefix test). */
  private workloadsWithPrefix(prefix: string): typeof this.workloads {
    let lo = 0;
    let hi = this.workloads.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.workloads[mid] as { key: string }).key < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: typeof this.workloads = [];
    for (let i = lo; i < this.workloads.length && (this.workloads[i] as { key: string }).key.startsWith(prefix); i++)
      out.push(this.workloads[i] as (typeof this.workloads)[number]);
    return out;
  }

  imageType(pod: Resource): string {
    const annotation = pod.annotations[PROXY_CONFIG_ANNOTATION];
    const labelKey = Object.keys(pod.labels)
      .sort()
      .map((k) => `${k}=${pod.labels[k]}`)
      .join('\u0000');
    const memoKey = `${pod.namespace}\u0001${labelKey}\u0001${annotation ?? ''}`;
    const hit = this.memo.get(memoKey);
    if (hit !== undefined) return hit;
    let variant = this.base;
    const nsType = this.byNamespace.get(pod.namespace);
    if (nsType) variant = nsType;
    for (const w of this.workloadsWithPrefix(pod.namespace)) {
      // Istio checks that the pod's labels hold the selector's (maps.Contains(podLabels, matchLabels)).
      if (selectorMatches(w.matchLabels, pod.labels) && w.imageType !== '') variant = w.imageType;
    }
    if (annotation !== undefined) {
      const t = annotationImageType(annotation);
      if (t !== '') variant = t;
    }
    if (variant === 'default') variant = '';
    this.memo.set(memoKey, variant);
    return variant;
  }
}
