// injection.ImageAnalyzer: pods in injected namespaces whose istio-proxy image differs from
// the one the namespace's injector ConfigMap would inject now (IST0158, one per namespace).
// The image variant (e.g. `distroless`) comes from the effective ProxyConfig, as in Istio.
import jsyaml from 'js-yaml';
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { isObj, str, type Obj } from '../../../model/read.ts';
import { keySegment } from '../../../config/labels.ts';
import { injectorConfigMapName, injectorProxyImage, podContainers } from '../../../config/injector.ts';
import { INJECTION_ENABLED, INJECTION_LABEL, INJECTOR_CONFIGMAP, ISTIO_PROXY_CONTAINER, REVISION_LABEL } from '../../../config/wellKnown.ts';

const PROXY_IMAGE_ANNOTATION = 'sidecar.istio.io/proxyImage';
const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';

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
      const hasRevision = Object.prototype.hasOwnProperty.call(ns.labels, REVISION_LABEL);
      if (hasRevision) injected.set(ns.name, ns.labels[REVISION_LABEL] as string);
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
      const spec = isObj(pod.body.spec) ? pod.body.spec : {};
      const proxies = podContainers(spec, true).filter((c) => str(c.name) === ISTIO_PROXY_CONTAINER);
      if (proxies.length === 0 || expected === undefined) continue;
      const variant = resolver.imageType(pod);
      for (const c of proxies) {
        const image = str(c.image);
        if (image !== expected && image !== `${expected}-${variant}`) {
          let l = mismatched.get(pod.namespace);
          if (!l) mismatched.set(pod.namespace, (l = []));
          l.push(pod.name);
        }
      }
    }
    for (const [ns, pods] of mismatched) {
      // The namespace label that picks the injector whose image the pods do not run.
      const nsResource = namespaces.get(ns);
      const label = nsResource && Object.prototype.hasOwnProperty.call(nsResource.labels, REVISION_LABEL) ? REVISION_LABEL : INJECTION_LABEL;
      ctx.report(MESSAGES.PodsIstioProxyImageMismatchInNamespace.at(nsResource, pods), { highlightPath: `metadata.labels${keySegment(label)}` });
    }
  },
};

function imageTypeOf(config: unknown): string {
  if (!isObj(config)) return '';
  const image = config.image;
  return isObj(image) ? str(image.imageType) : '';
}

/** `proxy.istio.io/config` of a pod parsed as ProxyConfig YAML (unknown fields allowed); undefined when it does not decode. */
function annotationProxyConfig(text: string): Obj | undefined {
  let v: unknown;
  try {
    v = jsyaml.load(text);
  } catch {
    return undefined;
  }
  if (v === null || v === undefined) return {};
  if (!isObj(v)) return undefined;
  const image = v.image;
  if (image !== undefined && image !== null && !isObj(image)) return undefined;
  if (isObj(image) && image.imageType !== undefined && image.imageType !== null && typeof image.imageType !== 'string') return undefined;
  return v;
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
  private readonly workloads: Array<{ key: string; matchLabels: Record<string, string>; imageType: string }> = [];
  private readonly memo = new Map<string, string>();

  constructor(ctx: AnalysisContext) {
    const rootNamespace = str(ctx.meshConfig.rootNamespace) || 'istio-system';
    let variant = imageTypeOf(ctx.meshConfig.defaultConfig);
    let root: Resource | undefined;
    for (const pc of ctx.list(KINDS.ProxyConfig)) {
      const spec = isObj(pc.body.spec) ? pc.body.spec : {};
      if (pc.namespace === rootNamespace) {
        root = pc;
        continue;
      }
      if (spec.selector === undefined || spec.selector === null) {
        this.byNamespace.set(pc.namespace, imageTypeOf(spec));
      } else {
        const sel = isObj(spec.selector) && isObj(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
        const matchLabels: Record<string, string> = {};
        for (const [k, v] of Object.entries(sel)) matchLabels[k] = str(v);
        this.workloads.push({ key: `${pc.namespace}/${pc.name}`, matchLabels, imageType: imageTypeOf(spec) });
      }
    }
    if (root) {
      const t = imageTypeOf(isObj(root.body.spec) ? root.body.spec : {});
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
    for (let i = lo; i < this.workloads.length && (this.workloads[i] as { key: string }).key.startsWith(prefix); i++) out.push(this.workloads[i] as (typeof this.workloads)[number]);
    return out;
  }

  imageType(pod: Resource): string {
    const annotation = pod.annotations[PROXY_CONFIG_ANNOTATION];
    const labelKey = Object.keys(pod.labels).sort().map((k) => `${k}=${pod.labels[k]}`).join('\u0000');
    const memoKey = `${pod.namespace}\u0001${labelKey}\u0001${annotation ?? ''}`;
    const hit = this.memo.get(memoKey);
    if (hit !== undefined) return hit;
    let variant = this.base;
    const nsType = this.byNamespace.get(pod.namespace);
    if (nsType) variant = nsType;
    for (const w of this.workloadsWithPrefix(pod.namespace)) {
      // Istio checks that every pod label is in the selector (maps.Contains(selector, podLabels)).
      const contained = Object.entries(pod.labels).every(([k, v]) => Object.prototype.hasOwnProperty.call(w.matchLabels, k) && w.matchLabels[k] === v);
      if (contained && w.imageType !== '') variant = w.imageType;
    }
    if (annotation !== undefined) {
      const pc = annotationProxyConfig(annotation);
      const t = pc ? imageTypeOf(pc) : '';
      if (t !== '') variant = t;
    }
    if (variant === 'default') variant = '';
    this.memo.set(memoKey, variant);
    return variant;
  }
}
