// The preset deflate dictionary of share-link format version 1: Kubernetes and Istio YAML as
// people write it (written by us). Deflate can copy from it as if it preceded the workspace,
// so the boilerplate every manifest repeats costs a few bits instead of its letters.
//
// FROZEN: links already shared were compressed against exactly these bytes. Changing one
// character breaks every version-1 link (tests/share/link.test.ts pins its CRC). A better
// dictionary needs a new format version that keeps this one for decoding.
// The most common strings come last: deflate reaches them with the shortest distances.

const PARTS = [
  `apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata:
  name: jwt
spec:
  selector:
    matchLabels:
      app: 
  jwtRules:
  - issuer: "https://
    jwksUri: 
    forwardOriginalToken: true
---
apiVersion: telemetry.istio.io/v1
kind: Telemetry
metadata:
  name: mesh-default
  namespace: istio-system
spec:
  accessLogging:
  - providers:
    - name: envoy
  tracing:
  - randomSamplingPercentage: 
---
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata:
  name: 
spec:
  workloadSelector:
    labels:
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener:
        filterChain:
          filter:
            name: "envoy.filters.network.http_connection_manager"
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: 
spec:
  gatewayClassName: istio
  listeners:
  - name: http
    hostname: "*.example.com"
    port: 80
    protocol: HTTP
    allowedRoutes:
      namespaces:
        from: All
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: 
spec:
  parentRefs:
  - name: 
  hostnames: ["
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /
    backendRefs:
    - name: 
      port: 
      weight: 
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
spec:
  egress:
  - hosts:
    - "./*"
    - "istio-system/*"
  outboundTrafficPolicy:
    mode: REGISTRY_ONLY
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: 
spec:
  hosts:
  - api.example.com
  location: MESH_EXTERNAL
  resolution: DNS
  ports:
  - number: 443
    name: https
    protocol: TLS
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: istio
  namespace: istio-system
data:
  mesh: |-
    defaultConfig:
      discoveryAddress: istiod.istio-system.svc:15012
    enableAutoMtls: true
    rootNamespace: istio-system
    trustDomain: cluster.local
---
apiVersion: v1
kind: Secret
metadata:
  name: 
  namespace: istio-system
type: kubernetes.io/tls
data:
  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t
  ca.crt: 
stringData:
-----BEGIN CERTIFICATE-----
-----END CERTIFICATE-----
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: 
spec:
  selector:
    istio: ingressgateway
  servers:
  - port:
      number: 443
      name: https
      protocol: HTTPS
    tls:
      mode: SIMPLE
      credentialName: 
    hosts:
    - "
  - port:
      number: 80
      name: http
      protocol: HTTP
    hosts:
    - "*"
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: default
  namespace: istio-system
spec:
  mtls:
    mode: STRICT
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: 
spec:
  selector:
    matchLabels:
      app: 
  action: ALLOW
  rules:
  - from:
    - source:
        principals: ["cluster.local/ns/default/sa/
        namespaces: ["
    to:
    - operation:
        methods: ["GET"]
        paths: ["/
    when:
    - key: request.auth.claims[
      values: ["
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: 
  labels:
    app: 
    version: v1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: 
      version: v1
  template:
    metadata:
      annotations:
        sidecar.istio.io/inject: "true"
      labels:
        app: 
        version: v1
    spec:
      serviceAccountName: 
      containers:
      - name: 
        image: docker.io/istio/examples-bookinfo-
        imagePullPolicy: IfNotPresent
        ports:
        - containerPort: 9080
        resources:
          requests:
            cpu: 100m
            memory: 128Mi
        securityContext:
          runAsUser: 1000
---
apiVersion: v1
kind: Pod
metadata:
  name: 
  namespace: 
  labels:
    app: 
    security.istio.io/tlsMode: istio
    service.istio.io/canonical-name: 
    service.istio.io/canonical-revision: v1
  annotations:
    sidecar.istio.io/status: '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-data","istio-podinfo","istio-token","istiod-ca-cert"]}'
spec:
  nodeName: 
  containers:
  - name: istio-proxy
    image: docker.io/istio/proxyv2:1.
status:
  phase: Running
  podIP: 10.
---
apiVersion: v1
kind: Namespace
metadata:
  name: 
  labels:
    istio-injection: enabled
    istio.io/dataplane-mode: ambient
    istio.io/use-waypoint: waypoint
    istio.io/rev: 
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: bookinfo-
  labels:
    account: 
---
apiVersion: v1
kind: Service
metadata:
  name: 
  labels:
    app: 
    service: 
spec:
  selector:
    app: 
  ports:
  - port: 9080
    name: http
    targetPort: 9080
    protocol: TCP
  - port: 80
    name: http-web
    appProtocol: http
  type: ClusterIP
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: 
spec:
  host: 
  trafficPolicy:
    tls:
      mode: ISTIO_MUTUAL
    loadBalancer:
      simple: ROUND_ROBIN
    connectionPool:
      tcp:
        maxConnections: 100
    outlierDetection:
      consecutive5xxErrors: 5
      interval: 10s
      baseEjectionTime: 30s
  subsets:
  - name: v1
    labels:
      version: v1
  - name: v2
    labels:
      version: v2
  - name: v3
    labels:
      version: v3
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: 
  namespace: 
spec:
  hosts:
  - 
  gateways:
  - mesh
  http:
  - match:
    - uri:
        exact: /productpage
    - uri:
        prefix: /static
    - headers:
        end-user:
          exact: jason
    fault:
      delay:
        percentage:
          value: 100
        fixedDelay: 7s
    retries:
      attempts: 3
      perTryTimeout: 2s
    timeout: 10s
    route:
    - destination:
        host: 
        subset: v1
        port:
          number: 9080
      weight: 50
    - destination:
        host: 
        subset: v2
      weight: 50
  - route:
    - destination:
        host: 
        subset: v1
`,
];

export const DICTIONARY_V1_TEXT: string = PARTS.join('');

let bytes: Uint8Array | null = null;

/** The dictionary's bytes (UTF-8), built once. */
export function dictionaryV1(): Uint8Array {
  bytes ??= new TextEncoder().encode(DICTIONARY_V1_TEXT);
  return bytes;
}
