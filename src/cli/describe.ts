// `mesh-workbench describe pod|service` and `authz check`: istioctl x describe and
// istioctl x authz check over the workspace files, reading the Envoy config we generate for
// each proxy where istioctl reads the live one (or a saved dump, for authz check -f).
import { resolve } from 'node:path';
import type { Resource } from '../core/document/types.ts';
import { KINDS } from '../core/document/kinds.ts';
import { podIndex } from '../core/config/workloads.ts';
import { podWorkloadName } from '../core/config/services.ts';
import { readConfigDump, type ConfigDump } from '../core/xds/configdump/dump.ts';
import type { QueryState } from '../core/queries/common.ts';
import { describePod, describeService, generatedDump } from '../core/queries/describe/describe.ts';
import type { DumpResult } from '../core/queries/describe/ingress.ts';
import { describePodText, describeServiceText } from '../core/queries/describe/text.ts';
import { authzCheck, authzCheckText } from '../core/queries/describe/authzCheck.ts';
import { parseArgs, UsageError, flagHelp, type FlagSpec, type ParsedArgs } from './args.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, type CliIo } from './analyze.ts';
import { InputError, readCapped } from './readCapped.ts';
import { analyzeFiles } from './generate.ts';

const HELP_FLAG: FlagSpec = { long: 'help', short: 'h', kind: 'bool', help: 'Help for this command' };
const NS_FLAG: FlagSpec = { long: 'namespace', short: 'n', kind: 'string', arg: 'string', help: 'Namespace of the pod or service (default "default")' };
const ADMIN_PORT: FlagSpec = { long: 'proxy-admin-port', kind: 'string', help: '', hidden: true };

const DESCRIBE_FLAGS: FlagSpec[] = [
  NS_FLAG,
  { long: 'ignoreUnmeshed', kind: 'bool', help: 'Suppress warnings for unmeshed pods' },
  {
    long: 'output',
    short: 'o',
    kind: 'string',
    arg: 'format',
    help: "text (istioctl's output, the default) or json (every fact with its source, and what almost applies)",
  },
  HELP_FLAG,
  ADMIN_PORT,
];

const AUTHZ_FLAGS: FlagSpec[] = [
  NS_FLAG,
  { long: 'file', short: 'f', kind: 'string', arg: 'string', help: 'The json file with Envoy config dump to be checked' },
  HELP_FLAG,
  ADMIN_PORT,
];

export function describeHelp(): string {
  return `Describe resource and related Istio configuration: a pod or a Service, as
"istioctl x describe" prints it, from the workspace files: its Services and ports, the
DestinationRule and VirtualService its proxy's config comes from, the effective mTLS mode and
the PeerAuthentications behind it, and its exposure through ingress gateways. The Envoy config
is the one generated for each proxy (istioctl reads the live one).

Usage:
  mesh-workbench describe pod <pod>[.<namespace>] [flags] FILES…
  mesh-workbench describe service <service>[.<namespace>] [flags] FILES…

Aliases: x describe, po (pod), svc (service). A pod is named as "kubectl get pods" names it,
or by its Deployment (productpage-v1): the first of its pods.

Flags:
${flagHelp(DESCRIBE_FLAGS)}
`;
}

export function authzHelp(): string {
  return `Check the AuthorizationPolicies applied to a pod, as "istioctl x authz check" prints them:
read back from the RBAC filters of the Envoy config generated for the pod (or of a saved
config dump, -f), by action, with the number of rules of each.

Usage:
  mesh-workbench authz check [<type>/]<pod>[.<namespace>] [flags] FILES…
  mesh-workbench authz check -f <config_dump.json|->

Flags:
${flagHelp(AUTHZ_FLAGS)}
`;
}

function usage(io: CliIo, message: string, command: string): number {
  io.stderr(`Error: ${message}\nRun 'mesh-workbench ${command} --help' for usage.\n`);
  return EXIT_USAGE;
}

function stringFlag(p: ParsedArgs, k: string): string | undefined {
  const v = p.values.get(k);
  return typeof v === 'string' ? v : undefined;
}

/** handlers.InferPodInfo: `name.namespace` splits at the last dot (after a `type/` prefix). */
export function inferName(arg: string, defaultNamespace: string): { name: string; namespace: string } {
  const slash = arg.lastIndexOf('/');
  const start = Math.max(slash, 0);
  const dot = arg.slice(start).lastIndexOf('.');
  if (dot < 0) return { name: arg, namespace: defaultNamespace };
  return { name: arg.slice(0, start + dot), namespace: arg.slice(start + dot + 1) };
}

const GENERATED_SUFFIX = /^-[a-z0-9]{1,10}-[a-z0-9]{5}$|^-[a-z0-9]{5}$/;

/**
 * The pod a name refers to: the pod itself, else the first pod of a controller of that name
 * (or whose generated name starts with it, as `<deployment>-<hash>-<suffix>`).
 */
export function findPod(state: QueryState, name: string, namespace: string): Resource | { candidates: string[] } {
  const pods = [...podIndex(state.view).all].filter((p) => p.synthetic !== 'placeholder' || p.name === name);
  const inNs = pods.filter((p) => p.namespace === namespace).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const exact = inNs.find((p) => p.name === name);
  if (exact) return exact;
  const typed = name.includes('/') ? name.slice(name.indexOf('/') + 1) : name;
  const byController = inNs.find((p) => p.derivedFrom?.name === typed || podWorkloadName(p) === typed);
  if (byController) return byController;
  const byPrefix = inNs.filter((p) => p.name.startsWith(typed) && GENERATED_SUFFIX.test(p.name.slice(typed.length)));
  if (byPrefix[0]) return byPrefix[0];
  return { candidates: pods.map((p) => `${p.name}.${p.namespace}`) };
}

function notFound(io: CliIo, kind: string, name: string, candidates: readonly string[]): number {
  const list = candidates.length === 0 ? `the files hold no ${kind}s` : `${kind}s: ${candidates.join(', ')}`;
  io.stderr(`Error: ${kind}s ${JSON.stringify(name)} not found\n${list}\n`);
  return EXIT_ERROR;
}

/** What `describe` reads the mesh and the proxies' config from (tests and the conformance harness swap them). */
export interface DescribeDeps {
  analyze?: (files: readonly string[], io: CliIo) => ReturnType<typeof analyzeFiles>;
  /** A proxy's Envoy config (default: generated). */
  dumpFor?: (pod: Resource) => DumpResult;
  /** Read the objects as the API server returns them (default true; Istio's test clientset does not default). */
  apiServerDefaults?: boolean;
}

/** Runs `describe` with the arguments after the command word. */
export async function runDescribe(argv: readonly string[], io: CliIo, deps: DescribeDeps = {}): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv, DESCRIBE_FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message, 'describe');
    throw e;
  }
  const early = describeUsage(parsed, io);
  if (early !== undefined) return early;
  const a = await (deps.analyze ?? analyzeFiles)(parsed.positionals.slice(2), io);
  if (!a.ok) {
    io.stderr(`Error: ${a.error}\n`);
    return a.exitCode ?? EXIT_ERROR;
  }
  return describeOnState(parsed, a.state, io, deps);
}

/** `describe` over a mesh already analyzed (the positionals after the name are ignored). */
export function runDescribeOnState(argv: readonly string[], state: QueryState, io: CliIo, deps: DescribeDeps = {}): number {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv, DESCRIBE_FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message, 'describe');
    throw e;
  }
  return describeUsage(parsed, io) ?? describeOnState(parsed, state, io, deps);
}

/** Help and argument errors, before any file is read; undefined when the command can run. */
function describeUsage(parsed: ParsedArgs, io: CliIo): number | undefined {
  const [what, target] = parsed.positionals;
  const help = parsed.values.get('help') === true;
  // istioctl's describe without a resource type prints its help and succeeds.
  if (help || what === undefined) {
    io.stdout(describeHelp());
    return EXIT_OK;
  }
  const isPod = what === 'pod' || what === 'po';
  if (!isPod && what !== 'service' && what !== 'svc') return usage(io, `unknown resource type ${JSON.stringify(what)}`, 'describe');
  if (target === undefined) return usage(io, isPod ? 'expecting pod name' : 'expecting service name', 'describe');
  const output = stringFlag(parsed, 'output') ?? 'text';
  if (output !== 'text' && output !== 'json') return usage(io, `output format ${JSON.stringify(output)} not supported (text or json)`, 'describe');
  return undefined;
}

function describeOnState(parsed: ParsedArgs, state: QueryState, io: CliIo, deps: DescribeDeps): number {
  const [what, target] = parsed.positionals as [string, string];
  const describeNamespace = stringFlag(parsed, 'namespace') || 'default';
  const { name, namespace } = inferName(target, describeNamespace);
  const opts = {
    describeNamespace,
    ignoreUnmeshed: parsed.values.get('ignoreUnmeshed') === true,
    ...(deps.dumpFor ? { dumpFor: deps.dumpFor } : {}),
    ...(deps.apiServerDefaults !== undefined ? { apiServerDefaults: deps.apiServerDefaults } : {}),
  };
  let result: { text: string; error?: string };
  let json: unknown;
  if (what === 'pod' || what === 'po') {
    const pod = findPod(state, name, namespace);
    if (!('key' in pod)) return notFound(io, 'pod', name, pod.candidates);
    const d = describePod(state.view, pod, opts);
    result = describePodText(d);
    json = d;
  } else {
    const svc = state.view.find(KINDS.Service, namespace, name);
    if (!svc)
      return notFound(
        io,
        'service',
        name,
        state.view.list(KINDS.Service).map((s) => `${s.name}.${s.namespace}`),
      );
    const d = describeService(state.view, svc, opts);
    result = describeServiceText(d);
    json = d;
  }
  if (stringFlag(parsed, 'output') === 'json') {
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT_OK;
  }
  io.stdout(result.text);
  if (result.error !== undefined) {
    io.stderr(`Error: ${result.error}\n`);
    return EXIT_ERROR;
  }
  return EXIT_OK;
}

async function readDump(path: string, io: CliIo): Promise<{ ok: true; dump: ConfigDump } | { ok: false; error: string; exit: number }> {
  let text: string;
  try {
    text = path === '-' ? await io.stdin() : (await readCapped(resolve(io.cwd, path), path)).toString('utf8');
  } catch (e) {
    if (e instanceof InputError) return { ok: false, error: e.message, exit: inputErrorExit(e) };
    return { ok: false, error: (e as Error).message, exit: EXIT_ERROR };
  }
  const r = readConfigDump(text);
  return r.ok ? r : { ok: false, error: r.error, exit: EXIT_ERROR };
}

/** Runs `authz` with the arguments after the command word (`check …`). */
export async function runAuthz(argv: readonly string[], io: CliIo, deps: DescribeDeps = {}): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv, AUTHZ_FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message, 'authz check');
    throw e;
  }
  const [sub, target, ...files] = parsed.positionals;
  if (parsed.values.get('help') === true) {
    io.stdout(authzHelp());
    return EXIT_OK;
  }
  if (sub !== 'check')
    return usage(io, sub === undefined ? 'authz requires a command: check' : `unknown command ${JSON.stringify(sub)} for "authz"`, 'authz check');
  const file = stringFlag(parsed, 'file');
  let dump: ConfigDump;
  if (file !== undefined && file !== '') {
    const r = await readDump(file, io);
    if (!r.ok) {
      io.stderr(`Error: failed to get config dump from file ${file}: ${r.error}\n`);
      return r.exit;
    }
    dump = r.dump;
  } else {
    if (target === undefined) return usage(io, 'expecting pod name or config dump, found: 0', 'authz check');
    const a = await (deps.analyze ?? analyzeFiles)(files, io);
    if (!a.ok) {
      io.stderr(`Error: ${a.error}\n`);
      return a.exitCode ?? EXIT_ERROR;
    }
    const { name, namespace } = inferName(target, stringFlag(parsed, 'namespace') || 'default');
    const pod = findPod(a.state, name, namespace);
    if (!('key' in pod)) return notFound(io, 'pod', name, pod.candidates);
    const d = (deps.dumpFor ?? ((p: Resource) => generatedDump(a.state.view, p)))(pod);
    if (!d.ok) {
      io.stderr(`Error: failed to get config dump from pod ${pod.name} in ${pod.namespace}: ${d.error}\n`);
      return EXIT_ERROR;
    }
    dump = d.dump;
  }
  io.stdout(authzCheckText(authzCheck(dump)));
  return EXIT_OK;
}
