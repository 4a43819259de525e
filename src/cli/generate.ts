// Generation from workspace files for the CLI: `proxy-config <command> <pod>[.<ns>] FILES…`
// and `simulate`. The files are read and analyzed exactly as the web app does (mesh config
// from the workspace, pods derived from controllers, Istio's assumed ingress gateway), then
// the same queries the web worker answers give the config dump and the simulated request.
import { WorkspaceAnalyzer } from '../core/workspace.ts';
import { defaultAnalysisSettings } from '../core/analysis/settings.ts';
import { resolve } from 'node:path';
import { answerQuery, answerQueryAsync, QueryError, type QueryState } from '../core/queries/index.ts';
import { dumpDiffText } from '../core/xds/dumpDiff.ts';
import { configDumpFromValue, type ConfigDump } from '../core/xds/configdump/dump.ts';
import { REQUEST_PROTOCOLS, type RequestProtocol } from '../core/xds/request.ts';
import { gatherFiles } from './files.ts';
import { parseArgs, UsageError, flagHelp, type FlagSpec } from './args.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, type CliIo } from './analyze.ts';
import { InputError, MODEL_LIMIT, readCapped } from './readCapped.ts';

/** Why the files could not be used, and the exit code for it when it is not 1 (65: over the size cap). */
export type FilesFailure = { ok: false; error: string; exitCode?: number };

/** Reads and analyzes the files (or says why they cannot be read). */
export async function analyzeFiles(inputs: readonly string[], io: CliIo): Promise<{ ok: true; state: QueryState } | FilesFailure> {
  if (inputs.length === 0) return { ok: false, error: 'no workspace files given: name the manifests (files, directories or -) to generate from' };
  let files;
  try {
    files = await gatherFiles(inputs, { cwd: io.cwd, stdin: io.stdin, stderr: io.stderr });
  } catch (e) {
    if (e instanceof InputError) return { ok: false, error: e.message, exitCode: inputErrorExit(e) };
    throw e;
  }
  const w = new WorkspaceAnalyzer(MODEL_LIMIT);
  w.update(
    files.map((f) => ({ path: f.name, text: f.text })),
    [],
  );
  await w.run(defaultAnalysisSettings());
  const state = w.analyzedState();
  if (!state) return { ok: false, error: 'the files could not be analyzed' };
  return { ok: true, state };
}

function proxyList(state: QueryState): string {
  const items = answerQuery('proxies', {}, state).items;
  return items.length === 0 ? 'the files hold no proxies (injected pods, gateways or waypoints)' : `proxies: ${items.map((p) => p.id).join(', ')}`;
}

/** proxy-config's generateDump: the dump generated for `target` from `files`. */
export async function generateDumpFromFiles(target: string, files: string[], io: CliIo): Promise<{ ok: true; dump: ConfigDump } | FilesFailure> {
  const a = await analyzeFiles(files, io);
  if (!a.ok) return a;
  let result;
  try {
    result = answerQuery('proxyConfig', { proxy: target }, a.state);
  } catch (e) {
    if (e instanceof QueryError) return { ok: false, error: `${e.message}\n${proxyList(a.state)}` };
    throw e;
  }
  const r = configDumpFromValue(result.dump);
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, dump: r.dump };
}

const SIM_FLAGS: FlagSpec[] = [
  { long: 'host', kind: 'string', arg: 'host', help: 'Destination host name, service name or IP (also the Host header)' },
  { long: 'port', short: 'p', kind: 'string', arg: 'int', help: 'Destination port' },
  { long: 'method', short: 'X', kind: 'string', arg: 'method', help: 'HTTP method (default GET)' },
  { long: 'path', kind: 'string', arg: 'path', help: 'Request path, with an optional ?query (default /)' },
  { long: 'protocol', kind: 'string', arg: 'protocol', help: `One of ${REQUEST_PROTOCOLS.join('|')} (default http)` },
  { long: 'header', short: 'H', kind: 'list', arg: 'name:value', help: 'A request header (repeatable)' },
  { long: 'sni', kind: 'string', arg: 'name', help: 'TLS server name (default: the host)' },
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: 'Output format: text (default) or json' },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for simulate' },
];

export function simulateHelp(): string {
  return `Simulate a request from a proxy through the Envoy config generated from the files:
the listener and filter chain, route configuration, virtual host and route it matches, the
clusters (with weights), endpoints, the timeouts, retries and faults in effect and the RBAC
verdict at each destination sidecar (the AuthorizationPolicy responsible), or why it fails
(no route, 404, BlackHole, TLS, RBAC: access denied).

Usage:
  mesh-workbench simulate <pod|deployment>[.<namespace>] --host <host> --port <port> [flags] FILES…

Examples:
  mesh-workbench simulate productpage-v1.bookinfo --host reviews --port 9080 --path /reviews/1 samples/bookinfo
  mesh-workbench simulate sleep.default --host httpbin --port 8000 -X POST -H end-user:jason mesh.yaml

Flags:
${flagHelp(SIM_FLAGS)}
Exit status: 0 when the request reaches a cluster, 1 when it fails, 64 for usage errors, 65 when
an input is over the input limit (what the machine can hold; see docs/cli.md).
`;
}

/** `mesh-workbench simulate …` (argv after the command word). */
export async function runSimulate(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv, SIM_FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    throw e;
  }
  if (parsed.values.get('help') === true) {
    io.stdout(simulateHelp());
    return EXIT_OK;
  }
  const s = (k: string) => {
    const v = parsed.values.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const [target, ...files] = parsed.positionals;
  if (!target) return usage(io, 'simulate requires a proxy (<pod>.<namespace>) and the workspace files');
  const host = s('host');
  if (!host) return usage(io, 'simulate requires --host');
  const port = Number(s('port') ?? '');
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    return usage(io, `invalid --port ${JSON.stringify(s('port') ?? '')}: a port number from 1 to 65535`);
  const protocol = (s('protocol') ?? 'http').toLowerCase();
  if (!(REQUEST_PROTOCOLS as readonly string[]).includes(protocol))
    return usage(io, `invalid --protocol ${JSON.stringify(protocol)}: one of ${REQUEST_PROTOCOLS.join(', ')}`);
  const output = s('output') ?? 'text';
  if (output !== 'text' && output !== 'json') return usage(io, `output format ${JSON.stringify(output)} not supported (text or json)`);
  const headers: Record<string, string> = {};
  for (const h of (parsed.values.get('header') as string[] | undefined) ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) return usage(io, `invalid --header ${JSON.stringify(h)}: expected name:value`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  const a = await analyzeFiles(files, io);
  if (!a.ok) {
    io.stderr(`Error: ${a.error}\n`);
    return a.exitCode ?? EXIT_ERROR;
  }
  let r;
  try {
    r = answerQuery(
      'simulate',
      {
        proxy: target,
        host,
        port,
        protocol: protocol as RequestProtocol,
        method: s('method') ?? 'GET',
        path: s('path') ?? '/',
        headers,
        ...(s('sni') ? { sni: s('sni')! } : {}),
      },
      a.state,
    );
  } catch (e) {
    if (e instanceof QueryError) {
      io.stderr(`Error: ${e.message}\n${proxyList(a.state)}\n`);
      return EXIT_ERROR;
    }
    throw e;
  }
  if (output === 'json') io.stdout(`${JSON.stringify(r, null, 2)}\n`);
  else {
    const width = Math.max(...r.steps.map((x) => x.kind.length));
    for (const step of r.steps) {
      io.stdout(`${step.kind.padEnd(width)}  ${step.title}\n`);
      if (step.detail) io.stdout(`${''.padEnd(width)}  ${step.detail}\n`);
      if (step.source?.file)
        io.stdout(
          `${''.padEnd(width)}  from ${step.source.kind ?? ''} ${step.source.namespace ?? ''}/${step.source.name ?? ''}${step.source.fieldPath ? ` ${step.source.fieldPath}` : ''} (${step.source.file}:${step.source.line ?? 1})\n`,
        );
    }
    io.stdout(r.ok ? 'result: reaches the cluster(s) above\n' : `result: fails: ${r.failure}\n`);
  }
  return r.ok ? EXIT_OK : EXIT_ERROR;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`Error: ${message}\nRun 'mesh-workbench simulate --help' for usage.\n`);
  return EXIT_USAGE;
}

const DIFF_FLAGS: FlagSpec[] = [
  {
    long: 'file',
    short: 'f',
    kind: 'string',
    arg: 'string',
    help: 'Envoy config dump JSON or YAML file (- for stdin): /config_dump?include_eds or istioctl proxy-config all -o json',
  },
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: 'Output format: text (default) or json' },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for diff' },
];

export function proxyConfigDiffHelp(): string {
  return `Compare a real Envoy config dump with the config generated from the files for a proxy
("why does my proxy differ from my config?"): listeners, routes, clusters and endpoints only
in the dump, only generated, or different, with the fields that differ. Both sides are read in
one canonical proto JSON form; runtime-only fields (version_info, last_updated, endpoint
health_status) are ignored.

Usage:
  mesh-workbench proxy-config diff <pod|deployment>[.<namespace>] --file <config_dump.json|-> [flags] FILES…

Examples:
  kubectl exec productpage-v1-abc -c istio-proxy -- curl -s localhost:15000/config_dump?include_eds > dump.json
  mesh-workbench proxy-config diff productpage-v1.bookinfo --file dump.json samples/bookinfo/
  istioctl proxy-config all productpage-v1-abc -o json | mesh-workbench pc diff productpage-v1.bookinfo -f - mesh.yaml

Flags:
${flagHelp(DIFF_FLAGS)}
Exit status: 0 when nothing differs, 1 when something differs (or on errors), 64 for usage errors,
65 when an input is over the input limit (what the machine can hold; see docs/cli.md).
`;
}

/** `mesh-workbench proxy-config diff …` (argv after `diff`). */
export async function runProxyConfigDiff(argv: readonly string[], io: CliIo): Promise<number> {
  const diffUsage = (message: string) => {
    io.stderr(`Error: ${message}\nRun 'mesh-workbench proxy-config diff --help' for usage.\n`);
    return EXIT_USAGE;
  };
  let parsed;
  try {
    parsed = parseArgs(argv, DIFF_FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return diffUsage(e.message);
    throw e;
  }
  if (parsed.values.get('help') === true) {
    io.stdout(proxyConfigDiffHelp());
    return EXIT_OK;
  }
  const file = parsed.values.get('file');
  const output = (parsed.values.get('output') as string | undefined) ?? 'text';
  if (output !== 'text' && output !== 'json') return diffUsage(`output format ${JSON.stringify(output)} not supported (text or json)`);
  const [target, ...files] = parsed.positionals;
  if (!target) return diffUsage('diff requires a proxy (<pod>.<namespace>), --file with the config dump, and the workspace files');
  if (typeof file !== 'string' || file === '') return diffUsage('diff requires --file with the config dump');
  let text: string;
  try {
    text = file === '-' ? await io.stdin() : (await readCapped(resolve(io.cwd, file), file)).toString('utf8');
  } catch (e) {
    io.stderr(`Error: ${(e as Error).message}\n`);
    return e instanceof InputError ? inputErrorExit(e) : EXIT_ERROR;
  }
  const a = await analyzeFiles(files, io);
  if (!a.ok) {
    io.stderr(`Error: ${a.error}\n`);
    return a.exitCode ?? EXIT_ERROR;
  }
  let r;
  try {
    r = await answerQueryAsync('proxyDumpDiff', { proxy: target, text }, a.state);
  } catch (e) {
    if (e instanceof QueryError) {
      io.stderr(`Error: ${e.message}${/^No proxy/.test(e.message) ? `\n${proxyList(a.state)}` : ''}\n`);
      return EXIT_ERROR;
    }
    throw e;
  }
  io.stdout(output === 'json' ? `${JSON.stringify(r, null, 2)}\n` : dumpDiffText(r, r.proxy));
  return r.differences.length === 0 ? EXIT_OK : EXIT_ERROR;
}
