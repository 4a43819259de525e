// ambient.AmbientWorkloadChecker and Kiali's workload model behind it. Expected values are
// Kiali's, from business/checkers/ambient/ambient_workload_checker_test.go at d733a096 (line
// per test) and, where a Go test asserts only vals[0], from the checker's code
// (ambient_workload_checker.go:45-85). The Go tests set the workload's flags (IsAmbient,
// IstioSidecar, WaypointWorkloads) and the namespace's IsAmbient directly; they are given here
// through the overrides, the others at Go's zero value. The last group derives them instead.
import { describe, expect, it } from 'vitest';
import { ambientWorkloadChecker } from '../../../../src/core/analysis/packs/kiali/ambient/ambientWorkload.ts';
import { workloadModel } from '../../../../src/core/analysis/packs/kiali/workloadModel.ts';
import type { KialiContextOverrides, KialiWorkloadFlags } from '../../../../src/core/analysis/packs/kiali/index.ts';
import { deployment, kialiContext, l4Policy, l7Policy, l7PolicyWithTargetRefs, namespace, pod, runChecker, service, validationOf } from './kialiHarness.ts';

const NS = 'bookinfo';
type Labels = Record<string, string>;
const AMBIENT = { 'istio.io/dataplane-mode': 'ambient' };
const WAYPOINT_LABELS = { 'gateway.istio.io/managed': 'istio.io-mesh-controller' };

interface GoCase {
  name: string;
  labels?: Labels;
  flags?: Partial<KialiWorkloadFlags>;
  nsLabels?: Labels;
  nsAmbient?: boolean;
  objects?: object[];
}

/** NewAmbientWorkloadChecker(...).Check() for one workload, as the Go test builds it. */
function check(c: GoCase) {
  const overrides: KialiContextOverrides = {
    namespaceInfo: { [NS]: { isAmbient: c.nsAmbient ?? false } },
    workloads: { [`${NS}/${c.name}`]: { isAmbient: false, istioSidecar: false, waypointWorkloads: [], ...c.flags } },
  };
  const vals = runChecker(ambientWorkloadChecker, [namespace(NS, c.nsLabels ?? {}), deployment(NS, c.name, c.labels ?? {}), ...(c.objects ?? [])], overrides);
  return validationOf(vals, 'Workload', NS, c.name);
}

const none = { codes: [], paths: [], valid: true };
const only = (code: string) => ({ codes: [code], paths: ['workload'], valid: false });

describe('AmbientWorkloadChecker (ambient_workload_checker_test.go)', () => {
  it('an Ambient workload without problems: nothing (:19)', () => {
    expect(check({ name: 'valid-ambient-workload', flags: { isAmbient: true }, nsLabels: AMBIENT })).toEqual(none);
  });

  it('Ambient and sidecar labels together: KIA1311 (:50)', () => {
    const labels = { ...AMBIENT, 'istio-injection': 'enabled', 'istio.io/rev': 'latest', 'sidecar.istio.io/inject': 'enabled' };
    expect(check({ name: 'mixed-workload', labels, nsLabels: labels })).toEqual(only('KIA1311'));
  });

  it('a waypoint label on a workload that is not Ambient: KIA1312 first, then KIA1313 (:81)', () => {
    const labels = { 'istio.io/use-waypoint': 'true' };
    const v = check({ name: 'mixed-workload', labels, nsLabels: labels, objects: [pod(NS, 'w-pod', labels, { sidecar: true })] });
    expect(v).toEqual({ codes: ['KIA1312', 'KIA1313'], paths: ['workload', 'workload'], valid: false });
  });

  it('a waypoint label and no waypoint found: KIA1313 (:111)', () => {
    const labels = { 'istio.io/use-waypoint': 'true' };
    const v = check({ name: 'mixed-workload', labels, nsLabels: labels, flags: { isAmbient: true }, objects: [pod(NS, 'w-pod', labels, { ambient: true })] });
    expect(v).toEqual(only('KIA1313'));
  });

  it('sidecar labels and a pod redirected by istio-cni: KIA1314 (:142)', () => {
    const labels = { 'istio-injection': 'enabled', 'istio.io/rev': 'latest', 'sidecar.istio.io/inject': 'enabled' };
    expect(check({ name: 'mixed-workload', labels, nsLabels: labels, objects: [pod(NS, 'ambient-pod', labels, { ambient: true })] })).toEqual(only('KIA1314'));
  });

  it('Ambient labels and a pod with a sidecar: KIA1315 (:173)', () => {
    expect(check({ name: 'mixed-workload', labels: AMBIENT, nsLabels: AMBIENT, objects: [pod(NS, 'ambient-pod', AMBIENT, { sidecar: true })] })).toEqual(
      only('KIA1315'),
    );
  });

  it('a sidecar in an Ambient namespace: KIA1316 (:202); without pods, nothing (:503)', () => {
    expect(check({ name: 'mixed-workload', flags: { istioSidecar: true }, nsAmbient: true, objects: [pod(NS, 'ambient-pod', {}, { sidecar: true })] })).toEqual(
      only('KIA1316'),
    );
    expect(check({ name: 'zero-replica-workload', nsAmbient: true })).toEqual(none);
  });

  it('an L7 policy selecting an Ambient workload without a waypoint: KIA1317 (:230)', () => {
    const v = check({
      name: 'reviews-v1',
      labels: { app: 'reviews' },
      flags: { isAmbient: true },
      nsLabels: AMBIENT,
      nsAmbient: true,
      objects: [l7Policy(NS, { app: 'reviews' })],
    });
    expect(v).toEqual(only('KIA1317'));
  });

  it('no KIA1317 out of the mesh, with a sidecar, opted out (even with a stale IsAmbient), or for another workload (:263, :291, :320, :353, :386)', () => {
    const ap = l7Policy(NS, { app: 'reviews' });
    const reviews = { app: 'reviews' };
    const optedOut = { ...reviews, 'istio.io/dataplane-mode': 'none' };
    expect(check({ name: 'reviews-v1', labels: reviews, objects: [ap] })).toEqual(none);
    expect(check({ name: 'reviews-v1', labels: reviews, flags: { istioSidecar: true }, nsLabels: { 'istio-injection': 'enabled' }, objects: [ap] })).toEqual(
      none,
    );
    expect(check({ name: 'reviews-v1', labels: optedOut, nsLabels: AMBIENT, nsAmbient: true, objects: [ap] })).toEqual(none);
    expect(check({ name: 'reviews-v1', labels: optedOut, flags: { isAmbient: true }, nsLabels: AMBIENT, nsAmbient: true, objects: [ap] })).toEqual(none);
    expect(
      check({ name: 'productpage-v1', labels: { app: 'productpage' }, flags: { isAmbient: true }, nsLabels: AMBIENT, nsAmbient: true, objects: [ap] }),
    ).toEqual(none);
  });

  it('an L7 policy attached to a Service: KIA1317 for the workload it selects, not another (:417, :447)', () => {
    const objects = [l7PolicyWithTargetRefs(NS, 'reviews-deny-get', 'reviews'), service(NS, 'reviews', {}, { app: 'reviews' })];
    const base = { flags: { isAmbient: true }, nsLabels: AMBIENT, nsAmbient: true, objects };
    expect(check({ name: 'reviews-v1', labels: { app: 'reviews' }, ...base })).toEqual(only('KIA1317'));
    expect(check({ name: 'productpage-v1', labels: { app: 'productpage' }, ...base })).toEqual(none);
  });

  it('an L4 policy, a waypoint and a gateway never get KIA1317 (:476, :531, :560, :592)', () => {
    const empty = { apiVersion: 'security.istio.io/v1', kind: 'AuthorizationPolicy', metadata: { name: 'test', namespace: NS }, spec: {} };
    expect(check({ name: 'l4-workload', flags: { isAmbient: true }, nsLabels: AMBIENT, nsAmbient: true, objects: [l4Policy(NS, 'l4-ap')] })).toEqual(none);
    expect(
      check({
        name: 'waypoint',
        labels: WAYPOINT_LABELS,
        flags: { isAmbient: true },
        objects: [empty, pod(NS, 'waypoint-pod', WAYPOINT_LABELS, { ambient: true })],
      }),
    ).toEqual(none);
    expect(check({ name: 'zero-replica-waypoint', labels: WAYPOINT_LABELS, flags: { isAmbient: true }, nsAmbient: true, objects: [empty] })).toEqual(none);
    const gw = { istio: 'ingressgateway' };
    expect(check({ name: 'istio-ingressgateway', labels: gw, objects: [empty, pod(NS, 'gateway-pod', gw, { sidecar: true })] })).toEqual(none);
  });
});

/** A waypoint Gateway istiod deploys (class istio-waypoint). */
const waypointGateway = (ns: string, name: string, labels: Labels = {}) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace: ns, labels },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
});

describe('Kiali’s workload model, derived from the workspace', () => {
  const enrolledNs = namespace(NS, { ...AMBIENT, 'istio.io/use-waypoint': 'waypoint' });
  const reviews = deployment(NS, 'reviews-v1', { app: 'reviews' });
  const redirected = pod(NS, 'reviews-v1-abc', { app: 'reviews' }, { ambient: true });

  it('pods selected by the template labels make the flags: redirected → Ambient, no sidecar; the namespace waypoint captures it', () => {
    const ctx = kialiContext([enrolledNs, reviews, redirected, waypointGateway(NS, 'waypoint')]);
    const w = ctx.workloadsIn(NS).find((x) => x.name === 'reviews-v1');
    expect(w && workloadModel(ctx, w)).toMatchObject({ isAmbient: true, istioSidecar: false, waypointWorkloads: [`${NS}/waypoint`] });
    const vals = ambientWorkloadChecker.run(ctx);
    expect(validationOf(vals, 'Workload', NS, 'reviews-v1')).toEqual(none);
  });

  it('no pods: Kiali’s IstioSidecar holds and IsAmbient does not; no waypoint is looked up', () => {
    const ctx = kialiContext([enrolledNs, reviews, waypointGateway(NS, 'waypoint')]);
    const w = ctx.workloadsIn(NS).find((x) => x.name === 'reviews-v1');
    expect(w && workloadModel(ctx, w)).toMatchObject({ pods: [], isAmbient: false, istioSidecar: true, waypointWorkloads: [] });
  });

  it('the namespace asks for a waypoint that does not exist (or serves no traffic): KIA1313, and KIA1317 under an L7 policy', () => {
    const vals = runChecker(ambientWorkloadChecker, [enrolledNs, reviews, redirected, l7Policy(NS, { app: 'reviews' })]);
    expect(validationOf(vals, 'Workload', NS, 'reviews-v1')?.codes).toEqual(['KIA1313', 'KIA1317']);
    const forNone = runChecker(ambientWorkloadChecker, [enrolledNs, reviews, redirected, waypointGateway(NS, 'waypoint', { 'istio.io/waypoint-for': 'none' })]);
    expect(validationOf(forNone, 'Workload', NS, 'reviews-v1')?.codes).toEqual(['KIA1313']);
  });

  it('a Service label opting out stops the search at the Service (getCapturingWaypoints)', () => {
    const objects = [namespace(NS, AMBIENT), reviews, redirected, service(NS, 'reviews', { 'istio.io/use-waypoint': 'none' }, { app: 'reviews' })];
    const ctx = kialiContext(objects);
    const w = ctx.workloadsIn(NS).find((x) => x.name === 'reviews-v1');
    expect(w && workloadModel(ctx, w).waypointWorkloads).toEqual([]);
  });

  it('pods derived from a Deployment in a namespace labelled for both modes: sidecar wins, so KIA1311, KIA1315 and KIA1316', () => {
    const both = namespace(NS, { ...AMBIENT, 'istio-injection': 'enabled' });
    const ctx = kialiContext([both, reviews], {}, true);
    const w = ctx.workloadsIn(NS).find((x) => x.name === 'reviews-v1');
    expect(w && workloadModel(ctx, w)).toMatchObject({ isAmbient: false, istioSidecar: true });
    expect(validationOf(ambientWorkloadChecker.run(ctx), 'Workload', NS, 'reviews-v1')?.codes).toEqual(['KIA1311', 'KIA1315', 'KIA1316']);
  });

  it('pods derived from a Deployment in an Ambient namespace are redirected: Ambient, no KIA1316', () => {
    const ctx = kialiContext([namespace(NS, AMBIENT), reviews], {}, true);
    const w = ctx.workloadsIn(NS).find((x) => x.name === 'reviews-v1');
    expect(w && workloadModel(ctx, w)).toMatchObject({ isAmbient: true, istioSidecar: false });
    expect(validationOf(ambientWorkloadChecker.run(ctx), 'Workload', NS, 'reviews-v1')).toEqual(none);
  });
});
