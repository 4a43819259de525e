import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { schemaFindings, kindFindings } from '../../src/core/validation/schema.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import { evalRule } from '../../src/core/validation/schema/cel.ts';
import { parseRequestUri } from '../../src/core/validation/schema/goUrl.ts';
import type { Schema } from '../../src/core/config/shape.ts';

function check(yaml: string): string[] {
  return schemaFindings(makeResource(jsyaml.load(yaml) as Record<string, unknown>, undefined)).map((f) => `${f.path ?? ''} | ${f.message}`);
}

const vs = (spec: string) => `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n${spec}`;
const dr = (spec: string) => `apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r}\nspec:\n${spec}`;

describe('schema layer: unknown fields', () => {
  it('names a field the CRD does not have, with its path', () => {
    expect(check(vs('  hosts: [a]\n  http:\n  - route:\n    - destination: {host: a}\n      wieght: 3\n'))).toEqual([
      'spec.http[0].route[0].wieght | unknown field "spec.http[0].route[0].wieght"',
    ]);
  });
  it('accepts anything under x-kubernetes-preserve-unknown-fields (EnvoyFilter patch values) and at status', () => {
    expect(
      check(
        `apiVersion: networking.istio.io/v1alpha3\nkind: EnvoyFilter\nmetadata: {name: f}\nspec:\n  configPatches:\n  - applyTo: CLUSTER\n    patch:\n      operation: MERGE\n      value: {anything: {goes: [1, 2]}}\nstatus: {whatever: 1}\n`,
      ),
    ).toEqual([]);
  });
  it('flags unknown top-level and metadata fields', () => {
    expect(check('apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {name: g, labelz: {}}\nspecs: {}\n')).toEqual([
      'specs | unknown field "specs"',
      'metadata.labelz | unknown field "metadata.labelz"',
    ]);
  });
});

describe('schema layer: types, enums, required, bounds', () => {
  it('reports a wrong type in the API server words', () => {
    expect(check(vs('  hosts: a\n'))).toEqual(['spec.hosts | spec.hosts: Invalid value: "string": spec.hosts in body must be of type array: "string"']);
  });
  it('reports an enum value that is not allowed with the allowed ones', () => {
    expect(check(dr('  host: a\n  trafficPolicy: {tls: {mode: MUTUAL_ISTIO}}\n'))).toEqual([
      'spec.trafficPolicy.tls.mode | spec.trafficPolicy.tls.mode: Unsupported value: "MUTUAL_ISTIO": supported values: "DISABLE", "SIMPLE", "MUTUAL", "ISTIO_MUTUAL"',
    ]);
  });
  it('reports missing required fields', () => {
    expect(check(vs('  http:\n  - route:\n    - weight: 10\n'))).toEqual([
      'spec.http[0].route[0].destination | spec.http[0].route[0].destination: Required value',
    ]);
    expect(check('apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: s}\n')).toEqual(['spec | spec: Required value']);
  });
  it('checks minimum and maximum', () => {
    expect(check(dr('  host: a\n  trafficPolicy: {loadBalancer: {warmup: {duration: 10s, minimumPercent: 150}}}\n'))).toEqual([
      'spec.trafficPolicy.loadBalancer.warmup.minimumPercent | spec.trafficPolicy.loadBalancer.warmup.minimumPercent: Invalid value: 150: spec.trafficPolicy.loadBalancer.warmup.minimumPercent in body should be less than or equal to 100',
    ]);
  });
  it('checks string lengths and patterns', () => {
    const ra = (rule: string) =>
      `apiVersion: security.istio.io/v1\nkind: RequestAuthentication\nmetadata: {name: r}\nspec:\n  jwtRules:\n  - issuer: x\n${rule}`;
    expect(check(ra('    audiences: [""]\n'))).toEqual([
      'spec.jwtRules[0].audiences[0] | spec.jwtRules[0].audiences[0]: Invalid value: "": spec.jwtRules[0].audiences[0] in body should be at least 1 chars long',
    ]);
    expect(check(ra('    outputClaimToHeaders: [{claim: x, header: ":authority"}]\n'))[0]).toMatch(
      /^spec.jwtRules\[0\].outputClaimToHeaders\[0\].header \| .* in body should match '/,
    );
  });
  it('checks list sizes and set duplicates', () => {
    const gw = (tls: string) =>
      `apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec:\n  servers:\n  - port: {number: 443, name: https, protocol: HTTPS}\n    hosts: ['*']\n    tls: ${tls}\n`;
    expect(check(gw('{mode: SIMPLE, credentialNames: [a, b, c]}'))).toEqual([
      'spec.servers[0].tls.credentialNames | spec.servers[0].tls.credentialNames: Too many: 3: must have at most 2 items',
    ]);
  });
  it('reports two fields of a oneof', () => {
    expect(check(vs('  http:\n  - match:\n    - uri: {exact: /a, prefix: /b}\n    route: [{destination: {host: a}}]\n'))[0]).toMatch(
      /^spec.http\[0\].match\[0\].uri \| .*must validate one and only one schema \(oneOf\)/,
    );
  });
  it('accepts null where the CRD says nullable, and rejects it elsewhere', () => {
    expect(check(vs('  http:\n  - route: [{destination: {host: a}}]\n    retries: {attempts: 3, retryRemoteLocalities: null}\n'))).toEqual([]);
    expect(check('apiVersion: extensions.istio.io/v1alpha1\nkind: WasmPlugin\nmetadata: {name: w}\nspec:\n  url: null\n')).toEqual([
      'spec.url | spec.url: Invalid value: "null": spec.url in body must be of type string: "null"',
    ]);
  });
});

describe('schema layer: CEL rules', () => {
  it('rejects an invalid duration and one under 1ms', () => {
    expect(check(vs('  http:\n  - route: [{destination: {host: a}}]\n    timeout: 5 seconds\n'))).toEqual([
      `spec.http[0].timeout | spec.http[0].timeout: Invalid value: "string": type conversion error from 'string' to 'google.protobuf.Duration' evaluating rule: must be a valid duration greater than 1ms`,
    ]);
    expect(check(vs('  http:\n  - route: [{destination: {host: a}}]\n    timeout: 100us\n'))).toEqual([
      'spec.http[0].timeout | spec.http[0].timeout: Invalid value: "string": must be a valid duration greater than 1ms',
    ]);
    expect(check(vs('  http:\n  - route: [{destination: {host: a}}]\n    timeout: 1h2m3.5s\n'))).toEqual([]);
  });
  it('runs object rules at their node', () => {
    expect(
      check(
        'apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata: {name: s}\nspec:\n  hosts: [a.com]\n  resolution: NONE\n  endpoints: [{address: 1.2.3.4}]\n',
      ),
    ).toEqual(['spec | spec: Invalid value: "object": NONE mode cannot set endpoints']);
  });
  it('reports a rule that fails to evaluate with the error and the rule message', () => {
    const t = `apiVersion: telemetry.istio.io/v1\nkind: Telemetry\nmetadata: {name: t}\nspec:\n  metrics:\n  - overrides:\n    - tagOverrides: {foo: {operation: UPSERT}}\n`;
    expect(check(t)).toEqual([
      'spec.metrics[0].overrides[0].tagOverrides.foo | spec.metrics[0].overrides[0].tagOverrides[foo]: Invalid value: "object": no such key: value evaluating rule: value must be set when operation is UPSERT',
    ]);
  });
  it('evaluates Kubernetes URL functions', () => {
    const w = (url: string) => check(`apiVersion: extensions.istio.io/v1alpha1\nkind: WasmPlugin\nmetadata: {name: w}\nspec:\n  url: ${JSON.stringify(url)}\n`);
    expect(w('oci://ghcr.io/x/y:1')).toEqual([]);
    expect(w('ghcr.io/x/y:1')).toEqual([]);
    expect(w('fake://example.com')[0]).toContain('url must have schema one of [http, https, file, oci]');
  });
  it('native evaluation of the common rules agrees with CEL', () => {
    const str: Schema = { type: 'string' };
    const int: Schema = { type: 'integer' };
    const map: Schema = { type: 'object', values: { type: 'string' } };
    const cases: Array<[string, unknown, Schema]> = [
      ["duration(self) >= duration('1ms')", '1ms', str],
      ["duration(self) >= duration('1ms')", '999us', str],
      ["duration(self) >= duration('1ms')", '1.5h', str],
      ["duration(self) >= duration('1ms')", '-5s', str],
      ['0 < self && self <= 65535', 0, int],
      ['0 < self && self <= 65535', 65535, int],
      ['0 < self && self <= 65535', 65536, int],
      ['!self.contains("*")', 'a*', str],
      ['!self.contains("*")', 'ab', str],
      ['self.all(key, !key.contains("*"))', { 'a*': 'x' }, map],
      ['self.all(key, !key.contains("*"))', { a: 'x' }, map],
      ['self.all(key, key.size() != 0)', { '': 'x' }, map],
      ['self.size() == 0', '', str],
      ['self.size() == 0', 'ns', str],
    ];
    const source: Schema = {
      type: 'object',
      properties: Object.fromEntries(
        ['principals', 'notPrincipals', 'namespaces', 'notNamespaces', 'serviceAccounts', 'notServiceAccounts'].map((k) => [k, { type: 'array', items: str }]),
      ),
    };
    const accounts =
      '(has(self.serviceAccounts) || has(self.notServiceAccounts)) ? (!has(self.principals) &&\n!has(self.notPrincipals) && !has(self.namespaces) && !has(self.notNamespaces)) : true';
    for (const v of [
      {},
      { serviceAccounts: ['a'] },
      { serviceAccounts: ['a'], principals: ['p'] },
      { notServiceAccounts: ['a'], notNamespaces: ['n'] },
      { principals: ['p'], namespaces: ['n'] },
      { serviceAccounts: undefined, principals: ['p'] },
    ])
      cases.push([accounts, v, source]);
    const targeting: Schema = {
      type: 'object',
      properties: { selector: map, targetRef: map, targetRefs: { type: 'array', items: map }, workloadSelector: map },
    };
    const oneOf3 = '(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1';
    const oneOf2 = '(has(self.workloadSelector) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1';
    for (const v of [
      {},
      { selector: {} },
      { selector: {}, targetRef: {} },
      { targetRef: {}, targetRefs: [] },
      { selector: {}, targetRef: {}, targetRefs: [] },
      { workloadSelector: {}, targetRefs: [] },
      { workloadSelector: {} },
    ]) {
      cases.push([oneOf3, v, targeting], [oneOf2, v, targeting]);
    }
    for (const [rule, v, s] of cases) {
      expect(evalRule({ rule }, v, s, true).ok, `${rule} on ${JSON.stringify(v)}`).toBe(evalRule({ rule }, v, s, false).ok);
    }
  });
});

describe('Go parsers the rules rely on', () => {
  it('parses request URIs as Go does', () => {
    expect(parseRequestUri('https://a.b/c')).toMatchObject({ scheme: 'https', host: 'a.b', path: '/c' });
    expect(parseRequestUri('relative')).toHaveProperty('error');
    expect(parseRequestUri('http://#%blah$#@')).toHaveProperty('error');
    expect(parseRequestUri('/abs')).toMatchObject({ scheme: '', path: '/abs' });
  });
});

describe('apiVersion and kind', () => {
  it('names an unknown kind with the closest one', () => {
    expect(kindFindings('networking.istio.io/v1', 'VirtualSevice')).toEqual([
      {
        level: 'error',
        layer: 'schema',
        path: 'kind',
        message:
          'no matches for kind "VirtualSevice" in version "networking.istio.io/v1": networking.istio.io has no kind "VirtualSevice"; did you mean VirtualService?',
      },
    ]);
  });
  it('says where a kind lives when its group is wrong', () => {
    expect(kindFindings('networking.istio.io/v1', 'AuthorizationPolicy')[0]?.message).toBe(
      'no matches for kind "AuthorizationPolicy" in version "networking.istio.io/v1": AuthorizationPolicy is in security.istio.io, served as security.istio.io/v1, security.istio.io/v1beta1',
    );
  });
  it('rejects a version that is not served', () => {
    expect(kindFindings('networking.istio.io/v2', 'VirtualService')[0]?.message).toBe(
      'no matches for kind "VirtualService" in version "networking.istio.io/v2": VirtualService is served as networking.istio.io/v1, networking.istio.io/v1alpha3, networking.istio.io/v1beta1',
    );
  });
  it('warns on deprecated versions with the version to move to', () => {
    expect(kindFindings('gateway.networking.k8s.io/v1alpha2', 'TCPRoute')).toEqual([
      {
        level: 'warning',
        layer: 'schema',
        path: 'apiVersion',
        message: 'The v1alpha2 version of TCPRoute has been deprecated and will be removed in a future release of the API. Please upgrade to v1.',
      },
    ]);
  });
  it('says nothing of kinds it does not know in groups it does not know', () => {
    expect(kindFindings('cert-manager.io/v1', 'Certificate')).toEqual([]);
    expect(kindFindings('v1', 'Service')).toEqual([]);
  });
});

describe('Gateway API and Kubernetes core kinds', () => {
  it('checks Gateway API fields structurally', () => {
    expect(
      check(
        'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: h}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: svc, port: 80, wieght: 1}]\n',
      ),
    ).toEqual(['spec.rules[0].backendRefs[0].wieght | unknown field "spec.rules[0].backendRefs[0].wieght"']);
  });
  it('checks the core fields the analyzers read, and lets the rest of Kubernetes be', () => {
    expect(check('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: 0\n    targetPort: http\n  sessionAffinity: None\n')).toEqual([
      'spec.ports[0].port | spec.ports[0].port: Invalid value: 0: spec.ports[0].port in body should be greater than or equal to 1',
    ]);
  });
});

describe('kind problems on documents', () => {
  it('puts an unknown kind on its line, as a warning that does not stop the file', async () => {
    const { kindProblems } = await import('../../src/core/validation/kindProblems.ts');
    const text = 'apiVersion: networking.istio.io/v1\nkind: VirtualSevice\nmetadata: {name: x}\n';
    const doc = { file: 'f.yaml', index: 0, text, startOffset: 0, startLine: 1, referenceLine: 1, isJson: false };
    expect(kindProblems(doc, 'networking.istio.io/v1', 'VirtualSevice')).toEqual([
      expect.objectContaining({
        level: 'Warning',
        code: 'MWB-UNKNOWN-KIND',
        line: 2,
        range: { startLine: 2, startCol: 7, endLine: 2, endCol: 20 },
        message: expect.stringMatching(/did you mean VirtualService\? It was not analyzed\.$/),
      }),
    ]);
  });
});
