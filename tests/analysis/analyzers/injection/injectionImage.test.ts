import { describe, expect, it } from 'vitest';
import { injectionImageAnalyzer } from '../../../../src/core/analysis/analyzers/injection/injectionImage.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeWith, lineOf } from './run.ts';

const ns = (name: string, labels: string) => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
  labels:
${labels}`;

const pod = (name: string, namespace: string, image: string, meta = '', init = false) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
${meta}spec:
  containers:
  - name: app
    image: shop/app:3
${init ? '  initContainers:\n' : ''}  - name: istio-proxy
    image: ${image}
`;

// The injector builds `<hub>/<image>:<tag>` unless the image already holds a `/`.
const injector = (name: string, global: string) => `
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: istio-system
data:
  values: '{"global":${global}}'
`;

const HUB = '{"hub":"mirror.example/istio","tag":"1.24.1","proxy":{"image":"proxyv2"}}';
const CURRENT = 'mirror.example/istio/proxyv2:1.24.1';

describe('injection.ImageAnalyzer', () => {
  it('reports the namespace of pods running another proxy image, listing them by name', () => {
    const text = docs(
      injector('istio-sidecar-injector', HUB),
      ns('orders', '    istio-injection: enabled\n'),
      pod('orders-old', 'orders', 'mirror.example/istio/proxyv2:1.23.0'),
      pod('orders-new', 'orders', CURRENT),
      pod('orders-native-old', 'orders', 'mirror.example/istio/proxyv2:1.22.0', '', true),
    );
    const out = analyzeWith(injectionImageAnalyzer, { 'img.yaml': text });
    expect(pairs(out)).toEqual(['IST0158 Namespace orders']);
    expect(out[0]?.message).toBe(
      'The Istio proxy images of the pods running in the namespace do not match the image defined in the injection configuration (pod names: [orders-native-old orders-old]). This often happens after upgrading the Istio control-plane and can be fixed by redeploying the pods.',
    );
    expect(out[0]?.line).toBe(lineOf(text, 'kind: Namespace') - 1);
  });

  it("uses the revision's ConfigMap and an absolute image as is", () => {
    const out = analyzeWith(injectionImageAnalyzer, {
      'img.yaml': docs(
        injector('istio-sidecar-injector', HUB),
        injector('istio-sidecar-injector-green', '{"proxy":{"image":"registry.local/proxy:9"}}'),
        ns('green', '    istio.io/rev: green\n'),
        pod('g1', 'green', 'registry.local/proxy:9'),
        pod('g2', 'green', CURRENT),
        // A revision without a ConfigMap is not checked.
        ns('blue', '    istio.io/rev: blue\n'),
        pod('b1', 'blue', 'anything:1'),
      ),
    });
    expect(pairs(out)).toEqual(['IST0158 Namespace green']);
    expect(out[0]?.message).toContain('(pod names: [g2])');
  });

  it('accepts current images, custom proxy images, the configured variant and non-injected namespaces', () => {
    const out = analyzeWith(injectionImageAnalyzer, {
      'img.yaml': docs(
        injector('istio-sidecar-injector', HUB),
        ns('orders', '    istio-injection: enabled\n'),
        pod('a', 'orders', CURRENT),
        pod('b', 'orders', 'mirror.example/istio/proxyv2:1.20.0', '  annotations:\n    sidecar.istio.io/proxyImage: mirror.example/istio/proxyv2:1.20.0\n'),
        pod('c', 'orders', `${CURRENT}-distroless`, '  annotations:\n    proxy.istio.io/config: |\n      image:\n        imageType: distroless\n'),
        ns('plain', '    team: x\n'),
        pod('d', 'plain', 'old:1'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('takes the variant from mesh config and ProxyConfigs (root, namespace, workload)', () => {
    const proxyConfig = (name: string, namespace: string, spec: string) => `
apiVersion: networking.istio.io/v1beta1
kind: ProxyConfig
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
${spec}`;
    const files = {
      'img.yaml': docs(
        injector('istio-sidecar-injector', HUB),
        ns('a', '    istio-injection: enabled\n'),
        ns('b', '    istio-injection: enabled\n'),
        proxyConfig('ns-wide', 'a', '  image:\n    imageType: debug\n'),
        proxyConfig('one', 'b', '  selector:\n    matchLabels:\n      app: cart\n  image:\n    imageType: debug\n'),
        pod('a1', 'a', `${CURRENT}-debug`),
        pod('b1', 'b', `${CURRENT}-debug`, '  labels:\n    app: cart\n'),
        pod('b2', 'b', `${CURRENT}-distroless`, '  labels:\n    app: shop\n'),
      ),
    };
    // Mesh default: distroless, so b2 is fine; a1 and b1 follow their ProxyConfigs.
    expect(pairs(analyzeWith(injectionImageAnalyzer, files, { mesh: { defaultConfig: { image: { imageType: 'distroless' } } } }))).toEqual([]);
    // Without the mesh default, b2's variant is unknown.
    const out = analyzeWith(injectionImageAnalyzer, files);
    expect(out.map((d) => d.message.match(/\[(.*)\]/)?.[1])).toEqual(['b2']);
    // A root-namespace ProxyConfig overrides the mesh default.
    const withRoot = { ...files, 'root.yaml': proxyConfig('root', 'istio-system', '  image:\n    imageType: default\n') };
    expect(
      analyzeWith(injectionImageAnalyzer, withRoot, { mesh: { defaultConfig: { image: { imageType: 'distroless' } } } }).map(
        (d) => d.message.match(/\[(.*)\]/)?.[1],
      ),
    ).toEqual(['b2']);
  });

  it('applies a workload ProxyConfig to the pods its selector picks, whatever other labels they carry', () => {
    const out = analyzeWith(injectionImageAnalyzer, {
      'img.yaml': docs(
        injector('istio-sidecar-injector', HUB),
        ns('b', '    istio-injection: enabled\n'),
        `
apiVersion: networking.istio.io/v1beta1
kind: ProxyConfig
metadata:
  name: cart
  namespace: b
spec:
  selector:
    matchLabels:
      app: cart
  image:
    imageType: distroless
`,
        // Selected (app=cart) although it has a label the selector does not name.
        pod('cart-v1', 'b', `${CURRENT}-distroless`, '  labels:\n    app: cart\n    version: v1\n'),
        // Not selected: it lacks app=cart.
        pod('other', 'b', `${CURRENT}-distroless`, '  labels:\n    version: v1\n'),
      ),
    });
    expect(out.map((d) => d.message.match(/\[(.*)\]/)?.[1])).toEqual(['other']);
  });

  it('does nothing without an injector ConfigMap', () => {
    const out = analyzeWith(injectionImageAnalyzer, { 'img.yaml': docs(ns('orders', '    istio-injection: enabled\n'), pod('a', 'orders', 'old:1')) });
    expect(out).toEqual([]);
  });
});
