// `npm run bench:scale` (and part of `npm run bench`, not of `--budgets`): whole CLI processes
// on whole-cluster dumps (issue #37). For 1,000 to 50,000 services (Deployments, no Pods
// written out, one file each, bench/generateMesh.ts) it times `mesh-workbench analyze -A -o
// json FILE` and a Node process that only reads the file and loads it with js-yaml, and
// records each process's peak RSS and CPU time (user + system, every thread) from a preload
// that reads process.resourceUsage() at exit. Checked: time per service does not grow with
// the mesh (50,000 within 1.5x of 5,000), the 50,000-service run takes at most 3x the js-yaml
// process, and its peak RSS is at most 8x the file; and `ztunnel-config all` (what the Data plane
// view is built from) grows no faster per service. Commands run interleaved, round after
// round, so a busy machine slows all of them alike; the load average is printed with them.
// The CLI is built into the run's own directory and started as bin/mesh-workbench.js starts it
// (bin/load-compiled.js, with V8's code cache), so an edit made while the bench runs cannot
// send the bin to the TypeScript sources halfway through.
//   --rounds N   rounds per command (median; default 3)
//   --sizes A,B  other service counts (the checks need 5000 and 50000)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCli } from '../scripts/build-cli.mjs';
import { generateMesh } from './generateMesh.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SCALE_SIZES = [1000, 5000, 20000, 50000];
/** Issue #37's targets. */
export const SCALE_TARGETS = { perServiceGrowth: 1.5, timesJsyaml: 3, rssTimesFile: 8 } as const;

/** Written to the file named by MWB_BENCH_USAGE when the process exits: its peak RSS and CPU time. */
const USAGE_PRELOAD = `const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.MWB_BENCH_USAGE, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
});
`;

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssBytes: number;
}

export interface ScaleRow {
  services: number;
  bytes: number;
  cli: Sample;
  jsyaml: Sample;
  /** `ztunnel-config all`: the data plane model the Data plane view shows. */
  ztunnel: Sample;
}

export interface ScaleResult {
  rows: ScaleRow[];
  lines: string[];
  checks: Array<{ label: string; pass: boolean; detail: string }>;
  load: [number, number];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function run(args: string[], okStatus: number[], preload: string, usageFile: string): Sample {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', preload, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MWB_BENCH_USAGE: usageFile },
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - t0;
  if (r.status === null || !okStatus.includes(r.status)) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr?.toString().slice(0, 500)}`);
  const u = JSON.parse(readFileSync(usageFile, 'utf8')) as { maxRssKb: number; cpuMs: number };
  return { wallMs, cpuMs: u.cpuMs, rssBytes: u.maxRssKb * 1024 };
}

function medianSample(xs: Sample[]): Sample {
  return { wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)), rssBytes: median(xs.map((x) => x.rssBytes)) };
}

export async function measureScale({ sizes = SCALE_SIZES, rounds = 3 }: { sizes?: number[]; rounds?: number } = {}): Promise<ScaleResult> {
  const loadAtStart = loadavg()[0] as number;
  const dir = mkdtempSync(join(tmpdir(), 'mwb-bench-scale-'));
  try {
    const { bundle } = await buildCli(join(dir, 'cli'));
    const cli = join(dir, 'run-cli.mjs');
    writeFileSync(
      cli,
      `import { loadCompiledCli } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin/load-compiled.js')).href)};\n` +
        `const { main } = loadCompiledCli(${JSON.stringify(bundle)});\nawait main(process.argv.slice(2));\n`,
    );
    const preload = join(dir, 'usage.cjs');
    writeFileSync(preload, USAGE_PRELOAD);
    const usageFile = join(dir, 'usage.json');
    const loader = join(dir, 'jsyaml-load.mjs');
    writeFileSync(
      loader,
      `import { readFileSync } from 'node:fs';\nimport jsyaml from ${JSON.stringify(import.meta.resolve('js-yaml'))};\njsyaml.loadAll(readFileSync(process.argv[2], 'utf8'));\n`,
    );
    const meshes = sizes.map((services) => {
      const file = join(dir, `mesh-${services}.yaml`);
      const text = generateMesh(services).text;
      writeFileSync(file, text);
      return { services, file, bytes: Buffer.byteLength(text) };
    });
    const commands = meshes.flatMap((m) => [
      { key: `jsyaml-${m.services}`, args: [loader, m.file], ok: [0] },
      { key: `cli-${m.services}`, args: [cli, 'analyze', '-A', '-o', 'json', m.file], ok: [0, 79] },
      // The Data plane view's model (every pod's ztunnel workload) on the same mesh.
      { key: `ztunnel-${m.services}`, args: [cli, 'ztunnel-config', 'all', m.file], ok: [0] },
    ]);
    const samples = new Map<string, Sample[]>(commands.map((c) => [c.key, []]));
    for (const c of commands) run(c.args, c.ok, preload, usageFile); // warm the file cache and the code cache
    for (let round = 0; round < rounds; round++) for (const c of commands) samples.get(c.key)!.push(run(c.args, c.ok, preload, usageFile));
    const rows: ScaleRow[] = meshes.map((m) => ({
      services: m.services,
      bytes: m.bytes,
      cli: medianSample(samples.get(`cli-${m.services}`)!),
      jsyaml: medianSample(samples.get(`jsyaml-${m.services}`)!),
      ztunnel: medianSample(samples.get(`ztunnel-${m.services}`)!),
    }));
    const load: [number, number] = [loadAtStart, loadavg()[0] as number];
    return { rows, lines: formatScale(rows, rounds, load), checks: scaleChecks(rows), load };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MB = 1024 * 1024;

function formatScale(rows: readonly ScaleRow[], rounds: number, load: [number, number]): string[] {
  const out = [
    `\nCLI on whole-cluster dumps: analyze -A -o json, whole process (median of ${rounds} interleaved rounds; Node ${process.version}; load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end)\n`,
    '  services  file      wall       cpu        wall/service  peak RSS   RSS/file  js-yaml wall  js-yaml RSS  x js-yaml  ztunnel-config  per service',
  ];
  for (const r of rows) {
    out.push(
      `  ${r.services.toLocaleString('en-US').padStart(8)}  ${`${(r.bytes / MB).toFixed(1)} MB`.padEnd(8)}  ${`${r.cli.wallMs.toFixed(0)} ms`.padStart(8)}  ${`${r.cli.cpuMs.toFixed(0)} ms`.padStart(8)}  ` +
        `${`${((r.cli.wallMs * 1000) / r.services).toFixed(0)} µs`.padStart(12)}  ${`${(r.cli.rssBytes / MB).toFixed(0)} MB`.padStart(8)}  ${`${(r.cli.rssBytes / r.bytes).toFixed(1)}x`.padStart(8)}  ` +
        `${`${r.jsyaml.wallMs.toFixed(0)} ms`.padStart(12)}  ${`${(r.jsyaml.rssBytes / MB).toFixed(0)} MB`.padStart(11)}  ${`${(r.cli.wallMs / r.jsyaml.wallMs).toFixed(2)}x`.padStart(9)}  ` +
        `${`${r.ztunnel.wallMs.toFixed(0)} ms`.padStart(14)}  ${`${((r.ztunnel.wallMs * 1000) / r.services).toFixed(0)} µs`.padStart(11)}`,
    );
  }
  return out;
}

function scaleChecks(rows: readonly ScaleRow[]): ScaleResult['checks'] {
  const at = (n: number) => rows.find((r) => r.services === n);
  const small = at(5000);
  const large = at(50000);
  if (!small || !large) return [];
  const per = (r: ScaleRow, k: 'wallMs' | 'cpuMs') => r.cli[k] / r.services;
  const growth = per(large, 'wallMs') / per(small, 'wallMs');
  const cpuGrowth = per(large, 'cpuMs') / per(small, 'cpuMs');
  const x = large.cli.wallMs / large.jsyaml.wallMs;
  const rss = large.cli.rssBytes / large.bytes;
  const ztunnelGrowth = large.ztunnel.wallMs / large.services / (small.ztunnel.wallMs / small.services);
  return [
    {
      label: `CLI time per service, 50,000 services <= ${SCALE_TARGETS.perServiceGrowth}x that at 5,000`,
      pass: growth <= SCALE_TARGETS.perServiceGrowth,
      detail: `${(per(large, 'wallMs') * 1000).toFixed(0)} µs vs ${(per(small, 'wallMs') * 1000).toFixed(0)} µs (${growth.toFixed(2)}x; CPU time ${cpuGrowth.toFixed(2)}x)`,
    },
    {
      label: `CLI analyze, 50,000 services <= ${SCALE_TARGETS.timesJsyaml}x the js-yaml process`,
      pass: x <= SCALE_TARGETS.timesJsyaml,
      detail: `${large.cli.wallMs.toFixed(0)} ms vs ${large.jsyaml.wallMs.toFixed(0)} ms (${x.toFixed(2)}x)`,
    },
    {
      label: `CLI peak RSS, 50,000 services <= ${SCALE_TARGETS.rssTimesFile}x the file`,
      pass: rss <= SCALE_TARGETS.rssTimesFile,
      detail: `${(large.cli.rssBytes / MB).toFixed(0)} MB for ${(large.bytes / MB).toFixed(1)} MB (${rss.toFixed(1)}x)`,
    },
    {
      label: `ztunnel-config (the Data plane view's model) time per service, 50,000 services <= ${SCALE_TARGETS.perServiceGrowth}x that at 5,000`,
      pass: ztunnelGrowth <= SCALE_TARGETS.perServiceGrowth,
      detail: `${((large.ztunnel.wallMs * 1000) / large.services).toFixed(0)} µs vs ${((small.ztunnel.wallMs * 1000) / small.services).toFixed(0)} µs (${ztunnelGrowth.toFixed(2)}x)`,
    },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = arg('--sizes')?.split(',').map(Number);
  const result = await measureScale({ ...(sizes ? { sizes } : {}), rounds: Number(arg('--rounds') ?? 3) });
  for (const l of result.lines) console.log(l);
  console.log('\nTargets:');
  for (const c of result.checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.label}: ${c.detail}`);
  process.exitCode = result.checks.every((c) => c.pass) ? 0 : 1;
}
