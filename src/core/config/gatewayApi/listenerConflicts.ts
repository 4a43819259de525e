// Listeners of a Gateway and its ListenerSets that conflict with an earlier one
// (gatewaycommon/listener_conflict.go, listener_conflict_collection.go), and which ListenerSets a Gateway
// allows (gatewaycommon/gateway_utils.go NamespaceAcceptedByAllowListeners, ListenerEntryPortNumber).
import { type GwObject, type Json, isObject, list, num, obj, optStr, spec, str } from './objects.ts';
import type { ConversionContext } from './context.ts';
import { cmp } from './istioConfig.ts';
import { selectorMatches, withNameLabel } from './labelSelectors.ts';
import { mapAt } from '../../document/maps.ts';

/** gatewaycommon.GatewayListenerConflictCollection for one Gateway: owner key → listener → reason. */
export function conflictsFor(ctx: ConversionContext, gw: GwObject): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const cls = ctx.fetchClass(str(spec(gw).gatewayClassName));
  if (!cls) return out;
  const info = ctx.classInfos.get(cls.controller);
  if (!info || !info.supportsListenerSet) return out;
  const eligible = listenerSetsFor(ctx, gw).filter((ls) => namespaceAcceptedByAllowListeners(ctx, ls.namespace, gw));
  const merged: { l: Json; owner: string }[] = [];
  for (const l of list(spec(gw).listeners)) merged.push({ l: obj(l), owner: `Gateway/${gw.namespace}/${gw.name}` });
  const sets = eligible.slice().sort((a, b) => a.created - b.created || cmp(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`));
  for (const ls of sets) {
    for (const raw of list(spec(ls).listeners)) {
      const l = { ...obj(raw) };
      const p = listenerEntryPort(l);
      if (p.port !== undefined) l.port = p.port;
      merged.push({ l, owner: `ListenerSet/${ls.namespace}/${ls.name}` });
    }
  }
  const accepted: Json[] = [];
  for (const e of merged) {
    const prior = accepted.find((p) => !listenersDistinct(e.l, p));
    if (prior) {
      const m = mapAt(out, e.owner);
      m.set(str(e.l.name), listenerConflictReason(e.l, prior));
      continue;
    }
    accepted.push(e.l);
  }
  return out;
}

function listenerSetsFor(ctx: ConversionContext, gw: GwObject): GwObject[] {
  return ctx.all('ListenerSet').filter((ls) => {
    const p = obj(spec(ls).parentRef);
    return (optStr(p.namespace) ?? ls.namespace) === gw.namespace && str(p.name) === gw.name;
  });
}

export function namespaceAcceptedByAllowListeners(ctx: ConversionContext, localNs: string, parent: GwObject): boolean {
  const lr = obj(spec(parent).allowedListeners);
  if (!isObject(lr.namespaces)) return false;
  const n = obj(lr.namespaces);
  const from = optStr(n.from);
  if (from !== undefined) {
    if (from === 'All') return true;
    if (from === 'Same') return localNs === parent.namespace;
    if (from !== 'Selector') return false;
  }
  if (!isObject(n.selector)) return false;
  const labels = ctx.namespaceLabels(localNs);
  if (!labels) return false;
  return selectorMatches(n.selector, withNameLabel(localNs, labels));
}

export function listenerEntryPort(l: Json): { port?: number; error?: string } {
  const p = num(l.port);
  if (p !== 0) return { port: p };
  const protocol = str(l.protocol);
  if (protocol === 'HTTP') return { port: 80 };
  if (protocol === 'HTTPS') return { port: 443 };
  return { port: 0, error: `protocol ${protocol} requires a port to be set` };
}

function isTCPUDP(p: string): boolean {
  return p === 'TCP' || p === 'UDP';
}

function isHTTPLike(p: string): boolean {
  return p === 'HTTP' || p === 'HTTPS' || p === 'TLS';
}

function listenerHostname(l: Json): string {
  const h = optStr(l.hostname);
  return h === undefined || h === '' ? '*' : h;
}

function listenersDistinct(a: Json, b: Json): boolean {
  if (num(a.port) !== num(b.port)) return true;
  const pa = str(a.protocol);
  const pb = str(b.protocol);
  if ((isTCPUDP(pa) && isHTTPLike(pb)) || (isHTTPLike(pa) && isTCPUDP(pb))) return false;
  if (isTCPUDP(pa) && isTCPUDP(pb)) return false;
  if (isHTTPLike(pa) && isHTTPLike(pb)) return listenerHostname(a) !== listenerHostname(b);
  return pa !== pb;
}

function listenerConflictReason(a: Json, b: Json): string {
  const pa = str(a.protocol);
  const pb = str(b.protocol);
  if (isTCPUDP(pa) && isTCPUDP(pb)) return 'ProtocolConflict';
  if (pa !== pb) return 'ProtocolConflict';
  return 'HostnameConflict';
}
