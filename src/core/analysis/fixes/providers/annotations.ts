// Fixes for Istio annotations: an unknown one is most likely a misspelt known one (IST0108);
// the deprecated `sidecar.istio.io/inject` annotation becomes the label of the same name (IST0135).
import type { QuickFix, Resource } from '../../../document/types.ts';
import { ANNOTATIONS, type AnnotationDef } from '../../../config/annotations.ts';
import { closest } from '../distance.ts';
import { editorFor, fixOf, fix, type FixProvider } from '../context.ts';
import { str } from '../../../document/read.ts';
import { SIDECAR_INJECT } from '../../../config/wellKnown.ts';

/** Annotations a resource kind may carry (`Any` counts); hidden ones last. */
function applicable(kind: string): AnnotationDef[] {
  const fits = (d: AnnotationDef) => d.resources.includes('Any') || (d.resources as readonly string[]).includes(kind);
  return [...ANNOTATIONS.filter((d) => fits(d) && !d.hidden && !d.deprecated), ...ANNOTATIONS.filter((d) => !fits(d) || d.hidden || d.deprecated)];
}

/** Where the resource keeps the annotation: its own metadata (Istio checks only that). */
function annotationPath(key: string): Array<string | number> {
  return ['metadata', 'annotations', key];
}

/** IST0108: rename the annotation to the closest known one (same prefix family preferred). */
export const unknownAnnotationFixes: FixProvider = ({ message }, ctx) => {
  const r = message.resource;
  const ed = editorFor(r, ctx);
  if (!r || !ed) return [];
  const key = str(message.params[0]);
  if (!ed.has(annotationPath(key))) return [];
  const taken = new Set(Object.keys(r.annotations));
  const ranked = closest(
    key,
    applicable(r.gvk.kind).filter((d) => !taken.has(d.name)),
    (d) => d.name,
    {
      maxDistance: Math.max(3, Math.ceil(key.length / 3)),
    },
  );
  return ranked.flatMap(({ value }) => fix(`Change annotation to "${value.name}"`, ed.renameKey(annotationPath(key), value.name)));
};

/** The replacement the deprecation notice names, when Istio gives one. */
const REPLACED_BY_LABEL: ReadonlySet<string> = new Set([SIDECAR_INJECT]);

function labelFixes(r: Resource, key: string, ctx: Parameters<FixProvider>[1]): QuickFix[] {
  const ed = editorFor(r, ctx);
  if (!ed) return [];
  // Values like `true`/`false` are written quoted, so the label stays a string.
  const addLabel = ed.addMapEntry(['metadata', 'labels'], key, r.annotations[key] ?? '');
  return fixOf(`Replace annotation ${key} with the label ${key}`, [ed.removeMapEntry(annotationPath(key)), addLabel]);
}

export const deprecatedAnnotationFixes: FixProvider = ({ message }, ctx) => {
  const r = message.resource;
  const key = str(message.params[0]);
  if (!r || !REPLACED_BY_LABEL.has(key)) return [];
  return labelFixes(r, key, ctx);
};
