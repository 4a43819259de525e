// The editor range of injection and multi-cluster messages lands on the offending field,
// while the line istioctl prints stays where Istio puts it.
import { describe, expect, it } from 'vitest';
import { expectAt } from '../../../helpers/position.ts';
import { injectionAnalyzer } from '../../../../src/core/analysis/analyzers/injection/injection.ts';
import { injectionImageAnalyzer } from '../../../../src/core/analysis/analyzers/injection/injectionImage.ts';
import { imageAutoAnalyzer } from '../../../../src/core/analysis/analyzers/injection/imageAuto.ts';
import { webhookAnalyzer } from '../../../../src/core/analysis/analyzers/webhook/webhook.ts';
import { externalControlPlaneAnalyzer } from '../../../../src/core/analysis/analyzers/externalcontrolplane/externalControlPlane.ts';
import { MULTICLUSTER_ANALYZERS } from '../../../../src/core/analysis/analyzers/index.ts';
import { analyzeClusters, analyzeWith } from './run.ts';

const yaml = (...rows: string[]) => `${rows.join('\n')}\n`;

const namespace = (name: string, ...labels: string[]) =>
  yaml('apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: ${name}`, ...(labels.length ? ['  labels:', ...labels.map((l) => `    ${l}`)] : []));

describe('injection messages highlight the offending field', () => {
  it('IST0123: the first conflicting namespace label', () => {
    const text = namespace('tools', 'team: a', 'istio-injection: enabled', 'istio.io/rev: blue');
    const revOnly = namespace('lab', 'istio.io/rev: blue', 'istio.io/dataplane-mode: ambient');
    const out = analyzeWith(injectionAnalyzer, { 'tools.yaml': text, 'lab.yaml': revOnly });
    const tools = out.find((d) => d.file === 'tools.yaml');
    const lab = out.find((d) => d.file === 'lab.yaml');
    expect([tools?.code, lab?.code]).toEqual(['IST0123', 'IST0123']);
    expectAt(tools, text, 'istio-injection: enabled');
    expectAt(lab, revOnly, 'istio.io/rev: blue');
    expect([tools?.line, lab?.line]).toEqual([1, 1]);
  });

  it('IST0148: the namespace name', () => {
    const cm = yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: istio-sidecar-injector',
      '  namespace: istio-system',
      'data:',
      `  values: '{"sidecarInjectorWebhook":{"enableNamespacesByDefault":true}}'`,
    );
    const ns = namespace('shop');
    const out = analyzeWith(injectionAnalyzer, { 'cm.yaml': cm, 'ns.yaml': ns });
    expect(out.map((d) => d.code)).toEqual(['IST0148']);
    expectAt(out[0], ns, 'name: shop');
    expect(out[0]?.line).toBe(1);
  });

  it('IST0103: the container list, or the istio-proxy image left empty', () => {
    const ns = namespace('shop', 'istio-injection: enabled');
    const bare = yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: bare',
      '  namespace: shop',
      'spec:',
      '  containers:',
      '  - name: web',
      '    image: web',
    );
    const empty = yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: empty',
      '  namespace: shop',
      'spec:',
      '  containers:',
      '  - name: web',
      '    image: web',
      '  - name: istio-proxy',
      '    image: ""',
    );
    const out = analyzeWith(injectionAnalyzer, { 'ns.yaml': ns, 'bare.yaml': bare, 'empty.yaml': empty });
    const of = (file: string) => out.find((d) => d.file === file);
    expect([of('bare.yaml')?.code, of('empty.yaml')?.code]).toEqual(['IST0103', 'IST0103']);
    expectAt(of('bare.yaml'), bare, 'containers:');
    expectAt(of('empty.yaml'), empty, 'image: ""');
    expect([of('bare.yaml')?.line, of('empty.yaml')?.line]).toEqual([1, 1]);
  });

  it('IST0158: the injection label of the namespace', () => {
    const cm = yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: istio-sidecar-injector-blue',
      '  namespace: istio-system',
      'data:',
      `  values: '{"global":{"hub":"mirror.example/istio","tag":"1.24.1","proxy":{"image":"proxyv2"}}}'`,
    );
    const ns = namespace('orders', 'team: a', 'istio.io/rev: blue');
    const pod = yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: old',
      '  namespace: orders',
      'spec:',
      '  containers:',
      '  - name: istio-proxy',
      '    image: mirror.example/istio/proxyv2:1.23.0',
    );
    const out = analyzeWith(injectionImageAnalyzer, { 'cm.yaml': cm, 'ns.yaml': ns, 'pod.yaml': pod });
    expect(out.map((d) => d.code)).toEqual(['IST0158']);
    expectAt(out[0], ns, 'istio.io/rev: blue');
    expect(out[0]?.line).toBe(1);
  });

  it('IST0147 / IST0146: the `image: auto` of the istio-proxy container', () => {
    const pod = yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: p',
      '  namespace: shop',
      'spec:',
      '  containers:',
      '  - name: web',
      '    image: web',
      '  - name: istio-proxy',
      '    image: auto',
    );
    const deployment = yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: d',
      '  namespace: shop',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: istio-proxy',
      '        image: auto',
    );
    const out = analyzeWith(imageAutoAnalyzer, { 'pod.yaml': pod, 'd.yaml': deployment, 'ns.yaml': namespace('shop') });
    const of = (file: string) => out.find((d) => d.file === file);
    expect([of('pod.yaml')?.code, of('d.yaml')?.code]).toEqual(['IST0147', 'IST0146']);
    expectAt(of('pod.yaml'), pod, 'image: auto');
    expectAt(of('d.yaml'), deployment, 'image: auto');
    expect([of('pod.yaml')?.line, of('d.yaml')?.line]).toEqual([1, 1]);
  });

  it('IST0139: the overlapping webhook by name, and the missing service reference', () => {
    const hook = (name: string, service: string) => [
      `- name: ${name}`,
      '  clientConfig:',
      '    service:',
      `      name: ${service}`,
      '      namespace: istio-system',
      '  namespaceSelector:',
      '    matchLabels:',
      '      istio-injection: enabled',
    ];
    const config = (name: string, ...hooks: string[][]) =>
      yaml('apiVersion: admissionregistration.k8s.io/v1', 'kind: MutatingWebhookConfiguration', 'metadata:', `  name: ${name}`, 'webhooks:', ...hooks.flat());
    const istiod = yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  name: istiod', '  namespace: istio-system', 'spec:', '  ports:', '  - port: 443');
    const a = config('injector-a', hook('sidecar-injector.istio.io', 'istiod'));
    const b = config(
      'injector-b',
      ['- name: other.example.com', '  clientConfig:', '    url: https://example.com'],
      hook('rev.sidecar-injector.istio.io', 'istiod-gone'),
    );
    const out = analyzeWith(webhookAnalyzer, { 'a.yaml': a, 'b.yaml': b, 'svc.yaml': istiod });
    const overlapA = out.find((d) => d.file === 'a.yaml');
    const overlapB = out.find((d) => d.file === 'b.yaml' && d.message.includes('overlaps'));
    const missing = out.find((d) => d.message.includes('does not exist'));
    expect([overlapA?.code, overlapB?.code, missing?.code]).toEqual(['IST0139', 'IST0139', 'IST0139']);
    expectAt(overlapA, a, 'name: sidecar-injector.istio.io');
    expectAt(overlapB, b, 'name: rev.sidecar-injector.istio.io');
    expectAt(missing, b, 'name: istiod-gone');
    for (const d of out) expect(d.line).toBe(1);
  });

  it('IST0163 / IST0164: the webhook URL, or its blank client config', () => {
    const text = yaml(
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: MutatingWebhookConfiguration',
      'metadata:',
      '  name: istio-sidecar-injector-remote',
      'webhooks:',
      '- name: ip.sidecar-injector.istio.io',
      '  clientConfig:',
      '    url: https://10.0.0.1:15017/inject',
      '- name: bad.sidecar-injector.istio.io',
      '  clientConfig:',
      '    url: "https://bad host/inject"',
      '- name: blank.sidecar-injector.istio.io',
      '  clientConfig: {}',
      '- name: none.sidecar-injector.istio.io',
    );
    const out = analyzeWith(externalControlPlaneAnalyzer, { 'm.yaml': text });
    const of = (webhook: string) => out.find((d) => d.message.includes(`(${webhook}.sidecar-injector.istio.io)`));
    expect(['ip', 'bad', 'blank', 'none'].map((w) => of(w)?.code)).toEqual(['IST0164', 'IST0163', 'IST0163', 'IST0163']);
    expectAt(of('ip'), text, 'url: https://10.0.0.1');
    expectAt(of('bad'), text, 'url: "https://bad host');
    expectAt(of('blank'), text, 'clientConfig: {}');
    expectAt(of('none'), text, 'name: none');
    for (const d of out) expect(d.line).toBe(1);
  });

  it('IST0170: the field behind the first inconsistency', () => {
    const svc = (...spec: string[]) => yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  name: ledger', '  namespace: bank', 'spec:', ...spec);
    const ports = ['  ports:', '  - name: grpc', '    port: 9000'];
    const headlessEast = svc('  clusterIP: None', ...ports);
    const typedEast = svc('  type: ClusterIP', ...ports);
    const portsEast = svc('  type: ClusterIP', ...ports);
    const run = (east: string, west: string) => analyzeClusters(MULTICLUSTER_ANALYZERS, { east: { 'east.yaml': east }, west: { 'west.yaml': west } });

    const headless = run(headlessEast, svc(...ports));
    expect(headless.map((d) => d.code)).toEqual(['IST0170']);
    expectAt(headless[0], headlessEast, 'clusterIP: None');

    const typed = run(typedEast, svc('  type: NodePort', ...ports));
    expectAt(typed[0], typedEast, 'type: ClusterIP');

    const portsOut = run(portsEast, svc('  type: ClusterIP', '  ports:', '  - name: grpc', '    port: 9001'));
    expectAt(portsOut[0], portsEast, 'ports:');

    // The reported instance has no clusterIP: its spec is highlighted.
    const noField = svc(...ports);
    const fallback = run(noField, svc('  clusterIP: None', ...ports));
    expectAt(fallback[0], noField, 'spec:');
    for (const d of [...headless, ...typed, ...portsOut, ...fallback]) expect(d.line).toBe(1);
  });
});
