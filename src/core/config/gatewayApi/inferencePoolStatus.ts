// The status istiod writes to an InferencePool (pilot/pkg/config/kube/gateway/
// inferencepool_collection.go calculateInferencePoolStatus): one parent per Gateway of a
// built-in class whose HTTPRoutes reach the pool, as the routes' own status lists them (the
// status written on the objects, not this conversion's), with Accepted from that route status
// and ResolvedRefs from the endpoint picker's Service; parents written by other controllers
// are kept. With no Gateway parent the status is empty.
import { list, obj, setConditions, str, type CondSpec, type Condition, type GwObject, type Json } from './objects.ts';

const INFERENCE_GROUP = 'inference.networking.k8s.io';
const GATEWAY_GROUP = 'gateway.networking.k8s.io';

export interface InferencePoolStatusInputs {
  httpRoutes: readonly GwObject[];
  findGateway(namespace: string, name: string): GwObject | undefined;
  findService(namespace: string, name: string): GwObject | undefined;
  /** Built-in GatewayClasses by name, to their controllers (gatewaycommon.BuiltinGatewayClasses). */
  builtinClasses: ReadonlyMap<string, string>;
  now: string;
}

/** routeReferencesInferencePool. */
function routeReferences(route: GwObject, pool: GwObject): boolean {
  for (const rule of list(obj(route.body.spec).rules)) {
    for (const raw of list(obj(rule).backendRefs)) {
      const ref = obj(raw);
      if (str(ref.group) !== INFERENCE_GROUP || str(ref.kind) !== 'InferencePool' || str(ref.name) !== pool.name) continue;
      if ((str(ref.namespace) || route.namespace) === pool.namespace) return true;
    }
  }
  return false;
}

/** A route's status parents written by one of our controllers, with the Gateway's namespace resolved. */
function ourRouteParents(route: GwObject, controllers: ReadonlySet<string>): Array<{ namespace: string; name: string; conditions: Json[] }> {
  const out: Array<{ namespace: string; name: string; conditions: Json[] }> = [];
  for (const raw of list(obj(route.body.status).parents)) {
    const p = obj(raw);
    if (!controllers.has(str(p.controllerName))) continue;
    const ref = obj(p.parentRef);
    out.push({ namespace: str(ref.namespace) || route.namespace, name: str(ref.name), conditions: list(p.conditions).map(obj) });
  }
  return out;
}

/** calculateAcceptedStatus. */
function accepted(
  pool: GwObject,
  parent: { namespace: string; name: string },
  routes: readonly GwObject[],
  controllers: ReadonlySet<string>,
): CondSpec & { unknown?: boolean } {
  for (const route of routes) {
    if (!routeReferences(route, pool)) continue;
    for (const p of ourRouteParents(route, controllers)) {
      if (p.name !== parent.name || p.namespace !== parent.namespace) continue;
      const c = p.conditions.find((x) => str(x.type) === 'Accepted');
      if (c) {
        if (str(c.status) === 'True') return { reason: 'Accepted', message: 'Referenced by an HTTPRoute accepted by the parentRef Gateway' };
        return {
          status: 'False',
          reason: 'HTTPRouteNotAccepted',
          message: `Referenced HTTPRoute ${route.namespace}/${route.name} not accepted by Gateway ${parent.namespace}/${parent.name}: ${str(c.message)}`,
        };
      }
      return { unknown: true, reason: 'Accepted', message: 'Referenced by an HTTPRoute unknown parentRef Gateway status' };
    }
  }
  return {
    status: 'False',
    reason: 'HTTPRouteNotAccepted',
    message: `No HTTPRoute found referencing this InferencePool with Gateway ${parent.namespace}/${parent.name} as parent`,
  };
}

/** calculateResolvedRefsStatus: the endpoint picker must be a Service of the pool's namespace. */
function resolvedRefs(pool: GwObject, inputs: InferencePoolStatusInputs): CondSpec {
  const ref = obj(obj(pool.body.spec).endpointPickerRef);
  const kind = str(ref.kind) || 'Service';
  if (kind !== 'Service') return { status: 'False', reason: 'InvalidExtensionRef', message: `Unsupported ExtensionRef kind ${kind}` };
  const name = str(ref.name);
  if (name === '') return { status: 'False', reason: 'InvalidExtensionRef', message: 'ExtensionRef not defined' };
  if (!inputs.findService(pool.namespace, name))
    return { status: 'False', reason: 'InvalidExtensionRef', message: `Referenced ExtensionRef not found ${name}` };
  return { reason: 'ResolvedRefs', message: 'Referenced ExtensionRef resolved successfully' };
}

export function inferencePoolStatus(pool: GwObject, inputs: InferencePoolStatusInputs): Json {
  const controllers = new Set(inputs.builtinClasses.values());
  const routes = inputs.httpRoutes.filter((r) => routeReferences(r, pool));
  // findGatewayParents, in a stable order (istiod ranges over a Go set).
  const parents = new Map<string, { namespace: string; name: string }>();
  for (const route of routes)
    for (const p of ourRouteParents(route, controllers)) parents.set(`${p.namespace}/${p.name}`, { namespace: p.namespace, name: p.name });
  const ours = [...parents.values()].sort((a, b) =>
    a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const existing = list(obj(pool.body.status).parents).map(obj);
  const finalParents: Json[] = [];
  for (const e of existing) {
    const ref = obj(e.parentRef);
    const namespace = str(ref.namespace) || pool.namespace;
    const name = str(ref.name);
    const gw = inputs.findGateway(namespace, name);
    const managed = gw !== undefined && inputs.builtinClasses.has(str(obj(gw.body.spec).gatewayClassName));
    const defaultParent = str(ref.kind) === 'Status' && name === 'default';
    if (!parents.has(`${namespace}/${name}`) && !managed && !defaultParent) finalParents.push(e);
  }
  for (const parent of ours) {
    // calculateSingleParentStatus: the existing Accepted/ResolvedRefs conditions of this parent are kept as the base.
    const before = existing.find((e) => str(obj(e.parentRef).name) === parent.name && str(obj(e.parentRef).namespace) === parent.namespace);
    const kept = list(before?.conditions)
      .map(obj)
      .filter((c) => str(c.type) === 'Accepted' || str(c.type) === 'ResolvedRefs') as unknown as Condition[];
    const acc = accepted(pool, parent, routes, controllers);
    let conditions = setConditions(
      pool.generation,
      kept,
      { Accepted: acc.unknown ? { reason: acc.reason, message: acc.message } : acc, ResolvedRefs: resolvedRefs(pool, inputs) },
      inputs.now,
    );
    if (acc.unknown) conditions = conditions.map((c) => (c.type === 'Accepted' ? { ...c, status: 'Unknown' } : c));
    finalParents.push({ parentRef: { group: GATEWAY_GROUP, kind: 'Gateway', namespace: parent.namespace, name: parent.name }, conditions });
  }
  return finalParents.length > 0 ? { parents: finalParents } : {};
}
