// istioctl's `-o json` format. istioctl marshals every message as a map with
// json.MarshalIndent(messages, "", "\t"), so keys come out in alphabetical order, the
// indent is one TAB per level, and strings use Go's HTML-safe escaping. Pure: no Node APIs.
import type { Diagnostic } from '../../document/types.ts';
import { reference } from '../render.ts';
import { docUrl } from '../messages.ts';
import { goJsonString } from '../../go/format.ts';

/** The ?ref= value istioctl analyze adds to documentation links (SetDocRef). */
export const ISTIOCTL_DOC_REF = 'istioctl-analyze';

/**
 * The documentation link istioctl prints for a code. istioctl pins the link to its own
 * minor version (`/v1.32/`); we are not tied to one istioctl release, so we link to
 * `/latest/` instead. That is the one intended difference from istioctl's bytes.
 */
export function documentationUrl(d: Pick<Diagnostic, 'code' | 'docUrl'>): string | undefined {
  if (/^IST\d+$/.test(d.code)) return docUrl(d.code, ISTIOCTL_DOC_REF);
  return d.docUrl;
}

/** The fields istioctl prints for one message, in their output (alphabetical) order. */
export function messageFields(d: Diagnostic): Array<[string, string]> {
  const fields: Array<[string, string]> = [['code', d.code]];
  const url = documentationUrl(d);
  if (url !== undefined) fields.push(['documentationUrl', url]);
  fields.push(['level', d.level], ['message', d.message]);
  if (d.origin) {
    fields.push(['origin', d.origin]);
    const ref = reference(d);
    if (ref) fields.push(['reference', ref]);
  }
  return fields;
}

/** The whole `-o json` output, including Fprintln's trailing newline. */
export function formatJson(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '[]\n';
  const items = diagnostics.map((d) => {
    const lines = messageFields(d).map(([k, v]) => `\t\t${goJsonString(k)}: ${goJsonString(v)}`);
    return `\t{\n${lines.join(',\n')}\n\t}`;
  });
  return `[\n${items.join(',\n')}\n]\n`;
}
