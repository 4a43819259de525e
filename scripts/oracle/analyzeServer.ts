// Both sides of the analyze oracle (issue #29), in process where they can be:
//
// - istioctl's side: `analyze-oracle` (oracle/cmd/analyze-oracle), istioctl's real analyze
//   command run for many workspaces in one Go process, spoken to in JSON lines; or, when it is
//   not built, the istioctl binary started once per run (the same files in a directory).
// - our side: `runCli` (src/cli/main.ts) in this process, with the directory as its cwd.
//
// A workspace is a set of files with names relative to a directory (`dir/b.yml` included), the
// command-line paths (by default every file's name; a directory, or the files without a mesh
// config file passed by --meshConfigFile), and the arguments after `analyze`. Both sides see
// the same relative names, so references (`a.yaml:7`) print alike.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { runCli } from '../../src/cli/main.ts';

export interface OracleFile {
  name: string;
  text: string;
}

export interface OracleWorkspace {
  files: OracleFile[];
  /** Command-line paths; every file's name when absent. */
  paths?: string[];
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exit: number;
}

const CACHE = process.env.MESH_WORKBENCH_ORACLE_CACHE || join(homedir(), '.cache', 'mesh-workbench-oracle');
export const ORACLE_BIN = join(CACHE, 'bin');
export const ANALYZE_ORACLE = join(ORACLE_BIN, 'analyze-oracle');
export const ISTIOCTL_BIN = join(ORACLE_BIN, 'istioctl');

/** Writes a workspace's files under a new temporary directory and returns it. */
export function materialise(ws: OracleWorkspace): string {
  const dir = mkdtempSync(join(tmpdir(), 'mw-oracle-'));
  for (const f of ws.files) {
    const p = join(dir, f.name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.text);
  }
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

const pathsOf = (ws: OracleWorkspace): string[] => ws.paths ?? ws.files.map((f) => f.name);

/** Our CLI in this process: `analyze --istioctl ARGS PATHS` with `dir` as the working directory. */
export async function runOurs(dir: string, ws: OracleWorkspace, args: readonly string[]): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const exit = await runCli(['analyze', '--istioctl', ...args, ...pathsOf(ws)], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    stdin: async () => '',
    cwd: dir,
    isTTY: false,
    env: { ...process.env },
  });
  return { stdout, stderr, exit };
}

/** istioctl's analyze in one long-lived Go process (analyze-oracle), one request at a time. */
export class AnalyzeServer {
  private child: ChildProcessWithoutNullStreams | undefined;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (r: RunResult) => void }>();
  private stderrTail = '';
  private runsOnChild = 0;
  runs = 0;
  restarts = 0;
  /** Fresh processes started to bound memory (see recycleEvery). */
  recycled = 0;

  /**
   * The Go process grows by about 100 KB per run (istioctl's command tree and what it registers
   * are not all collected), so it is replaced, between requests, after this many runs.
   */
  constructor(private readonly bin = ANALYZE_ORACLE, private readonly recycleEvery = 500) {}

  static available(bin = ANALYZE_ORACLE): boolean {
    return existsSync(bin);
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.bin, [], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env } });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-4000)));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      let msg: { id: number; stdout: string; stderr: string; exit: number; error?: string };
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      p.resolve(msg.error ? { stdout: '', stderr: `analyze-oracle: ${msg.error}`, exit: -1 } : { stdout: msg.stdout, stderr: msg.stderr, exit: msg.exit });
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      // A crash of the whole process (a panic in a goroutine istioctl started): fail what was asked.
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.resolve({ stdout: '', stderr: `analyze-oracle exited (${signal ?? code}): ${this.stderrTail}`, exit: -2 });
      }
      this.restarts++;
    });
    child.stdin.on('error', () => {
      // the exit handler answers what was pending
    });
    return child;
  }

  run(ws: OracleWorkspace, args: readonly string[]): Promise<RunResult> {
    if (this.child && this.runsOnChild >= this.recycleEvery && this.pending.size === 0) {
      const old = this.child;
      this.child = undefined;
      old.removeAllListeners('exit');
      old.stdin.end();
      this.recycled++;
    }
    if (!this.child) {
      this.child = this.start();
      this.runsOnChild = 0;
    }
    this.runsOnChild++;
    const id = this.next++;
    this.runs++;
    return new Promise((resolvePromise) => {
      this.pending.set(id, { resolve: resolvePromise });
      this.child!.stdin.write(`${JSON.stringify({ id, files: ws.files, paths: pathsOf(ws), args })}\n`);
    });
  }

  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }
}

/** The istioctl binary, once per run, in a directory holding the workspace (the fallback). */
export function runIstioctlBinary(dir: string, ws: OracleWorkspace, args: readonly string[], bin = ISTIOCTL_BIN): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(bin, ['analyze', '--use-kube=false', ...args, ...pathsOf(ws)], { cwd: dir, env: { ...process.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => resolvePromise({ stdout, stderr: stderr + String(e), exit: -1 }));
    child.on('close', (code) => resolvePromise({ stdout, stderr, exit: code ?? -1 }));
  });
}

// ---- comparing outputs ----------------------------------------------------------------------

/** Istio's logger's time stamp at the start of a line (`2026-12-06T11:30:43.123456Z\t`). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z(?=\t)/gm;
export const stripTimestamps = (s: string): string => s.replace(TIMESTAMP, 'TIME');

/** Codes whose message text istioctl builds in Go map order (varies from run to run). */
export const MAP_ORDER_CODES = ['IST0109', 'IST0175', 'IST0177'];
export const MAP_ORDER_CAUSE = "Go map order in istioctl's message text (IST0109/IST0175/IST0177 vary from run to run)";
export const TIMESTAMP_CAUSE = "log time stamps";

/** The output with the text of map-order messages blanked, in log and JSON/YAML output. */
export function blankMapOrder(s: string): string {
  const codes = MAP_ORDER_CODES.join('|');
  return s
    .replace(new RegExp(`^((?:Error|Warning|Info) \\[(?:${codes})\\] \\([^)]*\\) ).*$`, 'gm'), '$1…')
    .replace(new RegExp(`("code": "(?:${codes})",[\\s\\S]*?"message": )"(?:[^"\\\\]|\\\\.)*"`, 'g'), '$1"…"')
    .replace(new RegExp(`(code: (?:${codes})\\n[\\s\\S]*?message: ).*`, 'g'), '$1…');
}

export interface Verdict {
  same: boolean;
  /** Set when the outputs differ only for a known, ignored cause. */
  ignored?: string;
}

/** Byte comparison of two runs, ignoring only time stamps and map-order message text. */
export function compareRuns(theirs: RunResult, ours: RunResult): Verdict {
  if (theirs.exit === ours.exit && theirs.stdout === ours.stdout && theirs.stderr === ours.stderr) return { same: true };
  const t = { ...theirs, stdout: stripTimestamps(theirs.stdout), stderr: stripTimestamps(theirs.stderr) };
  const o = { ...ours, stdout: stripTimestamps(ours.stdout), stderr: stripTimestamps(ours.stderr) };
  if (t.exit === o.exit && t.stdout === o.stdout && t.stderr === o.stderr) return { same: true, ignored: TIMESTAMP_CAUSE };
  if (t.exit === o.exit && blankMapOrder(t.stdout) === blankMapOrder(o.stdout) && blankMapOrder(t.stderr) === blankMapOrder(o.stderr)) return { same: true, ignored: MAP_ORDER_CAUSE };
  return { same: false };
}
