// GatewayClasses, Gateways and ListenerSets → one Istio Gateway per listener, and the parents routes can
// attach to (gateway_collection.go GatewayCollection, ListenerSetCollection, BuildRouteParents and
// validateParametersRef; conversion.go extractGatewayServices; gatewaycommon gatewayclass.go and
// gateway_utils.go GetDefaultName, IsManaged).
import { type ConfigError, type GwObject, type Json, isObject, list, nsName, num, obj, optStr, readConditions, setConditions, spec, str } from './objects.ts';
import { EASTWEST_CONTROLLER, MESH_CONTROLLER, internalGatewayName } from './builtins.ts';
import type { ClassInfo } from './classInfo.ts';
import { type ConversionContext, type GatewayEntry, type ParentKey, parentKeyString } from './context.ts';
import { reportGatewayStatus, reportListenerSetStatus, reportNotAllowedListenerSet } from './gatewayStatus.ts';
import { GK_GATEWAY, GK_LISTENERSET, gkEq, normalizeRef } from './groupKinds.ts';
import {
  ANNOTATION_GATEWAY_SEMANTICS,
  ANNOTATION_GATEWAY_SERVICE,
  ANNOTATION_PARENTS,
  ANNOTATION_PARENT_NAMESPACE,
  ANNOTATION_SERVICE_ACCOUNT,
  istioConfig,
} from './istioConfig.ts';
import { conflictsFor, listenerEntryPort, namespaceAcceptedByAllowListeners } from './listenerConflicts.ts';
import { validateBackendClientCertificateRef } from './listenerTls.ts';
import { buildListener, reportListenerConflict, supportedKinds } from './listeners.ts';
import { listAt } from '../../document/maps.ts';

/** GatewayClass status: Accepted for each class one of istiod's controllers handles; ctx.fetchClass finds these first. */
export function convertGatewayClasses(ctx: ConversionContext): void {
  for (const gc of ctx.all('GatewayClass')) {
    const controller = str(spec(gc).controllerName);
    if (!ctx.classInfos.has(controller)) continue;
    if (!ctx.gatewayClasses.has(gc.name)) ctx.gatewayClasses.set(gc.name, { name: gc.name, controller });
    const existing = obj(gc.body.status);
    const conditions = setConditions(
      gc.generation,
      readConditions(existing.conditions),
      {
        Accepted: { reason: 'Accepted', message: 'Handled by Istio controller' },
      },
      ctx.now,
    );
    ctx.writeStatus(gc, { ...existing, conditions });
  }
}

/** The Istio Gateways of every Gateway and of the ListenerSets attached to it (ctx.gatewayEntries), then what routes can attach to (BuildRouteParents: ctx.routeParents). */
export function convertGatewaysAndListenerSets(ctx: ConversionContext): void {
  // ListenerSets first: a Gateway includes the listeners of the valid ones attached to it.
  const fromSets = new Map<string, { entry: GatewayEntry; parent: ParentKey }[]>();
  for (const ls of ctx.all('ListenerSet')) {
    const r = convertListenerSet(ctx, ls);
    if (!r) continue;
    for (const e of r.entries) {
      listAt(fromSets, r.gateway).push({ entry: e, parent: e.parent });
    }
  }
  for (const gw of ctx.all('Gateway')) convertGateway(ctx, gw, fromSets.get(nsName(gw.namespace, gw.name)) ?? []);
  for (const e of ctx.gatewayEntries) {
    const k = parentKeyString(e.parent);
    listAt(ctx.routeParents, k).push(e.info);
  }
}

/** ListenerSetCollection for one ListenerSet: its listeners' Istio Gateways, for the parent Gateway (`namespace/name`) to take in, and its status. */
function convertListenerSet(ctx: ConversionContext, ls: GwObject): { gateway: string; entries: GatewayEntry[] } | undefined {
  const s = spec(ls);
  const p = obj(s.parentRef);
  if (!gkEq(normalizeRef(optStr(p.group), optStr(p.kind), GK_GATEWAY), GK_GATEWAY)) return undefined;
  const pns = optStr(p.namespace) ?? ls.namespace;
  const parentGw = ctx.find('Gateway', pns, str(p.name));
  if (!parentGw) return undefined;
  const cls = ctx.fetchClass(str(spec(parentGw).gatewayClassName));
  if (!cls) return undefined;
  const controller = cls.controller;
  const info = ctx.classInfos.get(controller);
  if (!info) return undefined;
  const existing = obj(ls.body.status);
  const status: Json = { ...existing };
  const gwKey = nsName(parentGw.namespace, parentGw.name);
  if (!info.supportsListenerSet) {
    reportNotAllowedListenerSet(ctx, ls, status, `The ${JSON.stringify(cls.name)} GatewayClass does not support ListenerSet`);
    return { gateway: gwKey, entries: [] };
  }
  if (!namespaceAcceptedByAllowListeners(ctx, ls.namespace, parentGw)) {
    reportNotAllowedListenerSet(ctx, ls, status, "The parent Gateway does not allow this reference; check the 'spec.allowedRoutes'");
    return { gateway: gwKey, entries: [] };
  }
  const { services, error } = extractGatewayServices(ctx, parentGw, info);
  if (services.length === 0 && error) {
    reportListenerSetStatus(ctx, parentGw, ls, status, services, [], error, true);
    ctx.listenerSetStatuses.set(nsName(ls.namespace, ls.name), { obj: ls, status });
    return { gateway: gwKey, entries: [] };
  }
  const conflicts = conflictsFor(ctx, parentGw).get(`ListenerSet/${ls.namespace}/${ls.name}`);
  const servers: Json[] = [];
  const entries: GatewayEntry[] = [];
  let validListeners = 0;
  let listenerStatus = list(existing.listeners).map((x) => obj(x));
  list(s.listeners).forEach((raw, i) => {
    const l = { ...obj(raw) };
    const { port, error: portErr } = listenerEntryPort(l);
    l.port = port ?? 0;
    const name = str(l.name);
    const reason = conflicts?.get(name);
    if (reason !== undefined) {
      listenerStatus = reportListenerConflict(ctx, i, l, ls, listenerStatus, reason);
      return;
    }
    const r = buildListener(ctx, ls, listenerStatus, spec(parentGw), l, i, controller, portErr);
    listenerStatus = r.statuses;
    if (!r.server) return;
    if (r.ok) validListeners++;
    servers.push(r.server);
    if (controller === MESH_CONTROLLER) return;
    if (controller === EASTWEST_CONTROLLER && num(l.port) === 15008) return;
    const annotations: Record<string, string> = {
      [ANNOTATION_PARENTS]: `ListenerSet/${ls.name}/${name}.${ls.namespace}`,
      [ANNOTATION_GATEWAY_SEMANTICS]: 'gateway',
      [ANNOTATION_GATEWAY_SERVICE]: services.join(','),
      [ANNOTATION_PARENT_NAMESPACE]: parentGw.namespace,
      [ANNOTATION_SERVICE_ACCOUNT]: isManaged(spec(parentGw)) ? parentGw.annotations['gateway.istio.io/service-account'] || defaultName(parentGw, info) : '',
    };
    entries.push(listenerGatewayEntry(ls, GK_LISTENERSET, l, r.server, r.ok, annotations));
  });
  status.listeners = listenerStatus;
  reportListenerSetStatus(ctx, parentGw, ls, status, services, servers, error, validListeners > 0);
  ctx.listenerSetStatuses.set(nsName(ls.namespace, ls.name), { obj: ls, status });
  return { gateway: gwKey, entries };
}

/** GatewayCollection for one Gateway: an Istio Gateway per listener, those of its valid ListenerSets, and its status. */
function convertGateway(ctx: ConversionContext, gw: GwObject, fromSets: { entry: GatewayEntry; parent: ParentKey }[]): void {
  const s = spec(gw);
  const cls = ctx.fetchClass(str(s.gatewayClassName));
  if (!cls) return;
  const controller = cls.controller;
  const info = ctx.classInfos.get(controller);
  if (!info) return;
  const existing = obj(gw.body.status);
  const status: Json = { ...existing };
  const key = nsName(gw.namespace, gw.name);
  if (info.disableRouteGeneration) {
    status.addresses = list(s.addresses).map((a) => ({ ...obj(a) }));
    delete status.listeners;
    status.conditions = setConditions(
      gw.generation,
      readConditions(status.conditions),
      {
        Accepted: { reason: 'Accepted', message: 'Resource accepted' },
        Programmed: { reason: 'Programmed', message: 'This Gateway is remote; Istio will not program it' },
      },
      ctx.now,
    );
    ctx.gatewayStatuses.set(key, { obj: gw, status });
    return;
  }
  const servers: Json[] = [];
  let { services, error } = extractGatewayServices(ctx, gw, info);
  if (services.length === 0 && error) {
    const backendTLSErr = validateBackendClientCertificateRef(ctx, gw);
    reportGatewayStatus(ctx, gw, status, info, services, servers, 0, error, backendTLSErr, 0);
    ctx.gatewayStatuses.set(key, { obj: gw, status });
    return;
  }
  if (!error) error = validateParametersRef(ctx, gw);
  const serviceAccount = isManaged(s) ? gw.annotations['gateway.istio.io/service-account'] || defaultName(gw, info) : '';
  let validListeners = 0;
  const conflicts = conflictsFor(ctx, gw).get(`Gateway/${gw.namespace}/${gw.name}`);
  let listenerStatus = list(existing.listeners).map((x) => obj(x));
  list(s.listeners).forEach((raw, i) => {
    const l = obj(raw);
    const name = str(l.name);
    const reason = conflicts?.get(name);
    if (reason !== undefined) {
      listenerStatus = reportListenerConflict(ctx, i, l, gw, listenerStatus, reason);
      return;
    }
    const r = buildListener(ctx, gw, listenerStatus, s, l, i, controller, undefined);
    listenerStatus = r.statuses;
    if (r.ok) validListeners++;
    if (!r.server) return;
    servers.push(r.server);
    if (controller === MESH_CONTROLLER) return;
    if (controller === EASTWEST_CONTROLLER && num(l.port) === 15008) return;
    const annotations: Record<string, string> = {
      [ANNOTATION_PARENTS]: `Gateway/${gw.name}/${name}.${gw.namespace}`,
      [ANNOTATION_GATEWAY_SEMANTICS]: 'gateway',
      [ANNOTATION_GATEWAY_SERVICE]: services.join(','),
      [ANNOTATION_SERVICE_ACCOUNT]: serviceAccount,
    };
    ctx.gatewayEntries.push(listenerGatewayEntry(gw, GK_GATEWAY, l, r.server, r.ok, annotations));
  });
  status.listeners = listenerStatus;
  const attachedSets = new Set<string>();
  for (const { entry } of fromSets) {
    if (!entry.valid) continue;
    attachedSets.add(parentKeyString(entry.parent));
    servers.push(...(entry.config.spec.servers as Json[]));
    ctx.gatewayEntries.push(entry);
  }
  const backendTLSErr = validateBackendClientCertificateRef(ctx, gw);
  reportGatewayStatus(ctx, gw, status, info, services, servers, attachedSets.size, error, backendTLSErr, validListeners);
  ctx.gatewayStatuses.set(key, { obj: gw, status });
}

function extractGatewayServices(ctx: ConversionContext, gw: GwObject, info: ClassInfo): { services: string[]; error?: ConfigError } {
  const s = spec(gw);
  const suffix = ctx.opts.domainSuffix;
  if (isManaged(s)) {
    const name = gw.annotations['gateway.istio.io/name-override'] || defaultName(gw, info);
    return { services: [`${name}.${gw.namespace}.svc.${suffix}`] };
  }
  const services: string[] = [];
  const skipped: string[] = [];
  for (const raw of list(s.addresses)) {
    const a = obj(raw);
    const type = optStr(a.type);
    if (type !== undefined && type !== 'Hostname') {
      skipped.push(str(a.value));
      continue;
    }
    let fqdn = str(a.value);
    if (!fqdn.includes('.')) fqdn = `${fqdn}.${gw.namespace}.svc.${suffix}`;
    services.push(fqdn);
  }
  if (skipped.length > 0) return { services, error: { reason: 'UnsupportedAddress', message: `only Hostname is supported, ignoring [${skipped.join(' ')}]` } };
  if (Object.hasOwn(gw.annotations, 'networking.istio.io/service-type')) {
    return {
      services,
      error: { reason: 'DeprecatedField', message: 'annotation networking.istio.io/service-type is deprecated, use Spec.Infrastructure.Routeability' },
    };
  }
  return { services };
}

function validateParametersRef(ctx: ConversionContext, gw: GwObject): ConfigError | undefined {
  const infra = obj(spec(gw).infrastructure);
  if (!isObject(infra.parametersRef)) return undefined;
  const p = obj(infra.parametersRef);
  if (str(p.kind) !== 'ConfigMap' || str(p.group) !== '') {
    return { reason: 'InvalidParameters', message: `Unsupported parametersRef group/kind ${str(p.group)}/${str(p.kind)}, only ConfigMap is supported` };
  }
  if (!ctx.find('ConfigMap', gw.namespace, str(p.name))) {
    return { reason: 'InvalidParameters', message: `parametersRef ConfigMap ${gw.namespace}/${str(p.name)} does not exist` };
  }
  return undefined;
}

/** The Istio Gateway made from one listener of a Gateway or ListenerSet, and what routes may attach to it. */
function listenerGatewayEntry(
  owner: GwObject,
  kind: ParentKey['kind'],
  l: Json,
  server: Json,
  valid: boolean,
  annotations: Record<string, string>,
): GatewayEntry {
  const name = str(l.name);
  const config = istioConfig('Gateway', internalGatewayName(owner.name, name), owner.namespace, annotations, { servers: [server] }, owner.created);
  return {
    config,
    valid,
    parent: { kind, name: owner.name, namespace: owner.namespace },
    info: {
      internalName: `${owner.namespace}/${config.metadata.name}`,
      allowedKinds: supportedKinds(l).kinds,
      hostnames: server.hosts as string[],
      originalHostname: str(l.hostname),
      sectionName: name,
      port: num(l.port),
      protocol: str(l.protocol),
    },
  };
}

function defaultName(gw: GwObject, info: ClassInfo): string {
  return info.disableNameSuffix ? gw.name : `${gw.name}-${str(spec(gw).gatewayClassName)}`;
}

/** gatewaycommon.IsManaged (manual deployment enabled, istiod's default). */
function isManaged(s: Json): boolean {
  const addrs = list(s.addresses);
  if (addrs.length === 0) return true;
  if (addrs.length > 1) return false;
  const t = optStr(obj(addrs[0]).type);
  return t === undefined || t === 'IPAddress';
}
