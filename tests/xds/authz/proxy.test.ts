// buildProxyAuthz over a workspace: the filters one proxy gets, in istiod's order, from the
// policies, mesh config and service registry read through a ConfigView.
import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../../src/core/config/mesh/meshconfig.ts';
import { buildProxyAuthz, proxyAuthzInputsFromView, type PolicyProxy } from '../../../src/core/xds/authz/index.ts';
import { kindProblems } from '../../../src/core/validation/kindProblems.ts';

function viewOf(text: string, mesh: Record<string, unknown> = {}): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'm.yaml', text }], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: true,
      meshConfig: mergeMeshConfig(defaultMeshConfig(), mesh),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

const WORKSPACE = `apiVersion: v1
kind: Service
metadata: {name: ext-authz, namespace: auth}
spec:
  clusterIP: 10.96.0.20
  selector: {app: ext-authz}
  ports: [{name: grpc, port: 9000}]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: allow-frontend, namespace: shop}
spec:
  selector: {matchLabels: {app: cart}}
  rules:
  - from: [{source: {principals: ["cluster.local/ns/shop/sa/frontend"]}}]
    to: [{operation: {methods: ["GET"], ports: ["8080"]}}]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny-legacy, namespace: istio-system}
spec:
  action: DENY
  rules: [{from: [{source: {namespaces: ["legacy"]}}]}]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: ext, namespace: shop}
spec:
  action: CUSTOM
  provider: {name: my-ext}
  rules: [{to: [{operation: {paths: ["/admin/*"]}}]}]
---
apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata: {name: jwt, namespace: shop}
spec:
  jwtRules: [{issuer: "https://idp.example.com", jwks: '{"keys":[]}'}]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: web-only, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  rules: [{}]
`;

const MESH = {
  trustDomain: 'td.example',
  trustDomainAliases: ['cluster.local'],
  extensionProviders: [{ name: 'my-ext', envoyExtAuthzGrpc: { service: 'ext-authz.auth.svc.cluster.local', port: 9000 } }],
};

const cart: PolicyProxy = { namespace: 'shop', labels: { app: 'cart' }, type: 'sidecar' };

describe('buildProxyAuthz', () => {
  it('HTTP filters: CUSTOM, then jwt_authn, then DENY and ALLOW RBAC', () => {
    const view = viewOf(WORKSPACE, MESH);
    const out = buildProxyAuthz(proxyAuthzInputsFromView(view, cart));
    expect(out.http.map((f) => f.name)).toEqual([
      'envoy.filters.http.rbac',
      'envoy.filters.http.ext_authz',
      'envoy.filters.http.jwt_authn',
      'envoy.filters.http.rbac',
      'envoy.filters.http.rbac',
    ]);
    expect(out.http[1]?.typedConfig.grpcService).toEqual({
      envoyGrpc: { clusterName: 'outbound|9000||ext-authz.auth.svc.cluster.local', authority: 'ext-authz.auth.svc.cluster.local' },
      timeout: '600s',
    });
    expect((out.http[3]?.typedConfig.rules as { action: string }).action).toBe('DENY');
    // The trust domain and its alias both match the source principal.
    const allow = JSON.stringify(out.http[4]?.typedConfig);
    expect(allow).toContain('spiffe://td.example/ns/shop/sa/frontend');
    expect(allow).toContain('spiffe://cluster.local/ns/shop/sa/frontend');
    expect(out.policies.allow.map((p) => p.name)).toEqual(['allow-frontend']);
    expect(out.policies.requestAuthentications.map((p) => p.name)).toEqual(['jwt']);
  });

  it('TCP filters: CUSTOM (gRPC provider), then RBAC with HTTP-only rules dropped', () => {
    const out = buildProxyAuthz(proxyAuthzInputsFromView(viewOf(WORKSPACE, MESH), cart));
    expect(out.tcp.map((f) => f.name)).toEqual([
      'envoy.filters.network.rbac',
      'envoy.filters.network.ext_authz',
      'envoy.filters.network.rbac',
      'envoy.filters.network.rbac',
    ]);
    // The ALLOW rule uses `methods`, HTTP only: on TCP it is dropped and nothing is allowed.
    expect(out.tcp[3]?.typedConfig.rules).toEqual({});
    expect(out.log.some((e) => e.message.includes('skipped rule ns[shop]-policy[allow-frontend]-rule[0] on TCP filter chain'))).toBe(true);
  });

  it('a workload no policy selects gets only the mesh-wide ones', () => {
    const out = buildProxyAuthz(proxyAuthzInputsFromView(viewOf(WORKSPACE, MESH), { namespace: 'other', labels: {}, type: 'sidecar' }));
    expect(out.http.map((f) => f.name)).toEqual(['envoy.filters.http.rbac']);
  });

  it('without the provider in the mesh config, CUSTOM denies', () => {
    const out = buildProxyAuthz(proxyAuthzInputsFromView(viewOf(WORKSPACE), cart));
    expect(out.customHttp).toHaveLength(1);
    expect(Object.keys((out.customHttp[0]?.typedConfig.rules as { policies: object }).policies)).toEqual([
      'istio-ext-authz-my-ext-ns[shop]-policy[ext]-rule[0]-deny-due-to-bad-CUSTOM-action',
    ]);
  });

  it('waypoints match principals in filter state and clear the route cache after JWT validation', () => {
    const wp: PolicyProxy = { namespace: 'shop', labels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' }, type: 'waypoint' };
    const text = `${WORKSPACE}---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: wp, namespace: shop}
spec:
  targetRefs: [{kind: Service, group: "", name: cart}]
  rules: [{from: [{source: {principals: ["a/ns/b/sa/c"]}}]}]
---
apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata: {name: wp-jwt, namespace: shop}
spec:
  targetRefs: [{kind: Gateway, group: gateway.networking.k8s.io, name: waypoint}]
  jwtRules: [{issuer: "i", jwks: "k"}]
`;
    const inputs = proxyAuthzInputsFromView(viewOf(text, MESH), wp);
    expect(buildProxyAuthz(inputs).localHttp).toEqual([]);
    const out = buildProxyAuthz(inputs, { service: { name: 'cart', namespace: 'shop', registry: 'Kubernetes' } });
    expect(JSON.stringify(out.localHttp)).toContain('"filterState":{"key":"io.istio.peer_principal"');
    const providers = out.jwtHttp[0]?.typedConfig.providers as Record<string, Record<string, unknown>>;
    expect(providers['origins-0']?.clearRouteCache).toBe(true);
  });
});
