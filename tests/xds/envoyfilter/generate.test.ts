// EnvoyFilters through generateForProxy on the Bookinfo sample. Expected values follow
// istiod's behaviour as read in listener_patch.go / cluster_patch.go / rc_patch.go and the
// Istio docs' Lua example: the inbound listener is the virtual one, so `portNumber` selects
// its filter chains by destination port; INSERT_BEFORE puts the value right before the first
// HTTP filter the subFilter names; workloadSelector limits the filter to matching pods.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { viewOf, generateFor, byName } from '../helpers.ts';
import { provenanceOf } from '../../../src/core/xds/dump.ts';
import { generateForProxy } from '../../../src/core/xds/generate.ts';
import { listProxies, proxyForPod } from '../../../src/core/xds/proxy.ts';
import type { Json } from '../../../src/core/xds/types.ts';

const BOOKINFO = ['platform.yaml', 'bookinfo.yaml', 'destination-rules.yaml', 'pods.yaml', 'networking.yaml']
  .map((f) => readFileSync(new URL(`../../../public/samples/bookinfo/${f}`, import.meta.url), 'utf8'))
  .join('\n---\n');

const LUA_TYPE = 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua';
const LUA_FILTER = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: productpage-lua, namespace: bookinfo}
spec:
  workloadSelector:
    labels: {app: productpage}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener:
        portNumber: 9080
        filterChain:
          filter:
            name: envoy.filters.network.http_connection_manager
            subFilter: {name: envoy.filters.http.router}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.lua
        typed_config:
          "@type": ${LUA_TYPE}
          inlineCode: |
            function envoy_on_request(request_handle)
              request_handle:headers():add("x-lua", "1")
            end
`;

function hcmOf(chain: Json): Json | undefined {
  const filters = Array.isArray(chain.filters) ? (chain.filters as Json[]) : [];
  const f = filters.find((x) => x.name === 'envoy.filters.network.http_connection_manager');
  return f ? (f.typedConfig as Json) : undefined;
}

function httpFilterNames(chain: Json): string[] {
  const hcm = hcmOf(chain);
  return Array.isArray(hcm?.httpFilters) ? (hcm.httpFilters as Json[]).map((f) => String(f.name)) : [];
}

function chainsOf(l: Json): Json[] {
  return Array.isArray(l.filterChains) ? (l.filterChains as Json[]) : [];
}

describe('EnvoyFilter through generateForProxy (Bookinfo)', () => {
  const view = viewOf(`${BOOKINFO}\n---\n${LUA_FILTER}`);
  const gen = generateFor(view, 'productpage-v1', 'bookinfo');

  it('inserts the Lua filter before the router on every inbound HTTP chain of port 9080', () => {
    const vi = byName(gen.listeners, 'virtualInbound');
    const on9080 = chainsOf(vi).filter((c) => (c.filterChainMatch as Json | undefined)?.destinationPort === 9080 && hcmOf(c));
    expect(on9080.length).toBeGreaterThan(0);
    for (const c of on9080) {
      const names = httpFilterNames(c);
      const router = names.indexOf('envoy.filters.http.router');
      expect(router).toBeGreaterThan(0);
      expect(names[router - 1]).toBe('envoy.lua');
      expect(names.filter((n) => n === 'envoy.lua')).toHaveLength(1);
      const lua = ((hcmOf(c) as Json).httpFilters as Json[])[router - 1] as Json;
      // The value is read as an HttpFilter: typed_config becomes typedConfig, the Lua message keeps its fields.
      expect(lua).toEqual({
        name: 'envoy.lua',
        typedConfig: { '@type': LUA_TYPE, inlineCode: 'function envoy_on_request(request_handle)\n  request_handle:headers():add("x-lua", "1")\nend\n' },
      });
    }
  });

  it('leaves chains of other ports and other listeners alone', () => {
    for (const l of gen.listeners) {
      for (const c of chainsOf(l)) {
        const isTarget = l.name === 'virtualInbound' && (c.filterChainMatch as Json | undefined)?.destinationPort === 9080;
        if (!isTarget) expect(httpFilterNames(c)).not.toContain('envoy.lua');
      }
    }
  });

  it('records the patch in the provenance of the chains it changed, and says so in the notes', () => {
    const table = provenanceOf(gen);
    const vi = byName(gen.listeners, 'virtualInbound');
    chainsOf(vi).forEach((c, i) => {
      const refs = table.filterChains[`virtualInbound/${i}`] ?? [];
      const patched = refs.filter((r) => r.fieldPath === 'spec.configPatches[0]' && r.resourceKey.endsWith('/bookinfo/productpage-lua'));
      expect(patched.length > 0).toBe(httpFilterNames(c).includes('envoy.lua'));
    });
    const anyRef = Object.values(table.filterChains)
      .flat()
      .find((r) => r.fieldPath === 'spec.configPatches[0]');
    expect(anyRef?.note).toBe('HTTP filter envoy.lua inserted by EnvoyFilter bookinfo/productpage-lua, patch 0');
    expect(gen.notes).toContain('EnvoyFilter patches applied: 1 of 1 matched (1 in 1 EnvoyFilter selecting this proxy: bookinfo/productpage-lua).');
    expect(gen.notes.join('\n')).not.toContain('not applied');
  });

  it('does not touch a pod the workloadSelector does not select', () => {
    const reviews = generateFor(view, 'reviews-v1', 'bookinfo');
    for (const l of reviews.listeners) for (const c of chainsOf(l)) expect(httpFilterNames(c)).not.toContain('envoy.lua');
    expect(reviews.notes.join('\n')).not.toContain('EnvoyFilter');
  });
});

describe('EnvoyFilter cluster and route patches through generateForProxy (Bookinfo)', () => {
  const filters = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: tweaks, namespace: istio-system}
spec:
  configPatches:
  - applyTo: CLUSTER
    match:
      context: SIDECAR_OUTBOUND
      cluster: {service: reviews.bookinfo.svc.cluster.local, portNumber: 9080}
    patch:
      operation: MERGE
      value: {connect_timeout: 3s, lb_policy: LEAST_REQUEST}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND}
    patch:
      operation: ADD
      value: {name: extra-cluster, type: STRICT_DNS, connect_timeout: 1s}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: details.bookinfo.svc.cluster.local}}
    patch: {operation: REMOVE}
  - applyTo: ROUTE_CONFIGURATION
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {portNumber: 9080}}
    patch:
      operation: MERGE
      value: {request_headers_to_add: [{header: {key: x-mesh, value: "1"}}]}
`;
  const view = viewOf(`${BOOKINFO}\n---\n${filters}`);
  const gen = generateFor(view, 'productpage-v1', 'bookinfo');

  it('merges into every reviews cluster of port 9080 (default and subsets), adds and removes', () => {
    const reviews = gen.clusters.filter((c) => String(c.name).startsWith('outbound|9080|') && String(c.name).endsWith('|reviews.bookinfo.svc.cluster.local'));
    expect(reviews.length).toBeGreaterThan(1);
    for (const c of reviews) {
      expect(c.connectTimeout).toBe('3s');
      expect(c.lbPolicy).toBe('LEAST_REQUEST');
    }
    expect(gen.clusters.filter((c) => String(c.name).endsWith('|details.bookinfo.svc.cluster.local'))).toEqual([]);
    expect(
      gen.notes.some(
        (n) => n.startsWith('Removed by EnvoyFilter: ') && n.includes('outbound|9080||details.bookinfo.svc.cluster.local (istio-system/tweaks patch 2)'),
      ),
    ).toBe(true);
    expect(byName(gen.clusters, 'extra-cluster')).toEqual({ name: 'extra-cluster', type: 'STRICT_DNS', connectTimeout: '1s' });
    // Inbound clusters are another context.
    const inbound = gen.clusters.find((c) => String(c.name).startsWith('inbound|'));
    expect(inbound?.lbPolicy).not.toBe('LEAST_REQUEST');
  });

  it('merges into the outbound route configuration of port 9080 only', () => {
    const rc = byName(gen.routes, '9080');
    expect(rc.requestHeadersToAdd).toEqual([{ header: { key: 'x-mesh', value: '1' } }]);
    for (const other of gen.routes.filter((r) => r.name !== '9080')) expect(other.requestHeadersToAdd).toBeUndefined();
    expect(gen.notes).toContain('EnvoyFilter patches applied: 4 of 4 matched (4 in 1 EnvoyFilter selecting this proxy: istio-system/tweaks).');
  });
});

describe('EnvoyFilter notes', () => {
  const filters = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: mixed, namespace: bookinfo}
spec:
  configPatches:
  - applyTo: CLUSTER
    match:
      proxy: {proxyVersion: '^1\\.9.*'}
    patch: {operation: MERGE, value: {connect_timeout: 7s}}
  - applyTo: BOOTSTRAP
    patch: {operation: MERGE, value: {stats_flush_interval: 10s}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {name: no-such-cluster}}
    patch: {operation: MERGE, value: {connect_timeout: 9s}}
`;
  const view = viewOf(`${BOOKINFO}\n---\n${filters}`);
  const gen = generateFor(view, 'productpage-v1', 'bookinfo');

  it('counts what applied, names what the proxy match left out, what matched nothing and what istiod does not apply', () => {
    // The proxyVersion regex does not match the proxy's version, so istiod never hands that patch to the cluster patcher.
    expect(gen.clusters.some((c) => c.connectTimeout === '7s')).toBe(false);
    expect(gen.notes).toContain('EnvoyFilter patches applied: 0 of 2 matched (3 in 1 EnvoyFilter selecting this proxy: bookinfo/mixed).');
    expect(
      gen.notes.some(
        (n) => n.startsWith("1 EnvoyFilter patch left out by match.proxy (proxyVersion against this proxy's version") && n.endsWith('bookinfo/mixed patch 0.'),
      ),
    ).toBe(true);
    // istiod removed bootstrap discovery in Istio 1.21 (commit f6337a9d, "agent: remove BDS"): no BOOTSTRAP patch applies.
    expect(gen.notes).toContain(
      'EnvoyFilter patches not applied here: BOOTSTRAP (istiod no longer applies these: it removed bootstrap discovery in Istio 1.21).',
    );
    // The cluster patch whose match finds nothing is named, with its match.
    expect(
      gen.notes.some(
        (n) => n.startsWith('EnvoyFilter patch that matched nothing on this proxy: bookinfo/mixed patch 2: CLUSTER MERGE') && n.includes('"no-such-cluster"'),
      ),
    ).toBe(true);
  });
});

describe('EnvoyFilter on an ingress gateway (GATEWAY context)', () => {
  const GATEWAY = readFileSync(new URL('../fixtures/gateway.yaml', import.meta.url), 'utf8');
  const filters = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: gw, namespace: istio-system}
spec:
  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: ROUTE_CONFIGURATION
    match: {context: GATEWAY, routeConfiguration: {portNumber: 80}}
    patch: {operation: MERGE, value: {response_headers_to_remove: [server]}}
  - applyTo: ROUTE_CONFIGURATION
    match: {context: GATEWAY, routeConfiguration: {gateway: shop/web, portName: https}}
    patch: {operation: MERGE, value: {request_headers_to_remove: [x-debug]}}
  - applyTo: HTTP_FILTER
    match:
      context: GATEWAY
      listener: {portNumber: 8080, filterChain: {filter: {name: envoy.filters.network.http_connection_manager}}}
    patch: {operation: INSERT_FIRST, value: {name: first.filter}}
  - applyTo: LISTENER
    match: {context: GATEWAY}
    patch: {operation: ADD, value: {name: extra-listener, address: {socket_address: {address: 0.0.0.0, port_value: 9999}}}}
  - applyTo: CLUSTER
    patch: {operation: ADD, value: {name: extra-cluster}}
`;
  const gen = generateFor(viewOf(`${GATEWAY}\n---\n${filters}`), 'istio-ingressgateway-1', 'istio-system');

  it('matches route configurations by server port through the gateway port map, and by gateway and port name', () => {
    // http.8080 serves the Gateway's port 80 (rc_patch.go anyPortMatches); https.443.https.web.shop is port 443 of shop/web.
    expect(byName(gen.routes, 'http.8080').responseHeadersToRemove).toEqual(['server']);
    expect(byName(gen.routes, 'http.8080').requestHeadersToRemove).toBeUndefined();
    expect(byName(gen.routes, 'https.443.https.web.shop').requestHeadersToRemove).toEqual(['x-debug']);
    expect(byName(gen.routes, 'https.443.https.web.shop').responseHeadersToRemove).toBeUndefined();
  });

  it('inserts the HTTP filter first on the 8080 listener only, and adds the listener and the cluster', () => {
    expect(httpFilterNames(chainsOf(byName(gen.listeners, '0.0.0.0_8080'))[0] as Json)[0]).toBe('first.filter');
    for (const c of chainsOf(byName(gen.listeners, '0.0.0.0_8443'))) expect(httpFilterNames(c)).not.toContain('first.filter');
    expect(gen.listeners.map((l) => l.name)).toEqual(['0.0.0.0_8080', '0.0.0.0_8443', 'extra-listener']);
    expect(byName(gen.listeners, 'extra-listener')).toEqual({ name: 'extra-listener', address: { socketAddress: { address: '0.0.0.0', portValue: 9999 } } });
    // A CLUSTER ADD without a context is added for gateways (and sidecar outbound).
    expect(byName(gen.clusters, 'extra-cluster')).toEqual({ name: 'extra-cluster' });
    expect(gen.notes).toContain('EnvoyFilter patches applied: 5 of 5 matched (5 in 1 EnvoyFilter selecting this proxy: istio-system/gw).');
  });
});

describe('EnvoyFilter on a waypoint', () => {
  const FIXTURE = readFileSync(new URL('../fixtures/waypoint.yaml', import.meta.url), 'utf8');
  const filters = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: by-ref, namespace: store}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: waypoint}]
  configPatches:
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_INBOUND}
    patch: {operation: INSERT_FIRST, value: {name: wp.inbound}}
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_OUTBOUND}
    patch: {operation: INSERT_FIRST, value: {name: wp.outbound}}
---
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: by-selector, namespace: store}
spec:
  workloadSelector: {labels: {gateway.networking.k8s.io/gateway-name: waypoint}}
  configPatches:
  - applyTo: HTTP_FILTER
    patch: {operation: INSERT_FIRST, value: {name: wp.selector}}
`;
  const view = viewOf(`${FIXTURE}\n---\n${filters}`);
  const ref = listProxies(view).find((p) => p.type === 'waypoint' && p.pod.name.startsWith('waypoint-'));
  if (!ref) throw new Error('no waypoint');
  const gen = generateForProxy(view, proxyForPod(view, ref));
  const hcmChains = gen.listeners.flatMap((l) => chainsOf(l)).filter((c) => hcmOf(c)?.['@type'] !== undefined);

  it('patches its listeners as SIDECAR_INBOUND, and only from the EnvoyFilter whose targetRefs name it', () => {
    // Waypoint listeners are the inbound set (listener.go buildWaypointListeners); a waypoint never uses workloadSelector.
    expect(hcmChains.length).toBeGreaterThan(0);
    for (const c of hcmChains) {
      const names = httpFilterNames(c);
      expect(names[0]).toBe('wp.inbound');
      expect(names).not.toContain('wp.outbound');
      expect(names).not.toContain('wp.selector');
    }
    expect(gen.notes).toContain('EnvoyFilter patches applied: 1 of 2 matched (2 in 1 EnvoyFilter selecting this proxy: store/by-ref).');
  });
});

describe('EnvoyFilter on inbound route configurations (inline in the HTTP connection manager)', () => {
  const filters = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: inbound-routes, namespace: bookinfo}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: HTTP_ROUTE
    match: {context: SIDECAR_INBOUND, routeConfiguration: {vhost: {name: "inbound|http|9080"}}}
    patch: {operation: MERGE, value: {route: {timeout: 5s}}}
  - applyTo: ROUTE_CONFIGURATION
    match: {context: SIDECAR_INBOUND, routeConfiguration: {portNumber: 9080}}
    patch: {operation: MERGE, value: {response_headers_to_add: [{header: {key: x-inbound, value: "9080"}}]}}
`;
  const gen = generateFor(viewOf(`${BOOKINFO}\n---\n${filters}`), 'productpage-v1', 'bookinfo');
  const inlineRoutes = chainsOf(byName(gen.listeners, 'virtualInbound'))
    .map((c) => hcmOf(c)?.routeConfig as Json | undefined)
    .filter((rc): rc is Json => rc !== undefined);

  it('patches the route configuration istiod builds for the port (buildSidecarInboundHTTPRouteConfig), not the passthrough one', () => {
    // The inbound route configuration is named after the inbound cluster, inbound|9080||, whose port the match reads.
    const rc9080 = inlineRoutes.filter((rc) => rc.name === 'inbound|9080||');
    const passthrough = inlineRoutes.filter((rc) => rc.name === 'InboundPassthroughCluster');
    expect(rc9080.length).toBeGreaterThan(0);
    expect(passthrough.length).toBeGreaterThan(0);
    for (const rc of rc9080) {
      expect(rc.responseHeadersToAdd).toEqual([{ header: { key: 'x-inbound', value: '9080' } }]);
      const route = ((rc.virtualHosts as Json[])[0]!.routes as Json[])[0]!;
      expect((route.route as Json).timeout).toBe('5s');
      expect((route.route as Json).cluster).toBe('inbound|9080||');
    }
    for (const rc of passthrough) {
      expect(rc.responseHeadersToAdd).toBeUndefined();
      expect((((rc.virtualHosts as Json[])[0]!.routes as Json[])[0]!.route as Json).timeout).toBe('0s');
    }
  });
});

describe('EnvoyFilter of the many-mistakes sample', () => {
  // istiod, through xds-oracle (docs/testing.md, the xds oracle results: this listener agrees since the patches are applied),
  // puts example.header first in cart's inbound HTTP chains: INSERT_BEFORE without a subFilter
  // match inserts at the front of every HTTP connection manager of the context.
  const files = ['platform.yaml', 'networking.yaml', 'policies.yaml'].map((f) =>
    readFileSync(new URL(`../../../public/samples/many-mistakes/${f}`, import.meta.url), 'utf8'),
  );
  const view = viewOf(files.join('\n---\n'));

  it('puts example.header first in every inbound HTTP chain of cart, nowhere else', () => {
    const gen = generateFor(view, 'cart-7d9f8c6b5-abcde', 'shop');
    const inbound = chainsOf(byName(gen.listeners, 'virtualInbound')).filter((c) => hcmOf(c));
    expect(inbound.length).toBeGreaterThan(0);
    for (const c of inbound) expect(httpFilterNames(c)[0]).toBe('example.header');
    for (const l of gen.listeners.filter((x) => x.name !== 'virtualInbound'))
      for (const c of chainsOf(l)) expect(httpFilterNames(c)).not.toContain('example.header');
  });
});
