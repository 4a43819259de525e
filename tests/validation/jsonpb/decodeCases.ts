// What the decode cases share: the Go sources each case names, the API group and default version
// of each kind, document builders. See decode.test.ts for how the expected strings were obtained.

// Go sources, relative to the Go module cache (~/go/pkg/mod) or GOROOT/src.
export const STORE = 'istio.io/istio/pilot/pkg/config/file/store.go (parseChunk)';
export const JSONPB = 'github.com/golang/protobuf@v1.5.4/jsonpb/decode.go';
export const SCALAR = `${JSONPB} unmarshalSingularValue -> encoding/json/decode.go literalStore (UnmarshalTypeError), context from sigs.k8s.io/json internal/golang/encoding/json/decode.go addErrorContext`;
export const TRIM = `${JSONPB} unmarshalSingularValue (trimQuote) -> encoding/json/scanner.go (syntax error)`;
export const ENUM = `${JSONPB} unmarshalSingularValue (EnumKind)`;
export const CONTAINER = `${JSONPB} unmarshalMessage/unmarshalValue json.Unmarshal into map[string]json.RawMessage or []json.RawMessage, context from sigs.k8s.io/json addErrorContext`;
export const FIELDS = `${JSONPB} unmarshalMessage (proto name, then json name; unknown fields ignored with AllowUnknownFields)`;
export const DURATION = `${JSONPB} unmarshalMessage (Duration) -> time/format.go ParseDuration`;
export const TIMESTAMP = `${JSONPB} unmarshalMessage (Timestamp) -> time/format.go parse`;
export const STRUCT = `${JSONPB} unmarshalMessage (Struct, Value)`;
export const WRAPPER = `${JSONPB} unmarshalMessage (wrappers) -> unmarshalSingularValue`;
export const BYTES = 'encoding/json/decode.go literalStore ([]byte: encoding/base64 CorruptInputError)';
export const MAPKEY = `${JSONPB} unmarshalValue (non-string map key)`;
export const META =
  'sigs.k8s.io/json internal/golang/encoding/json/decode.go object/literalStore (case-sensitive), k8s.io/apimachinery/pkg/apis/meta/v1/types.go ObjectMeta';
export const METATIME = 'k8s.io/apimachinery/pkg/apis/meta/v1/time.go Time.UnmarshalJSON -> time/format.go parse';
export const YAML2JSON = `sigs.k8s.io/yaml@v1.6.0 yaml.go YAMLToJSON (json.Marshal), ${STORE}`;

export const GROUP: Record<string, string> = {
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
export const DEFAULT_VERSION: Record<string, string> = {
  ProxyConfig: 'v1beta1',
  EnvoyFilter: 'v1alpha3',
  WasmPlugin: 'v1alpha1',
  TrafficExtension: 'v1alpha1',
};

export interface Case {
  id: string;
  kind: string;
  body: string;
  version?: string;
  want: string | undefined;
  go: string;
}

export const md = 'metadata:\n  name: x\n  namespace: default\n';
export const vsRoute = (r: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - ${r}\n    route:\n    - destination: {host: a}\n`;
export const vsDest = (d: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a, ${d}}\n`;
export const vsWeight = (w: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a}\n      weight: ${w}\n`;
export const vsBytes = (b: string) => `${md}spec:\n  hosts: [a]\n  http:\n  - directResponse: {status: 200, body: {bytes: ${b}}}\n`;
export const dr = (tp: string) => `${md}spec:\n  host: a\n  trafficPolicy:\n    ${tp}\n`;
export const statusTime = (t: string) => `${md}spec:\n  hosts: [a]\nstatus:\n  conditions:\n  - type: Reconciled\n    lastTransitionTime: ${t}\n`;
export const meta = (m: string) => `metadata:\n  name: x\n${m}spec:\n  hosts: [a]\n`;
export const ef = (p: string) => `${md}spec:\n  configPatches:\n  - applyTo: CLUSTER\n    patch: ${p}\n`;
export const F = 'failed parsing JSON for built-in type: ';

export function doc(c: Case): string {
  return `apiVersion: ${GROUP[c.kind]}/${c.version ?? DEFAULT_VERSION[c.kind] ?? 'v1'}\nkind: ${c.kind}\n${c.body}`;
}
