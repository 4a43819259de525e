// Kubernetes metav1.LabelSelector (matchLabels + matchExpressions) as webhooks use it:
// converted the way LabelSelectorAsSelector does (invalid selectors match nothing) and
// evaluated against a label set.
import { isObj, arr, str } from '../document/read.ts';

type Op = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

/** A compiled selector: `null` when the selector is invalid (it then matches nothing). */
export type CompiledSelector = Requirement[] | null;

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Kubernetes IsQualifiedName: `[prefix/]name`, prefix a DNS subdomain, name ≤ 63 chars. */
export function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN_RE.test(prefix)) return false;
    name = parts[1] as string;
  } else return false;
  return name.length > 0 && name.length <= 63 && NAME_RE.test(name);
}

/** Kubernetes IsValidLabelValue: empty, or ≤ 63 chars of the label alphabet. */
export function isValidLabelValue(v: string): boolean {
  return v === '' || (v.length <= 63 && NAME_RE.test(v));
}

const scalarString = str;

/**
 * Compiles a LabelSelector field value. `undefined` (field absent or null) is returned as
 * such so callers can apply their own default (webhooks: absent selects everything).
 */
export function compileLabelSelector(sel: unknown): CompiledSelector | undefined {
  if (sel === undefined || sel === null) return undefined;
  if (!isObj(sel)) return null;
  const out: Requirement[] = [];
  const matchLabels = isObj(sel.matchLabels) ? sel.matchLabels : {};
  const exprs = arr(sel.matchExpressions);
  for (const [k, v] of Object.entries(matchLabels)) {
    const value = scalarString(v);
    if (!isQualifiedName(k) || !isValidLabelValue(value)) return null;
    out.push({ key: k, op: 'In', values: [value] });
  }
  for (const e of exprs) {
    if (!isObj(e)) return null;
    const key = scalarString(e.key);
    const op = scalarString(e.operator);
    const values = arr(e.values).map(scalarString);
    if (!isQualifiedName(key)) return null;
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0 || !values.every(isValidLabelValue)) return null;
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length !== 0) return null;
    } else return null;
    out.push({ key, op, values });
  }
  return out;
}

/** True when every requirement holds for the labels (an empty selector selects everything). */
export function compiledMatches(sel: CompiledSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (sel === null) return false;
  const l = labels ?? {};
  for (const r of sel) {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'In':
        if (!has || !r.values.includes(l[r.key] as string)) return false;
        break;
      case 'NotIn':
        if (has && r.values.includes(l[r.key] as string)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
    }
  }
  return true;
}

/** A webhook's namespace or object selector, compiled (`undefined`: absent, selects everything). */
export type WebhookSelector = CompiledSelector | undefined;

export function compileWebhookSelector(sel: unknown): WebhookSelector {
  return compileLabelSelector(sel);
}

/** Webhook semantics: an absent selector matches everything; an invalid one nothing. */
export function webhookSelectorAccepts(sel: WebhookSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return sel === undefined ? true : compiledMatches(sel, labels);
}

export function webhookSelectorMatches(sel: unknown, labels: Readonly<Record<string, string>> | undefined): boolean {
  return webhookSelectorAccepts(compileWebhookSelector(sel), labels);
}
