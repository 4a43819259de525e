// `mesh-workbench ztunnel-config …` and `mesh-workbench trace …`: the ambient data plane
// simulated from files, printed as istioctl prints a ztunnel's config, and a request traced
// hop by hop.
import { flagHelp, parseArgs, UsageError, type FlagSpec } from './args.ts';
import { checkPodCidr, EXIT_ERROR, EXIT_OK, EXIT_USAGE, inputErrorExit, POD_CIDR_HELP, type CliIo } from './analyze.ts';
import { gatherFiles, InputError } from './files.ts';
import { MODEL_LIMIT } from './readCapped.ts';
import { loadMesh } from '../core/meshLoader.ts';
import { buildAmbientModel } from '../core/ambient/dataPlane.ts';
import { certificatesTable, nodeView, policiesTable, servicesTable, tabwrite, workloadsTable, type Table } from '../core/ambient/ztunnel.ts';
import { traceRequest } from '../core/ambient/trace.ts';
import type { AmbientSettings } from '../core/ambient/settings.ts';

/** Exit code of a trace whose request is denied (an error, like a refused connection, gives 1). */
export const EXIT_DENIED = 3;

const COMMON: FlagSpec[] = [
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for this command.' },
  { long: 'file', short: 'f', kind: 'list', arg: 'path', help: 'A manifest file or directory (- for stdin); repeatable, and positional paths work too.' },
  {
    long: 'nodes',
    kind: 'string',
    arg: 'names',
    help: 'Comma-separated node list for pods that name no node (default: the nodes your files name, else node-a,node-b).',
  },
  { long: 'exclude-namespaces', kind: 'string', arg: 'names', help: "istio-cni's excludeNamespaces (default kube-system)." },
  { long: 'pod-cidr', kind: 'string', arg: 'cidr', help: POD_CIDR_HELP },
  { long: 'placeholders', kind: 'bool', help: "Assume Istio's ingress gateway Pod and Service when the files have none." },
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: 'Output format: short (default) or json.' },
];

export const ZTUNNEL_CONFIG_FLAGS: FlagSpec[] = [
  ...COMMON,
  {
    long: 'node',
    kind: 'string',
    arg: 'name',
    help: 'The ztunnel to ask: the one on this node (every ztunnel holds the same workloads, services and policies; certificates are per node).',
  },
  { long: 'workload-namespace', kind: 'string', arg: 'ns', help: 'workloads: only this namespace.' },
  { long: 'workload-node', kind: 'string', arg: 'name', help: 'workloads: only workloads on this node.' },
  { long: 'address', kind: 'string', arg: 'ip', help: 'workloads: only the workload with this IP.' },
  { long: 'service-namespace', kind: 'string', arg: 'ns', help: 'services: only this namespace.' },
  { long: 'policy-namespace', kind: 'string', arg: 'ns', help: 'policies: only this namespace.' },
  { long: 'with-headers', kind: 'bool', help: 'all: print a header line before each section.' },
];

export const TRACE_FLAGS: FlagSpec[] = [
  ...COMMON,
  { long: 'from', kind: 'string', arg: 'ns/pod', help: 'The client pod (namespace/name).' },
  { long: 'to', kind: 'string', arg: 'host:port', help: 'The destination: a Service host, ServiceEntry host or IP, and a port.' },
  { long: 'method', kind: 'string', arg: 'method', help: 'HTTP method (default GET).' },
  { long: 'path', kind: 'string', arg: 'path', help: 'HTTP path (default /).' },
  { long: 'tcp', kind: 'bool', help: 'A plain TCP connection instead of an HTTP request.' },
];

export function ztunnelConfigHelp(): string {
  return `Print what a ztunnel receives from istiod, simulated from your files, as istioctl ztunnel-config prints it.

Usage:
  mesh-workbench ztunnel-config workloads|services|policies|certificates|all [flags] -f <file|directory|-> ...

Flags:
${flagHelp(ZTUNNEL_CONFIG_FLAGS)}
`;
}

export function traceHelp(): string {
  return `Trace a request through the ambient data plane, hop by hop, simulated from your files.

Usage:
  mesh-workbench trace --from ns/pod --to host:port [--method GET --path /] [flags] -f <file|directory|-> ...

Exit codes: 0 allowed, ${EXIT_DENIED} denied, 1 error (for example no healthy upstream), 64 usage,
65 an input over the input limit (what the machine can hold; see docs/cli.md).

Flags:
${flagHelp(TRACE_FLAGS)}
`;
}

function settingsFrom(values: Map<string, string | boolean | string[]>): AmbientSettings {
  const list = (k: string) =>
    typeof values.get(k) === 'string'
      ? (values.get(k) as string)
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : undefined;
  const nodes = list('nodes');
  const exclude = list('exclude-namespaces');
  return { ...(nodes ? { cluster: { nodes } } : {}), ...(exclude ? { cni: { excludeNamespaces: exclude } } : {}) };
}

async function load(positional: readonly string[], values: Map<string, string | boolean | string[]>, io: CliIo) {
  const flagged = values.get('file');
  const inputs = [...(Array.isArray(flagged) ? flagged : []), ...positional];
  if (inputs.length === 0) throw new UsageError('no input files (give files, directories or - for stdin)');
  const podCidr = values.get('pod-cidr');
  if (typeof podCidr === 'string') checkPodCidr(podCidr);
  const files = await gatherFiles(inputs, { cwd: io.cwd, stdin: io.stdin, stderr: io.stderr });
  const mesh = loadMesh(
    files.map((f) => ({ path: f.name, text: f.text })),
    { includePlaceholders: values.get('placeholders') === true, ...(typeof podCidr === 'string' ? { podCidr } : {}), model: MODEL_LIMIT },
  );
  for (const p of mesh.problems) io.stderr(`Warning: ${p}\n`);
  return mesh;
}

function outputFormat(values: Map<string, string | boolean | string[]>): 'short' | 'json' {
  const o = values.get('output');
  if (o === undefined || o === 'short') return 'short';
  if (o === 'json') return 'json';
  throw new UsageError(`invalid output format "${String(o)}" (short or json)`);
}

export async function runDataPlaneCommand(command: 'ztunnel-config' | 'trace', argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const specs = command === 'trace' ? TRACE_FLAGS : ZTUNNEL_CONFIG_FLAGS;
    const parsed = parseArgs(argv, specs);
    if (parsed.values.get('help') === true) {
      io.stdout(command === 'trace' ? traceHelp() : ztunnelConfigHelp());
      return EXIT_OK;
    }
    const format = outputFormat(parsed.values);
    if (command === 'trace') return await runTrace(parsed.positionals, parsed.values, format, io);
    return await runZtunnelConfig(parsed.positionals, parsed.values, format, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`Error: ${e.message}\nRun 'mesh-workbench ${command} --help' for usage.\n`);
      return EXIT_USAGE;
    }
    if (e instanceof InputError) {
      io.stderr(`Error: ${e.message}\n`);
      return inputErrorExit(e);
    }
    throw e;
  }
}

const KINDS = ['workloads', 'services', 'policies', 'certificates', 'all'] as const;
const ALIASES: Record<string, (typeof KINDS)[number]> = {
  workload: 'workloads',
  service: 'services',
  policy: 'policies',
  certificate: 'certificates',
  certs: 'certificates',
  secret: 'certificates',
  secrets: 'certificates',
};

async function runZtunnelConfig(positionals: string[], values: Map<string, string | boolean | string[]>, format: 'short' | 'json', io: CliIo): Promise<number> {
  const [kindArg, ...inputs] = positionals;
  const kind = kindArg === undefined ? undefined : (KINDS as readonly string[]).includes(kindArg) ? (kindArg as (typeof KINDS)[number]) : ALIASES[kindArg];
  if (!kind)
    throw new UsageError(
      kindArg === undefined
        ? 'say which table: workloads, services, policies, certificates or all'
        : `unknown ztunnel-config type "${kindArg}" (workloads, services, policies, certificates, all)`,
    );
  const { view } = await load(inputs, values, io);
  const model = buildAmbientModel(view, settingsFrom(values));
  const nodes = model.cluster.nodes.map((n) => n.name);
  const node = typeof values.get('node') === 'string' ? (values.get('node') as string) : (nodes[0] ?? '');
  if (!nodes.includes(node)) {
    io.stderr(`Error: no node "${node}" (nodes: ${nodes.join(', ')})\n`);
    return EXIT_ERROR;
  }
  const str = (k: string) => (typeof values.get(k) === 'string' ? (values.get(k) as string) : undefined);
  const st = model.ztunnel;
  const workloads = workloadsTable(st, { namespace: str('workload-namespace'), node: str('workload-node'), address: str('address') });
  const services = servicesTable(st, { namespace: str('service-namespace') });
  const policies = policiesTable(st, { namespace: str('policy-namespace') });
  const nv = nodeView(model.cluster, st, node);
  const certificates = certificatesTable(nv);
  if (format === 'json') {
    const out: Record<string, unknown> = {};
    if (kind === 'workloads' || kind === 'all') out.workloads = workloads.records.map((w) => w.json);
    if (kind === 'services' || kind === 'all') {
      out.services = services.records.map((s) => ({
        name: s.name,
        namespace: s.namespace,
        hostname: s.hostname,
        vips: s.vips.map((ip) => `/${ip}`),
        ports: Object.fromEntries(s.ports.map((p) => [p.servicePort, p.targetPort])),
        endpoints: Object.fromEntries(
          s.workloads
            .filter((w) => s.allowAll || w.healthy)
            .map((w) => [
              w.json.uid,
              {
                workloadUid: w.json.uid,
                service: `${s.namespace}/${s.hostname}`,
                port: Object.fromEntries((w.services.get(s.key) ?? []).map((p) => [p.servicePort, p.targetPort])),
              },
            ]),
        ),
        ...(s.binding.waypoint
          ? {
              waypoint: {
                destination: s.binding.waypoint.address.hostname
                  ? `${s.binding.waypoint.address.hostname.namespace}/${s.binding.waypoint.address.hostname.hostname}`
                  : `/${s.binding.waypoint.address.ip ?? ''}`,
                hboneMtlsPort: 15008,
              },
            }
          : {}),
        subjectAltNames: s.subjectAltNames,
        canonical: true,
      }));
    }
    if (kind === 'policies' || kind === 'all') out.policies = policies.records;
    if (kind === 'certificates' || kind === 'all') out.certificates = nv.certificates.map((c) => ({ identity: c.identity, state: 'Available', pods: c.pods }));
    io.stdout(`${JSON.stringify(kind === 'all' ? out : Object.values(out)[0], null, 4)}\n`);
    return EXIT_OK;
  }
  const section = (title: string, t: Table, padding = 1) =>
    (kind === 'all' && values.get('with-headers') === true ? `------ ${title} ------\n` : '') + tabwrite(t, padding);
  const parts: string[] = [];
  if (kind === 'workloads' || kind === 'all') parts.push(section('WORKLOAD INFO', workloads));
  if (kind === 'services' || kind === 'all') parts.push(section('SERVICE INFO', services));
  if (kind === 'policies' || kind === 'all') parts.push(section('POLICY INFO', policies));
  if (kind === 'certificates' || kind === 'all') parts.push(section('CERTIFICATE INFO', certificates, 5));
  io.stdout(parts.join(kind === 'all' ? '\n' : ''));
  return EXIT_OK;
}

async function runTrace(inputs: string[], values: Map<string, string | boolean | string[]>, format: 'short' | 'json', io: CliIo): Promise<number> {
  const from = values.get('from');
  const to = values.get('to');
  if (typeof from !== 'string' || typeof to !== 'string') throw new UsageError('a trace needs --from ns/pod and --to host:port');
  const { view } = await load(inputs, values, io);
  const model = buildAmbientModel(view, settingsFrom(values));
  const method = typeof values.get('method') === 'string' ? (values.get('method') as string) : 'GET';
  const path = typeof values.get('path') === 'string' ? (values.get('path') as string) : '/';
  const r = traceRequest(view, model, { from, to, request: values.get('tcp') === true ? 'TCP' : `${method} ${path}` });
  if (format === 'json') {
    io.stdout(`${JSON.stringify(r, null, 2)}\n`);
  } else {
    const lines: string[] = [`${r.result}${r.deniedAt ? ` at ${r.deniedAt.text}` : ''}${r.error ? `: ${r.error}` : ''}`, ''];
    r.hops.forEach((h, i) => {
      lines.push(`${String(i + 1).padStart(2)}. ${h.text}`);
      for (const p of h.policies ?? []) lines.push(`      ${p.matched ? '✔' : '·'} ${p.action.toUpperCase()} ${p.key}: ${p.why}`);
    });
    if (r.enforcement.length > 0) {
      lines.push('', 'Enforcement:');
      for (const e of r.enforcement)
        lines.push(
          `  ${e.point}${e.listener ? ` (:${e.listener})` : ''} ${e.layer}: ${e.decision} — source ${e.sourceIdentity ?? 'no identity'}; policies ${e.policies.length > 0 ? e.policies.join(', ') : 'none'}; ${e.why}`,
        );
    }
    if (r.waypointUsed) lines.push('', `Waypoint: ${r.waypointUsed}`);
    if (r.clientSees) lines.push(`The client sees: ${r.clientSees}`);
    for (const n of r.notes) lines.push(`Note: ${n}`);
    io.stdout(`${lines.join('\n')}\n`);
  }
  return r.result === 'ALLOW' ? EXIT_OK : r.result === 'DENY' ? EXIT_DENIED : EXIT_ERROR;
}
