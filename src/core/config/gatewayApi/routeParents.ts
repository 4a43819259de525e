// The parents a route refers to, and whether each lets it attach (conversion.go
// extractParentReferenceInfo, referenceAllowed, waypointManagedByAnotherController, filteredReferences,
// hostnameAllowedByIsolation, parentRefString).
import { type ConfigError, type GwObject, type Json, list, num, obj, optStr, spec, str } from './objects.ts';
import { GATEWAY_CONTROLLER, MESH_CONTROLLER } from './builtins.ts';
import { type ConversionContext, type ParentInfo, type ParentKey, parentKeyString } from './context.ts';
import { type GK, type RouteKind, GK_GATEWAY, GK_LISTENERSET, GK_SERVICE, GK_SERVICEENTRY, GW_GROUP, gkEq, gkString, normalizeRef } from './groupKinds.ts';
import { stableSortBy } from './istioConfig.ts';
import { hostMatches, hostSubsetOf, isWildcardHost } from '../hosts.ts';

export interface ParentError {
  reason: string;
  message: string;
}

export interface RouteParentRef {
  internalName: string;
  internalKind: GK;
  hostname: string;
  deniedReason?: ParentError;
  /** The parentRef as written, and a key that tells two written refs apart as Go's map does. */
  original: Json;
  originalKey: string;
  bannedHostnames: Set<string>;
  parentKey: ParentKey;
  parentSection: string;
  waypointError?: ConfigError;
}

const MESH_PARENT: ParentInfo = {
  internalName: 'mesh',
  allowedKinds: [
    { group: GW_GROUP, kind: 'HTTPRoute' },
    { group: GW_GROUP, kind: 'GRPCRoute' },
    { group: GW_GROUP, kind: 'TCPRoute' },
    { group: GW_GROUP, kind: 'TLSRoute' },
  ],
  hostnames: [],
  originalHostname: '',
  sectionName: '',
  port: 0,
  protocol: '',
};

export function extractParentReferenceInfo(ctx: ConversionContext, route: GwObject, kind: RouteKind): RouteParentRef[] {
  const localNs = route.namespace;
  const hostnames = routeHostnames(route, kind);
  const out: RouteParentRef[] = [];
  list(spec(route).parentRefs).forEach((raw, refIndex) => {
    const ref = obj(raw);
    const gk = normalizeRef(optStr(ref.group), optStr(ref.kind), GK_GATEWAY);
    if (![GK_GATEWAY, GK_SERVICE, GK_SERVICEENTRY, GK_LISTENERSET].some((a) => gkEq(a, gk))) return;
    const pk: ParentKey = { kind: gk, name: str(ref.name), namespace: optStr(ref.namespace) ?? localNs };
    const section = str(ref.sectionName);
    const port = num(ref.port);
    let currentParents: ParentInfo[];
    if (gkEq(gk, GK_SERVICE) || gkEq(gk, GK_SERVICEENTRY)) {
      if (waypointManagedByAnotherController(ctx, gk, pk.namespace, pk.name)) return;
      currentParents = [MESH_PARENT];
    } else {
      currentParents = ctx.routeParents.get(parentKeyString(pk)) ?? [];
    }
    const anyPointer = ['group', 'kind', 'namespace', 'sectionName', 'port'].some((f) => ref[f] !== undefined && ref[f] !== null);
    const originalKey = `${parentRefString(ref, localNs)}${anyPointer ? `#${refIndex}` : ''}`;
    for (const pr of currentParents) {
      const banned = new Set<string>();
      for (const g of currentParents) {
        if (g === pr || g.port !== pr.port || g.protocol !== pr.protocol) continue;
        banned.add(g.originalHostname);
      }
      banned.delete(pr.originalHostname);
      const r = referenceAllowed(ctx, pr, kind, { kind: gk, ns: pk.namespace, name: pk.name, section, port }, hostnames, localNs);
      out.push({
        internalName: pr.internalName,
        internalKind: gk,
        hostname: pr.originalHostname,
        ...(r.denied ? { deniedReason: r.denied } : {}),
        ...(r.waypoint ? { waypointError: r.waypoint } : {}),
        original: ref,
        originalKey,
        bannedHostnames: banned,
        parentKey: pk,
        parentSection: pr.sectionName,
      });
    }
  });
  return stableSortBy(out, (r) => parentRefString(r.original, localNs));
}

function referenceAllowed(
  ctx: ConversionContext,
  parent: ParentInfo,
  routeKind: RouteKind,
  ref: { kind: GK; ns: string; name: string; section: string; port: number },
  hostnames: string[],
  localNs: string,
): { denied?: ParentError; waypoint?: ConfigError } {
  const missingLabel = {
    reason: 'MissingUseWaypointLabel',
    message: 'istio.io/use-waypoint label missing from parent and parent namespace; in ambient mode, route will not be respected',
  };
  const noParent = { reason: 'NoMatchingParent', message: 'parent not found' };
  if (gkEq(ref.kind, GK_SERVICE)) {
    const svc = ctx.find('Service', ref.ns, ref.name);
    if (!svc) return { denied: { reason: 'NoMatchingParent', message: `parent service: ${JSON.stringify(ref.name)} not found` }, waypoint: noParent };
    if (!waypointConfigured(svc.labels)) {
      const nsl = ctx.namespaceLabels(svc.namespace);
      if (nsl && !waypointConfigured(nsl)) return { waypoint: missingLabel };
    }
  } else if (gkEq(ref.kind, GK_SERVICEENTRY)) {
    const se = ctx.find('ServiceEntry', ref.ns, ref.name);
    if (!se) return { denied: { reason: 'NoMatchingParent', message: `parent service entry: ${JSON.stringify(ref.name)} not found` }, waypoint: noParent };
    if (!waypointConfigured(se.labels)) {
      const nsl = ctx.namespaceLabels(ref.ns);
      if (nsl && !waypointConfigured(nsl)) return { waypoint: missingLabel };
    }
  } else {
    if (ref.port !== 0 && ref.port !== parent.port) return { denied: { reason: 'NoMatchingParent', message: `port ${ref.port} not found` } };
    if (ref.section.length > 0 && ref.section !== parent.sectionName) {
      return { denied: { reason: 'NoMatchingParent', message: `sectionName ${JSON.stringify(ref.section)} not found` } };
    }
    const hs = hostnames.length === 0 ? ['*'] : hostnames;
    if (parent.hostnames.length > 0) {
      let matched = false;
      let hostMatched = false;
      out: for (const rh of hs) {
        for (const phn of parent.hostnames) {
          let pns: string;
          let ph: string;
          if (phn.includes('/')) {
            const spl = phn.split('/');
            pns = spl[0] as string;
            ph = spl[1] as string;
          } else {
            pns = '*';
            ph = phn;
          }
          const hm = hostMatches(ph, rh);
          const nm = pns === '*' || pns === localNs;
          hostMatched = hostMatched || hm;
          if (hm && nm) {
            matched = true;
            break out;
          }
        }
      }
      if (!matched) {
        if (hostMatched) {
          return {
            denied: {
              reason: 'NotAllowedByListeners',
              message: `hostnames matched parent hostname ${JSON.stringify(parent.originalHostname)}, but namespace ${JSON.stringify(localNs)} is not allowed by the parent`,
            },
          };
        }
        return { denied: { reason: 'NoMatchingListenerHostname', message: `no hostnames matched parent hostname ${JSON.stringify(parent.originalHostname)}` } };
      }
    }
  }
  const kindOk = parent.allowedKinds.some((ak) => ak.kind === routeKind && (ak.group ?? GW_GROUP) === GW_GROUP);
  if (!kindOk) return { denied: { reason: 'NotAllowedByListeners', message: `kind ${gkString({ group: GW_GROUP, kind: routeKind })} is not allowed` } };
  return {};
}

function waypointManagedByAnotherController(ctx: ConversionContext, kind: GK, ns: string, name: string): boolean {
  let labels: Record<string, string>;
  if (gkEq(kind, GK_SERVICE)) {
    const svc = ctx.find('Service', ns, name);
    if (!svc) return false;
    labels = { ...svc.labels };
  } else if (gkEq(kind, GK_SERVICEENTRY)) {
    const se = ctx.find('ServiceEntry', ns, name);
    if (!se) return false;
    labels = { ...se.labels };
  } else {
    return false;
  }
  let wp = labels['istio.io/use-waypoint'];
  if (wp === undefined) {
    const nsl = ctx.namespaceLabels(ns);
    if (!nsl) return false;
    labels = nsl;
    wp = labels['istio.io/use-waypoint'];
  }
  if (wp === undefined || wp === '' || wp.toLowerCase() === 'none') return false;
  const wpNs = labels['istio.io/use-waypoint-namespace'] || ns;
  const waypoint = ctx.find('Gateway', wpNs, wp);
  if (!waypoint) return false;
  const cls = ctx.all('GatewayClass').find((c) => c.name === str(spec(waypoint).gatewayClassName));
  if (!cls) return false;
  const ctrl = str(spec(cls).controllerName);
  return ctrl !== MESH_CONTROLLER && ctrl !== GATEWAY_CONTROLLER;
}

function waypointConfigured(labels: Readonly<Record<string, string>>): boolean {
  const v = labels['istio.io/use-waypoint'];
  return v !== undefined && v.length > 0 && v.toLowerCase() !== 'none';
}

function routeHostnames(r: GwObject, kind: RouteKind): string[] {
  if (kind === 'TCPRoute') return [];
  return list(spec(r).hostnames).map(str);
}

export function hostnameList(h: string[]): string[] {
  return h.length === 0 ? ['*'] : h.slice();
}

export function filteredReferences(refs: RouteParentRef[]): RouteParentRef[] {
  return stableSortBy(
    refs.filter((r) => !r.deniedReason),
    (r) => r.internalName,
  );
}

export function hostnameAllowedByIsolation(r: RouteParentRef, routeHost: string): boolean {
  const ours = r.hostname;
  if (ours.length > 0 && !isWildcardHost(ours)) return true;
  if (ours.length > 0 && !hostMatches(routeHost, ours)) return false;
  for (const check of r.bannedHostnames) {
    if (ours.length > check.length) continue;
    if (hostSubsetOf(routeHost, check)) return false;
  }
  return true;
}

/** parentRefString: `group/kind/name/section/port.namespace` with Gateway defaults. */
export function parentRefString(ref: Json, ns: string): string {
  return `${optStr(ref.group) ?? GW_GROUP}/${optStr(ref.kind) ?? 'Gateway'}/${str(ref.name)}/${str(ref.sectionName)}/${num(ref.port)}.${optStr(ref.namespace) ?? ns}`;
}
