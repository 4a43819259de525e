// `npm run oracle -- xds-fuzz-runs`: the `oracle-xds` fuzz target's runs added up. Each run writes
// its counts to reports/oracle/oracle-xds-runs/ as it goes (fuzz/targets/oracleXds.ts), so runs
// stopped before their end (a session ending) still count every input they finished. Runs of
// different seeds are different inputs; two runs of one seed repeat inputs, so only the longest
// run of each seed is counted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OracleXdsRunCounts } from '../../fuzz/targets/oracleXds.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const RUNS_DIR = join(ROOT, 'reports', 'oracle', 'oracle-xds-runs');
/**
 * Runs kept in the repository (copied from RUNS_DIR when a session ends), so the total survives
 * machines and clones; a run in both places is counted once (the longest run of its seed).
 */
export const RECORDED_DIR = join(ROOT, 'fuzz', 'records', 'oracle-xds');

/** The counts of a run that add up across runs. */
const SUMMED = ['inputs', 'compared', 'comparedProxies', 'comparedResources', 'identical', 'rejectedObjects', 'inputsWithRejected', 'seconds'] as const;

export type RunTotals = Pick<OracleXdsRunCounts, (typeof SUMMED)[number]> & {
  runs: OracleXdsRunCounts[];
  causes: Map<string, OracleXdsRunCounts['causes'][string]>;
};

/** The longest run of each seed, added up. */
export function addUpRuns(all: readonly OracleXdsRunCounts[]): RunTotals {
  const bySeed = new Map<string, OracleXdsRunCounts>();
  for (const r of all) {
    const key = String(r.seed);
    const had = bySeed.get(key);
    if (!had || r.inputs > had.inputs) bySeed.set(key, r);
  }
  const runs = [...bySeed.values()].sort((a, b) => a.started.localeCompare(b.started));
  const zero = Object.fromEntries(SUMMED.map((k) => [k, 0])) as Record<(typeof SUMMED)[number], number>;
  const t: RunTotals = { ...zero, runs, causes: new Map() };
  for (const r of runs) {
    for (const k of SUMMED) t[k] += r[k];
    for (const [cause, e] of Object.entries(r.causes)) {
      const had = t.causes.get(cause) ?? { inputs: 0, count: 0, known: e.known };
      had.inputs += e.inputs;
      had.count += e.count;
      had.known &&= e.known;
      t.causes.set(cause, had);
    }
  }
  return t;
}

/**
 * Signatures a run counted as unknown whose cause was settled afterwards, from their minimised
 * inputs (kept in fuzz/records/oracle-xds/minimised/) and Istio's source: the known cause that
 * now names them (docs/testing.md, the oracle-xds parts). Later runs name them themselves.
 */
export const SETTLED_SIGNATURES: Readonly<Record<string, string>> = {
  'listeners: defaultFilterChain.filterChainMatch': 'auto-port-on-sniffed-wildcard-release-1.31',
  'routes: virtualHosts[].domains[]': 'serviceentries-sharing-a-host',
};

function main(): void {
  const files = [RUNS_DIR, RECORDED_DIR].flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => join(dir, f))
      : [],
  );
  if (files.length === 0) {
    console.log(`No oracle-xds runs in ${RUNS_DIR} or ${RECORDED_DIR} (npm run fuzz -- --target oracle-xds --runs N --seed S writes them).`);
    return;
  }
  const t = addUpRuns(files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as OracleXdsRunCounts));
  const n = (x: number) => x.toLocaleString('en-US');
  for (const r of t.runs)
    console.log(
      `seed ${r.seed}: ${n(r.inputs)} inputs in ${n(r.seconds)} s${r.partial ? ' (stopped before its end; counts up to its last checkpoint)' : ''}, ${n(r.identical)} identical, started ${r.started}`,
    );
  console.log(
    `\noracle-xds, ${t.runs.length} runs: ${n(t.inputs)} inputs (${n(t.compared)} compared: ${n(t.comparedProxies)} proxies, ${n(t.comparedResources)} resources; ${n(t.identical)} identical), ${n(t.seconds)} s`,
  );
  console.log(`  Istio config refused by Istio's validation, left out on both sides: ${n(t.rejectedObjects)} objects in ${n(t.inputsWithRejected)} inputs`);
  for (const [cause, e] of [...t.causes].sort((a, b) => b[1].inputs - a[1].inputs)) {
    const settled = e.known ? undefined : SETTLED_SIGNATURES[cause];
    const state = e.known ? 'known' : settled ? 'settled' : 'differ';
    console.log(`  ${state}: ${n(e.inputs)} inputs, ${n(e.count)} resources  ${cause}${settled ? ` (unknown when run; since named ${settled})` : ''}`);
  }
  const unknown = [...t.causes].filter(([cause, e]) => !e.known && !SETTLED_SIGNATURES[cause]).length;
  if (unknown) console.log(`\n${unknown} causes not known (a run's report lists their minimised inputs: reports/oracle/fuzz-oracle-xds.json)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
