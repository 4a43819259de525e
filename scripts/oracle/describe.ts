// `npm run oracle -- describe [--samples]`: `mesh-workbench describe pod` against istioctl's own
// `x describe pod` (describe-oracle, oracle/cmd/describe-oracle: istioctl's describe command on a
// fake cluster holding the files' objects, reading config dumps istiod's generator makes).
//
// Pods: every Pod of the Bookinfo sample (public/samples/bookinfo, the whole folder; the pods
// are those of pods.yaml) and, with --samples, every pod of the other samples that our model
// sees (written pods, and pods derived from a Deployment; not the placeholder gateway pods).
// Each pod is described twice on both sides: `pod NAME.NS` (the namespace in the name, the
// context's namespace "default") and `pod NAME -n NS`; each Service the files write, once, as
// `service NAME.NS`. Both sides read the same files; the
// oracle also gets the pods as our analysis sees them (scripts/oracle/xdsCompare.ts,
// workloadsFile: addresses, the injector's tlsMode label, derived and placeholder pods, the
// Services we assume), as the xds oracle does, so that both describe the same cluster.
// stdout, the error line and the exit code are compared as text; a difference gets a unified
// diff and a cause (CAUSES below), else it is unexplained. Details in reports/oracle/describe.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS } from '../../src/core/document/kinds.ts';
import type { Resource } from '../../src/core/document/types.ts';
import { analyze, workloadsFile } from './xdsCompare.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLES = join(ROOT, 'public', 'samples');
const REPORTS = join(ROOT, 'reports', 'oracle');
const CLI = join(ROOT, 'bin', 'mesh-workbench.js');
const DESCRIBE_ORACLE = process.env.DESCRIBE_ORACLE ?? '';

interface Run {
  stdout: string;
  stderr: string;
  exit: number;
}

interface Comparison {
  sample: string;
  /** The pod or Service described (`name.namespace`). */
  pod: string;
  args: string[];
  identical: boolean;
  cause?: string;
  diff?: string;
  istioctl: Run;
  ours: Run;
}

/** A known, legitimate reason for a difference: it applies when `applies` says so. */
interface Cause {
  id: string;
  why: string;
  applies: (c: { pod: Resource; istioctl: Run; ours: Run }) => boolean;
}

const FAILED_ON_SIDECAR = 'Error: failed to execute command on sidecar: ';

/**
 * describe.go prints three lists in Go map order, which varies from run to run: the port-level
 * mTLS modes (printPeerAuthentication ranges over a map), the RBAC policy names
 * (getIstioRBACPolicies ranges over rules.policies) and the header conditions of a match
 * (renderMatch ranges over match.headers). Ours sorts them. Sorted the same on both sides.
 */
function mapOrderFree(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (l === '   Port Level mTLS mode:') {
      const block: string[] = [];
      while (i + 1 < lines.length && /^ {6}\d+: /.test(lines[i + 1] as string)) block.push(lines[++i] as string);
      out.push(l, ...block.sort());
      continue;
    }
    out.push(
      l
        .replace(/(RBAC policies: )(.*)$/, (_m, a: string, b: string) => a + b.split(', ').sort().join(', '))
        .replace(/( when headers are )([^,]*)/g, (_m, a: string, b: string) => a + b.split('; ').sort().join('; ')),
    );
  }
  return out.join('\n');
}

/** Runs of spaces inside a line (not its indentation) as one. */
function oneSpace(text: string): string {
  return text.replace(/(\S) {2,}/g, '$1 ');
}

// The known causes, each checked on the whole difference (the first that applies names it).
const CAUSES: Cause[] = [
  {
    id: 'no-envoy-error-text',
    why: "a pod without an Envoy (no istio-proxy container): both print the same text and fail reading its config_dump; istioctl's reason is the fake client's (unable to retrieve Pod; against a cluster, a port-forward failure), ours says that the pod runs no Envoy proxy",
    applies: ({ istioctl, ours }) =>
      istioctl.stdout === ours.stdout &&
      istioctl.exit === ours.exit &&
      istioctl.stderr.startsWith(FAILED_ON_SIDECAR) &&
      ours.stderr.startsWith(FAILED_ON_SIDECAR),
  },
  {
    id: 'go-map-order',
    why: 'Go map order: istioctl prints port-level mTLS modes, RBAC policy names and header matches in map order (it varies from run to run); ours sorts them',
    applies: ({ istioctl, ours }) => mapOrderFree(shown(istioctl)) === mapOrderFree(shown(ours)),
  },
  {
    id: 'proto-text-spacing',
    why: "Go's one-line proto text (a fault, a TCP match) puts two spaces between fields in some builds (protobuf's deliberate instability, chosen by a hash of the istioctl binary); ours one",
    applies: ({ istioctl, ours }) => oneSpace(mapOrderFree(shown(istioctl))) === oneSpace(mapOrderFree(shown(ours))),
  },
];

function exec(cmd: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', (e) => done({ stdout, stderr: stderr + String(e), exit: -1 }));
    child.on('close', (code) => done({ stdout, stderr, exit: code ?? -1 }));
  });
}

/** A unified diff of istioctl's output (---) against ours (+++), by `diff -u`. */
function unifiedDiff(a: string, b: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'describe-oracle-'));
  try {
    writeFileSync(join(dir, 'istioctl'), a);
    writeFileSync(join(dir, 'ours'), b);
    const r = spawnSync('diff', ['-u', '--label', 'istioctl', '--label', 'mesh-workbench', join(dir, 'istioctl'), join(dir, 'ours')], { encoding: 'utf8' });
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a run is compared on: stdout, then the error line and exit code when there is one. */
function shown(r: Run): string {
  const err = r.stderr.split('\n').filter((l) => l.startsWith('Error: '));
  return r.stdout + (err.length > 0 || r.exit !== 0 ? `[stderr] ${err.join(' | ')}\n[exit] ${r.exit}\n` : '');
}

interface Workspace {
  name: string;
  files: string[];
  /** Which pods to describe. */
  pick: (pod: Resource) => boolean;
}

function sampleFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'route-tests.yaml')
    .sort()
    .map((f) => join(dir, f));
}

function workspaces(all: boolean): Workspace[] {
  const bookinfo = sampleFiles(join(SAMPLES, 'bookinfo'));
  const out: Workspace[] = [
    { name: 'bookinfo', files: bookinfo, pick: (p) => !p.synthetic },
    { name: 'bookinfo+policies', files: [...bookinfo, join(ROOT, 'tests', 'fixtures', 'describe', 'bookinfo-policies.yaml')], pick: (p) => !p.synthetic },
  ];
  if (!all) return out;
  for (const d of readdirSync(SAMPLES).sort()) {
    const dir = join(SAMPLES, d);
    if (d === 'bookinfo' || !statSync(dir).isDirectory()) continue;
    out.push({ name: d, files: sampleFiles(dir), pick: (p) => p.synthetic !== 'placeholder' });
  }
  return out;
}

async function main(): Promise<void> {
  if (!DESCRIBE_ORACLE) throw new Error('run through `npm run oracle -- describe` (DESCRIBE_ORACLE is not set)');
  const all = process.argv.includes('--samples');
  const t0 = Date.now();
  const results: Comparison[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'describe-workloads-'));
  try {
    for (const ws of workspaces(all)) {
      const state = await analyze(ws.files.map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') })));
      const byName = (a: Resource, b: Resource) => (a.namespace + a.name < b.namespace + b.name ? -1 : 1);
      const pods = state.view.list(KINDS.Pod).filter(ws.pick).sort(byName);
      if (pods.length === 0) continue;
      // Services the files write (not the ones our model assumes, which istioctl would not find).
      const services = state.view
        .list(KINDS.Service)
        .filter((s) => !s.synthetic)
        .sort(byName);
      const workloads = join(tmp, `${ws.name}-workloads.yaml`);
      writeFileSync(workloads, workloadsFile(state));
      const targets: { r: Resource; args: string[] }[] = [
        ...pods.flatMap((p) => [
          { r: p, args: ['pod', `${p.name}.${p.namespace}`] },
          { r: p, args: ['pod', p.name, '-n', p.namespace] },
        ]),
        ...services.map((svc) => ({ r: svc, args: ['service', `${svc.name}.${svc.namespace}`] })),
      ];
      const argLists = targets.map((t) => t.args);
      const files = ws.files.map((f) => relative(ROOT, f));
      const oracle = await exec(DESCRIBE_ORACLE, ['--json', ...files, workloads, ...argLists.flatMap((a) => ['--', ...a])]);
      let theirs: (Run & { args: string[] })[];
      try {
        theirs = JSON.parse(oracle.stdout);
      } catch {
        throw new Error(`describe-oracle failed on ${ws.name} (exit ${oracle.exit}): ${oracle.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      }
      for (const [i, args] of argLists.entries()) {
        const pod = (targets[i] as { r: Resource }).r;
        const ours = await exec('node', [CLI, 'describe', ...args, ...files]);
        const istioctl = theirs[i] as Run;
        const identical = shown(istioctl) === shown(ours);
        const rec: Comparison = { sample: ws.name, pod: `${pod.name}.${pod.namespace}`, args, identical, istioctl, ours };
        if (!identical) {
          rec.diff = unifiedDiff(shown(istioctl), shown(ours));
          rec.cause = CAUSES.find((c) => c.applies({ pod, istioctl, ours }))?.id ?? 'unexplained';
        }
        results.push(rec);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const identical = results.filter((r) => r.identical).length;
  const byCause = new Map<string, string[]>();
  for (const r of results) if (r.cause) byCause.set(r.cause, [...(byCause.get(r.cause) ?? []), `${r.sample} ${r.args.join(' ')}`]);
  mkdirSync(REPORTS, { recursive: true });
  const out = join(REPORTS, 'describe.json');
  writeFileSync(
    out,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        runs: results.length,
        identical,
        differ: results.length - identical,
        causes: CAUSES.filter((c) => byCause.has(c.id)).map((c) => ({ id: c.id, why: c.why, runs: byCause.get(c.id) })),
        unexplained: byCause.get('unexplained') ?? [],
        results,
      },
      null,
      1,
    ),
  );
  for (const r of results) {
    console.log(`${r.identical ? 'IDENTICAL' : 'DIFFER   '} ${r.sample} ${r.args.join(' ')}${r.cause ? `: ${r.cause}` : ''}`);
    if (!r.identical && (r.cause === 'unexplained' || process.argv.includes('--verbose'))) console.log(r.diff?.replace(/^/gm, '    '));
  }
  if (byCause.size > 0) {
    console.log('\nDifferences by cause (runs):');
    for (const c of CAUSES) if (byCause.has(c.id)) console.log(`  ${String(byCause.get(c.id)?.length).padStart(3)}  ${c.id}: ${c.why}`);
    if (byCause.has('unexplained')) console.log(`  ${String(byCause.get('unexplained')?.length).padStart(3)}  unexplained`);
  }
  console.log(
    `\ndescribe: ${identical} identical, ${results.length - identical} differ (${results.length} runs, ${new Set(results.map((r) => `${r.sample}/${r.args[0]}/${r.pod}`)).size} pods and Services, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)})`,
  );
}

await main();
