// `mesh-workbench route-test TESTS.yaml FILES…`: runs a route-test file against the Envoy
// config generated from the workspace files, and prints the results as a test runner does.
import { answerQuery, QueryError } from '../core/queries/index.ts';
import type { RouteTestsReport } from '../core/xds/routeTests/index.ts';
import { analyzeFiles } from './generate.ts';
import { gatherFiles, InputError } from './files.ts';
import { parseArgs, UsageError, flagHelp, type FlagSpec } from './args.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, type CliIo } from './analyze.ts';

const FLAGS: FlagSpec[] = [
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: 'Output format: text (default) or json' },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for route-test' },
];

export function routeTestHelp(): string {
  return `Run route tests: each test sends a request from a source proxy through the Envoy config
generated from the files (the request simulator) and checks where it goes: the destinations
and weights, cluster, redirect, rewrite, fault, timeout or status (RBAC included).

Usage:
  mesh-workbench route-test TESTS.yaml FILES…

Examples:
  mesh-workbench route-test samples/bookinfo/route-tests.yaml samples/bookinfo
  mesh-workbench route-test -o json tests.yaml mesh/

The test file format is described in docs/reference.md (Route tests).

Flags:
${flagHelp(FLAGS)}
Exit status: 0 when every test passes, 1 when a test fails or the test file has problems,
64 for usage errors, 65 when an input is over the input limit (what the machine can hold;
see docs/cli.md).
`;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`Error: ${message}\nRun 'mesh-workbench route-test --help' for usage.\n`);
  return EXIT_USAGE;
}

/** The report as a test runner prints it. */
export function formatRouteTestReport(report: RouteTestsReport): string {
  let out = '';
  for (const p of report.problems) out += `${p.file}:${p.line}: ${p.message}\n`;
  if (report.problems.length > 0) out += '\n';
  let suite = '';
  for (const r of report.results) {
    if (r.suite !== suite) {
      suite = r.suite;
      out += `${r.file} (${suite})\n`;
    }
    out += `  ${r.passed ? '✓' : '✗'} ${r.description}\n`;
    if (r.passed) continue;
    out += `      at ${r.file}:${r.line}\n`;
    if (r.error) out += `      ${r.error}\n`;
    for (const c of r.cases) {
      if (c.passed) continue;
      out += `      ${c.method} ${c.host}:${c.port}${c.path} from ${c.source}\n`;
      for (const why of c.reasons) out += `        ${why}\n`;
      out += `        went to: ${c.actual}\n`;
    }
  }
  const total = report.passed + report.failed;
  out += `\nTests: ${report.failed > 0 ? `${report.failed} failed, ` : ''}${report.passed} passed, ${total} total`;
  if (report.problems.length > 0) out += `; ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} in the test file`;
  return `${out}\n`;
}

export async function runRouteTest(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv, FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    throw e;
  }
  if (parsed.values.get('help') === true) {
    io.stdout(routeTestHelp());
    return EXIT_OK;
  }
  const output = parsed.values.get('output') ?? 'text';
  if (output !== 'text' && output !== 'json') return usage(io, `output format ${JSON.stringify(output)} not supported (text or json)`);
  const [testsPath, ...files] = parsed.positionals;
  if (!testsPath) return usage(io, 'route-test requires a test file and the workspace files');
  if (files.length === 0) return usage(io, 'route-test requires the workspace files (manifests, directories or -) after the test file');
  let testFiles;
  try {
    testFiles = await gatherFiles([testsPath], { cwd: io.cwd, stdin: io.stdin, stderr: io.stderr });
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr(`Error: ${e.message}\n`);
      return inputErrorExit(e);
    }
    throw e;
  }
  const a = await analyzeFiles(files, io);
  if (!a.ok) {
    io.stderr(`Error: ${a.error}\n`);
    return a.exitCode ?? EXIT_ERROR;
  }
  const reports: RouteTestsReport[] = [];
  for (const f of testFiles) {
    try {
      reports.push(answerQuery('routeTests', { file: f.name, text: f.text }, a.state));
    } catch (e) {
      if (e instanceof QueryError) {
        io.stderr(`Error: ${e.message}\n`);
        return EXIT_ERROR;
      }
      throw e;
    }
  }
  if (reports.length === 0) reports.push(answerQuery('routeTests', { file: testsPath, text: '' }, a.state));
  if (output === 'json') io.stdout(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  else for (const r of reports) io.stdout(formatRouteTestReport(r));
  return reports.every((r) => r.failed === 0 && r.problems.length === 0 && r.results.length > 0) ? EXIT_OK : EXIT_ERROR;
}
