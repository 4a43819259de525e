// What is normalised before istiod's generated xDS and ours are compared field by field. Each
// rule is a systematic difference of representation, not of what Envoy does, and is counted in
// the report. Add one only with its reason; never to hide a difference in behaviour.
//
// 1. Both sides are printed again through the same proto3 JSON printer (our jsonpb printer,
//    src/core/xds/configdump/protoJson.ts, with the Envoy schema): istiod's side comes from Go's
//    protojson, ours is JSON we build by hand, and proto3 JSON has several spellings of one
//    message. A field without presence at its zero value is the same message written or left
//    out (`healthyPanicThreshold: {value: 0}` is `healthyPanicThreshold: {}`), durations and
//    64-bit integers have one form. The printer drops fields the schema does not know; ours are
//    checked against Envoy's own descriptors separately (tests/xds/samplesProto.test.ts), and
//    istiod's come from those descriptors.
// 2. Rules for one field each, below.
import type { ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { marshalJsonpb } from '../../src/core/xds/configdump/protoJson.ts';
import type { JsonValue } from '../../src/core/xds/configdump/dump.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export interface Normalisation {
  id: string;
  why: string;
  count: number;
}

export const TYPE_NAMES: Record<string, string> = {
  clusters: 'envoy.config.cluster.v3.Cluster',
  listeners: 'envoy.config.listener.v3.Listener',
  routes: 'envoy.config.route.v3.RouteConfiguration',
  endpoints: 'envoy.config.endpoint.v3.ClusterLoadAssignment',
};

interface Rule {
  id: string;
  why: string;
  applies: (type: string) => boolean;
  /** Changes a and b in place; true when it changed anything. */
  apply: (istiod: Obj, ours: Obj) => boolean;
}

/** Applies `f` to every LocalityLbEndpoints of a ClusterLoadAssignment (EDS, or a cluster's loadAssignment). */
function eachLocality(cla: Json | undefined, f: (l: Obj) => boolean): boolean {
  if (!isObj(cla) || !Array.isArray(cla.endpoints)) return false;
  let changed = false;
  for (const l of cla.endpoints) if (isObj(l) && f(l)) changed = true;
  return changed;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const RULES: Rule[] = [
  {
    id: 'empty-locality',
    why: 'istiod always sets LocalityLbEndpoints.locality, an empty message for pods without a locality; an empty and an unset locality are the same locality for Envoy',
    applies: (t) => t === 'endpoints' || t === 'clusters',
    apply: (a, b) => {
      const drop = (l: Obj) => {
        if (isObj(l.locality) && Object.keys(l.locality).length === 0) {
          delete l.locality;
          return true;
        }
        return false;
      };
      return [eachLocality(a.loadAssignment ?? a, drop), eachLocality(b.loadAssignment ?? b, drop)].some(Boolean);
    },
  },
  {
    id: 'lb-endpoint-order',
    why: "the order of endpoints inside a locality follows the EndpointSlices, whose order Kubernetes does not define (the oracle's slices are written by xds-oracle); sorted by address on both sides",
    applies: (t) => t === 'endpoints' || t === 'clusters',
    apply: (a, b) => {
      const key = (e: Json) => JSON.stringify(isObj(e) && isObj(e.endpoint) ? (e.endpoint.address ?? null) : null);
      const sort = (l: Obj) => {
        if (!Array.isArray(l.lbEndpoints) || l.lbEndpoints.length < 2) return false;
        const before = JSON.stringify(l.lbEndpoints);
        l.lbEndpoints.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
        return JSON.stringify(l.lbEndpoints) !== before;
      };
      return [eachLocality(a.loadAssignment ?? a, sort), eachLocality(b.loadAssignment ?? b, sort)].some(Boolean);
    },
  },
  {
    id: 'cluster-type-static',
    why: "istiod sets Cluster.type STATIC explicitly; it is in the oneof cluster_discovery_type, so protojson prints it. Unset, Envoy's type is STATIC (the enum's zero) all the same",
    applies: (t) => t === 'clusters',
    apply: (a, b) => {
      if (a.type === 'STATIC' && b.type === undefined && b.clusterType === undefined) {
        delete a.type;
        return true;
      }
      return false;
    },
  },
];

function canonical(v: Obj, typeName: string, schema: ProtoSchema): Obj {
  return JSON.parse(marshalJsonpb(v as JsonValue, typeName, schema)) as Obj;
}

/** Returns the two resources with every applicable normalisation applied (copies). */
export function normalise(type: string, istiod: Obj, ours: Obj, schema: ProtoSchema, seen: Map<string, Normalisation>): [Obj, Obj] {
  const typeName = TYPE_NAMES[type];
  if (!typeName) throw new Error(`unknown resource type ${type}`);
  const a = canonical(istiod, typeName, schema);
  const b = canonical(ours, typeName, schema);
  for (const r of RULES) {
    if (!r.applies(type) || !r.apply(a, b)) continue;
    const n = seen.get(r.id) ?? { id: r.id, why: r.why, count: 0 };
    n.count++;
    seen.set(r.id, n);
  }
  return [a, b];
}
