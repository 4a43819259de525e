// Status of Gateways and ListenerSets: conditions and addresses from the gateway Services (conversion.go
// reportGatewayStatus; gatewaycommon/context.go ResolveGatewayInstances, conversion.go
// SetProgrammedCondition, ReportListenerSetStatus, ReportNotAllowedListenerSet), and the attached-route
// counts written once the routes are converted (gateway_collection.go FinalGatewayStatusCollection,
// FinalListenerSetStatusCollection).
import {
  type CondSpec,
  type ConfigError,
  type GwObject,
  type Json,
  humanJoin,
  isObject,
  list,
  num,
  obj,
  readConditions,
  setConditions,
  spec,
  str,
} from './objects.ts';
import type { ClassInfo } from './classInfo.ts';
import type { ConversionContext } from './context.ts';

export function reportGatewayStatus(
  ctx: ConversionContext,
  gw: GwObject,
  status: Json,
  info: ClassInfo,
  services: string[],
  servers: Json[],
  listenerSetCount: number,
  gatewayErr: ConfigError | undefined,
  backendTLSErr: ConfigError | undefined,
  validListeners: number,
): void {
  const res = resolveGatewayInstances(ctx, gw.namespace, services, servers);
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'Resource accepted' },
    Programmed: { reason: 'Programmed', message: 'Resource programmed' },
    ResolvedRefs: { reason: 'ResolvedRefs', message: 'All references resolved' },
  };
  const total = list(spec(gw).listeners).length;
  if (gatewayErr) (conds.Accepted as CondSpec).error = gatewayErr;
  else if (total > 0 && validListeners < total) {
    if (validListeners === 0) (conds.Accepted as CondSpec).error = { reason: 'ListenersNotValid', message: "None of the Gateway's listeners are valid" };
    else conds.Accepted = { reason: 'ListenersNotValid', message: "One or more of the Gateway's listeners are invalid" };
  }
  if (backendTLSErr) (conds.ResolvedRefs as CondSpec).error = backendTLSErr;
  if (listenerSetCount !== 0) status.attachedListenerSets = listenerSetCount;
  let existingConds = readConditions(status.conditions);
  const frontend = obj(spec(gw).tls).frontend;
  if (isObject(frontend)) {
    let insecure = str(obj(obj(frontend.default).validation).mode) === 'AllowInsecureFallback';
    if (!insecure) insecure = list(frontend.perPort).some((pp) => str(obj(obj(obj(pp).tls).validation).mode) === 'AllowInsecureFallback');
    if (insecure) {
      conds.InsecureFrontendValidationMode = {
        status: 'True',
        reason: 'ConfigurationChanged',
        message: 'Gateway is operating in AllowInsecureFallback mode for frontend validation',
      };
    } else {
      existingConds = existingConds.filter((c) => c.type !== 'InsecureFrontendValidationMode');
    }
  }
  setProgrammed(conds, res.internal, services, res.warnings, res.allUsable);
  let addresses = res.external;
  if (addresses.length === 0) {
    const want = gw.annotations['networking.istio.io/address-type'] ?? info.addressType;
    addresses = [];
    if (want !== 'Hostname') addresses = res.internalIP.slice();
    if (want !== 'IPAddress') {
      for (const hp of res.internal) {
        const h = hp.slice(0, hp.lastIndexOf(':'));
        if (!res.pending.includes(h) && !addresses.includes(h)) addresses.push(h);
      }
    }
  }
  if (addresses.length > 0) status.addresses = addresses.map((a) => ({ type: isIP(a) ? 'IPAddress' : 'Hostname', value: a }));
  const have = new Set(list(spec(gw).listeners).map((l) => str(obj(l).name)));
  const kept: Json[] = [];
  for (const l of list(status.listeners).map(obj)) {
    if (have.has(str(l.name))) {
      have.delete(str(l.name));
      kept.push(l);
    }
  }
  status.listeners = kept;
  status.conditions = setConditions(gw.generation, existingConds, conds, ctx.now);
}

export function reportListenerSetStatus(
  ctx: ConversionContext,
  parentGw: GwObject,
  ls: GwObject,
  status: Json,
  services: string[],
  servers: Json[],
  gatewayErr: ConfigError | undefined,
  listenersValid: boolean,
): void {
  const res = resolveGatewayInstances(ctx, parentGw.namespace, services, servers);
  const conds: Record<string, CondSpec> = {
    Accepted: { reason: 'Accepted', message: 'Resource accepted' },
    Programmed: { reason: 'Programmed', message: 'Resource programmed' },
  };
  const listenersErr = listenersValid ? undefined : { reason: 'ListenersNotValid', message: "None of the ListenerSet's listeners are valid" };
  if (gatewayErr) (conds.Accepted as CondSpec).error = { reason: gatewayErr.reason, message: `Parent not accepted: ${gatewayErr.message}` };
  else if (listenersErr) (conds.Accepted as CondSpec).error = listenersErr;
  setProgrammed(conds, res.internal, services, res.warnings, res.allUsable);
  if (listenersErr) (conds.Programmed as CondSpec).error = listenersErr;
  // Prune listeners that are gone.
  const have = new Set(list(spec(ls).listeners).map((l) => str(obj(l).name)));
  const kept: Json[] = [];
  for (const l of list(status.listeners).map(obj)) {
    if (have.has(str(l.name))) {
      have.delete(str(l.name));
      kept.push(l);
    }
  }
  status.listeners = kept;
  status.conditions = setConditions(ls.generation, readConditions(status.conditions), conds, ctx.now);
  ctx.writeStatus(ls, status);
}

export function reportNotAllowedListenerSet(ctx: ConversionContext, ls: GwObject, status: Json, message: string): void {
  const err = { reason: 'NotAllowed', message };
  delete status.listeners;
  status.conditions = setConditions(
    ls.generation,
    readConditions(status.conditions),
    {
      Accepted: { reason: 'Accepted', error: err },
      Programmed: { reason: 'Programmed', error: err },
    },
    ctx.now,
  );
  ctx.writeStatus(ls, status);
}

/** gatewaycommon.GatewayContext.ResolveGatewayInstances */
function resolveGatewayInstances(
  ctx: ConversionContext,
  namespace: string,
  gwsvcs: string[],
  servers: Json[],
): {
  internal: string[];
  internalIP: string[];
  external: string[];
  pending: string[];
  warnings: string[];
  allUsable: boolean;
} {
  const ports = [...new Set(servers.map((s) => num(obj(s.port).number)))];
  const internal = new Set<string>();
  const internalIP = new Set<string>();
  const external = new Set<string>();
  const pending = new Set<string>();
  const warnings: string[] = [];
  let unusable = false;
  for (const g of gwsvcs) {
    const all = ctx.opts.registry.byHostname(g);
    const svc = all.find((s) => s.namespace === namespace);
    if (!svc) {
      const others = [...new Set(all.map((s) => `"${s.namespace}"`))].sort();
      warnings.push(
        others.length > 0
          ? `hostname ${JSON.stringify(g)} not found in namespace ${JSON.stringify(namespace)}, but it was found in namespace(s) ${others.join(', ')}`
          : `hostname ${JSON.stringify(g)} not found`,
      );
      unusable = true;
      continue;
    }
    for (const port of ports) {
      const instances = svc.endpointPorts.get(port) ?? [];
      if (svc.ports.some((p) => p.port === port) && instances.length > 0) {
        internal.add(`${g}:${port}`);
        for (const a of svc.addresses) internalIP.add(a);
        if (svc.externalAddresses.length > 0) {
          for (const a of svc.externalAddresses) external.add(a);
        } else if (svc.loadBalancer && !pending.has(g)) {
          warnings.push(`address pending for hostname ${JSON.stringify(g)}`);
          pending.add(g);
        }
        continue;
      }
      const byPort = [...svc.endpointPorts.entries()];
      if (byPort.every(([, eps]) => eps.length === 0)) {
        warnings.push(`no instances found for hostname ${JSON.stringify(g)}`);
        continue;
      }
      const hint = new Set<string>();
      for (const [sp, eps] of byPort) for (const ep of eps) if (ep === port) hint.add(String(sp));
      if (hint.size > 0) {
        warnings.push(
          `port ${port} not found for hostname ${JSON.stringify(g)} (hint: the service port should be specified, not the workload port. Did you mean one of these ports: [${[...hint].sort().join(' ')}]?)`,
        );
        unusable = true;
      } else {
        const managed = Object.hasOwn(svc.labels, 'gateway.istio.io/managed');
        const portExists = svc.ports.some((p) => p.port === port);
        if (!managed || !portExists) {
          warnings.push(`port ${port} not found for hostname ${JSON.stringify(g)}`);
          unusable = true;
        }
      }
    }
  }
  warnings.sort();
  return {
    internal: [...internal].sort(),
    internalIP: [...internalIP].sort(),
    external: [...external].sort(),
    pending: [...pending].sort(),
    warnings,
    allUsable: !unusable,
  };
}

function setProgrammed(conds: Record<string, CondSpec>, internal: string[], services: string[], warnings: string[], allUsable: boolean): void {
  const p = conds.Programmed as CondSpec;
  if (internal.length > 0) p.message = `Resource programmed, assigned to service(s) ${humanJoin(internal)}`;
  if (services.length === 0) {
    p.error = { reason: 'UnsupportedAddress', message: 'Failed to assign to any requested addresses' };
  } else if (warnings.length > 0) {
    const msg =
      internal.length !== 0
        ? `Assigned to service(s) ${humanJoin(internal)}, but failed to assign to all requested addresses: ${warnings.join('; ')}`
        : `Failed to assign to any requested addresses: ${warnings.join('; ')}`;
    p.error = { reason: allUsable ? 'AddressNotAssigned' : 'AddressNotUsable', message: msg };
  }
}

function isIP(a: string): boolean {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(a)) return a.split('.').every((p) => Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
  return a.includes(':') && /^[0-9a-fA-F:.]+$/.test(a);
}

/** FinalGatewayStatusCollection and FinalListenerSetStatusCollection: attachedRoutes per listener, once every route is converted. */
export function writeFinalGatewayStatuses(ctx: ConversionContext): void {
  const finish = (m: Map<string, { obj: GwObject; status: Json }>) => {
    for (const [key, { obj: o, status }] of m) {
      const counts = ctx.attachedRouteCounts.get(key);
      const ls = list(status.listeners).map((l) => ({ ...obj(l), attachedRoutes: counts?.get(str(obj(l).name)) ?? 0 }));
      if (ls.length > 0) status.listeners = ls;
      else delete status.listeners;
      if (o.kind === 'Gateway') ctx.writeStatus(o, status);
      else {
        // The ListenerSet status was written already; update it in place.
        const w = ctx.statuses.find((s) => s.kind === o.kind && s.namespace === o.namespace && s.name === o.name);
        if (w) w.status = status;
      }
    }
  };
  finish(ctx.gatewayStatuses);
  finish(ctx.listenerSetStatuses);
}
