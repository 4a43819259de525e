import { describe, expect, it } from 'vitest';
import { caCertificateAnalyzer } from '../../../../src/core/analysis/analyzers/destinationrule/caCertificates.ts';
import { subsetSelectPodAnalyzer } from '../../../../src/core/analysis/analyzers/destinationrule/subsetSelectPods.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';
import { lineOf } from './util.ts';

const dr = (ns: string, name: string, spec: string) => `
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${spec}`;

describe('destinationrule.CaCertificateAnalyzer', () => {
  it('reports SIMPLE/MUTUAL TLS without caCertificates at the rule and port level', () => {
    const text = docs(
      dr(
        'db',
        'tls',
        `  host: pg.db.svc.cluster.local
  trafficPolicy:
    tls:
      mode: MUTUAL
      clientCertificate: /etc/certs/client.pem
      privateKey: /etc/certs/key.pem
    portLevelSettings:
    - port:
        number: 5432
      tls:
        mode: SIMPLE
        caCertificates: ""
    - port:
        number: 6432
      tls:
        mode: ISTIO_MUTUAL
`,
      ),
    );
    const out = analyze(caCertificateAnalyzer, { 'dr.yaml': text });
    expect(lines(out)).toEqual([
      `Warning [IST0128] (DestinationRule db/tls dr.yaml:1) DestinationRule db/tls in namespace db has TLS mode set to MUTUAL but no caCertificates are set to validate server identity for host: pg.db.svc.cluster.local`,
      `Warning [IST0129] (DestinationRule db/tls dr.yaml:${lineOf(text, 'caCertificates: ""')}) DestinationRule db/tls in namespace db has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: pg.db.svc.cluster.local at port number:5432`,
    ]);
    expect(out.map((d) => d.fieldPath)).toEqual(['spec.trafficPolicy.tls.caCertificates', 'spec.trafficPolicy.portLevelSettings[0].tls.caCertificates']);
  });

  it('accepts caCertificates, other modes, and credentialName on a rule with a workloadSelector', () => {
    const out = analyze(caCertificateAnalyzer, {
      'dr.yaml': docs(
        dr('db', 'with-ca', `  host: a\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n      caCertificates: /etc/ca.pem\n`),
        dr('db', 'mesh', `  host: b\n  trafficPolicy:\n    tls:\n      mode: ISTIO_MUTUAL\n`),
        dr(
          'db',
          'cred',
          `  host: c\n  workloadSelector:\n    matchLabels:\n      app: client\n  trafficPolicy:\n    portLevelSettings:\n    - port:\n        number: 443\n      tls:\n        mode: SIMPLE\n        credentialName: client-cred\n`,
        ),
      ),
    });
    expect(out).toEqual([]);
  });

  it("reads fields under their proto names and enum modes given as numbers, as Istio's decoder does", () => {
    const out = analyze(caCertificateAnalyzer, {
      'dr.yaml': docs(
        dr('db', 'snake', `  host: a\n  traffic_policy:\n    tls:\n      mode: SIMPLE\n`),
        dr('db', 'numeric', `  host: b\n  trafficPolicy:\n    port_level_settings:\n    - port: {number: 443}\n      tls: {mode: 2}\n`),
        dr('db', 'numeric-istio', `  host: c\n  trafficPolicy:\n    tls: {mode: 3}\n`),
      ),
    });
    expect(out.map((d) => d.message)).toEqual([
      'DestinationRule db/snake in namespace db has TLS mode set to SIMPLE but no caCertificates are set to validate server identity for host: a',
      'DestinationRule db/numeric in namespace db has TLS mode set to MUTUAL but no caCertificates are set to validate server identity for host: b at port number:443',
    ]);
  });

  it('still reports credentialName without a workloadSelector', () => {
    const out = analyze(caCertificateAnalyzer, {
      'dr.yaml': dr('db', 'cred', `  host: c\n  trafficPolicy:\n    tls:\n      mode: SIMPLE\n      credentialName: client-cred\n`),
    });
    expect(pairs(out)).toEqual(['IST0128 DestinationRule db/cred']);
  });
});

const svc = (ns: string, name: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  ports:
  - name: http
    port: 80
`;

const pod = (ns: string, name: string, labels: string, nodeName?: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${ns}
  labels: {${labels}}
spec:
${nodeName ? `  nodeName: ${nodeName}\n` : ''}  containers:
  - name: app
    image: app
`;

const node = (name: string, labels: string) => `
apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels: {${labels}}
`;

describe('destinationrule.SubsetSelectPodAnalyzer', () => {
  it('reports subsets that select no pod, and unknown hosts', () => {
    const text = docs(
      svc('shop', 'cart'),
      pod('shop', 'cart-1', 'app: cart, version: v1'),
      dr('shop', 'cart', `  host: cart\n  subsets:\n  - name: v1\n    labels: {version: v1}\n  - name: v2\n    labels: {version: v2}\n`),
      dr('shop', 'ghost', `  host: ghost.shop.svc.cluster.local\n  subsets:\n  - name: v1\n    labels: {version: v1}\n`),
    );
    const out = analyze(subsetSelectPodAnalyzer, { 'dr.yaml': text });
    expect(lines(out)).toEqual([
      `Error [IST0173] (DestinationRule shop/cart dr.yaml:${lineOf(text, 'kind: DestinationRule') - 1}) The Subset v2 defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).`,
      `Warning [IST0174] (DestinationRule shop/ghost dr.yaml:${lineOf(text, 'name: ghost') - 3}) The host ghost.shop.svc.cluster.local defined in the DestinationRule does not match any services in the mesh.`,
    ]);
  });

  it('gives pods their node locality labels and hostname, skipping empty locality values', () => {
    const text = docs(
      svc('shop', 'cart'),
      node('node-a', '"topology.kubernetes.io/zone": zone-1, "topology.kubernetes.io/region": ""'),
      pod('shop', 'cart-1', 'app: cart', 'node-a'),
      dr(
        'shop',
        'cart',
        `  host: cart.shop.svc.cluster.local
  subsets:
  - name: zone
    labels: {"topology.kubernetes.io/zone": zone-1}
  - name: host
    labels: {"kubernetes.io/hostname": node-a, app: cart}
  - name: empty-region
    labels: {"topology.kubernetes.io/region": ""}
`,
      ),
    );
    const out = analyze(subsetSelectPodAnalyzer, { 'dr.yaml': text });
    expect(out.map((d) => d.message)).toEqual([
      'The Subset empty-region defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).',
    ]);
  });

  it("labels endpoints as pilot's AugmentLabels does: the node name even without its Node, no subzone without a zone, node locality over pod labels", () => {
    const text = docs(
      svc('shop', 'cart'),
      // node-a is not in the workspace; node-b has a region and a subzone but no zone
      node('node-b', '"topology.kubernetes.io/region": r1, "topology.istio.io/subzone": sz-1'),
      pod('shop', 'cart-1', 'app: cart', 'node-a'),
      pod('shop', 'cart-2', 'app: cart, "topology.kubernetes.io/region": own', 'node-b'),
      dr(
        'shop',
        'cart',
        `  host: cart
  subsets:
  - name: host-a
    labels: {"kubernetes.io/hostname": node-a}
  - name: region
    labels: {"topology.kubernetes.io/region": r1, app: cart}
  - name: own-region
    labels: {"topology.kubernetes.io/region": own}
  - name: subzone
    labels: {"topology.istio.io/subzone": sz-1}
`,
      ),
    );
    const out = analyze(subsetSelectPodAnalyzer, { 'dr.yaml': text });
    expect(out.map((d) => d.message)).toEqual([
      'The Subset own-region defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).',
      'The Subset subzone defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).',
    ]);
  });

  it('adds the ServiceEntry workload selector to subset labels, and accepts rules without subsets', () => {
    const se = `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: vm
  namespace: shop
spec:
  hosts: [vm.example.internal]
  ports:
  - {number: 80, name: http, protocol: HTTP}
  workloadSelector:
    labels: {app: vm}
`;
    const ok = analyze(subsetSelectPodAnalyzer, {
      'dr.yaml': docs(
        se,
        pod('shop', 'vm-1', 'app: vm, version: v1'),
        dr('shop', 'vm', `  host: vm.example.internal\n  subsets:\n  - name: v1\n    labels: {version: v1}\n`),
        svc('shop', 'plain'),
        dr('shop', 'plain', '  host: plain\n'),
      ),
    });
    expect(ok).toEqual([]);
    const bad = analyze(subsetSelectPodAnalyzer, {
      'dr.yaml': docs(
        se,
        pod('shop', 'other', 'app: other, version: v1'),
        dr('shop', 'vm', `  host: vm.example.internal\n  subsets:\n  - name: v1\n    labels: {version: v1}\n`),
      ),
    });
    expect(pairs(bad)).toEqual(['IST0173 DestinationRule shop/vm']);
  });
});
