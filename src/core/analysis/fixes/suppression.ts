// "Suppress with annotation": add the message code to the resource's
// `galley.istio.io/analyze-suppress` annotation, creating the annotation (and the
// annotations map) when missing. Items are joined with a bare comma: Istio compares them exactly.
import type { QuickFix, Resource } from '../../model/types.ts';
import { SUPPRESS_ANNOTATION } from '../suppress.ts';
import { editorFor, fix, type FixContext } from './context.ts';
import { Quoted } from './yamlEdit.ts';

export function suppressionFix(resource: Resource, code: string, ctx: FixContext): QuickFix | undefined {
  const ed = editorFor(resource, ctx);
  if (!ed) return undefined;
  const path = ['metadata', 'annotations', SUPPRESS_ANNOTATION];
  const existing = resource.annotations[SUPPRESS_ANNOTATION];
  const title = `Suppress ${code} with the ${SUPPRESS_ANNOTATION} annotation`;
  if (existing !== undefined && ed.has(path)) {
    const items = existing.split(',').filter((s) => s !== '');
    if (items.includes(code)) return undefined;
    return fix(title, ed.replaceScalar(path, [...items, code].join(','), { quote: 'double' }))[0];
  }
  return fix(title, ed.addMapEntry(['metadata', 'annotations'], SUPPRESS_ANNOTATION, new Quoted(code)))[0];
}
