// Running a command with a time limit, and installing a Debian package with apt-get: what the
// test setup scripts (ensure-browser.mjs, ensure-openssl.mjs) do on a machine that lacks a tool.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

export const MINUTE = 60_000;

/** Runs a command with its output on ours; true when it exits 0 within `timeoutMs`. */
export function run(command, args, { timeoutMs, env, prefix }) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
    const timer = setTimeout(() => {
      process.stderr.write(`${prefix} ${command} took over ${timeoutMs / MINUTE} minutes; stopping it\n`);
      child.kill('SIGTERM');
    }, timeoutMs);
    child.on('error', () => {
      clearTimeout(timer);
      resolveRun(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun(code === 0);
    });
  });
}

/** Whether apt-get is on the PATH. */
export function hasAptGet() {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir, 'apt-get'), constants.X_OK);
      return dir !== '';
    } catch {
      return false;
    }
  });
}

/** `apt-get update` then `apt-get install -y <pkg>`; true when both succeed. */
export async function aptInstall(pkg, prefix) {
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (!(await run('apt-get', ['update', '-q'], { timeoutMs: 5 * MINUTE, env, prefix }))) return false;
  return run('apt-get', ['install', '-y', '-q', pkg], { timeoutMs: 15 * MINUTE, env, prefix });
}
