// Typed views of telemetry.istio.io Telemetry and extensions.istio.io WasmPlugin.
import { list, message, optional, raw, string, type Infer } from '../shape.ts';
import { specReader } from '../views.ts';
import { PolicyTargetReference, WorkloadSelector } from './common.ts';

const p = { proto: true };

export const ProviderRef = message({ name: string }, p);

/** `providers` is optional: a section that names none falls back to the mesh default. */
const providers = optional(list(ProviderRef));

export const TelemetrySpec = message(
  {
    selector: WorkloadSelector,
    targetRef: PolicyTargetReference,
    targetRefs: list(PolicyTargetReference),
    tracing: list(message({ providers, match: raw, randomSamplingPercentage: optional(raw), customTags: raw }, p)),
    metrics: list(message({ providers, overrides: raw, reportingInterval: optional(string) }, p)),
    accessLogging: list(message({ providers, match: raw, disabled: optional(raw), filter: raw }, p)),
  },
  p,
);
export type TelemetrySpec = Infer<typeof TelemetrySpec> & object;
export const telemetry = specReader(TelemetrySpec);

export const WasmPluginSpec = message(
  {
    selector: WorkloadSelector,
    targetRef: PolicyTargetReference,
    targetRefs: list(PolicyTargetReference),
    url: string,
    phase: string,
    priority: optional(raw),
    pluginName: string,
    type: string,
  },
  p,
);
export const wasmPlugin = specReader(WasmPluginSpec);
