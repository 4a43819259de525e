// telemetry.ProviderAnalyzer: when the mesh config names no default access-log provider,
// an enabled accessLogging entry of a Telemetry must name its providers (IST0157).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { meshConfigView } from '../../../config/api/mesh.ts';
import { telemetry } from '../../../config/api/telemetry.ts';
import { writtenAt } from '../../../config/views.ts';

export const telemetryProviderAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'telemetry.ProviderAnalyzer',
    description: 'Checks that Telemetry access logging names a provider when the mesh has no default one',
    inputs: [KINDS.Telemetry, KINDS.MeshConfig],
  },
  {
    kind: KINDS.Telemetry,
    check(ctx, t) {
      if ((meshConfigView(ctx.meshConfig).defaultProviders?.accessLogging.length ?? 0) > 0) return;
      telemetry(t).accessLogging.forEach((entry, i) => {
        if (entry.disabled === true) return;
        if ((entry.providers ?? []).length === 0) {
          // The empty providers list when written, else the accessLogging entry itself.
          const written = writtenAt(t, ['spec', 'accessLogging', i, 'providers']) !== 'absent';
          const highlightPath = `spec.accessLogging[${i}]${written ? '.providers' : ''}`;
          ctx.report(MESSAGES.InvalidTelemetryProvider.at(t, t.name, t.namespace), { highlightPath });
        }
      });
    },
  },
);
