// istioctl's names for resources in messages.
import type { Resource } from '../model/types.ts';

const friendlyNames = new WeakMap<object, string>();
const sortKeys = new WeakMap<object, string>();

/** `Kind namespace/name`, or `Kind name` when the namespace is empty (FriendlyName). */
export function friendlyName(r: Pick<Resource, 'gvk' | 'namespace' | 'name'>): string {
  let n = friendlyNames.get(r);
  if (n === undefined) {
    n = r.namespace ? `${r.gvk.kind} ${r.namespace}/${r.name}` : `${r.gvk.kind} ${r.name}`;
    friendlyNames.set(r, n);
  }
  return n;
}

/** Istio's sort key for origins: Kind/name/namespace (name before namespace). */
export function originSortKey(r: Pick<Resource, 'gvk' | 'namespace' | 'name'>): string {
  let k = sortKeys.get(r);
  if (k === undefined) {
    k = `${r.gvk.kind}/${r.name}/${r.namespace}`;
    sortKeys.set(r, k);
  }
  return k;
}
