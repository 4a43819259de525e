// Label selectors (metav1.LabelSelector) over namespaces, as allowedRoutes and allowedListeners use
// them, with the kubernetes.io/metadata.name label implied (gatewaycommon toNamespaceSet).
import { type Json, list, obj, str, stringRecord } from './objects.ts';

export function withNameLabel(name: string, labels: Record<string, string>): Record<string, string> {
  return { ...labels, 'kubernetes.io/metadata.name': labels['kubernetes.io/metadata.name'] === name ? name : name };
}

export function validSelector(sel: Json): boolean {
  for (const e of list(sel.matchExpressions).map(obj)) {
    const op = str(e.operator);
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(op)) return false;
    const vals = list(e.values);
    if ((op === 'In' || op === 'NotIn') && vals.length === 0) return false;
    if ((op === 'Exists' || op === 'DoesNotExist') && vals.length > 0) return false;
  }
  return true;
}

export function selectorMatches(sel: Json, labels: Record<string, string>): boolean {
  if (!validSelector(sel)) return false;
  for (const [k, v] of Object.entries(stringRecord(sel.matchLabels))) if (labels[k] !== v) return false;
  for (const e of list(sel.matchExpressions).map(obj)) {
    const key = str(e.key);
    const vals = list(e.values).map(str);
    const has = Object.hasOwn(labels, key);
    switch (str(e.operator)) {
      case 'In':
        if (!has || !vals.includes(labels[key] as string)) return false;
        break;
      case 'NotIn':
        if (has && vals.includes(labels[key] as string)) return false;
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
