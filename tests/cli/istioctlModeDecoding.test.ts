// `mesh-workbench analyze --istioctl`: how istioctl's file reader decodes documents that look
// like JSON (apimachinery yaml.ToJSON), `.nan`/`.inf` (sigs.k8s.io/yaml's json.Marshal) and
// control characters (go-yaml's reader, encoding/json), go-yaml's own line breaks and `%`
// directives, and the typed Kubernetes fields (client-go structs), byte for byte as istioctl
// prints them.
// Every expected stdout, stderr and exit code below is istioctl's own output at the Istio commit
// we follow (istio.io/istio v0.0.0-20260827124520-eed52ebb66ad, built by `npm run oracle --
// build`), run on the same files in the same directory; only the time stamps
// of its log lines are replaced by <TS> (ours are the current time in the same format).
import { describe, it } from 'vitest';
import { expectIstioctlOutput, type IstioctlCase } from './analyzeFiles.ts';

const CASES: IstioctlCase[] = [
  {
    name: "a Helm template (a chunk starting with '{{') is read as JSON: encoding/json's syntax error",
    files: {
      't.yaml':
        '{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n{{- end }}\n---\n{{ if .x }}\napiVersion: networking.istio.io/v1\nkind: Gateway\n',
    },
    args: ['t.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing t.yaml[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '{' looking for beginning of object key string - skipping\n<TS>\twarn\tfile\terror processing t.yaml[1]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '{' looking for beginning of object key string - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"t.yaml\": 2 errors occurred:\n\t* error processing t.yaml[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '{' looking for beginning of object key string\n\t* error processing t.yaml[1]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '{' looking for beginning of object key string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: 'a JSON data file (ratings_data.json): an unquoted key',
    files: {
      'ratings_data.json': '{rating: 5}\n{rating: 4}\n',
    },
    args: ['ratings_data.json'],
    stdout:
      "<TS>\twarn\tfile\terror processing ratings_data.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'r' looking for beginning of object key string - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"ratings_data.json\": 1 error occurred:\n\t* error processing ratings_data.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'r' looking for beginning of object key string\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: 'JSON chunks: text after the value, a control character, a non-ASCII character, a wrong-typed kind in document order, a bad GroupVersion',
    files: {
      'b.json':
        '{"a": 1} x\n---\n{"a": "x\u0002"}\n---\n{"a": "x"é}\n---\n{"a": "x"😀}\n---\n{"a": "tab\there"}\n---\n{"kind": {"a": 1}, "apiVersion": false}\n---\n{"apiVersion": "a/b/c", "kind": "X"}\n---\n{"x": \\y}\n',
    },
    args: ['b.json'],
    stdout:
      "<TS>\twarn\tfile\terror processing b.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'x' after top-level value - skipping\n<TS>\twarn\tfile\terror processing b.json[1]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x02' in string literal - skipping\n<TS>\twarn\tfile\terror processing b.json[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'Ã' after object key:value pair - skipping\n<TS>\twarn\tfile\terror processing b.json[3]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'ð' after object key:value pair - skipping\n<TS>\twarn\tfile\terror processing b.json[4]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\t' in string literal - skipping\n<TS>\twarn\tfile\terror processing b.json[5]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string - skipping\n<TS>\twarn\tfile\terror processing b.json[6]: failed interpreting jsonChunk: unexpected GroupVersion string: a/b/c - skipping\n<TS>\twarn\tfile\terror processing b.json[7]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\\\' looking for beginning of value - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"b.json\": 8 errors occurred:\n\t* error processing b.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'x' after top-level value\n\t* error processing b.json[1]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x02' in string literal\n\t* error processing b.json[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'Ã' after object key:value pair\n\t* error processing b.json[3]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character 'ð' after object key:value pair\n\t* error processing b.json[4]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\t' in string literal\n\t* error processing b.json[5]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string\n\t* error processing b.json[6]: failed interpreting jsonChunk: unexpected GroupVersion string: a/b/c\n\t* error processing b.json[7]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\\\' looking for beginning of value\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: 'a JSON chunk with CRLF line ends: the reader hands encoding/json bare newlines',
    files: {
      'crlf.json': '{\r\n  "apiVersion": "v1",\r\n  "\r\nkind": []\r\n}\r\n',
    },
    args: ['crlf.json'],
    stdout:
      "<TS>\twarn\tfile\terror processing crlf.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\n' in string literal - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"crlf.json\": 1 error occurred:\n\t* error processing crlf.json[0]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\n' in string literal\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: 'a valid JSON chunk of an Istio kind is decoded (an analyzer message), a wrong-typed field is a decoding error',
    files: {
      'dr.json':
        '{"apiVersion": "networking.istio.io/v1", "kind": "DestinationRule", "metadata": {"name": "r"}, "spec": {"host": "reviews", "trafficPolicy": {"tls": {"mode": "SIMPLE"}}}}\n---\n{"apiVersion": "networking.istio.io/v1", "kind": "DestinationRule", "metadata": {"name": "s"}, "spec": {"host": 5}}\n',
    },
    args: ['dr.json'],
    stdout:
      '<TS>\twarn\tfile\terror processing dr.json[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field DestinationRule.spec of type string - skipping\nWarning [IST0128] (DestinationRule default/r dr.json) DestinationRule default/r in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "dr.json": 1 error occurred:\n\t* error processing dr.json[1]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field DestinationRule.spec of type string\n\n\n\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: "YAML keys spelled in another case are TypeMeta's (encoding/json folds case); apiVersion '/' is no group or version",
    files: {
      'k.yaml':
        'APIVERSION: networking.istio.io/v1\nKind: VirtualService\nmetadata:\n  name: x\nspec:\n  hosts: 5\n---\napiVersion: /\nb: 1\n---\napiVersion: http://\nkind: X\n',
    },
    args: ['k.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing k.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type []json.RawMessage - skipping\n<TS>\twarn\tfile\terror processing k.yaml[1]: unable to parse resource with no group, version and kind - skipping\n<TS>\twarn\tfile\terror processing k.yaml[2]: failed interpreting jsonChunk: unexpected GroupVersion string: http:// - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "k.yaml": 3 errors occurred:\n\t* error processing k.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field VirtualService.spec of type []json.RawMessage\n\t* error processing k.yaml[1]: unable to parse resource with no group, version and kind\n\t* error processing k.yaml[2]: failed interpreting jsonChunk: unexpected GroupVersion string: http://\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: ".nan and .inf: sigs.k8s.io/yaml's json.Marshal refuses them, before the kind is looked at (the first in sorted key order)",
    files: {
      'n.yaml':
        'apiVersion: .inf\nkind: Foo\n---\nkind: Service\napiVersion: v1\nb: [-.inf]\na: .NaN\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: d\nspec:\n  host: x\n  z: +.Inf\n---\nkind: List\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  data:\n    a: -.INF\n',
    },
    args: ['n.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing n.yaml[0]: failed converting YAML to JSON: json: unsupported value: +Inf - skipping\n<TS>\twarn\tfile\terror processing n.yaml[1]: failed converting YAML to JSON: json: unsupported value: NaN - skipping\n<TS>\twarn\tfile\terror processing n.yaml[2]: failed converting YAML to JSON: json: unsupported value: +Inf - skipping\n<TS>\twarn\tfile\terror processing n.yaml[3]: failed converting YAML to JSON: json: unsupported value: -Inf - skipping\n\n',
    stderr:
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "n.yaml": 4 errors occurred:\n\t* error processing n.yaml[0]: failed converting YAML to JSON: json: unsupported value: +Inf\n\t* error processing n.yaml[1]: failed converting YAML to JSON: json: unsupported value: NaN\n\t* error processing n.yaml[2]: failed converting YAML to JSON: json: unsupported value: +Inf\n\t* error processing n.yaml[3]: failed converting YAML to JSON: json: unsupported value: -Inf\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: "control characters in a YAML file: go-yaml's reader refuses them (no line); in a JSON chunk encoding/json does",
    files: {
      'c.yaml': 'apiVersion: v1\nkind: Foo\n---\na: b\u0001\n---\n{"a": 1,\n\u0000 "b": 2}\n---\nkind: X\nx: "\u007f"\n',
    },
    args: ['c.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing c.yaml[1]: failed converting YAML to JSON: yaml: control characters are not allowed - skipping\n<TS>\twarn\tfile\terror processing c.yaml[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x00' looking for beginning of object key string - skipping\n<TS>\twarn\tfile\terror processing c.yaml[3]: failed converting YAML to JSON: yaml: control characters are not allowed - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"c.yaml\": 3 errors occurred:\n\t* error processing c.yaml[1]: failed converting YAML to JSON: yaml: control characters are not allowed\n\t* error processing c.yaml[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x00' looking for beginning of object key string\n\t* error processing c.yaml[3]: failed converting YAML to JSON: yaml: control characters are not allowed\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: 'a file the workbench calls binary (NUL bytes) is read document by document, as istioctl reads it',
    files: {
      'bin.yaml':
        'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: r\nspec:\n  host: reviews\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n---\n\u0000\u0000\u0000\u0000\u0001\u0002\u0003\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\n---\n{"kind": \u0000}\n',
    },
    args: ['bin.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing bin.yaml[1]: failed converting YAML to JSON: yaml: control characters are not allowed - skipping\n<TS>\twarn\tfile\terror processing bin.yaml[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x00' looking for beginning of value - skipping\nWarning [IST0128] (DestinationRule default/r bin.yaml:1) DestinationRule default/r in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: reviews\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"bin.yaml\": 2 errors occurred:\n\t* error processing bin.yaml[1]: failed converting YAML to JSON: yaml: control characters are not allowed\n\t* error processing bin.yaml[2]: failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\\x00' looking for beginning of value\n\n\n\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },

  {
    name: "U+0085, U+2028 and U+2029 are line breaks to go-yaml (not to kubeyaml's chunking, nor inside a JSON chunk, which TrimSpace trims them from)",
    files: {
      'l.yaml': 'a: \u2028b\n---\na: b\u0085c: d\n---\napiVersion: v1\u2029kind: X\n---\n{"a": 1}\u2028\n---\nk: \u2028  v\u0085---\u0085x: 1\n',
    },
    args: ['l.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing l.yaml[0]: failed converting YAML to JSON: yaml: line 3: could not find expected ':' - skipping\n<TS>\twarn\tfile\terror processing l.yaml[1]: unable to parse resource with no group, version and kind - skipping\n<TS>\twarn\tfile\terror processing l.yaml[3]: unable to parse resource with no group, version and kind - skipping\n<TS>\twarn\tfile\terror processing l.yaml[4]: unable to parse resource with no group, version and kind - skipping\n\n",
    stderr:
      "Error(s) adding files: 1 error occurred:\n\t* errors parsing content \"l.yaml\": 4 errors occurred:\n\t* error processing l.yaml[0]: failed converting YAML to JSON: yaml: line 3: could not find expected ':'\n\t* error processing l.yaml[1]: unable to parse resource with no group, version and kind\n\t* error processing l.yaml[3]: unable to parse resource with no group, version and kind\n\t* error processing l.yaml[4]: unable to parse resource with no group, version and kind\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn't be parsed.\n",
    exit: 65,
  },
  {
    name: '`subsets: [null]`: legacy jsonpb decodes the null as an empty Subset, so the name is empty',
    files: {
      'dr.yaml': 'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: d\nspec:\n  host: x\n  subsets: [null]\n',
    },
    args: ['dr.yaml'],
    stdout: 'Error [IST0106] (DestinationRule default/d dr.yaml:1) Schema validation error: subset name cannot be empty\n',
    stderr:
      'Error: Analyzers found issues when analyzing namespace: default.\nSee https://istio.io/v1.30/docs/reference/config/analysis for more information about causes and resolutions.\n',
    exit: 79,
  },

  {
    name: 'Kubernetes kinds decoded into client-go structs: a wrong-typed struct, slice, slice element, int32 (a number that is no int32 is quoted) or named string field; the first in sorted key order',
    files: {
      'k.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: x\nspec:\n  replicas: 1\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 1.5\n  template:\n    spec:\n      containers:\n      - name: [a]\n        image: 5\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\nspec:\n  replicas: "2"\n  template:\n    metadata: []\n    spec:\n      serviceAccountName: {a: 1}\n      containers: x\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c\nspec:\n  replicas: 10000000000\n  template:\n    spec:\n      containers:\n      - x\n      - ports:\n        - containerPort: "80"\n          protocol: [TCP]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector: 3\n  template:\n    spec:\n      containers:\n      - ports:\n        - containerPort: 80\n          protocol: [TCP]\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: w\nwebhooks:\n- name: a\n  admissionReviewVersions: {a: 1}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: w2\nwebhooks:\n- name: a\n  admissionReviewVersions: [v1, 3]\n  failurePolicy: {a: 1}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: w3\nwebhooks: [x]\n',
      'pods.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: e\nspec:\n  template:\n    spec:\n      containers:\n      - name: [a]\n        image: 5\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: f\nspec:\n  template:\n    metadata: []\n    spec:\n      serviceAccountName: {a: 1}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: g\nspec:\n  template:\n    spec:\n      serviceAccountName: {a: 1}\n      containers: x\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: h\nspec:\n  template:\n    spec:\n      containers:\n      - x\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: i\nspec:\n  template:\n    spec:\n      containers:\n      - ports:\n        - containerPort: "80"\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n      initContainers:\n      - ports:\n        - protocol: [TCP]\n',
    },
    args: ['k.yaml', 'pods.yaml'],
    stdout:
      '<TS>\twarn\tfile\terror processing k.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field Deployment.metadata of type v1.ObjectMeta - skipping\n<TS>\twarn\tfile\terror processing k.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32 - skipping\n<TS>\twarn\tfile\terror processing k.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32 - skipping\n<TS>\twarn\tfile\terror processing k.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal number 10000000000 into Go struct field DeploymentSpec.spec.replicas of type int32 - skipping\n<TS>\twarn\tfile\terror processing k.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector - skipping\n<TS>\twarn\tfile\terror processing k.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal object into Go struct field MutatingWebhook.webhooks.admissionReviewVersions of type []string - skipping\n<TS>\twarn\tfile\terror processing k.yaml[6]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field MutatingWebhook.webhooks.admissionReviewVersions of type string - skipping\n<TS>\twarn\tfile\terror processing k.yaml[7]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field MutatingWebhookConfiguration.webhooks of type v1.MutatingWebhook - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field PodTemplateSpec.spec.template.metadata of type v1.ObjectMeta - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32 - skipping\n<TS>\twarn\tfile\terror processing pods.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field ContainerPort.spec.template.spec.initContainers.ports.protocol of type v1.Protocol - skipping\n\n',
    stderr:
      'Error(s) adding files: 2 errors occurred:\n\t* errors parsing content "k.yaml": 8 errors occurred:\n\t* error processing k.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field Deployment.metadata of type v1.ObjectMeta\n\t* error processing k.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32\n\t* error processing k.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n\t* error processing k.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal number 10000000000 into Go struct field DeploymentSpec.spec.replicas of type int32\n\t* error processing k.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector\n\t* error processing k.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal object into Go struct field MutatingWebhook.webhooks.admissionReviewVersions of type []string\n\t* error processing k.yaml[6]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field MutatingWebhook.webhooks.admissionReviewVersions of type string\n\t* error processing k.yaml[7]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field MutatingWebhookConfiguration.webhooks of type v1.MutatingWebhook\n\n\n\t* errors parsing content "pods.yaml": 6 errors occurred:\n\t* error processing pods.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string\n\t* error processing pods.yaml[1]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field PodTemplateSpec.spec.template.metadata of type v1.ObjectMeta\n\t* error processing pods.yaml[2]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container\n\t* error processing pods.yaml[3]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container\n\t* error processing pods.yaml[4]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32\n\t* error processing pods.yaml[5]: failed parsing JSON for built-in type: json: cannot unmarshal array into Go struct field ContainerPort.spec.template.spec.initContainers.ports.protocol of type v1.Protocol\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
  {
    name: 'a `%` line inside a document is a directive to go-yaml: it ends the (first, only read) document, or is a scanner error; one at the start needs `---`',
    files: {
      'p.yaml': 'apiVersion: v1\nkind: X\n---\nx: 1\n%YAML 1.1\ny: 2\n---\n%TAG ! tag:x\napiVersion: v1\nkind: Y\n---\na:\n  b: 1\n%foo\n  c: 2\n---\nx:\n%\n',
      'q.yaml':
        '# c\n\na: 1\n%YAML 1.1 x\n---\na: 1\n%YAML x\n---\na: 1\n%YAML 1\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: q\nspec:\n  host: r\n  trafficPolicy: {tls: {mode: SIMPLE}}\n%TAG ! tag:x,2000:\nb: 2\n---\na: 1\n%foo#x\n---\na: 1\n%YAML 1.2 # ok\nb: [\n',
    },
    args: ['p.yaml', 'q.yaml'],
    stdout:
      "<TS>\twarn\tfile\terror processing p.yaml[1]: unable to parse resource with no group, version and kind - skipping\n<TS>\twarn\tfile\terror processing p.yaml[2]: failed converting YAML to JSON: yaml: line 1: did not find expected <document start> - skipping\n<TS>\twarn\tfile\terror processing p.yaml[3]: failed converting YAML to JSON: yaml: line 3: found unknown directive name - skipping\n<TS>\twarn\tfile\terror processing p.yaml[4]: failed converting YAML to JSON: yaml: line 2: could not find expected directive name - skipping\n<TS>\twarn\tfile\terror processing q.yaml[0]: failed converting YAML to JSON: yaml: line 4: did not find expected comment or line break - skipping\n<TS>\twarn\tfile\terror processing q.yaml[1]: failed converting YAML to JSON: yaml: line 2: did not find expected version number - skipping\n<TS>\twarn\tfile\terror processing q.yaml[2]: failed converting YAML to JSON: yaml: line 2: did not find expected digit or '.' character - skipping\n<TS>\twarn\tfile\terror processing q.yaml[4]: failed converting YAML to JSON: yaml: line 2: found unexpected non-alphabetical character - skipping\n<TS>\twarn\tfile\terror processing q.yaml[5]: unable to parse resource with no group, version and kind - skipping\nWarning [IST0128] (DestinationRule default/q q.yaml:12) DestinationRule default/q in namespace default has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: r\n",
    stderr:
      'Error(s) adding files: 2 errors occurred:\n\t* errors parsing content "p.yaml": 4 errors occurred:\n\t* error processing p.yaml[1]: unable to parse resource with no group, version and kind\n\t* error processing p.yaml[2]: failed converting YAML to JSON: yaml: line 1: did not find expected <document start>\n\t* error processing p.yaml[3]: failed converting YAML to JSON: yaml: line 3: found unknown directive name\n\t* error processing p.yaml[4]: failed converting YAML to JSON: yaml: line 2: could not find expected directive name\n\n\n\t* errors parsing content "q.yaml": 5 errors occurred:\n\t* error processing q.yaml[0]: failed converting YAML to JSON: yaml: line 4: did not find expected comment or line break\n\t* error processing q.yaml[1]: failed converting YAML to JSON: yaml: line 2: did not find expected version number\n\t* error processing q.yaml[2]: failed converting YAML to JSON: yaml: line 2: did not find expected digit or \'.\' character\n\t* error processing q.yaml[4]: failed converting YAML to JSON: yaml: line 2: found unexpected non-alphabetical character\n\t* error processing q.yaml[5]: unable to parse resource with no group, version and kind\n\n\n\nError: Some files couldn\'t be parsed.\n',
    exit: 65,
  },
];

describe('analyze --istioctl: JSON-looking chunks, .nan/.inf, control characters and typed Kubernetes fields as istioctl reads them', () => {
  for (const c of CASES) {
    it(c.name, () => expectIstioctlOutput(c));
  }
});
