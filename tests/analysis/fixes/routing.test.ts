// Quick fixes for VirtualService destinations and gateway bindings, applied and re-analyzed.
import { describe, expect, it } from 'vitest';
import { expectFixResolves, sampleFiles, yaml } from './helpers.ts';

const svc = (name: string, ns: string, ...ports: number[]) =>
  yaml(
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${ns}`,
    'spec:',
    '  selector:',
    `    app: ${name}`,
    '  ports:',
    ...ports.flatMap((p) => [`    - name: http-${p}`, `      port: ${p}`]),
  );

describe('IST0101 host not found', () => {
  it('changes the host to the closest Service in the namespace (mistakes sample)', async () => {
    const { fix, files } = await expectFixResolves({
      files: sampleFiles(),
      find: (d) => d.code === 'IST0101' && d.message.includes('"reviews2"'),
    });
    expect(fix.title).toBe('Change host to "reviews"');
    expect(files['networking.yaml']).toContain('            host: reviews\n          weight: 25');
  });

  it('offers FQDNs of other namespaces and ServiceEntry hosts', async () => {
    const files = {
      'svc.yaml': svc('ratings', 'shop', 9080),
      'se.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: ServiceEntry',
        'metadata:',
        '  name: ext',
        '  namespace: web',
        'spec:',
        '  hosts:',
        '    - api.example.com',
        '  ports:',
        '    - number: 443',
        '      name: https',
        '      protocol: HTTPS',
        '  resolution: DNS',
      ),
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: web',
        'spec:',
        '  hosts:',
        '    - web',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: ratings.shop.svc.cluster.locl',
        '    - route:',
        '        - destination:',
        '            host: api.exampel.com',
      ),
    };
    const first = await expectFixResolves({ files, find: (d) => d.code === 'IST0101' && d.message.includes('cluster.locl') });
    expect(first.fix.title).toBe('Change host to "ratings.shop.svc.cluster.local"');
    const second = await expectFixResolves({ files: first.files, find: (d) => d.code === 'IST0101' && d.message.includes('exampel') });
    expect(second.fix.title).toBe('Change host to "api.example.com"');
  });

  it('changes a port the host does not expose (host:port)', async () => {
    const files = {
      'svc.yaml': svc('reviews', 'shop', 9080),
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: shop',
        'spec:',
        '  hosts: [reviews]',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: reviews',
        '            port:',
        '              number: 9090',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0101' && d.message.includes('host:port') });
    expect(fix.title).toBe('Change port to 9080');
    expect(fixed['vs.yaml']).toContain('              number: 9080\n');
  });
});

describe('IST0112 port selector required', () => {
  it('adds port.number for each of the host ports', async () => {
    const files = {
      'svc.yaml': svc('reviews', 'shop', 9080, 9443),
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: shop',
        'spec:',
        '  hosts: [reviews]',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: reviews',
        '          weight: 100',
      ),
    };
    const a = await expectFixResolves({ files, find: (d) => d.code === 'IST0112' });
    expect(a.fix.title).toBe('Route to port 9080');
    expect(a.files['vs.yaml']).toContain(
      yaml('        - destination:', '            host: reviews', '            port:', '              number: 9080', '          weight: 100'),
    );
    const b = await expectFixResolves({ files, find: (d) => d.code === 'IST0112', title: 'Route to port 9443' });
    expect(b.files['vs.yaml']).toContain('number: 9443');
  });
});

describe('IST0101 gateway not found', () => {
  it('changes the gateway to the closest one that serves the hosts (mistakes sample)', async () => {
    const { fix, files } = await expectFixResolves({
      files: sampleFiles(),
      find: (d) => d.code === 'IST0101' && d.message.includes('"ratings-gateway"'),
    });
    expect(fix.title).toBe('Change gateway to "bookinfo-gateway"');
    expect(files['networking.yaml']).toContain('  gateways:\n    - bookinfo-gateway\n  http:\n    - route:\n        - destination:\n            host: ratings');
  });

  it('writes ns/name for a gateway in another namespace', async () => {
    const files = {
      'gw.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: Gateway',
        'metadata:',
        '  name: public',
        '  namespace: edge',
        'spec:',
        '  selector:',
        '    istio: ingressgateway',
        '  servers:',
        '    - port: {number: 80, name: http, protocol: HTTP}',
        '      hosts: ["*/shop.example.com"]',
      ),
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: shop',
        'spec:',
        '  hosts: [shop.example.com]',
        '  gateways: [edge/publik]',
        '  http:',
        '    - direct_response: {status: 200}',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0101' && d.message.includes('publik') });
    expect(fix.title).toBe('Change gateway to "edge/public"');
    expect(fixed['vs.yaml']).toContain('  gateways: [edge/public]\n');
  });
});

describe('IST0132 host not found in gateway', () => {
  it("adds the host to the Gateway's server (mistakes sample)", async () => {
    const { fix, files } = await expectFixResolves({
      files: sampleFiles(),
      find: (d) => d.code === 'IST0132' && d.origin === 'VirtualService bookinfo/reviews-admin',
    });
    expect(fix.title).toBe('Add "reviews.bookinfo.example.com" to the hosts of Gateway bookinfo/admin-gateway');
    expect(files['networking.yaml']).toContain('      hosts:\n        - admin.bookinfo.example.com\n        - reviews.bookinfo.example.com\n');
  });

  it("edits the Gateway's own file", async () => {
    const files = {
      'gateway.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: Gateway',
        'metadata:',
        '  name: gw',
        '  namespace: shop',
        'spec:',
        '  selector:',
        '    istio: ingressgateway',
        '  servers:',
        '  - port:',
        '      number: 80',
        '      name: http',
        '      protocol: HTTP',
        '    hosts:',
        '    - a.example.com',
      ),
      'routes.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: shop',
        'spec:',
        '  hosts:',
        '    - b.example.com',
        '  gateways:',
        '    - gw',
        '  http:',
        '    - direct_response:',
        '        status: 200',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0132' });
    expect(fix.edits.map((e) => e.file)).toEqual(['gateway.yaml']);
    expect(fixed['gateway.yaml']!.endsWith('    hosts:\n    - a.example.com\n    - b.example.com\n')).toBe(true);
    expect(fixed['routes.yaml']).toBe(files['routes.yaml']);
  });
});

describe('IST0162 gateway port not on the Service', () => {
  it('moves the server to a port of the placeholder Service (mistakes sample)', async () => {
    const { fix, files } = await expectFixResolves({ files: sampleFiles(), find: (d) => d.code === 'IST0162' });
    expect(fix.title).toBe('Change the Gateway server port to 80');
    expect(files['networking.yaml']).toContain('    - port:\n        number: 80\n        name: http-admin\n');
  });

  it('adds the port to a gateway Service that is in the workspace', async () => {
    const files = {
      'ingress.yaml': yaml(
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: ingress-1',
        '  namespace: gw',
        '  labels:',
        '    app: edge',
        'spec:',
        '  containers:',
        '    - name: istio-proxy',
        '      image: proxyv2',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: edge',
        '  namespace: gw',
        'spec:',
        '  selector:',
        '    app: edge',
        '  ports:',
        '    - name: http2',
        '      port: 80',
        '      protocol: TCP',
        '      targetPort: 8080',
      ),
      'gw.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: Gateway',
        'metadata:',
        '  name: edge',
        '  namespace: gw',
        'spec:',
        '  selector:',
        '    app: edge',
        '  servers:',
        '    - port:',
        '        number: 9443',
        '        name: https',
        '        protocol: HTTPS',
        '      hosts: ["*"]',
        '      tls:',
        '        mode: PASSTHROUGH',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0162' });
    expect(fix.title).toBe('Add port 9443 to Service gw/edge');
    expect(
      fixed['ingress.yaml']!.endsWith(
        yaml('      targetPort: 8080', '    - name: https-9443', '      port: 9443', '      protocol: TCP', '      targetPort: 9443'),
      ),
    ).toBe(true);
    // The other choice moves the server to a port the Service exposes.
    await expectFixResolves({ files, find: (d) => d.code === 'IST0162', title: 'Change the Gateway server port to 80' });
  });

  it('offers Service ports without a protocol (TCP by default, as the analyzer counts them)', async () => {
    const files = {
      'ingress.yaml': yaml(
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: ingress-1',
        '  namespace: gw',
        '  labels:',
        '    app: edge',
        'spec:',
        '  containers:',
        '    - name: istio-proxy',
        '      image: proxyv2',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: edge',
        '  namespace: gw',
        'spec:',
        '  selector:',
        '    app: edge',
        '  ports:',
        '    - name: http2',
        '      port: 80',
        '      targetPort: 8080',
      ),
      'gw.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: Gateway',
        'metadata:',
        '  name: edge',
        '  namespace: gw',
        'spec:',
        '  selector:',
        '    app: edge',
        '  servers:',
        '    - port:',
        '        number: 9080',
        '        name: http',
        '        protocol: HTTP',
        '      hosts: ["*"]',
      ),
    };
    const { files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0162', title: 'Change the Gateway server port to 80' });
    expect(fixed['gw.yaml']).toContain('        number: 80\n');
  });
});

describe('IST0101 subset not found', () => {
  it('changes the subset to the closest one the DestinationRule defines', async () => {
    const files = {
      'svc.yaml': svc('reviews', 'shop', 9080),
      'dr.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: DestinationRule',
        'metadata:',
        '  name: reviews',
        '  namespace: shop',
        'spec:',
        '  host: reviews',
        '  subsets:',
        '    - name: v1',
        '      labels: {version: v1}',
        '    - name: canary',
        '      labels: {track: canary}',
      ),
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: shop',
        'spec:',
        '  hosts: [reviews]',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: reviews',
        '            subset: canery',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0101' && d.message.includes('subset') });
    expect(fix.title).toBe('Change subset to "canary"');
    expect(fixed['vs.yaml']).toContain('            subset: canary\n');
  });
});
