import { describe, expect, it } from 'vitest';
import { multiServiceAnalyzer } from '../../../../src/core/analysis/analyzers/deployment/services.ts';
import { applicationUIDAnalyzer } from '../../../../src/core/analysis/analyzers/deployment/pod.ts';
import { analyze, docs, pairs } from '../helpers.ts';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

const deployment = (name: string, labels: string, opts: { ns?: string; podAnnotations?: string; containers?: string; metaLabels?: string } = {}) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${opts.ns ?? 'shop'}
${opts.metaLabels ?? ''}spec:
  selector:
    matchLabels: {${labels}}
  template:
    metadata:
      labels: {${labels}}
${opts.podAnnotations ?? ''}    spec:
      containers:
${opts.containers ?? '      - name: app\n        image: shop/app\n'}`;

const service = (name: string, selector: string, ports: string, ns = 'shop') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector: {${selector}}
  ports:
${ports}`;

const meshNs = `
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    istio-injection: enabled
`;

describe('deployment.MultiServiceAnalyzer', () => {
  it('reports one port exposed with different protocols (IST0116) on the deployment name', () => {
    const text = docs(
      meshNs,
      deployment('cart', 'app: cart'),
      service('cart-tcp', 'app: cart', '  - {name: tcp, port: 7000}\n'),
      service('cart-http', 'app: cart', '  - {name: http, port: 7000, protocol: HTTP}\n'),
    );
    const out = analyze(multiServiceAnalyzer, { 'd.yaml': text });
    expect(pairs(out)).toEqual(['IST0116 Deployment shop/cart']);
    expect(out[0]?.message).toBe(
      'This deployment cart is associated with multiple services using port 7000 but different protocols: [shop/cart-http shop/cart-tcp]',
    );
    expect(out[0]?.line).toBe(lineOf(text, 'name: cart'));
    expect(out[0]?.fieldPath).toBe('metadata.name');
  });

  it('reports one targetPort reached through different service ports (IST0137)', () => {
    const text = docs(
      meshNs,
      deployment('pay', 'app: pay'),
      service('pay-a', 'app: pay', '  - {name: http, port: 80, targetPort: 8080}\n'),
      service('pay-b', 'app: pay', '  - {name: http-alt, port: 8081, targetPort: 8080}\n'),
    );
    const out = analyze(multiServiceAnalyzer, { 'd.yaml': text });
    expect(pairs(out)).toEqual(['IST0137 Deployment shop/pay']);
    expect(out[0]?.message).toBe(
      'This deployment pay is associated with multiple services [shop/pay-a shop/pay-b] using targetPort "8080" but different ports: [80 8081].',
    );
  });

  it('ignores deployments outside the mesh, waypoints, other namespaces and selector-less services', () => {
    const conflicting = (sel: string, ns = 'shop') => [
      service(`${sel}-tcp`, `app: ${sel}`, '  - {name: tcp, port: 7000}\n', ns),
      service(`${sel}-http`, `app: ${sel}`, '  - {name: http, port: 7000, protocol: HTTP}\n', ns),
    ];
    const out = analyze(multiServiceAnalyzer, {
      'd.yaml': docs(
        meshNs,
        // opted out of injection
        deployment('out', 'app: out', { podAnnotations: '      annotations:\n        sidecar.istio.io/inject: "false"\n' }),
        ...conflicting('out'),
        // namespace without the injection label
        deployment('plain', 'app: plain', { ns: 'other' }),
        ...conflicting('plain', 'other'),
        // services of another namespace do not select these pods
        deployment('lonely', 'app: lonely'),
        ...conflicting('lonely', 'elsewhere'),
        // waypoint deployments are Istio's own
        deployment('wp', 'app: wp', { metaLabels: '  labels:\n    gateway.istio.io/managed: istio.io-mesh-controller\n' }),
        ...conflicting('wp'),
        // consistent services
        deployment('fine', 'app: fine'),
        service('fine-a', 'app: fine', '  - {name: http, port: 80, targetPort: 8080}\n'),
        service('fine-b', 'app: fine', '  - {name: http, port: 80, targetPort: 8080}\n'),
        `
apiVersion: v1
kind: Service
metadata:
  name: no-selector
  namespace: shop
spec:
  ports:
  - {name: tcp, port: 80, protocol: UDP}
`,
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('treats a pod with an istio-proxy container as in the mesh', () => {
    const out = analyze(multiServiceAnalyzer, {
      'd.yaml': docs(
        deployment('gw', 'app: gw', { ns: 'edge', containers: '      - name: istio-proxy\n        image: auto\n' }),
        service('gw-tcp', 'app: gw', '  - {name: tcp, port: 443}\n', 'edge'),
        service('gw-udp', 'app: gw', '  - {name: quic, port: 443, protocol: UDP}\n', 'edge'),
      ),
    });
    expect(pairs(out)).toEqual(['IST0116 Deployment edge/gw']);
  });
});

describe('applicationUID.Analyzer', () => {
  it('reports pods and deployments running application containers as UID 1337', () => {
    const text = docs(
      `
apiVersion: v1
kind: Pod
metadata:
  name: worker
  namespace: jobs
spec:
  containers:
  - name: worker
    image: jobs/worker
    securityContext:
      runAsUser: 1337
`,
      deployment('api', 'app: api', { containers: '      - name: api\n        image: shop/api\n      securityContext:\n        runAsUser: 1337\n' }),
    );
    const out = analyze(applicationUIDAnalyzer, { 'u.yaml': text });
    expect(pairs(out)).toEqual(['IST0144 Deployment shop/api', 'IST0144 Pod jobs/worker']);
    expect(out[0]?.message).toBe('User ID (UID) 1337 is reserved for the sidecar proxy.');
    // No field path: the resource's own line.
    expect(out.find((d) => d.origin === 'Pod jobs/worker')?.line).toBe(lineOf(text, 'apiVersion: v1'));
  });

  it('allows the proxy container, other UIDs and the Istio control plane', () => {
    const out = analyze(applicationUIDAnalyzer, {
      'u.yaml': docs(
        `
apiVersion: v1
kind: Pod
metadata:
  name: injected
  namespace: shop
spec:
  securityContext:
    runAsUser: 1000
  containers:
  - name: istio-proxy
    image: proxyv2
    securityContext:
      runAsUser: 1337
`,
        `
apiVersion: v1
kind: Pod
metadata:
  name: ingress
  namespace: istio-system
  labels:
    istio: ingressgateway
spec:
  securityContext:
    runAsUser: 1337
  containers:
  - name: gw
`,
      ),
    });
    expect(pairs(out)).toEqual([]);
  });
});
