// `mesh-workbench analyze --pack kiali`: Kiali's findings on files, with its codes, severities
// (ALLOW_ANY, Istio's default, makes a missing host a warning, as Kiali does) and paths.
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.ts';

const MESH = `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: dr, namespace: shop}
spec:
  host: nowhere
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: vs, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [missing-gw]
  http:
  - route:
    - destination: {host: nowhere}
`;

describe('analyze --pack kiali', () => {
  it('prints one line per KIA finding and exits 79 on an error', async () => {
    const r = await cli(['analyze', '--pack', 'kiali', '-'], { stdin: MESH });
    expect(r.code).toBe(79);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'Warning [KIA0202] (DestinationRule shop/dr spec/host) This host has no matching entry in the service registry (service, workload or service entries)',
      'Error [KIA1102] (VirtualService shop/vs spec/gateways[0]) VirtualService is pointing to a non-existent gateway',
      "Warning [KIA1101] (VirtualService shop/vs spec/http[0]/route[0]/destination/host) DestinationWeight on route doesn't have a valid service (host not found)",
    ]);
  });

  it('under REGISTRY_ONLY a missing host is an error; -o json and thresholds apply', async () => {
    const mesh = `apiVersion: v1
kind: ConfigMap
metadata: {name: istio, namespace: istio-system}
data:
  mesh: |
    outboundTrafficPolicy: {mode: REGISTRY_ONLY}
---
${MESH}`;
    const r = await cli(['analyze', '--pack', 'kiali', '-o', 'json', '--output-threshold', 'Error', '-'], { stdin: mesh });
    expect(r.code).toBe(79);
    const out = JSON.parse(r.stdout) as { code: string; level: string; path: string }[];
    expect(out.map((f) => `${f.level} ${f.code} ${f.path}`)).toEqual([
      'Error KIA0202 spec/host',
      'Error KIA1102 spec/gateways[0]',
      'Error KIA1101 spec/http[0]/route[0]/destination/host',
    ]);
  });

  it('refuses an unknown pack and other formats', async () => {
    await expect(cli(['analyze', '--pack', 'nope', '-'], { stdin: MESH })).resolves.toMatchObject({ code: 64 });
    await expect(cli(['analyze', '--pack', 'kiali', '-o', 'yaml', '-'], { stdin: MESH })).resolves.toMatchObject({ code: 64 });
  });

  it('a Gateway selecting the assumed ingress gateway is not unmatched (KIA0302 only with --no-placeholders)', async () => {
    // Kiali's SelectorChecker flags a selector no workload matches; in a cluster the ingress
    // gateway the workbench assumes would run and match istio=ingressgateway.
    const gw = `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ['*']
`;
    const assumed = await cli(['analyze', '--pack', 'kiali', '-'], { stdin: gw });
    expect(assumed.stdout).not.toContain('KIA0302');
    const none = await cli(['analyze', '--pack', 'kiali', '--no-placeholders', '-'], { stdin: gw });
    expect(none.stdout).toContain('Warning [KIA0302] (Gateway shop/gw spec/selector)');
  });
});
