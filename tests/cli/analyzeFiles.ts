// Runs `mesh-workbench analyze` in process on files written to a fresh temporary directory, as
// the istioctl-mode tests compare it with istioctl's output run on the same files.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/main.ts';

export interface AnalyzeRun {
  stdout: string;
  stderr: string;
  exit: number;
}

/** istio's log time stamp (UTC, microseconds), as istioctl prints it. */
export const LOG_TIME_STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z(?=\t)/gm;

/** `analyze ARGS` with `dir` as the working directory. */
export async function analyzeIn(dir: string, args: string[]): Promise<AnalyzeRun> {
  let stdout = '';
  let stderr = '';
  const exit = await runCli(['analyze', ...args], {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stdin: async () => '',
    cwd: dir,
    isTTY: false,
    env: {},
  });
  return { stdout, stderr, exit };
}

/** Writes `files` to a fresh temporary directory and returns it. */
export function filesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mwb-istioctl-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A case whose stdout (time stamps as <TS>), stderr and exit code are istioctl's own. */
export interface IstioctlCase {
  name: string;
  files: Record<string, string>;
  args: string[];
  stdout: string;
  stderr: string;
  exit: number;
}

/** Runs `analyze --istioctl` on the case's files and expects istioctl's output. */
export async function expectIstioctlOutput(c: IstioctlCase): Promise<void> {
  const got = await analyzeIn(filesDir(c.files), ['--istioctl', ...c.args]);
  expect({ stdout: got.stdout.replace(LOG_TIME_STAMP, '<TS>'), stderr: got.stderr, exit: got.exit }).toEqual({
    stdout: c.stdout,
    stderr: c.stderr,
    exit: c.exit,
  });
}
