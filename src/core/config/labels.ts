// Equality-based label selectors (what Kubernetes builds from a plain label map).
import { str } from '../document/read.ts';

export type LabelMap = Readonly<Record<string, string>>;

/** Selector map from a resource field: values are stringified, non-objects give an empty map. */
export function toLabelMap(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const k of Object.keys(v)) out[k] = str((v as Record<string, unknown>)[k]);
  return out;
}

/** True when every key/value of the selector is on the labels; an empty selector selects everything. */
export function selectorMatches(selector: LabelMap, labels: LabelMap): boolean {
  for (const k in selector) {
    if (labels[k] !== selector[k]) return false;
  }
  return true;
}

/** The selector's canonical text, as Kubernetes prints it: `k1=v1,k2=v2` sorted by key. */
export function selectorString(selector: LabelMap): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

/** The label key before the first `=` of a selector string ('' when there is none). */
export function firstSelectorKey(selector: string): string {
  const eq = selector.indexOf('=');
  return eq < 0 ? '' : selector.slice(0, eq);
}

export { keySegment } from '../document/read.ts';
