// mesh-workbench ztunnel-config and trace, on the ambient sample.
import { describe, expect, it } from 'vitest';
import { cli, REPO } from './helpers.ts';

const SAMPLE = `${REPO}public/samples/ambient`;

describe('mesh-workbench ztunnel-config', () => {
  it('prints the workloads table with istioctl columns, from -f and from positional paths alike', async () => {
    const a = await cli(['ztunnel-config', 'workloads', '-f', SAMPLE]);
    const b = await cli(['ztunnel-config', 'workloads', SAMPLE]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const lines = a.stdout.trim().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['NAMESPACE', 'POD', 'NAME', 'ADDRESS', 'NODE', 'WAYPOINT', 'PROTOCOL']);
    const row = (prefix: string) => lines.find((l) => l.split(/\s+/)[1]?.startsWith(prefix))?.split(/\s+/);
    expect(row('products-')?.at(-1)).toBe('HBONE');
    expect(row('cart-')?.at(-1)).toBe('TCP'); // opted out with istio.io/dataplane-mode=none
    expect(row('batch-')?.at(-1)).toBe('TCP'); // namespace not enrolled
    expect(row('reports-')?.at(-1)).toBe('HBONE'); // sidecar with the HBONE tunnel label
  });

  it("prints services with their waypoint, policies, and one node's certificates", async () => {
    const s = await cli(['ztunnel-config', 'services', '-f', SAMPLE]);
    expect(s.stdout).toMatch(/^shop +products +\S+ +waypoint +2\/2$/m);
    const p = await cli(['ztunnel-config', 'policies', '-f', SAMPLE]);
    expect(p.stdout).toMatch(/^shop +shop-l4 +Allow +WorkloadSelector$/m);
    // The L7 DENY targets the Service through the waypoint: ztunnel never receives it.
    expect(p.stdout).not.toContain('products-read-only');
    const nodes = ['node-a', 'node-b'];
    const certs = await Promise.all(nodes.map((n) => cli(['ztunnel-config', 'certificates', '--node', n, '-f', SAMPLE])));
    for (const c of certs) expect(c.stdout.split('\n')[0]).toMatch(/^CERTIFICATE NAME +TYPE +STATUS/);
    expect(certs.map((c) => c.stdout).join('')).toContain('spiffe://cluster.local/ns/client/sa/curl');
  });

  it('gives JSON records with -o json and refuses unknown tables and nodes', async () => {
    const j = await cli(['ztunnel-config', 'workloads', '-o', 'json', '-f', SAMPLE]);
    const records = JSON.parse(j.stdout) as { name: string; protocol: string; serviceAccount: string }[];
    expect(records.find((r) => r.name.startsWith('products-'))).toMatchObject({ protocol: 'HBONE', serviceAccount: 'products' });
    const bad = await cli(['ztunnel-config', 'endpoints', '-f', SAMPLE]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('unknown ztunnel-config type "endpoints"');
    const node = await cli(['ztunnel-config', 'workloads', '--node', 'node-z', '-f', SAMPLE]);
    expect(node.code).toBe(1);
    expect(node.stderr).toContain('no node "node-z"');
    expect((await cli(['ztunnel-config', 'workloads'])).code).toBe(64);
  });

  it('gives pods addresses from --pod-cidr, and refuses a value that is not an IPv4 CIDR of /24 or wider', async () => {
    const address = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[2]!);
    const base = address((await cli(['ztunnel-config', 'workloads', '-f', SAMPLE])).stdout);
    const moved = await cli(['ztunnel-config', 'workloads', '--pod-cidr', '172.20.0.0/16', '-f', SAMPLE]);
    expect(moved.code).toBe(0);
    // Slot for slot the same place in the first /16 of the range: only the first two octets change.
    expect(base.every((ip) => ip.startsWith('10.244.'))).toBe(true);
    expect(address(moved.stdout)).toEqual(base.map((ip) => ip.replace(/^10\.244\./, '172.20.')));
    const bad = await cli(['ztunnel-config', 'workloads', '--pod-cidr', '10.244.0.0/25', '-f', SAMPLE]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('invalid argument for "--pod-cidr" flag: "10.244.0.0/25" is narrower than a /24');
  });
});

describe('mesh-workbench trace', () => {
  it('shows the waypoint denying a POST with the policy named, and exits 3', async () => {
    const r = await cli(['trace', '--from', 'client/curl', '--to', 'products.shop.svc.cluster.local:80', '--method', 'POST', '--path', '/items', '-f', SAMPLE]);
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')[0]).toBe('DENY at waypoint shop/waypoint (L7), policy shop/products-read-only');
    expect(r.stdout).toContain('Waypoint: shop/waypoint');
  });

  it("lets a GET through the waypoint, and the destination ztunnel sees the waypoint's identity", async () => {
    const r = await cli(['trace', '--from', 'client/curl', '--to', 'products.shop:80', '-f', SAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('ALLOW');
    expect(r.stdout).toMatch(/ztunnel@node-\w inbound \(:15008\) L4: ALLOW — source spiffe:\/\/cluster\.local\/ns\/shop\/sa\/waypoint/);
  });

  it('says what is wrong with its input', async () => {
    const r = await cli(['trace', '--from', 'client/nope', '--to', 'products.shop:80', '-f', SAMPLE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no pod client/nope');
    const u = await cli(['trace', '--to', 'products.shop:80', '-f', SAMPLE]);
    expect(u.code).toBe(64);
    expect(u.stderr).toContain('--from');
  });
});
