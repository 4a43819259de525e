// `npm run oracle -- proxy-config`: istioctl's `proxy-config cluster|listener|route -f DUMP`
// (listener and route also with `--verbose=false`)
// against ours (`mesh-workbench proxy-config … --file DUMP`) on config dumps made of what
// istiod's own generator sends each proxy of our samples (`xds-oracle --serve`, as the `xds`
// part asks it). Both read the same file, so this checks our rendering of istiod's config, not
// our generator: stdout, stderr and the exit code must be the same. Prints
// `proxy-config: N agree, N differ`; details in reports/oracle/proxy-config.json.
//
//   --limit N   stop after N proxies
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerQuery } from '../../src/core/queries/index.ts';
import { analyze, isObj, workloadsFile, type Json } from './xdsCompare.ts';
import { XdsServer } from './xdsServer.ts';
import { option, sampleWorkspaces } from './xds.ts';
import { DUMP_TYPES, typed } from '../../src/core/xds/dump.ts';
import type { Json as XdsJson } from '../../src/core/xds/types.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORTS = join(ROOT, 'reports', 'oracle');
const CLI = join(ROOT, 'bin', 'mesh-workbench.js');
const XDS_ORACLE = process.env.XDS_ORACLE ?? '';
const ISTIOCTL = process.env.ISTIOCTL ?? '';
/** The commands that read a config dump (`endpoint` reads Envoy's /clusters output instead). */
const COMMANDS = [['cluster'], ['listener'], ['route'], ['listener', '--verbose=false'], ['route', '--verbose=false']];

/** xds-oracle's resources of one proxy as an Envoy /config_dump, the shape istiod's proxies report. */
function configDump(answer: Record<string, Json>): XdsJson {
  const list = (k: string): XdsJson[] => (Array.isArray(answer[k]) ? (answer[k] as Json[]).filter(isObj) : []) as XdsJson[];
  return {
    configs: [
      typed(DUMP_TYPES.clusters, { dynamicActiveClusters: list('clusters').map((c) => ({ cluster: typed(DUMP_TYPES.cluster, c) })) }),
      typed(DUMP_TYPES.listeners, {
        dynamicListeners: list('listeners').map((l) => ({ name: l.name ?? '', activeState: { listener: typed(DUMP_TYPES.listener, l) } })),
      }),
      typed(DUMP_TYPES.routes, { dynamicRouteConfigs: list('routes').map((r) => ({ routeConfig: typed(DUMP_TYPES.routeConfiguration, r) })) }),
    ],
  };
}

function run(exe: string, args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(exe, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

async function main(): Promise<void> {
  if (!XDS_ORACLE || !ISTIOCTL) throw new Error('run through `npm run oracle -- proxy-config` (XDS_ORACLE or ISTIOCTL is not set)');
  const limit = Number(option('--limit') ?? Number.POSITIVE_INFINITY);
  const server = new XdsServer(XDS_ORACLE);
  const dir = mkdtempSync(join(tmpdir(), 'mwb-oracle-pc-'));
  const results: Array<{ sample: string; proxy: string; command: string; agree: boolean; lines: number; istioctl?: string; ours?: string }> = [];
  const t0 = Date.now();
  let proxies = 0;
  try {
    for (const ws of sampleWorkspaces()) {
      if (proxies >= limit) break;
      const state = await analyze(ws.files);
      const picked = answerQuery('proxies', {}, state)
        .items.filter((p) => p.type === 'sidecar' || p.type === 'router')
        .slice(0, limit - proxies);
      const answer = await server.generate(
        [...ws.files.map((f) => ({ name: f.path, text: f.text })), { name: 'workloads.yaml', text: workloadsFile(state) }],
        picked.map((p) => ({ name: p.id, type: p.type as 'sidecar' | 'router' })),
      );
      for (const [i, p] of picked.entries()) {
        const theirs = answer.proxies[i];
        if (!theirs || theirs.error) continue;
        proxies++;
        const file = join(dir, `${ws.name}-${p.id}.json`);
        writeFileSync(file, JSON.stringify(configDump(theirs as unknown as Record<string, Json>)));
        for (const c of COMMANDS) {
          const a = run(ISTIOCTL, ['proxy-config', ...c, '-f', file]);
          const b = run('node', [CLI, 'proxy-config', ...c, '--file', file]);
          const agree = a.stdout === b.stdout && a.status === b.status && (a.status === 0 || a.stderr.trim() === b.stderr.trim());
          results.push({
            sample: ws.name,
            proxy: p.id,
            command: c.join(' '),
            agree,
            // istioctl's table rows (header included): an empty answer on both sides is no evidence.
            lines: a.stdout.split('\n').filter((l) => l.trim() !== '').length,
            ...(agree ? {} : { istioctl: `${a.status}\n${a.stdout}${a.stderr}`, ours: `${b.status}\n${b.stdout}${b.stderr}` }),
          });
        }
        const mine = results.slice(-COMMANDS.length);
        console.log(`${ws.name} ${p.id}: ${mine.filter((r) => r.agree).length} of ${mine.length} commands agree`);
      }
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(REPORTS, { recursive: true });
  const out = join(REPORTS, 'proxy-config.json');
  writeFileSync(out, `${JSON.stringify(results, null, 1)}\n`);
  const agree = results.filter((r) => r.agree).length;
  const lines = results.reduce((n, r) => n + r.lines, 0);
  console.log(
    `\nproxy-config: ${agree} agree, ${results.length - agree} differ (${proxies} proxies × ${COMMANDS.length} commands, ${lines} lines of istioctl output, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)})`,
  );
}

await main();
