// `mesh-workbench analyze`: istioctl analyze --use-kube=false, on files.
import { resolve } from 'node:path';
import type { Diagnostic, Level } from '../core/document/types.ts';
import { LEVEL_ORDER } from '../core/document/types.ts';
import { WorkspaceAnalyzer } from '../core/workspace.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../core/analysis/settings.ts';
import { ALL_ANALYZERS, OPTIONAL_ANALYZERS } from '../core/analysis/analyzers/index.ts';
import { WORKBENCH_ANALYZERS, analyzerByName } from '../core/analyzerSets.ts';
import { parseSuppressions } from '../core/analysis/suppress.ts';
import { messageByCode } from '../core/analysis/messages.ts';
import { skippedNotice } from '../core/analysis/skipped.ts';
import { meshInputsFromResources } from '../core/config/mesh/fromWorkspace.ts';
import { formatDiagnostics, isOutputFormat, OUTPUT_FORMATS } from '../core/analysis/format/index.ts';
import { flagHelp, UsageError, type FlagSpec, type ParsedArgs } from './args.ts';
import { gatherFiles, InputError, type InputFile } from './files.ts';
import { InputTooLargeError, MODEL_LIMIT, readCapped } from './readCapped.ts';
import { PARSER_CODES } from '../core/document/parse.ts';
import { isKialiCode } from '../core/analysis/packs/kiali/codes.ts';
import { MAX_RANGE_PREFIX, parseAddressRange } from '../core/config/addressRing.ts';
import { DEFAULT_POD_CIDR } from '../core/config/derivedWorkloads.ts';

/** Analyzer packs `--pack` can add. */
const PACKS = ['kiali'] as const;
import { decodeFileBytes } from '../core/document/encoding.ts';
import { goDurationError } from '../core/go/duration.ts';
import { addingFilesError, meshValidationLog, skipWarning, withIstioctlDocs, type IstioctlReport } from '../core/analysis/istioctlMode.ts';

/** `--pod-cidr`'s help (analyze, ztunnel-config and trace take it). */
export const POD_CIDR_HELP = `The pod CIDR that pods derived from Deployments and other controllers take addresses from\n(default ${DEFAULT_POD_CIDR}): an IPv4 CIDR of prefix length ${MAX_RANGE_PREFIX} or less.`;

/** Refuses a `--pod-cidr` value that is not an IPv4 CIDR of prefix length 24 or less. */
export function checkPodCidr(value: string): void {
  const range = parseAddressRange(value);
  if ('error' in range) throw new UsageError(`invalid argument for "--pod-cidr" flag: ${range.error}`);
}

/** Parser notices about the app's editor (large-file mode), which mean nothing in the CLI. */
const EDITOR_NOTICES: ReadonlySet<string> = new Set([PARSER_CODES.largeFile]);

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 64;
export const EXIT_PARSE = 65;
export const EXIT_ISSUES = 79;

/** The exit code for an input that cannot be read: 65 when it is over the size cap, else 1. */
export function inputErrorExit(e: InputError): number {
  return e instanceof InputTooLargeError ? EXIT_PARSE : EXIT_ERROR;
}

export const CONFIG_ANALYSIS_URL = 'https://istio.io/latest/docs/reference/config/analysis';

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: () => Promise<string>;
  cwd: string;
  /** Whether stdout is a terminal (for --color's default). */
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

export const ANALYZE_FLAGS: FlagSpec[] = [
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: `Output format: one of [${OUTPUT_FORMATS.join(' ')}] (default "log")` },
  {
    long: 'output-threshold',
    kind: 'string',
    arg: 'level',
    help: 'The severity level of analysis at which to display messages. Valid values: [Info Warning Error] (default Info)',
  },
  {
    long: 'failure-threshold',
    kind: 'string',
    arg: 'level',
    help: 'The severity level of analysis at which to set a non-zero exit code (79). Valid values: [Info Warning Error] (default Error)',
  },
  {
    long: 'suppress',
    short: 'S',
    kind: 'list',
    arg: 'CODE=RESOURCE',
    help: 'Suppress reporting a message code on a specific resource, e.g. -S "IST0102=Namespace default".\nRESOURCE is "Kind namespace/name" and may use the wildcard \'*\' (e.g. "IST0103=Pod *").\nThe legacy "Kind name.namespace" form is also accepted, with a warning. Can be repeated.',
  },
  { long: 'analyzer', kind: 'list', arg: 'name', help: 'Run only this analyzer (see --list-analyzers). Can be repeated. If none match, all run.' },
  { long: 'list-analyzers', short: 'L', kind: 'bool', help: 'List the analyzers available to run. Suppresses normal execution.' },
  { long: 'namespace', short: 'n', kind: 'string', arg: 'ns', help: 'Namespace for resources without one, and only report messages in this namespace.' },
  { long: 'all-namespaces', short: 'A', kind: 'bool', help: 'Analyze all namespaces: resources without a namespace keep an empty one.' },
  { long: 'meshConfigFile', kind: 'string', arg: 'file', help: 'Overrides the mesh config values to use for analysis.' },
  { long: 'meshNetworksFile', kind: 'string', arg: 'file', help: 'Mesh networks configuration to use for analysis.' },
  { long: 'ignore-unknown', kind: 'bool', help: "Don't fail (exit 65) on input documents that cannot be parsed." },
  {
    long: 'istioctl',
    kind: 'bool',
    help: 'Print exactly what "istioctl analyze --use-kube=false" prints: only the kinds its file reader\nknows, the analyzers it runs, its messages, errors and exit codes (see "Modes" below).',
  },
  {
    long: 'pack',
    kind: 'string',
    arg: 'name',
    help: "Also run an analyzer pack: kiali (Kiali's validations, KIA codes, beside istioctl's).\nKiali's 'unknown' severity is Info; Kiali's default ignore (KIA1301) applies.",
  },
  { long: 'no-placeholders', kind: 'bool', help: "Don't assume istioctl's placeholder ingress gateway Pod and Service in istio-system." },
  { long: 'pod-cidr', kind: 'string', arg: 'cidr', help: POD_CIDR_HELP },
  { long: 'use-kube', short: 'k', kind: 'bool', help: 'Only --use-kube=false is supported: mesh-workbench analyzes files offline.' },
  { long: 'color', kind: 'bool', help: "Color the level in log output. Default: on when stdout is a terminal and $TERM is not 'dumb'." },
  { long: 'verbose', short: 'v', kind: 'bool', help: 'Enable verbose output (analyzers run, assumptions made) on stderr.' },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for analyze.' },
  // Accepted for istioctl compatibility; they change nothing offline.
  { long: 'recursive', short: 'R', kind: 'bool', help: '', hidden: true },
  { long: 'timeout', kind: 'string', help: '', hidden: true },
  { long: 'revision', short: 'r', kind: 'string', help: '', hidden: true },
];

export function analyzeHelp(): string {
  return `Analyze Istio configuration files offline and print validation messages, like
"istioctl analyze --use-kube=false".

Usage:
  mesh-workbench analyze [flags] <file|directory|->...

Examples:
  # Analyze files and directories (directories are walked recursively)
  mesh-workbench analyze a.yaml b.yaml my-app-config/

  # Read from stdin
  kubectl get vs,dr,gw,svc -A -o yaml | mesh-workbench analyze -

  # Machine-readable output
  mesh-workbench analyze -o json my-app-config/
  mesh-workbench analyze -o sarif my-app-config/ > results.sarif

  # Suppress PodMissingProxy for all pods, and NamespaceNotInjected for namespace default
  mesh-workbench analyze -S "IST0103=Pod *" -S "IST0102=Namespace default" config/

  # List available analyzers
  mesh-workbench analyze -L

Flags:
${flagHelp(ANALYZE_FLAGS)}

Modes:
  By default the files are the cluster: every kind in them is read, and an analyzer runs
  when the files hold its inputs. --istioctl prints exactly what istioctl analyze
  --use-kube=false prints (it reads no Pods, Services, Namespaces, Nodes or Secrets from
  files and skips the analyzers that need them).

Namespaces:
  Without -n or -A, resources without a namespace are put in "default". By default
  messages from every namespace are reported; with --istioctl only namespace "default",
  as istioctl does. -n NS puts them in NS and reports only NS; -A leaves them without a
  namespace.

Exit codes:
  0   no message at or above --failure-threshold
  1   other errors (e.g. an input path that cannot be read)
  64  bad command line (unknown flag or command, bad flag value)
  65  some input could not be parsed and no message reached the threshold
      (not with --ignore-unknown). An input over the input limit (what the
      machine can hold: the longest string Node holds, or a twentieth of its heap)
      counts as one: it is read only up to that limit (devices, FIFOs and stdin
      too). A --meshConfigFile or --meshNetworksFile over it always gives 65.
  79  a message is at or above --failure-threshold. This applies to every output
      format; istioctl only does this for -o log and exits 0 with -o json/yaml.
      With --istioctl, 79 and 65 are given for -o log only, as istioctl does.
`;
}

function parseLevel(flag: string, v: string): Level {
  const u = v.toUpperCase();
  if (u === 'INFO') return 'Info';
  if (u === 'WARNING') return 'Warning';
  if (u === 'ERROR') return 'Error';
  throw new UsageError(`invalid argument "${v}" for "--${flag}" flag: "${v}" not a valid option, please choose from: [Info Warning Error]`);
}

/** True when `level` is as bad as `threshold` or worse. */
export function atOrAbove(level: Level, threshold: Level): boolean {
  return LEVEL_ORDER[level] <= LEVEL_ORDER[threshold];
}

/** istioctl's -L listing: `* <name>:\n    <description>\n`, in name order. */
/** The analyzers -L lists: Istio's, and in the workbench's mode its own too. */
export function listAnalyzers(istioctlMode = false): string {
  const optional = new Set(OPTIONAL_ANALYZERS.map((a) => a.metadata.name));
  const all = [...ALL_ANALYZERS, ...OPTIONAL_ANALYZERS, ...(istioctlMode ? [] : WORKBENCH_ANALYZERS)].sort((a, b) =>
    a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
  );
  let out = '';
  for (const a of all) {
    out += `* ${a.metadata.name}:\n`;
    let desc = a.metadata.description;
    if (optional.has(a.metadata.name)) desc = `${desc ? `${desc} ` : ''}(not run by default; select it with --analyzer ${a.metadata.name})`;
    if (desc) out += `    ${desc}\n`;
  }
  return out;
}

/** Parser problems as `file:line:col: level: message (CODE)`. */
export function parseProblemLine(d: Diagnostic): string {
  const where =
    d.file === undefined
      ? ''
      : d.range
        ? `${d.file}:${d.range.startLine}:${d.range.startCol}: `
        : d.line !== undefined
          ? `${d.file}:${d.line}: `
          : `${d.file}: `;
  return `${where}${d.level.toLowerCase()}: ${d.message} (${d.code})`;
}

function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.values.get(name);
  return typeof v === 'string' ? v : undefined;
}

function bool(args: ParsedArgs, name: string): boolean | undefined {
  const v = args.values.get(name);
  return typeof v === 'boolean' ? v : undefined;
}

function list(args: ParsedArgs, name: string): string[] {
  const v = args.values.get(name);
  return Array.isArray(v) ? v : [];
}

/** The parser diagnostic the model gives a file over the limit, for one the reader refused. */
function tooLargeDiagnostic(e: InputTooLargeError): Diagnostic {
  return {
    level: 'Error',
    code: PARSER_CODES.tooLarge,
    message: e.detail,
    file: e.input,
    line: 1,
    range: { startLine: 1, startCol: 1, endLine: 1, endCol: 2 },
    source: 'parser',
  };
}

/** The order of the workspace's parser problems (src/core/workspace.ts): by file, then line. */
function byFileAndLine(a: Diagnostic, b: Diagnostic): number {
  if ((a.file ?? '') !== (b.file ?? '')) return (a.file ?? '') < (b.file ?? '') ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0);
}

async function readFlagFile(io: CliIo, flag: string, path: string): Promise<string> {
  try {
    return decodeFileBytes(await readCapped(resolve(io.cwd, path), path));
  } catch (e) {
    if (e instanceof InputTooLargeError) throw new InputTooLargeError(`--${flag}: ${path}`, e.bytes, e.cap, e.why);
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new InputError(`--${flag}: open ${path}: ${why}`);
  }
}

export interface AnalyzeContext {
  version: string;
}

/** Runs the analyze command; `args` are already parsed (positionals exclude the command). */
export async function runAnalyze(args: ParsedArgs, inputs: string[], io: CliIo, ctx: AnalyzeContext): Promise<number> {
  if (bool(args, 'help')) {
    io.stdout(analyzeHelp());
    return EXIT_OK;
  }
  const istioctlMode = bool(args, 'istioctl') === true;
  // istioctl prints a bad command line as `Error: <text>` alone (cobra's usage is silenced).
  const refuse = (e: UsageError, exit = EXIT_USAGE): number => {
    if (!istioctlMode) throw e;
    io.stderr(`Error: ${e.message}\n`);
    return exit;
  };
  const format = (str(args, 'output') ?? 'log').toLowerCase();
  if (!isOutputFormat(format) || (istioctlMode && format === 'sarif'))
    return refuse(new UsageError(`${format} not a valid option for format. See ${istioctlMode ? 'istioctl' : 'mesh-workbench'} analyze --help`));
  let outputThreshold: Level;
  let failureThreshold: Level;
  try {
    outputThreshold = parseLevel('output-threshold', str(args, 'output-threshold') ?? 'Info');
    failureThreshold = parseLevel('failure-threshold', str(args, 'failure-threshold') ?? 'Error');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    // pflag's error for istioctl's level flags (diag.Level's Set).
    return refuse(new UsageError(e.message.replace(/flag: .*$/, 'flag: invalid level option')));
  }
  if (bool(args, 'use-kube') === true) {
    throw new UsageError('--use-kube=true is not supported: mesh-workbench only analyzes files, offline. Leave the flag out or pass --use-kube=false.');
  }
  const timeout = str(args, 'timeout');
  // pflag parses a Duration flag with time.ParseDuration and prints its error.
  const timeoutError = timeout === undefined ? undefined : goDurationError(timeout);
  if (timeoutError !== undefined) throw new UsageError(`invalid argument "${timeout}" for "--timeout" flag: ${timeoutError}`);
  const podCidr = str(args, 'pod-cidr');
  if (podCidr !== undefined) {
    checkPodCidr(podCidr);
    if (istioctlMode) throw new UsageError('--pod-cidr cannot be combined with --istioctl (istioctl derives no pods)');
  }
  const suppressItems = list(args, 'suppress');
  for (const s of suppressItems) {
    // istioctl returns this one as a plain error: exit 1.
    if (s.split('=').length !== 2)
      return refuse(new UsageError(`${s} is not a valid suppression value. See ${istioctlMode ? 'istioctl' : 'mesh-workbench'} analyze --help`), EXIT_ERROR);
  }
  const env = io.env;
  const colorFlag = bool(args, 'color');
  const color = colorFlag ?? (io.isTTY && env.TERM !== 'dumb');

  if (bool(args, 'list-analyzers')) {
    io.stdout(listAnalyzers(istioctlMode));
    return EXIT_OK;
  }

  const allNamespaces = bool(args, 'all-namespaces') === true;
  const namespaceFlag = str(args, 'namespace');
  const selectedNamespace = allNamespaces ? '' : namespaceFlag || 'default';
  const target = allNamespaces ? 'all namespaces' : `namespace: ${selectedNamespace}`;

  // Warnings about flag values go to stderr first, as istioctl does.
  // (istioctl warns only about unknown message codes, and says nothing of unknown analyzers.)
  for (const w of parseSuppressions(suppressItems, (c) => messageByCode(c) !== undefined || (str(args, 'pack') === 'kiali' && isKialiCode(c))).warnings) {
    if (!istioctlMode || w.startsWith('Supplied message code ')) io.stderr(`Warning: ${w}\n`);
  }
  const analyzerNames = list(args, 'analyzer');
  const unknownAnalyzers = analyzerNames.filter((n) => !analyzerByName(n));
  if (!istioctlMode) {
    for (const n of unknownAnalyzers) io.stderr(`Warning: unknown analyzer "${n}" (see --list-analyzers).\n`);
    if (analyzerNames.length > 0 && unknownAnalyzers.length === analyzerNames.length)
      io.stderr('Warning: none of the requested analyzers exist; running all analyzers.\n');
  }

  const meshConfigFile = str(args, 'meshConfigFile');
  const meshNetworksFile = str(args, 'meshNetworksFile');
  let files: InputFile[];
  let meshConfigText: string | undefined;
  let meshNetworksText: string | undefined;
  // Inputs over the size cap, refused while reading (see readCapped.ts). They are reported as
  // the model reports a file over its limit: under "Error(s) adding files", exit 65.
  const tooLarge = new Map<string, Diagnostic>();
  try {
    // A mesh config over the cap stops the command: analyzing with Istio's defaults instead
    // would answer a different question.
    if (meshConfigFile) meshConfigText = await readFlagFile(io, 'meshConfigFile', meshConfigFile);
    if (meshNetworksFile) meshNetworksText = await readFlagFile(io, 'meshNetworksFile', meshNetworksFile);
    files = await gatherFiles(inputs, {
      cwd: io.cwd,
      stdin: io.stdin,
      stderr: io.stderr,
      onTooLarge: (e) => void (tooLarge.has(e.input) || tooLarge.set(e.input, tooLargeDiagnostic(e))),
    });
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr(`Error: ${e.message}\n`);
      return inputErrorExit(e);
    }
    throw e;
  }
  if (!istioctlMode && (meshConfigText !== undefined || meshNetworksText !== undefined)) {
    for (const p of meshInputsFromResources([], { meshConfigText, meshNetworksText }).problems) io.stderr(`Warning: ${p}\n`);
  }

  const pack = str(args, 'pack');
  if (pack !== undefined) {
    if (!(PACKS as readonly string[]).includes(pack)) throw new UsageError(`unknown analyzer pack "${pack}" (known: ${PACKS.join(', ')})`);
    if (istioctlMode) throw new UsageError('--pack cannot be combined with --istioctl');
  }

  const settings: AnalysisSettings = {
    ...defaultAnalysisSettings(),
    suppressions: suppressItems,
    analyzers: analyzerNames,
    includePlaceholders: bool(args, 'no-placeholders') !== true,
    defaultNamespace: selectedNamespace,
    kiali: pack === 'kiali',
    ...(podCidr !== undefined ? { podCidr } : {}),
  };
  if (!allNamespaces && namespaceFlag) settings.namespaceFilter = namespaceFlag;
  if (istioctlMode) {
    settings.mode = 'istioctl';
    // istioctl never reports what only the API server would refuse.
    settings.schemaFindings = false;
    // Without -A istioctl reports one namespace: -n's, else "default".
    if (!allNamespaces) settings.namespaceFilter = selectedNamespace;
  }

  const workspace = new WorkspaceAnalyzer(MODEL_LIMIT);
  // The same file named twice is analyzed once (its resources would only replace themselves).
  const unique = new Map<string, InputFile>();
  for (const f of files) if (!unique.has(f.name)) unique.set(f.name, f);
  workspace.update(
    [...unique.values()].map((f) => ({ path: f.name, text: f.text })),
    [],
  );
  // Quick fixes are for the editor; the CLI prints none. Of the formats, only SARIF (and
  // istioctl's error lines) print a diagnostic's range; the others print its line alone.
  const result = await workspace.run(settings, { meshConfigText, meshNetworksText, fixes: false, ranges: istioctlMode || format === 'sarif' });
  if (result === 'canceled') throw new Error('analysis was canceled');

  if (istioctlMode) {
    const report: IstioctlReport = result.istioctl ?? { selected: [], skipped: [], errors: [] };
    const tooLargeErrors = [...tooLarge.values()].map((d) => ({
      file: d.file ?? '',
      chunk: 0,
      text: `error processing ${d.file ?? ''}[0]: ${d.message}`,
      line: 1,
    }));
    return printAsIstioctl(
      io,
      { ...report, errors: [...tooLargeErrors, ...report.errors] },
      result.diagnostics.filter((d) => d.source !== 'parser'),
      {
        format,
        color,
        version: ctx.version,
        outputThreshold,
        failureThreshold,
        target,
        files: files.map((f) => f.name),
        meshConfigText,
        verbose: bool(args, 'verbose') === true,
        ignoreUnknown: bool(args, 'ignore-unknown') === true,
      },
    );
  }

  const parserDiags = [...tooLarge.values(), ...result.diagnostics.filter((d) => d.source === 'parser' && !EDITOR_NOTICES.has(d.code))].sort(byFileAndLine);
  const analyzerDiags = result.diagnostics.filter((d) => d.source !== 'parser');
  const parserErrors = parserDiags.filter((d) => d.level === 'Error');
  const unparsedFiles = new Set(parserErrors.map((d) => d.file ?? ''));
  const parseErrors = unparsedFiles.size;

  // istioctl reports files it could not add on stderr, before the analysis output; other
  // parser notices go there too, but not under the error heading.
  if (parserErrors.length > 0) {
    io.stderr(`Error(s) adding files:\n${parserErrors.map((d) => `  ${parseProblemLine(d)}\n`).join('')}`);
  }
  for (const d of parserDiags) if (d.level !== 'Error') io.stderr(`${parseProblemLine(d)}\n`);

  const skipped = skippedNotice(result.skipped);
  if (skipped) io.stderr(`Notice: ${skipped}\n`);

  if (bool(args, 'verbose')) {
    io.stderr(`Analyzed resources in ${target}\n`);
    const executed = result.executed;
    if (executed.length > 0) io.stderr(`Executed analyzers:\n${executed.map((n) => `\t ${n}\n`).join('')}`);
    if (result.assumptions.length > 0) io.stderr(`Assumptions:\n${result.assumptions.map((a) => `\t ${a}\n`).join('')}`);
    io.stderr('\n');
  }

  const shown = analyzerDiags.filter((d) => atOrAbove(d.level, outputThreshold));
  // SARIF carries parser problems as results too; istioctl's formats never do.
  const printed = format === 'sarif' ? [...parserDiags, ...shown] : shown;
  io.stdout(formatDiagnostics(format, printed, { color, toolVersion: ctx.version }));

  if (shown.length === 0) {
    if (parseErrors === 0) {
      if (files.length === 1) io.stderr(`\u2714 No validation issues found when analyzing ${files[0]!.name}.\n`);
      else if (files.length > 1) io.stderr(`\u2714 No validation issues found when analyzing:\n${files.map((f) => `  - ${f.name}\n`).join('')}`);
      else io.stderr(`\u2714 No validation issues found when analyzing ${target}.\n`);
    } else {
      io.stderr(`No validation issues found when analyzing ${target} (but ${parseErrors} ${parseErrors === 1 ? 'file' : 'files'} could not be parsed).\n`);
    }
  }

  // The exit code looks at every message kept after suppression and namespace filtering,
  // before the output threshold (as istioctl does), in every output format.
  if (analyzerDiags.some((d) => atOrAbove(d.level, failureThreshold))) {
    io.stderr(`Error: Analyzers found issues when analyzing ${target}.\nSee ${CONFIG_ANALYSIS_URL} for more information about causes and resolutions.\n`);
    return EXIT_ISSUES;
  }
  if (parseErrors > 0 && bool(args, 'ignore-unknown') !== true) {
    io.stderr("Error: Some files couldn't be parsed.\n");
    return EXIT_PARSE;
  }
  return EXIT_OK;
}

/**
 * The output of istioctl analyze --use-kube=false after its analysis (istioctl/pkg/analyze/analyze.go):
 * the reader's warnings (its log, on stdout), "Error(s) adding files", the -v lists, the
 * messages, the "No validation issues" line and the exit code (79 and 65 only with -o log).
 */
function printAsIstioctl(
  io: CliIo,
  report: IstioctlReport,
  messages: readonly Diagnostic[],
  o: {
    meshConfigText: string | undefined;
    format: string;
    color: boolean;
    version: string;
    outputThreshold: Level;
    failureThreshold: Level;
    target: string;
    files: string[];
    verbose: boolean;
    ignoreUnknown: boolean;
  },
): number {
  const now = new Date();
  if (o.meshConfigText !== undefined) io.stdout(meshValidationLog(meshInputsFromResources([], { meshConfigText: o.meshConfigText }).meshConfig, now));
  for (const e of report.errors) io.stdout(skipWarning(e, now));
  const adding = addingFilesError(report.errors);
  // istioctl counts one parse error for all files together.
  const parseErrors = adding === undefined ? 0 : 1;
  if (adding !== undefined) io.stderr(`Error(s) adding files: ${adding}`);
  if (o.verbose) {
    io.stderr(`Analyzed resources in ${o.target}\n`);
    if (report.skipped.length > 0) io.stderr(`Skipped analyzers:\n${report.skipped.map((n) => `\t ${n}\n`).join('')}`);
    if (report.selected.length > 0) io.stderr(`Executed analyzers:\n${report.selected.map((n) => `\t ${n}\n`).join('')}`);
    io.stderr('\n');
  }
  const shown = messages.filter((d) => atOrAbove(d.level, o.outputThreshold));
  io.stdout(withIstioctlDocs(formatDiagnostics(o.format as 'log' | 'json' | 'yaml', shown, { color: o.color, toolVersion: o.version })));
  if (shown.length === 0) {
    if (parseErrors === 0) {
      if (o.files.length > 1) io.stderr(`\u2714 No validation issues found when analyzing:\n${o.files.map((f) => `  - ${f}\n`).join('')}`);
      else if (o.files.length === 1) io.stderr(`\u2714 No validation issues found when analyzing ${o.files[0]}.\n`);
      else io.stderr(`\u2714 No validation issues found when analyzing ${o.target}.\n`);
    } else {
      io.stderr(`No validation issues found when analyzing ${o.target} (but ${parseErrors} file could not be parsed).\n`);
    }
  }
  if (o.format !== 'log') return EXIT_OK;
  if (messages.some((d) => atOrAbove(d.level, o.failureThreshold))) {
    io.stderr(
      withIstioctlDocs(
        `Error: Analyzers found issues when analyzing ${o.target}.\nSee ${CONFIG_ANALYSIS_URL} for more information about causes and resolutions.\n`,
      ),
    );
    return EXIT_ISSUES;
  }
  if (parseErrors > 0 && !o.ignoreUnknown) {
    io.stderr("Error: Some files couldn't be parsed.\n");
    return EXIT_PARSE;
  }
  return EXIT_OK;
}
