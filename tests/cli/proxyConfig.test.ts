// mesh-workbench proxy-config: istioctl's subcommands, aliases, flags, output formats and errors.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.ts';
import { runProxyConfig } from '../../src/cli/proxyConfig.ts';
import { readConfigDump } from '../../src/core/xds/configdump/dump.ts';

const FIX = new URL('../fixtures/xds/', import.meta.url);
const DUMP = new URL('sidecar-config-dump.json', FIX).pathname;
const CLUSTERS = new URL('clusters.json', FIX).pathname;
const fixture = (name: string) => readFileSync(new URL(name, FIX), 'utf8');

describe('mesh-workbench proxy-config', () => {
  it('prints the tables istioctl prints, under istioctl names and aliases', async () => {
    for (const args of [
      ['proxy-config', 'clusters', '--file', DUMP],
      ['pc', 'c', '-f', DUMP],
      ['proxy-config', '-f', DUMP, 'cluster'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toBe(fixture('sidecar-clusters.txt'));
      expect(r.stderr).toBe('');
    }
    expect((await cli(['pc', 'l', '-f', DUMP])).stdout).toBe(fixture('sidecar-listeners.txt'));
    expect((await cli(['pc', 'r', '-f', DUMP])).stdout).toBe(fixture('sidecar-routes.txt'));
    expect((await cli(['pc', 'eds', '-f', DUMP])).stdout).toBe(fixture('sidecar-eds.txt'));
    expect((await cli(['pc', 'ec', '-f', DUMP])).stdout).toBe(fixture('sidecar-ecds.txt'));
    expect((await cli(['pc', 'b', '-f', DUMP, '-o', 'short'])).stdout).toBe(fixture('sidecar-bootstrap.txt'));
    expect((await cli(['pc', 's', '-f', DUMP, '--now', '2025-01-01T12:00:00Z'])).stdout).toBe(fixture('sidecar-secret.txt'));
    expect((await cli(['pc', 'all', '-f', DUMP, '--now=2025-01-01T12:00:00Z', '--with-headers'])).stdout).toBe(fixture('sidecar-all.txt'));
  });

  it('applies the filters', async () => {
    const r = await cli(['pc', 'clusters', '-f', DUMP, '--port', '443']);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    const l = await cli(['pc', 'listeners', '-f', DUMP, '--port=15001', '--verbose=false']);
    expect(l.stdout).toBe('ADDRESSES PORT  TYPE\n0.0.0.0   15001 TCP\n');
    const rt = await cli(['pc', 'routes', '-f', DUMP, '--name', '80']);
    expect(rt.stdout).toBe(
      'NAME     VHOST NAME             DOMAINS             MATCH     VIRTUAL SERVICE\n80       www.example.com:80     www.example.com     /*        \n',
    );
    const ep = await cli(['pc', 'eds', '-f', DUMP, '--status', 'draining']);
    expect(ep.stdout.split('\n')[1]).toMatch(/^10\.244\.1\.23:9080 +DRAINING +\/eu-west1-c +outbound\|9080\|\|reviews/);
  });

  it("reads Envoy's /clusters output for `endpoints`, and a config dump's EDS otherwise", async () => {
    expect((await cli(['pc', 'endpoints', '-f', CLUSTERS])).stdout).toBe(fixture('clusters-endpoints.txt'));
    expect((await cli(['pc', 'ep', '-f', DUMP])).stdout).toBe(fixture('sidecar-eds.txt'));
  });

  it('prints -o json and -o yaml; bootstrap defaults to json; all -o json prints the dump', async () => {
    const j = await cli(['pc', 'clusters', '-f', DUMP, '--fqdn', 'details', '-o', 'json']);
    expect(j.code).toBe(0);
    const clusters = JSON.parse(j.stdout);
    expect(clusters).toHaveLength(1);
    expect(Object.keys(clusters[0])).toEqual(['name', 'type', 'edsClusterConfig', 'connectTimeout', 'circuitBreakers']);
    expect(j.stdout.endsWith(']\n')).toBe(true);
    const y = await cli(['pc', 'clusters', '-f', DUMP, '--fqdn', 'details', '-o', 'yaml']);
    expect(y.stdout.startsWith('- circuitBreakers:\n')).toBe(true);
    expect(y.stdout.endsWith('\n\n')).toBe(true);
    const b = await cli(['pc', 'bootstrap', '-f', DUMP]);
    expect(b.stdout.startsWith('{\n    "bootstrap": {\n        "node": {\n            "id": ')).toBe(true);
    const all = await cli(['pc', 'all', '-f', DUMP, '-o', 'json']);
    expect(all.stdout).toBe(fixture('sidecar-config-dump.json') + '\n');
    const ally = await cli(['pc', 'all', '-f', DUMP, '-o', 'yaml']);
    expect(ally.stdout.startsWith("configs:\n- '@type': type.googleapis.com/envoy.admin.v3.BootstrapConfigDump\n")).toBe(true);
  });

  it('reads the dump from stdin with -f -', async () => {
    const r = await cli(['pc', 'routes', '-f', '-', '--verbose=false'], { stdin: fixture('sidecar-config-dump.json') });
    expect(r.stdout).toBe('NAME               VIRTUAL HOSTS\n9080               4\ninbound|9080||     1\n80                 1\n                   1\n');
  });

  it('reports errors as istioctl does, with its exit codes', async () => {
    const noFile = await cli(['pc', 'clusters']);
    expect(noFile.code).toBe(64);
    expect(noFile.stderr).toMatch(/^Error: cluster requires pod name or --file parameter\n/);
    const badOutput = await cli(['pc', 'clusters', '-f', DUMP, '-o', 'table']);
    expect(badOutput).toMatchObject({ code: 1, stderr: 'Error: output format "table" not supported\n' });
    const badJson = await cli(['pc', 'clusters', '-f', '-'], { stdin: '{"configs": [' });
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toMatch(/^Error: error unmarshalling config dump response from Envoy: invalid JSON/);
    const missing = await cli(['pc', 'secret', '-f', '-'], { stdin: '{"configs": []}' });
    expect(missing).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'Error: config dump has no configuration type type.googleapis.com/envoy.admin.v3.SecretsConfigDump\n',
    });
    const notADump = await cli(['pc', 'secret', '-f', CLUSTERS]);
    expect(notADump.stderr).toMatch(/^Error: error unmarshalling config dump response from Envoy: not an Envoy config dump: the object has no "configs" list/);
    const noSuchFile = await cli(['pc', 'clusters', '-f', 'does-not-exist.json']);
    expect(noSuchFile.code).toBe(1);
    expect(noSuchFile.stderr).toMatch(/^Error: ENOENT/);
    expect((await cli(['pc', 'clusters', '-f', DUMP, '--name', 'x'])).stderr).toMatch(/^Error: unknown flag: --name\n/);
    expect((await cli(['pc', 'clusters', '-f', DUMP, '--port', 'x'])).stderr).toMatch(/^Error: invalid argument "x" for "--port" flag/);
    expect((await cli(['pc', 'nope'])).stderr).toMatch(/^Error: unknown command "nope" for "mesh-workbench proxy-config"/);
    // Generating from files that are not there.
    const pod = await cli(['pc', 'clusters', 'productpage-v1.default', 'a.yaml']);
    expect(pod.code).toBe(1);
    expect(pod.stderr).toMatch(/^Error: stat a.yaml/);
  });

  it('has help', async () => {
    const h = await cli(['proxy-config', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/mesh-workbench proxy-config <command> --file/);
    const ch = await cli(['pc', 'routes', '--help']);
    expect(ch.stdout).toMatch(/--name string +Filter routes by route name field/);
    expect((await cli(['--help'])).stdout).toMatch(/proxy-config +Render an Envoy config dump/);
  });

  it('renders a dump given by the caller (the entry point for generated dumps)', async () => {
    let out = '';
    const r = readConfigDump(fixture('sidecar-config-dump.json'));
    if (!r.ok) throw new Error(r.error);
    const code = await runProxyConfig(
      ['routes', 'productpage.default', 'bookinfo.yaml'],
      { stdout: (s) => void (out += s), stderr: () => {}, stdin: async () => '', cwd: '/', isTTY: false, env: {} },
      {
        generateDump: async (target, files) => {
          expect([target, files]).toEqual(['productpage.default', ['bookinfo.yaml']]);
          return { ok: true, dump: r.dump };
        },
      },
    );
    expect(code).toBe(0);
    expect(out).toBe(fixture('sidecar-routes.txt'));
  });
});
