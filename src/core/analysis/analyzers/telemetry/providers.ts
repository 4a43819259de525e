// telemetry.ProviderAnalyzer: when the mesh config names no default access-log provider,
// an enabled accessLogging entry of a Telemetry must name its providers (IST0157).
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { arr, isObj, specOf } from '../../../model/read.ts';

export const telemetryProviderAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'telemetry.ProviderAnalyzer',
    description: 'Checks that Telemetry access logging names a provider when the mesh has no default one',
    inputs: [KINDS.Telemetry, KINDS.MeshConfig],
  },
  {
    kind: KINDS.Telemetry,
    check(ctx, t) {
      const defaults = ctx.meshConfig.defaultProviders;
      if (isObj(defaults) && arr(defaults.accessLogging).length > 0) return;
      arr(specOf(t).accessLogging).forEach((entry, i) => {
        const e = isObj(entry) ? entry : {};
        if (e.disabled === true) return;
        if (arr(e.providers).length === 0) {
          // The empty providers list when written, else the accessLogging entry itself.
          const highlightPath = `spec.accessLogging[${i}]${'providers' in e ? '.providers' : ''}`;
          ctx.report(MESSAGES.InvalidTelemetryProvider.at(t, t.name, t.namespace), { highlightPath });
        }
      });
    },
  },
);
