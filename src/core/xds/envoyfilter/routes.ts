// ROUTE_CONFIGURATION, VIRTUAL_HOST and HTTP_ROUTE patches
// (pilot/pkg/networking/core/envoyfilter/rc_patch.go). Route configuration MERGE first, then
// per virtual host REMOVE/MERGE/REPLACE and its routes (REMOVE/MERGE per route, then
// ADD/INSERT_*), then virtual host ADDs; removed virtual hosts go by name, so an added one of
// the same name goes too.
import type { Json } from '../types.ts';
import { mark, patchRef } from '../provenance.ts';
import { mergeMessage } from './protoJson.ts';
import { contextMatches, patchesFor } from './select.ts';
import { hit, valueCopy, type PatchRun } from './run.ts';
import { parseSubsetKey } from './clusters.ts';
import type { PatchContext, PatchWrapper } from './wrapper.ts';
import { isObj } from '../../document/read.ts';

const ROUTE_CONFIGURATION = 'envoy.config.route.v3.RouteConfiguration';
const VIRTUAL_HOST = 'envoy.config.route.v3.VirtualHost';
const ROUTE = 'envoy.config.route.v3.Route';

/** Gateway listener port → the server ports behind it (model.GatewayPortMap). */
export type GatewayPortMap = ReadonlyMap<number, ReadonlySet<number>>;

function isMerge(p: PatchWrapper): boolean {
  return p.operation === 'MERGE' || p.operation === 'MERGE_AND_REPLACE_LIST';
}

function atoi(s: string): number {
  return /^[+-]?\d+$/.test(s) ? Number(s) : 0;
}

/** model.ParseGatewayRDSRouteName. */
export function parseGatewayRdsRouteName(name: string): { port: number; portName: string; gateway: string } {
  if (name.startsWith('http.')) return { port: atoi(name.slice(5)), portName: '', gateway: '' };
  if (name.startsWith('https.') && name.split('.').length - 1 === 4) {
    const [port, portName, gwName, gwNs] = name.slice(6).split('.') as [string, string, string, string];
    return { port: atoi(port), portName, gateway: `${gwNs}/${gwName}` };
  }
  return { port: 0, portName: '', gateway: '' };
}

function listenerPortFromName(name: string): number {
  if (name.startsWith('inbound')) return parseSubsetKey(name).port;
  return atoi(name);
}

function anyPortMatches(m: GatewayPortMap | undefined, port: number, want: number): boolean {
  const servers = m?.get(port);
  if (servers) return servers.has(want);
  return port === want;
}

/** routeConfigurationMatch. */
export function routeConfigurationMatch(pctx: PatchContext, rc: Json, p: PatchWrapper, portMap: GatewayPortMap | undefined): boolean {
  const m = p.match.routeConfiguration;
  if (!m) return true;
  const name = typeof rc.name === 'string' ? rc.name : '';
  if (m.name !== '' && m.name !== name) return false;
  if (pctx !== 'GATEWAY') return m.portNumber === 0 || m.portNumber === listenerPortFromName(name);
  const g = parseGatewayRdsRouteName(name);
  if (m.portName !== '' && m.portName !== g.portName) return false;
  if (m.gateway !== '' && m.gateway !== g.gateway) return false;
  if (m.portNumber !== 0 && !anyPortMatches(portMap, g.port, m.portNumber)) return false;
  return true;
}

export function virtualHostMatch(vh: Json | undefined, p: PatchWrapper): boolean {
  const m = p.match.routeConfiguration?.vhost;
  if (!m) return true;
  if (!vh) return false;
  const domains = Array.isArray(vh.domains) ? vh.domains : [];
  return (m.name === '' || m.name === vh.name) && (m.domainName === '' || domains.includes(m.domainName));
}

function hasRouteMatch(p: PatchWrapper): boolean {
  return p.match.routeConfiguration?.vhost?.route !== undefined;
}

export function routeMatch(r: Json | null, p: PatchWrapper): boolean {
  const m = p.match.routeConfiguration?.vhost?.route;
  if (!m) return true;
  if (!r) return false;
  if (m.name !== '' && m.name !== r.name) return false;
  if (m.action !== 'ANY') {
    if (r.route !== undefined) return m.action === 'ROUTE';
    if (r.redirect !== undefined) return m.action === 'REDIRECT';
    if (r.directResponse !== undefined) return m.action === 'DIRECT_RESPONSE';
  }
  return true;
}

function mergeInPlace(target: Json, p: PatchWrapper, type: string): void {
  const next = mergeMessage(target, p.value ?? {}, type, { replaceList: p.operation === 'MERGE_AND_REPLACE_LIST' });
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, next);
}

/** ApplyRouteConfigurationPatches, in place; returns `rc`. */
export function applyRouteConfigurationPatches(run: PatchRun, pctx: PatchContext, rc: Json, portMap?: GatewayPortMap): Json {
  for (const p of patchesFor(run.merged, 'ROUTE_CONFIGURATION')) {
    if (!isMerge(p) || !p.value) continue;
    if (!contextMatches(pctx, p) || !routeConfigurationMatch(pctx, rc, p, portMap)) continue;
    mergeInPlace(rc, p, ROUTE_CONFIGURATION);
    hit(run, p, rc, 'merged');
  }
  patchVirtualHosts(run, pctx, rc, portMap);
  return rc;
}

function patchVirtualHosts(run: PatchRun, pctx: PatchContext, rc: Json, portMap: GatewayPortMap | undefined): void {
  const vhs: Json[] = Array.isArray(rc.virtualHosts) ? (rc.virtualHosts as unknown[]).filter(isObj) : [];
  const removedNames = new Set<unknown>();
  for (let i = 0; i < vhs.length; i++) {
    if (patchVirtualHost(run, pctx, rc, vhs, i, portMap)) removedNames.add((vhs[i] as Json).name);
  }
  for (const p of patchesFor(run.merged, 'VIRTUAL_HOST')) {
    if (p.operation !== 'ADD' || !p.value) continue;
    if (!contextMatches(pctx, p) || !routeConfigurationMatch(pctx, rc, p, portMap)) continue;
    vhs.push(valueCopy(run, p, 'added'));
  }
  const kept = removedNames.size > 0 ? vhs.filter((vh) => !removedNames.has(vh.name)) : vhs;
  if (Array.isArray(rc.virtualHosts) || kept.length > 0) rc.virtualHosts = kept;
}

/** True when a REMOVE matched the virtual host. */
function patchVirtualHost(run: PatchRun, pctx: PatchContext, rc: Json, vhs: Json[], i: number, portMap: GatewayPortMap | undefined): boolean {
  for (const p of patchesFor(run.merged, 'VIRTUAL_HOST')) {
    if (!contextMatches(pctx, p) || !routeConfigurationMatch(pctx, rc, p, portMap) || !virtualHostMatch(vhs[i], p)) continue;
    if (p.operation === 'REMOVE') {
      hit(run, p);
      mark(rc, patchRef(p.resourceKey, p.fullName, p.index, 'removed', `virtual host ${String(vhs[i]?.name)}`));
      return true;
    }
    if (!p.value) continue;
    if (isMerge(p)) {
      mergeInPlace(vhs[i] as Json, p, VIRTUAL_HOST);
      hit(run, p, vhs[i], 'merged');
    } else if (p.operation === 'REPLACE') {
      vhs[i] = valueCopy(run, p, 'replaced');
    }
  }
  patchHttpRoutes(run, pctx, rc, vhs[i] as Json, portMap);
  return false;
}

function patchHttpRoutes(run: PatchRun, pctx: PatchContext, rc: Json, vh: Json, portMap: GatewayPortMap | undefined): void {
  let routes: (Json | null)[] = Array.isArray(vh.routes) ? (vh.routes as unknown[]).map((r) => (isObj(r) ? r : null)) : [];
  let removed = false;
  for (let i = 0; i < routes.length; i++) {
    for (const p of patchesFor(run.merged, 'HTTP_ROUTE')) {
      if (!contextMatches(pctx, p) || !routeConfigurationMatch(pctx, rc, p, portMap) || !virtualHostMatch(vh, p) || !routeMatch(routes[i] as Json | null, p))
        continue;
      if (p.operation === 'REMOVE') {
        hit(run, p);
        mark(vh, patchRef(p.resourceKey, p.fullName, p.index, 'removed', `route ${String(routes[i]?.name ?? i)}`));
        routes[i] = null;
        removed = true;
        break;
      }
      if (isMerge(p) && p.value && routes[i]) {
        // Routes can be shared between virtual hosts; merge into a copy.
        const copy: Json = { ...(routes[i] as Json) };
        mergeInPlace(copy, p, ROUTE);
        routes[i] = copy;
        hit(run, p, copy, 'merged');
      }
    }
  }
  for (const p of patchesFor(run.merged, 'HTTP_ROUTE')) {
    if (!contextMatches(pctx, p) || !routeConfigurationMatch(pctx, rc, p, portMap) || !virtualHostMatch(vh, p) || !p.value) continue;
    const has = hasRouteMatch(p);
    const at = (i: number) => {
      routes = [...routes.slice(0, i), valueCopy(run, p, i === routes.length ? 'added' : 'inserted'), ...routes.slice(i)];
    };
    switch (p.operation) {
      case 'ADD':
        at(routes.length);
        break;
      case 'INSERT_AFTER': {
        if (!has) at(routes.length);
        else {
          const i = routes.findIndex((r) => routeMatch(r, p));
          if (i >= 0) at(i + 1);
        }
        break;
      }
      case 'INSERT_BEFORE': {
        if (!has) at(0);
        else {
          const i = routes.findIndex((r) => routeMatch(r, p));
          if (i >= 0) at(i);
        }
        break;
      }
      case 'INSERT_FIRST':
        // With a route match, only when some route matches; the new route still goes first.
        if (!has || routes.some((r) => routeMatch(r, p))) at(0);
        break;
      default:
        break;
    }
  }
  const kept = removed ? routes.filter((r): r is Json => r !== null) : (routes as Json[]);
  if (Array.isArray(vh.routes) || kept.length > 0) vh.routes = kept;
}
