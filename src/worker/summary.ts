// Resource → ResourceSummary (what the UI lists; no body so messages stay small).
import type { Resource } from '../core/model/types.ts';
import type { ResourceSummary } from './protocol.ts';

export function summarizeResource(r: Resource): ResourceSummary {
  const s: ResourceSummary = { key: r.key, kind: r.gvk?.kind ?? r.kindId.split('/').pop() ?? r.kindId, namespace: r.namespace, name: r.name };
  if (r.source) {
    s.file = r.source.file;
    s.line = r.source.line;
  }
  if (r.synthetic) s.synthetic = r.synthetic;
  return s;
}
