// Objects kubectl refuses because a string map (labels, annotations, selectors, ConfigMap
// data) holds a value YAML turned into something else: reported on the value, left out of
// the analysis as istioctl leaves them out.
import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { STRING_EXPECTED_CODE } from '../../src/core/document/stringMaps.ts';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function model(text: string): WorkspaceModel {
  const m = new WorkspaceModel(kindProblems);
  m.update([{ path: 'f.yaml', text }], []);
  return m;
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('string maps kubectl decodes as map[string]string', () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
        app: web
        version: 1.0
      annotations:
        sidecar.istio.io/inject: yes
    spec:
      containers: [{name: web, image: web}]
`;

  it('reports each non-string value on its own line, says what YAML made of it, and leaves the object out', () => {
    const m = model(deployment);
    expect(m.resources()).toEqual([]);
    const problems = m.problems();
    expect(problems.map((p) => [p.code, p.level, p.line])).toEqual([
      [STRING_EXPECTED_CODE, 'Error', lineOf(deployment, 'version: 1.0')],
      [STRING_EXPECTED_CODE, 'Error', lineOf(deployment, 'inject: yes')],
    ]);
    expect(problems[0]!.message).toBe(
      'kubectl rejects this Deployment: spec.template.metadata.labels.version must be a string, and the unquoted 1.0 is a number. Quote it: "1.0". It was not analyzed.',
    );
    expect(problems[1]!.message).toContain(
      'spec.template.metadata.annotations["sidecar.istio.io/inject"] must be a string, and the unquoted yes is the boolean true (kubectl reads YAML 1.1',
    );
    // The range is the value as written.
    expect(problems[1]!.range).toMatchObject({
      startLine: lineOf(deployment, 'inject: yes'),
      startCol: deployment.split('\n')[lineOf(deployment, 'inject: yes') - 1]!.indexOf('yes') + 1,
    });
  });

  it('checks the name, generateName and namespace too (a number or a YAML 1.1 boolean there is refused alike)', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: 1234\n  namespace: no\nspec:\n  ports: [{port: 80}]\n';
    const m = model(text);
    expect(m.resources()).toEqual([]);
    expect(m.problems().map((p) => [p.code, p.line, p.message])).toEqual([
      [
        STRING_EXPECTED_CODE,
        4,
        'kubectl rejects this Service: metadata.name must be a string, and the unquoted 1234 is a number. Quote it: "1234". It was not analyzed.',
      ],
      [
        STRING_EXPECTED_CODE,
        5,
        expect.stringContaining('metadata.namespace must be a string, and the unquoted no is the boolean false (kubectl reads YAML 1.1'),
      ],
    ]);
    // Quoted, or a mapping where kubectl wants text (refused too), or null (read as empty): as kubectl decodes them.
    expect(
      model(text.replace('name: 1234', 'name: "1234"').replace('namespace: no', "namespace: 'no'"))
        .resources()
        .map((r) => `${r.namespace}/${r.name}`),
    ).toEqual(['no/1234']);
    expect(model(text.replace('name: 1234', 'name: {toString: x}').replace('namespace: no', 'namespace: shop')).problems()[0]!.message).toContain(
      'metadata.name must be a string, and the value is a mapping.',
    );
    expect(model(text.replace('name: 1234', 'generateName: web-').replace('namespace: no', 'namespace:')).problems()).toEqual([]);
    // Istio's own kinds are left to the schema layer (MWB-API-SERVER-REJECTS), as for their labels.
    expect(model('apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r, namespace: n}\nspec: {host: r}\n').problems()).toEqual([]);
  });

  it('accepts quoted values and nulls, and checks ConfigMap data, Service selectors and List items', () => {
    expect(
      model(deployment.replace('version: 1.0', 'version: "1.0"').replace('inject: yes', "inject: 'yes'"))
        .resources()
        .map((r) => r.name),
    ).toEqual(['web']);
    expect(model('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels: {team: }\n').problems()).toEqual([]);
    const cm = model('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\ndata:\n  ENABLED: on\n  MODE: "on"\n');
    expect(cm.problems().map((p) => [p.line, p.message.split(':')[0]])).toEqual([[5, 'kubectl rejects this ConfigMap']]);
    const svc = model('apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: shop}\nspec:\n  selector: {app: web, tier: [a]}\n');
    expect(svc.problems()[0]!.message).toContain('spec.selector.tier must be a string, and the value is a list.');
    const list = model(
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: b\n    labels: {istio-injection: off}\n',
    );
    expect(list.resources().map((r) => r.name)).toEqual(['a']);
    expect(list.problems().map((p) => p.line)).toEqual([11]);
  });

  it('leaves Istio kinds to the schema layer (MWB-API-SERVER-REJECTS, not IST0106), which keeps them in the analysis', async () => {
    const text =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: v\n  namespace: shop\n  labels: {enabled: yes}\nspec:\n  hosts: [x]\n  http:\n  - route:\n    - destination: {host: x}\n';
    expect(model(text).problems()).toEqual([]);
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'f.yaml', text }], []);
    const r = await w.run(defaultAnalysisSettings(), { fixes: false });
    if (r === 'canceled') throw new Error('canceled');
    expect(r.diagnostics.filter((d) => d.code === 'IST0106')).toEqual([]);
    const schema = r.diagnostics.filter((d) => d.code === 'MWB-API-SERVER-REJECTS');
    expect(schema.map((d) => d.message)).toEqual([
      'The API server would reject this object (kubectl apply fails): metadata.labels[enabled]: Invalid value: "boolean": metadata.labels[enabled] in body must be of type string: "boolean"',
    ]);
  });
});
