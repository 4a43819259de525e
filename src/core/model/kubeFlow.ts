// Where kubectl and the YAML 1.2 readers disagree: a `:` at the end of a plain scalar in a
// flow collection. YAML 1.2 (js-yaml, the `yaml` package) reads `[2001:db8::]` as a
// one-pair mapping `{"2001:db8:": null}`, because a `:` followed by `]`, `,` or `}` is a
// value indicator there. Kubernetes reads YAML with go-yaml v2 (sigs.k8s.io/yaml), whose
// scanner (yaml_parser_scan_plain_scalar in scannerc.go) ends a plain
// scalar only at `: ` (a colon and a blank) or at a flow indicator, so the same text is the
// string "2001:db8::" (an IPv6 range written in flow style, as ServiceEntry addresses often
// are). We read such documents as Kubernetes does: before js-yaml reads them, these scalars
// are single-quoted (a scalar ending in `:` is a string in go-yaml anyway).
//
// Left as YAML 1.2 reads them: scalars that span lines, and go-yaml's other flow-context
// difference (a `?` inside a plain scalar ends it there).
import { CST, Lexer } from 'yaml';

/** Tokens of the `yaml` lexer that mark structure but take no room in the text. */
const CONTROL_TOKENS = new Set(['\u0002', '\u0018', '\u001f']);

/** Only texts with a colon right before a flow indicator can need rewriting. */
const CANDIDATE = /:[,\]}]/;

/**
 * The text with every plain scalar that go-yaml would extend over a trailing `:` quoted,
 * or undefined when there is none (nearly every document).
 */
export function kubeFlowText(text: string): string | undefined {
  if (!CANDIDATE.test(text)) return undefined;
  const tokens = [...new Lexer().lex(text)];
  // Where each token starts in the text (control tokens take none).
  const starts: number[] = [];
  let offset = 0;
  for (const t of tokens) {
    starts.push(offset);
    if (!CONTROL_TOKENS.has(t)) offset += t.length;
  }
  // If the tokens do not add up to the text, positions would be wrong: change nothing.
  if (offset !== text.length) return undefined;
  const edits: Array<{ from: number; to: number; scalar: string }> = [];
  let flowDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const type = CST.tokenType(t);
    if (type === 'flow-seq-start' || type === 'flow-map-start') flowDepth++;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flowDepth = Math.max(0, flowDepth - 1);
    // A plain scalar's text follows its SCALAR marker and has no token type of its own.
    if (flowDepth === 0 || t !== '\u001f') continue;
    const body = tokens[i + 1];
    const colon = tokens[i + 2];
    // The lexer writes an empty value (a SCALAR marker and no text) between `:` and `,`.
    let k = i + 3;
    while (k < tokens.length && ((tokens[k] as string).length === 0 || tokens[k] === '\u001f')) k++;
    const after = tokens[k];
    if (body === undefined || CST.tokenType(body) !== null || body.length === 0 || body.includes('\n') || body.includes('\r')) continue;
    if (colon === undefined || CST.tokenType(colon) !== 'map-value-ind') continue;
    const afterType = after === undefined ? undefined : CST.tokenType(after);
    if (afterType !== 'comma' && afterType !== 'flow-seq-end' && afterType !== 'flow-map-end') continue;
    const from = starts[i + 1] as number;
    edits.push({ from, to: from + body.length + 1, scalar: `${body}:` });
  }
  if (edits.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.from) + `'${e.scalar.replace(/'/g, "''")}'`;
    at = e.to;
  }
  return out + text.slice(at);
}
