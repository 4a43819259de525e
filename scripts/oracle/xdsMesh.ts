// The generated mesh of the xds oracle (issue #29: "every proxy of every sample and of a
// generated 100-service mesh"): the benchmark's synthetic mesh (bench/generateMesh.ts: N
// services over 20 namespaces, each a Deployment with its Pods, a Service, a VirtualService with
// two weighted subsets, one in ten bound to its namespace's Gateway, a DestinationRule, and an
// AuthorizationPolicy for one in four) plus what it lacks for the generator, deterministic for
// a given N:
//
// - Sidecars: a namespace default limiting egress to its own namespace and istio-system (one
//   namespace in four), one selecting a workload with egress to the next namespace and an
//   inbound HTTP listener (one in four), one with outboundTrafficPolicy REGISTRY_ONLY (one in four);
// - PeerAuthentications: mesh-wide STRICT (istio-system), PERMISSIVE for one namespace, DISABLE
//   on a workload's port for another;
// - ServiceEntries: an external HTTPS API (DNS), an external HTTP host (DNS) with a
//   DestinationRule (TLS origination, connection pool), and a mesh-internal service with STATIC
//   endpoints (labelled v1 and v2, no service account), exported to its namespace alone;
// - DestinationRules with traffic policies (load balancer, outlier detection, connection pool,
//   ISTIO_MUTUAL) on one service in five, instead of the plain subsets;
// - a VirtualService with retries, timeout, fault and header matches.
import { generateMesh, NAMESPACE_COUNT } from '../../bench/generateMesh.ts';

export { NAMESPACE_COUNT };

function sidecars(n: number, services: number): string[] {
  const ns = `ns-${n}`;
  const out: string[] = [];
  // the first service of the namespace (services i with i % 20 === n)
  const first = n < services ? `svc-${n}` : undefined;
  if (n % 4 === 0) {
    out.push(`apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
  namespace: ${ns}
spec:
  egress:
  - hosts:
    - "./*"
    - "istio-system/*"
`);
  } else if (n % 4 === 1 && first) {
    out.push(`apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: ${first}
  namespace: ${ns}
spec:
  workloadSelector:
    labels:
      app: ${first}
  ingress:
  - port:
      number: 8080
      protocol: HTTP
      name: http
    defaultEndpoint: 127.0.0.1:8080
  egress:
  - hosts:
    - "./*"
    - "ns-${(n + 1) % NAMESPACE_COUNT}/*"
    - "istio-system/*"
`);
  } else if (n % 4 === 2) {
    out.push(`apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
  namespace: ${ns}
spec:
  outboundTrafficPolicy:
    mode: REGISTRY_ONLY
  egress:
  - hosts:
    - "*/*"
`);
  }
  return out;
}

function peerAuthentications(services: number): string[] {
  const out = [
    `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: default
  namespace: istio-system
spec:
  mtls:
    mode: STRICT
`,
    `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: default
  namespace: ns-3
spec:
  mtls:
    mode: PERMISSIVE
`,
  ];
  if (services > 5) {
    out.push(`apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: svc-5-port
  namespace: ns-5
spec:
  selector:
    matchLabels:
      app: svc-5
  mtls:
    mode: STRICT
  portLevelMtls:
    8080:
      mode: DISABLE
`);
  }
  return out;
}

function serviceEntries(): string[] {
  return [
    `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: external-api
  namespace: ns-0
spec:
  hosts:
  - api.example.org
  location: MESH_EXTERNAL
  resolution: DNS
  ports:
  - number: 443
    name: https
    protocol: TLS
`,
    `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: httpbin
  namespace: ns-1
spec:
  hosts:
  - httpbin.example.org
  location: MESH_EXTERNAL
  resolution: DNS
  ports:
  - number: 80
    name: http
    protocol: HTTP
    targetPort: 443
`,
    `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: httpbin
  namespace: ns-1
spec:
  host: httpbin.example.org
  trafficPolicy:
    connectionPool:
      tcp:
        maxConnections: 50
      http:
        http1MaxPendingRequests: 10
    tls:
      mode: SIMPLE
      sni: httpbin.example.org
`,
    `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: legacy-db
  namespace: ns-2
spec:
  hosts:
  - legacy-db.internal
  addresses:
  - 10.96.200.10
  location: MESH_INTERNAL
  resolution: STATIC
  exportTo:
  - "."
  ports:
  - number: 5432
    name: tcp-postgres
    protocol: TCP
  endpoints:
  - address: 10.10.0.21
    labels:
      version: v1
  - address: 10.10.0.22
    labels:
      version: v2
`,
  ];
}

function trafficPolicies(services: number): string[] {
  const out: string[] = [];
  for (let i = 1; i < services; i += 5) {
    const ns = `ns-${i % NAMESPACE_COUNT}`;
    const svc = `svc-${i}`;
    const policy = [
      `    loadBalancer:\n      simple: LEAST_REQUEST\n`,
      `    outlierDetection:\n      consecutive5xxErrors: 3\n      interval: 10s\n      baseEjectionTime: 30s\n`,
      `    connectionPool:\n      tcp:\n        maxConnections: 100\n        connectTimeout: 2s\n      http:\n        http2MaxRequests: 500\n        maxRequestsPerConnection: 10\n`,
      `    tls:\n      mode: ISTIO_MUTUAL\n`,
      `    loadBalancer:\n      consistentHash:\n        httpHeaderName: x-user\n`,
    ][Math.floor(i / 5) % 5];
    out.push(`apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: ${svc}
  namespace: ${ns}
spec:
  host: ${svc}
  trafficPolicy:
${policy}  subsets:
  - name: v1
    labels:
      version: v1
  - name: v2
    labels:
      version: v2
    trafficPolicy:
      loadBalancer:
        simple: ROUND_ROBIN
`);
  }
  return out;
}

function richVirtualService(services: number): string[] {
  if (services < 4) return [];
  // svc-2's VirtualService, in place of the benchmark's, with more of the HTTP route's fields.
  return [
    `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: svc-2
  namespace: ns-2
spec:
  hosts:
  - svc-2
  http:
  - match:
    - headers:
        x-canary:
          exact: "true"
      uri:
        prefix: /api
    route:
    - destination:
        host: svc-2
        subset: v2
    fault:
      delay:
        percentage:
          value: 10
        fixedDelay: 2s
  - route:
    - destination:
        host: svc-2
        subset: v1
    retries:
      attempts: 3
      perTryTimeout: 2s
      retryOn: 5xx,connect-failure
    timeout: 10s
  - route:
    - destination:
        host: svc-3.ns-3.svc.cluster.local
`,
  ];
}

/** The oracle's generated mesh of `services` services, as files (the bench mesh with its Pods, then the additions). */
export function xdsMesh(services: number): { path: string; text: string }[] {
  const extra: string[] = [];
  for (let n = 0; n < NAMESPACE_COUNT; n++) extra.push(...sidecars(n, services));
  extra.push(...peerAuthentications(services), ...serviceEntries(), ...trafficPolicies(services), ...richVirtualService(services));
  // The benchmark's documents that an addition replaces (same kind, namespace and name) are left
  // out, so that no object is written twice.
  const id = (doc: string) => `${/^kind: (\S+)/m.exec(doc)?.[1]}/${/^ {2}namespace: (\S+)/m.exec(doc)?.[1]}/${/^ {2}name: (\S+)/m.exec(doc)?.[1]}`;
  const replaced = new Set(extra.map(id));
  const base = generateMesh(services, { withPods: true })
    .text.split(/^---\n/m)
    .filter((d) => !replaced.has(id(d)));
  return [
    { path: `generated-mesh-${services}/mesh.yaml`, text: base.join('---\n') },
    { path: `generated-mesh-${services}/additions.yaml`, text: extra.join('---\n') },
  ];
}
