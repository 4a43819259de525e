// `proxy-config diff <pod>.<ns> --file dump.json FILES…` and `proxy-config secret` for a
// generated gateway: the CLI side of the dump diff and the SDS secrets.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, REPO } from './helpers.ts';

const ROUTE_DUMP = '/work/shared/conformance/xds/istioctl/pkg/writer/envoy/configdump/testdata/routes/istio-gateway-http-route-prefix/configdump.json';
const CERTS = join(REPO, 'public/samples/certificates/gateway.yaml');
const GW = 'istio-ingressgateway-5d8f7c9b4-x2k7q.istio-system';

describe('proxy-config diff', () => {
  it('lists what differs between a dump and the generated config, exit 1 when something does', async () => {
    const r = await cli(['pc', 'diff', GW, '--file', ROUTE_DUMP, CERTS]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    // The certificates sample serves shop.example.com on 443: the dump's http.8080 is not generated.
    expect(r.stdout).toMatch(/^route\s+only in dump\s+http\.8080$/m);
    expect(r.stdout).toMatch(/^listener\s+only generated\s+0\.0\.0\.0_8443$/m);
    expect(r.stdout).toContain('Ignored (runtime only): versionInfo, lastUpdated, healthStatus.');
    const json = await cli(['pc', 'diff', GW, '-f', ROUTE_DUMP, '-o', 'json', CERTS]);
    const parsed = JSON.parse(json.stdout) as { proxy: string; differences: { type: string; name: string; status: string }[] };
    expect(parsed.proxy).toBe(GW);
    expect(parsed.differences).toContainEqual({ type: 'route', name: 'http.8080', status: 'only-in-dump', fields: [], moreFields: 0 });
  });

  it('reads the dump from stdin and says what is wrong with the arguments', async () => {
    const { readFileSync } = await import('node:fs');
    const r = await cli(['pc', 'diff', GW, '-f', '-', CERTS], { stdin: readFileSync(ROUTE_DUMP, 'utf8') });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('http.8080');
    expect((await cli(['pc', 'diff', GW, CERTS])).code).toBe(64);
    expect((await cli(['pc', 'diff', '-f', ROUTE_DUMP])).code).toBe(64);
    const bad = await cli(['pc', 'diff', 'nope.default', '-f', ROUTE_DUMP, CERTS]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('No proxy "nope.default"');
    expect(bad.stderr).toContain(GW);
    const notDump = await cli(['pc', 'diff', GW, '-f', '-', CERTS], { stdin: '{"kind": "Pod"}' });
    expect(notDump.code).toBe(1);
    expect(notDump.stderr).toContain('not an Envoy config dump');
    const help = await cli(['pc', 'diff', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('mesh-workbench proxy-config diff <pod|deployment>');
  });
});

describe('proxy-config secret for a generated gateway', () => {
  it("shows the credential's certificate from the workspace Secret and Istio's own by name", async () => {
    const r = await cli(['pc', 'secret', GW, CERTS, '--now', '2023-06-01T00:00:00Z']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^RESOURCE NAME\s+TYPE\s+STATUS\s+VALID CERT\s+SERIAL NUMBER\s+NOT AFTER\s+NOT BEFORE$/);
    expect(lines.find((l) => l.startsWith('kubernetes://shop-credential '))).toMatch(
      /Cert Chain\s+ACTIVE\s+true\s+[0-9a-f]{32}\s+2024-01-01T00:00:00Z\s+2023-01-01T00:00:00Z/,
    );
    expect(lines.find((l) => l.startsWith('default '))).toMatch(/^default\s+ACTIVE\s+false\s*$/);
    const later = await cli(['pc', 'secret', GW, CERTS, '--now', '2026-01-01T00:00:00Z']);
    expect(later.stdout.split('\n').find((l) => l.startsWith('kubernetes://shop-credential '))).toMatch(/ACTIVE\s+false\s/);
  });
});
