import { describe, expect, it } from 'vitest';
import { validationAnalyzer } from '../../../../src/core/analysis/analyzers/schema/validation.ts';
import { KINDS } from '../../../../src/core/document/kinds.ts';

const virtualServiceValidationAnalyzer = validationAnalyzer(KINDS.VirtualService);
import { istioAnalyzerByName } from '../../../../src/core/analysis/analyzers/index.ts';
import { analyze, docs, lines } from '../helpers.ts';
import { vs } from './util.ts';

const dest = `    route:\n    - destination:\n        host: app\n`;

describe('schema.ValidationAnalyzer.VirtualService (route rules)', () => {
  it("is registered under Istio's name and runs by default", () => {
    expect(istioAnalyzerByName('schema.ValidationAnalyzer.VirtualService')?.metadata).toEqual(virtualServiceValidationAnalyzer.metadata);
  });

  it('reports duplicate http matches (ignoring match names) and the rule they make unreachable', () => {
    const text = docs(
      vs(
        'web',
        'dup',
        `  hosts: [app]
  http:
  - name: first
    match:
    - name: api
      uri: {prefix: /api}
      headers: {x-a: {exact: "1"}, x-b: {exact: "2"}}
${dest}  - name: second
    match:
    - uri: {prefix: /api}
      headers: {x-b: {exact: "2"}, x-a: {exact: "1"}}
${dest}`,
      ),
    );
    const out = analyze(virtualServiceValidationAnalyzer, { 'vs.yaml': text });
    expect(lines(out)).toEqual([
      'Warning [IST0130] (VirtualService web/dup vs.yaml:1) VirtualService rule "second" not used (all matches used by prior rules).',
      'Info [IST0131] (VirtualService web/dup vs.yaml:1) VirtualService rule "second" match #0 is not used (duplicate/overlapping match in rule "first").',
    ]);
  });

  it('reports rules after a catch-all rule, for http, tcp and tls', () => {
    const out = analyze(virtualServiceValidationAnalyzer, {
      'vs.yaml': vs(
        'web',
        'catch-all',
        `  hosts: [app]
  http:
  - route:
    - destination: {host: app}
  - match:
    - uri: {exact: /a}
    - uri: {exact: /b}
    route:
    - destination: {host: app}
  tcp:
  - route:
    - destination: {host: app}
  - route:
    - destination: {host: app}
`,
      ),
    });
    expect(out.map((d) => d.message)).toEqual([
      'VirtualService rule #1 not used (only the last rule can have no matches).',
      'VirtualService rule #1 not used (route without matches defined before).',
    ]);
    // the http rule gets one message per match; identical lines are folded like istioctl does
    expect(out).toHaveLength(2);
  });

  it("skips null rules and compares null matches as Go's nil (not as an empty match)", () => {
    const out = analyze(virtualServiceValidationAnalyzer, {
      'vs.yaml': vs(
        'web',
        'nils',
        `  hosts: [app]
  http:
  - null
  - match:
    - null
    - uri: {exact: /a}
${dest}  - match:
    - ~
${dest}  - match:
    - {}
${dest}  tcp:
  - ~
  - route:
    - destination: {host: app}
`,
      ),
    });
    expect(out.map((d) => d.message)).toEqual([
      // Istio's webhook also rejects the null rule itself.
      'Schema validation error: http route may not be null',
      // The API server's schema rejects the other nulls the webhook lets through (our own code:
      // istioctl never reports the schema layer).
      'The API server would reject this object (kubectl apply fails): spec.http[1].match[0]: Invalid value: "null": spec.http[1].match[0] in body must be of type object: "null"',
      'The API server would reject this object (kubectl apply fails): spec.http[2].match[0]: Invalid value: "null": spec.http[2].match[0] in body must be of type object: "null"',
      'The API server would reject this object (kubectl apply fails): spec.tcp[0]: Invalid value: "null": spec.tcp[0] in body must be of type object: "null"',
      'VirtualService rule #2 not used (all matches used by prior rules).',
      'VirtualService rule #2 match #0 is not used (duplicate/overlapping match in rule #1).',
    ]);
  });

  it('reports an http prefix covered by an earlier, shorter prefix with the same conditions', () => {
    const text = vs(
      'web',
      'overlap',
      `  hosts: [app]
  http:
  - match:
    - uri: {prefix: /shop}
${dest}  - name: products
    match:
    - name: list
      uri: {prefix: /shop/products}
      method: {exact: GET}
    - uri: {prefix: /shop/cart}
      method: {exact: POST}
${dest}`,
    );
    const out = analyze(virtualServiceValidationAnalyzer, { 'vs.yaml': text });
    expect(out.map((d) => `${d.code} ${d.message}`)).toEqual([
      'IST0131 VirtualService rule "products" match "list" of prefix /shop/products is not used (duplicate/overlapping match in rule #0 of prefix /shop on #0).',
    ]);
  });

  it('accepts distinct matches and tls matches that differ in port', () => {
    const out = analyze(virtualServiceValidationAnalyzer, {
      'vs.yaml': docs(
        vs(
          'web',
          'ok-http',
          `  hosts: [app]
  http:
  - match:
    - uri: {exact: /a}
    - uri: {prefix: /a}
      ignoreUriCase: true
${dest}  - match:
    - uri: {regex: /b.*}
${dest}  - route:
    - destination: {host: app}
`,
        ),
        vs(
          'web',
          'ok-tls',
          `  hosts: [app]
  tls:
  - match:
    - port: 443
      sniHosts: [app]
    route:
    - destination: {host: app}
  - match:
    - port: 8443
      sniHosts: [app]
    route:
    - destination: {host: app}
`,
        ),
      ),
    });
    expect(out).toEqual([]);
  });
});
