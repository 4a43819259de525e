// checkers.AmbientPolicyChecker and the ambient classification it shares. Expected values are
// Kiali's, from business/checkers/ambient_policy_checker_test.go and
// business/checkers/ambient/l7_classification_test.go at d733a096 (file:line per test); the
// inputs are the Go tests' objects written as Kubernetes objects (a namespace the Go test marks
// IsAmbient without labels is given through the namespaceInfo override).
import { describe, expect, it } from 'vitest';
import { ambientPolicyChecker } from '../../../../src/core/analysis/packs/kiali/ambientPolicy.ts';
import {
  appliesToMeshTraffic,
  hasTargetRefs,
  isDataplaneAmbientNamespace,
  isEnrolledForWaypoint,
  isL7AuthorizationPolicy,
  isL7Condition,
  isL7DestinationRule,
  isL7Telemetry,
  virtualServiceRequiresWaypoint,
} from '../../../../src/core/analysis/packs/kiali/ambient/l7Classification.ts';
import type { KialiContextOverrides } from '../../../../src/core/analysis/packs/kiali/index.ts';
import { deployment, l4Policy, l7Policy, l7PolicyWithTargetRefs, namespace, runChecker, service, validationOf } from './kialiHarness.ts';

const NS = 'ambient-ns';
const ENROLLED = { 'istio.io/use-waypoint': 'waypoint' };
const run = (objects: object[], overrides: KialiContextOverrides = {}) => runChecker(ambientPolicyChecker, objects, overrides);
/** The Go tests' `{Name: ns, IsAmbient: true}`. */
const ambient = (...names: string[]): KialiContextOverrides => ({ namespaceInfo: Object.fromEntries(names.map((n) => [n, { isAmbient: true }])) });
const reviewsV1 = deployment(NS, 'reviews-v1', { app: 'reviews' });

const vs = (ns: string, name: string, hosts: string[], extra: object = {}) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: ns },
  spec: { hosts, http: [{ name: 'route' }], ...extra },
});
const ra = (spec: object) => ({ apiVersion: 'security.istio.io/v1', kind: 'RequestAuthentication', metadata: { name: 'jwt', namespace: NS }, spec });
const wasm = (ns: string, spec: object) => ({
  apiVersion: 'extensions.istio.io/v1alpha1',
  kind: 'WasmPlugin',
  metadata: { name: 'reviews-wasm', namespace: ns },
  spec: { url: 'oci://invalid.example/wasm:latest', ...spec },
});
const telemetry = (ns: string, name: string, spec: object) => ({
  apiVersion: 'telemetry.istio.io/v1',
  kind: 'Telemetry',
  metadata: { name, namespace: ns },
  spec,
});
const reviewsRef = { targetRefs: [{ group: '', kind: 'Service', name: 'reviews' }] };

describe('AmbientPolicyChecker: AuthorizationPolicy and RequestAuthentication', () => {
  it('L7 policy by selector, namespace not enrolled: KIA0110 then KIA0109, invalid (ambient_policy_checker_test.go:27)', () => {
    const vals = run([namespace(NS), l7Policy(NS, { app: 'reviews' }), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'auth-policy')).toEqual({ codes: ['KIA0110', 'KIA0109'], paths: ['', ''], valid: false });
  });

  it('namespace enrolled: only KIA0110 (no KIA0109) (ambient_policy_checker_test.go:57)', () => {
    const vals = run([namespace(NS, ENROLLED), l7Policy(NS, { app: 'reviews' }), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'auth-policy')?.codes).toEqual(['KIA0110']);
  });

  it('targetRefs and an enrolled namespace: nothing (ambient_policy_checker_test.go:87)', () => {
    const vals = run([namespace(NS, ENROLLED), l7PolicyWithTargetRefs(NS, 'reviews-l7-deny-get', 'reviews'), reviewsV1], ambient(NS));
    expect(vals).toEqual([]);
  });

  it('an L4 policy: nothing (ambient_policy_checker_test.go:112)', () => {
    expect(run([namespace(NS), l4Policy(NS, 'l4-ap'), deployment(NS, 'app')], ambient(NS))).toEqual([]);
  });

  it('RequestAuthentication without targetRefs in an unenrolled namespace: KIA1115 then KIA1110 (ambient_policy_checker_test.go:250)', () => {
    const vals = run([namespace(NS), ra({}), deployment(NS, 'app')], ambient(NS));
    expect(validationOf(vals, 'RequestAuthentication', NS, 'jwt')).toEqual({ codes: ['KIA1115', 'KIA1110'], paths: ['', ''], valid: false });
  });

  it('RequestAuthentication with targetRefs and enrollment: nothing (ambient_policy_checker_test.go:280)', () => {
    const vals = run([namespace(NS, ENROLLED), ra({ ...reviewsRef, jwtRules: [{ issuer: 'https://example.com' }] }), reviewsV1], ambient(NS));
    expect(vals).toEqual([]);
  });

  it('non-Ambient namespaces: nothing for either kind (ambient_policy_checker_test.go:314, :337)', () => {
    expect(run([namespace('sidecar-ns'), l7Policy('sidecar-ns', { app: 'reviews' }), deployment('sidecar-ns', 'reviews')])).toEqual([]);
    expect(run([namespace(NS), ra({}), deployment(NS, 'app')])).toEqual([]);
  });

  it('a selector matching only a workload opted out of Ambient: KIA0110 alone (ambient_policy_checker_test.go:362)', () => {
    const optedOut = deployment(NS, 'reviews-v1', { app: 'reviews', 'istio.io/dataplane-mode': 'none' });
    // The namespace is Ambient through its label here, as in the Go test.
    const vals = run([namespace(NS, { 'istio.io/dataplane-mode': 'ambient' }), l7Policy(NS, { app: 'reviews' }), optedOut]);
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'auth-policy')?.codes).toEqual(['KIA0110']);
  });

  it('a targetRef Service opting out of the waypoint warns despite namespace enrollment: KIA0109 alone (ambient_policy_checker_test.go:395)', () => {
    const vals = run(
      [
        namespace(NS, ENROLLED),
        l7PolicyWithTargetRefs(NS, 'reviews-l7-deny-get', 'reviews'),
        service(NS, 'reviews', { 'istio.io/use-waypoint': 'none' }),
        reviewsV1,
      ],
      ambient(NS),
    );
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'reviews-l7-deny-get')).toEqual({ codes: ['KIA0109'], paths: [''], valid: false });
  });

  it('deploying a waypoint without enrolling still warns (ambient_policy_checker_test.go:568)', () => {
    const waypoint = deployment(NS, 'waypoint', { 'gateway.istio.io/managed': 'istio.io-mesh-controller' });
    const vals = run([namespace(NS), l7Policy(NS, { app: 'reviews' }), waypoint, reviewsV1], ambient(NS));
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'auth-policy')?.codes).toContain('KIA0109');
  });
});

describe('AmbientPolicyChecker: VirtualService and DestinationRule, by destination Service', () => {
  it('Service opted out of the namespace waypoint: KIA1113 on spec/hosts[0] (ambient_policy_checker_test.go:135)', () => {
    const vals = run(
      [namespace(NS, ENROLLED), vs(NS, 'reviews', ['reviews']), service(NS, 'reviews', { 'istio.io/use-waypoint': 'none' }), deployment(NS, 'reviews')],
      ambient(NS),
    );
    expect(validationOf(vals, 'VirtualService', NS, 'reviews')).toEqual({ codes: ['KIA1113'], paths: ['spec/hosts[0]'], valid: false });
  });

  it('Service enrolled by its own label: nothing (ambient_policy_checker_test.go:181)', () => {
    const vals = run(
      [namespace(NS), vs(NS, 'reviews', ['reviews']), service(NS, 'reviews', { 'istio.io/use-waypoint': 'reviews-waypoint' }), deployment(NS, 'reviews')],
      ambient(NS),
    );
    expect(vals).toEqual([]);
  });

  it('a VirtualService bound only to an ingress Gateway needs no waypoint (ambient_policy_checker_test.go:220)', () => {
    expect(run([namespace(NS), vs(NS, 'ingress-vs', ['reviews'], { gateways: ['my-ingress'] }), deployment(NS, 'reviews')], ambient(NS))).toEqual([]);
  });

  it('an L7 VirtualService outside the Ambient Service’s namespace: KIA1114 first, on spec/hosts[0] (ambient_policy_checker_test.go:433)', () => {
    const vals = run(
      [
        namespace('bookinfo', ENROLLED),
        namespace('test'),
        vs('test', 'reviews-from-test', ['reviews.bookinfo.svc.cluster.local']),
        service('bookinfo', 'reviews', ENROLLED),
        deployment('bookinfo', 'reviews-v1', { app: 'reviews' }),
      ],
      ambient('bookinfo'),
    );
    const v = validationOf(vals, 'VirtualService', 'test', 'reviews-from-test');
    expect(v?.codes[0]).toBe('KIA1114');
    expect(v?.paths[0]).toBe('spec/hosts[0]');
  });

  it('an L7 DestinationRule in another namespace: KIA0212 on spec/host, no KIA0211 (ambient_policy_checker_test.go:481)', () => {
    const dr = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name: 'reviews-from-test', namespace: 'test' },
      spec: { host: 'reviews.bookinfo.svc.cluster.local', trafficPolicy: { connectionPool: { http: { http1MaxPendingRequests: 1024 } } } },
    };
    const vals = run(
      [namespace('bookinfo', ENROLLED), namespace('test'), dr, service('bookinfo', 'reviews'), deployment('bookinfo', 'reviews-v1', { app: 'reviews' })],
      ambient('bookinfo'),
    );
    expect(validationOf(vals, 'DestinationRule', 'test', 'reviews-from-test')).toEqual({ codes: ['KIA0212'], paths: ['spec/host'], valid: false });
  });

  it('destination namespace not Ambient: nothing (ambient_policy_checker_test.go:536)', () => {
    const vals = run([
      namespace('bookinfo'),
      namespace('test'),
      vs('test', 'reviews-from-test', ['reviews.bookinfo.svc.cluster.local']),
      service('bookinfo', 'reviews'),
    ]);
    expect(vals).toEqual([]);
  });

  // No Go test asserts KIA1109/KIA0210/KIA0211; these follow checkHostBasedConfig and
  // resolveAmbientDestinations (ambient_policy_checker.go:200-282).
  it('no Ambient destination resolves: the config’s own unenrolled Ambient namespace gives KIA1109 on spec/hosts[0]; enrolled, nothing', () => {
    const vals = run([namespace(NS), vs(NS, 'external', ['api.example.com'])], ambient(NS));
    expect(validationOf(vals, 'VirtualService', NS, 'external')).toEqual({ codes: ['KIA1109'], paths: ['spec/hosts[0]'], valid: false });
    expect(run([namespace(NS, ENROLLED), vs(NS, 'external', ['api.example.com'])], ambient(NS))).toEqual([]);
  });

  it('DestinationRule: KIA0211 for an opted-out Service of its namespace, KIA0210 when nothing resolves, nothing for L4 settings', () => {
    const dr = (name: string, host: string, trafficPolicy: object) => ({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name, namespace: NS },
      spec: { host, trafficPolicy },
    });
    const outlier = { outlierDetection: { consecutive5xxErrors: 3 } };
    const optedOut = run(
      [namespace(NS, ENROLLED), dr('reviews', 'reviews', outlier), service(NS, 'reviews', { 'istio.io/use-waypoint': 'none' })],
      ambient(NS),
    );
    expect(validationOf(optedOut, 'DestinationRule', NS, 'reviews')).toEqual({ codes: ['KIA0211'], paths: ['spec/host'], valid: false });
    const unresolved = run([namespace(NS), dr('ext', 'api.example.com', outlier)], ambient(NS));
    expect(validationOf(unresolved, 'DestinationRule', NS, 'ext')).toEqual({ codes: ['KIA0210'], paths: ['spec/host'], valid: false });
    expect(run([namespace(NS), dr('tls', 'reviews', { tls: { mode: 'ISTIO_MUTUAL' } }), service(NS, 'reviews')], ambient(NS))).toEqual([]);
    // Same namespace as its enrolled Service: neither KIA0212 nor KIA0211.
    expect(run([namespace(NS, ENROLLED), dr('reviews', 'reviews', outlier), service(NS, 'reviews')], ambient(NS))).toEqual([]);
  });
});

describe('AmbientPolicyChecker: WasmPlugin and Telemetry', () => {
  it('WasmPlugin by selector, namespace not enrolled: KIA1116 then KIA1111 (ambient_policy_checker_test.go:597)', () => {
    const vals = run([namespace(NS), wasm(NS, { selector: { matchLabels: { app: 'reviews' } } }), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'WasmPlugin', NS, 'reviews-wasm')).toEqual({ codes: ['KIA1116', 'KIA1111'], paths: ['', ''], valid: false });
  });

  it('WasmPlugin by selector, namespace enrolled: KIA1116 alone, invalid (ambient_policy_checker_test.go:630)', () => {
    const vals = run([namespace(NS, ENROLLED), wasm(NS, { selector: { matchLabels: { app: 'reviews' } } }), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'WasmPlugin', NS, 'reviews-wasm')).toEqual({ codes: ['KIA1116'], paths: [''], valid: false });
  });

  it('WasmPlugin with targetRefs and enrollment: a valid validation with no checks (ambient_policy_checker_test.go:665)', () => {
    const vals = run([namespace(NS, ENROLLED), wasm(NS, reviewsRef), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'WasmPlugin', NS, 'reviews-wasm')).toEqual({ codes: [], paths: [], valid: true });
  });

  it('WasmPlugin outside Ambient: no validation at all (ambient_policy_checker_test.go:701)', () => {
    expect(run([namespace('sidecar-ns'), wasm('sidecar-ns', {})])).toEqual([]);
  });

  it('L7 Telemetry without targetRefs, not enrolled: KIA1117 then KIA1112 (ambient_policy_checker_test.go:725)', () => {
    const vals = run([namespace(NS), telemetry(NS, 'reviews-tracing', { tracing: [{}] }), reviewsV1], ambient(NS));
    expect(validationOf(vals, 'Telemetry', NS, 'reviews-tracing')).toEqual({ codes: ['KIA1117', 'KIA1112'], paths: ['', ''], valid: false });
  });

  it('L7 Telemetry with targetRefs and enrollment, and L4 Telemetry: valid, no checks (ambient_policy_checker_test.go:757, :793)', () => {
    const enrolled = run([namespace(NS, ENROLLED), telemetry(NS, 'reviews-tracing', { ...reviewsRef, tracing: [{}] }), reviewsV1], ambient(NS));
    expect(validationOf(enrolled, 'Telemetry', NS, 'reviews-tracing')).toEqual({ codes: [], paths: [], valid: true });
    const l4 = run([namespace(NS), telemetry(NS, 'reviews-tcp-metrics', { metrics: [{}] }), reviewsV1], ambient(NS));
    expect(validationOf(l4, 'Telemetry', NS, 'reviews-tcp-metrics')).toEqual({ codes: [], paths: [], valid: true });
  });

  it('Telemetry outside Ambient or in a control plane marked Ambient: no validation (ambient_policy_checker_test.go:824, :848)', () => {
    expect(run([namespace('sidecar-ns'), telemetry('sidecar-ns', 'reviews-tracing', { tracing: [{}] })])).toEqual([]);
    const cp = run([namespace('istio-system'), telemetry('istio-system', 'otel-tracing', { tracing: [{}] })], {
      namespaceInfo: { 'istio-system': { isAmbient: true, isControlPlane: true } },
    });
    expect(cp).toEqual([]);
  });
});

describe('ambient classification (l7_classification_test.go)', () => {
  it('AuthorizationPolicy L7 fields, L4 fields and empty policies (:18, :33, :48, :63, :81)', () => {
    expect(isL7AuthorizationPolicy({ rules: [{ to: [{ operation: { methods: ['GET', 'POST'] } }] }] })).toBe(true);
    expect(isL7AuthorizationPolicy({ rules: [{ to: [{ operation: { notMethods: ['DELETE'] } }] }] })).toBe(true);
    expect(isL7AuthorizationPolicy({ rules: [{ from: [{ source: { notRequestPrincipals: ['*'] } }] }] })).toBe(true);
    expect(
      isL7AuthorizationPolicy({
        rules: [{ from: [{ source: { principals: ['cluster.local/ns/default/sa/myapp'] } }], to: [{ operation: { ports: ['8080'] } }] }],
      }),
    ).toBe(false);
    expect(isL7AuthorizationPolicy({})).toBe(false);
  });

  it('targetRefs, conditions, DestinationRules, VirtualServices, Telemetry (:88, :147, :151, :155, :168, :178, :186, :194, :203, :209)', () => {
    expect(hasTargetRefs({})).toBe(false);
    expect(hasTargetRefs({ targetRefs: [{ kind: 'Service', name: 'reviews' }] })).toBe(true);
    expect(hasTargetRefs({ targetRef: { kind: 'Gateway', name: 'waypoint' } })).toBe(true);
    expect(isL7Condition('destination.port')).toBe(false);
    expect(isL7Condition('request.headers[x-forwarded-for]')).toBe(true);
    expect(isL7DestinationRule({ trafficPolicy: { connectionPool: { http: { http1MaxPendingRequests: 1024 } } } })).toBe(true);
    expect(isL7DestinationRule({ trafficPolicy: { tls: { mode: 'ISTIO_MUTUAL' } } })).toBe(false);
    expect(virtualServiceRequiresWaypoint({ http: [{ name: 'route-1' }] })).toBe(true);
    expect(virtualServiceRequiresWaypoint({ tcp: [{}] })).toBe(false);
    expect(virtualServiceRequiresWaypoint({ gateways: ['my-ingress-gateway'], http: [{ name: 'route-1' }] })).toBe(false);
    expect(appliesToMeshTraffic([])).toBe(true);
    expect(appliesToMeshTraffic(['mesh'])).toBe(true);
    expect(appliesToMeshTraffic(['my-ingress-gateway'])).toBe(false);
    expect(isL7Telemetry({ tracing: [{}] })).toBe(true);
    expect(isL7Telemetry({})).toBe(false);
  });

  it('dataplane-Ambient namespaces and waypoint enrollment (:126, :229)', () => {
    const ns = (isAmbient: boolean, isControlPlane: boolean, labels: Record<string, string> = {}) => ({ labels, isAmbient, isControlPlane });
    expect(isDataplaneAmbientNamespace(undefined)).toBe(false);
    expect(isDataplaneAmbientNamespace(ns(true, true))).toBe(false);
    expect(isDataplaneAmbientNamespace(ns(true, true, { 'istio.io/dataplane-mode': 'ambient' }))).toBe(true);
    expect(isDataplaneAmbientNamespace(ns(true, false))).toBe(true);
    expect(isDataplaneAmbientNamespace(ns(false, false))).toBe(false);
    expect(isDataplaneAmbientNamespace(ns(true, false, { 'istio.io/dataplane-mode': 'none' }))).toBe(false);
    expect(isEnrolledForWaypoint(undefined, undefined)).toBe(false);
    expect(isEnrolledForWaypoint(undefined, {})).toBe(false);
    expect(isEnrolledForWaypoint(undefined, ENROLLED)).toBe(true);
    expect(isEnrolledForWaypoint(undefined, { 'istio.io/use-waypoint': 'none' })).toBe(false);
    expect(isEnrolledForWaypoint({ 'istio.io/use-waypoint': 'none' }, ENROLLED)).toBe(false);
    expect(isEnrolledForWaypoint({ 'istio.io/use-waypoint': 'svc-waypoint' }, {})).toBe(true);
  });
});

describe('AmbientPolicyChecker on a workspace (Kiali’s namespace model derived)', () => {
  it('a namespace labelled istio.io/dataplane-mode=ambient is Ambient without any override', () => {
    const vals = run([namespace(NS, { 'istio.io/dataplane-mode': 'ambient' }), l7Policy(NS, { app: 'reviews' }), reviewsV1]);
    expect(validationOf(vals, 'AuthorizationPolicy', NS, 'auth-policy')?.codes).toEqual(['KIA0110', 'KIA0109']);
    // Without the label (and no override) Kiali's IsAmbient is false: nothing.
    expect(run([namespace(NS), l7Policy(NS, { app: 'reviews' }), reviewsV1])).toEqual([]);
  });

  it('a namespace Kiali does not know is never Ambient', () => {
    const vals = run([namespace(NS, { 'istio.io/dataplane-mode': 'ambient' }), l7Policy(NS, { app: 'reviews' }), reviewsV1], { namespaces: ['other'] });
    expect(vals).toEqual([]);
  });
});
