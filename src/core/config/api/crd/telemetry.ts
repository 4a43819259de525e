// The telemetry.istio.io API as its CRDs accept it, in every served version (they share one
// schema): fields, types, enum values, bounds, formats and the CEL rules the API server runs,
// transcribed from Istio's CRDs into our shapes. The help lines are ours. The schema validator,
// the editor's completion and hover, and the typed views' consistency test read these.
import { bool, describe, double, enumOf, list, map, message, string } from '../../shape.ts';
import { PolicyTargetReference, WorkloadSelector, durationField } from './common.ts';

export const AccessLoggingFilter = message(
  {
    expression: describe(string, { help: 'CEL expression; only matching requests are logged.' }),
  },
  { proto: true },
);

export const AccessLoggingMatch = message(
  {
    mode: enumOf(['CLIENT_AND_SERVER', 'CLIENT', 'SERVER']),
  },
  { proto: true },
);

export const ProviderRef = message(
  {
    name: describe(describe(string, { minLength: 1 }), { help: 'Name of an extension provider defined in the mesh config.' }),
  },
  { proto: true, required: ['name'] },
);

export const AccessLogging = message(
  {
    disabled: describe(bool, { nullable: true }),
    filter: AccessLoggingFilter,
    match: AccessLoggingMatch,
    providers: list(ProviderRef),
  },
  { proto: true },
);

export const MetricSelector = message(
  {
    customMetric: describe(string, { minLength: 1 }),
    metric: enumOf([
      'ALL_METRICS',
      'REQUEST_COUNT',
      'REQUEST_DURATION',
      'REQUEST_SIZE',
      'RESPONSE_SIZE',
      'TCP_OPENED_CONNECTIONS',
      'TCP_CLOSED_CONNECTIONS',
      'TCP_SENT_BYTES',
      'TCP_RECEIVED_BYTES',
      'GRPC_REQUEST_MESSAGES',
      'GRPC_RESPONSE_MESSAGES',
    ]),
    mode: enumOf(['CLIENT_AND_SERVER', 'CLIENT', 'SERVER']),
  },
  { proto: true, oneOf: [['metric', 'customMetric']] },
);

export const TagOverride = message(
  {
    operation: enumOf(['UPSERT', 'REMOVE']),
    value: string,
  },
  {
    proto: true,
    rules: [
      { rule: '((has(self.operation) ? self.operation : "") == "UPSERT") ? (self.value != "") : true', message: 'value must be set when operation is UPSERT' },
      {
        rule: '((has(self.operation) ? self.operation : "") == "REMOVE") ? !has(self.value) : true',
        message: 'value must not be set when operation is REMOVE',
      },
    ],
  },
);

export const MetricsOverrides = message(
  {
    disabled: describe(bool, { nullable: true }),
    match: MetricSelector,
    tagOverrides: map(TagOverride),
  },
  { proto: true },
);

export const Metrics = message(
  {
    overrides: list(MetricsOverrides),
    providers: list(ProviderRef),
    reportingInterval: durationField,
  },
  { proto: true },
);

export const EnvironmentTag = message(
  {
    defaultValue: string,
    name: describe(string, { minLength: 1 }),
  },
  { proto: true, required: ['name'] },
);

export const FormatterTag = message(
  {
    value: describe(string, { minLength: 1 }),
  },
  { proto: true, required: ['value'] },
);

export const CustomTag = message(
  {
    environment: EnvironmentTag,
    formatter: FormatterTag,
    header: EnvironmentTag,
    literal: FormatterTag,
  },
  { proto: true, oneOf: [['literal', 'environment', 'header', 'formatter']] },
);

export const Tracing = message(
  {
    customTags: map(CustomTag),
    disableContextPropagation: describe(bool, { nullable: true }),
    disableSpanReporting: describe(bool, { nullable: true }),
    enableIstioTags: describe(bool, { nullable: true }),
    match: AccessLoggingMatch,
    providers: list(ProviderRef),
    randomSamplingPercentage: describe(describe(double, { minimum: 0, maximum: 100, nullable: true }), { help: 'Share of requests to trace (0-100).' }),
    useRequestIdForTraceSampling: describe(bool, { nullable: true }),
  },
  { proto: true },
);

export const TelemetrySpec = message(
  {
    accessLogging: describe(list(AccessLogging), { help: 'Access log settings: providers and filters.' }),
    metrics: describe(list(Metrics), { help: 'Metrics settings: providers and per-metric overrides.' }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
    targetRef: describe(PolicyTargetReference, { help: 'The resource (e.g. a Gateway or Service) this policy attaches to, instead of a workload selector.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
    tracing: describe(list(Tracing), { help: 'Tracing settings: providers, sampling, custom tags.' }),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1',
        message: 'only one of targetRefs or selector can be set',
      },
    ],
  },
);

/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  { group: 'telemetry.istio.io', kind: 'Telemetry', versions: ['v1', 'v1alpha1'], storage: 'v1alpha1', spec: TelemetrySpec, specRequired: false },
] as const;
