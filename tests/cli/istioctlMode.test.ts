// `mesh-workbench analyze --istioctl`: byte for byte what `istioctl analyze --use-kube=false`
// prints. Every expected stdout, stderr and exit code below is istioctl's own output at the
// Istio commit we follow (istio.io/istio v0.0.0-20260827124520-eed52ebb66ad, built by
// `npm run oracle -- build`), run on the same files in the same directory; only the time stamps
// of its log lines are replaced by <TS> (ours are the current time in the same format).
import { describe, expect, it } from 'vitest';
import { analyzeIn, expectIstioctlOutput, filesDir, type IstioctlCase } from './analyzeFiles.ts';

const CASES: IstioctlCase[] = [
  {
    name: 'quoted integers, an unknown field, a numeric enum and a null decode: no message, exit 0',
    files: {
      'lenient.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: reviews\nspec:\n  host: reviews\n  trafficPolicy:\n    connectionPool:\n      tcp:\n        maxConnections: "100"\n    tls:\n      mode: 0\n  unknownField: x\n  exportTo: null\n',
    },
    args: ['lenient.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing lenient.yaml.\n',
    exit: 0,
  },
  {
    name: '`tls.mode: STRICT` and `timeout: 5` cannot be decoded: Error(s) adding files, exit 65',
    files: {
      'strict.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: STRICT\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\nspec:\n  hosts: [reviews]\n  http:\n  - timeout: 5\n    route:\n    - destination:\n        host: reviews\n',
    },
    args: ['strict.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode - skipping\n<TS>\twarn\tfile\terror processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "strict.yaml": 2 errors occurred:\n\t* error processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode\n\t* error processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: 'the same with -o json: the errors, then exit 0',
    files: {
      'strict.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: STRICT\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\nspec:\n  hosts: [reviews]\n  http:\n  - timeout: 5\n    route:\n    - destination:\n        host: reviews\n',
    },
    args: ['-o', 'json', 'strict.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode - skipping\n<TS>\twarn\tfile\terror processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string - skipping\n[]\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "strict.yaml": 2 errors occurred:\n\t* error processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode\n\t* error processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\n',
    exit: 0,
  },
  {
    name: 'errors in several files: one multierror over the files',
    files: {
      'strict.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: STRICT\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\nspec:\n  hosts: [reviews]\n  http:\n  - timeout: 5\n    route:\n    - destination:\n        host: reviews\n',
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
      'badlist.yaml': 'apiVersion: v1\nkind: List\nitems:\n  a: b\n',
    },
    args: ['strict.yaml', 'dup.yaml', 'badlist.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode - skipping\n<TS>\twarn\tfile\terror processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string - skipping\n<TS>\twarn\tfile\terror processing badlist.yaml[0]: failed extracting resource chunks from list yaml chunk: failed parsing yamlChunk: malformed items field - skipping\nWarning [IST0128] (DestinationRule default/dr dup.yaml:1) DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr:
      'Error(s) adding files: 2 errors occurred:\n\t* errors parsing content "strict.yaml": 2 errors occurred:\n\t* error processing strict.yaml[0]: failed parsing JSON for built-in type: unknown value "\\"STRICT\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode\n\t* error processing strict.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type string\n\n\n\t* errors parsing content "badlist.yaml": 1 error occurred:\n\t* error processing badlist.yaml[0]: failed extracting resource chunks from list yaml chunk: failed parsing yamlChunk: malformed items field\n\n\n\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: 'a List with a Service item is skipped whole, silently',
    files: {
      'list-svc.yaml':
        'apiVersion: v1\nkind: List\nitems:\n- apiVersion: networking.istio.io/v1\n  kind: DestinationRule\n  metadata:\n    name: dr\n  spec:\n    host: reviews\n    trafficPolicy:\n      portLevelSettings:\n      - port:\n          number: 8080\n        tls:\n          mode: SIMPLE\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: reviews\n  spec:\n    ports:\n    - port: 8080\n',
    },
    args: ['list-svc.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing list-svc.yaml.\n',
    exit: 0,
  },
  {
    name: 'a typed list (VirtualServiceList) is skipped',
    files: {
      'vslist.yaml':
        'apiVersion: networking.istio.io/v1\nkind: VirtualServiceList\nitems:\n- apiVersion: networking.istio.io/v1\n  kind: DestinationRule\n  metadata:\n    name: dr\n  spec:\n    host: reviews\n    trafficPolicy:\n      tls:\n        mode: SIMPLE\n',
    },
    args: ['vslist.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing vslist.yaml.\n',
    exit: 0,
  },
  {
    name: "a List whose items are not a list: istioctl's error",
    files: {
      'badlist.yaml': 'apiVersion: v1\nkind: List\nitems:\n  a: b\n',
    },
    args: ['badlist.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing badlist.yaml[0]: failed extracting resource chunks from list yaml chunk: failed parsing yamlChunk: malformed items field - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "badlist.yaml": 1 error occurred:\n\t* error processing badlist.yaml[0]: failed extracting resource chunks from list yaml chunk: failed parsing yamlChunk: malformed items field\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: 'duplicate keys: the later value is analyzed, no message about them',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['dup.yaml'],
    stdout:
      'Warning [IST0128] (DestinationRule default/dr dup.yaml:1) DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr: '',
    exit: 0,
  },
  {
    name: 'duplicate keys with -o yaml',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-o', 'yaml', 'dup.yaml'],
    stdout:
      "- code: IST0128\n  documentationUrl: https://istio.io/v1.30/docs/reference/config/analysis/ist0128/?ref=istioctl-analyze\n  level: Warning\n  message: 'DestinationRule default/dr in namespace default has TLS mode set to SIMPLE\n    but no caCertificates are set to validate server identity for host: reviews'\n  origin: DestinationRule default/dr\n  reference: dup.yaml:1\n\n",
    stderr: '',
    exit: 0,
  },
  {
    name: '--failure-threshold Warning: exit 79 with -o log',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['--failure-threshold', 'Warning', 'dup.yaml'],
    stdout:
      'Warning [IST0128] (DestinationRule default/dr dup.yaml:1) DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr:
      'Error: Analyzers found issues when analyzing namespace: default.\nSee https://istio.io/v1.30/docs/reference/config/analysis for more information about causes and resolutions.\n',
    exit: 79,
  },
  {
    name: '--failure-threshold Warning: exit 0 with -o json',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-o', 'json', '--failure-threshold', 'Warning', 'dup.yaml'],
    stdout:
      '[\n\t{\n\t\t"code": "IST0128",\n\t\t"documentationUrl": "https://istio.io/v1.30/docs/reference/config/analysis/ist0128/?ref=istioctl-analyze",\n\t\t"level": "Warning",\n\t\t"message": "DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews",\n\t\t"origin": "DestinationRule default/dr",\n\t\t"reference": "dup.yaml:1"\n\t}\n]\n',
    stderr: '',
    exit: 0,
  },
  {
    name: 'without -n or -A only namespace default is reported',
    files: {
      'ns.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\n  namespace: other\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['ns.yaml'],
    stdout:
      'Warning [IST0128] (DestinationRule default/dr ns.yaml:12) DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr: '',
    exit: 0,
  },
  {
    name: '-A reports every namespace',
    files: {
      'ns.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\n  namespace: other\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-A', 'ns.yaml'],
    stdout:
      'Warning [IST0128] (DestinationRule dr ns.yaml:12) DestinationRule dr in namespace  has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\nWarning [IST0128] (DestinationRule other/dr ns.yaml:1) DestinationRule other/dr in namespace other has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr: '',
    exit: 0,
  },
  {
    name: 'an AuthorizationPolicy naming an unknown namespace: no IST0101/IST0127 (the analyzer needs Namespaces and Pods: skipped)',
    files: {
      'authz.yaml':
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: foo\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: foo\n  labels:\n    app: web\nspec:\n  containers:\n  - name: web\n    image: web\n---\napiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata:\n  name: ap\n  namespace: foo\nspec:\n  rules:\n  - from:\n    - source:\n        namespaces: ["nowhere"]\n',
    },
    args: ['authz.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing authz.yaml.\n',
    exit: 0,
  },
  {
    name: 'a VirtualService to a missing host: no IST0101 (DestinationHostAnalyzer needs Services: skipped)',
    files: {
      'vs.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\nspec:\n  ports:\n  - name: http\n    port: 9080\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\nspec:\n  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: ratings\n',
    },
    args: ['vs.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing vs.yaml.\n',
    exit: 0,
  },
  {
    name: '-v lists the skipped analyzers, and every selected one as executed',
    files: {
      'vs.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\nspec:\n  ports:\n  - name: http\n    port: 9080\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\nspec:\n  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: ratings\n',
    },
    args: ['-v', 'vs.yaml'],
    stdout: '\n',
    stderr:
      'Analyzed resources in namespace: default\nSkipped analyzers:\n\t annotations.K8sAnalyzer\n\t auth.AuthorizationPoliciesAnalyzer\n\t conditions.ConditionAnalyzer\n\t deployment.MultiServiceAnalyzer\n\t applicationUID.Analyzer\n\t destinationrule.SubsetSelectPodAnalyzer\n\t gateway.IngressGatewayPortAnalyzer\n\t gateway.SecretAnalyzer\n\t gateway.ConflictingGatewayAnalyzer\n\t injection.Analyzer\n\t injection.ImageAnalyzer\n\t injection.ImageAutoAnalyzer\n\t k8sgateway.SelectorAnalyzer\n\t meshnetworks.MeshNetworksAnalyzer\n\t services.MultiClusterServiceAnalyzer\n\t service.PortNameAnalyzer\n\t sidecar.SelectorAnalyzer\n\t virtualservice.DestinationHostAnalyzer\n\t virtualservice.JWTClaimRouteAnalyzer\n\t webhook.Analyzer\n\t telemetry.SelectorAnalyzer\nExecuted analyzers:\n\t annotations.K8sAnalyzer\n\t authn.BlockedCIDRsAnalyzer\n\t auth.AuthorizationPoliciesAnalyzer\n\t conditions.ConditionAnalyzer\n\t deployment.MultiServiceAnalyzer\n\t applicationUID.Analyzer\n\t destinationrule.CaCertificateAnalyzer\n\t destinationrule.SubsetSelectPodAnalyzer\n\t deprecation.DeprecationAnalyzer\n\t envoyfilter.EnvoyPatchAnalyzer\n\t externalcontrolplane.ExternalControlPlaneAnalyzer\n\t gateway.IngressGatewayPortAnalyzer\n\t gateway.CertificateAnalyzer\n\t gateway.SecretAnalyzer\n\t gateway.ConflictingGatewayAnalyzer\n\t injection.Analyzer\n\t injection.ImageAnalyzer\n\t injection.ImageAutoAnalyzer\n\t k8sgateway.SelectorAnalyzer\n\t k8sgateway.CRDVersionAnalyzer\n\t meshnetworks.MeshNetworksAnalyzer\n\t services.MultiClusterServiceAnalyzer\n\t service.PortNameAnalyzer\n\t sidecar.SelectorAnalyzer\n\t virtualservice.ConflictingMeshGatewayHostsAnalyzer\n\t virtualservice.DestinationHostAnalyzer\n\t virtualservice.DestinationRuleAnalyzer\n\t virtualservice.GatewayAnalyzer\n\t virtualservice.JWTClaimRouteAnalyzer\n\t serviceentry.Analyzer\n\t serviceentry.ConflictingServiceEntryProtocolAnalyzer\n\t webhook.Analyzer\n\t telemetry.ProviderAnalyzer\n\t telemetry.SelectorAnalyzer\n\t telemetry.DefaultSelectorAnalyzer\n\t telemetry.LightstepAnalyzer\n\t schema.ValidationAnalyzer.AuthorizationPolicy\n\t schema.ValidationAnalyzer.DestinationRule\n\t schema.ValidationAnalyzer.EnvoyFilter\n\t schema.ValidationAnalyzer.Gateway\n\t schema.ValidationAnalyzer.PeerAuthentication\n\t schema.ValidationAnalyzer.ProxyConfig\n\t schema.ValidationAnalyzer.RequestAuthentication\n\t schema.ValidationAnalyzer.ServiceEntry\n\t schema.ValidationAnalyzer.Sidecar\n\t schema.ValidationAnalyzer.Telemetry\n\t schema.ValidationAnalyzer.TrafficExtension\n\t schema.ValidationAnalyzer.VirtualService\n\t schema.ValidationAnalyzer.WasmPlugin\n\t schema.ValidationAnalyzer.WorkloadEntry\n\t schema.ValidationAnalyzer.WorkloadGroup\n\t schema.ValidationAnalyzer.MeshNetworks\n\t schema.ValidationAnalyzer.MeshConfig\n\n✔ No validation issues found when analyzing vs.yaml.\n',
    exit: 0,
  },
  {
    name: "-v with --analyzer: All()'s order",
    files: {
      'vs.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\nspec:\n  ports:\n  - name: http\n    port: 9080\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\nspec:\n  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: ratings\n',
    },
    args: ['-v', '--analyzer', 'virtualservice.GatewayAnalyzer', '--analyzer', 'service.PortNameAnalyzer', 'vs.yaml'],
    stdout: '\n',
    stderr:
      'Analyzed resources in namespace: default\nSkipped analyzers:\n\t service.PortNameAnalyzer\nExecuted analyzers:\n\t service.PortNameAnalyzer\n\t virtualservice.GatewayAnalyzer\n\n✔ No validation issues found when analyzing vs.yaml.\n',
    exit: 0,
  },
  {
    name: "YAML syntax errors in go-yaml's words, chunk numbers counting empty chunks",
    files: {
      'syntax.yaml':
        '---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   bad: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: [a, b\n---\n- a\n---\napiVersion: 3\nkind: X\n---\nkind: Foo\n',
    },
    args: ['syntax.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing syntax.yaml[1]: failed converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context - skipping\n<TS>\twarn\tfile\terror processing syntax.yaml[2]: failed converting YAML to JSON: yaml: line 6: did not find expected \',\' or \']\' - skipping\n<TS>\twarn\tfile\terror processing syntax.yaml[3]: failed interpreting jsonChunk: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } - skipping\n<TS>\twarn\tfile\terror processing syntax.yaml[4]: failed interpreting jsonChunk: couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "syntax.yaml": 4 errors occurred:\n\t* error processing syntax.yaml[1]: failed converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context\n\t* error processing syntax.yaml[2]: failed converting YAML to JSON: yaml: line 6: did not find expected \',\' or \']\'\n\t* error processing syntax.yaml[3]: failed interpreting jsonChunk: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }\n\t* error processing syntax.yaml[4]: failed interpreting jsonChunk: couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: 'Kubernetes kinds istioctl reads are decoded as client-go types: the first type error of their string fields and maps',
    files: {
      'kube.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector: {matchLabels: {app: on}}\n  template:\n    metadata: {labels: {app: d, v: 2}}\n    spec:\n      nodeSelector: {x: yes}\n      containers: [{name: c, image: i}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d2\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}, annotations: {a: 1}}\n    spec:\n      nodeSelector: {x: yes}\n      containers: [{name: c, image: i}]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: [a]\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: 12\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: m\n  annotations: {x: true}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  labels: {a: 1.5}\n',
    },
    args: ['kube.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing kube.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal bool into Go struct field LabelSelector.spec.selector.matchLabels of type string - skipping\n<TS>\twarn\tfile\terror processing kube.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.annotations of type string - skipping\n<TS>\twarn\tfile\terror processing kube.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string - skipping\n<TS>\twarn\tfile\terror processing kube.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string - skipping\n<TS>\twarn\tfile\terror processing kube.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string - skipping\n<TS>\twarn\tfile\terror processing kube.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "kube.yaml": 6 errors occurred:\n\t* error processing kube.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal bool into Go struct field LabelSelector.spec.selector.matchLabels of type string\n\t* error processing kube.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.annotations of type string\n\t* error processing kube.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string\n\t* error processing kube.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string\n\t* error processing kube.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string\n\t* error processing kube.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: '-S matches the resource as written: the legacy name.namespace form suppresses nothing',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-S', 'IST0128=DestinationRule dr.default', 'dup.yaml'],
    stdout:
      'Warning [IST0128] (DestinationRule default/dr dup.yaml:1) DestinationRule default/dr in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr: '',
    exit: 0,
  },
  {
    name: '-S with a glob over Kind namespace/name',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-S', 'IST0128=DestinationRule default/*', 'dup.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing dup.yaml.\n',
    exit: 0,
  },
  {
    name: 'a -S value that is not CODE=RESOURCE: a plain error, exit 1',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-S', 'bad', 'dup.yaml'],
    stdout: '',
    stderr: 'Error: bad is not a valid suppression value. See istioctl analyze --help\n',
    exit: 1,
  },
  {
    name: 'an output format istioctl does not have',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['-o', 'sarif', 'dup.yaml'],
    stdout: '',
    stderr: 'Error: sarif not a valid option for format. See istioctl analyze --help\n',
    exit: 64,
  },
  {
    name: 'a bad level',
    files: {
      'dup.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: dr\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: DISABLE\n    tls:\n      mode: SIMPLE\n',
    },
    args: ['--failure-threshold', 'bogus', 'dup.yaml'],
    stdout: '',
    stderr: 'Error: invalid argument "bogus" for "--failure-threshold" flag: invalid level option\n',
    exit: 64,
  },
  {
    name: "more YAML syntax errors: go-yaml counts a parser error's line from 0, a scanner error's from 1",
    files: {
      'syntax2.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: broken\n  labels: [unclosed\nspec: {}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    x: @b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    x: y\n   bad: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n labels: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "a\n  x: b\n',
    },
    args: ['syntax2.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing syntax2.yaml[0]: failed converting YAML to JSON: yaml: line 5: did not find expected ',' or ']' - skipping\n<TS>\twarn\tfile\terror processing syntax2.yaml[1]: failed converting YAML to JSON: yaml: line 6: found character that cannot start any token - skipping\n<TS>\twarn\tfile\terror processing syntax2.yaml[2]: failed converting YAML to JSON: yaml: line 6: did not find expected key - skipping\n<TS>\twarn\tfile\terror processing syntax2.yaml[3]: failed converting YAML to JSON: yaml: line 4: did not find expected key - skipping\n<TS>\twarn\tfile\terror processing syntax2.yaml[4]: failed converting YAML to JSON: yaml: line 4: found character that cannot start any token - skipping\n<TS>\twarn\tfile\terror processing syntax2.yaml[5]: failed converting YAML to JSON: yaml: line 5: found unexpected end of stream - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"syntax2.yaml\": 6 errors occurred:\n\t* error processing syntax2.yaml[0]: failed converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'\n\t* error processing syntax2.yaml[1]: failed converting YAML to JSON: yaml: line 6: found character that cannot start any token\n\t* error processing syntax2.yaml[2]: failed converting YAML to JSON: yaml: line 6: did not find expected key\n\t* error processing syntax2.yaml[3]: failed converting YAML to JSON: yaml: line 4: did not find expected key\n\t* error processing syntax2.yaml[4]: failed converting YAML to JSON: yaml: line 4: found character that cannot start any token\n\t* error processing syntax2.yaml[5]: failed converting YAML to JSON: yaml: line 5: found unexpected end of stream\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: "a key without its colon, and misindented items (did not find expected key or '-' indicator, by the collection open there)",
    files: {
      'syntax3.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels\n    app: web\n---\napiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: gw\nspec:\n  servers:\n   - port:\n      number: 443\n      name: https\n      protocol: HTTPS\n    tls:\n      mode: SIMPLE\n---\napiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: gw2\nspec:\n  servers:\n  - port:\n      number: 443\n    hosts:\n    - a\n     - b\n',
    },
    args: ['syntax3.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing syntax3.yaml[0]: failed converting YAML to JSON: yaml: line 6: could not find expected \':\' - skipping\n<TS>\twarn\tfile\terror processing syntax3.yaml[1]: failed converting YAML to JSON: yaml: line 10: did not find expected \'-\' indicator - skipping\nError [IST0106] (Gateway default/gw2 syntax3.yaml:21) Schema validation error: domain name "a - b" invalid (label "a - b" invalid)\nError [IST0106] (Gateway default/gw2 syntax3.yaml:21) Schema validation error: invalid protocol "", supported protocols are HTTP, HTTP2, GRPC, GRPC-WEB, MONGO, REDIS, MYSQL, TCP\nError [IST0106] (Gateway default/gw2 syntax3.yaml:21) Schema validation error: port name must be set: number:443\nError [IST0106] (Gateway default/gw2 syntax3.yaml:21) Schema validation error: short names (non FQDN) are not allowed\n',
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"syntax3.yaml\": 2 errors occurred:\n\t* error processing syntax3.yaml[0]: failed converting YAML to JSON: yaml: line 6: could not find expected ':'\n\t* error processing syntax3.yaml[1]: failed converting YAML to JSON: yaml: line 10: did not find expected '-' indicator\n\n\n\nError: Analyzers found issues when analyzing namespace: default.\nSee https://istio.io/v1.30/docs/reference/config/analysis for more information about causes and resolutions.\n",
    exit: 79,
  },
  {
    name: 'a key named like an Object.prototype member (constructor) is an unknown field, not a crash',
    files: {
      'vs.yaml': 'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: proto\nconstructor:\n  constructor: y\nspec:\n  hosts: [a]\n',
    },
    args: ['vs.yaml'],
    stdout: 'Error [IST0106] (VirtualService default/proto vs.yaml:1) Schema validation error: http, tcp or tls must be provided in virtual service\n',
    stderr:
      'Error: Analyzers found issues when analyzing namespace: default.\nSee https://istio.io/v1.30/docs/reference/config/analysis for more information about causes and resolutions.\n',
    exit: 79,
  },
  {
    name: "-A: a namespace-less DestinationRule's subsets are found by a namespace-less VirtualService (GetResourceNameFromHost, no FQDN first)",
    files: {
      'f.yaml':
        'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: details\nspec:\n  hosts:\n  - details\n  http:\n  - route:\n    - destination:\n        host: details\n        subset: v1\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: details\nspec:\n  host: details\n  subsets:\n  - name: v1\n    labels:\n      version: v1\n',
    },
    args: ['-A', 'f.yaml'],
    stdout: '\n',
    stderr: '✔ No validation issues found when analyzing f.yaml.\n',
    exit: 0,
  },
];

describe('analyze --istioctl: what istioctl analyze --use-kube=false prints', () => {
  for (const c of CASES) {
    it(c.name, () => expectIstioctlOutput(c));
  }

  it('stamps its log lines with the current time, as istio logs do', async () => {
    const dir = filesDir({ 'bad.yaml': 'apiVersion: v1\nkind: List\nitems: 3\n' });
    const before = Date.now();
    const got = await analyzeIn(dir, ['--istioctl', 'bad.yaml']);
    const stamp = /^(\S+)\twarn\tfile\t/.exec(got.stdout)?.[1] ?? '';
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);
    expect(Date.parse(stamp)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(stamp)).toBeLessThanOrEqual(Date.now());
  });

  it('the default (workbench) mode still reads every kind: the same files give their findings', async () => {
    const vs = CASES.find((c) => c.args.join(' ') === 'vs.yaml')!;
    const { stdout, exit } = await analyzeIn(filesDir(vs.files), ['vs.yaml']);
    expect(stdout).toContain('Error [IST0101] (VirtualService default/reviews vs.yaml:19) Referenced host not found: "ratings"');
    expect(exit).toBe(79);
  });
});
