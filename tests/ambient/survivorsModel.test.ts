// Surviving mutants of src/core/ambient/{authz,cluster,envoyAuthz,model}.ts that the other survivor
// tests left (reports/mutation/ambient.nofuzz.nostatic-survivors.txt). Expected values:
//  - istiod's convertPeerAuthentication (pilot/pkg/serviceregistry/kube/controller/ambient/
//    authorization.go): a PERMISSIVE or DISABLE port of a workload policy whose own mode is UNSET is
//    skipped only when the namespace policy is not STRICT, or (no namespace policy) the root one is not
//    STRICT, or there is neither; under a STRICT namespace policy it is an exception whatever the root.
//  - config.LabelsInRevision (pkg/config/model.go): an object labelled istio.io/rev belongs to the
//    revision its label names; only the default revision also reads an empty label as its own.
//  - Kubernetes: a Pod from the files is what the API server has (its annotations and labels as
//    written); only a pod the derivation injected carries our "derived" mark.
//  - SimPod.mode (cluster.ts): the enrollment's mode; only an ambient pod that ended is `none`.
//  - Istio's AuthorizationPolicy `hosts`: "the match is case-insensitive" (hostGenerator sets
//    IgnoreCase), for a host written with its port as for one without.
//  - model.ts: the model is kept with the version's lookups and rebuilt when a kind it reads changes.
import { describe, expect, it } from 'vitest';
import { buildPolicySet, workloadPolicyKeys, type PolicySet } from '../../src/core/ambient/authz.ts';
import { evaluateEnvoy } from '../../src/core/ambient/envoyAuthz.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { ambientModel, buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import { pa } from './manifests.ts';

const y = (objs: object[]) => objs.map((o) => JSON.stringify(o)).join('\n---\n');
function load(objects: object[]) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: y(objects) }]);
  expect(problems).toEqual([]);
  return view;
}
const policySet = (objects: object[], revision?: string): PolicySet => buildPolicySet(load(objects), revision);
const ap = (name: string, namespace: string, labels?: Record<string, string>) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  spec: { rules: [{}] },
});
const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  o: { labels?: Record<string, string>; annotations?: Record<string, string>; containers?: object[]; phase?: string } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels }, annotations: o.annotations ?? {} },
  spec: { nodeName: 'n1', serviceAccountName: name, containers: o.containers ?? [{ name: 'app', image: 'app' }] },
  status: { phase: o.phase ?? 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const NO_ID = { notPrincipals: [{ type: 'presence' }] };

describe('convertPeerAuthentication: a PERMISSIVE port under UNSET', () => {
  it('is an exception under a STRICT namespace policy even when the root policy is not STRICT', () => {
    const s = policySet([
      pa('root', 'istio-system', { mode: 'PERMISSIVE' }),
      pa('n', 'foo', { mode: 'STRICT' }),
      pa('w', 'foo', { selector: { app: 'a' }, ports: { '8080': 'PERMISSIVE' } }),
    ]);
    // DENY when the port is not 8080 and the peer has no identity: STRICT except on 8080.
    expect(s.convertedPeerAuthns.get('foo/w')).toEqual({
      name: 'converted_peer_authentication_w',
      namespace: 'foo',
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[{ notDestinationPorts: [8080] }], [NO_ID]]],
      dryRun: false,
    });
    expect(workloadPolicyKeys(s, 'foo', { app: 'a' })).toEqual(['foo/converted_peer_authentication_w']);
  });
});

describe('buildPolicySet for a revision other than default', () => {
  it('takes policies labelled with that revision and unlabelled ones, not those labelled istio.io/rev=""', () => {
    const s = policySet(
      [
        ap('none', 'a'),
        ap('empty', 'a', { 'istio.io/rev': '' }),
        ap('canary', 'a', { 'istio.io/rev': 'canary' }),
        ap('def', 'a', { 'istio.io/rev': 'default' }),
      ],
      'canary',
    );
    expect([...s.byKey.keys()].sort()).toEqual(['a/canary', 'a/none']);
    expect(s.conversions.find((c) => c.resource.name === 'empty')?.excluded).toBe("labelled istio.io/rev=: another revision's istiod handles it");
  });
});

describe('pods from the files keep their sidecar status', () => {
  it('a pod written with a status that holds "derived":true is no derived pod: its status and labels stay', () => {
    const status = '{"containers":["istio-proxy"],"derived":true}';
    const containers = [
      { name: 'app', image: 'x' },
      { name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'sidecar'] },
    ];
    const view = load([
      ns('plain'),
      pod('plain', 'exported', { annotations: { 'sidecar.istio.io/status': status }, labels: { 'security.istio.io/tlsMode': 'istio' }, containers }),
    ]);
    const p = buildAmbientModel(view).cluster.podsByKey.get('plain/exported')!;
    expect(p.origin).toBe('file');
    expect(p.annotations['sidecar.istio.io/status']).toBe(status);
    expect(p.labels['security.istio.io/tlsMode']).toBe('istio');
  });
});

describe('the mode of a pod that ended', () => {
  it('a terminated sidecar pod stays sidecar, with no state code; a terminated ambient pod is none (Terminated)', () => {
    const view = load([
      ns('inj', { 'istio-injection': 'enabled' }),
      ns('amb', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('inj', 'job', { phase: 'Succeeded' }),
      pod('amb', 'job', { phase: 'Failed' }),
    ]);
    const m = buildAmbientModel(view);
    const side = m.cluster.podsByKey.get('inj/job')!;
    expect(side.state).toBe('terminated');
    expect(side.mode).toBe('sidecar');
    expect(side.stateCode).toBeUndefined();
    expect(m.cluster.podsByKey.get('amb/job')).toMatchObject({ state: 'terminated', mode: 'none', stateCode: 'Terminated' });
  });
});

describe('sidecar and waypoint policies: hosts with a port', () => {
  it('match case-insensitively', () => {
    const policy = makeResource(
      {
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: { name: 'p', namespace: 'shop' },
        spec: { rules: [{ to: [{ operation: { hosts: ['Cart.Shop.svc.cluster.local:8080'] } }] }] },
      },
      undefined,
    );
    const req = {
      http: true,
      method: 'GET',
      path: '/',
      host: 'cart.shop.svc.cluster.local:8080',
      sourceIdentity: null,
      sourceIp: '10.0.0.5',
      destinationIp: '10.0.1.7',
      destinationPort: 8080,
    };
    expect(evaluateEnvoy([policy], req).decision).toBe('ALLOW');
    expect(evaluateEnvoy([policy], { ...req, host: 'cart.shop.svc.cluster.local:9090' }).decision).toBe('DENY');
  });
});

describe('the cached model (ambientModel)', () => {
  it('is rebuilt when a kind it reads changes', () => {
    const view = load([ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'x')]);
    const first = ambientModel(view);
    expect(ambientModel(view)).toBe(first);
    for (const kind of [KINDS.Pod, KINDS.AuthorizationPolicy, KINDS.Deployment]) {
      const before = ambientModel(view);
      view.lookups.invalidate(new Set([kind.id]));
      expect(ambientModel(view), kind.id).not.toBe(before);
    }
  });
});
