// Target `oracle-analyze`: our `analyze --istioctl` against istioctl's own analyze command
// (issue #29), on the `pipeline` target's mutated workspaces run with generated flags (output
// format, -v, -n, -A, -S, thresholds, a mesh config file). istioctl runs in the analyze server
// (oracle/cmd/analyze-oracle, built by `npm run oracle -- build`), ours in this worker, both at
// once on the same files under the same relative names. Property: stdout, stderr and the exit
// code are the same, byte for byte, except for the known causes in IGNORED (log time stamps;
// the text of IST0109/IST0175/IST0177, which istioctl builds in Go map order).
//
// Every other difference is counted by cause (a short signature of the first differing line),
// the smallest input of each cause is written to reports/oracle/fuzz-oracle-analyze.json, and the
// run goes on; at its end report() fails the run if any input differed for a cause not ignored.
// Without the analyze server the target is SKIPPED (CI never builds the oracle).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { pipelineTarget, type PipelineCase } from './pipeline.ts';
import type { Seeds } from '../gen/seeds.ts';
import type { CheckOutcome, Target, TargetReport } from '../target.ts';
import {
  ANALYZE_ORACLE,
  AnalyzeServer,
  compareRuns,
  materialise,
  removeDir,
  runOurs,
  stripTimestamps,
  type OracleWorkspace,
  type RunResult,
} from '../../scripts/oracle/analyzeServer.ts';

/** The flags an input runs with (besides what its PipelineCase says). */
export interface OracleFlags {
  format: 'log' | 'json' | 'yaml';
  verbose: boolean;
  allNamespaces: boolean;
  outputThreshold: 'Info' | 'Warning' | 'Error' | null;
  failureThreshold: 'Info' | 'Warning' | 'Error' | null;
}

export interface OracleAnalyzeCase {
  pipeline: PipelineCase;
  flags: OracleFlags;
}

export const flagsArb: fc.Arbitrary<OracleFlags> = fc.record({
  format: fc.constantFrom('log' as const, 'log' as const, 'json' as const, 'yaml' as const),
  verbose: fc.boolean(),
  allNamespaces: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
  outputThreshold: fc.option(fc.constantFrom('Info' as const, 'Warning' as const, 'Error' as const), { freq: 5 }),
  failureThreshold: fc.option(fc.constantFrom('Info' as const, 'Warning' as const, 'Error' as const), { freq: 5 }),
});

export function oracleCaseArb(seeds: Seeds): fc.Arbitrary<OracleAnalyzeCase> {
  return fc.record({ pipeline: pipelineTarget.arbitrary(seeds), flags: flagsArb });
}

export const MESH_FILE = 'mesh-config.yaml';

/**
 * The workspace and `analyze` arguments of a case: its files (a file's edited version when the
 * case has one), `-n` for a namespace filter (else for a default namespace other than
 * `default`), `-S` for each suppression, `--meshConfigFile` for a mesh config, and the flags.
 */
export function toOracleRun(c: OracleAnalyzeCase): { ws: OracleWorkspace; args: string[] } {
  const p = c.pipeline;
  const files = p.files.map((f) => ({ name: f.path, text: p.edit && p.edit.path === f.path ? p.edit.text : f.text }));
  const paths = files.map((f) => f.name);
  const args: string[] = [];
  const ns = p.settings.namespaceFilter ?? (p.settings.defaultNamespace && p.settings.defaultNamespace !== 'default' ? p.settings.defaultNamespace : undefined);
  if (c.flags.allNamespaces) args.push('-A');
  else if (ns) args.push('-n', ns);
  for (const s of p.settings.suppressions) args.push('-S', s);
  if (p.meshConfigText !== undefined) {
    files.push({ name: MESH_FILE, text: p.meshConfigText });
    args.push('--meshConfigFile', MESH_FILE);
  }
  if (c.flags.format !== 'log') args.push('-o', c.flags.format);
  if (c.flags.verbose) args.push('-v');
  if (c.flags.outputThreshold) args.push('--output-threshold', c.flags.outputThreshold);
  if (c.flags.failureThreshold) args.push('--failure-threshold', c.flags.failureThreshold);
  return { ws: { files, paths }, args };
}

/** Text with what varies from input to input elided: quoted text, numbers, a resource's name. */
function general(l: string, max = 90): string {
  return l
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/\b\d+\b/g, 'N')
    .replace(/\((\w+) [^)]*\)/, '($1 …)')
    .slice(0, max);
}

const DECODING = /error processing \S+\[\d+\]: (.*?)(?: - skipping)?$/;

/** The kind of a decoding error, from its text. */
function decodingFamily(d: string): string {
  if (/^failed interpreting jsonChunk: couldn't get version\/kind; json parse error/.test(d))
    return "JSON syntax (istioctl reads a document that starts with '{' with encoding/json)";
  if (/^failed interpreting jsonChunk/.test(d)) return `jsonChunk: ${general(d.replace(/^failed interpreting jsonChunk: /, ''), 45)}`;
  if (/json: unsupported value/.test(d)) return "YAML .nan/.inf (sigs.k8s.io/yaml's conversion to JSON refuses them)";
  if (/^failed converting YAML to JSON: yaml:/.test(d)) return 'YAML syntax (go-yaml)';
  if (/^failed parsing JSON for built-in type/.test(d)) return 'Kubernetes built-in type decoding (client-go, encoding/json)';
  return general(d, 45);
}

/**
 * Why two runs differ, from the first line that differs (time stamps removed): a cause (the
 * kind of difference, for the counts) and a detail (the line itself, generalised).
 */
export function differenceCause(theirs: RunResult, ours: RunResult): { cause: string; detail: string } {
  const firstDiff = (a: string, b: string) => {
    const x = stripTimestamps(a).split('\n');
    const y = stripTimestamps(b).split('\n');
    for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return [x[i], y[i]] as const;
    return undefined;
  };
  const describe = (where: string, d: readonly [string | undefined, string | undefined]) => {
    const [t, o] = d;
    const dt = t !== undefined ? DECODING.exec(t)?.[1] : undefined;
    const dO = o !== undefined ? DECODING.exec(o)?.[1] : undefined;
    const detail = `istioctl ${t === undefined ? '(no line)' : JSON.stringify(general(dt ?? t))}, ours ${o === undefined ? '(no line)' : JSON.stringify(general(dO ?? o))}`;
    if (dt !== undefined && dO !== undefined) {
      const ft = decodingFamily(dt);
      const fo = decodingFamily(dO);
      return { cause: ft === fo ? `decoding error, other words: ${ft}` : `decoding error, other kind: istioctl ${ft}; ours ${fo}`, detail };
    }
    if (dt !== undefined) return { cause: `decoding error only istioctl: ${decodingFamily(dt)}`, detail };
    if (dO !== undefined) return { cause: `decoding error only ours: ${decodingFamily(dO)}`, detail };
    const code = /IST\d{4}/.exec(t ?? '')?.[0] ?? /IST\d{4}/.exec(o ?? '')?.[0];
    return { cause: `${where}: ${code ?? 'a line'} ${t === undefined ? 'only ours' : o === undefined ? 'only istioctl' : 'differs'}`, detail };
  };
  // Our CLI's own failure (a JavaScript exception it caught and printed): a bug of ours.
  const crash = /^Error: ((?:Cannot read properties|Cannot convert|Maximum call stack|\S+ is not (?:a function|iterable|defined))[^\n]*)/m.exec(ours.stderr);
  if (crash && !theirs.stderr.includes(crash[1] as string)) return { cause: `ours threw: ${general(crash[1] as string, 80)}`, detail: crash[1] as string };
  const out = firstDiff(theirs.stdout, ours.stdout);
  if (out) return describe('stdout', out);
  const err = firstDiff(theirs.stderr, ours.stderr);
  if (err) return describe('stderr', err);
  return { cause: `exit code: istioctl ${theirs.exit}, ours ${ours.exit}`, detail: '' };
}

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const REPORT_FILE = join(ROOT, 'reports', 'oracle', 'fuzz-oracle-analyze.json');

interface Example {
  count: number;
  size: number;
  workspace: OracleWorkspace;
  args: string[];
  istioctl: RunResult;
  ours: RunResult;
}

interface CauseCount {
  count: number;
  /** Inputs with no decoding error on istioctl's side. */
  clean: number;
  details: Map<string, Example>;
}

/** Examples kept per cause (the smallest of each detail); every detail is counted. */
const EXAMPLES_PER_CAUSE = 40;

let server: AnalyzeServer | undefined;
let compared = 0;
let identical = 0;
let cleanCompared = 0;
let cleanDiffer = 0;
const ignored = new Map<string, number>();
const differences = new Map<string, CauseCount>();
const t0 = Date.now();

/** istioctl decoded every document (no "Error(s) adding files"). */
const decodedAll = (r: RunResult) => !/Error\(s\) adding files|error processing /.test(r.stdout + r.stderr);

async function check(c: OracleAnalyzeCase): Promise<CheckOutcome> {
  const { ws, args } = toOracleRun(c);
  server ??= new AnalyzeServer();
  const dir = materialise(ws);
  let theirs: RunResult;
  let ours: RunResult;
  try {
    [theirs, ours] = await Promise.all([server.run(ws, args), runOurs(dir, ws, args)]);
  } finally {
    removeDir(dir);
  }
  compared++;
  const clean = decodedAll(theirs);
  if (clean) cleanCompared++;
  const v = compareRuns(theirs, ours);
  if (v.same) {
    if (v.ignored) ignored.set(v.ignored, (ignored.get(v.ignored) ?? 0) + 1);
    else identical++;
    return 'ok';
  }
  if (clean) cleanDiffer++;
  const { cause, detail } = differenceCause(theirs, ours);
  const size = JSON.stringify(ws).length + JSON.stringify(args).length;
  let byCause = differences.get(cause);
  if (!byCause) differences.set(cause, (byCause = { count: 0, clean: 0, details: new Map() }));
  byCause.count++;
  if (clean) byCause.clean++;
  const seen = byCause.details.get(detail);
  const example = { count: 1, size, workspace: ws, args, istioctl: theirs, ours };
  if (seen) {
    seen.count++;
    if (size < seen.size) Object.assign(seen, { size, workspace: ws, args, istioctl: theirs, ours });
  } else if (byCause.details.size < EXAMPLES_PER_CAUSE) byCause.details.set(detail, example);
  else
    byCause.details.set(detail, {
      ...example,
      workspace: { files: [] },
      istioctl: { stdout: '', stderr: '', exit: 0 },
      ours: { stdout: '', stderr: '', exit: 0 },
      size: Infinity,
    });
  return 'ok';
}

function report(): TargetReport {
  server?.close();
  const differ = [...differences.values()].reduce((n, e) => n + e.count, 0);
  const ignoredCount = [...ignored.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `compared ${compared.toLocaleString('en-US')} inputs with istioctl in ${((Date.now() - t0) / 1000).toFixed(0)} s (${server?.runs ?? 0} analyze-oracle runs, ${server?.recycled ?? 0} fresh server processes, ${server?.restarts ?? 0} server crashes): ${identical.toLocaleString('en-US')} identical, ${ignoredCount.toLocaleString('en-US')} the same but for a known cause, ${differ.toLocaleString('en-US')} differ`,
    `inputs istioctl decoded whole (no decoding error): ${cleanCompared.toLocaleString('en-US')}, of which ${cleanDiffer.toLocaleString('en-US')} differ`,
    ...[...ignored].map(([c, n]) => `  ignored (known cause): ${n}  ${c}`),
    ...[...differences]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([c, e]) => `  differ: ${e.count} (${e.clean} decoded whole, ${e.details.size} distinct lines)  ${c}`),
  ];
  mkdirSync(join(ROOT, 'reports', 'oracle'), { recursive: true });
  const causes = Object.fromEntries(
    [...differences]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([c, e]) => [c, { count: e.count, decodedWhole: e.clean, details: Object.fromEntries([...e.details].sort((a, b) => b[1].count - a[1].count)) }]),
  );
  writeFileSync(
    REPORT_FILE,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        seconds: (Date.now() - t0) / 1000,
        compared,
        identical,
        ignored: Object.fromEntries(ignored),
        decodedWhole: cleanCompared,
        decodedWholeDiffer: cleanDiffer,
        differ,
        byCause: causes,
      },
      null,
      1,
    ),
  );
  lines.push(`counts, and the smallest input of each difference with both outputs: ${REPORT_FILE}`);
  const failure =
    compared === 0 ? 'compared nothing' : differ > 0 ? `${differ} inputs differ from istioctl for ${differences.size} causes not in the known list` : undefined;
  return { lines, ...(failure ? { failure } : {}) };
}

export const oracleAnalyzeTarget: Target<OracleAnalyzeCase> = {
  name: 'oracle-analyze',
  description: "analyze --istioctl against istioctl's analyze (analyze-oracle) on mutated workspaces: same stdout, stderr and exit code",
  arbitrary: oracleCaseArb,
  check,
  async: true,
  smokeRuns: 200,
  onlyWhenNamed: true,
  unavailable: () =>
    AnalyzeServer.available() ? undefined : `the analyze server is not built (${ANALYZE_ORACLE}; run npm run oracle -- build, which needs Go)`,
  report,
};
