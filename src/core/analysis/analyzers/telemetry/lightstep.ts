// telemetry.LightstepAnalyzer: Telemetry tracing that uses a mesh extension provider of the
// deprecated Lightstep type (IST0002).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import type { AnalysisContext } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { meshConfigView } from '../../../config/api/mesh.ts';
import { telemetry } from '../../../config/api/telemetry.ts';

function lightstepProviders(ctx: AnalysisContext): Set<string> {
  const names = new Set<string>();
  for (const p of meshConfigView(ctx.meshConfig).extensionProviders) {
    if (p.lightstep) names.add(p.name);
  }
  return names;
}

export const telemetryLightstepAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'telemetry.LightstepAnalyzer',
    description: 'Flags Telemetry tracing that still uses a Lightstep extension provider',
    inputs: [KINDS.Telemetry, KINDS.MeshConfig],
  },
  {
    kind: KINDS.Telemetry,
    check(ctx, t) {
      const lightstep = lightstepProviders(ctx);
      if (lightstep.size === 0) return;
      telemetry(t).tracing.forEach((tracing, i) => {
        tracing.providers?.forEach(({ name }, j) => {
          if (!lightstep.has(name)) return;
          ctx.report(MESSAGES.Deprecated.at(t, `The Lightstep provider ${name} is deprecated, please migrate to OpenTelemetry provider.`), {
            highlightPath: `spec.tracing[${i}].providers[${j}].name`,
          });
        });
      });
    },
  },
);
