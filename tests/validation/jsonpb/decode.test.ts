// istioctlDecodeError against the real istioctl: every expected string below was printed by
// `istioctl analyze --use-kube=false FILE` (the text after `error processing FILE[0]: `),
// istio.io/istio@v0.0.0-20260827124520-eed52ebb66ad built with go1.26.8
// (~/.cache/mesh-workbench-oracle/bin/istioctl); `undefined` means istioctl parsed the file.
// Each case names the Go source that produces its text. Documents are read with the
// project's YAML reader (go-yaml v2's scalars), as the CLI reads them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { istioctlDecodeError } from '../../../src/core/validation/jsonpb/decode.ts';
import { MESSAGES } from '../../../src/core/validation/jsonpb/istioProtos.gen.ts';
import { loadYaml } from '../../../src/core/document/yamlSchema.ts';

// Go sources, relative to the Go module cache (~/go/pkg/mod) or GOROOT/src.
const STORE = 'istio.io/istio/pilot/pkg/config/file/store.go (parseChunk)';
const JSONPB = 'github.com/golang/protobuf@v1.5.4/jsonpb/decode.go';
const SCALAR = `${JSONPB} unmarshalSingularValue -> encoding/json/decode.go literalStore (UnmarshalTypeError), context from sigs.k8s.io/json internal/golang/encoding/json/decode.go addErrorContext`;
const TRIM = `${JSONPB} unmarshalSingularValue (trimQuote) -> encoding/json/scanner.go (syntax error)`;
const ENUM = `${JSONPB} unmarshalSingularValue (EnumKind)`;
const CONTAINER = `${JSONPB} unmarshalMessage/unmarshalValue json.Unmarshal into map[string]json.RawMessage or []json.RawMessage, context from sigs.k8s.io/json addErrorContext`;
const FIELDS = `${JSONPB} unmarshalMessage (proto name, then json name; unknown fields ignored with AllowUnknownFields)`;
const DURATION = `${JSONPB} unmarshalMessage (Duration) -> time/format.go ParseDuration`;
const TIMESTAMP = `${JSONPB} unmarshalMessage (Timestamp) -> time/format.go parse`;
const STRUCT = `${JSONPB} unmarshalMessage (Struct, Value)`;
const WRAPPER = `${JSONPB} unmarshalMessage (wrappers) -> unmarshalSingularValue`;
const BYTES = 'encoding/json/decode.go literalStore ([]byte: encoding/base64 CorruptInputError)';
const MAPKEY = `${JSONPB} unmarshalValue (non-string map key)`;
const META =
  'sigs.k8s.io/json internal/golang/encoding/json/decode.go object/literalStore (case-sensitive), k8s.io/apimachinery/pkg/apis/meta/v1/types.go ObjectMeta';
const METATIME = 'k8s.io/apimachinery/pkg/apis/meta/v1/time.go Time.UnmarshalJSON -> time/format.go parse';
const YAML2JSON = `sigs.k8s.io/yaml@v1.6.0 yaml.go YAMLToJSON (json.Marshal), ${STORE}`;

const GROUP: Record<string, string> = {
  VirtualService: 'networking.istio.io',
  DestinationRule: 'networking.istio.io',
  Gateway: 'networking.istio.io',
  ServiceEntry: 'networking.istio.io',
  Sidecar: 'networking.istio.io',
  EnvoyFilter: 'networking.istio.io',
  WorkloadEntry: 'networking.istio.io',
  WorkloadGroup: 'networking.istio.io',
  ProxyConfig: 'networking.istio.io',
  AuthorizationPolicy: 'security.istio.io',
  PeerAuthentication: 'security.istio.io',
  RequestAuthentication: 'security.istio.io',
  Telemetry: 'telemetry.istio.io',
  WasmPlugin: 'extensions.istio.io',
  TrafficExtension: 'extensions.istio.io',
};
const DEFAULT_VERSION: Record<string, string> = { ProxyConfig: 'v1beta1', EnvoyFilter: 'v1alpha3', WasmPlugin: 'v1alpha1', TrafficExtension: 'v1alpha1' };

interface Case {
  id: string;
  kind: string;
  body: string;
  version?: string;
  want: string | undefined;
  go: string;
}

const md = 'metadata:\n  name: x\n  namespace: default\n';
const vsRoute = (r: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - ${r}\n    route:\n    - destination: {host: a}\n`;
const vsDest = (d: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a, ${d}}\n`;
const vsWeight = (w: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a}\n      weight: ${w}\n`;
const vsBytes = (b: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - directResponse: {status: 200, body: {bytes: ${b}}}\n`;
const dr = (tp: string) => `${md}spec:\n  host: a\n  trafficPolicy:\n    ${tp}\n`;
const statusTime = (t: string) => `${md}spec:\n  hosts: [a]\nstatus:\n  conditions:\n  - type: Reconciled\n    lastTransitionTime: ${t}\n`;
const meta = (m: string) => `metadata:\n  name: x\n${m}spec:\n  hosts: [a]\n`;
const ef = (p: string) => `${md}spec:\n  configPatches:\n  - applyTo: CLUSTER\n    patch: ${p}\n`;
const F = 'failed parsing JSON for built-in type: ';

function doc(c: Case): string {
  return `apiVersion: ${GROUP[c.kind]}/${c.version ?? DEFAULT_VERSION[c.kind] ?? 'v1'}\nkind: ${c.kind}\n${c.body}`;
}

const CASES: Case[] = [
  // google.protobuf.Duration
  {
    id: 'vs-timeout-number',
    kind: 'VirtualService',
    body: vsRoute('timeout: 5'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type string',
    go: DURATION,
  },
  { id: 'vs-timeout-ok', kind: 'VirtualService', body: vsRoute('timeout: 5s'), want: undefined, go: DURATION },
  {
    id: 'vs-timeout-nounit',
    kind: 'VirtualService',
    body: vsRoute('timeout: "5"'),
    want: F + 'bad Duration: time: missing unit in duration "5"',
    go: DURATION,
  },
  { id: 'vs-timeout-abc', kind: 'VirtualService', body: vsRoute('timeout: abc'), want: F + 'bad Duration: time: invalid duration "abc"', go: DURATION },
  {
    id: 'vs-timeout-unit',
    kind: 'VirtualService',
    body: vsRoute('timeout: 1x'),
    want: F + 'bad Duration: time: unknown unit "x" in duration "1x"',
    go: DURATION,
  },
  { id: 'vs-timeout-empty', kind: 'VirtualService', body: vsRoute('timeout: ""'), want: F + 'bad Duration: time: invalid duration ""', go: DURATION },
  { id: 'vs-timeout-neg-frac', kind: 'VirtualService', body: vsRoute('timeout: -1.5h'), want: undefined, go: DURATION },
  {
    id: 'vs-timeout-bool',
    kind: 'VirtualService',
    body: vsRoute('timeout: true'),
    want: F + 'json: cannot unmarshal bool into Go struct field VirtualService.spec of type string',
    go: DURATION,
  },
  {
    id: 'vs-timeout-object',
    kind: 'VirtualService',
    body: vsRoute('timeout: {seconds: 5}'),
    want: F + 'json: cannot unmarshal object into Go struct field VirtualService.spec of type string',
    go: DURATION,
  },
  {
    id: 'vs-timeout-overflow',
    kind: 'VirtualService',
    body: vsRoute('timeout: 9999999999h'),
    want: F + 'bad Duration: time: invalid duration "9999999999h"',
    go: DURATION,
  },
  { id: 'vs-timeout-micro', kind: 'VirtualService', body: vsRoute('timeout: 5µs'), want: undefined, go: DURATION },
  { id: 'vs-timeout-null', kind: 'VirtualService', body: vsRoute('timeout: null'), want: undefined, go: DURATION },
  { id: 'dur-1.5', kind: 'VirtualService', body: vsRoute('timeout: "1.5"'), want: F + 'bad Duration: time: missing unit in duration "1.5"', go: DURATION },
  { id: 'dur-5s5', kind: 'VirtualService', body: vsRoute('timeout: "5s5"'), want: F + 'bad Duration: time: missing unit in duration "5s5"', go: DURATION },
  {
    id: 'dur-non-ascii-unit',
    kind: 'VirtualService',
    body: vsRoute('timeout: "5é"'),
    want: F + 'bad Duration: time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"',
    go: DURATION,
  },
  { id: 'dur-dot-s', kind: 'VirtualService', body: vsRoute('timeout: ".s"'), want: F + 'bad Duration: time: invalid duration ".s"', go: DURATION },
  { id: 'dur-max', kind: 'VirtualService', body: vsRoute('timeout: "2562047h47m16.854775807s"'), want: undefined, go: DURATION },
  {
    id: 'dur-max-plus-one',
    kind: 'VirtualService',
    body: vsRoute('timeout: "2562047h47m16.854775808s"'),
    want: F + 'bad Duration: time: invalid duration "2562047h47m16.854775808s"',
    go: DURATION,
  },
  { id: 'dur-min', kind: 'VirtualService', body: vsRoute('timeout: "-2562047h47m16.854775808s"'), want: undefined, go: DURATION },
  {
    id: 'dur-space',
    kind: 'VirtualService',
    body: vsRoute('timeout: "5 s"'),
    want: F + 'bad Duration: time: unknown unit " s" in duration "5 s"',
    go: DURATION,
  },
  {
    id: 'ra-timeout-bad',
    kind: 'RequestAuthentication',
    body: `${md}spec:\n  jwtRules:\n  - issuer: a\n    timeout: 10\n`,
    want: F + 'json: cannot unmarshal number into Go struct field RequestAuthentication.spec of type string',
    go: DURATION,
  },
  {
    id: 'dr-outlier-interval-number',
    kind: 'DestinationRule',
    body: `${md}spec:\n  host: a\n  trafficPolicy: {outlierDetection: {interval: 10}}\n`,
    want: F + 'json: cannot unmarshal number into Go struct field DestinationRule.spec of type string',
    go: DURATION,
  },
  // enums
  {
    id: 'dr-tls-strict',
    kind: 'DestinationRule',
    body: dr('tls: {mode: STRICT}'),
    want: F + 'unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode',
    go: ENUM,
  },
  { id: 'dr-tls-number', kind: 'DestinationRule', body: dr('tls: {mode: 1}'), want: undefined, go: ENUM },
  { id: 'dr-tls-unknown-number', kind: 'DestinationRule', body: dr('tls: {mode: 99}'), want: undefined, go: ENUM },
  { id: 'dr-tls-negative-number', kind: 'DestinationRule', body: dr('tls: {mode: -7}'), want: undefined, go: ENUM },
  {
    id: 'dr-tls-quoted-number',
    kind: 'DestinationRule',
    body: dr('tls: {mode: "1"}'),
    want: F + 'unknown value "\\"1\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode',
    go: ENUM,
  },
  {
    id: 'dr-tls-float',
    kind: 'DestinationRule',
    body: dr('tls: {mode: 1.5}'),
    want: F + 'json: cannot unmarshal number 1.5 into Go struct field DestinationRule.spec of type protoreflect.EnumNumber',
    go: ENUM,
  },
  {
    id: 'dr-tls-bool',
    kind: 'DestinationRule',
    body: dr('tls: {mode: true}'),
    want: F + 'json: cannot unmarshal bool into Go struct field DestinationRule.spec of type protoreflect.EnumNumber',
    go: ENUM,
  },
  { id: 'dr-tls-null', kind: 'DestinationRule', body: dr('tls: {mode: null}'), want: undefined, go: ENUM },
  {
    id: 'dr-tls-lower',
    kind: 'DestinationRule',
    body: dr('tls: {mode: istio_mutual}'),
    want: F + 'unknown value "\\"istio_mutual\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode',
    go: ENUM,
  },
  {
    id: 'dr-tls-enum-out-of-range',
    kind: 'DestinationRule',
    body: dr('tls: {mode: 2147483648}'),
    want: F + 'json: cannot unmarshal number 2147483648 into Go struct field DestinationRule.spec of type protoreflect.EnumNumber',
    go: ENUM,
  },
  {
    id: 'dr-tls-list',
    kind: 'DestinationRule',
    body: dr('tls: {mode: [SIMPLE]}'),
    want: F + 'json: cannot unmarshal array into Go struct field DestinationRule.spec of type protoreflect.EnumNumber',
    go: ENUM,
  },
  {
    id: 'dr-enum-html',
    kind: 'DestinationRule',
    body: dr('tls: {mode: "<a&b>"}'),
    want: F + 'unknown value "\\"\\\\u003ca\\\\u0026b\\\\u003e\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode',
    go: ENUM,
  },
  {
    id: 'dr-enum-unicode',
    kind: 'DestinationRule',
    body: dr('tls: {mode: "é\\t"}'),
    want: F + 'unknown value "\\"é\\\\t\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode',
    go: ENUM,
  },
  {
    id: 'gw-tls-mode-bad',
    kind: 'Gateway',
    body: `${md}spec:\n  servers:\n  - port: {number: 443, name: https, protocol: HTTPS}\n    hosts: ["*"]\n    tls: {mode: MUTUALX}\n`,
    want: F + 'unknown value "\\"MUTUALX\\"" for enum istio.networking.v1alpha3.ServerTLSSettings.TLSmode',
    go: ENUM,
  },
  {
    id: 'se-resolution-bad',
    kind: 'ServiceEntry',
    body: `${md}spec:\n  hosts: [a.com]\n  resolution: DNSX\n`,
    want: F + 'unknown value "\\"DNSX\\"" for enum istio.networking.v1alpha3.ServiceEntry.Resolution',
    go: ENUM,
  },
  {
    id: 'sidecar-outbound-mode-bad',
    kind: 'Sidecar',
    body: `${md}spec:\n  outboundTrafficPolicy: {mode: FOO}\n`,
    want: F + 'unknown value "\\"FOO\\"" for enum istio.networking.v1alpha3.OutboundTrafficPolicy.Mode',
    go: ENUM,
  },
  {
    id: 'ef-applyto-bad',
    kind: 'EnvoyFilter',
    body: `${md}spec:\n  configPatches:\n  - applyTo: FOO\n`,
    want: F + 'unknown value "\\"FOO\\"" for enum istio.networking.v1alpha3.EnvoyFilter.ApplyTo',
    go: ENUM,
  },
  {
    id: 'ef-match-context-number',
    kind: 'EnvoyFilter',
    body: `${md}spec:\n  configPatches:\n  - applyTo: CLUSTER\n    match: {context: 2}\n`,
    want: undefined,
    go: ENUM,
  },
  {
    id: 'ap-action-bad',
    kind: 'AuthorizationPolicy',
    body: `${md}spec:\n  action: ALLOWX\n`,
    want: F + 'unknown value "\\"ALLOWX\\"" for enum istio.security.v1beta1.AuthorizationPolicy.Action',
    go: ENUM,
  },
  { id: 'ap-action-number', kind: 'AuthorizationPolicy', body: `${md}spec:\n  action: 1\n`, want: undefined, go: ENUM },
  {
    id: 'pa-mode-lower',
    kind: 'PeerAuthentication',
    body: `${md}spec:\n  mtls: {mode: strict}\n`,
    want: F + 'unknown value "\\"strict\\"" for enum istio.security.v1beta1.PeerAuthentication.MutualTLS.Mode',
    go: ENUM,
  },
  {
    id: 'tel-metric-bad',
    kind: 'Telemetry',
    body: `${md}spec:\n  metrics:\n  - overrides:\n    - match: {metric: FOO}\n`,
    want: F + 'unknown value "\\"FOO\\"" for enum istio.telemetry.v1alpha1.MetricSelector.IstioMetric',
    go: ENUM,
  },
  { id: 'tel-mode-number', kind: 'Telemetry', body: `${md}spec:\n  metrics:\n  - overrides:\n    - match: {mode: 3}\n`, want: undefined, go: ENUM },
  {
    id: 'wasm-phase-bad',
    kind: 'WasmPlugin',
    body: `${md}spec:\n  url: oci://a\n  phase: X\n`,
    want: F + 'unknown value "\\"X\\"" for enum istio.extensions.v1alpha1.PluginPhase',
    go: ENUM,
  },
  {
    id: 'wasm-env-value-bad',
    kind: 'WasmPlugin',
    body: `${md}spec:\n  url: oci://a\n  vmConfig: {env: [{name: a, valueFrom: GUEST}]}\n`,
    want: F + 'unknown value "\\"GUEST\\"" for enum istio.extensions.v1alpha1.EnvValueSource',
    go: ENUM,
  },
  // bool and string
  {
    id: 'vs-ignoreuricase-string',
    kind: 'VirtualService',
    body: vsRoute('match: [{ignoreUriCase: "true"}]'),
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type bool',
    go: SCALAR,
  },
  {
    id: 'vs-ignoreuricase-number',
    kind: 'VirtualService',
    body: vsRoute('match: [{ignoreUriCase: 1}]'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type bool',
    go: SCALAR,
  },
  {
    id: 'vs-ignoreuricase-snake',
    kind: 'VirtualService',
    body: vsRoute('match: [{ignore_uri_case: "true"}]'),
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type bool',
    go: SCALAR,
  },
  { id: 'yaml11-bool-yes', kind: 'VirtualService', body: vsRoute('match: [{ignoreUriCase: yes}]'), want: undefined, go: SCALAR },
  {
    id: 'ra-forward-string',
    kind: 'RequestAuthentication',
    body: `${md}spec:\n  jwtRules:\n  - issuer: a\n    forwardOriginalToken: "yes"\n`,
    want: F + 'json: cannot unmarshal string into Go struct field RequestAuthentication.spec of type bool',
    go: SCALAR,
  },
  {
    id: 'vs-hosts-number',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [5]\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type string',
    go: SCALAR,
  },
  {
    id: 'we-address-number',
    kind: 'WorkloadEntry',
    body: `${md}spec:\n  address: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field WorkloadEntry.spec of type string',
    go: SCALAR,
  },
  {
    id: 'wasm-url-number',
    kind: 'WasmPlugin',
    body: `${md}spec:\n  url: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field WasmPlugin.spec of type string',
    go: SCALAR,
  },
  {
    id: 'ef-proxy-version',
    kind: 'EnvoyFilter',
    body: `${md}spec:\n  configPatches:\n  - applyTo: CLUSTER\n    match: {proxy: {proxyVersion: 1.2}}\n`,
    want: F + 'json: cannot unmarshal number into Go struct field EnvoyFilter.spec of type string',
    go: SCALAR,
  },
  // integers (uint32, int32, uint64) and doubles
  { id: 'vs-port-quoted', kind: 'VirtualService', body: vsDest('port: {number: "80"}'), want: undefined, go: SCALAR },
  {
    id: 'vs-port-float',
    kind: 'VirtualService',
    body: vsDest('port: {number: 1.5}'),
    want: F + 'json: cannot unmarshal number 1.5 into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  { id: 'vs-port-float-int', kind: 'VirtualService', body: vsDest('port: {number: 80.0}'), want: undefined, go: SCALAR },
  { id: 'vs-port-exp', kind: 'VirtualService', body: vsDest('port: {number: 1e2}'), want: undefined, go: SCALAR },
  {
    id: 'vs-port-quoted-exp',
    kind: 'VirtualService',
    body: vsDest('port: {number: "1e2"}'),
    want: F + 'json: cannot unmarshal number 1e2 into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-quoted-float',
    kind: 'VirtualService',
    body: vsDest('port: {number: "1.0"}'),
    want: F + 'json: cannot unmarshal number 1.0 into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-negative',
    kind: 'VirtualService',
    body: vsDest('port: {number: -1}'),
    want: F + 'json: cannot unmarshal number -1 into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-big',
    kind: 'VirtualService',
    body: vsDest('port: {number: 4294967296}'),
    want: F + 'json: cannot unmarshal number 4294967296 into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-abc',
    kind: 'VirtualService',
    body: vsDest('port: {number: "abc"}'),
    want: F + "invalid character 'a' looking for beginning of value",
    go: TRIM,
  },
  { id: 'vs-port-empty', kind: 'VirtualService', body: vsDest('port: {number: ""}'), want: F + 'unexpected end of JSON input', go: TRIM },
  { id: 'vs-port-spaces', kind: 'VirtualService', body: vsDest('port: {number: " 80 "}'), want: undefined, go: TRIM },
  { id: 'vs-port-hex', kind: 'VirtualService', body: vsDest('port: {number: "0x50"}'), want: F + "invalid character 'x' after top-level value", go: TRIM },
  {
    id: 'vs-port-two',
    kind: 'VirtualService',
    body: vsDest('port: {number: "two"}'),
    want: F + "invalid character 'w' in literal true (expecting 'r')",
    go: TRIM,
  },
  { id: 'yaml11-octal', kind: 'VirtualService', body: vsDest('port: {number: 0755}'), want: undefined, go: SCALAR },
  {
    id: 'vs-port-object',
    kind: 'VirtualService',
    body: vsDest('port: {number: {a: 1}}'),
    want: F + 'json: cannot unmarshal object into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-list',
    kind: 'VirtualService',
    body: vsDest('port: {number: [80]}'),
    want: F + 'json: cannot unmarshal array into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'vs-port-bool',
    kind: 'VirtualService',
    body: vsDest('port: {number: true}'),
    want: F + 'json: cannot unmarshal bool into Go struct field VirtualService.spec of type uint32',
    go: SCALAR,
  },
  { id: 'vs-weight-int32-max', kind: 'VirtualService', body: vsWeight('2147483647'), want: undefined, go: SCALAR },
  {
    id: 'vs-weight-int32-over',
    kind: 'VirtualService',
    body: vsWeight('2147483648'),
    want: F + 'json: cannot unmarshal number 2147483648 into Go struct field VirtualService.spec of type int32',
    go: SCALAR,
  },
  { id: 'vs-weight-quoted-neg', kind: 'VirtualService', body: vsWeight('"-5"'), want: undefined, go: SCALAR },
  {
    id: 'se-port-float',
    kind: 'ServiceEntry',
    body: `${md}spec:\n  hosts: [a.com]\n  ports: [{number: 80.5, name: http, protocol: HTTP}]\n`,
    want: F + 'json: cannot unmarshal number 80.5 into Go struct field ServiceEntry.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'we-weight-neg',
    kind: 'WorkloadEntry',
    body: `${md}spec:\n  address: 1.2.3.4\n  weight: -1\n`,
    want: F + 'json: cannot unmarshal number -1 into Go struct field WorkloadEntry.spec of type uint32',
    go: SCALAR,
  },
  {
    id: 'wg-probe-period-bad',
    kind: 'WorkloadGroup',
    body: `${md}spec:\n  template: {serviceAccount: a}\n  probe:\n    periodSeconds: "x"\n`,
    want: F + "invalid character 'x' looking for beginning of value",
    go: TRIM,
  },
  {
    id: 'wg-probe-port-quoted',
    kind: 'WorkloadGroup',
    body: `${md}spec:\n  template: {serviceAccount: a}\n  probe:\n    httpGet: {port: "8080", path: /}\n`,
    want: undefined,
    go: SCALAR,
  },
  { id: 'ef-priority-quoted', kind: 'EnvoyFilter', body: `${md}spec:\n  priority: "5"\n`, want: undefined, go: SCALAR },
  {
    id: 'dr-ring-size-big',
    kind: 'DestinationRule',
    body: dr('loadBalancer: {consistentHash: {httpHeaderName: x, minimumRingSize: "18446744073709551616"}}'),
    want: F + 'json: cannot unmarshal number 18446744073709551616 into Go struct field DestinationRule.spec of type uint64',
    go: SCALAR,
  },
  {
    id: 'dr-ring-size-max',
    kind: 'DestinationRule',
    body: dr('loadBalancer: {consistentHash: {httpHeaderName: x, minimumRingSize: "18446744073709551615"}}'),
    want: undefined,
    go: SCALAR,
  },
  {
    id: 'dr-ring-size-neg',
    kind: 'DestinationRule',
    body: dr('loadBalancer: {consistentHash: {httpHeaderName: x, minimumRingSize: -1}}'),
    want: F + 'json: cannot unmarshal number -1 into Go struct field DestinationRule.spec of type uint64',
    go: SCALAR,
  },
  { id: 'dr-max-conn-string', kind: 'DestinationRule', body: dr('connectionPool: {tcp: {maxConnections: "100"}}'), want: undefined, go: SCALAR },
  { id: 'vs-mirror-pct-double-quoted', kind: 'VirtualService', body: vsRoute('mirrorPercentage: {value: "50.5"}'), want: undefined, go: SCALAR },
  {
    id: 'vs-mirror-pct-double-bool',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercentage: {value: true}'),
    want: F + 'json: cannot unmarshal bool into Go struct field VirtualService.spec of type float64',
    go: SCALAR,
  },
  { id: 'vs-mirror-pct-nan', kind: 'VirtualService', body: vsRoute('mirrorPercentage: {value: "NaN"}'), want: undefined, go: SCALAR },
  {
    id: 'vs-mirror-pct-abc',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercentage: {value: "abc"}'),
    want: F + "invalid character 'a' looking for beginning of value",
    go: TRIM,
  },
  {
    id: 'vs-mirror-pct-huge',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercentage: {value: "1e400"}'),
    want: F + 'json: cannot unmarshal number 1e400 into Go struct field VirtualService.spec of type float64',
    go: SCALAR,
  },
  // bytes
  { id: 'vs-body-bytes-ok', kind: 'VirtualService', body: vsBytes('aGVsbG8='), want: undefined, go: BYTES },
  { id: 'vs-body-bytes-bad', kind: 'VirtualService', body: vsBytes('"abc"'), want: F + 'illegal base64 data at input byte 0', go: BYTES },
  { id: 'vs-body-bytes-bad2', kind: 'VirtualService', body: vsBytes('"a@bc"'), want: F + 'illegal base64 data at input byte 1', go: BYTES },
  {
    id: 'vs-body-bytes-number',
    kind: 'VirtualService',
    body: vsBytes('5'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type []uint8',
    go: BYTES,
  },
  { id: 'bytes-ab=', kind: 'VirtualService', body: vsBytes('"ab="'), want: F + 'illegal base64 data at input byte 3', go: BYTES },
  { id: 'bytes-trailing', kind: 'VirtualService', body: vsBytes('"YQ==YQ=="'), want: F + 'illegal base64 data at input byte 4', go: BYTES },
  { id: 'bytes-newline', kind: 'VirtualService', body: vsBytes('"YWJj\\nZGVm"'), want: undefined, go: BYTES },
  {
    id: 'bytes-array-256',
    kind: 'VirtualService',
    body: vsBytes('[256]'),
    want: F + 'json: cannot unmarshal number 256 into Go struct field VirtualService.spec of type uint8',
    go: BYTES,
  },
  // wrappers
  { id: 'vs-mirror-percent-wrapper-quoted', kind: 'VirtualService', body: vsRoute('mirrorPercent: "5"'), want: undefined, go: WRAPPER },
  {
    id: 'vs-mirror-percent-wrapper-neg',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercent: -1'),
    want: F + 'json: cannot unmarshal number -1 into Go struct field VirtualService.spec of type uint32',
    go: WRAPPER,
  },
  {
    id: 'vs-mirror-percent-wrapper-bool',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercent: true'),
    want: F + 'json: cannot unmarshal bool into Go struct field VirtualService.spec of type uint32',
    go: WRAPPER,
  },
  {
    id: 'vs-mirror-percent-wrapper-object',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercent: {value: 5}'),
    want: F + 'json: cannot unmarshal object into Go struct field VirtualService.spec of type uint32',
    go: WRAPPER,
  },
  {
    id: 'vs-cors-bool-wrapper-string',
    kind: 'VirtualService',
    body: vsRoute('corsPolicy: {allowCredentials: "true"}'),
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type bool',
    go: WRAPPER,
  },
  {
    id: 'dr-insecure-skip-yes',
    kind: 'DestinationRule',
    body: dr('tls: {mode: SIMPLE, insecureSkipVerify: "yes"}'),
    want: F + 'json: cannot unmarshal string into Go struct field DestinationRule.spec of type bool',
    go: WRAPPER,
  },
  {
    id: 'dr-outlier-errors-wrapper',
    kind: 'DestinationRule',
    body: dr('outlierDetection: {consecutive5xxErrors: "5", consecutiveGatewayErrors: 1.5}'),
    want: F + 'json: cannot unmarshal number 1.5 into Go struct field DestinationRule.spec of type uint32',
    go: WRAPPER,
  },
  { id: 'pc-concurrency-quoted', kind: 'ProxyConfig', body: `${md}spec:\n  concurrency: "2"\n`, want: undefined, go: WRAPPER },
  {
    id: 'pc-concurrency-two',
    kind: 'ProxyConfig',
    body: `${md}spec:\n  concurrency: "two"\n`,
    want: F + "invalid character 'w' in literal true (expecting 'r')",
    go: WRAPPER,
  },
  { id: 'tel-sampling-quoted', kind: 'Telemetry', body: `${md}spec:\n  tracing:\n  - randomSamplingPercentage: "10"\n`, want: undefined, go: WRAPPER },
  {
    id: 'tel-sampling-abc',
    kind: 'Telemetry',
    body: `${md}spec:\n  tracing:\n  - randomSamplingPercentage: "x"\n`,
    want: F + "invalid character 'x' looking for beginning of value",
    go: WRAPPER,
  },
  {
    id: 'tel-sampling-double-json',
    kind: 'Telemetry',
    body: `${md}spec:\n  tracing:\n  - random_sampling_percentage: {value: 5}\n`,
    want: F + 'json: cannot unmarshal object into Go struct field Telemetry.spec of type float64',
    go: WRAPPER,
  },
  {
    id: 'tel-disabled-string',
    kind: 'Telemetry',
    body: `${md}spec:\n  accessLogging:\n  - disabled: "true"\n`,
    want: F + 'json: cannot unmarshal string into Go struct field Telemetry.spec of type bool',
    go: WRAPPER,
  },
  { id: 'wasm-priority-quoted', kind: 'WasmPlugin', body: `${md}spec:\n  url: oci://a\n  priority: "10"\n`, want: undefined, go: WRAPPER },
  // repeated, maps, messages, oneofs, field names
  {
    id: 'vs-hosts-scalar',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: a\n`,
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type []json.RawMessage',
    go: CONTAINER,
  },
  { id: 'vs-hosts-null', kind: 'VirtualService', body: `${md}spec:\n  hosts: null\n`, want: undefined, go: FIELDS },
  { id: 'vs-hosts-null-elem', kind: 'VirtualService', body: `${md}spec:\n  hosts: [null, a]\n`, want: undefined, go: SCALAR },
  {
    id: 'vs-hosts-object',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: {a: b}\n`,
    want: F + 'json: cannot unmarshal object into Go struct field VirtualService.spec of type []json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-http-elem-string',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\n  http: [x]\n`,
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-uri-string',
    kind: 'VirtualService',
    body: vsRoute('match: [{uri: "/a"}]'),
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-source-labels-list',
    kind: 'VirtualService',
    body: vsRoute('match: [{sourceLabels: [a]}]'),
    want: F + 'json: cannot unmarshal array into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-source-labels-bool',
    kind: 'VirtualService',
    body: vsRoute('match: [{sourceLabels: {app: true}}]'),
    want: F + 'json: cannot unmarshal bool into Go struct field VirtualService.spec of type string',
    go: SCALAR,
  },
  {
    id: 'vs-headers-set-number',
    kind: 'VirtualService',
    body: vsRoute('headers: {request: {set: {a: 1}}}'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type string',
    go: SCALAR,
  },
  {
    id: 'gw-selector-bool',
    kind: 'Gateway',
    body: `${md}spec:\n  selector: {istio: true}\n`,
    want: F + 'json: cannot unmarshal bool into Go struct field Gateway.spec of type string',
    go: SCALAR,
  },
  {
    id: 'dr-subset-labels-number',
    kind: 'DestinationRule',
    body: `${md}spec:\n  host: a\n  subsets: [{name: v1, labels: {version: 1}}]\n`,
    want: F + 'json: cannot unmarshal number into Go struct field DestinationRule.spec of type string',
    go: SCALAR,
  },
  {
    id: 'ap-principals-string',
    kind: 'AuthorizationPolicy',
    body: `${md}spec:\n  rules:\n  - from:\n    - source: {principals: a}\n`,
    want: F + 'json: cannot unmarshal string into Go struct field AuthorizationPolicy.spec of type []json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'ef-target-refs',
    kind: 'EnvoyFilter',
    body: `${md}spec:\n  targetRefs: {kind: Gateway}\n`,
    want: F + 'json: cannot unmarshal object into Go struct field EnvoyFilter.spec of type []json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'tel-providers-string',
    kind: 'Telemetry',
    body: `${md}spec:\n  tracing:\n  - providers: zipkin\n`,
    want: F + 'json: cannot unmarshal string into Go struct field Telemetry.spec of type []json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'se-endpoint-ports-quoted',
    kind: 'ServiceEntry',
    body: `${md}spec:\n  hosts: [a.com]\n  endpoints: [{address: 1.1.1.1, ports: {http: "8080"}}]\n`,
    want: undefined,
    go: SCALAR,
  },
  {
    id: 'se-endpoint-ports-abc',
    kind: 'ServiceEntry',
    body: `${md}spec:\n  hosts: [a.com]\n  endpoints: [{address: 1.1.1.1, ports: {http: abc}}]\n`,
    want: F + "invalid character 'a' looking for beginning of value",
    go: TRIM,
  },
  {
    id: 'pa-port-level-ok',
    kind: 'PeerAuthentication',
    body: `${md}spec:\n  selector: {matchLabels: {app: a}}\n  portLevelMtls:\n    "8080": {mode: DISABLE}\n`,
    want: undefined,
    go: MAPKEY,
  },
  {
    id: 'pa-port-level-key-abc',
    kind: 'PeerAuthentication',
    body: `${md}spec:\n  selector: {matchLabels: {app: a}}\n  portLevelMtls:\n    abc: {mode: DISABLE}\n`,
    want: F + "invalid character 'a' looking for beginning of value",
    go: MAPKEY,
  },
  {
    id: 'pa-port-level-key-neg',
    kind: 'PeerAuthentication',
    body: `${md}spec:\n  selector: {matchLabels: {app: a}}\n  portLevelMtls:\n    "-1": {mode: DISABLE}\n`,
    want: F + 'json: cannot unmarshal number -1 into Go struct field PeerAuthentication.spec of type uint32',
    go: MAPKEY,
  },
  { id: 'vs-oneof-twice', kind: 'VirtualService', body: vsRoute('match: [{uri: {exact: a, prefix: b}}]'), want: undefined, go: FIELDS },
  {
    id: 'tel-tag-oneof-both',
    kind: 'Telemetry',
    body: `${md}spec:\n  tracing:\n  - customTags:\n      a: {literal: {value: x}, environment: {name: Y}}\n`,
    want: F + 'json: cannot unmarshal bool into Go struct field Telemetry.spec of type string',
    go: FIELDS,
  },
  {
    id: 'vs-unknown-fields',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\n  bogus: 1\n  http:\n  - extra: {deep: [1]}\n    route:\n    - destination: {host: a, what: 5}\n`,
    want: undefined,
    go: FIELDS,
  },
  {
    id: 'vs-export-to-snake-bad',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\n  export_to: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type []json.RawMessage',
    go: FIELDS,
  },
  { id: 'vs-export-to-both', kind: 'VirtualService', body: `${md}spec:\n  hosts: [a]\n  export_to: 5\n  exportTo: ["."]\n`, want: undefined, go: FIELDS },
  { id: 'vs-export-to-case', kind: 'VirtualService', body: `${md}spec:\n  hosts: [a]\n  ExportTo: 5\n`, want: undefined, go: FIELDS },
  {
    id: 'vs-field-order',
    kind: 'VirtualService',
    body: `${md}spec:\n  exportTo: [5]\n  gateways: x\n  hosts: [a]\n`,
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type []json.RawMessage',
    go: FIELDS,
  },
  { id: 'te-unknown-ok', kind: 'TrafficExtension', body: `${md}spec:\n  foo: 1\n`, want: undefined, go: FIELDS },
  // spec and status as a whole
  {
    id: 'vs-spec-number',
    kind: 'VirtualService',
    body: `${md}spec: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-spec-list',
    kind: 'VirtualService',
    body: `${md}spec: [a]\n`,
    want: F + 'json: cannot unmarshal array into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'vs-spec-string',
    kind: 'VirtualService',
    body: `${md}spec: abc\n`,
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.spec of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  { id: 'vs-spec-null', kind: 'VirtualService', body: `${md}spec: null\n`, want: undefined, go: `${JSONPB} UnmarshalNext (top-level null)` },
  { id: 'vs-spec-capital', kind: 'VirtualService', body: `${md}Spec: 5\n`, want: undefined, go: META },
  {
    id: 'vs-v1alpha3-timeout',
    kind: 'VirtualService',
    version: 'v1alpha3',
    body: vsRoute('timeout: 5'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type string',
    go: DURATION,
  },
  { id: 'vs-v1beta1-ok', kind: 'VirtualService', version: 'v1beta1', body: vsRoute('timeout: 5s'), want: undefined, go: DURATION },
  {
    id: 'ap-v1beta1-ok',
    kind: 'AuthorizationPolicy',
    version: 'v1beta1',
    body: `${md}spec:\n  action: DENY\n  rules: [{to: [{operation: {ports: ["80"]}}]}]\n`,
    want: undefined,
    go: FIELDS,
  },
  {
    id: 'status-number',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\nstatus: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.status of type map[string]json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'status-observed-gen',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\nstatus:\n  observedGeneration: "x"\n`,
    want: F + "invalid character 'x' looking for beginning of value",
    go: TRIM,
  },
  {
    id: 'status-int64-quoted',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\nstatus:\n  observedGeneration: "-9223372036854775808"\n`,
    want: undefined,
    go: SCALAR,
  },
  {
    id: 'status-int64-over',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\nstatus:\n  observedGeneration: "9223372036854775808"\n`,
    want: F + 'json: cannot unmarshal number 9223372036854775808 into Go struct field VirtualService.status of type int64',
    go: SCALAR,
  },
  {
    id: 'status-int64-float',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: [a]\nstatus:\n  observedGeneration: 2.5\n`,
    want: F + 'json: cannot unmarshal number 2.5 into Go struct field VirtualService.status of type int64',
    go: SCALAR,
  },
  {
    id: 'se-status-bad',
    kind: 'ServiceEntry',
    body: `${md}spec:\n  hosts: [a.com]\nstatus:\n  addresses: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field ServiceEntry.status of type []json.RawMessage',
    go: CONTAINER,
  },
  {
    id: 'spec-hard-then-status-hard',
    kind: 'VirtualService',
    body: `${md}spec:\n  hosts: 5\nstatus: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type []json.RawMessage',
    go: META,
  },
  // google.protobuf.Timestamp (status conditions)
  {
    id: 'status-ts-bad',
    kind: 'VirtualService',
    body: statusTime('"2024-01-02"'),
    want: F + 'bad Timestamp: parsing time "2024-01-02" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "" as "T"',
    go: TIMESTAMP,
  },
  { id: 'status-ts-ok', kind: 'VirtualService', body: statusTime('"2024-01-02T03:04:05.5Z"'), want: undefined, go: TIMESTAMP },
  {
    id: 'ts-no-zone',
    kind: 'VirtualService',
    body: statusTime('"2024-01-02T03:04:05"'),
    want: F + 'bad Timestamp: parsing time "2024-01-02T03:04:05" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "" as "Z07:00"',
    go: TIMESTAMP,
  },
  { id: 'ts-one-digit-hour', kind: 'VirtualService', body: statusTime('"2024-01-02T3:04:05Z"'), want: undefined, go: TIMESTAMP },
  {
    id: 'ts-hour-range',
    kind: 'VirtualService',
    body: statusTime('"2024-01-02T25:04:05Z"'),
    want: F + 'bad Timestamp: parsing time "2024-01-02T25:04:05Z": hour out of range',
    go: TIMESTAMP,
  },
  {
    id: 'ts-extra',
    kind: 'VirtualService',
    body: statusTime('"2024-01-02T03:04:05Zjunk"'),
    want: F + 'bad Timestamp: parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"',
    go: TIMESTAMP,
  },
  {
    id: 'ts-zone-hour',
    kind: 'VirtualService',
    body: statusTime('"2024-01-02T03:04:05+25:00"'),
    want: F + 'bad Timestamp: parsing time "2024-01-02T03:04:05+25:00": time zone offset hour out of range',
    go: TIMESTAMP,
  },
  {
    id: 'ts-month',
    kind: 'VirtualService',
    body: statusTime('"2024-1-02T03:04:05Z"'),
    want: F + 'bad Timestamp: parsing time "2024-1-02T03:04:05Z" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "1-02T03:04:05Z" as "01"',
    go: TIMESTAMP,
  },
  {
    id: 'ts-number',
    kind: 'VirtualService',
    body: statusTime('5'),
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.status of type string',
    go: TIMESTAMP,
  },
  // google.protobuf.Struct / Value
  {
    id: 'ef-patch-value-list',
    kind: 'EnvoyFilter',
    body: ef('{operation: MERGE, value: [1]}'),
    want: F + 'bad StructValue: json: cannot unmarshal array into Go value of type map[string]json.RawMessage',
    go: STRUCT,
  },
  {
    id: 'ef-patch-value-string',
    kind: 'EnvoyFilter',
    body: ef('{operation: MERGE, value: x}'),
    want: F + 'bad StructValue: json: cannot unmarshal string into Go value of type map[string]json.RawMessage',
    go: STRUCT,
  },
  { id: 'ef-patch-value-ok', kind: 'EnvoyFilter', body: ef('{operation: MERGE, value: {a: [1, {b: null}, "s", true], c: 1.5}}'), want: undefined, go: STRUCT },
  { id: 'ef-value-null', kind: 'EnvoyFilter', body: ef('{operation: MERGE, value: null}'), want: undefined, go: STRUCT },
  {
    id: 'wasm-config-list',
    kind: 'WasmPlugin',
    body: `${md}spec:\n  url: oci://a\n  pluginConfig: [1]\n`,
    want: F + 'bad StructValue: json: cannot unmarshal array into Go value of type map[string]json.RawMessage',
    go: STRUCT,
  },
  {
    id: 'wasm-config-nested-ok',
    kind: 'WasmPlugin',
    body: `${md}spec:\n  url: oci://a\n  pluginConfig: {a: [1, "x", null, {b: true}]}\n`,
    want: undefined,
    go: STRUCT,
  },
  {
    id: 'vs-infinite',
    kind: 'VirtualService',
    body: vsRoute('mirrorPercentage: {value: .inf}'),
    want: 'failed converting YAML to JSON: json: unsupported value: +Inf',
    go: YAML2JSON,
  },
  // metadata (Kubernetes ObjectMeta) and the order of errors
  {
    id: 'meta-name-number',
    kind: 'VirtualService',
    body: `metadata:\n  name: 5\nspec:\n  hosts: [a]\n`,
    want: F + 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    go: META,
  },
  {
    id: 'meta-labels-number',
    kind: 'VirtualService',
    body: meta('  labels: {a: 1}\n'),
    want: F + 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    go: META,
  },
  {
    id: 'meta-labels-list',
    kind: 'VirtualService',
    body: meta('  labels: [a]\n'),
    want: F + 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    go: META,
  },
  { id: 'meta-labels-null-value', kind: 'VirtualService', body: meta('  labels: {a: null}\n'), want: undefined, go: META },
  {
    id: 'meta-string',
    kind: 'VirtualService',
    body: `metadata: abc\nspec:\n  hosts: [a]\n`,
    want: F + 'json: cannot unmarshal string into Go struct field VirtualService.metadata of type v1.ObjectMeta',
    go: META,
  },
  { id: 'meta-null', kind: 'VirtualService', body: `metadata: null\nspec:\n  hosts: [a]\n`, want: undefined, go: META },
  {
    id: 'meta-generation-string',
    kind: 'VirtualService',
    body: meta('  generation: "5"\n'),
    want: F + 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64',
    go: META,
  },
  {
    id: 'meta-generation-float',
    kind: 'VirtualService',
    body: meta('  generation: 1.5\n'),
    want: F + 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64',
    go: META,
  },
  {
    id: 'meta-uid-number',
    kind: 'VirtualService',
    body: meta('  uid: 5\n'),
    want: F + 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID',
    go: META,
  },
  {
    id: 'meta-finalizers-string',
    kind: 'VirtualService',
    body: meta('  finalizers: a\n'),
    want: F + 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string',
    go: META,
  },
  {
    id: 'meta-owner-ref',
    kind: 'VirtualService',
    body: meta('  ownerReferences: [{name: 5}]\n'),
    want: F + 'json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.name of type string',
    go: META,
  },
  {
    id: 'meta-owner-ref-controller',
    kind: 'VirtualService',
    body: meta('  ownerReferences: [{name: a, controller: "yes"}]\n'),
    want: F + 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool',
    go: META,
  },
  {
    id: 'meta-managed-fieldsv1',
    kind: 'VirtualService',
    body: meta('  managedFields: [{manager: a, operation: 5, fieldsV1: [1]}]\n'),
    want: F + 'json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.operation of type v1.ManagedFieldsOperationType',
    go: META,
  },
  { id: 'meta-Name-capital', kind: 'VirtualService', body: meta('  Name: 5\n'), want: undefined, go: META },
  {
    id: 'meta-creation-number',
    kind: 'VirtualService',
    body: meta('  creationTimestamp: 5\n'),
    want: F + 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
    go: METATIME,
  },
  {
    id: 'meta-creation-bad',
    kind: 'VirtualService',
    body: meta('  creationTimestamp: yesterday\n'),
    want: F + 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    go: METATIME,
  },
  { id: 'meta-creation-ok', kind: 'VirtualService', body: meta('  creationTimestamp: "2024-01-02T03:04:05Z"\n'), want: undefined, go: METATIME },
  { id: 'meta-creation-frac', kind: 'VirtualService', body: meta('  creationTimestamp: "2024-01-02T03:04:05.123+01:00"\n'), want: undefined, go: METATIME },
  {
    id: 'meta-creation-month',
    kind: 'VirtualService',
    body: meta('  creationTimestamp: "2024-13-02T03:04:05Z"\n'),
    want: F + 'parsing time "2024-13-02T03:04:05Z": month out of range',
    go: METATIME,
  },
  {
    id: 'meta-creation-day',
    kind: 'VirtualService',
    body: meta('  creationTimestamp: "2023-02-29T03:04:05Z"\n'),
    want: F + 'parsing time "2023-02-29T03:04:05Z": day out of range',
    go: METATIME,
  },
  {
    id: 'meta-managed-time',
    kind: 'VirtualService',
    body: meta('  managedFields: [{manager: a, time: "x"}]\n'),
    want: F + 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"',
    go: METATIME,
  },
  {
    id: 'meta-and-spec-error',
    kind: 'VirtualService',
    body: `metadata:\n  name: 5\nspec:\n  hosts: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.spec of type []json.RawMessage',
    go: META,
  },
  {
    id: 'meta-two-errors',
    kind: 'VirtualService',
    body: `metadata:\n  name: 5\n  labels: {a: 1}\n  annotations: {b: 2}\nspec:\n  hosts: [a]\n`,
    want: F + 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string',
    go: META,
  },
  {
    id: 'status-meta-soft-then-status-hard',
    kind: 'VirtualService',
    body: `metadata:\n  name: 5\nspec:\n  hosts: [a]\nstatus: 5\n`,
    want: F + 'json: cannot unmarshal number into Go struct field VirtualService.status of type map[string]json.RawMessage',
    go: META,
  },
  { id: 'top-unknown', kind: 'VirtualService', body: `${md}spec:\n  hosts: [a]\nfoo: {bar: 5}\n`, want: undefined, go: META },
];

describe('istioctlDecodeError matches istioctl analyze --use-kube=false', () => {
  for (const c of CASES) {
    it(`${c.kind} ${c.id} (${c.go})`, () => {
      expect(istioctlDecodeError(c.kind, GROUP[c.kind] as string, loadYaml(doc(c)))).toBe(c.want);
    });
  }

  it('covers every rule class with accepted and rejected documents', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.filter((c) => c.want === undefined).length).toBeGreaterThan(20);
    expect(CASES.filter((c) => c.want !== undefined).length).toBeGreaterThan(20);
    expect(new Set(CASES.map((c) => c.kind)).size).toBe(15);
  });

  it('gives undefined for kinds whose spec is not an istio.io/api message', () => {
    expect(istioctlDecodeError('Service', '', { spec: 5 })).toBeUndefined();
    expect(istioctlDecodeError('HTTPRoute', 'gateway.networking.k8s.io', { spec: 5 })).toBeUndefined();
  });
});

// ---------------------------------------------------------------- property

/** The objects of a document that are messages or ObjectMeta: where an unknown key is ignored. */
function messageNodes(docObj: Record<string, unknown>, specMessage: string, statusMessage: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [docObj];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(docObj.metadata)) out.push(docObj.metadata);
  const visit = (name: string, v: unknown) => {
    const fields = MESSAGES[name];
    if (!fields || !isObj(v)) return;
    out.push(v);
    for (const f of fields) {
      const value = v[f[1] === 0 ? f[0] : f[1]] ?? v[f[0]];
      const type = f[2] === 'map' ? (f[4] as string) : f[3];
      if (f[2] === 'repeated' && Array.isArray(value)) for (const e of value) visit(type, e);
      else if (f[2] === 'map' && isObj(value)) for (const e of Object.values(value)) visit(type, e);
      else visit(type, value);
    }
  };
  visit(specMessage, docObj.spec);
  visit(statusMessage, docObj.status);
  return out;
}

const SPEC_OF: Record<string, [string, string]> = {
  VirtualService: ['istio.networking.v1alpha3.VirtualService', 'istio.meta.v1alpha1.IstioStatus'],
  DestinationRule: ['istio.networking.v1alpha3.DestinationRule', 'istio.meta.v1alpha1.IstioStatus'],
  Gateway: ['istio.networking.v1alpha3.Gateway', 'istio.meta.v1alpha1.IstioStatus'],
  ServiceEntry: ['istio.networking.v1alpha3.ServiceEntry', 'istio.networking.v1alpha3.ServiceEntryStatus'],
  Sidecar: ['istio.networking.v1alpha3.Sidecar', 'istio.meta.v1alpha1.IstioStatus'],
  EnvoyFilter: ['istio.networking.v1alpha3.EnvoyFilter', 'istio.meta.v1alpha1.IstioStatus'],
  WorkloadEntry: ['istio.networking.v1alpha3.WorkloadEntry', 'istio.meta.v1alpha1.IstioStatus'],
  WorkloadGroup: ['istio.networking.v1alpha3.WorkloadGroup', 'istio.meta.v1alpha1.IstioStatus'],
  ProxyConfig: ['istio.networking.v1beta1.ProxyConfig', 'istio.meta.v1alpha1.IstioStatus'],
  AuthorizationPolicy: ['istio.security.v1beta1.AuthorizationPolicy', 'istio.meta.v1alpha1.IstioStatus'],
  PeerAuthentication: ['istio.security.v1beta1.PeerAuthentication', 'istio.meta.v1alpha1.IstioStatus'],
  RequestAuthentication: ['istio.security.v1beta1.RequestAuthentication', 'istio.meta.v1alpha1.IstioStatus'],
  Telemetry: ['istio.telemetry.v1alpha1.Telemetry', 'istio.meta.v1alpha1.IstioStatus'],
  WasmPlugin: ['istio.extensions.v1alpha1.WasmPlugin', 'istio.meta.v1alpha1.IstioStatus'],
  TrafficExtension: ['istio.extensions.v1alpha1.TrafficExtension', 'istio.meta.v1alpha1.IstioStatus'],
};

describe('istioctlDecodeError properties', () => {
  const accepted = CASES.filter((c) => c.want === undefined);
  // Keys no proto field, ObjectMeta field or top-level field is named: they hold a '-'.
  const unknownKey = fc.string({ maxLength: 8 }).map((s) => `x-${s}`);
  const value = fc.jsonValue({ maxDepth: 3 });

  it('a document istioctl decodes stays decoded when unknown fields are added to any of its messages', () => {
    fc.assert(
      fc.property(fc.constantFrom(...accepted), fc.array(fc.tuple(fc.nat(), unknownKey, value), { minLength: 1, maxLength: 6 }), (c, additions) => {
        const d = loadYaml(doc(c)) as Record<string, unknown>;
        const [spec, status] = SPEC_OF[c.kind] as [string, string];
        const nodes = messageNodes(d, spec, status);
        for (const [at, key, v] of additions) (nodes[at % nodes.length] as Record<string, unknown>)[key] = v;
        expect(istioctlDecodeError(c.kind, GROUP[c.kind] as string, d)).toBeUndefined();
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});
