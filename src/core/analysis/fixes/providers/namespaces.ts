// Fixes for namespace injection labels: label a namespace for injection (IST0102), or keep
// one of several competing injection labels (IST0123).
import { KINDS } from '../../../document/kinds.ts';
import type { QuickFix } from '../../../document/types.ts';
import { editorFor, fix, type FixProvider } from '../context.ts';
import { str } from '../../../document/read.ts';
import { INJECTION_ENABLED, INJECTION_LABEL } from '../../../config/wellKnown.ts';

/** IST0102: `istio-injection: enabled` (or `disabled`, to opt out explicitly) on the Namespace. */
export const namespaceInjectionFixes: FixProvider = ({ message }, ctx) => {
  const r = message.resource;
  const ns = r && r.kindId === KINDS.Namespace.id ? r : ctx.view.find(KINDS.Namespace, '', str(message.params[0]));
  const ed = editorFor(ns, ctx);
  if (!ns || !ed) return [];
  const out: QuickFix[] = [];
  for (const value of [INJECTION_ENABLED, 'disabled']) {
    const edit = ed.has(['metadata', 'labels', INJECTION_LABEL])
      ? ed.replaceScalar(['metadata', 'labels', INJECTION_LABEL], value)
      : ed.addMapEntry(['metadata', 'labels'], INJECTION_LABEL, value);
    out.push(...fix(`Label namespace ${ns.name} ${INJECTION_LABEL}=${value}${value === INJECTION_ENABLED ? '' : ' (opt out)'}`, edit));
  }
  return out;
};

/** IST0123: one fix per injection label, each removing that label. */
export const multipleInjectionLabelFixes: FixProvider = ({ message }, ctx) => {
  const ns = message.resource;
  const ed = editorFor(ns, ctx);
  if (!ns || !ed) return [];
  const labels = Array.isArray(message.params[0]) ? (message.params[0] as unknown[]).map(str) : [];
  const out: QuickFix[] = [];
  for (const l of labels) {
    const key = l.includes('=') ? l.slice(0, l.indexOf('=')) : l;
    out.push(...fix(`Remove label ${key}`, ed.removeMapEntry(['metadata', 'labels', key])));
  }
  return out;
};
