// Status istiod writes back for the Gateway API cases issue #33 names (pilot/pkg/config/kube/
// gateway): InferencePool parents (inferencepool_collection.go calculateInferencePoolStatus),
// BackendTLSPolicy conflicts (backend_policies.go btlsIsConflicted, which skips the policy
// itself by UID), and the kind a listener does not allow, named with istiod's GVK version
// (pkg/config/schema/gvk: TCPRoute is gateway.networking.k8s.io/v1).
import { describe, expect, it } from 'vitest';
import { gwObjects } from '../helpers/gatewayApi.ts';
import { convertGatewayApi, type GatewayApiResult } from '../../src/core/config/gatewayApi/convert.ts';
import type { Json } from '../../src/core/config/gatewayApi/objects.ts';
import { createHash } from 'node:crypto';
import { inferencePoolServiceName } from '../../src/core/config/gatewayApi/backendRefs.ts';

const objects = gwObjects;

function convert(text: string, inferenceExtension = false): GatewayApiResult {
  return convertGatewayApi(objects(text), { domainSuffix: 'cluster.local', now: 'now', inferenceExtension, registry: { byHostname: () => [] } });
}

function status(r: GatewayApiResult, kind: string, name: string): Json {
  const s = r.statuses.find((x) => x.kind === kind && x.name === name);
  if (!s) throw new Error(`no status for ${kind} ${name} among ${r.statuses.map((x) => `${x.kind}/${x.name}`).join(', ')}`);
  return s.status;
}

const POOL = `
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: pool, namespace: default}
spec:
  selector: {matchLabels: {app: model}}
  targetPorts: [{number: 8000}]
  endpointPickerRef: {name: picker, port: {number: 9002}}
---
apiVersion: v1
kind: Service
metadata: {name: picker, namespace: default}
spec: {ports: [{name: grpc, port: 9002}]}
---`;

const route = (routeStatus: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system}]
  rules:
  - backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: pool}]
${routeStatus}---`;

const GW = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  gatewayClassName: istio
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---`;

describe('InferencePool status', () => {
  it("is written only with the inference extension on, and is empty without a Gateway parent in the routes' status", () => {
    expect(convert(`${GW}${POOL}${route('')}`).statuses.some((s) => s.kind === 'InferencePool')).toBe(false);
    expect(status(convert(`${GW}${POOL}${route('')}`, true), 'InferencePool', 'pool')).toEqual({});
  });

  it("has a parent per Gateway our controller accepted the route on, Accepted from that status and ResolvedRefs from the picker's Service", () => {
    const accepted = `status:\n  parents:\n  - parentRef: {name: gw, namespace: istio-system}\n    controllerName: istio.io/gateway-controller\n    conditions: [{type: Accepted, status: "True", reason: Accepted, message: ok}]\n`;
    const s = status(convert(`${GW}${POOL}${route(accepted)}`, true), 'InferencePool', 'pool');
    const parents = s.parents as Json[];
    expect(parents).toHaveLength(1);
    expect(parents[0]!.parentRef).toEqual({ group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: 'istio-system', name: 'gw' });
    const byType = Object.fromEntries((parents[0]!.conditions as Json[]).map((c) => [c.type, c]));
    expect(byType.Accepted).toMatchObject({ status: 'True', reason: 'Accepted', message: 'Referenced by an HTTPRoute accepted by the parentRef Gateway' });
    expect(byType.ResolvedRefs).toMatchObject({ status: 'True', reason: 'ResolvedRefs', message: 'Referenced ExtensionRef resolved successfully' });
    // Not accepted there: the route's message is carried; a missing picker Service is named.
    const refused = accepted.replace('status: "True", reason: Accepted, message: ok', 'status: "False", reason: NotAllowedByListeners, message: no');
    const r = convert(`${GW}${POOL.replace('name: picker, port', 'name: gone, port')}${route(refused)}`, true);
    const c = Object.fromEntries(((status(r, 'InferencePool', 'pool').parents as Json[])[0]!.conditions as Json[]).map((x) => [x.type, x]));
    expect(c.Accepted).toMatchObject({
      status: 'False',
      reason: 'HTTPRouteNotAccepted',
      message: 'Referenced HTTPRoute default/r not accepted by Gateway istio-system/gw: no',
    });
    expect(c.ResolvedRefs).toMatchObject({ status: 'False', reason: 'InvalidExtensionRef', message: 'Referenced ExtensionRef not found gone' });
  });

  it('ignores route status written by other controllers, and keeps their parents in the pool status', () => {
    const foreign = `status:\n  parents:\n  - parentRef: {name: other, namespace: default}\n    controllerName: example.com/other\n    conditions: [{type: Accepted, status: "True", reason: Accepted, message: ok}]\n`;
    const pool = POOL.replace(
      '  endpointPickerRef: {name: picker, port: {number: 9002}}\n',
      '  endpointPickerRef: {name: picker, port: {number: 9002}}\nstatus:\n  parents:\n  - parentRef: {name: other, namespace: default, kind: Gateway}\n    conditions: []\n',
    );
    const s = status(convert(`${GW}${pool}${route(foreign)}`, true), 'InferencePool', 'pool');
    expect((s.parents as Json[]).map((p) => (p.parentRef as Json).name)).toEqual(['other']);
  });
});

describe('BackendTLSPolicy conflicts', () => {
  const policy = (name: string, uid: string, created: string) => `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: ${name}, namespace: default, creationTimestamp: "${created}"${uid ? `, uid: ${uid}` : ''}}
spec:
  targetRefs: [{group: "", kind: Service, name: echo}]
  validation: {hostname: echo.example.com, wellKnownCACertificates: System}
---`;
  const echo = `\napiVersion: v1\nkind: Service\nmetadata: {name: echo, namespace: default}\nspec: {ports: [{name: http, port: 80}]}\n---`;
  const accepted = (r: GatewayApiResult, name: string) => {
    const anc = (status(r, 'BackendTLSPolicy', name).ancestors as Json[])[0]!;
    return (anc.conditions as Json[]).find((c) => c.type === 'Accepted');
  };

  it('the newer of two policies on one backend is Conflicted when the objects have their own UIDs', () => {
    const r = convert(`${echo}${policy('old', 'u1', '2026-01-01T00:00:00Z')}${policy('new', 'u2', '2026-02-01T00:00:00Z')}`);
    expect(accepted(r, 'old')).toMatchObject({ status: 'True' });
    expect(accepted(r, 'new')).toMatchObject({
      status: 'False',
      reason: 'Conflicted',
      message: 'Conflicts with BackendTLSPolicy "old" targeting the same backend',
    });
  });

  it('is never Conflicted between objects without UIDs (istiod skips "itself" by UID, as in its goldens)', () => {
    const r = convert(`${echo}${policy('old', '', '2026-01-01T00:00:00Z')}${policy('new', '', '2026-02-01T00:00:00Z')}`);
    expect(accepted(r, 'new')).toMatchObject({ status: 'True', message: 'Configuration is valid' });
  });
});

describe('kinds a listener does not allow', () => {
  it("names TCPRoute with istiod's GVK version (v1)", () => {
    const r = convert(`${GW}
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: t, namespace: default}
spec:
  parentRefs: [{name: gw, namespace: istio-system, sectionName: http}]
  rules: [{backendRefs: [{name: echo, port: 80}]}]
---`);
    const parent = (status(r, 'TCPRoute', 't').parents as Json[])[0]!;
    const acc = (parent.conditions as Json[]).find((c) => c.type === 'Accepted');
    expect(acc).toMatchObject({ reason: 'NotAllowedByListeners', message: 'kind gateway.networking.k8s.io/v1/TCPRoute is not allowed' });
  });
});

describe('InferencePool shadow Service names (inferencepool_collection.go InferencePoolServiceName)', () => {
  // `<pool>-ip-<first 8 hex digits of SHA-256(pool)>`, the pool's name cut so the whole fits in
  // 63 characters; the hash computed here with Node's own SHA-256, apart from ours.
  const hash8 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 8);
  it('appends the hash of the pool name', () => {
    expect(inferencePoolServiceName('infpool-gen')).toBe(`infpool-gen-ip-${hash8('infpool-gen')}`);
  });
  it('cuts a long pool name to 51 characters and keeps the hash of the whole name', () => {
    const long = 'p'.repeat(60);
    const name = inferencePoolServiceName(long);
    expect(name).toBe(`${'p'.repeat(51)}-ip-${hash8(long)}`);
    expect(name.length).toBe(63);
    const fits = 'q'.repeat(51);
    expect(inferencePoolServiceName(fits)).toBe(`${fits}-ip-${hash8(fits)}`);
  });
});
