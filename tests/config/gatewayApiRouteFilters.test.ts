// HTTPRoute and GRPCRoute rule conversion that neither the conformance goldens in the corpus nor
// gatewayApi.test.ts reach: CORS, redirect and rewrite paths, mirror fractions, gRPC method matches
// and filters, unsupported filters. The expected values are what istiod's pilot/pkg/config/kube/
// gateway/conversion.go writes for these rules (convertHTTPRoute, convertGRPCRoute, createCorsFilter,
// createRedirectFilter, createRewriteFilter, createMirrorFilter, createGRPCURIMatch), read from the Go.
import { describe, expect, it } from 'vitest';
import { gwObjects } from '../helpers/gatewayApi.ts';
import { convertGatewayApi, type GatewayApiResult } from '../../src/core/config/gatewayApi/convert.ts';
import type { Json } from '../../src/core/config/gatewayApi/objects.ts';

const SUFFIX = 'cluster.local';

function convert(text: string): GatewayApiResult {
  return convertGatewayApi(gwObjects(text), { domainSuffix: SUFFIX, now: 'now', registry: { byHostname: () => [] } });
}

const GATEWAY = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---`;

const svc = (name: string) => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: default}
spec: {ports: [{name: http, port: 80}, {name: alt, port: 8080}]}
---`;

const route = (kind: 'HTTPRoute' | 'GRPCRoute', rules: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: ${kind}
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system}]
  hostnames: [a.example.com]
  rules:
${rules}
---`;

function http(r: GatewayApiResult): Json[] {
  expect(r.virtualServices).toHaveLength(1);
  return r.virtualServices[0]!.spec.http as Json[];
}

function routeConditions(r: GatewayApiResult, kind: string): Record<string, { status: string; reason: string; message: string }> {
  const s = r.statuses.find((x) => x.kind === kind && x.name === 'r');
  if (!s) throw new Error(`no status for ${kind} r`);
  const parents = s.status.parents as Json[];
  return Object.fromEntries((parents[0]!.conditions as { type: string; status: string; reason: string; message: string }[]).map((c) => [c.type, c]));
}

const dest = (name: string, port = 80) => ({ host: `${name}.default.svc.${SUFFIX}`, port: { number: port } });

describe('HTTPRoute filters', () => {
  it('turns a CORS filter into a corsPolicy: * as an origin regex, exact, trailing-wildcard prefix and other wildcards as anchored regexes', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'HTTPRoute',
        `
  - filters:
    - type: CORS
      cors:
        allowOrigins: ["*", "https://a.example.com", "https://b.example.com:*", "https://*.example.com", ""]
        allowCredentials: true
        allowMethods: [GET, POST]
        allowHeaders: [x-a]
        exposeHeaders: [x-b]
        maxAge: 600
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    expect(http(r)[0]!.corsPolicy).toEqual({
      allowOrigins: [
        { regex: '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s?#]+$' },
        { exact: 'https://a.example.com' },
        { prefix: 'https://b.example.com:' },
        { regex: '^https://.*\\.example\\.com$' },
      ],
      allowCredentials: true,
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['x-a'],
      exposeHeaders: ['x-b'],
      maxAge: '600s',
      unmatchedPreflights: 'IGNORE',
    });
  });

  it('writes redirect paths, codes, hosts and ports, deriving the port from the request when neither port nor scheme is set', () => {
    const r = convert(
      `${GATEWAY}${route(
        'HTTPRoute',
        `
  - matches: [{path: {type: Exact, value: /full}}]
    filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplaceFullPath, replaceFullPath: /new}, statusCode: 301, hostname: b.example.com, port: 8443}}]
  - matches: [{path: {type: Exact, value: /prefix}}]
    filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /p}}}]`,
      )}`,
    );
    const byPath = Object.fromEntries(http(r).map((h) => [((h.match as Json[])[0]!.uri as Json).exact, h]));
    expect(byPath['/full']!.redirect).toEqual({ uri: '/new', redirectCode: 301, authority: 'b.example.com', port: 8443 });
    expect(byPath['/prefix']!.redirect).toEqual({ prefixRewrite: '/p', derivePort: 'FROM_REQUEST_PORT' });
    // A redirect stands in for the backends: no 500 direct response.
    expect(byPath['/full']!.directResponse).toBeUndefined();
  });

  it('rewrites a full path as a regex rewrite with the authority, and drops a rewrite that changes nothing', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'HTTPRoute',
        `
  - matches: [{path: {type: Exact, value: /full}}]
    filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /x}, hostname: c.example.com}}]
    backendRefs: [{name: a, port: 80}]
  - matches: [{path: {type: Exact, value: /none}}]
    filters: [{type: URLRewrite, urlRewrite: {}}]
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    const byPath = Object.fromEntries(http(r).map((h) => [((h.match as Json[])[0]!.uri as Json).exact, h]));
    expect(byPath['/full']!.rewrite).toEqual({ uriRegexRewrite: { match: '/.*', rewrite: '/x' }, authority: 'c.example.com' });
    expect(byPath['/none']!.rewrite).toBeUndefined();
  });

  it('mirrors with a percentage from a fraction (denominator 100 by default) or a percent', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${svc('m')}${route(
        'HTTPRoute',
        `
  - filters:
    - {type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, fraction: {numerator: 1, denominator: 4}}}
    - {type: RequestMirror, requestMirror: {backendRef: {name: m, port: 8080}, fraction: {numerator: 5}}}
    - {type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, percent: 42}}
    - {type: RequestMirror, requestMirror: {backendRef: {name: m, port: 8080}}}
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    expect(http(r)[0]!.mirrors).toEqual([
      { destination: dest('m'), percentage: { value: 25 } },
      { destination: dest('m', 8080), percentage: { value: 5 } },
      { destination: dest('m'), percentage: { value: 42 } },
      { destination: dest('m', 8080) },
    ]);
  });

  it('uses backendRequest as the route timeout when there is no retry', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'HTTPRoute',
        `
  - timeouts: {backendRequest: 3s}
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    const h = http(r)[0]!;
    expect(h.timeout).toBe('3s');
    expect(h.retries).toBeUndefined();
  });

  it('refuses a rule with an unsupported filter: no VirtualService, and ResolvedRefs False with InvalidFilter', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'HTTPRoute',
        `
  - filters: [{type: ExtensionRef, extensionRef: {group: example.com, kind: Filter, name: f}}]
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    expect(r.virtualServices).toEqual([]);
    const c = routeConditions(r, 'HTTPRoute');
    expect(c.Accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(c.ResolvedRefs).toMatchObject({ status: 'False', reason: 'InvalidFilter', message: 'unsupported filter type "ExtensionRef"' });
  });
});

describe('GRPCRoute rules', () => {
  it('matches /<service>/<method>: exact, by service prefix, and by regex for either part missing or a regular expression', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'GRPCRoute',
        `
  - matches:
    - method: {service: pkg.Svc, method: Get}
    - method: {service: pkg.Other}
    - method: {type: RegularExpression, service: pkg.Svc, method: "G.*"}
    - method: {type: RegularExpression, service: "pkg.S.*"}
    - method: {method: List}
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    // One HTTP route per match, in Gateway API precedence: exact, prefix, then the longer regexes first.
    expect(http(r).map((h) => (h.match as Json[])[0]!.uri)).toEqual([
      { exact: '/pkg.Svc/Get' },
      { prefix: '/pkg.Other/' },
      { regex: '/pkg.Svc/G.*' },
      { regex: '/pkg.S.*/.+' },
      { regex: '/[^/]+/List' },
    ]);
    expect(http(r).every((h) => h.name === 'default.r.0')).toBe(true);
  });

  it('converts header modifiers and mirrors, and answers 500 when every backend weighs 0', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${svc('m')}${route(
        'GRPCRoute',
        `
  - matches: [{method: {service: pkg.Svc, method: A}}]
    filters:
    - {type: ResponseHeaderModifier, responseHeaderModifier: {add: [{name: X-Out, value: "1"}]}}
    - {type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}}}
    backendRefs: [{name: a, port: 80}]
  - matches: [{method: {service: pkg.Svc, method: B}}]
    backendRefs: [{name: a, port: 80, weight: 0}]`,
      )}`,
    );
    const byUri = Object.fromEntries(http(r).map((h) => [((h.match as Json[])[0]!.uri as Json).exact, h]));
    expect(byUri['/pkg.Svc/A']).toEqual({
      name: 'default.r.0',
      match: [{ uri: { exact: '/pkg.Svc/A' } }],
      headers: { response: { add: { 'x-out': '1' } } },
      mirrors: [{ destination: dest('m') }],
      route: [{ destination: dest('a') }],
    });
    expect(byUri['/pkg.Svc/B']).toEqual({ name: 'default.r.1', match: [{ uri: { exact: '/pkg.Svc/B' } }], directResponse: { status: 500 } });
    expect(routeConditions(r, 'GRPCRoute').ResolvedRefs).toMatchObject({ status: 'True', reason: 'ResolvedRefs' });
  });

  it('refuses a rule with an unsupported filter', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'GRPCRoute',
        `
  - filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]
    backendRefs: [{name: a, port: 80}]`,
      )}`,
    );
    expect(r.virtualServices).toEqual([]);
    expect(routeConditions(r, 'GRPCRoute').ResolvedRefs).toMatchObject({
      status: 'False',
      reason: 'InvalidFilter',
      message: 'unsupported filter type "RequestRedirect"',
    });
  });
});
