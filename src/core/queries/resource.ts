// The `resource` view: one resource by its store key — kind, name, labels, where it is
// written (file and lines), and whether the analysis derived or assumed it.
import { kindById } from '../document/kinds.ts';
import { argBag, optString, plainMap, QueryError, sourceLocation, type QueryState } from './common.ts';
import type { ResourceDetail } from './views.ts';

/** Splits `<group>/<Kind>/<namespace>/<name>` (the group is `core` for Kubernetes' core kinds). */
export function parseResourceKey(key: string): { kindId: string; namespace: string; name: string } | undefined {
  const parts = key.split('/');
  if (parts.length !== 4) return undefined;
  const [group, kind, namespace, name] = parts as [string, string, string, string];
  if (!group || !kind || !name) return undefined;
  return { kindId: `${group}/${kind}`, namespace, name };
}

export function answerResource(raw: unknown, state: QueryState): ResourceDetail | null {
  const key = optString(argBag(raw), 'key');
  if (key === undefined) throw new QueryError('The resource query needs a key (e.g. "core/Pod/default/web-1").');
  const parsed = parseResourceKey(key);
  const info = parsed && kindById(parsed.kindId);
  if (!parsed || !info) return null;
  const r = state.view.find(info, parsed.namespace, parsed.name);
  if (!r) return null;
  const gvk = r.gvk;
  const out: ResourceDetail = {
    key: r.key,
    kind: gvk.kind,
    apiVersion: gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version,
    namespace: r.namespace,
    name: r.name,
    labels: plainMap(r.labels),
    annotations: plainMap(r.annotations),
    derived: r.synthetic === 'derived',
  };
  if (r.derivedFrom) out.derivedFrom = { ...r.derivedFrom };
  if (r.synthetic) out.synthetic = r.synthetic;
  const source = sourceLocation(r, state);
  if (source) out.source = source;
  return out;
}
