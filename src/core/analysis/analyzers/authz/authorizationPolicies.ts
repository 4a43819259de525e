// auth.AuthorizationPoliciesAnalyzer: an AuthorizationPolicy should apply to at least one
// in-mesh (sidecar or ambient) pod — anywhere in the mesh for a root-namespace policy with a
// selector, in its namespace otherwise (IST0127) — and every namespace named in a source's
// namespaces / notNamespaces (exact, `*`, `prefix*` or `*suffix`) should match an existing
// Namespace (IST0101).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { selectorString, type LabelMap } from '../../../config/labels.ts';
import { authorizationPolicy } from '../../../config/api/security.ts';
import { podShape, podsInNamespace, podsSelectedBy } from '../../../config/workloads.ts';
import { inAmbientForAnalysis, inMeshForAnalysis } from '../../../config/workloadState.ts';
import { writtenAt } from '../../../config/views.ts';

/** Istio's initPodLabelsMap keeps the pods in the mesh (PodInMesh) or in ambient mode; memoized per pod. */
function podCounts(ctx: AnalysisContext, pod: Resource): boolean {
  const memo = ctx.lookups.cached('authz.podInMesh', () => new Map<Resource, boolean>(), [KINDS.Pod, KINDS.Namespace]);
  let v = memo.get(pod);
  if (v === undefined) {
    v = inMeshForAnalysis(ctx, podShape(pod)) || inAmbientForAnalysis(pod);
    memo.set(pod, v);
  }
  return v;
}

/** Whether an in-mesh pod matches the selector: anywhere, or in `namespace` when it is given. */
function anyPodMatches(ctx: AnalysisContext, selector: LabelMap, namespace?: string): boolean {
  return podsSelectedBy(ctx, selector, namespace).some((p) => podCounts(ctx, p));
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

function selectorHighlight(ap: Resource): string {
  return writtenAt(ap, ['spec', 'selector', 'matchLabels']) === 'map' ? 'spec.selector.matchLabels' : 'spec.selector';
}

function checkWorkloads(ctx: AnalysisContext, ap: Resource): void {
  const { selector } = authorizationPolicy(ap);
  if (ap.namespace === ctx.meshConfig.rootNamespace) {
    if (selector && !anyPodMatches(ctx, selector.matchLabels)) {
      ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, selectorString(selector.matchLabels)), { highlightPath: selectorHighlight(ap) });
    }
    return;
  }
  if (!selector) {
    if (!podsInNamespace(ctx, ap.namespace).some((p) => podCounts(ctx, p))) {
      // Namespace-wide policy in a namespace without in-mesh workloads.
      ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, ''), { highlightPath: 'metadata.namespace' });
    }
    return;
  }
  if (!anyPodMatches(ctx, selector.matchLabels, ap.namespace)) {
    ctx.report(MESSAGES.NoMatchingWorkloadsFound.at(ap, selectorString(selector.matchLabels)), { highlightPath: selectorHighlight(ap) });
  }
}

function checkNamespaces(ctx: AnalysisContext, ap: Resource): void {
  const index = namespaceIndex(ctx);
  authorizationPolicy(ap).rules.forEach((rule, i) => {
    rule.from.forEach((from, j) => {
      const namespaces = from.source?.namespaces ?? [];
      const notNamespaces = from.source?.notNamespaces ?? [];
      [...namespaces, ...notNamespaces].forEach((ns, k) => {
        if (namespaceExists(index, ns)) return;
        // Istio points both lists at the `namespaces` path, with the index inside its own list;
        // the squiggle goes to the entry in the list it really came from.
        const negated = k >= namespaces.length;
        const nsIndex = negated ? k - namespaces.length : k;
        const sourcePath = `spec.rules[${i}].from[${j}].source`;
        ctx.report(MESSAGES.ReferencedResourceNotFound.at(ap, 'namespace', ns), {
          fieldPath: `${sourcePath}.namespaces[${nsIndex}]`,
          ...(negated ? { highlightPath: `${sourcePath}.notNamespaces[${nsIndex}]` } : {}),
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
