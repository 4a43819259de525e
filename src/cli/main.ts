// mesh-workbench command line. `runCli` is the whole program minus the process: it takes
// the arguments and an io object and returns the exit code, so tests can call it directly.
import packageJson from '../../package.json' with { type: 'json' };
import { parseArgs, UsageError } from './args.ts';
import { ANALYZE_FLAGS, EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, runAnalyze, type CliIo } from './analyze.ts';
import { runProxyConfig } from './proxyConfig.ts';
import { decodeFileBytes } from '../core/document/encoding.ts';
import { InputError, readCappedStream } from './readCapped.ts';

export type { CliIo } from './analyze.ts';

// Imported rather than read at run time, so the bundle in dist-cli/ carries it.
export function packageVersion(): string {
  return packageJson.version;
}

export function rootHelp(): string {
  return `mesh-workbench: Istio configuration diagnostics (istioctl analyze, offline).

Usage:
  mesh-workbench analyze [flags] <file|directory|->...
  mesh-workbench certs [flags] <file|directory|->...
  mesh-workbench proxy-config <command> --file <config_dump.json|-> [flags]
  mesh-workbench proxy-config <command> <pod>[.<namespace>] [flags] FILES…
  mesh-workbench simulate <pod>[.<namespace>] --host <host> --port <port> [flags] FILES…
  mesh-workbench route-test TESTS.yaml [-o json] FILES…
  mesh-workbench describe pod|service <name>[.<namespace>] [flags] FILES…
  mesh-workbench authz check <pod>[.<namespace>] [flags] FILES…
  mesh-workbench validate -f <file|directory|->... [flags]
  mesh-workbench ztunnel-config workloads|services|policies|certificates|all [flags] <file|directory|->...
  mesh-workbench trace --from ns/pod --to host:port [--method GET --path /] <file|directory|->...
  mesh-workbench --version
  mesh-workbench --help

Commands:
  analyze          Analyze Istio configuration files and print validation messages
  certs            Inspect certificates, keys, Secrets and dumps as Istio would check them
  proxy-config     Render an Envoy config dump, or the config generated for a proxy from the
                   files, as istioctl proxy-config does (alias: pc)
  simulate         Simulate a request from a proxy through its generated config
  route-test       Run route tests (requests and where they should go) against the generated config
  describe         Describe a pod or Service and the Istio config that affects it, as
                   istioctl x describe does (alias: x describe)
  authz            Check the AuthorizationPolicies applied to a pod, as istioctl x authz check
                   does (alias: x authz)
  validate         Validate Istio resources as the webhook would, like istioctl validate (alias: v)
  ztunnel-config   Print what a ztunnel receives (ambient), simulated from the files
  trace            Trace a request through the ambient data plane, hop by hop

Run 'mesh-workbench analyze --help' for the analyze flags and exit codes,
'mesh-workbench certs --help' for certs', 'mesh-workbench proxy-config --help' for proxy-config's commands.
`;
}

function usageError(io: CliIo, message: string, command?: string): number {
  const hint = command ? `mesh-workbench ${command} --help` : 'mesh-workbench --help';
  io.stderr(`Error: ${message}\nRun '${hint}' for usage.\n`);
  return EXIT_USAGE;
}

/** Any other error: its message, and exit 1 (65 for an input over the size cap). */
function failure(io: CliIo, e: unknown): number {
  io.stderr(`Error: ${(e as Error)?.message ?? String(e)}\n`);
  return e instanceof InputError ? inputErrorExit(e) : EXIT_ERROR;
}

/** Whether the first positional argument (flags of `certs` skipped) is `certs`. */
export function isCertsCommand(argv: readonly string[]): boolean {
  const valueFlags = new Set(['--at', '--trust-domain', '--trust-domain-alias', '--profile', '--output', '-o']);
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === '--') return false;
    if (valueFlags.has(t)) {
      i++;
      continue;
    }
    if (t.startsWith('-')) continue;
    return t === 'certs';
  }
  return false;
}

export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let argv = args;
  let command: string | undefined;
  if (isCertsCommand(argv)) {
    try {
      // Loaded on use (the certificate inspection is large), so analyze starts no slower.
      const { runCerts } = await import('./certs.ts');
      return await runCerts(argv, io);
    } catch (e) {
      if (e instanceof UsageError) return usageError(io, e.message, 'certs');
      return failure(io, e);
    }
  }
  // istioctl's experimental commands, under `x` as there (describe, authz).
  if ((argv[0] === 'x' || argv[0] === 'experimental') && (argv[1] === 'describe' || argv[1] === 'des' || argv[1] === 'authz')) argv = argv.slice(1);
  if (argv[0] === 'describe' || argv[0] === 'des' || argv[0] === 'authz') {
    try {
      const m = await import('./describe.ts');
      return await (argv[0] === 'authz' ? m.runAuthz : m.runDescribe)(argv.slice(1), io);
    } catch (e) {
      return failure(io, e);
    }
  }
  // proxy-config has its own subcommands and flags.
  if (argv[0] === 'proxy-config' || argv[0] === 'pc') {
    try {
      // Generation loads only when a proxy is named (the dump renderer alone starts faster).
      return await runProxyConfig(argv.slice(1), io, {
        generateDump: async (target, files, gio) => (await import('./generate.ts')).generateDumpFromFiles(target, files, gio),
        diff: async (args, gio) => (await import('./generate.ts')).runProxyConfigDiff(args, gio),
      });
    } catch (e) {
      return failure(io, e);
    }
  }
  if (argv[0] === 'simulate') {
    try {
      return await (await import('./generate.ts')).runSimulate(argv.slice(1), io);
    } catch (e) {
      return failure(io, e);
    }
  }
  if (argv[0] === 'validate' || argv[0] === 'v') {
    try {
      return await (await import('./validate.ts')).runValidate(argv.slice(1), io);
    } catch (e) {
      return failure(io, e);
    }
  }
  if (argv[0] === 'route-test') {
    try {
      return await (await import('./routeTest.ts')).runRouteTest(argv.slice(1), io);
    } catch (e) {
      return failure(io, e);
    }
  }
  // The data-plane commands have their own flags.
  const first = argv.findIndex((a) => !a.startsWith('-'));
  const sub = first >= 0 ? argv[first] : undefined;
  if (sub === 'ztunnel-config' || sub === 'trace') {
    // Loaded on use, so analyze starts no slower for them.
    const { runDataPlaneCommand } = await import('./dataplane.ts');
    return runDataPlaneCommand(sub, [...argv.slice(0, first), ...argv.slice(first + 1)], io);
  }
  try {
    // Flags may come before or after the command (cobra allows both).
    const parsed = parseArgs(argv, [...ANALYZE_FLAGS, { long: 'version', kind: 'bool', help: 'Print the version.' }]);
    command = parsed.positionals[0];
    if (command === undefined || command === 'help') {
      if (parsed.values.get('version') === true) {
        io.stdout(`mesh-workbench ${packageVersion()}\n`);
        return EXIT_OK;
      }
      if (parsed.values.get('help') === true || command === 'help') {
        io.stdout(rootHelp());
        return EXIT_OK;
      }
      io.stderr(rootHelp());
      return EXIT_USAGE;
    }
    if (command !== 'analyze') return usageError(io, `unknown command "${command}" for "mesh-workbench"`);
    if (parsed.values.has('version')) throw new UsageError('unknown flag: --version');
    return await runAnalyze(parsed, parsed.positionals.slice(1), io, { version: packageVersion() });
  } catch (e) {
    if (e instanceof UsageError) return usageError(io, e.message, command === 'analyze' ? 'analyze' : undefined);
    return failure(io, e);
  }
}

let stdinText: Promise<string> | undefined;

/**
 * Stdin's text, read once (with the size cap: over it, InputTooLargeError naming it `-`, and
 * stdin is destroyed rather than read to its end).
 */
function readStdin(): Promise<string> {
  stdinText ??= readCappedStream(process.stdin, '-').then(decodeFileBytes);
  return stdinText;
}

/** Runs the CLI on the real process and sets its exit code. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const code = await runCli(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdin: readStdin,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
    env: process.env,
  });
  process.exitCode = code;
  return code;
}
