// A config patch in a few words, for the places that say what it is looking for: the
// Proxy config view's note on this proxy's unused patches and the analysis finding that a
// patch applies to no proxy. Only what the patch wrote is named.
import type { ObjectMatch, PatchWrapper } from './wrapper.ts';

function quoted(v: string): string {
  return JSON.stringify(v);
}

/** What the match selects, field by field as written (`listener port 9080, filter "…"`). */
export function describeMatch(m: ObjectMatch): string[] {
  const out: string[] = [`context ${m.context}`];
  const l = m.listener;
  if (l) {
    if (l.name) out.push(`listener ${quoted(l.name)}`);
    if (l.portNumber) out.push(`listener port ${l.portNumber}`);
    if (l.listenerFilter) out.push(`listener filter ${quoted(l.listenerFilter)}`);
    const fc = l.filterChain;
    if (fc) {
      if (fc.name) out.push(`filter chain ${quoted(fc.name)}`);
      if (fc.sni) out.push(`SNI ${quoted(fc.sni)}`);
      if (fc.transportProtocol) out.push(`transport protocol ${quoted(fc.transportProtocol)}`);
      if (fc.applicationProtocols) out.push(`application protocols ${quoted(fc.applicationProtocols)}`);
      if (fc.destinationPort) out.push(`destination port ${fc.destinationPort}`);
      if (fc.filter?.name) out.push(`filter ${quoted(fc.filter.name)}`);
      if (fc.filter?.subFilter?.name) out.push(`sub-filter ${quoted(fc.filter.subFilter.name)}`);
    }
  }
  const rc = m.routeConfiguration;
  if (rc) {
    if (rc.name) out.push(`route configuration ${quoted(rc.name)}`);
    if (rc.portNumber) out.push(`route configuration port ${rc.portNumber}`);
    if (rc.portName) out.push(`port name ${quoted(rc.portName)}`);
    if (rc.gateway) out.push(`gateway ${quoted(rc.gateway)}`);
    if (rc.vhost?.name) out.push(`virtual host ${quoted(rc.vhost.name)}`);
    if (rc.vhost?.domainName) out.push(`domain ${quoted(rc.vhost.domainName)}`);
    if (rc.vhost?.route?.name) out.push(`route ${quoted(rc.vhost.route.name)}`);
    if (rc.vhost?.route && rc.vhost.route.action !== 'ANY') out.push(`route action ${rc.vhost.route.action}`);
  }
  const c = m.cluster;
  if (c) {
    if (c.name) out.push(`cluster ${quoted(c.name)}`);
    if (c.service) out.push(`service ${quoted(c.service)}`);
    if (c.subset) out.push(`subset ${quoted(c.subset)}`);
    if (c.portNumber) out.push(`cluster port ${c.portNumber}`);
  }
  return out;
}

/** `HTTP_FILTER INSERT_BEFORE (context SIDECAR_INBOUND, listener port 9080, …)`. */
export function describePatch(p: PatchWrapper): string {
  return `${p.applyTo} ${p.operation} (${describeMatch(p.match).join(', ')})`;
}
