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
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { JsonLinesProcess } from './jsonLinesProcess.ts';
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
  private readonly process: JsonLinesProcess<RunResult>;

  /**
   * The Go process grows by about 100 KB per run (istioctl's command tree and what it registers
   * are not all collected), so it is replaced, between requests, after `recycleEvery` runs.
   */
  constructor(bin = ANALYZE_ORACLE, recycleEvery = 500) {
    this.process = new JsonLinesProcess<RunResult>({
      bin,
      args: [],
      recycleEvery,
      answer: (m) =>
        m.error
          ? { stdout: '', stderr: `analyze-oracle: ${String(m.error)}`, exit: -1 }
          : { stdout: m.stdout as string, stderr: m.stderr as string, exit: m.exit as number },
      // A crash of the whole process (a panic in a goroutine istioctl started): fail what was asked.
      died: (how, tail) => ({ stdout: '', stderr: `analyze-oracle exited (${how}): ${tail}`, exit: -2 }),
    });
  }

  static available(bin = ANALYZE_ORACLE): boolean {
    return existsSync(bin);
  }

  get runs(): number {
    return this.process.runs;
  }
  get restarts(): number {
    return this.process.restarts;
  }
  /** Fresh processes started to bound memory. */
  get recycled(): number {
    return this.process.recycled;
  }

  run(ws: OracleWorkspace, args: readonly string[]): Promise<RunResult> {
    return this.process.request({ files: ws.files, paths: pathsOf(ws), args });
  }

  close(): void {
    this.process.close();
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
export const TIMESTAMP_CAUSE = 'log time stamps';

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
  if (t.exit === o.exit && blankMapOrder(t.stdout) === blankMapOrder(o.stdout) && blankMapOrder(t.stderr) === blankMapOrder(o.stderr))
    return { same: true, ignored: MAP_ORDER_CAUSE };
  return { same: false };
}
