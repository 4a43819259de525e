// Target `yaml`: the fast reader and the whole document reader (parse.ts) against js-yaml
// with the project's schema. Where js-yaml accepts, we give its value (types, key order,
// -0 and NaN included) and no error; where it refuses, we refuse with one message (duplicate
// keys: no error, the later value kept and each duplicate listed). The only deliberate
// difference: documents whose aliases expand enormously, cyclically or too deep are refused.
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { parseFastYaml, NOT_HANDLED } from '../../src/core/document/fastYaml.ts';
import { parseSourceDocument, PARSER_CODES } from '../../src/core/document/parse.ts';
import { YAML_LOAD_OPTIONS, MAX_YAML_DEPTH } from '../../src/core/document/yamlSchema.ts';
import { kubeFlowProblem, kubeFlowText } from '../../src/core/document/kubeFlow.ts';
import type { SourceDocument } from '../../src/core/document/types.ts';
import { yamlTexts } from '../gen/yamlText.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import { sameValue, show } from '../compare.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface YamlInput {
  text: string;
  /** Read as a `.json` file (istioctl reads those with its YAML reader too). */
  json: boolean;
}

type Reference = { ok: true; value: unknown } | { ok: false; reason: string };

/** js-yaml's reading, after the deliberate changes for flow collections (kubeFlow.ts: `[2001:db8::]` is a string, `[x?y]` an error, `[?b]` a key, as in Kubernetes). */
function reference(text: string): Reference {
  try {
    const value = jsyaml.load(kubeFlowText(text) ?? text, YAML_LOAD_OPTIONS);
    const problem = kubeFlowProblem(text);
    return problem ? { ok: false, reason: problem.message } : { ok: true, value };
  } catch (e) {
    return { ok: false, reason: String((e as { reason?: string }).reason ?? (e as Error).message) };
  }
}

function clip(s: string): string {
  return s.length > 600 ? `${s.slice(0, 600)}…` : s;
}

/**
 * The expanded shape of a value (an independent, recursive count): true when it is cyclic,
 * deeper than js-yaml's limit, or larger than `max` values once its aliases are expanded.
 */
function explodes(value: unknown, max: number): boolean {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (v: unknown, depth: number): number => {
    if (typeof v !== 'object' || v === null) return 1;
    if (depth > MAX_YAML_DEPTH || open.has(v)) return Infinity;
    const known = sizes.get(v);
    if (known !== undefined) return known;
    open.add(v);
    let n = 1;
    for (const c of Array.isArray(v) ? v : Object.values(v)) {
      n += size(c, depth + 1);
      if (n > max) break;
    }
    open.delete(v);
    sizes.set(v, n);
    return n;
  };
  return size(value, 1) > max;
}

export function checkYaml(input: YamlInput, options: CheckOptions): CheckOutcome {
  const { text, json } = input;
  const ref = guarded('js-yaml', options.timeLimitMs, () => reference(text));
  const fast = guarded('parseFastYaml', options.timeLimitMs, () => parseFastYaml(text));
  if (fast !== NOT_HANDLED) {
    if (!ref.ok) throw new FuzzFailure('divergence', `fast reader accepted a text js-yaml rejects (${ref.reason}): ${clip(show(fast))}`);
    if (!sameValue(fast, ref.value)) throw new FuzzFailure('divergence', `fast reader ${clip(show(fast))} but js-yaml ${clip(show(ref.value))}`);
  }
  const doc: SourceDocument = { file: json ? 'fuzz.json' : 'fuzz.yaml', index: 0, text, startOffset: 0, startLine: 1, referenceLine: 1, isJson: json };
  const ours = guarded('parseSourceDocument', options.timeLimitMs, () => parseSourceDocument(doc));
  const errors = ours.problems.filter((p) => p.level === 'Error');
  const lines = text.split('\n').length;
  for (const p of ours.problems) {
    if (!p.range || p.range.startLine < 1 || p.range.startLine > lines || p.range.endLine < p.range.startLine) {
      throw new FuzzFailure('divergence', `problem outside the document: ${JSON.stringify(p.range)} ${p.message}`);
    }
  }
  if (ref.ok) {
    if (errors.length === 1 && errors[0]?.code === PARSER_CODES.aliasLimit) {
      if (!explodes(ref.value, Math.max(100_000, text.length)))
        throw new FuzzFailure('divergence', `alias limit on a value that does not explode: ${errors[0].message}`);
      return 'ok';
    }
    if (errors.length > 0) throw new FuzzFailure('divergence', `js-yaml accepts but we report: ${errors.map((e) => e.message).join(' | ')}`);
    if (!sameValue(ours.value, ref.value)) throw new FuzzFailure('divergence', `reader ${clip(show(ours.value))} but js-yaml ${clip(show(ref.value))}`);
    return 'ok';
  }
  // A repeated key is no read error: the later value is kept and the duplicates are listed.
  if (ref.reason === 'duplicated mapping key' && errors.length === 0 && ours.value !== undefined && (ours.duplicateKeys?.length ?? 0) > 0) return 'ok';
  if (errors.length === 0) throw new FuzzFailure('divergence', `js-yaml rejects (${ref.reason}) but we accept ${clip(show(ours.value))}`);
  if (ours.value !== undefined) throw new FuzzFailure('divergence', `js-yaml rejects (${ref.reason}) but we keep a value ${clip(show(ours.value))}`);
  if (ours.problems.length !== 1)
    throw new FuzzFailure('divergence', `${ours.problems.length} messages for one broken document: ${ours.problems.map((p) => p.message).join(' | ')}`);
  return 'ok';
}

export const yamlTarget: Target<YamlInput> = {
  name: 'yaml',
  description: 'YAML reader (fast reader and document reader) vs js-yaml: values, types, accept/reject',
  arbitrary: (seeds) => fc.record({ text: yamlTexts(seeds.documents), json: fc.constantFrom(false, false, false, true) }),
  check: checkYaml,
  async: false,
  smokeRuns: 4000,
};
