import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/cli/', import.meta.url));
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  /** stderr without the notice about skipped analyzers (kept in `notice`). */
  stderr: string;
  notice?: string;
}

const SKIPPED_NOTICE = /^Notice: Skipped .*\n/m;

export async function cli(args: string[], opts: { stdin?: string; isTTY?: boolean; env?: Record<string, string>; cwd?: string } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stdin: async () => opts.stdin ?? '',
    cwd: opts.cwd ?? FIXTURES,
    isTTY: opts.isTTY ?? false,
    env: opts.env ?? {},
  });
  const notice = SKIPPED_NOTICE.exec(stderr)?.[0];
  return notice ? { code, stdout, stderr: stderr.replace(notice, ''), notice } : { code, stdout, stderr };
}

export const FOUND_ISSUES =
  'Error: Analyzers found issues when analyzing namespace: default.\n' +
  'See https://istio.io/latest/docs/reference/config/analysis for more information about causes and resolutions.\n';
