// `mesh-workbench analyze --pack kiali`: Kiali's findings beside istioctl's, in every output
// format, with Kiali's codes, severities (ALLOW_ANY, Istio's default, makes a missing host a
// warning: Kiali's checkers downgrade KIA0202/KIA1101 then) and messages (catalog.json, Kiali's
// models/istio_validation.go). A finding istioctl gives on the same field is printed once, as
// istioctl's. Kiali's ignores (models/ignore_validations.go) apply.
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

const codes = (stdout: string) => stdout.split('\n').flatMap((l) => /\[(\w+)\]/.exec(l)?.[1] ?? []);

describe('analyze --pack kiali', () => {
  it("prints Kiali's findings beside istioctl's, each problem once", async () => {
    const plain = await cli(['analyze', '-A', '-'], { stdin: MESH });
    expect(codes(plain.stdout)).not.toContain('KIA0202');
    const r = await cli(['analyze', '-A', '--pack', 'kiali', '-'], { stdin: MESH });
    expect(r.code).toBe(79);
    const lines = r.stdout.split('\n').filter(Boolean);
    // istioctl's gateway analyzer reports the missing gateway (IST0101 on spec.gateways[0]);
    // Kiali's KIA1102 on the same field is not printed again.
    expect(lines).toContain('Error [IST0101] (VirtualService shop/vs -:12) Referenced gateway not found: "missing-gw"');
    expect(codes(r.stdout)).not.toContain('KIA1102');
    expect(lines).toContain(
      'Warning [KIA0202] (DestinationRule shop/dr -:5) This host has no matching entry in the service registry (service, workload or service entries)',
    );
    // With no Services in the files istioctl's destination host analyzer is skipped, so Kiali's finding stands.
    expect(lines).toContain("Warning [KIA1101] (VirtualService shop/vs -:15) DestinationWeight on route doesn't have a valid service (host not found)");
  });

  it('under REGISTRY_ONLY a missing host is an error; JSON links each KIA code to Kiali', async () => {
    const mesh = `apiVersion: v1
kind: ConfigMap
metadata: {name: istio, namespace: istio-system}
data:
  mesh: |
    outboundTrafficPolicy: {mode: REGISTRY_ONLY}
---
${MESH}`;
    const r = await cli(['analyze', '-A', '--pack', 'kiali', '-o', 'json', '--output-threshold', 'Error', '-'], { stdin: mesh });
    expect(r.code).toBe(79);
    const out = JSON.parse(r.stdout) as { code: string; level: string; documentationUrl: string }[];
    const kia = out.filter((f) => f.code.startsWith('KIA'));
    expect(kia.map((f) => `${f.level} ${f.code}`)).toEqual(['Error KIA0202', 'Error KIA1101']);
    for (const f of kia) expect(f.documentationUrl).toMatch(new RegExp(`^https://kiali\\.io/docs/features/validations/#${f.code.toLowerCase()}---`));
  });

  it('SARIF carries the KIA rules with their Kiali help links', async () => {
    const r = await cli(['analyze', '-A', '--pack', 'kiali', '-o', 'sarif', '-'], { stdin: MESH });
    const sarif = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string; helpUri?: string }[] } }; results: { ruleId: string }[] }[] };
    const run = sarif.runs[0];
    expect(run?.results.map((x) => x.ruleId)).toContain('KIA0202');
    expect(run?.tool.driver.rules.find((x) => x.id === 'KIA0202')?.helpUri).toMatch(/^https:\/\/kiali\.io\/docs\/features\/validations\/#kia0202---/);
  });

  it('refuses an unknown pack, and the pack in istioctl mode', async () => {
    await expect(cli(['analyze', '--pack', 'nope', '-'], { stdin: MESH })).resolves.toMatchObject({ code: 64 });
    await expect(cli(['analyze', '--pack', 'kiali', '--istioctl', '-'], { stdin: MESH })).resolves.toMatchObject({ code: 64 });
  });

  it("honours Kiali's kiali.io/ignore-validations annotation and -S suppressions of KIA codes", async () => {
    const annotated = MESH.replace(
      'metadata: {name: dr, namespace: shop}',
      "metadata: {name: dr, namespace: shop, annotations: {kiali.io/ignore-validations: ' KIA0202 '}}",
    );
    const r = await cli(['analyze', '-A', '--pack', 'kiali', '-'], { stdin: annotated });
    expect(codes(r.stdout)).not.toContain('KIA0202');
    expect(codes(r.stdout)).toContain('KIA1101');
    const all = MESH.replace('metadata: {name: vs, namespace: shop}', "metadata: {name: vs, namespace: shop, annotations: {kiali.io/ignore-validations: ''}}");
    expect(codes((await cli(['analyze', '-A', '--pack', 'kiali', '-'], { stdin: all })).stdout)).not.toContain('KIA1101');
    const s = await cli(['analyze', '-A', '--pack', 'kiali', '-S', 'KIA1101=VirtualService shop/*', '-'], { stdin: MESH });
    expect(codes(s.stdout)).not.toContain('KIA1101');
    expect(s.stderr).not.toContain('unknown message code');
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
    const assumed = await cli(['analyze', '-A', '--pack', 'kiali', '-'], { stdin: gw });
    expect(codes(assumed.stdout)).not.toContain('KIA0302');
    const none = await cli(['analyze', '-A', '--pack', 'kiali', '--no-placeholders', '-'], { stdin: gw });
    expect(none.stdout).toContain('Warning [KIA0302] (Gateway shop/gw -:5) No matching workload found for gateway selector in this namespace');
  });
});
