// What the Kubernetes API server refuses (the CRD schema layer and duplicate keys) is reported
// under our own code, MWB-API-SERVER-REJECTS, never as IST0106: istioctl decodes with legacy
// jsonpb and runs only Istio's webhook validation, so it never reports these.
//
// The expected reasons are the API server's wording, not our output:
// - types: kube-openapi pkg/validation/errors `%s in body must be of type %s: %q`, wrapped by
//   apimachinery's field.Invalid (`<path>: Invalid value: "<type>": …`) as apiextensions-apiserver
//   reports a structural schema failure (a null where the schema is not nullable is the type "null");
// - enums: apimachinery pkg/util/validation/field/errors.go, field.NotSupported
//   (`Unsupported value: "STRICT": supported values: "DISABLE", …`);
// - unknown fields: strict field validation, sigs.k8s.io/json's `unknown field "<path>"`;
// - duplicate keys: the API server's strict YAML decoding, k8s.io/apimachinery@v0.36.1
//   pkg/runtime/serializer/json/json.go (yaml.YAMLToJSONStrict of the body, wrapped by
//   runtime.NewStrictDecodingError, pkg/runtime/error.go: `strict decoding error: `) and go-yaml
//   v2's decoder (go.yaml.in/yaml/v2 decode.go setMapIndex: `line %d: key %#v already set in map`,
//   the line of the later value; yaml.go TypeError: `yaml: unmarshal errors:\n  `). Checked with
//   that code: a VirtualService repeating `hosts:` gives `strict decoding error: yaml: unmarshal
//   errors:\n  line 9: key "hosts" already set in map`. (kubectl apply -f itself converts the YAML
//   to JSON with the non-strict reader first, cli-runtime's StreamVisitor, and sends the later value.)
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../../src/core/analysis/settings.ts';
import { messageByCode, OWN_MESSAGES } from '../../src/core/analysis/messages.ts';
import { documentationUrl } from '../../src/core/analysis/format/json.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';
import { cli } from '../cli/helpers.ts';

const CODE = 'MWB-API-SERVER-REJECTS';
const REJECTS = 'The API server would reject this object (kubectl apply fails): ';

async function analyze(files: Record<string, string>, settings: Partial<AnalysisSettings> = {}) {
  const w = new WorkspaceAnalyzer();
  w.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const r = await w.run({ ...defaultAnalysisSettings(), ...settings }, { fixes: false });
  if (r === 'canceled') throw new Error('canceled');
  return r;
}

const vs = (name: string, http: string) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ${name}
  namespace: default
spec:
  hosts: [a]
  http:
${http}`;

interface Example {
  name: string;
  text: string;
  /** The line of the offending field (where the squiggle goes). */
  line: number;
  reason: string;
}

const EXAMPLES: Example[] = [
  {
    name: 'number: "80"',
    text: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: dr
  namespace: default
spec:
  host: a
  trafficPolicy:
    portLevelSettings:
    - port:
        number: "80"
      connectionPool: {tcp: {maxConnections: 1}}
`,
    line: 11,
    reason:
      'spec.trafficPolicy.portLevelSettings[0].port.number: Invalid value: "string": spec.trafficPolicy.portLevelSettings[0].port.number in body must be of type integer: "string"',
  },
  {
    name: 'weight: "50"',
    text: vs(
      'weight',
      `  - route:
    - destination: {host: a}
      weight: "50"
    - destination: {host: b}
      weight: 50
`,
    ),
    line: 11,
    reason: 'spec.http[0].route[0].weight: Invalid value: "string": spec.http[0].route[0].weight in body must be of type integer: "string"',
  },
  {
    name: 'mode: 1',
    text: `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: pa
  namespace: default
spec:
  mtls:
    mode: 1
`,
    line: 8,
    reason: 'spec.mtls.mode: Invalid value: "integer": spec.mtls.mode in body must be of type string: "integer"',
  },
  {
    name: 'a null field',
    text: vs(
      'nulled',
      `  - route:
    - destination: {host: a}
    timeout: null
`,
    ),
    line: 11,
    reason: 'spec.http[0].timeout: Invalid value: "null": spec.http[0].timeout in body must be of type string: "null"',
  },
  {
    name: 'an unknown field',
    text: vs(
      'unknown',
      `  - route:
    - destination: {host: a}
      wieght: 100
`,
    ),
    line: 11,
    reason: 'unknown field "spec.http[0].route[0].wieght"',
  },
  {
    name: 'tls.mode: STRICT',
    text: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: strict
  namespace: default
spec:
  host: a
  trafficPolicy:
    tls:
      mode: STRICT
`,
    line: 10,
    reason: 'spec.trafficPolicy.tls.mode: Unsupported value: "STRICT": supported values: "DISABLE", "SIMPLE", "MUTUAL", "ISTIO_MUTUAL"',
  },
  {
    name: 'timeout: 5',
    text: vs(
      'timeout',
      `  - route:
    - destination: {host: a}
    timeout: 5
`,
    ),
    line: 11,
    reason: 'spec.http[0].timeout: Invalid value: "integer": spec.http[0].timeout in body must be of type string: "integer"',
  },
  {
    name: 'ignoreUriCase: "true"',
    text: vs(
      'ignorecase',
      `  - match:
    - uri: {prefix: /a}
      ignoreUriCase: "true"
    route:
    - destination: {host: a}
`,
    ),
    line: 11,
    reason: 'spec.http[0].match[0].ignoreUriCase: Invalid value: "string": spec.http[0].match[0].ignoreUriCase in body must be of type boolean: "string"',
  },
];

const inFile = (ds: readonly Diagnostic[], file: string) => ds.filter((d) => d.file === file);

describe('MWB-API-SERVER-REJECTS: what the API server refuses, never IST0106', () => {
  it('is our own Error message type: suppressible, with no istio.io page', () => {
    const t = messageByCode(CODE);
    expect(t).toBe(OWN_MESSAGES.ApiServerRejects);
    expect(t?.level).toBe('Error');
    expect(t?.name).toBe('ApiServerRejects');
    expect(documentationUrl({ code: CODE, docUrl: undefined })).toBeUndefined();
  });

  for (const ex of EXAMPLES) {
    it(`${ex.name}: the API server's reason in workbench mode, nothing with schemaFindings false`, async () => {
      const file = 'f.yaml';
      const on = inFile((await analyze({ [file]: ex.text })).diagnostics, file);
      const ours = on.filter((d) => d.code === CODE);
      expect(ours.map((d) => [d.level, d.message])).toEqual([['Error', `${REJECTS}${ex.reason}`]]);
      expect(ours[0]?.range?.startLine).toBe(ex.line);
      expect(ours[0]?.docUrl).toBeUndefined();
      // No message at all is IST0106 (the schema layer's findings are not Istio's).
      expect(on.filter((d) => d.code === 'IST0106')).toEqual([]);
      const off = inFile((await analyze({ [file]: ex.text }, { schemaFindings: false })).diagnostics, file);
      expect(off.filter((d) => d.code === CODE || d.code === 'IST0106')).toEqual([]);
    });
  }

  it('leaves the webhook errors IST0106 (and its warnings IST0133)', async () => {
    const text =
      'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: g\n  namespace: default\nspec:\n  selector: {istio: ingressgateway}\n  servers:\n  - hosts: ["*"]\n';
    for (const schemaFindings of [true, false]) {
      const ds = inFile((await analyze({ 'g.yaml': text }, { schemaFindings })).diagnostics, 'g.yaml');
      expect(ds.filter((d) => d.code === 'IST0106').map((d) => d.message)).toEqual(['Schema validation error: port is required']);
      expect(ds.filter((d) => d.code === CODE)).toEqual([]);
    }
  });
});

describe('duplicate mapping keys', () => {
  const text = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: dup
  namespace: default
spec:
  hosts:
  - a
  hosts:
  - b
  http:
  - route:
    - destination: {host: b}
`;
  // The text go-yaml v2's strict decoder gives for this document (the later value is on line 10).
  const STRICT = 'strict decoding error: yaml: unmarshal errors:\n  line 10: key "hosts" already set in map';

  it('are read with the later value and reported on the earlier key, not as a file that cannot be parsed', async () => {
    const r = await analyze({ 'dup.yaml': text });
    expect(r.resources.find((x) => x.name === 'dup')?.body.spec).toMatchObject({ hosts: ['b'] });
    const ds = inFile(r.diagnostics, 'dup.yaml');
    expect(ds.filter((d) => d.source === 'parser')).toEqual([]);
    const ours = ds.filter((d) => d.code === CODE);
    expect(ours.map((d) => [d.level, d.origin, d.message])).toEqual([
      [
        'Error',
        'VirtualService default/dup',
        `The API server would reject this object (as YAML with strict field validation; kubectl apply -f keeps the later value): ${STRICT}`,
      ],
    ]);
    // The squiggle is on the earlier `hosts:` (line 7), whose value is dropped.
    expect(ours[0]?.range).toMatchObject({ startLine: 7, endLine: 7 });
  });

  it('give no message at all with schemaFindings false (istioctl takes the later value silently)', async () => {
    const r = await analyze(
      {
        'dup.yaml': text,
        'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  name: t\n  namespace: default\nspec:\n  ports: [{name: http, port: 80}]\n',
      },
      { schemaFindings: false },
    );
    expect(r.diagnostics.filter((d) => d.code === CODE || d.code === 'MWB-YAML-DUPLICATE-KEY')).toEqual([]);
    expect(r.resources.find((x) => x.kindId.endsWith('/Service') && x.namespace === 'default')?.name).toBe('t');
  });

  it('in a JSON body, name the field path as sigs.k8s.io/json does', async () => {
    const json =
      '{"apiVersion": "networking.istio.io/v1", "kind": "VirtualService", "metadata": {"name": "j", "namespace": "default"},\n "spec": {"hosts": ["a"], "http": [{"route": [{"destination": {"host": "a"}}], "timeout": "1s", "timeout": "2s"}]}}\n';
    const ds = inFile((await analyze({ 'j.json': json })).diagnostics, 'j.json').filter((d) => d.code === CODE);
    expect(ds.map((d) => d.message)).toEqual([
      'The API server would reject this object (as YAML with strict field validation; kubectl apply -f keeps the later value): strict decoding error: duplicate field "spec.http[0].timeout"',
    ]);
  });

  it('do not make the CLI exit 65; the message can be suppressed with -S like any other', async () => {
    const r = await cli(['analyze', '-'], { stdin: text });
    expect(r.code).toBe(79);
    expect(r.stderr).not.toContain('Error(s) adding files');
    expect(r.stdout).toContain(`Error [${CODE}] (VirtualService default/dup -:1) The API server would reject this object (as YAML`);
    const s = await cli(['analyze', '-S', `${CODE}=VirtualService default/dup`, '-'], { stdin: text });
    expect(s.code).toBe(0);
    expect(s.stderr).not.toContain('unknown message code');
    expect(s.stdout).not.toContain(CODE);
  });
});
