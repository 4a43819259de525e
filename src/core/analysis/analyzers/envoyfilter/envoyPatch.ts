// envoyfilter.EnvoyPatchAnalyzer: checks each config patch's operation against what it
// applies to (REPLACE only on filters and virtual hosts; ADD and REMOVE ignored on route configurations and
// HTTP routes) and warns about relative operations on an EnvoyFilter without a priority.
// When an earlier patch with a proxyVersion match used the same filter name, the warning
// becomes the proxy-version one. That memory spans EnvoyFilters, in load order, as Istio's
// single pass does, so this analyzer runs over all of them at once.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer, MessageType } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, num, specOf, str, type Obj } from '../../../model/read.ts';

const OPERATIONS = ['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE'];
const APPLY_TO = [
  'INVALID', 'LISTENER', 'FILTER_CHAIN', 'NETWORK_FILTER', 'HTTP_FILTER', 'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST', 'HTTP_ROUTE', 'CLUSTER', 'EXTENSION_CONFIG', 'BOOTSTRAP', 'LISTENER_FILTER',
];

/** An enum field as its name (numbers are accepted as protobuf JSON allows). */
function enumName(v: unknown, names: readonly string[]): string {
  if (typeof v === 'number') return names[v] ?? 'INVALID';
  const s = str(v);
  return names.includes(s) ? s : 'INVALID';
}

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
  return `s${JSON.stringify(String(v))}`;
}

/**
 * The name Istio files a patch under: the patch value's `name` field (compared as the whole
 * protobuf value), else the listener filter chain's filter name; '' without a value.
 */
function instanceName(patch: Obj, match: Obj | undefined): string {
  const value = patch.value;
  if (!isObj(value)) return '';
  if ('name' in value) return `\u0000${valueText(value.name)}`;
  const listener = isObj(match?.listener) ? match.listener : undefined;
  const chain = isObj(listener?.filterChain) ? listener.filterChain : undefined;
  const filter = isObj(chain?.filter) ? chain.filter : undefined;
  return str(filter?.name);
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
  const spec = specOf(ef);
  const priority = num(spec.priority);
  const patches = arr(spec.configPatches);
  for (let i = 0; i < patches.length; i++) {
    const cp = patches[i];
    const patch = isObj(cp) && isObj(cp.patch) ? cp.patch : undefined;
    // Istio stops at the first entry without a patch.
    if (!isObj(cp) || !patch) break;
    const match = isObj(cp.match) ? cp.match : undefined;
    const name = instanceName(patch, match);
    const operation = enumName(patch.operation, OPERATIONS);
    const applyTo = enumName(cp.applyTo, APPLY_TO);
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
        if (applyTo !== 'NETWORK_FILTER' && applyTo !== 'HTTP_FILTER' && applyTo !== 'VIRTUAL_HOST') report(MESSAGES.EnvoyFilterUsesReplaceOperationIncorrectly);
        else relative();
        break;
      case 'INSERT_BEFORE':
      case 'INSERT_AFTER':
        relative();
        break;
    }
    const proxy = isObj(match?.proxy) ? match.proxy : undefined;
    if (str(proxy?.proxyVersion) !== '') proxyVersionNames.add(name);
  }
}
