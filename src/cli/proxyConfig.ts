// `mesh-workbench proxy-config`: istioctl proxy-config over a saved Envoy config dump
// (`--file config_dump.json`, or `-` for stdin), with istioctl's subcommands, aliases, flags,
// tables and `-o json|yaml`. The rendering is src/core/xds/configdump/render.ts, which takes a
// dump object: `deps.generateDump` is where a dump generated from workspace files
// (`proxy-config clusters <pod>.<ns> FILES…`) plugs in.
import { resolve } from 'node:path';
import { parseArgs, parseBool, UsageError, flagHelp, type FlagSpec, type ParsedArgs } from './args.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, type CliIo } from './analyze.ts';
import { InputError, readCapped } from './readCapped.ts';
import { type ConfigDump, UNMARSHAL_PREFIX, configDumpFromValue, parseDumpText } from '../core/xds/configdump/dump.ts';
import { isClustersStatus } from '../core/xds/configdump/endpoints.ts';
import { rawDump } from '../core/xds/configdump/output.ts';
import { envoyProtoSchema } from '../core/xds/configdump/protoSchema.ts';
import {
  defaultOutput,
  renderProxyConfig,
  type OutputFormat,
  type ProxyConfigCommand,
  type ProxyConfigInput,
  type ProxyConfigRequest,
} from '../core/xds/configdump/render.ts';

/** Subcommand names and istioctl's aliases. */
export const PROXY_CONFIG_ALIASES: Record<string, ProxyConfigCommand> = {
  cluster: 'clusters',
  clusters: 'clusters',
  c: 'clusters',
  listener: 'listeners',
  listeners: 'listeners',
  l: 'listeners',
  route: 'routes',
  routes: 'routes',
  r: 'routes',
  endpoint: 'endpoints',
  endpoints: 'endpoints',
  ep: 'endpoints',
  eds: 'eds',
  secret: 'secret',
  secrets: 'secret',
  s: 'secret',
  ecds: 'ecds',
  ec: 'ecds',
  bootstrap: 'bootstrap',
  b: 'bootstrap',
  all: 'all',
  a: 'all',
};

/** The name istioctl uses in "<name> requires pod name or --file parameter". */
const USE_NAME: Record<ProxyConfigCommand, string> = {
  clusters: 'cluster',
  listeners: 'listener',
  routes: 'route',
  endpoints: 'endpoints',
  eds: 'eds',
  secret: 'secret',
  ecds: 'ecds',
  bootstrap: 'bootstrap',
  all: 'all',
};

const F = {
  output: { long: 'output', short: 'o', kind: 'string', arg: 'string', help: 'Output format: one of json|yaml|short' },
  file: { long: 'file', short: 'f', kind: 'string', arg: 'string', help: 'Envoy config dump JSON file (- for stdin)' },
  fqdn: { long: 'fqdn', kind: 'string', arg: 'string', help: 'Filter clusters by substring of Service FQDN field' },
  direction: { long: 'direction', kind: 'string', arg: 'string', help: 'Filter clusters by Direction field' },
  subset: { long: 'subset', kind: 'string', arg: 'string', help: 'Filter clusters by substring of Subset field' },
  port: { long: 'port', kind: 'string', arg: 'int', help: 'Filter by Port field' },
  address: { long: 'address', kind: 'string', arg: 'string', help: 'Filter by address field' },
  type: { long: 'type', kind: 'string', arg: 'string', help: 'Filter listeners by type field' },
  verbose: { long: 'verbose', kind: 'bool', help: 'Output more information (default true)' },
  name: { long: 'name', kind: 'string', arg: 'string', help: 'Filter routes by route name field' },
  cluster: { long: 'cluster', kind: 'string', arg: 'string', help: 'Filter endpoints by cluster name field' },
  status: { long: 'status', kind: 'string', arg: 'string', help: 'Filter endpoints by status field' },
  withHeaders: { long: 'with-headers', kind: 'bool', help: 'Print summary with headers' },
  now: { long: 'now', kind: 'string', arg: 'time', help: 'Clock for the VALID CERT column (RFC 3339; default: now), for reproducible output' },
  help: { long: 'help', short: 'h', kind: 'bool', help: 'Help for this command' },
  adminPort: { long: 'proxy-admin-port', kind: 'string', help: '', hidden: true },
  waypoint: { long: 'waypoint', kind: 'bool', help: 'Output waypoint information', hidden: true },
} satisfies Record<string, FlagSpec>;

const COMMON: FlagSpec[] = [F.output, F.file, F.help, F.adminPort];

export const PROXY_CONFIG_FLAGS: Record<ProxyConfigCommand, FlagSpec[]> = {
  clusters: [...COMMON, F.fqdn, F.direction, F.subset, F.port],
  listeners: [...COMMON, F.address, F.type, F.port, F.verbose, F.waypoint],
  routes: [...COMMON, F.name, F.verbose],
  endpoints: [...COMMON, F.address, F.port, F.cluster, F.status],
  eds: [...COMMON, F.address, F.port, F.cluster, F.status],
  secret: [...COMMON, F.now],
  ecds: [...COMMON],
  bootstrap: [...COMMON],
  all: [...COMMON, F.withHeaders, F.verbose, F.fqdn, F.direction, F.subset, F.port, F.address, F.type, F.name, F.now],
};

const SHORT: Record<ProxyConfigCommand, string> = {
  clusters: 'Retrieves cluster configuration for the Envoy in the dump',
  listeners: 'Retrieves listener configuration for the Envoy in the dump',
  routes: 'Retrieves route configuration for the Envoy in the dump',
  endpoints: "Retrieves endpoints (from Envoy's /clusters?format=json, or the EDS section of a config dump)",
  eds: 'Retrieves endpoint configuration from the EDS section of a config dump (?include_eds)',
  secret: 'Retrieves secret configuration for the Envoy in the dump',
  ecds: 'Retrieves typed extension configuration for the Envoy in the dump',
  bootstrap: 'Retrieves bootstrap configuration for the Envoy in the dump',
  all: 'Retrieves all configuration for the Envoy in the dump',
};

export function proxyConfigHelp(): string {
  const rows = Object.entries(SHORT).map(([c, s]) => `  ${c.padEnd(11)} ${s}`);
  return `Retrieve information about proxy configuration from an Envoy config dump, as
"istioctl proxy-config" prints it (same tables, sort order, and -o json|yaml).

Usage:
  mesh-workbench proxy-config <command> --file <config_dump.json|-> [flags]
  mesh-workbench proxy-config <command> <pod|deployment>[.<namespace>] [flags] FILES…

The second form generates the config istiod would send that proxy from the workspace
manifests (files, directories or -), then renders it the same way.

Commands (istioctl's aliases work too: c, l, r, ep, s, ec, b, a):
${rows.join('\n')}
  diff        Compares a config dump (--file) with the config generated for a proxy from FILES

Examples:
  curl -s localhost:15000/config_dump?include_eds > envoy-config.json
  mesh-workbench proxy-config clusters --file envoy-config.json --port 9080
  mesh-workbench proxy-config routes -f envoy-config.json --name 9080 -o json
  mesh-workbench proxy-config all -f envoy-config.json --with-headers
  istioctl proxy-config all my-pod -o json | mesh-workbench pc listeners -f -
  mesh-workbench proxy-config routes productpage-v1.bookinfo samples/bookinfo/
  mesh-workbench proxy-config clusters reviews-v1.bookinfo -f mesh.yaml --port 9080

Run 'mesh-workbench proxy-config <command> --help' for its flags.
`;
}

function commandHelp(command: ProxyConfigCommand): string {
  return `${SHORT[command]}.

Usage:
  mesh-workbench proxy-config ${command} --file <config_dump.json|-> [flags]
  mesh-workbench proxy-config ${command} <pod|deployment>[.<namespace>] [flags] FILES…

Flags:
${flagHelp(PROXY_CONFIG_FLAGS[command])}
`;
}

/** What the CLI needs besides its arguments. */
export interface ProxyConfigDeps {
  /**
   * `proxy-config <command> <pod>.<ns> FILES…`: the dump generated from workspace files for
   * that proxy. Absent until generation lands; then that mode is refused with a usage error.
   */
  generateDump?: (target: string, files: string[], io: CliIo) => Promise<{ ok: true; dump: ConfigDump } | { ok: false; error: string; exitCode?: number }>;
  /** The clock (tests pin it; `--now` overrides it). */
  now?: () => Date;
  /** `proxy-config diff <pod>.<ns> --file dump.json FILES…` (argv after `diff`). */
  diff?: (argv: readonly string[], io: CliIo) => Promise<number>;
}

function stringFlag(parsed: ParsedArgs, name: string): string {
  const v = parsed.values.get(name);
  return typeof v === 'string' ? v : '';
}

/** pflag's IntVar parsing (strconv.ParseInt(s, 0, 64)). */
function intFlag(parsed: ParsedArgs, name: string): number {
  const v = parsed.values.get(name);
  if (typeof v !== 'string') return 0;
  const m = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[bB]([01]+)|0[oO]?([0-7]+)|(0|[1-9]\d*))$/.exec(v);
  let n = NaN;
  if (m) {
    const [, sign, hex, bin, oct, dec] = m;
    const abs = hex !== undefined ? parseInt(hex, 16) : bin !== undefined ? parseInt(bin, 2) : oct !== undefined ? parseInt(oct, 8) : Number(dec);
    n = sign === '-' ? -abs : abs;
  }
  if (!Number.isSafeInteger(n))
    throw new UsageError(`invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
}

const VALUE_FLAGS = new Set(
  Object.values(F)
    .filter((f) => f.kind !== 'bool')
    .flatMap((f) => ['--' + f.long, ...('short' in f && f.short ? ['-' + f.short] : [])]),
);

/** The subcommand word: the first argument that is neither a flag nor a flag's value. */
function findCommand(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!a.startsWith('-') || a === '-') return i;
    if (VALUE_FLAGS.has(a)) i++;
  }
  return -1;
}

function boolFlag(parsed: ParsedArgs, name: string, dflt: boolean): boolean {
  const v = parsed.values.get(name);
  if (v === undefined) return dflt;
  return typeof v === 'boolean' ? v : parseBool(`--${name}`, String(v));
}

function requestFrom(command: ProxyConfigCommand, parsed: ParsedArgs, now: Date): ProxyConfigRequest {
  const port = intFlag(parsed, 'port');
  const verbose = boolFlag(parsed, 'verbose', true);
  const output = (stringFlag(parsed, 'output') || defaultOutput(command)) as OutputFormat;
  return {
    command,
    output,
    now,
    withHeaders: boolFlag(parsed, 'with-headers', false),
    waypoint: boolFlag(parsed, 'waypoint', false),
    cluster: { fqdn: stringFlag(parsed, 'fqdn'), port, subset: stringFlag(parsed, 'subset'), direction: stringFlag(parsed, 'direction') },
    listener: { address: stringFlag(parsed, 'address'), port, type: stringFlag(parsed, 'type'), verbose },
    route: { name: stringFlag(parsed, 'name'), verbose },
    endpoint: { address: stringFlag(parsed, 'address'), port, cluster: stringFlag(parsed, 'cluster'), status: stringFlag(parsed, 'status') },
  };
}

async function readInput(path: string, io: CliIo): Promise<string> {
  if (path === '-') return io.stdin();
  return (await readCapped(resolve(io.cwd, path), path)).toString('utf8');
}

/** Runs `proxy-config` with the arguments after the command word. */
export async function runProxyConfig(argv: readonly string[], io: CliIo, deps: ProxyConfigDeps = {}): Promise<number> {
  const at = findCommand(argv);
  const first = at < 0 ? undefined : argv[at];
  const command = first === undefined ? undefined : PROXY_CONFIG_ALIASES[first];
  if (first === undefined || first === 'help') {
    const wantsHelp = argv.includes('--help') || argv.includes('-h') || first === 'help';
    (wantsHelp ? io.stdout : io.stderr)(proxyConfigHelp());
    return wantsHelp ? EXIT_OK : EXIT_USAGE;
  }
  if (first === 'diff' && deps.diff)
    return deps.diff(
      argv.filter((_, i) => i !== at),
      io,
    );
  if (!command) return usage(io, `unknown command "${first}" for "mesh-workbench proxy-config"`);
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(
      argv.filter((_, i) => i !== at),
      PROXY_CONFIG_FLAGS[command],
    );
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message, command);
    throw e;
  }
  if (parsed.values.get('help') === true) {
    io.stdout(commandHelp(command));
    return EXIT_OK;
  }
  let now = deps.now?.() ?? new Date();
  let request: ProxyConfigRequest;
  try {
    const nowFlag = stringFlag(parsed, 'now');
    if (nowFlag !== '') {
      now = new Date(nowFlag);
      if (Number.isNaN(now.getTime())) throw new UsageError(`invalid argument "${nowFlag}" for "--now" flag: not an RFC 3339 time`);
    }
    request = requestFrom(command, parsed, now);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message, command);
    throw e;
  }
  const file = stringFlag(parsed, 'file');
  const args = parsed.positionals;
  // With a proxy named, --file names workspace manifests (like the positional FILES).
  const generating = args.length >= 1 && deps.generateDump !== undefined;
  if (!generating && args.length >= 1 === (file !== '')) {
    return usage(io, `${USE_NAME[command]} requires pod name or --file parameter`, command);
  }
  if (!['short', 'json', 'yaml'].includes(request.output!)) {
    io.stderr(`Error: output format ${JSON.stringify(request.output)} not supported\n`);
    return EXIT_ERROR;
  }

  let input: ProxyConfigInput;
  let text: string | undefined;
  if (file !== '' && !generating) {
    try {
      text = await readInput(file, io);
    } catch (e) {
      io.stderr(`Error: ${(e as Error).message}\n`);
      return e instanceof InputError ? inputErrorExit(e) : EXIT_ERROR;
    }
    const parsedDump = parseDumpText(text);
    if (!parsedDump.ok) {
      io.stderr(`Error: ${UNMARSHAL_PREFIX}${parsedDump.error}\n`);
      return EXIT_ERROR;
    }
    if (command === 'endpoints' && isClustersStatus(parsedDump.value)) input = { clusters: parsedDump.value };
    else {
      const r = configDumpFromValue(parsedDump.value);
      if (!r.ok) {
        io.stderr(`Error: ${UNMARSHAL_PREFIX}${r.error}\n`);
        return EXIT_ERROR;
      }
      for (const w of r.dump.warnings) io.stderr(`Warning: ${w}\n`);
      input = { dump: r.dump };
    }
    if (command === 'all' && request.output !== 'short') {
      io.stdout(rawDump(text, parsedDump.value, request.output as 'json' | 'yaml'));
      return EXIT_OK;
    }
  } else {
    if (!deps.generateDump) {
      return usage(io, `generating the configuration of ${args[0]} from workspace files is not available yet: pass --file with a config dump`, command);
    }
    const r = await deps.generateDump(args[0]!, [...(file !== '' ? [file] : []), ...args.slice(1)], io);
    if (!r.ok) {
      io.stderr(`Error: ${r.error}\n`);
      return r.exitCode ?? EXIT_ERROR;
    }
    input = { dump: r.dump };
  }

  if (request.output !== 'short' && command !== 'all' && !request.waypoint) request.schema = await envoyProtoSchema();
  const result = renderProxyConfig(input, request);
  io.stdout(result.text);
  if (result.error !== undefined) {
    io.stderr(`Error: ${result.error}\n`);
    return EXIT_ERROR;
  }
  return EXIT_OK;
}

function usage(io: CliIo, message: string, command?: ProxyConfigCommand): number {
  const hint = command ? `mesh-workbench proxy-config ${command} --help` : 'mesh-workbench proxy-config --help';
  io.stderr(`Error: ${message}\nRun '${hint}' for usage.\n`);
  return EXIT_USAGE;
}
