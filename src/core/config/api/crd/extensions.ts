// The extensions.istio.io API as its CRDs accept it, in every served version (they share one
// schema): fields, types, enum values, bounds, formats and the CEL rules the API server runs,
// transcribed from Istio's CRDs into our shapes. The help lines are ours. The schema validator,
// the editor's completion and hover, and the typed views' consistency test read these.
import { describe, enumOf, int, list, message, raw, string } from '../../shape.ts';
import { PolicyTargetReference, WorkloadSelector } from './common.ts';

export const LuaConfig = message(
  {
    inlineCode: describe(string, { minLength: 1, maxLength: 65536 }),
  },
  { proto: true, required: ['inlineCode'] },
);

export const PortSelector = message(
  {
    number: describe(describe(int, { minimum: 1, maximum: 65535 }), { help: 'A port number (1-65535).' }),
  },
  { proto: true, required: ['number'] },
);

export const TrafficSelector = message(
  {
    mode: enumOf(['UNDEFINED', 'CLIENT', 'SERVER', 'CLIENT_AND_SERVER']),
    ports: describe(list(PortSelector), { listType: 'map', listMapKeys: ['number'] }),
  },
  { proto: true },
);

export const EnvVar = message(
  {
    name: describe(string, { minLength: 1, maxLength: 256 }),
    value: describe(string, { maxLength: 2048 }),
    valueFrom: enumOf(['INLINE', 'HOST']),
  },
  {
    proto: true,
    rules: [{ rule: '(has(self.valueFrom) ? self.valueFrom : "") != "HOST" || !has(self.value)', message: 'value may only be set when valueFrom is INLINE' }],
    required: ['name'],
  },
);

export const VmConfig = message(
  {
    env: describe(list(EnvVar), { maxItems: 256, listType: 'map', listMapKeys: ['name'] }),
  },
  { proto: true },
);

export const WasmConfig = message(
  {
    failStrategy: enumOf(['FAIL_CLOSE', 'FAIL_OPEN', 'FAIL_RELOAD']),
    imagePullPolicy: enumOf(['UNSPECIFIED_POLICY', 'IfNotPresent', 'Always']),
    imagePullSecret: describe(string, { minLength: 1, maxLength: 253 }),
    pluginConfig: raw,
    pluginName: describe(string, { minLength: 1, maxLength: 256 }),
    sha256: describe(string, { pattern: '(^$|^[a-f0-9]{64}$)' }),
    type: enumOf(['UNSPECIFIED_PLUGIN_TYPE', 'HTTP', 'NETWORK']),
    url: describe(string, {
      minLength: 1,
      rules: [
        {
          rule: 'isURL(self) ? (url(self).getScheme() in ["", "http", "https", "file", "oci"]) : (isURL("http://" + self) &&\nurl("http://" + self).getScheme() in ["", "http", "https", "file", "oci"])',
          message: 'url must have schema one of [http, https, file, oci]',
        },
      ],
    }),
    verificationKey: string,
    vmConfig: VmConfig,
  },
  { proto: true, required: ['url'] },
);

export const TrafficExtensionSpec = message(
  {
    lua: LuaConfig,
    match: list(TrafficSelector),
    phase: enumOf(['UNSPECIFIED', 'AUTHN', 'AUTHZ', 'STATS']),
    priority: describe(int, { nullable: true }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
    wasm: WasmConfig,
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.selector) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1', message: 'only one of targetRefs or selector can be set' },
      { rule: 'has(self.wasm) != has(self.lua)', message: 'exactly one of wasm or lua must be set' },
    ],
    oneOf: [['wasm', 'lua']],
  },
);

export const WasmPluginSpec = message(
  {
    failStrategy: enumOf(['FAIL_CLOSE', 'FAIL_OPEN', 'FAIL_RELOAD']),
    imagePullPolicy: describe(enumOf(['UNSPECIFIED_POLICY', 'IfNotPresent', 'Always']), { help: 'When to fetch the OCI image again: IfNotPresent or Always.' }),
    imagePullSecret: describe(string, { minLength: 1, maxLength: 253 }),
    match: list(TrafficSelector),
    phase: describe(enumOf(['UNSPECIFIED_PHASE', 'AUTHN', 'AUTHZ', 'STATS']), {
      help: 'Where in the filter chain to insert the plugin: AUTHN, AUTHZ or STATS.',
    }),
    pluginConfig: describe(raw, { help: 'Configuration passed to the plugin.' }),
    pluginName: describe(string, { minLength: 1, maxLength: 256 }),
    priority: describe(describe(int, { nullable: true }), { help: 'Order among plugins in the same phase; higher first.' }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
    sha256: describe(describe(string, { pattern: '(^$|^[a-f0-9]{64}$)' }), { help: 'SHA-256 checksum the module must have.' }),
    targetRef: describe(PolicyTargetReference, { help: 'The resource (e.g. a Gateway or Service) this policy attaches to, instead of a workload selector.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
    type: describe(enumOf(['UNSPECIFIED_PLUGIN_TYPE', 'HTTP', 'NETWORK']), { help: 'HTTP or NETWORK filter.' }),
    url: describe(
      describe(string, {
        minLength: 1,
        rules: [
          {
            rule: 'isURL(self) ? (url(self).getScheme() in ["", "http", "https", "oci", "file"]) : (isURL("http://" + self) &&\nurl("http://" + self).getScheme() in ["", "http", "https", "oci", "file"])',
            message: 'url must have schema one of [http, https, file, oci]',
          },
        ],
      }),
      { help: 'Where to fetch the Wasm module: oci://, https://, http:// or file://.' },
    ),
    verificationKey: string,
    vmConfig: VmConfig,
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1',
        message: 'only one of targetRefs or selector can be set',
      },
    ],
    required: ['url'],
  },
);

/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  { group: 'extensions.istio.io', kind: 'TrafficExtension', versions: ['v1alpha1'], storage: 'v1alpha1', spec: TrafficExtensionSpec, specRequired: true },
  { group: 'extensions.istio.io', kind: 'WasmPlugin', versions: ['v1alpha1'], storage: 'v1alpha1', spec: WasmPluginSpec, specRequired: true },
] as const;
