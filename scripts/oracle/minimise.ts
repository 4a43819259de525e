// Minimises an input of the `oracle-analyze` fuzz target: removes flags, files, documents and
// lines while our `analyze --istioctl` still differs from istioctl's for the same cause
// (differenceCause), and prints the smallest input with both outputs.
//
//   node --import tsx scripts/oracle/minimise.ts REPORT.json [CAUSE-SUBSTRING [DETAIL-SUBSTRING]]
//
// REPORT.json is reports/oracle/fuzz-oracle-analyze.json (the most frequent example of each cause
// is minimised, or of the causes containing CAUSE-SUBSTRING; with DETAIL-SUBSTRING, every example
// whose detail contains it), reports/oracle/analyze.json (each differing workspace whose causes
// contain CAUSE-SUBSTRING, or whose id contains DETAIL-SUBSTRING, run with -v), or a file holding
// one {workspace, args}.
import { readFileSync } from 'node:fs';
import { AnalyzeServer, materialise, removeDir, runOurs, compareRuns, type OracleWorkspace, type RunResult } from './analyzeServer.ts';
import { differenceCause } from '../../fuzz/targets/oracleAnalyze.ts';

interface Input {
  workspace: OracleWorkspace;
  args: string[];
}

const server = new AnalyzeServer();

async function both(i: Input): Promise<{ theirs: RunResult; ours: RunResult }> {
  const dir = materialise(i.workspace);
  try {
    const [theirs, ours] = await Promise.all([server.run(i.workspace, i.args), runOurs(dir, i.workspace, i.args)]);
    return { theirs, ours };
  } finally {
    removeDir(dir);
  }
}

async function causeOf(i: Input): Promise<string | undefined> {
  const { theirs, ours } = await both(i);
  return compareRuns(theirs, ours).same ? undefined : differenceCause(theirs, ours).cause;
}

const clone = (i: Input): Input => JSON.parse(JSON.stringify(i));

/** Splits a flag list into units: a flag with its value, or a lone flag. */
function argUnits(args: string[]): string[][] {
  const withValue = new Set(['-n', '-S', '-o', '--meshConfigFile', '--output-threshold', '--failure-threshold']);
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) out.push(withValue.has(args[i] as string) ? [args[i] as string, args[++i] as string] : [args[i] as string]);
  return out;
}

async function minimise(start: Input, cause: string): Promise<Input> {
  let cur = clone(start);
  const keeps = async (c: Input) => (await causeOf(c)) === cause;
  // Flags.
  let units = argUnits(cur.args);
  for (let i = units.length - 1; i >= 0; i--) {
    const tryUnits = units.filter((_, j) => j !== i);
    const c = { ...clone(cur), args: tryUnits.flat() };
    if (units[i]![0] === '--meshConfigFile') c.workspace.files = c.workspace.files.filter((f) => f.name !== units[i]![1]);
    if (await keeps(c)) {
      cur = c;
      units = tryUnits;
    }
  }
  // Files.
  for (let i = cur.workspace.files.length - 1; i >= 0 && cur.workspace.files.length > 1; i--) {
    const name = cur.workspace.files[i]!.name;
    const c = clone(cur);
    c.workspace.files.splice(i, 1);
    if (c.workspace.paths) c.workspace.paths = c.workspace.paths.filter((p) => p !== name);
    if (c.workspace.paths && c.workspace.paths.length === 0) continue;
    if (await keeps(c)) cur = c;
  }
  // Documents, then lines (chunks halving down to one line), per file.
  for (let f = 0; f < cur.workspace.files.length; f++) {
    const docs = cur.workspace.files[f]!.text.split(/^---\n/m);
    for (let d = docs.length - 1; d >= 0 && docs.length > 1; d--) {
      const c = clone(cur);
      const rest = docs.filter((_, j) => j !== d);
      c.workspace.files[f]!.text = rest.join('---\n');
      if (await keeps(c)) {
        cur = c;
        docs.splice(d, 1);
      }
    }
    for (let chunk = 8; chunk >= 1; chunk = Math.floor(chunk / 2)) {
      let lines = cur.workspace.files[f]!.text.split('\n');
      for (let at = lines.length - chunk; at >= 0; at -= 1) {
        const c = clone(cur);
        const next = [...lines.slice(0, at), ...lines.slice(at + chunk)];
        c.workspace.files[f]!.text = next.join('\n');
        if (await keeps(c)) {
          cur = c;
          lines = next;
          at = Math.min(at, lines.length - chunk + 1);
        }
      }
    }
  }
  return cur;
}

async function main(): Promise<void> {
  const [file, causeFilter, detailFilter] = process.argv.slice(2);
  if (!file) throw new Error('usage: minimise.ts REPORT.json [CAUSE-SUBSTRING [DETAIL-SUBSTRING]]');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const inputs: Input[] = [];
  if (data.byCause && !Array.isArray(data.results)) {
    for (const [cause, c] of Object.entries<{ details: Record<string, Input & { size: number }> }>(data.byCause)) {
      if (causeFilter && !cause.includes(causeFilter)) continue;
      for (const [detail, e] of Object.entries(c.details)) {
        if (detailFilter && !detail.includes(detailFilter)) continue;
        if (e.workspace.files.length > 0) inputs.push({ workspace: e.workspace, args: e.args });
        if (!detailFilter) break; // the first (most frequent) detail of each cause
      }
    }
  } else if (Array.isArray(data.results)) {
    // reports/oracle/analyze.json: the differing workspaces whose causes contain CAUSE-SUBSTRING, run with -v.
    for (const r of data.results as Array<{ agree: boolean; causes: string[]; id: string; input?: Input }>) {
      if (r.agree || !r.input || (causeFilter && !r.causes.some((c) => c.includes(causeFilter)))) continue;
      if (detailFilter && !r.id.includes(detailFilter)) continue;
      inputs.push({ workspace: r.input.workspace, args: [...r.input.args, '-v'] });
    }
  } else inputs.push({ workspace: data.workspace, args: data.args });
  for (const i of inputs) {
    const cause = await causeOf(i);
    if (!cause) {
      console.log('no longer differs');
      continue;
    }
    const m = await minimise(i, cause);
    const { theirs, ours } = await both(m);
    console.log(JSON.stringify({ cause, detail: differenceCause(theirs, ours).detail, workspace: m.workspace, args: m.args, istioctl: theirs, ours }, null, 1));
  }
  server.close();
}

await main();
