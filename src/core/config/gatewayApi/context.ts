// The state of one conversion (istiod keeps it in krt collections): the objects and options read, and
// what each step leaves for the later ones (handled GatewayClasses, the parents routes attach to,
// attachment counts, the Gateways backends are reached from, statuses). convertGatewayApi (convert.ts)
// makes one and passes it to each step; the steps are in the modules next to this one.
import type { GwObject, Json } from './objects.ts';
import { builtinGatewayClasses } from './builtins.ts';
import { type ClassInfo, classInfos } from './classInfo.ts';
import { type GK, GWX_GROUP, GW_GROUP } from './groupKinds.ts';
import type { ConvertOptions, IstioConfig, RegistryService, StatusWrite } from './types.ts';
import { listAt } from '../../document/maps.ts';

export interface ParentKey {
  kind: GK;
  name: string;
  namespace: string;
}

export function parentKeyString(p: ParentKey): string {
  return `${p.kind.group}/${p.kind.kind}/${p.namespace}/${p.name}`;
}

export interface RouteGroupKind {
  group?: string;
  kind: string;
}

export interface ParentInfo {
  internalName: string;
  allowedKinds: RouteGroupKind[];
  hostnames: string[];
  originalHostname: string;
  sectionName: string;
  port: number;
  protocol: string;
}

export interface GatewayEntry {
  config: IstioConfig;
  parent: ParentKey;
  info: ParentInfo;
  valid: boolean;
}

function apiVersionOf(o: GwObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
  if (group === GWX_GROUP) return `${GWX_GROUP}/v1alpha1`;
  if (group === GW_GROUP) return `${GW_GROUP}/v1`;
  return o.apiVersion;
}

/**
 * One conversion: the objects and options it reads, and what each step leaves for the later ones
 * (the steps run in convertGatewayApi's order; each field says who writes and who reads it).
 */
export class ConversionContext {
  readonly opts: ConvertOptions;
  /** Written as every condition's lastTransitionTime. */
  readonly now: string;
  /** The controllers istiod handles, by controller name (classinfo.go). */
  readonly classInfos: Map<string, ClassInfo>;
  /** The GatewayClasses istiod creates when missing: name → controller. */
  readonly builtinClasses: Map<string, string>;
  /** GatewayClasses in the input handled by one of classInfos' controllers, by name (the GatewayClass step; fetchClass). */
  readonly gatewayClasses = new Map<string, { name: string; controller: string }>();
  /** Every status written, in order (all steps; the final Gateway step updates ListenerSets' in place). */
  readonly statuses: StatusWrite[] = [];
  /** One Istio Gateway per listener of Gateways and attached ListenerSets (the Gateway step; the result). */
  readonly gatewayEntries: GatewayEntry[] = [];
  /** What routes can attach to, by parentKeyString (BuildRouteParents, after the Gateway step; route parents). */
  readonly routeParents = new Map<string, ParentInfo[]>();
  /** Gateway and ListenerSet status waiting for attached-route counts (the Gateway step; the final Gateway step). */
  readonly gatewayStatuses = new Map<string, { obj: GwObject; status: Json }>();
  readonly listenerSetStatuses = new Map<string, { obj: GwObject; status: Json }>();
  /** Route attachments already counted, one per route, parent and section (the route steps). */
  readonly routeAttachments = new Set<string>();
  /** Attached routes per Gateway or ListenerSet (`namespace/name`) and listener (the route steps; the final Gateway step). */
  readonly attachedRouteCounts = new Map<string, Map<string, number>>();
  /** Gateways each backend is reached from, through a route (the route steps; backend policy ancestors). */
  readonly ancestorBackends: { gateway: string; backendKind: string; backend: string }[] = [];
  private readonly byKind = new Map<string, GwObject[]>();
  private readonly index = new Map<string, GwObject>();

  constructor(objects: readonly GwObject[], opts: ConvertOptions) {
    for (const o of objects) {
      listAt(this.byKind, o.kind).push(o);
      const key = `${o.kind}/${o.namespace}/${o.name}`;
      if (!this.index.has(key)) this.index.set(key, o);
    }
    this.opts = opts;
    this.classInfos = classInfos(opts);
    this.builtinClasses = builtinGatewayClasses(opts);
    this.now = opts.now;
  }

  all(kind: string): GwObject[] {
    return this.byKind.get(kind) ?? [];
  }

  find(kind: string, ns: string, name: string): GwObject | undefined {
    return this.index.get(`${kind}/${ns}/${name}`);
  }

  lookupService(hostname: string, namespace: string): RegistryService | undefined {
    return this.opts.registry.byHostname(hostname).find((s) => s.namespace === namespace);
  }

  writeStatus(o: GwObject, status: Json): void {
    this.statuses.push({ apiVersion: apiVersionOf(o), kind: o.kind, namespace: o.namespace, name: o.name, created: o.created, status });
  }

  fetchClass(name: string): { name: string; controller: string } | undefined {
    const c = this.gatewayClasses.get(name);
    if (c) return c;
    const b = this.builtinClasses.get(name);
    return b ? { name, controller: b } : undefined;
  }

  namespaceLabels(ns: string): Record<string, string> | undefined {
    const o = this.find('Namespace', '', ns);
    return o ? { ...o.labels } : undefined;
  }
}
