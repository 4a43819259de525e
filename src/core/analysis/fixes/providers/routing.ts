// Fixes for VirtualService destinations: a host that does not exist (IST0101 host), a port
// the host does not expose (IST0101 host:port), a subset no DestinationRule defines
// (IST0101 host+subset), and a missing port on a multi-port host (IST0112).
import type { QuickFix, Resource } from '../../../document/types.ts';
import { parseFieldPath } from '../../../document/locate.ts';
import { closest } from '../distance.ts';
import { editorFor, fix, type FixProvider } from '../context.ts';
import { portsOfHost, routableHosts, subsetsOfHost } from '../mesh.ts';
import { num, str } from '../../../document/read.ts';
import { virtualService, type Destination } from '../../../config/api/networking.ts';
import { isIstioProxyPort } from '../reservedPorts.ts';

/**
 * The destination at a field path of a VirtualService (`spec.http[0].route[1].destination`,
 * `spec.http[0].mirror`, …), read through its typed view.
 */
function destinationAt(vs: Resource, path: ReadonlyArray<string | number>): Destination | undefined {
  if (path[0] !== 'spec') return undefined;
  let v: unknown = virtualService(vs);
  for (const seg of path.slice(1)) {
    if (typeof seg === 'number') v = Array.isArray(v) ? v[seg] : undefined;
    else v = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, seg) ? (v as Record<string, unknown>)[seg] : undefined;
  }
  // Only a Destination message has a `host` (string) field at the end of such a path.
  return typeof v === 'object' && v !== null && typeof (v as { host?: unknown }).host === 'string' ? (v as Destination) : undefined;
}

/** The destination object's path from the path of its host (`…destination.host` → `…destination`). */
function destinationPath(fieldPath: string | undefined): Array<string | number> | undefined {
  if (!fieldPath) return undefined;
  const p = parseFieldPath(fieldPath);
  return p[p.length - 1] === 'host' ? p.slice(0, -1) : undefined;
}

const MAX_PORT_FIXES = 4;

/** IST0101 for hosts, ports and subsets of route and mirror destinations. */
export const destinationReferenceFixes: FixProvider = ({ message }, ctx) => {
  const vs = message.resource;
  const reftype = str(message.params[0]);
  const dest = destinationPath(message.fieldPath);
  if (!vs || !dest) return [];
  const ed = editorFor(vs, ctx);
  if (!ed) return [];
  const destination = destinationAt(vs, dest);
  if (!destination) return [];
  const { host } = destination;
  if (reftype === 'host' || reftype === 'mirror host') {
    return closest(host, routableHosts(ctx, vs.namespace), (h) => h).flatMap(({ value }) =>
      fix(`Change host to "${value}"`, ed.replaceScalar([...dest, 'host'], value)),
    );
  }
  if (reftype === 'host:port' || reftype === 'mirror host:port') {
    // A gateway's Service lists its health port (15021); traffic is never routed there.
    const ports = (portsOfHost(ctx, vs.namespace, host) ?? []).filter((p) => !isIstioProxyPort(p));
    return ports.slice(0, MAX_PORT_FIXES).flatMap((p) => fix(`Change port to ${p}`, ed.replaceScalar([...dest, 'port', 'number'], p)));
  }
  if (reftype.endsWith('+subset in destinationrule')) {
    const { subset } = destination;
    const subsets = subsetsOfHost(ctx, vs.namespace, host);
    const near = closest(subset, subsets, (s) => s, { maxDistance: Math.max(3, subset.length) });
    return near.flatMap(({ value }) => fix(`Change subset to "${value}"`, ed.replaceScalar([...dest, 'subset'], value)));
  }
  return [];
};

/** IST0112: one fix per port of the destination host. */
export const destinationPortFixes: FixProvider = ({ message }, ctx) => {
  const vs = message.resource;
  const dest = destinationPath(message.fieldPath);
  if (!vs || !dest) return [];
  const ed = editorFor(vs, ctx);
  if (!ed) return [];
  const ports = Array.isArray(message.params[1]) ? (message.params[1] as unknown[]).map(num).filter((n) => n > 0 && !isIstioProxyPort(n)) : [];
  const out: QuickFix[] = [];
  for (const p of ports.slice(0, MAX_PORT_FIXES)) {
    out.push(...fix(`Route to port ${p}`, ed.addMapEntry(dest, 'port', { number: p })));
  }
  return out;
};
