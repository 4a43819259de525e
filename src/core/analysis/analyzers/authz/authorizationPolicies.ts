// auth.AuthorizationPoliciesAnalyzer: an AuthorizationPolicy should apply to at least one
// in-mesh (sidecar or ambient) pod — anywhere in the mesh for a root-namespace policy with a
// selector, in its namespace otherwise (IST0127) — and every namespace named in a source's
// namespaces / notNamespaces (exact, `*`, `prefix*` or `*suffix`) should match an existing
// Namespace (IST0101).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { labelPair, podInAmbientMode, podInMesh } from '../util/gatewaysPods.ts';
import { selectorMatches, selectorString, toLabelMap, type LabelMap } from '../../../config/labels.ts';
import { arr, isObj, specOf, strList } from '../../../model/read.ts';

interface MeshPods {
  /** In-mesh pods, in load order. */
  all: Resource[];
  byPair: Map<string, Resource[]>;
  /** Namespace → in-mesh pods (a namespace with only out-of-mesh pods maps to []). */
  byNamespace: Map<string, Resource[]>;
}

function meshPods(ctx: AnalysisContext): MeshPods {
  return ctx.lookups.cached('authz.meshPods', (store) => {
    const all: Resource[] = [];
    const byPair = new Map<string, Resource[]>();
    const byNamespace = new Map<string, Resource[]>();
    for (const pod of store.list(KINDS.Pod)) {
      let nsList = byNamespace.get(pod.namespace);
      if (!nsList) byNamespace.set(pod.namespace, (nsList = []));
      if (!podInMesh(ctx, pod) && !podInAmbientMode(pod)) continue;
      nsList.push(pod);
      all.push(pod);
      for (const [k, v] of Object.entries(pod.labels)) {
        const key = labelPair(k, String(v));
        let l = byPair.get(key);
        if (!l) byPair.set(key, (l = []));
        l.push(pod);
      }
    }
    return { all, byPair, byNamespace };
  }, [KINDS.Namespace]);
}

function anyPodMatches(index: MeshPods, selector: LabelMap, namespace?: string): boolean {
  let candidates: readonly Resource[] = namespace === undefined ? index.all : (index.byNamespace.get(namespace) ?? []);
  for (const [k, v] of Object.entries(selector)) {
    const l = index.byPair.get(labelPair(k, v)) ?? [];
    if (l.length < candidates.length) candidates = l;
  }
  return candidates.some((p) => (namespace === undefined || p.namespace === namespace) && selectorMatches(selector, p.labels));
}

interface NamespaceIndex {
  names: string[];
  lowerNames: Set<string>;
  /** Expression → whether some Namespace matches it (memo). */
  memo: Map<string, boolean>;
}

function namespaceIndex(ctx: AnalysisContext): NamespaceIndex {
  return ctx.lookups.cached('authz.namespaces', (store) => {
    const names = store.list(KINDS.Namespace).map((n) => n.name);
    return { names, lowerNames: new Set(names.map((n) => n.toLowerCase())), memo: new Map() };
  });
}

/** Istio's namespaceMatch, applied to every Namespace (no Namespaces: nothing matches). */
function namespaceExists(index: NamespaceIndex, exp: string): boolean {
  const hit = index.memo.get(exp);
  if (hit !== undefined) return hit;
  let found: boolean;
  if (index.names.length === 0) found = false;
  else if (exp === '*') found = true;
  else if (exp.startsWith('*')) {
    const suffix = exp.slice(1);
    found = index.names.some((n) => n.endsWith(suffix));
  } else if (exp.endsWith('*')) {
    const prefix = exp.slice(0, -1);
    found = index.names.some((n) => n.startsWith(prefix));
  } else found = index.lowerNames.has(exp.toLowerCase()) || index.names.some((n) => equalFold(n, exp));
  index.memo.set(exp, found);
  return found;
}

/** Go's strings.EqualFold for the common case; lowerCase covers ASCII and most Unicode. */
function equalFold(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}

function selectorHighlight(spec: Record<string, unknown>): string {
  return isObj(spec.selector) && isObj(spec.selector.matchLabels) ? 'spec.selector.matchLabels' : 'spec.selector';
}

function checkWorkloads(ctx: AnalysisContext, ap: Resource): void {
  const spec = specOf(ap);
  const hasSelector = isObj(spec.selector);
  const selector = hasSelector ? toLabelMap((spec.selector as Record<string, unknown>).matchLabels) : {};
  const pods = meshPods(ctx);
  if (ap.namespace === ctx.meshConfig.rootNamespace) {
    if (hasSelector && !anyPodMatches(pods, selector)) {
      ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, selectorString(selector)), { highlightPath: selectorHighlight(spec) });
    }
    return;
  }
  if (!hasSelector) {
    if ((pods.byNamespace.get(ap.namespace) ?? []).length === 0) {
      // Namespace-wide policy in a namespace without in-mesh workloads.
      ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, ''), { highlightPath: 'metadata.namespace' });
    }
    return;
  }
  if (!anyPodMatches(pods, selector, ap.namespace)) {
    ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, selectorString(selector)), { highlightPath: selectorHighlight(spec) });
  }
}

function checkNamespaces(ctx: AnalysisContext, ap: Resource): void {
  const index = namespaceIndex(ctx);
  arr(specOf(ap).rules).forEach((rule, i) => {
    if (!isObj(rule)) return;
    arr(rule.from).forEach((from, j) => {
      const source = isObj(from) && isObj(from.source) ? from.source : {};
      const namespaces = strList(source.namespaces);
      const notNamespaces = strList(source.notNamespaces);
      [...namespaces, ...notNamespaces].forEach((ns, k) => {
        if (namespaceExists(index, ns)) return;
        // Istio points both lists at the `namespaces` path, with the index inside its own list;
        // the squiggle goes to the entry in the list it really came from.
        const negated = k >= namespaces.length;
        const nsIndex = negated ? k - namespaces.length : k;
        const source = `spec.rules[${i}].from[${j}].source`;
        ctx.report(MESSAGES.ReferencedResourceNotFound.at(ap, 'namespace', ns), {
          fieldPath: `${source}.namespaces[${nsIndex}]`,
          ...(negated ? { highlightPath: `${source}.notNamespaces[${nsIndex}]` } : {}),
        });
      });
    });
  });
}

export const authorizationPoliciesAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'auth.AuthorizationPoliciesAnalyzer',
    description: 'Checks that AuthorizationPolicies select in-mesh workloads and name existing namespaces',
    inputs: [KINDS.MeshConfig, KINDS.AuthorizationPolicy, KINDS.Namespace, KINDS.Pod],
  },
  {
    kind: KINDS.AuthorizationPolicy,
    check(ctx, ap) {
      checkWorkloads(ctx, ap);
      checkNamespaces(ctx, ap);
    },
  },
);
