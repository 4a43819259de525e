// Gateway and ListenerSet conversion that neither the conformance goldens in the corpus nor
// gatewayApi.test.ts reach: namespace label selectors (allowedRoutes, allowedListeners), ListenerSet
// listener port defaults, the remote and waypoint classes, spec.tls.backend.clientCertificateRef,
// the deprecated service-type annotation, frontend AllowInsecureFallback and unassigned addresses.
// The expected values are what istiod writes, read from pilot/pkg/config/kube/gateway
// (conversion.go buildListener, namespacesFromSelector, reportGatewayStatus,
// reportUnmanagedGatewayStatus, extractGatewayServices, validateBackendClientCertificateRef;
// gateway_collection.go) and gatewaycommon (gateway_utils.go NamespaceAcceptedByAllowListeners and
// ListenerEntryPortNumber, conversion.go ReportNotAllowedListenerSet, context.go
// ResolveGatewayInstances).
import { describe, expect, it } from 'vitest';
import { gwObjects } from '../helpers/gatewayApi.ts';
import { convertGatewayApi, internalGatewayName, type GatewayApiResult, type RegistryService } from '../../src/core/config/gatewayApi/convert.ts';
import type { Json } from '../../src/core/config/gatewayApi/objects.ts';

const SUFFIX = 'cluster.local';

function convert(text: string, registry: RegistryService[] = []): GatewayApiResult {
  return convertGatewayApi(gwObjects(text), { domainSuffix: SUFFIX, now: 'now', registry: { byHostname: (h) => registry.filter((s) => s.hostname === h) } });
}

function status(r: GatewayApiResult, kind: string, name: string, namespace?: string): Json {
  const s = r.statuses.find((x) => x.kind === kind && x.name === name && (namespace === undefined || x.namespace === namespace));
  if (!s) throw new Error(`no status for ${kind} ${name}`);
  return s.status;
}

type Cond = { status: string; reason: string; message: string };
function conditions(c: unknown): Record<string, Cond> {
  return Object.fromEntries((c as ({ type: string } & Cond)[]).map((x) => [x.type, x]));
}

function listenerConditions(r: GatewayApiResult, kind: string, name: string, listener: string, namespace?: string): Record<string, Cond> {
  const l = (status(r, kind, name, namespace).listeners as Json[]).find((x) => x.name === listener);
  if (!l) throw new Error(`no status for listener ${listener}`);
  return conditions(l.conditions);
}

const namespace = (name: string, labels: string) => `
apiVersion: v1
kind: Namespace
metadata: {name: ${name}, labels: {${labels}}}
---`;

const CERT = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
const secret = (name: string, ns: string) => `
apiVersion: v1
kind: Secret
metadata: {name: ${name}, namespace: ${ns}}
stringData: {tls.crt: ${JSON.stringify(CERT)}, tls.key: ${JSON.stringify(KEY)}}
---`;

describe('allowedRoutes namespace selectors', () => {
  it('lists the namespaces a selector matches (matchLabels, In, NotIn, Exists, DoesNotExist, the implied name label), and none for an invalid one', () => {
    const listener = (name: string, selector: string) =>
      `  - {name: ${name}, port: 80, protocol: HTTP, hostname: ${name}.example.com, allowedRoutes: {namespaces: {from: Selector, selector: ${selector}}}}\n`;
    const r = convert(`${namespace('a', 'team: x, env: prod')}${namespace('b', 'team: y')}${namespace('c', 'team: x, env: dev')}${namespace('d', '')}
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  listeners:
${listener('in', '{matchExpressions: [{key: team, operator: In, values: [x, y]}, {key: env, operator: NotIn, values: [dev]}]}')}${listener(
  'exists',
  '{matchLabels: {team: x}, matchExpressions: [{key: env, operator: Exists}]}',
)}${listener('absent', '{matchExpressions: [{key: team, operator: DoesNotExist}]}')}${listener(
  'named',
  '{matchLabels: {kubernetes.io/metadata.name: b}}',
)}${listener('invalid', '{matchExpressions: [{key: team, operator: In, values: []}]}')}${listener('nothing', '{matchLabels: {team: z}}')}`);
    const hosts = (l: string) => r.gateways.find((g) => g.metadata.name === internalGatewayName('gw', l))!.spec.servers as Json[];
    expect(hosts('in')[0]!.hosts).toEqual(['a/in.example.com', 'b/in.example.com']);
    expect(hosts('exists')[0]!.hosts).toEqual(['a/exists.example.com', 'c/exists.example.com']);
    expect(hosts('absent')[0]!.hosts).toEqual(['d/absent.example.com']);
    expect(hosts('named')[0]!.hosts).toEqual(['b/named.example.com']);
    // Nothing selected: the `~` namespace, which matches no route.
    expect(hosts('invalid')[0]!.hosts).toEqual(['~/invalid.example.com']);
    expect(hosts('nothing')[0]!.hosts).toEqual(['~/nothing.example.com']);
  });
});

describe('ListenerSets', () => {
  const gateway = (allowed: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  allowedListeners: {namespaces: ${allowed}}
  listeners: [{name: main, port: 80, protocol: HTTP, hostname: main.example.com}]
---`;
  const listenerSet = (name: string, ns: string, listeners: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: ${name}, namespace: ${ns}}
spec:
  parentRef: {name: gw, namespace: istio-system, kind: Gateway, group: gateway.networking.k8s.io}
  listeners: ${listeners}
---`;
  const NOT_ALLOWED = "The parent Gateway does not allow this reference; check the 'spec.allowedRoutes'";

  it('attaches the ListenerSets of namespaces the Gateway selects, and reports NotAllowed for the others', () => {
    const r = convert(
      `${namespace('ok', 'ls: ok')}${namespace('no', 'ls: no')}${gateway('{from: Selector, selector: {matchExpressions: [{key: ls, operator: In, values: [ok]}]}}')}${listenerSet(
        's',
        'ok',
        '[{name: l, protocol: HTTP, hostname: s.example.com}]',
      )}${listenerSet('s', 'no', '[{name: l, protocol: HTTP, hostname: s.example.com}]')}${listenerSet(
        's',
        'unknown',
        '[{name: l, protocol: HTTP, hostname: s.example.com}]',
      )}`,
    );
    const g = r.gateways.find((x) => x.metadata.namespace === 'ok')!;
    expect(g.metadata.name).toBe(internalGatewayName('s', 'l'));
    expect(g.metadata.annotations).toMatchObject({ 'internal.istio.io/parents': 'ListenerSet/s/l.ok', 'internal.istio.io/parent-namespace': 'istio-system' });
    // An HTTP listener entry without a port listens on 80.
    expect(g.spec.servers).toEqual([{ port: { name: 'default', number: 80, protocol: 'HTTP' }, hosts: ['ok/s.example.com'] }]);
    expect(status(r, 'Gateway', 'gw').attachedListenerSets).toBe(1);
    for (const ns of ['no', 'unknown']) {
      const s = status(r, 'ListenerSet', 's', ns);
      expect(s.listeners).toBeUndefined();
      expect(conditions(s.conditions)).toMatchObject({
        Accepted: { status: 'False', reason: 'NotAllowed', message: NOT_ALLOWED },
        Programmed: { status: 'False', reason: 'NotAllowed', message: NOT_ALLOWED },
      });
    }
  });

  it("allows only the Gateway's own namespace with from: Same", () => {
    const r = convert(
      `${gateway('{from: Same}')}${listenerSet('same', 'istio-system', '[{name: l, port: 8080, protocol: HTTP}]')}${listenerSet('other', 'default', '[{name: l, port: 8080, protocol: HTTP}]')}`,
    );
    expect(r.gateways.map((g) => g.metadata.name).sort()).toEqual([internalGatewayName('gw', 'main'), internalGatewayName('same', 'l')].sort());
    expect(conditions(status(r, 'ListenerSet', 'other').conditions).Accepted).toMatchObject({ status: 'False', reason: 'NotAllowed' });
  });

  it('rejects a listener entry without a port unless it is HTTP or HTTPS, and an HTTPS one without TLS', () => {
    const r = convert(
      `${gateway('{from: All}')}${listenerSet('s', 'default', '[{name: tcp, protocol: TCP}, {name: https, port: 443, protocol: HTTPS, hostname: h.example.com}]')}`,
    );
    expect(listenerConditions(r, 'ListenerSet', 's', 'tcp').Accepted).toMatchObject({
      status: 'False',
      reason: 'UnsupportedProtocol',
      message: 'protocol TCP requires a port to be set',
    });
    const https = listenerConditions(r, 'ListenerSet', 's', 'https');
    expect(https.Accepted).toMatchObject({ status: 'False', reason: 'UnsupportedProtocol', message: 'protocol is HTTPS but no TLS section is defined' });
    expect(https.Programmed).toMatchObject({ status: 'False', reason: 'Invalid', message: 'Bad TLS configuration' });
    expect(r.gateways.map((g) => g.metadata.name)).toEqual([internalGatewayName('gw', 'main')]);
  });
});

describe('Gateway classes and status', () => {
  it('reports a remote (istio-remote) Gateway as accepted and programmed without generating anything', () => {
    const r = convert(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: remote, namespace: istio-system}
spec:
  gatewayClassName: istio-remote
  addresses: [{type: IPAddress, value: 1.2.3.4}]
  listeners: [{name: http, port: 80, protocol: HTTP}]
status:
  listeners: [{name: http, attachedRoutes: 2, supportedKinds: [], conditions: []}]
`);
    expect(r.gateways).toEqual([]);
    const s = status(r, 'Gateway', 'remote');
    expect(s.addresses).toEqual([{ type: 'IPAddress', value: '1.2.3.4' }]);
    expect(s.listeners).toBeUndefined();
    expect(conditions(s.conditions)).toMatchObject({
      Accepted: { status: 'True', reason: 'Accepted', message: 'Resource accepted' },
      Programmed: { status: 'True', reason: 'Programmed', message: 'This Gateway is remote; Istio will not program it' },
    });
  });

  it('accepts only a 15008 HBONE listener on a waypoint, and generates no Istio Gateway for it', () => {
    const r = convert(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: wp, namespace: default}
spec:
  gatewayClassName: istio-waypoint
  listeners: [{name: mesh, port: 15008, protocol: HBONE}, {name: http, port: 80, protocol: HTTP}]
`);
    expect(r.gateways).toEqual([]);
    expect(listenerConditions(r, 'Gateway', 'wp', 'mesh').Accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(listenerConditions(r, 'Gateway', 'wp', 'http').Accepted).toMatchObject({
      status: 'False',
      reason: 'UnsupportedProtocol',
      message: 'Expected a single listener on port 15008 with protocol "HBONE"',
    });
  });

  describe('spec.tls.backend.clientCertificateRef', () => {
    const gateway = (ref: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  tls: {backend: {clientCertificateRef: ${ref}}}
  listeners: [{name: http, port: 80, protocol: HTTP}]
---`;
    const resolvedRefs = (r: GatewayApiResult) => conditions(status(r, 'Gateway', 'gw').conditions).ResolvedRefs;

    it('must name a Secret that exists', () => {
      expect(resolvedRefs(convert(gateway('{group: "", kind: ConfigMap, name: cm}')))).toMatchObject({
        status: 'False',
        reason: 'InvalidClientCertificateRef',
        message: 'invalid clientCertificateRef /ConfigMap/cm., only secret is allowed',
      });
      expect(resolvedRefs(convert(gateway('{name: missing}')))).toMatchObject({
        status: 'False',
        reason: 'InvalidClientCertificateRef',
        message: 'invalid clientCertificateRef //missing., secret istio-system/missing not found',
      });
    });

    it('needs a ReferenceGrant for a Secret in another namespace', () => {
      const text = `${gateway('{name: client, namespace: other}')}${secret('client', 'other')}`;
      expect(resolvedRefs(convert(text))).toMatchObject({
        status: 'False',
        reason: 'RefNotPermitted',
        message: 'clientCertificateRef client/other not accessible to a Gateway in namespace "istio-system" (missing a ReferenceGrant?)',
      });
      const granted = convert(`${text}
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: g, namespace: other}
spec:
  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: istio-system}]
  to: [{group: "", kind: Secret}]
`);
      expect(resolvedRefs(granted)).toMatchObject({ status: 'True', reason: 'ResolvedRefs', message: 'All references resolved' });
      // The listeners are unaffected.
      expect(conditions(status(granted, 'Gateway', 'gw').conditions).Accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
    });
  });

  it('rejects the deprecated networking.istio.io/service-type annotation on a Gateway with a Hostname address, and still converts it', () => {
    const r = convert(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system, annotations: {networking.istio.io/service-type: ClusterIP}}
spec:
  gatewayClassName: istio
  addresses: [{type: Hostname, value: ingress}]
  listeners: [{name: http, port: 80, protocol: HTTP}]
`);
    expect(conditions(status(r, 'Gateway', 'gw').conditions).Accepted).toMatchObject({
      status: 'False',
      reason: 'DeprecatedField',
      message: 'annotation networking.istio.io/service-type is deprecated, use Spec.Infrastructure.Routeability',
    });
    expect(r.gateways).toHaveLength(1);
  });

  it('reports InsecureFrontendValidationMode for AllowInsecureFallback (default or per port), and removes it otherwise', () => {
    const gateway = (frontend: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  tls: {frontend: ${frontend}}
  listeners: [{name: http, port: 80, protocol: HTTP}]
status:
  conditions: [{type: InsecureFrontendValidationMode, status: "True", reason: ConfigurationChanged, message: old, lastTransitionTime: "2024-01-01T00:00:00Z"}]
`;
    const insecure = (frontend: string) => conditions(status(convert(gateway(frontend)), 'Gateway', 'gw').conditions).InsecureFrontendValidationMode;
    const expected = { status: 'True', reason: 'ConfigurationChanged', message: 'Gateway is operating in AllowInsecureFallback mode for frontend validation' };
    expect(insecure('{default: {validation: {mode: AllowInsecureFallback}}}')).toMatchObject(expected);
    expect(insecure('{default: {}, perPort: [{port: 443, tls: {validation: {mode: AllowInsecureFallback}}}]}')).toMatchObject(expected);
    expect(insecure('{default: {validation: {mode: AllowValidOnly}}}')).toBeUndefined();
  });

  it('reports an address pending on a LoadBalancer Service, and a Service without endpoints', () => {
    const text = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  addresses: [{type: Hostname, value: ingress}]
  listeners: [{name: http, port: 80, protocol: HTTP}]
`;
    const host = `ingress.istio-system.svc.${SUFFIX}`;
    const service = (lb: boolean, endpoints: number[]): RegistryService => ({
      hostname: host,
      namespace: 'istio-system',
      ports: [{ name: 'http', port: 80 }],
      endpointPorts: new Map([[80, endpoints]]),
      addresses: ['10.0.0.1'],
      externalAddresses: [],
      loadBalancer: lb,
      labels: {},
    });
    const programmed = (s: RegistryService) => conditions(status(convert(text, [s]), 'Gateway', 'gw').conditions).Programmed;
    expect(programmed(service(true, [8080]))).toMatchObject({
      status: 'False',
      reason: 'AddressNotAssigned',
      message: `Assigned to service(s) ${host}:80, but failed to assign to all requested addresses: address pending for hostname "${host}"`,
    });
    expect(programmed(service(false, []))).toMatchObject({
      status: 'False',
      reason: 'AddressNotAssigned',
      message: `Failed to assign to any requested addresses: no instances found for hostname "${host}"`,
    });
  });
});
