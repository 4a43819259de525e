// Fixes for Service port names Istio cannot read a protocol from: prefix the name with a
// protocol (IST0118), or give an ExternalName Service's port an HTTP-family name (IST0150).
import type { QuickFix, Resource } from '../../../document/types.ts';
import { parseFieldPath } from '../../../document/locate.ts';
import { editorFor, fix, type FixProvider, type ResourceEditor } from '../context.ts';
import { num, str } from '../../../document/read.ts';
import { serviceSpec, type KubeServicePort } from '../../../config/api/kube.ts';
import { protocolUnsupported } from '../../../config/protocol.ts';
import { isMappingAt } from '../../../config/views.ts';

/** Kubernetes limits port names to 15 characters (IANA service names). */
const MAX_PORT_NAME = 15;

const BY_PORT: Readonly<Record<number, string>> = {
  80: 'http',
  8000: 'http',
  8080: 'http',
  9080: 'http',
  3000: 'http',
  5000: 'http',
  9090: 'http',
  443: 'https',
  8443: 'https',
  50051: 'grpc',
  3306: 'mysql',
  6379: 'redis',
  27017: 'mongo',
  15443: 'tls',
};

const APP_PROTOCOLS: Readonly<Record<string, string>> = {
  'kubernetes.io/h2c': 'http2',
  'kubernetes.io/ws': 'http',
  'kubernetes.io/wss': 'https',
};

/** A target port as a number (a string of digits counts; a named one does not). */
function targetPortNumber(v: number | string | undefined): number {
  return typeof v === 'number' ? v : num(v);
}

/** The protocol a port most likely speaks: appProtocol, its name, then well-known port numbers. */
export function guessProtocol(port: KubeServicePort): string {
  const app = (port.appProtocol ?? '').toLowerCase();
  if (APP_PROTOCOLS[app]) return APP_PROTOCOLS[app] as string;
  if (/^(http2?|https|grpc|grpc-web|tls|tcp|mongo|redis|mysql)$/.test(app)) return app;
  const name = port.name.toLowerCase();
  if (name.includes('grpc')) return 'grpc';
  if (name.includes('https')) return 'https';
  if (/http|web|api|rest|ui|metrics/.test(name)) return 'http';
  if (name.includes('tls') || name.includes('ssl')) return 'tls';
  for (const p of ['mongo', 'redis', 'mysql']) if (name.includes(p)) return p;
  return BY_PORT[port.port] ?? BY_PORT[targetPortNumber(port.targetPort)] ?? 'tcp';
}

/** `<protocol>-<name>` (or `<protocol>-<port>` when that is too long), unique among the Service's ports. */
function prefixedName(protocol: string, port: KubeServicePort, taken: ReadonlySet<string>): string {
  const name = port.name;
  const options = [name ? `${protocol}-${name}` : '', `${protocol}-${port.port}`, protocol].filter((n) => n && n.length <= MAX_PORT_NAME);
  return options.find((n) => !taken.has(n)) ?? `${protocol}-${port.port}`;
}

/** The index of the port a message is about (from `spec.ports[i]…`, else by name and number). */
function portIndex(fieldPath: string | undefined, ports: readonly KubeServicePort[], name: string, number: number): number {
  const p = fieldPath ? parseFieldPath(fieldPath) : [];
  if (p[0] === 'spec' && p[1] === 'ports' && typeof p[2] === 'number') return p[2];
  return ports.findIndex((x) => x.name === name && x.port === number);
}

/** The port a message is about, when the Service writes it as a mapping. */
function portAt(svc: Resource, ports: readonly KubeServicePort[], index: number): KubeServicePort | undefined {
  return isMappingAt(svc, ['spec', 'ports', index]) ? ports[index] : undefined;
}

function renamePort(ed: ResourceEditor, index: number, port: KubeServicePort, newName: string): QuickFix[] {
  const title = port.name ? `Rename port "${port.name}" to "${newName}"` : `Name port ${port.port} "${newName}"`;
  const edit =
    port.name !== '' || ed.has(['spec', 'ports', index, 'name'])
      ? ed.replaceScalar(['spec', 'ports', index, 'name'], newName)
      : ed.addMapEntry(['spec', 'ports', index], 'name', newName);
  return fix(title, edit);
}

/** IST0118: the guessed protocol first, then the generic alternatives. */
export const portNameFixes: FixProvider = ({ message }, ctx) => {
  const svc = message.resource;
  const ed = editorFor(svc, ctx);
  if (!svc || !ed) return [];
  const { ports } = serviceSpec(svc);
  const i = portIndex(message.fieldPath, ports, str(message.params[0]), num(message.params[1]));
  const port = portAt(svc, ports, i);
  if (!port) return [];
  const taken = new Set(ports.map((p) => p.name));
  const out: QuickFix[] = [];
  const seen = new Set<string>();
  if (port.appProtocol !== undefined) {
    // appProtocol wins over the name, so that is the field to correct.
    for (const protocol of [guessProtocol({ ...port, appProtocol: '' }), 'http', 'tcp']) {
      if (seen.has(protocol)) continue;
      seen.add(protocol);
      out.push(...fix(`Set appProtocol to "${protocol}"`, ed.replaceScalar(['spec', 'ports', i, 'appProtocol'], protocol)));
    }
    return out;
  }
  for (const protocol of [guessProtocol(port), 'http', 'tcp']) {
    const name = prefixedName(protocol, port, taken);
    if (seen.has(name) || protocolUnsupported(port.port, name, port.protocol, undefined)) continue;
    seen.add(name);
    out.push(...renamePort(ed, i, port, name));
  }
  return out;
};

/** IST0150: ExternalName Services need HTTP-family port names for the proxy to forward traffic. */
export const externalNamePortFixes: FixProvider = ({ message }, ctx) => {
  const svc = message.resource;
  const ed = editorFor(svc, ctx);
  if (!svc || !ed) return [];
  const { ports } = serviceSpec(svc);
  const p = message.fieldPath ? parseFieldPath(message.fieldPath) : [];
  const i = typeof p[2] === 'number' ? p[2] : -1;
  const port = portAt(svc, ports, i);
  if (!port) return [];
  const taken = new Set(ports.map((x) => x.name));
  const guess = guessProtocol(port);
  const protocols = guess === 'grpc' || guess === 'http2' ? [guess, 'http'] : ['http', 'http2'];
  const out: QuickFix[] = [];
  for (const protocol of protocols) {
    const base = port.name === 'tcp' ? { ...port, name: '' } : port;
    out.push(...renamePort(ed, i, port, prefixedName(protocol, base, taken)));
  }
  return out;
};
