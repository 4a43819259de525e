// The CRD schema layer: what the Kubernetes API server rejects before Istio's webhook sees a
// resource. The resource is checked against our shapes of its kind (config/api/crd): unknown
// fields, types, enum values, required fields, bounds, formats and the CRDs' CEL rules, with
// the API server's wording and the field's path. Kubernetes core kinds get structural checks
// of the fields the analyzers read. Kinds we have no schema for give nothing here (their
// apiVersion/kind problems are reported by kindFindings, see schema/kinds.ts).
import type { Resource } from '../document/types.ts';
import type { ValidationFinding } from './types.ts';
import { apiKind, ObjectMeta } from '../config/api/crd/index.ts';
import type { Schema } from '../config/shape.ts';
import { editorPath, walk, type PathNode, type RawFinding, type WalkResult } from './schema/walk.ts';

export { kindFindings } from './schema/kinds.ts';

const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function finding(f: RawFinding): ValidationFinding {
  const path = editorPath(f.path);
  return { level: 'error', message: f.message, layer: 'schema', ...(path ? { path } : {}) };
}

/** A body kind's schema as a document's root: one object per kind, as the walk keeps what it learns of a schema by its identity. */
const bodyRoots = new WeakMap<Schema, Schema>();
function bodyRoot(s: Schema): Schema {
  let root = bodyRoots.get(s);
  if (root === undefined) bodyRoots.set(s, (root = { ...s, preserveUnknown: true }));
  return root;
}

/** The schema findings of one resource: structural errors first, then CEL rule failures. */
export function schemaFindings(r: Resource): ValidationFinding[] {
  if (r.synthetic) return [];
  const body = r.body;
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const kind = typeof body.kind === 'string' ? body.kind : '';
  const { group, version } = splitApiVersion(apiVersion);
  const info = apiKind(group, kind);
  if (!info?.versions.includes(version)) return [];
  const out: WalkResult = { structural: [], cel: [] };
  const root = (seg: string): PathNode => ({ parent: undefined, seg });
  if (info.crd) {
    for (const k of Object.keys(body)) {
      if (!ROOT_FIELDS.has(k) && body[k] !== undefined) out.structural.push({ message: `unknown field "${k}"`, path: root(k) });
    }
  }
  if (body.metadata !== undefined) walk(body.metadata, ObjectMeta.schema as Schema, root('metadata'), out);
  if (info.body) {
    walk(body, bodyRoot(info.body.schema as Schema), undefined, out);
  } else if (info.spec) {
    const has = Object.hasOwn(body, 'spec') && body.spec !== undefined;
    if (has) walk(body.spec, info.spec.schema as Schema, root('spec'), out);
    else if (info.specRequired) out.structural.push({ message: 'spec: Required value', path: root('spec') });
  }
  if (out.structural.length === 0 && out.cel.length === 0) return [];
  return [...out.structural.map(finding), ...out.cel.map(finding)];
}
