// Defaults the xDS oracle (`npm run oracle -- xds`, real istiod at the module
// istio@v0.0.0-20260827124520-eed52ebb66ad) showed we had wrong, each asserted from Istio's source
// at that version; the Go file and line are in each test's comment.
import { describe, expect, it } from 'vitest';
import { at, byName, CLIENT_WEB_MESH, generateFor, list, viewOf } from './helpers.ts';
import type { Json } from '../../src/core/xds/types.ts';

const MESH = CLIENT_WEB_MESH;

const SE = `${MESH}---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: ext, namespace: app}
spec:
  hosts: [ext.example.com]
  ports: [{name: http, number: 80, protocol: HTTP}]
  location: MESH_EXTERNAL
  resolution: DNS
  endpoints: [{address: ext-1.example.com}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: self, namespace: app}
spec:
  hosts: [self.example.com]
  ports: [{name: http, number: 80, protocol: HTTP}]
  location: MESH_EXTERNAL
  resolution: DNS
`;

/** Every `istio.mesh_id` tracing tag value in the proxy's listeners. */
function meshIdTags(listeners: readonly Json[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') {
      const o = v as Json;
      if (o.tag === 'istio.mesh_id') out.push(String(at(o, 'literal', 'value')));
      for (const x of Object.values(o)) walk(x);
    }
  };
  walk(listeners);
  return out;
}

describe('InboundPassthroughCluster', () => {
  // cluster_builder.go buildInboundPassthroughCluster (:761-762) starts from
  // buildDefaultPassthroughCluster, whose AltStatName is DelimitedStatsPrefix(PassthroughCluster)
  // (:803), and changes only the name: the stat name stays "PassthroughCluster;".
  it('keeps the PassthroughCluster; alt stat name', () => {
    const c = byName(generateFor(viewOf(MESH), 'web-1', 'app').clusters, 'InboundPassthroughCluster');
    expect(c.altStatName).toBe('PassthroughCluster;');
  });
});

describe('ServiceEntry endpoints in static load assignments', () => {
  // serviceentry/conversion.go builds IstioEndpoints (:364, :484) without a HealthStatus, so it is
  // model.HealthStatus 0, which buildEnvoyLbEndpoint (xds/endpoints/endpoint_builder.go:766-772)
  // passes on as Envoy's UNKNOWN: no health_status in the dump. (Pods keep Healthy:
  // kube/controller/pod.go:201-206.)
  const gen = generateFor(viewOf(SE), 'client-1', 'app');
  const lbEndpoints = (name: string) => list(at(byName(gen.clusters, name), 'loadAssignment', 'endpoints', 0, 'lbEndpoints'));

  it('writes no healthStatus for a ServiceEntry endpoint', () => {
    const eps = lbEndpoints('outbound|80||ext.example.com');
    expect(eps.length).toBe(1);
    expect(at(eps[0], 'endpoint', 'address', 'socketAddress', 'address')).toBe('ext-1.example.com');
    expect(eps[0]?.healthStatus).toBeUndefined();
  });

  it('writes none for the host a DNS ServiceEntry without endpoints resolves', () => {
    const eps = lbEndpoints('outbound|80||self.example.com');
    expect(eps.length).toBe(1);
    expect(eps[0]?.healthStatus).toBeUndefined();
  });
});

describe('istio.mesh_id tracing tag', () => {
  // tracing.go:642-645 takes node.Metadata.MeshID ("unknown" when empty); the injector sets
  // ISTIO_META_MESH_ID (injection-template.yaml:335-341) to values.global.meshID, else the mesh
  // config's trust domain (cluster.local by default).
  it('is the trust domain by default', () => {
    const tags = meshIdTags(generateFor(viewOf(MESH), 'client-1', 'app').listeners);
    expect(tags.length).toBeGreaterThan(0);
    expect(new Set(tags)).toEqual(new Set(['cluster.local']));
  });

  it('follows meshConfig.trustDomain', () => {
    const tags = meshIdTags(generateFor(viewOf(MESH, { trustDomain: 'example.org' }), 'client-1', 'app').listeners);
    expect(new Set(tags)).toEqual(new Set(['example.org']));
  });

  it("takes the injector values' global.meshID over the trust domain", () => {
    const cm = `${MESH}---
apiVersion: v1
kind: ConfigMap
metadata: {name: istio-sidecar-injector, namespace: istio-system}
data:
  values: '{"global": {"meshID": "mesh-a"}}'
`;
    expect(new Set(meshIdTags(generateFor(viewOf(cm), 'client-1', 'app').listeners))).toEqual(new Set(['mesh-a']));
  });

  // injection-template.yaml:357: the ProxyConfig's proxyMetadata are env entries after it, and win.
  it("takes ISTIO_META_MESH_ID of the proxy config's proxyMetadata over both", () => {
    const annotated = MESH.replace(
      'metadata: {name: client-1, namespace: app, labels: {app: client}}',
      'metadata: {name: client-1, namespace: app, labels: {app: client}, annotations: {proxy.istio.io/config: "proxyMetadata: {ISTIO_META_MESH_ID: mesh-b}"}}',
    );
    expect(annotated).toContain('mesh-b');
    expect(new Set(meshIdTags(generateFor(viewOf(annotated), 'client-1', 'app').listeners))).toEqual(new Set(['mesh-b']));
  });
});

// Found by the oracle-xds fuzz target and the generated 100-service mesh (2026-12-06).
describe('a ServiceEntry endpoint without a service account', () => {
  // serviceentry/conversion.go convertWorkloadEntryToServiceInstances: `sa := ""; if
  // we.ServiceAccount != "" { sa = spiffe.MustGenSpiffeURI(...) }`, so the cluster's SANs
  // (buildClusterOpts serviceAccounts) hold no identity for it.
  it('adds no spiffe identity of the default service account to the cluster', () => {
    const text = `${MESH}---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: legacy-db, namespace: app}
spec:
  hosts: [legacy-db.internal]
  ports: [{name: tcp, number: 5432, protocol: TCP}]
  location: MESH_INTERNAL
  resolution: STATIC
  endpoints: [{address: 10.10.0.21}]
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: legacy-db, namespace: app}
spec:
  host: legacy-db.internal
  trafficPolicy: {tls: {mode: ISTIO_MUTUAL}}
`;
    const c = byName(generateFor(viewOf(text), 'client-1', 'app').clusters, 'outbound|5432||legacy-db.internal');
    expect(c.transportSocket ?? c.transportSocketMatches).toBeDefined();
    expect(JSON.stringify(c)).not.toContain('spiffe://cluster.local/ns/app/sa/default');
  });
});

describe('a subset of a DestinationRule whose load balancer is PASSTHROUGH', () => {
  // cluster_builder.go buildSubsetCluster: the subset cluster starts from the default cluster's
  // discovery type after its traffic policy was applied (PASSTHROUGH made it ORIGINAL_DST), and
  // an ORIGINAL_DST cluster's lb policy is CLUSTER_PROVIDED (applyLoadBalancer).
  it('is ORIGINAL_DST with CLUSTER_PROVIDED even when the subset names another load balancer', () => {
    const text = `${MESH}---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: web, namespace: app}
spec:
  host: web.app.svc.cluster.local
  trafficPolicy: {loadBalancer: {simple: PASSTHROUGH}}
  subsets:
  - name: v1
    labels: {version: v1}
    trafficPolicy: {loadBalancer: {simple: LEAST_REQUEST}}
`;
    const clusters = generateFor(viewOf(text), 'client-1', 'app').clusters;
    const base = clusters.find((c) => String(c.name).startsWith('outbound|') && String(c.name).endsWith('||web.app.svc.cluster.local'));
    expect(base?.type).toBe('ORIGINAL_DST');
    const subset = clusters.find((c) => String(c.name).startsWith('outbound|') && String(c.name).includes('|v1|web.app.svc.cluster.local'));
    expect(subset?.type).toBe('ORIGINAL_DST');
    expect(subset?.lbPolicy).toBe('CLUSTER_PROVIDED');
  });
});

describe('ServiceEntries writing one host in one namespace', () => {
  // The expected values are istiod's (xds-oracle on these workspaces, several runs: istiod picks
  // the entry a cluster follows in Go map order when creation times tie, but these do not depend
  // on the pick).
  const outbound = (text: string) => generateFor(viewOf(`${MESH}---\n${text}`), 'client-1', 'app');
  const chainsOf = (l: Json) =>
    list(l.filterChains).map((c) => ({
      match: c.filterChainMatch ?? null,
      cluster: at(c, 'filters', list(c.filters).length - 1, 'typedConfig', 'cluster') ?? null,
    }));

  // listener.go buildSidecarOutboundListeners: a resolution NONE service without an address on a
  // TCP/TLS port gets the wildcard listener only when push.ServiceEndpointsByPort has no
  // endpoint for it; else one listener per endpoint IP. ServiceEndpointsByPort reads
  // ServiceIndex.instancesByPort, keyed by namespace/hostname (push_context.go
  // initServiceRegistry) and filled from the endpoint shards every ServiceEntry of that host and
  // namespace writes into (serviceentry/conversion.go mergeServicesInstancesByNamespaceHost;
  // EndpointShards.CopyEndpoints maps a ServiceEntry endpoint by its port number,
  // LegacyClusterPortKey). A DNS entry without endpoints has one endpoint per port at its host
  // name (convertServiceEntryToInstances), which is no IP: the NONE entry gets no chain at all.
  it('a NONE entry sharing its host with a DNS entry on the port adds no chain (TCP: istiod passes through)', () => {
    const l = byName(
      outbound(`apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: ext-dns, namespace: app}
spec:
  hosts: [api.example.org]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 443, name: tls, protocol: TLS}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: ext-none, namespace: app}
spec:
  hosts: [api.example.org]
  location: MESH_EXTERNAL
  resolution: NONE
  ports: [{number: 443, name: tcp-443, protocol: TCP}]
`).listeners,
      '0.0.0.0_443',
    );
    expect(chainsOf(l)).toEqual([{ match: { serverNames: ['api.example.org'] }, cluster: 'outbound|443||api.example.org' }]);
    expect(at(l, 'defaultFilterChain', 'name')).toBe('PassthroughFilterChain');
    expect(at(l, 'defaultFilterChain', 'filters', 0, 'typedConfig', 'cluster')).toBe('PassthroughCluster');
  });

  it('a NONE entry with a TLS port beside a DNS HTTP entry of its host: the HTTP chain, and TLS only for its other host', () => {
    const l = byName(
      outbound(`apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: httpbin, namespace: app}
spec:
  hosts: [httpbin.example.org]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 80, name: http, protocol: HTTP, targetPort: 443}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: ext-none, namespace: app}
spec:
  hosts: [httpbin.example.org, api.example.org]
  location: MESH_INTERNAL
  resolution: NONE
  ports: [{number: 443, name: http2-443, protocol: HTTP2}, {number: 80, name: tls-80, protocol: TLS}]
`).listeners,
      '0.0.0.0_80',
    );
    const chains = chainsOf(l);
    // istiod's order is HTTP first (its ingress gateway Service, created earlier, comes first): Envoy picks by match.
    expect(chains).toHaveLength(2);
    expect(chains).toContainEqual({ match: { transportProtocol: 'raw_buffer', applicationProtocols: ['http/1.1', 'h2c'] }, cluster: null });
    expect(chains).toContainEqual({ match: { serverNames: ['api.example.org'] }, cluster: 'outbound|80||api.example.org' });
    expect(list(l.listenerFilters).map((f) => f.name)).toEqual(['envoy.filters.listener.tls_inspector', 'envoy.filters.listener.http_inspector']);
  });

  // sidecar.go appendSidecarServices: a later service of the hostname merges its ports into the
  // first when canMergeServices (same namespace, resolution, registry, labels, workload selector
  // and exportTo as written); CDS then has a cluster per merged port. A DNS cluster's inline
  // endpoints come from ServiceEndpointsByPort (endpoint_builder.go FromServiceEndpoints): both
  // entries' endpoints on port 80, the older entry's first (then by name), only shop-b's on 9090.
  it("two DNS entries merge their ports, and a DNS cluster holds both entries' endpoints", () => {
    const clusters = outbound(`apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: shop-a, namespace: app}
spec:
  hosts: [shop.example.org]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 80, name: http, protocol: HTTP}]
  endpoints: [{address: a.shop.example.org}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: shop-b, namespace: app}
spec:
  hosts: [shop.example.org]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 80, name: http, protocol: HTTP}, {number: 9090, name: tcp-admin, protocol: TCP}]
  endpoints: [{address: b.shop.example.org}]
`).clusters;
    const addresses = (name: string) =>
      list(at(byName(clusters, name), 'loadAssignment', 'endpoints')).flatMap((g) =>
        list(g.lbEndpoints).map((e) => at(e, 'endpoint', 'address', 'socketAddress', 'address')),
      );
    expect(byName(clusters, 'outbound|80||shop.example.org').type).toBe('STRICT_DNS');
    expect(addresses('outbound|80||shop.example.org')).toEqual(['a.shop.example.org', 'b.shop.example.org']);
    expect(addresses('outbound|9090||shop.example.org')).toEqual(['b.shop.example.org']);
  });

  // push_context.go SortServicesByCreationTime puts the older entry first; canMergeServices
  // refuses another resolution, so the younger entry's ports are not added.
  it('entries that differ in resolution do not merge: the older keeps its own ports', () => {
    const clusters = outbound(`apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: shop-a, namespace: app, creationTimestamp: "2026-01-02T00:00:00Z"}
spec:
  hosts: [shop.example.org]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 80, name: http, protocol: HTTP}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: shop-b, namespace: app, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  hosts: [shop.example.org]
  location: MESH_EXTERNAL
  resolution: STATIC
  ports: [{number: 9090, name: tcp-admin, protocol: TCP}]
  endpoints: [{address: 10.2.0.1}]
`).clusters;
    expect(clusters.map((c) => c.name).filter((n) => String(n).endsWith('||shop.example.org'))).toEqual(['outbound|9090||shop.example.org']);
  });
});
