// The defaults istiod writes on clusters and routes, asserted from Istio's source, not from our
// output. Each test names the Go file and function its expectation comes from. Read with
// `git show` at tag 1.30.3 (the project's DEFAULT_ISTIO_VERSION is 1.30) and at master
// 86c9f01f; every expectation holds at both unless its comment says otherwise.
import { describe, expect, it } from 'vitest';
import { at, byName, CLIENT_WEB_MESH, generateFor, list, obj, viewOf } from './helpers.ts';
import type { Json } from '../../src/core/xds/types.ts';

const MAX_UINT32 = 4294967295;
const WEB = 'outbound|8080||web.app.svc.cluster.local';

const MESH = CLIENT_WEB_MESH;

/** The mesh above plus a DestinationRule for web with the given trafficPolicy (YAML flow style). */
function withDr(trafficPolicy: string): string {
  return `${MESH}---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: web, namespace: app}
spec:
  host: web.app.svc.cluster.local
  trafficPolicy: ${trafficPolicy}
`;
}

function webCluster(yaml: string, mesh: Record<string, unknown> = {}): Json {
  return byName(generateFor(viewOf(yaml, mesh), 'client-1', 'app').clusters, WEB);
}

/** A google.protobuf / envoy Percent as protojson writes it: a zero value may be left out. */
function percent(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  return Number(at(v, 'value') ?? 0);
}

describe('connect timeout', () => {
  // pkg/config/mesh/mesh.go DefaultMeshConfig: ConnectTimeout durationpb.New(10 * time.Second);
  // cluster_traffic_policy.go applyConnectionPool → applyDefaultConnectionPool copies
  // Push.Mesh.ConnectTimeout on every cluster (a nil connectionPool is replaced by an empty one
  // in applyTrafficPolicy, so it applies without any DestinationRule).
  it('is the mesh default 10s on a service cluster without a DestinationRule', () => {
    expect(webCluster(MESH).connectTimeout).toBe('10s');
  });

  // cluster_builder.go buildBlackHoleCluster / buildDefaultPassthroughCluster: ConnectTimeout: cb.req.Push.Mesh.ConnectTimeout.
  it('is the mesh default on BlackHoleCluster and PassthroughCluster', () => {
    const gen = generateFor(viewOf(MESH), 'client-1', 'app');
    expect(byName(gen.clusters, 'BlackHoleCluster').connectTimeout).toBe('10s');
    expect(byName(gen.clusters, 'PassthroughCluster').connectTimeout).toBe('10s');
  });

  it('follows meshConfig.connectTimeout', () => {
    const gen = generateFor(viewOf(MESH, { connectTimeout: '2s' }), 'client-1', 'app');
    expect(byName(gen.clusters, WEB).connectTimeout).toBe('2s');
    expect(byName(gen.clusters, 'BlackHoleCluster').connectTimeout).toBe('2s');
    expect(byName(gen.clusters, 'PassthroughCluster').connectTimeout).toBe('2s');
  });

  // applyConnectionPool: `if settings.Tcp.ConnectTimeout != nil { mc.cluster.ConnectTimeout = ... }`.
  it('is overridden by connectionPool.tcp.connectTimeout, and kept when tcp sets only other fields', () => {
    expect(webCluster(withDr('{connectionPool: {tcp: {connectTimeout: 250ms}}}')).connectTimeout).toBe('0.250s');
    expect(webCluster(withDr('{connectionPool: {tcp: {maxConnections: 5}}}')).connectTimeout).toBe('10s');
  });
});

describe('circuit breakers', () => {
  // cluster_traffic_policy.go getDefaultCircuitBreakerThresholds: MaxRetries, MaxRequests,
  // MaxConnections, MaxPendingRequests all math.MaxUint32; TrackRemaining is
  // !features.DisableTrackRemainingMetrics, and pilot/pkg/features/pilot.go registers
  // DISABLE_TRACK_REMAINING_CB_METRICS with default true, so it is false (left out).
  it('are all MaxUint32 without a DestinationRule, without trackRemaining', () => {
    expect(at(webCluster(MESH), 'circuitBreakers')).toEqual({
      thresholds: [{ maxConnections: MAX_UINT32, maxPendingRequests: MAX_UINT32, maxRequests: MAX_UINT32, maxRetries: MAX_UINT32 }],
    });
  });

  // applyConnectionPool: each threshold is set only when > 0 ("FIXME: zero is a valid value if
  // explicitly set"), so 0 keeps the MaxUint32 default.
  it('keep the default when a connection pool field is 0, and take it when > 0', () => {
    const zero = webCluster(withDr('{connectionPool: {tcp: {maxConnections: 0}, http: {http1MaxPendingRequests: 0, http2MaxRequests: 0, maxRetries: 0}}}'));
    expect(at(zero, 'circuitBreakers', 'thresholds', 0)).toEqual({
      maxConnections: MAX_UINT32,
      maxPendingRequests: MAX_UINT32,
      maxRequests: MAX_UINT32,
      maxRetries: MAX_UINT32,
    });
    const set = webCluster(withDr('{connectionPool: {tcp: {maxConnections: 1}, http: {http1MaxPendingRequests: 2, http2MaxRequests: 3, maxRetries: 4}}}'));
    expect(at(set, 'circuitBreakers', 'thresholds', 0)).toEqual({ maxConnections: 1, maxPendingRequests: 2, maxRequests: 3, maxRetries: 4 });
  });

  // applyRetryBudget: percent defaults to 20, minRetryConcurrency to 3.
  it('carry a retry budget with Istio defaults of 20% and 3', () => {
    const c = webCluster(withDr('{retryBudget: {}}'));
    expect(at(c, 'circuitBreakers', 'thresholds', 0, 'retryBudget')).toEqual({ budgetPercent: { value: 20 }, minRetryConcurrency: 3 });
  });
});

describe('outlier detection', () => {
  // cluster_traffic_policy.go applyOutlierDetection: `if outlier == nil { return }`; and
  // applyLoadBalancer (cluster_traffic_policy.go:323-327 at the oracle's module
  // istio@v0.0.0-20260827124520-eed52ebb66ad) sets HealthyPanicThreshold 0 when it is unset and
  // svc.SupportsUnhealthyEndpoints(), which pilot/pkg/model/service.go:166-174 makes true whenever
  // features.DefaultSendUnhealthyEndpoints, i.e. PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS, default true
  // (pilot/pkg/features/experimental.go:45-47). (1.30.3 has no such flag and leaves it unset.)
  it('is absent, with a 0 panic threshold, without outlierDetection', () => {
    const c = webCluster(MESH);
    expect(c.outlierDetection).toBeUndefined();
    const hpt = at(c, 'commonLbConfig', 'healthyPanicThreshold');
    expect(hpt).toBeDefined();
    expect(percent(hpt)).toBe(0);
  });

  // service.go:166-174 with PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS=false and no forcing
  // (PILOT_SEND_UNHEALTHY_ENDPOINTS false, no traffic distribution): no panic threshold at all.
  it('has no panic threshold without outlierDetection when PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS is off', () => {
    const c = byName(generateFor(viewOf(MESH), 'client-1', 'app', { features: { PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS: false } }).clusters, WEB);
    expect(at(c, 'commonLbConfig', 'healthyPanicThreshold')).toBeUndefined();
  });

  // service.go:177-181 ForcesSupportUnhealthyEndpoints: PILOT_SEND_UNHEALTHY_ENDPOINTS forces it.
  it('has a 0 panic threshold when PILOT_SEND_UNHEALTHY_ENDPOINTS forces it', () => {
    const features = { PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS: false, PILOT_SEND_UNHEALTHY_ENDPOINTS: true };
    const c = byName(generateFor(viewOf(withDr('{outlierDetection: {minHealthPercent: 30}}')), 'client-1', 'app', { features }).clusters, WEB);
    expect(percent(at(c, 'commonLbConfig', 'healthyPanicThreshold'))).toBe(0);
  });

  // applyOutlierDetection: Consecutive_5Xx = v; EnforcingConsecutive_5Xx = 100 if v > 0 else v (0).
  it('writes consecutive5xx 0 with enforcing 0 when consecutive5xxErrors is 0', () => {
    const od = obj(webCluster(withDr('{outlierDetection: {consecutive5xxErrors: 0}}')).outlierDetection);
    expect(od.consecutive5xx).toBe(0);
    expect(od.enforcingConsecutive5xx).toBe(0);
  });

  it('enforces consecutive5xx at 100% when consecutive5xxErrors > 0', () => {
    const od = obj(webCluster(withDr('{outlierDetection: {consecutive5xxErrors: 7}}')).outlierDetection);
    expect(od.consecutive5xx).toBe(7);
    expect(od.enforcingConsecutive5xx).toBe(100);
  });

  // applyOutlierDetection reads only Consecutive_5XxErrors and ConsecutiveGatewayErrors; the
  // deprecated consecutiveErrors is only a validation warning (pkg/config/validation/validation.go
  // validateOutlierDetection: "outlier detection consecutive errors is deprecated") and is not
  // written on the cluster.
  it('ignores the deprecated consecutiveErrors', () => {
    const od = obj(webCluster(withDr('{outlierDetection: {consecutiveErrors: 5}}')).outlierDetection);
    expect(od).toEqual({ enforcingSuccessRate: 0 });
  });

  // Same rule for ConsecutiveGatewayErrors → ConsecutiveGatewayFailure / EnforcingConsecutiveGatewayFailure.
  it('handles consecutiveGatewayErrors the same way (0 → 0/0, n → n/100)', () => {
    const zero = obj(webCluster(withDr('{outlierDetection: {consecutiveGatewayErrors: 0}}')).outlierDetection);
    expect([zero.consecutiveGatewayFailure, zero.enforcingConsecutiveGatewayFailure]).toEqual([0, 0]);
    const three = obj(webCluster(withDr('{outlierDetection: {consecutiveGatewayErrors: 3}}')).outlierDetection);
    expect([three.consecutiveGatewayFailure, three.enforcingConsecutiveGatewayFailure]).toEqual([3, 100]);
    // Not set in the DestinationRule: not written (the `if e := ...; e != nil` guards).
    expect(three.consecutive5xx).toBeUndefined();
    expect(three.enforcingConsecutive5xx).toBeUndefined();
  });

  // applyOutlierDetection: EnforcingSuccessRate is always 0 ("SuccessRate based outlier detection
  // should be disabled"); MaxEjectionPercent only when > 0; Interval/BaseEjectionTime copied.
  it('always disables success-rate ejection and leaves maxEjectionPercent 0 out', () => {
    const od = obj(webCluster(withDr('{outlierDetection: {interval: 30s, baseEjectionTime: 1m, maxEjectionPercent: 0}}')).outlierDetection);
    expect(od).toEqual({ enforcingSuccessRate: 0, interval: '30s', baseEjectionTime: '60s' });
    const max = obj(webCluster(withDr('{outlierDetection: {maxEjectionPercent: 40}}')).outlierDetection);
    expect(max.maxEjectionPercent).toBe(40);
  });

  // applyOutlierDetection: with SplitExternalLocalOriginErrors, ConsecutiveLocalOriginFailure and
  // its 100% enforcement only when > 0; EnforcingLocalOriginSuccessRate 0.
  it('splits local-origin errors with Istio defaults', () => {
    const none = obj(webCluster(withDr('{outlierDetection: {splitExternalLocalOriginErrors: true}}')).outlierDetection);
    expect(none).toEqual({ enforcingSuccessRate: 0, splitExternalLocalOriginErrors: true, enforcingLocalOriginSuccessRate: 0 });
    const five = obj(webCluster(withDr('{outlierDetection: {splitExternalLocalOriginErrors: true, consecutiveLocalOriginFailures: 5}}')).outlierDetection);
    expect([five.consecutiveLocalOriginFailure, five.enforcingConsecutiveLocalOriginFailure]).toEqual([5, 100]);
  });

  // applyOutlierDetection: "Disable panic threshold by default ... set the healthy_panic_threshold
  // field even if its value is 0 (defaults to 50 in Envoy)": minHealthPercent (an int32, 0 when
  // unset) >= 0 → HealthyPanicThreshold = Percent{Value: minHealthPercent}.
  it("sets healthyPanicThreshold to 0 when minHealthPercent is unset (not Envoy's 50 default)", () => {
    const c = webCluster(withDr('{outlierDetection: {consecutive5xxErrors: 5}}'));
    const hpt = at(c, 'commonLbConfig', 'healthyPanicThreshold');
    expect(hpt).toBeDefined();
    expect(percent(hpt)).toBe(0);
  });

  it('sets healthyPanicThreshold to minHealthPercent when given', () => {
    const c = webCluster(withDr('{outlierDetection: {consecutive5xxErrors: 5, minHealthPercent: 30}}'));
    expect(percent(at(c, 'commonLbConfig', 'healthyPanicThreshold'))).toBe(30);
  });

  // cluster_traffic_policy.go applyDefaultTrafficPolicy (master only; not in 1.30.3): the mesh's defaultTrafficPolicy
  // outlierDetection applies when the DestinationRule sets none; a DestinationRule block replaces it whole.
  it('takes meshConfig.defaultTrafficPolicy.outlierDetection only where the DestinationRule sets none', () => {
    const mesh = { defaultTrafficPolicy: { outlierDetection: { consecutive5xxErrors: 9 } } };
    expect(at(webCluster(MESH, mesh), 'outlierDetection', 'consecutive5xx')).toBe(9);
    const own = obj(webCluster(withDr('{outlierDetection: {consecutiveGatewayErrors: 2}}'), mesh).outlierDetection);
    expect(own.consecutive5xx).toBeUndefined();
    expect(own.consecutiveGatewayFailure).toBe(2);
  });
});

// pilot/pkg/model/service.go GetTrafficDistribution (:841-885) maps a Service's PreferClose to
// TrafficDistributionPreferSameZone (spec field, then the networking.istio.io/traffic-distribution
// annotation on the service, then on its namespace); ForcesSupportUnhealthyEndpoints (:177-191) is
// then true, so applyOutlierDetection (cluster_traffic_policy.go:543-551) forces minHealthPercent to
// 0 and applyLoadBalancer (:323-327) sets 0 when none is set. Only the panic threshold is modeled:
// the traffic distribution's endpoint and locality effects are not.
describe('panic threshold with trafficDistribution', () => {
  const preferClose = (yaml: string) => yaml.replace('  clusterIP: 10.96.1.10\n', '  clusterIP: 10.96.1.10\n  trafficDistribution: PreferClose\n');
  const nsAnnotated = (yaml: string) =>
    yaml.replace(
      'metadata: {name: app, labels: {istio-injection: enabled}}',
      'metadata: {name: app, labels: {istio-injection: enabled}, annotations: {networking.istio.io/traffic-distribution: PreferSameZone}}',
    );

  it('(the meshes of these tests generate, with the field on the Service)', () => {
    expect(preferClose(MESH)).toContain('  trafficDistribution: PreferClose\n');
    expect(nsAnnotated(MESH)).toContain('networking.istio.io/traffic-distribution: PreferSameZone');
    expect(webCluster(preferClose(MESH)).name).toBe(WEB);
    expect(webCluster(preferClose(withDr('{outlierDetection: {minHealthPercent: 30}}'))).outlierDetection).toBeDefined();
  });

  it('forces healthyPanicThreshold to 0 despite minHealthPercent', () => {
    const c = webCluster(preferClose(withDr('{outlierDetection: {consecutive5xxErrors: 5, minHealthPercent: 30}}')));
    expect(percent(at(c, 'commonLbConfig', 'healthyPanicThreshold'))).toBe(0);
  });

  it('forces it from the namespace annotation too', () => {
    const c = webCluster(nsAnnotated(withDr('{outlierDetection: {consecutive5xxErrors: 5, minHealthPercent: 30}}')));
    expect(percent(at(c, 'commonLbConfig', 'healthyPanicThreshold'))).toBe(0);
  });

  it('sets healthyPanicThreshold 0 without outlier detection', () => {
    expect(percent(at(webCluster(preferClose(MESH)), 'commonLbConfig', 'healthyPanicThreshold'))).toBe(0);
  });
});

describe('route defaults', () => {
  const gen = generateFor(viewOf(MESH), 'client-1', 'app');
  const vh = list(byName(gen.routes, '8080').virtualHosts).find((v) => v.name === 'web.app.svc.cluster.local:8080');
  const route = list(vh?.routes)[0];

  // route/route.go BuildDefaultHTTPOutboundRoute → setTimeout(action, nil, nil): Timeout =
  // Notimeout (0s) and, the timeout being 0, MaxGrpcTimeout = Notimeout.
  it('has timeout 0s and maxGrpcTimeout 0s without a VirtualService', () => {
    expect(at(route, 'route', 'cluster')).toBe(WEB);
    expect(at(route, 'route', 'timeout')).toBe('0s');
    expect(at(route, 'route', 'maxGrpcTimeout')).toBe('0s');
  });

  // route/retry/retry.go cachedDefaultPolicy: NumRetries 2, RetryOn defaultRetryOn,
  // HostSelectionRetryMaxAttempts 5, RetryHostPredicate [previous_hosts].
  it("has Istio's default retry policy", () => {
    const rp = obj(at(route, 'route', 'retryPolicy'));
    expect(rp.numRetries).toBe(2);
    expect(rp.retryOn).toBe('connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes');
    expect(Number(rp.hostSelectionRetryMaxAttempts)).toBe(5);
    expect(list(rp.retryHostPredicate).map((p) => p.name)).toEqual(['envoy.retry_host_predicates.previous_hosts']);
  });

  const vsMesh = (http: string) => `${MESH}---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: web, namespace: app}
spec:
  hosts: [web]
  http:
  - ${http}
    route: [{destination: {host: web}}]
`;
  const vsRoute = (http: string, mesh: Record<string, unknown> = {}) => {
    const g = generateFor(viewOf(vsMesh(http), mesh), 'client-1', 'app');
    const v = list(byName(g.routes, '8080').virtualHosts).find((x) => x.name === 'web.app.svc.cluster.local:8080');
    return list(v?.routes)[0];
  };

  // retry.go ConvertPolicy: `if in.Attempts <= 0 { return nil }` — retries disabled.
  it('drops the retry policy when a VirtualService sets attempts 0', () => {
    expect(at(vsRoute('retries: {attempts: 0}'), 'route', 'retryPolicy')).toBeUndefined();
  });

  // ConvertPolicy: status codes in retryOn go to RetriableStatusCodes and "retriable-status-codes" is
  // appended when missing; other fields keep newRetryPolicy's defaults.
  it('moves status codes out of retryOn and appends retriable-status-codes', () => {
    const rp = obj(at(vsRoute('retries: {attempts: 3, retryOn: "gateway-error,503"}'), 'route', 'retryPolicy'));
    expect(rp.retryOn).toBe('gateway-error,retriable-status-codes');
    expect(rp.retriableStatusCodes).toEqual([503]);
    expect(rp.numRetries).toBe(3);
    expect(list(rp.retryHostPredicate).map((p) => p.name)).toEqual(['envoy.retry_host_predicates.previous_hosts']);
  });

  // setTimeout(action, nil, ...): a VirtualService route without timeout gets Notimeout too.
  it('has timeout 0s on a VirtualService route without timeout', () => {
    const r = vsRoute('name: r1');
    expect(at(r, 'route', 'timeout')).toBe('0s');
    expect(at(r, 'route', 'maxGrpcTimeout')).toBe('0s');
  });

  // setTimeout: a VirtualService timeout is used, and MaxGrpcTimeout mirrors a non-zero timeout.
  it('mirrors a VirtualService timeout into maxGrpcTimeout', () => {
    const r = vsRoute('timeout: 5s');
    expect(at(r, 'route', 'timeout')).toBe('5s');
    expect(at(r, 'route', 'maxGrpcTimeout')).toBe('5s');
  });

  // route.go BuildDefaultHTTPOutboundRoute: retry.ConvertPolicy(mesh.GetDefaultHttpRetryPolicy(), false).
  it('uses meshConfig.defaultHttpRetryPolicy for the default route', () => {
    const g = generateFor(viewOf(MESH, { defaultHttpRetryPolicy: { attempts: 4 } }), 'client-1', 'app');
    const v = list(byName(g.routes, '8080').virtualHosts).find((x) => x.name === 'web.app.svc.cluster.local:8080');
    expect(at(list(v?.routes)[0], 'route', 'retryPolicy', 'numRetries')).toBe(4);
  });
});

describe('inbound route defaults', () => {
  const grpcMesh = MESH.replace('ports: [{name: http, port: 8080}]', 'ports: [{name: http, port: 8080}, {name: grpc-api, port: 9000}]').replace(
    'ports: [{containerPort: 8080}]',
    'ports: [{containerPort: 8080}, {containerPort: 9000}]',
  );
  const gen = generateFor(viewOf(grpcMesh), 'web-1', 'app');
  const inboundRoute = (port: number): Json => {
    const vi = byName(gen.listeners, 'virtualInbound');
    for (const fc of list(vi.filterChains)) {
      if (at(fc, 'filterChainMatch', 'destinationPort') !== port) continue;
      for (const f of list(fc.filters)) {
        const r = at(f, 'typedConfig', 'routeConfig', 'virtualHosts', 0, 'routes', 0);
        if (r) return obj(r);
      }
    }
    throw new Error(`no inbound HTTP route on ${port}`);
  };

  // route/route.go BuildDefaultHTTPInboundRoute: Timeout Notimeout, MaxStreamDuration
  // {Notimeout, GrpcTimeoutHeaderMax Notimeout}; retry.ConvertInboundPolicy(nil) =
  // cachedDefaultInboundPolicy {NumRetries 2, RetryOn "reset-before-request"} (no host predicate).
  it('has no timeout, an unbounded stream duration and the inbound retry policy', () => {
    const r = inboundRoute(8080);
    expect(at(r, 'route', 'cluster')).toBe('inbound|8080||');
    expect(at(r, 'route', 'timeout')).toBe('0s');
    expect(at(r, 'route', 'maxStreamDuration')).toEqual({ maxStreamDuration: '0s', grpcTimeoutHeaderMax: '0s' });
    expect(at(r, 'route', 'retryPolicy')).toEqual({ numRetries: 2, retryOn: 'reset-before-request' });
  });

  // "inbound retries are never configured for gRPC ports" (`if !protocol.IsGRPC()`).
  it('has no retry policy on a gRPC port', () => {
    const r = inboundRoute(9000);
    expect(at(r, 'route', 'cluster')).toBe('inbound|9000||');
    expect(at(r, 'route', 'retryPolicy')).toBeUndefined();
  });
});
