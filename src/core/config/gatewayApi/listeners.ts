// One listener → the server of its Istio Gateway, and the listener's status (conversion.go buildListener,
// buildHostnameMatch, namespacesFromSelector, listenerProtocolToIstio; gatewaycommon/conversion.go
// ReportListenerCondition, ReportListenerConflict, GenerateGatewaySupportedKinds).
import { type CondSpec, type GwObject, type Json, isObject, list, num, obj, optStr, readConditions, setConditions, str, stringRecord } from './objects.ts';
import { EASTWEST_CONTROLLER, MESH_CONTROLLER } from './builtins.ts';
import type { ConversionContext, RouteGroupKind } from './context.ts';
import { GW_GROUP } from './groupKinds.ts';
import { selectorMatches, validSelector, withNameLabel } from './labelSelectors.ts';
import { buildTLS, resolveGatewayTLS } from './listenerTls.ts';

export function buildListener(
  ctx: ConversionContext,
  o: GwObject,
  statuses: Json[],
  gwSpec: Json,
  l: Json,
  index: number,
  controller: string,
  portErr: string | undefined,
): { server: Json | undefined; statuses: Json[]; ok: boolean } {
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'No errors found' },
    Programmed: { reason: 'Programmed', message: 'No errors found' },
    Conflicted: { reason: 'NoConflicts', message: 'No errors found', status: 'False' },
    ResolvedRefs: { reason: 'ResolvedRefs', message: 'No errors found' },
  };
  let ok = true;
  const port = num(l.port);
  const tlsCfg = isObject(l.tls) ? obj(l.tls) : undefined;
  const { tls, error: tlsErr } = buildTLS(ctx, resolveGatewayTLS(port, gwSpec), tlsCfg, o, isAutoPassthrough(o.labels, l));
  if (tlsErr) {
    (conds.ResolvedRefs as CondSpec).error = tlsErr;
    (conds.Programmed as CondSpec).error = { reason: 'Invalid', message: 'Bad TLS configuration' };
    if (tlsErr.reason === 'InvalidCACertificateRef' || tlsErr.reason === 'InvalidCACertificateKind' || tlsErr.reason === 'RefNotPermitted') {
      (conds.Accepted as CondSpec).error = { reason: 'NoValidCACertificate', message: tlsErr.message };
    }
    ok = false;
  }
  const hosts = buildHostnameMatch(ctx, o.namespace, l);
  if (portErr !== undefined) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: portErr };
    ok = false;
  }
  const protocol = str(l.protocol);
  const p = listenerProtocolToIstio(controller, protocol);
  if ('error' in p) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: p.error };
    ok = false;
  }
  if (controller === MESH_CONTROLLER && (port !== 15008 || protocol !== 'HBONE')) {
    (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: 'Expected a single listener on port 15008 with protocol "HBONE"' };
  }
  if (controller === EASTWEST_CONTROLLER && unexpectedEastWestListener(l)) {
    (conds.Accepted as CondSpec).error = {
      reason: 'UnsupportedProtocol',
      message: 'East-west gateway listeners must be either port 15008 with protocol "HBONE" and TLS.Mode == Terminate, or TLS with TLS.Mode == Passthrough',
    };
  }
  let server: Json | undefined = {
    port: { name: 'default', number: port, ...('error' in p ? {} : { protocol: p.protocol }) },
    hosts,
    ...(tls ? { tls } : {}),
  };
  if (!tls && (protocol === 'HTTPS' || protocol === 'TLS')) {
    server = undefined;
    if (o.kind === 'ListenerSet') {
      ok = false;
      (conds.Accepted as CondSpec).error = { reason: 'UnsupportedProtocol', message: `protocol is ${protocol} but no TLS section is defined` };
      (conds.Programmed as CondSpec).error = { reason: 'Invalid', message: 'Bad TLS configuration' };
    }
  }
  return { server, statuses: reportListenerCondition(ctx, index, l, o, statuses, conds), ok };
}

export function reportListenerConflict(ctx: ConversionContext, index: number, l: Json, o: GwObject, statuses: Json[], reason: string): Json[] {
  const msg = 'Listener has a conflict with another listener attached to the same Gateway';
  return reportListenerCondition(ctx, index, l, o, statuses, {
    Accepted: { error: { reason, message: msg } },
    Programmed: { error: { reason, message: msg } },
    Conflicted: { reason, message: msg, status: 'True' },
  });
}

function reportListenerCondition(ctx: ConversionContext, index: number, l: Json, o: GwObject, statuses: Json[], conds: Record<string, CondSpec>): Json[] {
  const out = statuses.slice();
  while (index >= out.length) out.push({});
  const prior = readConditions(obj(out[index]).conditions);
  const sk = supportedKinds(l);
  if (!sk.valid) conds.ResolvedRefs = { reason: 'InvalidRouteKinds', status: 'False', message: 'Invalid route kinds' };
  out[index] = {
    attachedRoutes: 0,
    conditions: setConditions(o.generation, prior, conds, ctx.now),
    name: str(l.name),
    supportedKinds: sk.kinds.map((k) => ({ ...(k.group !== undefined ? { group: k.group } : {}), kind: k.kind })),
  };
  return out;
}

function buildHostnameMatch(ctx: ConversionContext, localNs: string, l: Json): string[] {
  const hostname = optStr(l.hostname) ?? '*';
  const resp: string[] = [];
  for (const ns of namespacesFromSelector(ctx, localNs, l.allowedRoutes)) if (ns.length > 0) resp.push(`${ns}/${hostname}`);
  return resp.length === 0 ? [`~/${hostname}`] : resp;
}

function namespacesFromSelector(ctx: ConversionContext, localNs: string, allowedRoutes: unknown): string[] {
  const ar = isObject(allowedRoutes) ? allowedRoutes : undefined;
  const nsCfg = ar && isObject(ar.namespaces) ? ar.namespaces : undefined;
  const from = nsCfg ? optStr(nsCfg.from) : undefined;
  if (!nsCfg || from === undefined || from === 'Same') return [localNs];
  if (from === 'All') return ['*'];
  if (!isObject(nsCfg.selector)) return ['*'];
  const sel = nsCfg.selector;
  if (!validSelector(sel)) return [];
  const out: string[] = [];
  for (const n of ctx.all('Namespace')) if (selectorMatches(sel, withNameLabel(n.name, { ...n.labels }))) out.push(n.name);
  return out.sort();
}

export function supportedKinds(l: Json): { kinds: RouteGroupKind[]; valid: boolean } {
  let supported: RouteGroupKind[] = [];
  const protocol = str(l.protocol);
  if (protocol === 'HTTP' || protocol === 'HTTPS')
    supported = [
      { group: GW_GROUP, kind: 'HTTPRoute' },
      { group: GW_GROUP, kind: 'GRPCRoute' },
    ];
  else if (protocol === 'TCP') supported = [{ group: GW_GROUP, kind: 'TCPRoute' }];
  else if (protocol === 'TLS') {
    supported = [{ group: GW_GROUP, kind: 'TLSRoute' }];
    if (isObject(l.tls) && str(l.tls.mode) === 'Terminate') supported.push({ group: GW_GROUP, kind: 'TCPRoute' });
  }
  const ar = obj(l.allowedRoutes);
  const kinds = list(ar.kinds).map(obj);
  if (kinds.length > 0) {
    const inter = supported.filter((s) => kinds.some((k) => str(k.kind) === s.kind && (optStr(k.group) ?? GW_GROUP) === (s.group ?? GW_GROUP)));
    return { kinds: inter, valid: inter.length === kinds.length };
  }
  return { kinds: supported, valid: true };
}

function listenerProtocolToIstio(controller: string, p: string): { protocol: string } | { error: string } {
  if (p === 'HTTP' || p === 'HTTPS' || p === 'TLS' || p === 'TCP') return { protocol: p };
  if (p === 'HBONE') {
    if (controller !== MESH_CONTROLLER && controller !== EASTWEST_CONTROLLER)
      return { error: `protocol ${JSON.stringify(p)} is only supported for waypoint proxies` };
    return { protocol: p };
  }
  const up = p.toUpperCase();
  if (['HTTP', 'HTTPS', 'TLS', 'TCP', 'HBONE'].includes(up))
    return { error: `protocol ${JSON.stringify(p)} is unsupported. hint: ${JSON.stringify(up)} (uppercase) may be supported` };
  return { error: `protocol ${JSON.stringify(p)} is unsupported` };
}

function unexpectedEastWestListener(l: Json): boolean {
  const tls = isObject(l.tls) ? l.tls : undefined;
  if (num(l.port) === 15008) return str(l.protocol) !== 'HBONE' || !tls || str(tls.mode) !== 'Terminate';
  if (str(l.protocol) === 'TLS' && tls && str(tls.mode) === 'Passthrough') return false;
  return true;
}

function isAutoPassthrough(gwLabels: Readonly<Record<string, string>>, l: Json): boolean {
  if (!isObject(l.tls)) return false;
  if (stringRecord(l.tls.options)['gateway.istio.io/listener-protocol'] === 'auto-passthrough') return true;
  if (!Object.hasOwn(gwLabels, 'topology.istio.io/network')) return false;
  const expected = gwLabels['networking.istio.io/gatewayPort'] ?? '15443';
  return String(num(l.port)) === expected;
}
