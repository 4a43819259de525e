// envoyfilter.EnvoyPatchAnalyzer: checks each config patch's operation against what it
// applies to (REPLACE only on filters and virtual hosts; ADD and REMOVE ignored on route configurations and
// HTTP routes) and warns about relative operations on an EnvoyFilter without a priority.
// When an earlier patch with a proxyVersion match used the same filter name, the warning
// becomes the proxy-version one. That memory spans EnvoyFilters, in load order, as Istio's
// single pass does, so this analyzer runs over all of them at once.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer, MessageType } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { has, isObj, str } from '../../../document/read.ts';
import { envoyFilter, type EnvoyConfigObjectPatch } from '../../../config/api/networking.ts';

/** A canonical text for a protobuf Value, so that equal values compare equal. */
function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(valueText).join(',')}]`;
  if (isObj(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${valueText(v[k])}`).join(',')}}`;
  }
  if (typeof v === 'number') return `n${v}`;
  if (typeof v === 'boolean') return `b${v}`;
  return `s${JSON.stringify(str(v))}`;
}

/**
 * The name Istio files a patch under: the patch value's `name` field (compared as the whole
 * protobuf value), else the listener filter chain's filter name; '' without a value.
 */
function instanceName(cp: EnvoyConfigObjectPatch): string {
  // The value is free-form (a protobuf Struct), so it is read raw.
  const value = cp.patch?.value;
  if (!isObj(value)) return '';
  if (has(value, 'name')) return `\u0000${valueText(value.name)}`;
  return cp.match?.listener?.filterChain?.filter?.name ?? '';
}

export const envoyPatchAnalyzer: Analyzer = {
  metadata: {
    name: 'envoyfilter.EnvoyPatchAnalyzer',
    description: 'Checks EnvoyFilter patch operations against their target and priority',
    inputs: [KINDS.EnvoyFilter],
  },
  analyze(ctx: AnalysisContext) {
    // names of earlier patches that matched on a proxy version
    const proxyVersionNames = new Set<string>();
    for (const ef of ctx.list(KINDS.EnvoyFilter)) analyzeEnvoyFilter(ctx, ef, proxyVersionNames);
  },
};

function analyzeEnvoyFilter(ctx: AnalysisContext, ef: Resource, proxyVersionNames: Set<string>): void {
  const spec = envoyFilter(ef);
  const priority = spec.priority;
  for (const [i, cp] of spec.configPatches.entries()) {
    const patch = cp.patch;
    // Istio stops at the first entry without a patch.
    if (!patch) break;
    const name = instanceName(cp);
    const operation = patch.operation;
    const applyTo = cp.applyTo;
    const routeLevel = applyTo === 'ROUTE_CONFIGURATION' || applyTo === 'HTTP_ROUTE';
    // Istio maps the patch value; every message here is about the operation, where the editor points.
    const report = (type: MessageType<[]>) =>
      ctx.report(type.at(ef), { fieldPath: `spec.configPatches[${i}].patch.value`, highlightPath: `spec.configPatches[${i}].patch.operation` });
    const relative = () => {
      if (priority !== 0) return;
      report(proxyVersionNames.has(name) ? MESSAGES.EnvoyFilterUsesRelativeOperationWithProxyVersion : MESSAGES.EnvoyFilterUsesRelativeOperation);
    };
    switch (operation) {
      case 'ADD':
        if (routeLevel) report(MESSAGES.EnvoyFilterUsesAddOperationIncorrectly);
        break;
      case 'REMOVE':
        if (routeLevel) report(MESSAGES.EnvoyFilterUsesRemoveOperationIncorrectly);
        else relative();
        break;
      case 'REPLACE':
        // Istio also replaces whole virtual hosts (the message text predates that).
        if (applyTo !== 'NETWORK_FILTER' && applyTo !== 'HTTP_FILTER' && applyTo !== 'VIRTUAL_HOST')
          report(MESSAGES.EnvoyFilterUsesReplaceOperationIncorrectly);
        else relative();
        break;
      case 'INSERT_BEFORE':
      case 'INSERT_AFTER':
        relative();
        break;
    }
    if ((cp.match?.proxy?.proxyVersion ?? '') !== '') proxyVersionNames.add(name);
  }
}
