// Surviving mutants of src/core/ambient/settings.ts, cni.ts, model.ts and load.ts. Expected values:
//  - istio cni/pkg/iptables/testdata/default.golden and the ambient.istio.io/bypass-inbound-capture
//    annotation (no inbound REDIRECT to 15006; 15008 is never redirected).
//  - settingsKey: the same settings give the same key whatever the order they were written in
//    (object keys sorted); resolveSettings: the ambient profile's defaults.
//  - The model cache keeps the six most recently used settings variants.
//  - loadMesh reports a document it cannot read as `file:line: message`.
import { describe, expect, it } from 'vitest';
import { redirectionRules } from '../../src/core/ambient/cni.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { ambientModel, buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { describeAssumptions, resolveSettings, settingsKey } from '../../src/core/ambient/settings.ts';

const AMB = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', labels: { 'istio.io/dataplane-mode': 'ambient' } } };
const pod = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'a', labels: { app: name }, annotations },
  spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'app' }] },
  status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const load = (objects: object[]) => loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]).view;

describe('istio-cni rules (cni.ts)', () => {
  it('every rule has its chain and a description naming what it does', () => {
    const m = buildAmbientModel(load([AMB, pod('x')]));
    const rules = redirectionRules(m.cluster.podsByKey.get('a/x')!);
    const expected: Array<[string, string, string]> = [
      ['PREROUTING (inbound)', '169.254.7.127', '-A ISTIO_PRERT -s 169.254.7.127'],
      ['OUTPUT (outbound)', '169.254.7.127', '-A ISTIO_OUTPUT -d 169.254.7.127'],
      ['PREROUTING (inbound)', ':15006', '--to-ports 15006'],
      ['PREROUTING (inbound)', ':15008', '(no rule: 15008 is excluded above)'],
      ['OUTPUT (outbound)', 'UDP', '-p udp'],
      ['OUTPUT (outbound)', 'TCP', '-p tcp --dport 53'],
      ['OUTPUT (outbound)', 'connmark 0x111', '--mark 0x111/0xfff -j ACCEPT'],
      ['OUTPUT (outbound)', 'loopback', '-o lo -j ACCEPT'],
      ['OUTPUT (outbound)', ':15001', '--to-ports 15001'],
    ];
    expect(rules).toHaveLength(expected.length);
    rules.forEach((r, i) => {
      const [chain, word, line] = expected[i]!;
      expect(r.chain).toBe(chain);
      expect(r.description).toContain(word);
      expect(r.iptables).toContain(line);
    });
  });

  it('bypass-inbound-capture: a rule saying inbound plaintext is not redirected', () => {
    const m = buildAmbientModel(load([AMB, pod('x', { 'ambient.istio.io/bypass-inbound-capture': 'true' })]));
    const rules = redirectionRules(m.cluster.podsByKey.get('a/x')!);
    expect(rules[2]).toEqual({
      chain: 'PREROUTING (inbound)',
      description:
        "ambient.istio.io/bypass-inbound-capture=true: inbound plaintext is NOT redirected (it reaches the app unchecked); HBONE to :15008 is still accepted by ztunnel's in-pod listener.",
      iptables: '(no REDIRECT to 15006)',
    });
    expect(rules[3]?.chain).toBe('PREROUTING (inbound)');
    expect(rules[3]?.description).toContain('HBONE');
  });
});

describe('settings', () => {
  it('a cluster block without nodes assumes the nodes', () => {
    expect(resolveSettings({ cluster: {} }).nodes).toBeUndefined();
  });
  it('settingsKey sorts object keys', () => {
    expect(settingsKey(resolveSettings())).toBe(
      '{"ambientEnabled":true,"autoAllowWaypointPolicy":false,"dnsCapture":true,"excludeNamespaces":["kube-system"],"infrastructure":false,"notReadyWaypoints":[],"overrides":{},"sidecarHbone":true,"systemNamespace":"istio-system"}',
    );
    const a = settingsKey(resolveSettings({ overrides: { podLabels: { 'a/z': { b: '1', a: '2' }, 'a/y': { c: null } } } }));
    const b = settingsKey(resolveSettings({ overrides: { podLabels: { 'a/y': { c: null }, 'a/z': { a: '2', b: '1' } } } }));
    expect(a).toBe(b);
  });
  it('the assumptions name the installation', () => {
    expect(describeAssumptions(resolveSettings())[2]).toBe(
      'Cluster ID Kubernetes, one network, cluster domain cluster.local; every ztunnel receives every Workload, Service and policy (no on-demand xDS).',
    );
  });
});

describe('the model cache (model.ts)', () => {
  it('keeps six settings variants, the least recently used goes first', () => {
    const view = load([AMB, pod('x')]);
    const variant = (i: number) => ({ notReadyWaypoints: [`a/w${i}`] });
    const models = [0, 1, 2, 3, 4, 5].map((i) => ambientModel(view, variant(i)));
    const first = models[0];
    expect(ambientModel(view, variant(0))).toBe(first);
    // Variant 0 was just used: a seventh variant evicts variant 1, not 0.
    const one = models[1];
    ambientModel(view, variant(6));
    expect(ambientModel(view, variant(0))).toBe(first);
    expect(ambientModel(view, variant(1))).not.toBe(one);
  });
});

describe('loadMesh problems', () => {
  it('name the file and the line', () => {
    const { problems } = loadMesh([{ path: 'bad.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: [\n' }]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^bad\.yaml:[1-9]\d*: /);
  });
});
