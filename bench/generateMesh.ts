// Synthetic meshes for the benchmark: N services spread over 20 namespaces, each with a
// Deployment, a Service, a VirtualService with two weighted subsets and a DestinationRule,
// plus a Gateway per namespace and some AuthorizationPolicies. One VirtualService in a hundred
// routes to a host that does not exist, so results carry located diagnostics too.
// Deterministic for a given N.

export const NAMESPACE_COUNT = 20;

/** The app's container, as the Deployment's template writes it and its Pods carry it (`indent` before each line). */
function appContainer(svc: string, i: number, indent: string): string {
  return [`- name: ${svc}`, `  image: example.com/${svc}:1.${i % 17}.0`, '  ports:', '  - containerPort: 8080'].map((l) => `${indent}${l}\n`).join('');
}

function deployment(ns: string, svc: string, i: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${svc}-v1
  namespace: ${ns}
spec:
  replicas: ${1 + (i % 3)}
  selector:
    matchLabels:
      app: ${svc}
      version: v1
  template:
    metadata:
      labels:
        app: ${svc}
        version: v1
    spec:
      containers:
${appContainer(svc, i, '      ')}`;
}

function service(ns: string, svc: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${svc}
  namespace: ${ns}
spec:
  selector:
    app: ${svc}
  ports:
  - name: http
    port: 80
    targetPort: 8080
`;
}

function virtualService(ns: string, svc: string, i: number, gateway: boolean): string {
  const w = 50 + (i % 5) * 10;
  return `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ${svc}
  namespace: ${ns}
spec:
  hosts:
  - ${gateway ? `${svc}.${ns}.example.com` : svc}
${gateway ? `  gateways:\n  - ${ns}-gateway\n` : ''}  http:
  - route:
    - destination:
        host: ${svc}
        subset: v1
      weight: ${w}
    - destination:
        host: ${i % 100 === 7 ? `${svc}-canary` : svc}
        subset: v2
      weight: ${100 - w}
`;
}

function destinationRule(ns: string, svc: string): string {
  return `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: ${svc}
  namespace: ${ns}
spec:
  host: ${svc}
  subsets:
  - name: v1
    labels:
      version: v1
  - name: v2
    labels:
      version: v2
`;
}

function gateway(ns: string): string {
  return `apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${ns}-gateway
  namespace: ${ns}
spec:
  selector:
    istio: ingressgateway
  servers:
  - port:
      number: 80
      name: http
      protocol: HTTP
    hosts:
    - "*.${ns}.example.com"
`;
}

function authorizationPolicy(ns: string, svc: string): string {
  return `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: ${svc}-allow
  namespace: ${ns}
spec:
  selector:
    matchLabels:
      app: ${svc}
  action: ALLOW
  rules:
  - from:
    - source:
        principals: ["cluster.local/ns/${ns}/sa/frontend"]
    to:
    - operation:
        methods: ["GET"]
`;
}

/**
 * The Pods a ReplicaSet made for a Deployment, sidecar injected, as `kubectl get pods -o yaml`
 * lists them (the fields the analysis reads): what a dump of a live cluster holds besides
 * the Deployments. Names, hashes and IPs are made up but fixed for a given service.
 */
function pods(ns: string, svc: string, i: number): string[] {
  const hash = (0x5f3759 + i * 7919).toString(36).slice(-6).padStart(6, 'x');
  const replicaSet = `${svc}-v1-${hash}`;
  const out: string[] = [];
  for (let r = 0; r < 1 + (i % 3); r++) {
    const ip = 10 * 65536 * 256 + 244 * 65536 + i * 3 + r + 1;
    out.push(`apiVersion: v1
kind: Pod
metadata:
  name: ${replicaSet}-${(i * 31 + r * 17 + 10000).toString(36)}
  namespace: ${ns}
  labels:
    app: ${svc}
    version: v1
    pod-template-hash: ${hash}
    security.istio.io/tlsMode: istio
    service.istio.io/canonical-name: ${svc}
    service.istio.io/canonical-revision: v1
  annotations:
    sidecar.istio.io/status: '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-data","istio-podinfo","istio-token","istiod-ca-cert"],"imagePullSecrets":null,"revision":"default"}'
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: ${replicaSet}
    controller: true
spec:
  containers:
${appContainer(svc, i, '  ')}  - name: istio-proxy
    image: docker.io/istio/proxyv2:1.24.0
    args: [proxy, sidecar]
status:
  phase: Running
  podIP: ${[ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255].join('.')}
`);
  }
  return out;
}

export interface GeneratedMesh {
  text: string;
  services: number;
  documents: number;
}

/**
 * One multi-document YAML text, like a `kubectl get -A -o yaml` dump split into documents.
 * With `withPods`, each Deployment's Pods are written out too (the analysis then derives none).
 */
export function generateMesh(services: number, options: { withPods?: boolean } = {}): GeneratedMesh {
  const parts: string[] = [];
  for (let n = 0; n < NAMESPACE_COUNT; n++) {
    parts.push(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-${n}\n  labels:\n    istio-injection: enabled\n`);
    parts.push(gateway(`ns-${n}`));
  }
  for (let i = 0; i < services; i++) {
    const ns = `ns-${i % NAMESPACE_COUNT}`;
    const svc = `svc-${i}`;
    parts.push(deployment(ns, svc, i), service(ns, svc), virtualService(ns, svc, i, i % 10 === 0), destinationRule(ns, svc));
    if (i % 4 === 0) parts.push(authorizationPolicy(ns, svc));
    if (options.withPods) parts.push(...pods(ns, svc, i));
  }
  return { text: parts.join('---\n'), services, documents: parts.length };
}
