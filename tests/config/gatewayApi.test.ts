// Gateway API → Istio conversion (src/core/config/gatewayApi): one behaviour per test, each
// checked against what istiod's pilot/pkg/config/kube/gateway produces for it.
import { describe, expect, it } from 'vitest';
import { gwObjects } from '../helpers/gatewayApi.ts';
import {
  convertGatewayApi,
  internalGatewayName,
  isInternalGatewayName,
  sortHTTPRoutes,
  type GatewayApiResult,
  type RegistryService,
} from '../../src/core/config/gatewayApi/convert.ts';
import { hostIntersection } from '../../src/core/config/gatewayApi/hostnames.ts';
import { hostMatches, hostSubsetOf } from '../../src/core/config/hosts.ts';
import type { Json } from '../../src/core/config/gatewayApi/objects.ts';
import { isInternalGatewayReference } from '../../src/core/analysis/analyzers/virtualservice/gateways.ts';
import { gatewayApiConfig, assumedGatewayClassesNote } from '../../src/core/config/gatewayApi/index.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const SUFFIX = 'cluster.local';

const objects = gwObjects;

const INGRESS: RegistryService = {
  hostname: `ingress.istio-system.svc.${SUFFIX}`,
  namespace: 'istio-system',
  ports: [
    { name: 'http', port: 80 },
    { name: 'https', port: 443 },
    { name: 'tcp', port: 9000 },
  ],
  endpointPorts: new Map([
    [80, [8080]],
    [443, [8443]],
    [9000, [9000]],
  ]),
  addresses: ['10.0.0.1'],
  externalAddresses: [],
  loadBalancer: false,
  labels: {},
};

function convert(text: string, extra: RegistryService[] = []): GatewayApiResult {
  const reg = [INGRESS, ...extra];
  return convertGatewayApi(objects(text), { domainSuffix: SUFFIX, now: 'now', registry: { byHostname: (h) => reg.filter((s) => s.hostname === h) } });
}

const svc = (name: string, ns = 'default', port = 80) => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec: {ports: [{name: http, port: ${port}}]}
---`;

const GATEWAY = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  addresses: [{type: Hostname, value: ingress}]
  listeners:
  - name: http
    port: 80
    protocol: HTTP
    hostname: "*.example.com"
    allowedRoutes: {namespaces: {from: All}}
---`;

function status(r: GatewayApiResult, kind: string, name: string): Json {
  const s = r.statuses.find((x) => x.kind === kind && x.name === name);
  if (!s) throw new Error(`no status for ${kind} ${name}`);
  return s.status;
}

function conditions(c: unknown): Record<string, { status: string; reason: string; message: string }> {
  return Object.fromEntries((c as { type: string; status: string; reason: string; message: string }[]).map((x) => [x.type, x]));
}

describe('hostnames and durations', () => {
  it('matches wildcards both ways, and SubsetOf one way', () => {
    expect(hostMatches('*.example.com', 'a.example.com')).toBe(true);
    expect(hostMatches('a.example.com', '*.example.com')).toBe(true);
    expect(hostMatches('*.com', '*.example.com')).toBe(true);
    expect(hostSubsetOf('*.example.com', '*.com')).toBe(true);
    expect(hostSubsetOf('*.com', '*.example.com')).toBe(false);
    expect(hostIntersection(['*.com'], ['*.example.com'])).toEqual(['*.example.com']);
  });
});

describe('Gateway → Istio Gateway', () => {
  it('names one Gateway per listener with istiod annotations', () => {
    const r = convert(GATEWAY);
    expect(r.gateways).toHaveLength(1);
    const g = r.gateways[0]!;
    expect(g.metadata.name).toBe(internalGatewayName('gw', 'http'));
    expect(isInternalGatewayName(g.metadata.name)).toBe(true);
    expect(g.metadata.annotations).toEqual({
      'internal.istio.io/gateway-semantics': 'gateway',
      'internal.istio.io/gateway-service': `ingress.istio-system.svc.${SUFFIX}`,
      'internal.istio.io/parents': 'Gateway/gw/http.istio-system',
      'internal.istio.io/service-account-name': '',
    });
    expect(g.spec).toEqual({ servers: [{ hosts: ['*/*.example.com'], port: { name: 'default', number: 80, protocol: 'HTTP' } }] });
  });

  it('gives generated Gateways the names IST0165 (ReferencedInternalGateway) recognises', () => {
    const g = convert(GATEWAY).gateways[0]!;
    expect(isInternalGatewayReference(`${g.metadata.namespace}/${g.metadata.name}`)).toBe(true);
    expect(isInternalGatewayReference('istio-system/gw')).toBe(false);
  });

  it('uses the managed deployment name and service account when there is no address', () => {
    const r = convert(GATEWAY.replace('  addresses: [{type: Hostname, value: ingress}]\n', ''));
    const g = r.gateways[0]!;
    expect(g.metadata.annotations['internal.istio.io/gateway-service']).toBe(`gw-istio.istio-system.svc.${SUFFIX}`);
    expect(g.metadata.annotations['internal.istio.io/service-account-name']).toBe('gw-istio');
    const p = conditions(status(r, 'Gateway', 'gw').conditions).Programmed!;
    expect(p.reason).toBe('AddressNotUsable');
    expect(p.message).toBe(`Failed to assign to any requested addresses: hostname "gw-istio.istio-system.svc.${SUFFIX}" not found`);
  });

  it('turns certificateRefs into credentialName, and reports a missing Secret', () => {
    const text = `${GATEWAY.replace('protocol: HTTP', 'protocol: HTTPS\n    tls: {certificateRefs: [{name: missing}]}').replace('port: 80', 'port: 443')}`;
    const r = convert(text);
    expect(r.gateways).toHaveLength(0);
    const l = (status(r, 'Gateway', 'gw').listeners as Json[])[0]!;
    const c = conditions(l.conditions);
    expect(c.ResolvedRefs).toMatchObject({
      status: 'False',
      reason: 'InvalidCertificateRef',
      message: 'invalid certificate reference //missing., secret istio-system/missing not found',
    });
    expect(c.Programmed).toMatchObject({ status: 'False', reason: 'Invalid', message: 'Bad TLS configuration' });
  });

  it('reads a certificate Secret as the API server stores it: data decoded as it decodes base64, a Secret it would refuse never there', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    const key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const listener = (data: string) => {
      const text = `${GATEWAY.replace('protocol: HTTP', 'protocol: HTTPS\n    tls: {certificateRefs: [{name: cert}]}').replace('port: 80', 'port: 443')}
apiVersion: v1
kind: Secret
metadata: {name: cert, namespace: istio-system}
${data}
`;
      return conditions((status(convert(text), 'Gateway', 'gw').listeners as Json[])[0]!.conditions).ResolvedRefs;
    };
    // Base64 broken over lines is read (the API server's decoder skips line breaks).
    const wrapped = (t: string) => b64(t).replace(/(.{20})/g, '$1\n');
    expect(listener(`data:\n  tls.crt: ${JSON.stringify(wrapped(cert))}\n  tls.key: ${JSON.stringify(wrapped(key))}`)).toMatchObject({ status: 'True' });
    // A value with a space in it is refused by the API server: the Secret is not in the cluster.
    expect(listener(`data: {tls.crt: "${b64(cert).slice(0, 8)} ${b64(cert).slice(8)}", tls.key: ${b64(key)}}`)).toMatchObject({
      status: 'False',
      message: 'invalid certificate reference //cert., secret istio-system/cert not found',
    });
    // stringData is stored over data.
    expect(listener(`data: {tls.crt: ${b64('not pem')}, tls.key: ${b64(key)}}\nstringData: {tls.crt: ${JSON.stringify(cert)}}`)).toMatchObject({
      status: 'True',
    });
    // Go's X509KeyPair words inputs that look switched.
    expect(listener(`stringData: {tls.crt: ${JSON.stringify(key)}, tls.key: ${JSON.stringify(key)}}`)).toMatchObject({
      status: 'False',
      message:
        'invalid certificate reference //cert., the certificate is malformed: tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    });
  });

  it('accepts a valid certificate Secret as kubernetes-gateway://', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    const key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    const text = `${GATEWAY.replace('protocol: HTTP', 'protocol: HTTPS\n    tls: {certificateRefs: [{name: cert}]}').replace('port: 80', 'port: 443')}
apiVersion: v1
kind: Secret
metadata: {name: cert, namespace: istio-system}
stringData: {tls.crt: ${JSON.stringify(cert)}, tls.key: ${JSON.stringify(key)}}
`;
    const r = convert(text);
    expect(r.gateways[0]!.spec.servers).toEqual([
      {
        hosts: ['*/*.example.com'],
        port: { name: 'default', number: 443, protocol: 'HTTPS' },
        tls: { mode: 'SIMPLE', credentialName: 'kubernetes-gateway://istio-system/cert' },
      },
    ]);
  });

  it('reports conflicting listeners', () => {
    const text = GATEWAY.replace(
      '    allowedRoutes: {namespaces: {from: All}}',
      '    allowedRoutes: {namespaces: {from: All}}\n  - {name: dup, port: 80, protocol: HTTP, hostname: "*.example.com"}',
    );
    const r = convert(text);
    const l = (status(r, 'Gateway', 'gw').listeners as Json[])[1]!;
    expect(conditions(l.conditions).Conflicted).toMatchObject({ status: 'True', reason: 'HostnameConflict' });
  });

  it('uses the built-in classes when the workspace has no GatewayClass, and no other class', () => {
    expect(convert(GATEWAY).classes.find((c) => c.name === 'istio')).toEqual({ name: 'istio', controller: 'istio.io/gateway-controller', assumed: true });
    expect(convert(GATEWAY.replace('gatewayClassName: istio', 'gatewayClassName: other')).gateways).toHaveLength(0);
  });
});

describe('HTTPRoute → VirtualService', () => {
  const route = (name: string, rules: string, extra = '') => `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ${name}, namespace: default${extra}}
spec:
  parentRefs: [{name: gw, namespace: istio-system}]
  hostnames: [a.example.com]
  rules:
${rules}
---`;

  it('splits matches into rules, trims prefixes, drops zero weights and orders by precedence', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${svc('b')}${route(
        'r',
        `
  - matches: [{path: {type: PathPrefix, value: /api/}}, {path: {type: Exact, value: /x}}]
    backendRefs: [{name: a, port: 80, weight: 1}, {name: b, port: 80, weight: 0}]
  - backendRefs: []`,
      )}`,
    );
    expect(r.virtualServices).toHaveLength(1);
    const vs = r.virtualServices[0]!;
    expect(vs.metadata.name).toBe('istio-system~gw~istio-autogenerated-k8s-gateway~http~a.example.com');
    expect(vs.metadata.annotations).toEqual({ 'internal.istio.io/parents': 'HTTPRoute/r.default', 'internal.istio.io/route-semantics': 'gateway' });
    expect(vs.spec.gateways).toEqual(['istio-system/gw~istio-autogenerated-k8s-gateway~http']);
    expect(vs.spec.http).toEqual([
      { name: 'default.r.0', match: [{ uri: { exact: '/x' } }], route: [{ destination: { host: `a.default.svc.${SUFFIX}`, port: { number: 80 } } }] },
      { name: 'default.r.0', match: [{ uri: { prefix: '/api' } }], route: [{ destination: { host: `a.default.svc.${SUFFIX}`, port: { number: 80 } } }] },
      { name: 'default.r.1', directResponse: { status: 500 } },
    ]);
  });

  it('converts filters, timeouts and retries', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'r',
        `
  - filters:
    - type: RequestHeaderModifier
      requestHeaderModifier: {set: [{name: X-A, value: "1"}], remove: [x-b]}
    - type: URLRewrite
      urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}
    timeouts: {request: 10s, backendRequest: 2s}
    retry: {attempts: 3, codes: [503]}
    backendRefs: [{name: a, port: 80}]
  - filters: [{type: RequestRedirect, requestRedirect: {scheme: https}}]`,
      )}`,
    );
    const http = r.virtualServices[0]!.spec.http as Json[];
    expect(http[0]).toMatchObject({
      headers: { request: { set: { 'x-a': '1' }, remove: ['x-b'] } },
      rewrite: { uri: '/' },
      timeout: '10s',
      retries: { attempts: 3, retryOn: 'connect-failure,refused-stream,unavailable,cancelled,503', perTryTimeout: '2s' },
    });
    expect(http[1]).toMatchObject({ redirect: { scheme: 'https', derivePort: 'FROM_PROTOCOL_DEFAULT' } });
  });

  it('reads Gateway API durations as Go does and writes them as protobuf JSON', () => {
    const timeouts = (t: string) => {
      const r = convert(
        `${GATEWAY}${svc('a')}${route(
          'r',
          `
  - timeouts: ${t}
    backendRefs: [{name: a, port: 80}]`,
        )}`,
      );
      return (r.virtualServices[0]!.spec.http as Json[])[0]!;
    };
    expect(timeouts('{request: 1h30m}').timeout).toBe('5400s');
    expect(timeouts('{request: 1ms}').timeout).toBe('0.001s');
    expect(timeouts('{request: 1.5s}').timeout).toBe('1.500s');
    // Istio ignores the error of a malformed one and leaves the timeout unset (as for 0s).
    expect(timeouts('{request: bogus}').timeout).toBeUndefined();
    expect(timeouts('{request: 0s}').timeout).toBeUndefined();
  });

  it('merges routes of one host in creation order and joins their parents', () => {
    const r = convert(
      `${GATEWAY}${svc('a')}${route(
        'late',
        `
  - backendRefs: [{name: a, port: 80}]`,
        ', creationTimestamp: "2024-02-01T00:00:00Z"',
      )}${route(
        'early',
        `
  - matches: [{path: {value: /e}}]
    backendRefs: [{name: a, port: 80}]`,
        ', creationTimestamp: "2024-01-01T00:00:00Z"',
      )}`,
    );
    expect(r.virtualServices).toHaveLength(1);
    const vs = r.virtualServices[0]!;
    expect(vs.metadata.annotations['internal.istio.io/parents']).toBe('HTTPRoute/early.default,HTTPRoute/late.default');
    expect((vs.spec.http as Json[]).map((h) => h.name)).toEqual(['default.early.0', 'default.late.0']);
  });

  it('denies a cross-namespace backend without a ReferenceGrant, and allows it with one', () => {
    const rules = `
  - backendRefs: [{name: a, namespace: other, port: 80}]`;
    const denied = convert(`${GATEWAY}${svc('a', 'other')}${route('r', rules)}`);
    expect((denied.virtualServices[0]!.spec.http as Json[])[0]!.route).toEqual([{ destination: {} }]);
    expect(conditions((status(denied, 'HTTPRoute', 'r').parents as Json[])[0]!.conditions).ResolvedRefs).toMatchObject({
      status: 'False',
      reason: 'RefNotPermitted',
      message: 'backendRef a/other not accessible to a HTTPRoute in namespace "default" (missing a ReferenceGrant?)',
    });
    const allowed = convert(`${GATEWAY}${svc('a', 'other')}${route('r', rules)}
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: g, namespace: other}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: default}]
  to: [{group: "", kind: Service}]
`);
    expect((allowed.virtualServices[0]!.spec.http as Json[])[0]!.route).toEqual([{ destination: { host: `a.other.svc.${SUFFIX}`, port: { number: 80 } } }]);
  });

  it('reports a missing sectionName and counts attached routes', () => {
    const r = convert(`${GATEWAY}${svc('a')}${route('ok', '  - backendRefs: [{name: a, port: 80}]')}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: bad, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system, sectionName: nope}]
  rules: [{backendRefs: [{name: a, port: 80}]}]
`);
    expect(conditions((status(r, 'HTTPRoute', 'bad').parents as Json[])[0]!.conditions).Accepted).toMatchObject({
      status: 'False',
      reason: 'NoMatchingParent',
      message: 'sectionName "nope" not found',
    });
    expect((status(r, 'Gateway', 'gw').listeners as Json[])[0]!.attachedRoutes).toBe(1);
  });

  it('builds mesh (GAMMA) routes for a Service parent', () => {
    const r = convert(`${svc('a')}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: m, namespace: default}
spec:
  parentRefs: [{group: "", kind: Service, name: a, port: 80}]
  rules: [{backendRefs: [{name: a, port: 80}]}]
`);
    const vs = r.virtualServices[0]!;
    expect(vs.metadata.name).toBe(`default~80~a.default.svc.${SUFFIX}`);
    expect(vs.spec).toEqual({
      hosts: [`a.default.svc.${SUFFIX}`],
      gateways: ['mesh'],
      http: [{ name: 'default.m.0', match: [{ port: 80 }], route: [{ destination: { host: `a.default.svc.${SUFFIX}`, port: { number: 80 } } }] }],
    });
  });

  it('sorts by Gateway API precedence (exact before prefix, longer first, methods and headers next)', () => {
    const rules: Json[] = [
      { name: 'none' },
      { name: 'short', match: [{ uri: { prefix: '/a' } }] },
      { name: 'long', match: [{ uri: { prefix: '/abc' } }] },
      { name: 'exact', match: [{ uri: { exact: '/a' } }] },
      { name: 'method', match: [{ uri: { prefix: '/a' }, method: { exact: 'GET' } }] },
    ];
    sortHTTPRoutes(rules);
    expect(rules.map((r) => r.name)).toEqual(['exact', 'long', 'method', 'short', 'none']);
  });
});

describe('TCPRoute, TLSRoute and backend policies', () => {
  it('names L4 VirtualServices per route and intersects TLS hostnames with the listener', () => {
    const text = `${GATEWAY.replace('protocol: HTTP', 'protocol: TLS\n    tls: {mode: Passthrough}').replace('port: 80', 'port: 443')}${svc('a', 'default', 443)}
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: t, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system}]
  hostnames: ["*.com"]
  rules: [{backendRefs: [{name: a, port: 443}]}]
`;
    const r = convert(text);
    expect(r.gateways[0]!.spec.servers).toEqual([{ hosts: ['*/*.example.com'], port: { name: 'default', number: 443, protocol: 'TLS' }, tls: {} }]);
    const vs = r.virtualServices[0]!;
    expect(vs.metadata.name).toBe('t~tls~0~istio-autogenerated-k8s-gateway');
    expect(vs.spec.hosts).toEqual(['*.example.com']);
    expect(vs.spec.tls).toEqual([
      { match: [{ sniHosts: ['*.example.com'] }], route: [{ destination: { host: `a.default.svc.${SUFFIX}`, port: { number: 443 } } }] },
    ]);
  });

  it('turns a BackendTLSPolicy into a DestinationRule with namespace-first parents', () => {
    const r = convert(`${svc('a')}
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: default}
spec:
  targetRefs: [{group: "", kind: Service, name: a}]
  validation: {hostname: a.example.com, wellKnownCACertificates: System}
`);
    expect(r.destinationRules).toHaveLength(1);
    const dr = r.destinationRules[0]!;
    expect(dr.metadata).toMatchObject({
      name: 'a~istio-autogenerated-k8s-gateway',
      namespace: 'default',
      annotations: { 'internal.istio.io/parents': 'BackendTLSPolicy/default.p' },
    });
    expect(dr.spec).toEqual({ host: `a.default.svc.${SUFFIX}`, trafficPolicy: { tls: { mode: 'SIMPLE', sni: 'a.example.com' } } });
    const anc = (status(r, 'BackendTLSPolicy', 'p').ancestors as Json[])[0]!;
    expect(anc.controllerName).toBe('istio.io/mesh-controller');
    expect(conditions(anc.conditions).Accepted).toMatchObject({ status: 'True', message: 'Configuration is valid' });
  });
});

describe('gatewayApiConfig(view)', () => {
  function viewOf(text: string): ConfigView {
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'm.yaml', text }], []);
    return configView(
      new ResourceStore(model.resources(), {
        mode: 'cli',
        defaultNamespace: 'default',
        includePlaceholders: true,
        deriveWorkloads: true,
        meshConfig: defaultMeshConfig(),
        meshNetworks: defaultMeshNetworks(),
      }),
    );
  }

  it('converts the workspace once and exposes Resources, with the assumed classes noted', () => {
    const view = viewOf(`${GATEWAY.replace('value: ingress', 'value: istio-ingressgateway')}${svc('a')}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system}]
  rules: [{backendRefs: [{name: a, port: 80}]}]
`);
    const cfg = gatewayApiConfig(view);
    expect(gatewayApiConfig(view)).toBe(cfg);
    expect(cfg.gateways.map((g) => g.key)).toEqual(['networking.istio.io/Gateway/istio-system/gw~istio-autogenerated-k8s-gateway~http']);
    expect(cfg.virtualServices.map((v) => v.name)).toEqual(['istio-system~gw~istio-autogenerated-k8s-gateway~http~*']);
    const programmed = conditions(cfg.statuses.get('Gateway/istio-system/gw')!.status.conditions).Programmed!;
    expect(programmed.status).toBe('True');
    expect(programmed.message).toBe('Resource programmed, assigned to service(s) istio-ingressgateway.istio-system.svc.cluster.local:80');
    expect(assumedGatewayClassesNote(view)).toContain('istio (istio.io/gateway-controller)');
  });
});
