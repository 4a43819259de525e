// `proxy-config <command> <pod>.<ns> FILES…` and `simulate`: config generated from workspace
// manifests, rendered by the same istioctl tables as a real dump.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, REPO } from './helpers.ts';
import { renderProxyConfig } from '../../src/core/xds/configdump/render.ts';
import { configDumpFromValue } from '../../src/core/xds/configdump/dump.ts';
import { analyzeFiles } from '../../src/cli/generate.ts';
import { answerQuery } from '../../src/core/queries/index.ts';

const BOOKINFO = join(REPO, 'public/samples/bookinfo');
const io = { stdout: () => {}, stderr: () => {}, stdin: async () => '', cwd: REPO, isTTY: false, env: {} };

async function productpage(): Promise<string> {
  const a = await analyzeFiles([BOOKINFO], io);
  if (!a.ok) throw new Error(a.error);
  return answerQuery('proxies', {}, a.state).items.find((p) => p.name.startsWith('productpage'))!.id;
}

describe('proxy-config from workspace files', () => {
  it('prints the routes of the productpage sidecar as istioctl would', async () => {
    const id = await productpage();
    const r = await cli(['pc', 'routes', id, BOOKINFO]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VHOST NAME\s+DOMAINS\s+MATCH\s+VIRTUAL SERVICE$/);
    expect(lines.some((l) => /^9080\s+reviews\.bookinfo\.svc\.cluster\.local:9080\s+\S.*\s+\/\*\s+reviews\.bookinfo$/.test(l))).toBe(true);
    // The same text as rendering the worker's dump with the configdump renderer.
    const a = await analyzeFiles([BOOKINFO], io);
    if (!a.ok) throw new Error(a.error);
    const read = configDumpFromValue(answerQuery('proxyConfig', { proxy: id }, a.state).dump);
    if (!read.ok) throw new Error(read.error);
    expect(r.stdout).toBe(renderProxyConfig({ dump: read.dump }, { command: 'routes', now: new Date() }).text);
  });

  it('takes a deployment name, -f for the manifests, filters and -o json', async () => {
    const r = await cli(['pc', 'clusters', 'reviews-v1.bookinfo', '-f', BOOKINFO, '--fqdn', 'reviews', '--port', '9080']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('reviews.bookinfo.svc.cluster.local'))
        .map((l) => l.split(/\s+/).slice(0, 4).join(' ')),
    ).toEqual([
      'reviews.bookinfo.svc.cluster.local 9080 - outbound',
      'reviews.bookinfo.svc.cluster.local 9080 v1 outbound',
      'reviews.bookinfo.svc.cluster.local 9080 v2 outbound',
      'reviews.bookinfo.svc.cluster.local 9080 v3 outbound',
    ]);
    const json = await cli(['pc', 'listeners', 'reviews-v1.bookinfo', BOOKINFO, '--port', '9080', '-o', 'json']);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((l) => l.name)).toContain('0.0.0.0_9080');
  });

  it('names the proxies when the one asked for is not there', async () => {
    const r = await cli(['pc', 'clusters', 'nope.bookinfo', BOOKINFO]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No proxy "nope.bookinfo"[^\n]*\nproxies: .*productpage-v1-/);
  });
});

describe('simulate', () => {
  it('follows GET /reviews/1 from productpage to the weighted subsets', async () => {
    const r = await cli(['simulate', await productpage(), '--host', 'reviews', '--port', '9080', '--path', '/reviews/1', BOOKINFO]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^listener\s+0\.0\.0\.0_9080$/m);
    expect(r.stdout).toMatch(/^virtualHost\s+reviews\.bookinfo\.svc\.cluster\.local:9080$/m);
    expect(r.stdout).toMatch(/^cluster\s+outbound\|9080\|v1\|reviews\.bookinfo\.svc\.cluster\.local \(75%\)$/m);
    expect(r.stdout).toMatch(/^cluster\s+outbound\|9080\|v2\|reviews\.bookinfo\.svc\.cluster\.local \(25%\)$/m);
    const json = JSON.parse((await cli(['simulate', await productpage(), '--host', 'reviews', '-p', '9080', '-o', 'json', BOOKINFO])).stdout) as {
      clusters: { weight: number }[];
    };
    expect(json.clusters.map((c) => c.weight)).toEqual([75, 25]);
  });

  it('exits 1 with the reason when the request fails, 64 on usage errors', async () => {
    const id = await productpage();
    // Through the assumed ingress gateway (Service port 80 → listener 8080): no route for /nothing.
    const bad = await cli([
      'simulate',
      'istio-ingressgateway-dummypod.istio-system',
      '--host',
      'bookinfo.example.com',
      '--port',
      '80',
      '--path',
      '/nothing',
      BOOKINFO,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^listener\s+0\.0\.0\.0_8080$/m);
    expect(bad.stdout).toMatch(/^result: fails: no route matched: 404/m);
    const good = await cli([
      'simulate',
      'istio-ingressgateway-dummypod.istio-system',
      '--host',
      'bookinfo.example.com',
      '--port',
      '80',
      '--path',
      '/productpage',
      BOOKINFO,
    ]);
    expect(good.stdout).toMatch(/^cluster\s+outbound\|9080\|\|productpage\.bookinfo\.svc\.cluster\.local$/m);
    expect((await cli(['simulate', id, '--port', '9080', BOOKINFO])).code).toBe(64);
    expect((await cli(['simulate', id, '--host', 'x', '--port', 'http', BOOKINFO])).stderr).toMatch(/invalid --port/);
    expect((await cli(['simulate', '--help'])).stdout).toMatch(/mesh-workbench simulate <pod/);
  });
});
