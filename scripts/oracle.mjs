// The differential oracle (issue #29): Istio's own istioctl and istiod config generator, built
// from Istio's Go module (oracle/), against our CLI and generator.
//
//   npm run oracle -- build                  build the Go side (cached; rebuilt when oracle/ changes)
//   npm run oracle -- analyze [--limit N] [-A] [--fuzzed N] [--seed S] [--no-server]
//                                            istioctl analyze --use-kube=false against our analyze --istioctl
//                                            (conformance cases, our samples, Istio's samples, fuzzed workspaces)
//   npm run oracle -- xds [--limit N]        xds-oracle (istiod's generator) against ours, per proxy
//   npm run oracle -- proxy-config [--limit N]  istioctl proxy-config -f against ours on dumps of xds-oracle's config
//   npm run oracle -- server-check           the analyze server (analyze-oracle) against the istioctl binary
//   npm run oracle -- describe [--samples]   istioctl's x describe pod (describe-oracle) against ours, per pod
//
// The binaries live outside the repository, in ~/.cache/mesh-workbench-oracle/bin (or
// $MESH_WORKBENCH_ORACLE_CACHE/bin), with a stamp of everything they are built from (oracle/go.mod,
// go.sum, every .go file under oracle/ and `go version`). Full results go to reports/oracle/.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ORACLE = join(ROOT, 'oracle');
const CACHE = process.env.MESH_WORKBENCH_ORACLE_CACHE || join(homedir(), '.cache', 'mesh-workbench-oracle');
export const BIN = join(CACHE, 'bin');
export const ISTIOCTL = join(BIN, 'istioctl');
export const XDS_ORACLE = join(BIN, 'xds-oracle');
export const ANALYZE_ORACLE = join(BIN, 'analyze-oracle');
export const DESCRIBE_ORACLE = join(BIN, 'describe-oracle');
const STAMP = join(CACHE, 'stamp.json');
const REPORTS = join(ROOT, 'reports', 'oracle');
const CONFORMANCE = resolve(ROOT, '..', 'shared', 'conformance', 'analyzers');
const SAMPLES = join(ROOT, 'public', 'samples');
const CLI = join(ROOT, 'bin', 'mesh-workbench.js');
// Our CLI runs in the mode that promises istioctl's output byte for byte (issue #30).
// The seed of the fuzzed workspaces (`--fuzzed N`, `--seed S`).
const FUZZED_SEED = 20261206;

// ---- build ---------------------------------------------------------------------------------

function goFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...goFiles(p));
    else if (e.name.endsWith('.go')) out.push(p);
  }
  return out;
}

function goVersion() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (r.error) {
    console.error(
      'oracle: `go` was not found on PATH. The oracle needs Go 1.26 (https://go.dev/dl/) and the Go module proxy\n' +
        '(GOPROXY, by default https://proxy.golang.org) to fetch istio.io/istio and its dependencies.',
    );
    process.exit(2);
  }
  return r.stdout.trim();
}

function stampOf(version) {
  const h = createHash('sha256');
  h.update(version);
  const files = ['go.mod', 'go.sum', ...goFiles(ORACLE).map((f) => relative(ORACLE, f))].sort();
  for (const f of new Set(files)) {
    const p = join(ORACLE, f);
    h.update(`\0${f}\0`);
    if (existsSync(p)) h.update(readFileSync(p));
  }
  return h.digest('hex');
}

/** Builds istioctl, xds-oracle, analyze-oracle and describe-oracle unless the stamp says they are current. */
export function ensureBuilt({ force = false } = {}) {
  const version = goVersion();
  const stamp = stampOf(version);
  let old = '';
  try {
    old = JSON.parse(readFileSync(STAMP, 'utf8')).stamp;
  } catch {
    // no stamp yet
  }
  if (!force && old === stamp && existsSync(ISTIOCTL) && existsSync(XDS_ORACLE) && existsSync(ANALYZE_ORACLE) && existsSync(DESCRIBE_ORACLE)) return;
  mkdirSync(BIN, { recursive: true });
  console.log(
    `oracle: building istioctl, xds-oracle, analyze-oracle and describe-oracle with ${version} into ${BIN} (the first build downloads Istio's modules and compiles them: about 15 minutes on a busy 2-core machine; later builds take seconds)`,
  );
  const t0 = Date.now();
  const builds = [
    ['istioctl', 'istio.io/istio/istioctl/cmd/istioctl'],
    ['xds-oracle', './cmd/xds-oracle'],
    ['analyze-oracle', './cmd/analyze-oracle'],
    ['describe-oracle', './cmd/describe-oracle'],
  ];
  for (const [name, pkg] of builds) {
    const t = Date.now();
    const r = spawnSync('go', ['build', '-mod=readonly', '-o', join(BIN, name), pkg], { cwd: ORACLE, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(
        `oracle: go build ${pkg} failed (exit ${r.status}). If a module could not be downloaded, the Go module proxy did not serve it: see the go error above.`,
      );
      process.exit(1);
    }
    console.log(`oracle: built ${name} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  writeFileSync(STAMP, JSON.stringify({ stamp, version, builtAt: new Date().toISOString() }, null, 2));
  console.log(`oracle: build took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---- running processes ---------------------------------------------------------------------

/** Runs a command, resolving to { code, stdout, stderr } (never rejects). */
export function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...(opts.env ?? {}) } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', (e) => resolvePromise({ code: -1, stdout, stderr: stderr + String(e) }));
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

/** Maps over items with at most `n` running at once, in order. */
export async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

// ---- analyze -------------------------------------------------------------------------------

/** The workspaces: every distinct conformance case input, then every sample directory. */
function analyzeWorkspaces() {
  const out = [];
  const casesFile = join(CONFORMANCE, 'cases.json');
  if (existsSync(casesFile)) {
    const seen = new Set();
    for (const c of JSON.parse(readFileSync(casesFile, 'utf8'))) {
      if (!c.inputFiles || c.inputFiles.length === 0) continue; // multi-cluster cases have no single file set
      const key = JSON.stringify([c.inputFiles, c.meshConfigFile ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        id: `conformance/${c.id}`,
        files: c.inputFiles.map((f) => join(CONFORMANCE, f)),
        meshConfigFile: c.meshConfigFile ? join(CONFORMANCE, c.meshConfigFile) : undefined,
        // istioctl analyze has no --meshNetworksFile; the one case with mesh networks runs without them on both sides.
        note: c.meshNetworksFile ? 'meshNetworksFile not passed (istioctl analyze has no such flag)' : undefined,
      });
    }
  } else {
    console.log(`oracle: ${CONFORMANCE} is missing: the conformance workspaces are skipped`);
  }
  for (const d of readdirSync(SAMPLES).sort()) {
    const dir = join(SAMPLES, d);
    if (!statSync(dir).isDirectory()) continue;
    const files = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f) && f !== 'route-tests.yaml')
      .sort()
      .map((f) => join(dir, f));
    if (files.length > 0) out.push({ id: `samples/${d}`, files });
  }
  return out;
}

/** The JSON array printed on stdout; istioctl may log a line or two before it (a mesh config warning). */
function parseJsonArray(text) {
  const at = text.startsWith('[') ? 0 : text.indexOf('\n[') + 1;
  if (at < 0 || (at === 0 && !text.startsWith('['))) return undefined;
  try {
    const v = JSON.parse(text.slice(at));
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

// What a message is compared on: code, level, resource, text and file:line (and, in the log
// output, each message line as printed, in order). Not compared:
// documentationUrl, which differs for one systematic reason: istioctl links the docs of its own
// release (https://istio.io/v1.30/docs/…), ours links https://istio.io/latest/docs/… (counted
// separately in the report as `docUrlDiffers`).
const msgKey = (m) => `${m.code} ${m.level} ${m.origin ?? ''} | ${m.message} @${m.reference ?? ''}`;
const docPath = (m) => String(m.documentationUrl ?? '').replace(/^https:\/\/istio\.io\/[^/]+\//, '');

function multisetDiff(a, b, key) {
  const left = new Map();
  for (const x of a) left.set(key(x), [...(left.get(key(x)) ?? []), x]);
  const onlyB = [];
  for (const x of b) {
    const l = left.get(key(x));
    if (l && l.length > 0) l.shift();
    else onlyB.push(x);
  }
  const onlyA = [...left.values()].flat();
  return { onlyA, onlyB };
}

function skippedAnalyzers(verboseLog) {
  const m = /Skipped analyzers:\n((?:\t.*\n)*)/.exec(verboseLog);
  return m
    ? m[1]
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

function executedAnalyzers(verboseLog) {
  const m = /Executed analyzers:\n((?:\t.*\n)*)/.exec(verboseLog);
  return m
    ? m[1]
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

// Messages istioctl writes in Go map order: which conflict IST0109/IST0177 name for a resource in
// several, and IST0175's list of RequestAuthentications (see docs/testing.md, the metamorphic
// fuzz target). istioctl's own output varies from run to run there.
const MAP_ORDER_CODES = new Set(['IST0109', 'IST0175', 'IST0177']);
const MAP_ORDER_CAUSE = "Go map order in istioctl's message (IST0109/IST0175/IST0177 vary from run to run)";

/** Why one message pair differs, or why a message is on one side only. */
function causeOf(side, m, other, allNamespaces) {
  const same = other.find((o) => o.code === m.code && o.origin === m.origin);
  if (same && same.message !== m.message && MAP_ORDER_CODES.has(m.code)) return MAP_ORDER_CAUSE;
  if (same && same.message !== m.message) return `message text differs (${m.code})`;
  if (same && same.reference !== m.reference) return `reference line differs (${m.code})`;
  if (same && same.level !== m.level) return `level differs (${m.code})`;
  if (side === 'ours' && m.code === 'IST0106') return 'IST0106 schema finding istioctl does not make';
  const ns = /^\S+ ([^/]+)\//.exec(m.origin ?? '')?.[1];
  if (side === 'ours' && !allNamespaces && ns && ns !== 'default')
    return 'namespace filter: without -A istioctl reports only namespace "default", ours every namespace (a documented choice)';
  return `${side === 'ours' ? 'only ours' : 'only istioctl'}: ${m.code}`;
}

// The analyze oracle's helpers (scripts/oracle/analyzeServer.ts: the analyze server, our CLI in
// process, byte comparison) and the fuzzed workspaces (fuzz/targets/oracleAnalyze.ts) are
// TypeScript, loaded through tsx.
async function loadTs() {
  const { register } = await import('tsx/esm/api');
  register();
  const server = await import('./oracle/analyzeServer.ts');
  const fuzz = await import('../fuzz/targets/oracleAnalyze.ts');
  return { server, fuzz };
}

/** Istio's samples/ directory in the Go module cache, at the version oracle/go.mod requires. */
function istioSamplesDir() {
  const version = /istio\.io\/istio (v\S+)/.exec(readFileSync(join(ORACLE, 'go.mod'), 'utf8'))?.[1];
  const r = spawnSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' });
  const cache = r.status === 0 && r.stdout.trim() ? r.stdout.trim() : join(homedir(), 'go', 'pkg', 'mod');
  return version ? join(cache, 'istio.io', `istio@${version}`, 'samples') : undefined;
}

function walkFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

const MANIFEST = /\.(ya?ml|json)$/;

/**
 * Every workspace of `oracle analyze`, in memory: files with names relative to a directory that
 * both sides run in (so references print alike), the command-line paths, and the workspace's own
 * arguments. Sources: the conformance cases and our samples (as before), Istio's samples (each
 * manifest alone, and each directory, recursively, passed as a directory), and fuzzed workspaces
 * (the `oracle-analyze` fuzz target's generator, that is the `pipeline` target's mutated
 * workspaces, from a fixed seed). Deduplicated by content.
 */
async function analyzeSources(opts, fuzz) {
  const sources = [];
  const add = (source, ws) => sources.push({ source, args: [], ...ws });
  for (const ws of analyzeWorkspaces()) {
    const base = ws.id.startsWith('conformance/') ? CONFORMANCE : SAMPLES;
    const nameOf = (f) => relative(base, f);
    const files = ws.files.map((f) => ({ name: nameOf(f), text: readFileSync(f, 'utf8') }));
    const paths = files.map((f) => f.name);
    const args = [];
    if (ws.meshConfigFile) {
      files.push({ name: nameOf(ws.meshConfigFile), text: readFileSync(ws.meshConfigFile, 'utf8') });
      args.push('--meshConfigFile', nameOf(ws.meshConfigFile));
    }
    add(ws.id.split('/')[0], { id: ws.id, files, paths, args, ...(ws.note ? { note: ws.note } : {}) });
  }
  const istio = istioSamplesDir();
  if (istio && existsSync(istio)) {
    const all = walkFiles(istio).filter((f) => statSync(f).size <= 1 << 20);
    const text = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
    const name = (f) => join('samples', relative(istio, f));
    for (const f of all) if (MANIFEST.test(f)) add('istio-samples/file', { id: `istio-${name(f)}`, files: [{ name: name(f), text: text.get(f) }] });
    // Each directory with a manifest below it, Istio's samples/ itself included, as a directory argument.
    const dirs = new Set([istio]);
    for (const f of all) if (MANIFEST.test(f)) for (let d = dirname(f); d.startsWith(istio) && d !== istio; d = dirname(d)) dirs.add(d);
    for (const d of [...dirs].sort()) {
      const files = all.filter((f) => f.startsWith(`${d}/`)).map((f) => ({ name: name(f), text: text.get(f) }));
      add('istio-samples/dir', { id: `istio-${name(d)}/`, files, paths: [name(d)] });
    }
  } else {
    console.log(
      `oracle: Istio's samples (${istio ?? 'istio.io/istio not in oracle/go.mod'}) are not in the Go module cache: run npm run oracle -- build first; skipped`,
    );
  }
  // Dedupe by content.
  const seen = new Set();
  const out = [];
  const dropped = new Map();
  const keyOf = (ws) =>
    createHash('sha256')
      .update(JSON.stringify([ws.files.map((f) => [f.name, f.text]), ws.paths ?? null, ws.args]))
      .digest('hex');
  for (const ws of sources) {
    const k = keyOf(ws);
    if (seen.has(k)) {
      dropped.set(ws.source, (dropped.get(ws.source) ?? 0) + 1);
      continue;
    }
    seen.add(k);
    out.push(ws);
  }
  // Fuzzed workspaces: 1,400 distinct by default (or --fuzzed N of them), so that with the other
  // sources more than 1,000 workspaces agree (most fuzzed workspaces that differ hold a YAML
  // syntax error go-yaml words otherwise; see docs/testing.md).
  const want = opts.fuzzed ?? 1400;
  if (want > 0) {
    const { default: fc } = await import('fast-check');
    const { loadSeeds } = await import('../fuzz/gen/seeds.ts');
    const arb = fuzz.oracleCaseArb(loadSeeds());
    let got = 0;
    for (let round = 0; got < want && round < 20; round++) {
      for (const c of fc.sample(arb, { seed: opts.seed + round, numRuns: want })) {
        if (got >= want) break;
        // The case's workspace, namespace, suppressions and mesh config; the output flags are ours to choose.
        const { ws, args } = fuzz.toOracleRun({
          ...c,
          flags: { format: 'log', verbose: false, allNamespaces: c.flags.allNamespaces, outputThreshold: null, failureThreshold: null },
        });
        const w = { source: 'fuzzed', id: `fuzzed/${opts.seed}+${round}/${got}`, files: ws.files, paths: ws.paths, args };
        const k = keyOf(w);
        if (seen.has(k)) {
          dropped.set('fuzzed', (dropped.get('fuzzed') ?? 0) + 1);
          continue;
        }
        seen.add(k);
        out.push(w);
        got++;
      }
    }
  }
  return { workspaces: out, dropped };
}

/** The two sides: istioctl (the analyze server, else the binary) and ours (in process). */
function makeSides(server, opts) {
  const useServer = !opts.noServer && existsSync(ANALYZE_ORACLE);
  const srv = useServer ? new server.AnalyzeServer(ANALYZE_ORACLE) : undefined;
  return {
    how: useServer ? `analyze-oracle (${ANALYZE_ORACLE})` : `the istioctl binary, one process per run (${ISTIOCTL})`,
    istioctl: (dir, ws, args) => (srv ? srv.run(ws, args) : server.runIstioctlBinary(dir, ws, args, ISTIOCTL)),
    ours: (dir, ws, args) => server.runOurs(dir, ws, args),
    close: () => srv?.close(),
  };
}

async function compareWorkspace(ws, opts, sides, lib) {
  const common = [...ws.args, ...(opts.allNamespaces && !ws.args.includes('-A') ? ['-A'] : [])];
  const dir = lib.server.materialise(ws);
  try {
    const rec = await compareIn(dir, ws, common, opts, sides, lib);
    // The input of a difference, for scripts/oracle/minimise.ts (not the large sample directories).
    if (!rec.agree && ws.files.reduce((n, f) => n + f.text.length, 0) < 200_000)
      rec.input = { workspace: { files: ws.files, paths: ws.paths ?? ws.files.map((f) => f.name) }, args: common };
    return rec;
  } finally {
    lib.server.removeDir(dir);
  }
}

async function compareIn(dir, ws, common, opts, sides, lib) {
  const toRun = (r) => ({ code: r.exit, stdout: r.stdout, stderr: r.stderr });
  const [ijr, ivr, ojr, ovr] = await Promise.all([
    sides.istioctl(dir, ws, ['-o', 'json', ...common]),
    sides.istioctl(dir, ws, ['-v', ...common]),
    sides.ours(dir, ws, ['-o', 'json', ...common]),
    sides.ours(dir, ws, ['-v', ...common]),
  ]);
  const [ij, iv, oj, ol] = [ijr, ivr, ojr, ovr].map(toRun);
  const theirs = parseJsonArray(ij.stdout);
  const ours = parseJsonArray(oj.stdout);
  // Byte for byte (time stamps aside, and the text of map-order messages), with -v and with -o json.
  const bytesJson = lib.server.compareRuns(ijr, ojr);
  const bytesLog = lib.server.compareRuns(ivr, ovr);
  const bytesSame = bytesJson.same && bytesLog.same;
  const byteCause = bytesSame ? undefined : (!bytesLog.same ? lib.fuzz.differenceCause(ivr, ovr) : lib.fuzz.differenceCause(ijr, ojr)).cause;
  const rec = {
    id: ws.id,
    source: ws.source,
    files: ws.files.map((f) => f.name),
    ...(ws.paths && ws.paths.join() !== ws.files.map((f) => f.name).join() ? { paths: ws.paths } : {}),
    ...(ws.args.length ? { args: ws.args } : {}),
    ...(ws.note ? { note: ws.note } : {}),
    istioctl: { exitLog: iv.code, exitJson: ij.code, stderr: ij.stderr.trim(), messages: theirs ?? ij.stdout },
    ours: { exitLog: ol.code, exitJson: oj.code, stderr: oj.stderr.trim(), messages: ours ?? oj.stdout },
    ...([bytesJson.ignored, bytesLog.ignored].some(Boolean) ? { ignoredKnownCause: [...new Set([bytesJson.ignored, bytesLog.ignored].filter(Boolean))] } : {}),
    causes: [],
  };
  if (!theirs || !ours) {
    rec.causes.push(!theirs ? `istioctl printed no JSON (exit ${ij.code})` : `ours printed no JSON (exit ${oj.code})`);
    if (byteCause && /^(ours threw|decoding error)/.test(byteCause)) rec.causes[0] = byteCause;
    else if (!theirs && /Error\(s\) adding files/.test(ij.stderr)) rec.causes[0] = 'istioctl could not read a document (Error(s) adding files, exit 65)';
    if (byteCause) rec.outputDiffers = { json: !bytesJson.same, log: !bytesLog.same, cause: byteCause, istioctlLog: ivr, oursLog: ovr };
    rec.agree = false;
    return rec;
  }
  const { onlyA: onlyTheirs, onlyB: onlyOurs } = multisetDiff(theirs, ours, msgKey);
  const exitSame = iv.code === ol.code;
  const stdoutPrefix = ij.stdout.startsWith('[') ? '' : ij.stdout.slice(0, ij.stdout.indexOf('\n[') + 1).trim();
  if (stdoutPrefix) rec.istioctl.stdoutBeforeJson = stdoutPrefix;
  // Same message, other documentation page (not only the release part of the address).
  rec.docUrlDiffers = theirs.some((m) => ours.some((o) => msgKey(o) === msgKey(m) && docPath(o) !== docPath(m)));
  // The log output's message lines, in order (istioctl sorts them): text and order as printed.
  const logLines = (t) => t.split('\n').filter((l) => /^(Error|Warning|Info) \[IST\d+\]/.test(l));
  const theirLog = logLines(iv.stdout);
  const ourLog = logLines(ol.stdout);
  const logSame = theirLog.length === ourLog.length && theirLog.every((l, i) => l === ourLog[i]);
  if (!logSame) rec.log = { istioctl: theirLog, ours: ourLog };
  const messagesSame = onlyTheirs.length === 0 && onlyOurs.length === 0;
  rec.agree = messagesSame && exitSame && !rec.docUrlDiffers && logSame && bytesSame;
  if (rec.agree) {
    if (stdoutPrefix) rec.note = `istioctl logged before its JSON: ${stdoutPrefix.split('\n')[0]}`;
    return rec;
  }
  if (!bytesSame)
    rec.outputDiffers = {
      json: !bytesJson.same,
      log: !bytesLog.same,
      cause: byteCause,
      ...(!bytesLog.same ? { istioctlLog: ivr, oursLog: ovr } : { istioctlJson: ijr, oursJson: ojr }),
    };
  rec.onlyIstioctl = onlyTheirs;
  rec.onlyOurs = onlyOurs;
  const causes = new Set();
  // A decoding difference or an exception of ours explains everything after it.
  if (byteCause && /^(ours threw|decoding error)/.test(byteCause)) causes.add(byteCause);
  // Attribution: istioctl's file mode skips analyzers whose inputs include kinds its reader drops.
  // Run ours again with only the analyzers istioctl ran; what agrees then differed for that reason.
  const skipped = skippedAnalyzers(iv.stdout + iv.stderr);
  rec.istioctlSkipped = skipped;
  let restrictedOurs = ours;
  if (skipped.length > 0 && !messagesSame) {
    const ran = executedAnalyzers(iv.stdout + iv.stderr).filter((a) => !skipped.includes(a));
    const r = await sides.ours(dir, ws, ['-o', 'json', ...ran.flatMap((a) => ['--analyzer', a]), ...common]);
    restrictedOurs = parseJsonArray(r.stdout) ?? ours;
  }
  const restricted = multisetDiff(theirs, restrictedOurs, msgKey);
  const skippedOnly = multisetDiff(ours, restrictedOurs, msgKey).onlyA;
  if (causes.size === 0) {
    if (skippedOnly.length > 0 && onlyOurs.length > 0) causes.add("istioctl's file mode skipped the analyzers (kinds its reader drops)");
    for (const m of restricted.onlyB) causes.add(causeOf('ours', m, restricted.onlyA, opts.allNamespaces));
    for (const m of restricted.onlyA) causes.add(causeOf('istioctl', m, restricted.onlyB, opts.allNamespaces));
    if (/Error\(s\) adding files/.test(ij.stderr + iv.stderr) && byteCause) causes.add(byteCause);
    if (rec.docUrlDiffers) causes.add('documentation URL differs beyond the release');
    if (!logSame && messagesSame) {
      const differing = theirLog
        .filter((l) => !ourLog.includes(l))
        .concat(ourLog.filter((l) => !theirLog.includes(l)))
        .map((l) => /\[(IST\d+)\]/.exec(l)?.[1]);
      causes.add(differing.length > 0 && differing.every((c) => MAP_ORDER_CODES.has(c ?? '')) ? MAP_ORDER_CAUSE : 'log output differs (same JSON messages)');
    }
    // An exit code is a cause of its own only when the messages agree; otherwise it follows from them.
    if (!exitSame && messagesSame) causes.add(`exit code: istioctl ${iv.code}, ours ${ol.code}`);
    // Same messages, log lines and exit code, other bytes (the summary line, -v's lists, a warning).
    if (causes.size === 0 && !bytesSame) causes.add(`output bytes: ${byteCause}`);
  }
  if (!exitSame && !messagesSame) rec.exitFollowsMessages = `istioctl ${iv.code}, ours ${ol.code}`;
  rec.causes = [...causes];
  return rec;
}

async function analyzeCommand(opts) {
  ensureBuilt();
  const lib = await loadTs();
  const t0 = Date.now();
  const { workspaces: all, dropped } = await analyzeSources(opts, lib.fuzz);
  const workspaces = opts.limit ? all.slice(0, opts.limit) : all;
  const sides = makeSides(lib.server, opts);
  console.log(
    `oracle: ${workspaces.length} distinct workspaces (${[...countBy(workspaces, (w) => w.source)].map(([s, n]) => `${s} ${n}`).join(', ')}; duplicates dropped: ${[...dropped].map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}); istioctl through ${sides.how}`,
  );
  let results;
  try {
    results = await pool(workspaces, opts.jobs, (ws) => compareWorkspace(ws, opts, sides, lib));
  } finally {
    sides.close();
  }
  const agree = results.filter((r) => r.agree).length;
  const byCause = new Map();
  for (const r of results) for (const c of r.causes) byCause.set(c, [...(byCause.get(c) ?? []), r.id]);
  const unattributed = results.filter((r) => !r.agree && r.causes.length === 0).map((r) => r.id);
  const perSource = [...countBy(results, (r) => r.source)].map(([s, n]) => ({
    source: s,
    workspaces: n,
    agree: results.filter((r) => r.source === s && r.agree).length,
  }));
  const ignoredKnown = countBy(
    results.flatMap((r) => (r.agree ? (r.ignoredKnownCause ?? []) : [])),
    (c) => c,
  );
  mkdirSync(REPORTS, { recursive: true });
  const out = join(REPORTS, opts.allNamespaces ? 'analyze-all-namespaces.json' : 'analyze.json');
  writeFileSync(
    out,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        allNamespaces: !!opts.allNamespaces,
        fuzzSeed: opts.seed,
        istioctl: sides.how,
        perSource,
        agree,
        differ: results.length - agree,
        agreeIgnoringKnownCauses: Object.fromEntries(ignoredKnown),
        byCause: Object.fromEntries(byCause),
        unattributed,
        results,
      },
      null,
      1,
    ),
  );
  for (const r of results) {
    if (r.agree || (r.source === 'fuzzed' && !opts.verbose)) continue;
    const sample = [
      ...(r.onlyIstioctl ?? []).slice(0, 2).map((m) => `  - istioctl: ${m.code} ${m.origin ?? ''}: ${m.message}`),
      ...(r.onlyOurs ?? []).slice(0, 2).map((m) => `  + ours:     ${m.code} ${m.origin ?? ''}: ${m.message}`),
    ];
    console.log(`DIFFER ${r.id}: ${r.causes.join('; ')}`);
    for (const l of sample) console.log(l.length > 200 ? `${l.slice(0, 197)}...` : l);
  }
  console.log('\nDifferences by cause (workspaces):');
  for (const [c, ids] of [...byCause].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${String(ids.length).padStart(4)}  ${c}`);
  if (unattributed.length) console.log(`  ${String(unattributed.length).padStart(4)}  NO CAUSE FOUND: ${unattributed.join(', ')}`);
  if (ignoredKnown.size) console.log(`Agreeing only once a known cause is set aside: ${[...ignoredKnown].map(([c, n]) => `${n} (${c})`).join(', ')}`);
  console.log('\nBy source:');
  for (const s of perSource)
    console.log(`  ${s.source.padEnd(20)} ${String(s.workspaces).padStart(5)} workspaces: ${s.agree} agree, ${s.workspaces - s.agree} differ`);
  console.log(
    `\nanalyze${opts.allNamespaces ? ' (-A)' : ''}: ${agree} agree, ${results.length - agree} differ (${results.length} workspaces, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)})`,
  );
}

function countBy(items, key) {
  const m = new Map();
  for (const x of items) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

/**
 * `npm run oracle -- server-check`: the analyze server against the istioctl binary, on the
 * conformance and sample workspaces, with several argument lists run one after another in the
 * same server (so flag state leaking from one run to the next would show): stdout, stderr and
 * exit code must be identical, log time stamps aside.
 */
async function serverCheckCommand(opts) {
  ensureBuilt();
  const lib = await loadTs();
  const { workspaces: all } = await analyzeSources({ ...opts, fuzzed: opts.fuzzed ?? 0 }, lib.fuzz);
  const workspaces = all.filter((w) => opts.all || w.source === 'conformance' || w.source === 'samples').slice(0, opts.limit ?? Infinity);
  const ARGS = [
    ['-o', 'json'],
    ['-v'],
    [],
    ['--failure-threshold', 'Info', '-o', 'yaml', '-A'],
    [],
    ['--output-threshold', 'Error', '-S', 'IST0101=*'],
    ['-o', 'json'],
  ];
  const srv = new lib.server.AnalyzeServer(ANALYZE_ORACLE);
  const t0 = Date.now();
  let same = 0;
  let ignoredTimestamps = 0;
  const mapOrder = [];
  const differ = [];
  try {
    await pool(workspaces, opts.jobs, async (ws) => {
      const dir = lib.server.materialise(ws);
      try {
        for (const a of ARGS) {
          const args = [...ws.args, ...a];
          const [s, b] = await Promise.all([srv.run(ws, args), lib.server.runIstioctlBinary(dir, ws, args, ISTIOCTL)]);
          const strip = (r) => ({ ...r, stdout: lib.server.stripTimestamps(r.stdout), stderr: lib.server.stripTimestamps(r.stderr) });
          const exact = s.exit === b.exit && s.stdout === b.stdout && s.stderr === b.stderr;
          const [x, y] = [strip(s), strip(b)];
          // istioctl names one of several unknown fields of an EnvoyFilter patch in Go map order:
          // two runs of the binary differ there too.
          const anyField = (t) => t.replace(/unknown field "[^"]*"/g, 'unknown field "…"').replace(/\s+/g, ' ');
          if (exact) same++;
          else if (x.exit === y.exit && x.stdout === y.stdout && x.stderr === y.stderr) {
            same++;
            ignoredTimestamps++;
          } else if (x.exit === y.exit && anyField(x.stdout) === anyField(y.stdout) && anyField(x.stderr) === anyField(y.stderr)) {
            same++;
            mapOrder.push({ id: ws.id, args });
          } else differ.push({ id: ws.id, args, server: s, binary: b });
        }
      } finally {
        lib.server.removeDir(dir);
      }
    });
  } finally {
    srv.close();
  }
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(
    join(REPORTS, 'server-check.json'),
    JSON.stringify(
      {
        when: new Date().toISOString(),
        workspaces: workspaces.length,
        runs: same + differ.length,
        same,
        ignoredTimestamps,
        unknownFieldMapOrder: mapOrder,
        differ,
      },
      null,
      1,
    ),
  );
  for (const d of differ) console.log(`DIFFER ${d.id} ${JSON.stringify(d.args)}: exit ${d.server.exit} vs ${d.binary.exit}`);
  console.log(
    `server-check: ${same} of ${same + differ.length} runs identical (${ignoredTimestamps} once log time stamps are set aside, ${mapOrder.length} once the unknown field istioctl names in Go map order is), ${differ.length} differ; ${workspaces.length} workspaces x ${ARGS.length} argument lists, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}

// ---- validate ------------------------------------------------------------------------------

/**
 * `npm run oracle -- validate [--limit N] [--jobs N]`: istioctl validate -f FILE against ours on
 * every file of the analyze workspaces (conformance cases and samples), one file per run; the
 * outputs (stdout, stderr, exit code) must be identical. Differences are sorted by cause.
 */
async function validateCommand(opts) {
  ensureBuilt();
  let files = [...new Set(analyzeWorkspaces().flatMap((ws) => ws.files))].map((f) => relative(ROOT, f));
  if (opts.limit) files = files.slice(0, opts.limit);
  const t0 = Date.now();
  const causeOfDiff = (theirs, ours) => {
    if (/cannot parse proto message/.test(theirs.stderr) && !/cannot parse proto message/.test(ours.stderr))
      return "istioctl's jsonpb decode error (cannot parse proto message), not reproduced";
    const reason = (s) => s.replace(/(yaml: line \d+: )[^\n]*/g, '$1…');
    if (theirs.code === ours.code && reason(theirs.stderr) === reason(ours.stderr) && theirs.stdout === ours.stdout)
      return "YAML syntax error: our parser's reason, not go-yaml's";
    if (theirs.code === 2 && /panic:/.test(theirs.stderr)) return 'istioctl panics';
    const anyField = (s) => s.replace(/(unknown field )"[^"]*"( in \S+)/g, '$1"…"$2');
    if (theirs.code === ours.code && anyField(theirs.stderr) === anyField(ours.stderr))
      return 'several unknown fields in one message: istioctl names any one (Go map order), ours the first';
    if (/Envoy filter: unknown field/.test(theirs.stderr) && !/Envoy filter: unknown field/.test(ours.stderr))
      return "EnvoyFilter patch values decoded into Envoy's protos (istioctl's strict-decoding warnings), not reproduced";
    return theirs.code !== ours.code ? `exit code ${theirs.code} vs ${ours.code}` : 'output differs';
  };
  const results = await pool(files, opts.jobs, async (file) => {
    const [theirs, ours] = await Promise.all([run(ISTIOCTL, ['validate', '-f', file]), run('node', [CLI, 'validate', '-f', file])]);
    const agree = theirs.code === ours.code && theirs.stdout === ours.stdout && theirs.stderr === ours.stderr;
    return { file, agree, ...(agree ? {} : { cause: causeOfDiff(theirs, ours), istioctl: theirs, ours }) };
  });
  const agree = results.filter((r) => r.agree).length;
  const byCause = new Map();
  for (const r of results) if (!r.agree) byCause.set(r.cause, [...(byCause.get(r.cause) ?? []), r.file]);
  mkdirSync(REPORTS, { recursive: true });
  const out = join(REPORTS, 'validate.json');
  writeFileSync(
    out,
    JSON.stringify({ when: new Date().toISOString(), agree, differ: results.length - agree, byCause: Object.fromEntries(byCause), results }, null, 1),
  );
  for (const r of results) if (!r.agree) console.log(`DIFFER ${r.file}: ${r.cause}`);
  console.log('\nDifferences by cause (files):');
  for (const [c, fs] of [...byCause].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${String(fs.length).padStart(3)}  ${c}`);
  console.log(
    `\nvalidate: ${agree} agree, ${results.length - agree} differ (${results.length} files, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)})`,
  );
}

// ---- main ----------------------------------------------------------------------------------

function parseOptions(argv) {
  const opts = { jobs: 2, seed: FUZZED_SEED };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--limit') opts.limit = Number(argv[++i]);
    else if (a === '--jobs') opts.jobs = Math.max(1, Number(argv[++i]) || 1);
    else if (a === '-A' || a === '--all-namespaces') opts.allNamespaces = true;
    else if (a === '--force') opts.force = true;
    else if (a === '--fuzzed') opts.fuzzed = Math.max(0, Number(argv[++i]) || 0);
    else if (a === '--seed') opts.seed = Number(argv[++i]) || FUZZED_SEED;
    else if (a === '--no-server') opts.noServer = true;
    else if (a === '--all') opts.all = true;
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--samples') opts.samples = true;
    else {
      console.error(`oracle: unknown option ${a}`);
      process.exit(64);
    }
  }
  return opts;
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  const opts = parseOptions(rest);
  switch (cmd) {
    case 'build':
      ensureBuilt({ force: opts.force });
      console.log(`oracle: ${ISTIOCTL}\noracle: ${XDS_ORACLE}\noracle: ${ANALYZE_ORACLE}\noracle: ${DESCRIBE_ORACLE}`);
      return;
    case 'analyze':
      return analyzeCommand(opts);
    case 'validate':
      return validateCommand(opts);
    case 'server-check':
      return serverCheckCommand(opts);
    case 'xds': {
      ensureBuilt();
      const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'scripts', 'oracle', 'xds.ts'), ...rest], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, XDS_ORACLE },
      });
      process.exit(r.status ?? 1);
      return;
    }
    case 'proxy-config': {
      ensureBuilt();
      const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'scripts', 'oracle', 'proxyConfig.ts'), ...rest], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, XDS_ORACLE, ISTIOCTL },
      });
      process.exit(r.status ?? 1);
      return;
    }
    case 'describe': {
      ensureBuilt();
      const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'scripts', 'oracle', 'describe.ts'), ...rest], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, DESCRIBE_ORACLE },
      });
      process.exit(r.status ?? 1);
      return;
    }
    case 'xds-fuzz-runs': {
      const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'scripts', 'oracle', 'xdsFuzzRuns.ts')], { cwd: ROOT, stdio: 'inherit' });
      process.exit(r.status ?? 1);
      return;
    }
    default:
      console.error(
        'usage: npm run oracle -- build [--force] | analyze [--limit N] [-A] [--jobs N] [--fuzzed N] [--seed S] [--no-server] [--verbose] | server-check [--limit N] [--all] | validate [--limit N] | xds [--limit N] | proxy-config [--limit N] | describe [--samples] [--verbose] | xds-fuzz-runs',
      );
      process.exit(64);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
