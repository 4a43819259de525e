// Schema look-ups for editing help: the schema of a whole document of a kind, and the schema
// node at a path inside it (keys, and '[]' for list items).
import type { Schema } from '../../config/shape.ts';
import { apiKind, ObjectMeta } from '../../config/api/crd/index.ts';

const roots = new Map<string, Schema | null>();

/** The schema of a whole object of this apiVersion/kind (undefined when we have none). */
export function documentSchema(apiVersion: string, kind: string): Schema | undefined {
  const key = `${apiVersion}\u0000${kind}`;
  let s = roots.get(key);
  if (s === undefined) {
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const k = apiKind(group, kind);
    if (!k?.versions.includes(version)) s = null;
    else {
      const props: Record<string, Schema> = {
        apiVersion: { type: 'string', help: `The API group and version: ${k.group ? `${k.group}/` : ''}${k.versions[0]}.` },
        kind: { type: 'string', help: `The kind: ${k.kind}.` },
        metadata: { ...(ObjectMeta.schema as Schema), help: 'Name, namespace, labels and annotations.' },
      };
      if (k.spec) props.spec = { ...(k.spec.schema as Schema), help: `The ${k.kind}'s configuration.` };
      if (k.body) Object.assign(props, (k.body.schema as Schema).properties);
      s = { type: 'object', properties: props, required: k.specRequired ? ['apiVersion', 'kind', 'metadata', 'spec'] : ['apiVersion', 'kind', 'metadata'] };
    }
    roots.set(key, s);
  }
  return s ?? undefined;
}

/** The schema at `path` below `root` ('[]' steps into list items), and whether the field is required in its parent. */
export function schemaAt(root: Schema, path: readonly string[]): { schema: Schema; required: boolean } | undefined {
  let s: Schema | undefined = root;
  let required = false;
  for (const seg of path) {
    if (!s) return undefined;
    if (seg === '[]') {
      s = s.items;
      required = false;
      continue;
    }
    const props: Readonly<Record<string, Schema>> | undefined = s.properties;
    const next: Schema | undefined = props?.[seg] ?? s.values;
    required = !!props?.[seg] && !!s.required?.includes(seg);
    s = next;
  }
  return s ? { schema: s, required } : undefined;
}

/** A one-line type name for hover and completion details. */
export function typeName(s: Schema): string {
  if (s.intOrString) return 'integer or string';
  if (s.type === 'array') return `list of ${s.items ? typeName(s.items) : 'values'}`;
  if (s.type === 'object' && s.values && !s.properties) return `map of ${typeName(s.values)}`;
  if (s.type === 'object') return 'object';
  if (s.format === 'duration') return 'duration';
  if (s.type === 'any') return 'any value';
  return s.enum ? `${s.type} (enum)` : s.type;
}
