// Where kubectl and the YAML 1.2 readers disagree inside flow collections (`[...]`, `{...}`).
// Kubernetes reads YAML with go-yaml v2 (sigs.k8s.io/yaml), whose scanner
// (yaml_parser_scan_plain_scalar in scannerc.go) treats two characters differently there:
//
// - A `:` at the end of a plain scalar. YAML 1.2 (js-yaml, the `yaml` package) reads
//   `[2001:db8::]` as a one-pair mapping `{"2001:db8:": null}`, because a `:` followed by `]`,
//   `,` or `}` is a value indicator there; go-yaml ends a plain scalar only at `: ` (a colon
//   and a blank) or at a flow indicator, so the text is the string "2001:db8::" (an IPv6
//   range written in flow style, as ServiceEntry addresses often are). Such scalars are
//   single-quoted before js-yaml reads the document.
// - A `?`. In a flow collection go-yaml takes every `?` for the explicit-key indicator: a
//   plain scalar ends right before it, so `[/login?next=1]` or `{k: v?w}` is an error for
//   kubectl ("did not find expected ',' or ']'"), while a YAML 1.2 reader keeps the text; and a
//   scalar that starts with `?` is a key, so `[?b]` is `[{b: null}]` (YAML 1.2: `["?b"]`). The
//   first is reported as the error kubectl gives; the second is rewritten as `? b`, which
//   every reader takes for the same key.
//
// Left as YAML 1.2 reads them: colons at the end of scalars that span lines.
import { CST, Lexer } from 'yaml';

/** Tokens of the `yaml` lexer that mark structure but take no room in the text. */
const CONTROL_TOKENS = new Set(['\u0002', '\u0018', '\u001f']);

/** Only texts with a colon right before a flow indicator, or a `?`, can need anything. */
const CANDIDATE = /:[,\]}]|\?/;

/** A document kubectl cannot read because of a `?` in a flow collection: where, and go-yaml's words. */
export interface KubeFlowProblem {
  /** Offset of the `?` in the text. */
  offset: number;
  message: string;
}

interface Scan {
  edits: Array<{ from: number; to: number; text: string }>;
  problem?: KubeFlowProblem;
}

// The last text scanned and its scan: a document asks for its rewrites and then its problem.
let lastText: string | undefined;
let lastScan: Scan | undefined;

/** One pass over the lexer's tokens: the rewrites, and the first problem. */
function scan(text: string): Scan | undefined {
  if (!CANDIDATE.test(text)) return undefined;
  if (text !== lastText) {
    lastScan = scanTokens(text);
    lastText = text;
  }
  return lastScan;
}

function scanTokens(text: string): Scan | undefined {
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
  const out: Scan = { edits: [] };
  /** The open flow collections, innermost last: `]` for a sequence, `}` for a mapping. */
  const open: string[] = [];
  /** The type of the last token that is not a blank, a comment or a marker. */
  let previous: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const type = CST.tokenType(t);
    if (type === 'flow-seq-start' || type === 'flow-map-start') open.push(type === 'flow-seq-start' ? ']' : '}');
    else if (type === 'flow-seq-end' || type === 'flow-map-end') open.pop();
    // A plain scalar's text follows its SCALAR marker and has no token type of its own.
    if (open.length === 0 || t !== '\u001f') {
      if (type !== 'space' && type !== 'newline' && type !== 'comment' && !CONTROL_TOKENS.has(t)) previous = type;
      continue;
    }
    const body = tokens[i + 1];
    if (body === undefined || CST.tokenType(body) !== null || body.length === 0) continue;
    const from = starts[i + 1] as number;
    const close = open[open.length - 1] as string;
    const afterValueIndicator = previous === 'map-value-ind';
    previous = 'scalar';
    // The `?` rules.
    const question = body.indexOf('?');
    if (question >= 0 && !out.problem) {
      if (question === 0 && afterValueIndicator) {
        out.problem = {
          offset: from,
          message: 'did not find expected node content (kubectl reads a `?` here as the start of a key, not as text; quote the value)',
        };
      } else if (question > 0 || body.indexOf('?', 1) > 0 || body.charCodeAt(1) === 58) {
        const at = question > 0 ? question : body.charCodeAt(1) === 58 ? 1 : body.indexOf('?', 1);
        out.problem = {
          offset: from + at,
          message: `did not find expected ',' or '${close}' (kubectl's YAML reader ends a plain scalar at \`?\` inside [ ] and { }; quote the value)`,
        };
      }
    }
    if (out.problem) continue;
    const keyed = question === 0;
    // The colon rule: a scalar followed by `:` and then `,`, `]` or `}`.
    const colon = tokens[i + 2];
    // The lexer writes an empty value (a SCALAR marker and no text) between `:` and `,`.
    let k = i + 3;
    while (k < tokens.length && ((tokens[k] as string).length === 0 || tokens[k] === '\u001f')) k++;
    const after = tokens[k];
    const afterType = after === undefined ? undefined : CST.tokenType(after);
    const colonRule =
      !body.includes('\n') &&
      !body.includes('\r') &&
      colon !== undefined &&
      CST.tokenType(colon) === 'map-value-ind' &&
      (afterType === 'comma' || afterType === 'flow-seq-end' || afterType === 'flow-map-end');
    const scalar = keyed ? body.slice(1) : body;
    if (colonRule) out.edits.push({ from, to: from + body.length + 1, text: `${keyed ? '? ' : ''}'${`${scalar}:`.replace(/'/g, "''")}'` });
    else if (keyed) out.edits.push({ from, to: from + 1, text: '? ' });
  }
  return out.edits.length === 0 && !out.problem ? undefined : out;
}

/**
 * The text with every plain scalar that go-yaml would extend over a trailing `:` quoted and
 * every plain scalar that starts with `?` written as an explicit key, or undefined when there
 * is none (nearly every document).
 */
export function kubeFlowText(text: string): string | undefined {
  const s = scan(text);
  if (!s || s.edits.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const e of s.edits) {
    out += text.slice(at, e.from) + e.text;
    at = e.to;
  }
  return out + text.slice(at);
}

/** The first `?` in a flow collection that makes kubectl refuse the document, if any. */
export function kubeFlowProblem(text: string): KubeFlowProblem | undefined {
  return scan(text)?.problem;
}
