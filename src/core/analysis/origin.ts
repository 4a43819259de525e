// istioctl's names for resources in messages.
import type { Resource } from '../document/types.ts';

/** `Kind namespace/name`, or `Kind name` when the namespace is empty (FriendlyName). */
export function friendlyName(r: Pick<Resource, 'gvk' | 'namespace' | 'name'>): string {
  // join() gives one flat string; the name is kept in every diagnostic.
  return r.namespace ? [r.gvk.kind, ' ', r.namespace, '/', r.name].join('') : [r.gvk.kind, ' ', r.name].join('');
}

/** Istio's sort key for origins: Kind/name/namespace (name before namespace). */
export function originSortKey(r: Pick<Resource, 'gvk' | 'namespace' | 'name'>): string {
  return `${r.gvk.kind}/${r.name}/${r.namespace}`;
}
