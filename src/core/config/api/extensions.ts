// Typed view of extensions.istio.io TrafficExtension (v1alpha1): a Wasm or Lua filter for the
// selected workloads. (WasmPlugin's view is in telemetry.ts.)
import { int, list, message, optional, protoEnum, raw, string, type Infer } from '../shape.ts';
import { specReader } from '../views.ts';
import { PolicyTargetReference, PortSelector, WorkloadSelector } from './common.ts';

const p = { proto: true };

/** TrafficExtension.ExecutionPhase, in enum number order. */
export const EXECUTION_PHASES = ['UNSPECIFIED', 'AUTHN', 'AUTHZ', 'STATS'] as const;

export const WasmConfig = message(
  {
    url: string,
    sha256: string,
    imagePullPolicy: string,
    imagePullSecret: string,
    verificationKey: string,
    pluginConfig: raw,
    pluginName: string,
    failStrategy: string,
    vmConfig: message({ env: list(message({ name: string, valueFrom: string, value: string }, p)) }, p),
    type: string,
  },
  p,
);

export const LuaConfig = message({ inlineCode: string }, p);

export const TrafficSelector = message({ mode: string, ports: list(PortSelector) }, p);

export const TrafficExtensionSpec = message(
  {
    selector: WorkloadSelector,
    targetRefs: list(PolicyTargetReference),
    phase: protoEnum(EXECUTION_PHASES),
    priority: optional(int),
    match: list(TrafficSelector),
    wasm: WasmConfig,
    lua: LuaConfig,
  },
  p,
);
export type TrafficExtensionSpec = Infer<typeof TrafficExtensionSpec> & object;
export const trafficExtension = specReader(TrafficExtensionSpec);
