// envoyfilter.PatchReachAnalyzer, the workbench's own (istioctl has no such check): an
// EnvoyFilter config patch that changes the config of no proxy. istiod skips a patch whose
// match finds nothing, without a word; this generates the config of the proxies each filter
// selects, with its patches (xds/envoyFilterReach.ts), and reports a patch that took effect on
// none, at its `match`; and a BOOTSTRAP patch, which istiod no longer applies at all. A patch
// it could not decide (more proxies than it generates) is not reported: a false alarm costs
// more than a miss. It lives with the xDS generator it runs (analysis sits below xds); the
// analyzer sets (core/analyzerSets.ts) add it to Istio's.
import { KINDS, type KindInfo } from '../../document/kinds.ts';
import type { Analyzer } from '../../analysis/types.ts';
import { OWN_MESSAGES } from '../../analysis/messages.ts';
import { isWritten } from '../../config/views.ts';
import { envoyFilterReach, envoyFilterValueProblems, type PatchReachResult } from '../envoyFilterReach.ts';

function reason(r: PatchReachResult): string | undefined {
  switch (r.reach) {
    case 'no-proxy':
      return 'the EnvoyFilter selects no proxy in the files (its namespace, workloadSelector or targetRefs)';
    case 'bootstrap':
      return 'istiod no longer applies BOOTSTRAP patches (bootstrap discovery was removed in Istio 1.21)';
    case 'proxy-mismatch':
      return 'its match.proxy (proxy version or metadata) fits none of the proxies the EnvoyFilter selects';
    case 'no-match': {
      const proxies = r.proxies === 1 ? 'the proxy' : `the ${r.proxies} proxies`;
      // An extension config is sent only when a filter asks for it by name (ECDS).
      if (r.applyTo === 'EXTENSION_CONFIG') return `no filter of ${proxies} it reaches takes its config by that name over ECDS (configDiscovery)`;
      return `nothing in the config generated for ${proxies} it reaches matches it`;
    }
    default:
      return undefined;
  }
}

const OTHER_KINDS: KindInfo[] = Object.values(KINDS).filter((k) => k !== KINDS.EnvoyFilter);

export const patchReachAnalyzer: Analyzer = {
  metadata: {
    name: 'envoyfilter.PatchReachAnalyzer',
    description: "Reports EnvoyFilter patches that change no proxy's generated config (Mesh Workbench's own; not in istioctl)",
    // Any object can change what a proxy's config holds: every kind is an input, none required.
    inputs: [KINDS.EnvoyFilter, ...OTHER_KINDS],
    optionalInputs: OTHER_KINDS,
  },
  analyze(ctx) {
    if (ctx.list(KINDS.EnvoyFilter).length === 0) return;
    // Values that do not fit their Envoy message, at the field (unknown fields as warnings, as istiod warns of them).
    for (const ef of ctx.list(KINDS.EnvoyFilter)) {
      for (const v of envoyFilterValueProblems(ef)) {
        for (const p of v.problems) {
          const type = p.code === 'unknown-field' ? OWN_MESSAGES.EnvoyFilterValueUnknownField : OWN_MESSAGES.EnvoyFilterValueInvalid;
          ctx.report(type.at(ef, v.index, v.type, `${p.path.replace(/^\$/, 'value')}: ${p.message}`), {
            highlightPath: `spec.configPatches[${v.index}].patch.value${p.path.slice(1)}`,
          });
        }
      }
    }
    for (const [ef, results] of envoyFilterReach(ctx)) {
      for (const r of results) {
        const why = reason(r);
        if (why === undefined) continue;
        const at = `spec.configPatches[${r.index}]`;
        ctx.report(OWN_MESSAGES.EnvoyFilterPatchAppliesToNoProxy.at(ef, r.index, r.summary, why), {
          highlightPath: isWritten(ef, ['spec', 'configPatches', r.index, 'match']) ? `${at}.match` : at,
        });
      }
    }
  },
};
