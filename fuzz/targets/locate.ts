// Target `locate`: the fast line finder against the full parser-based locator, on every
// field path of documents js-yaml accepts (plus paths that do not exist). Where the fast
// finder answers, it must give what the app uses of the full locator's answer: whether the
// path resolved, whether the value is a scalar, the key's range, where the value starts,
// and where it ends for scalars and for collections without a key.
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { fastLocate } from '../../src/core/document/fastLocate.ts';
import { locateWithParser } from '../../src/core/document/locate.ts';
import { YAML_LOAD_OPTIONS } from '../../src/core/document/yamlSchema.ts';
import type { FieldLocation, SourceDocument } from '../../src/core/document/types.ts';
import { cleanYaml, mutatedSeed, structuredYaml } from '../gen/yamlText.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface LocateInput {
  text: string;
  /** File line of the document's first line (documents after the first start lower down). */
  startLine: number;
}

type Path = Array<string | number>;

/** Every path of a parsed value, breadth first, up to `max`, plus a few that do not resolve. */
export function pathsOf(value: unknown, max = 60): Path[] {
  const out: Path[] = [];
  const queue: Array<[unknown, Path]> = [[value, []]];
  const seen = new Set<object>();
  while (queue.length > 0 && out.length < max) {
    const [v, path] = queue.shift() as [unknown, Path];
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    const children: Array<[string | number, unknown]> = Array.isArray(v)
      ? v.map((c, i) => [i, c])
      : Object.keys(v).map((k) => [k, Object.getOwnPropertyDescriptor(v, k)?.value]);
    for (const [k, c] of children) {
      out.push([...path, k]);
      queue.push([c, [...path, k]]);
    }
    out.push([...path, 'no-such-key'], [...path, 7]);
  }
  return out.slice(0, max);
}

/** The parts of a location the app uses (see render.ts). */
export function observable(loc: FieldLocation | undefined | null): unknown {
  if (!loc) return null;
  const v = loc.value;
  return {
    exact: loc.exact,
    scalar: loc.scalar,
    key: loc.key ?? null,
    start: [v.startLine, v.startCol],
    end: loc.scalar || !loc.key ? [v.endLine, v.endCol] : null,
  };
}

export function checkLocate(input: LocateInput, options: CheckOptions): CheckOutcome {
  let value: unknown;
  try {
    // Duplicate keys are allowed (the later wins), as for documents the app analyzes.
    value = jsyaml.load(input.text, { ...YAML_LOAD_OPTIONS, json: true });
  } catch {
    return 'skipped'; // documents that do not parse carry no messages
  }
  const doc: SourceDocument = {
    file: 'fuzz.yaml',
    index: 0,
    text: input.text,
    startOffset: 0,
    startLine: input.startLine,
    referenceLine: input.startLine,
    isJson: false,
  };
  const paths = pathsOf(value);
  guarded('locating', options.timeLimitMs, () => {
    for (const path of paths) {
      const fast = fastLocate(doc, path);
      if (!fast) continue;
      const full = locateWithParser(doc, path);
      const a = JSON.stringify(observable(fast));
      const b = JSON.stringify(observable(full));
      if (a !== b) throw new FuzzFailure('divergence', `path ${JSON.stringify(path)}: fast ${a} but full ${b}`);
    }
  });
  return 'ok';
}

export const locateTarget: Target<LocateInput> = {
  name: 'locate',
  description: 'line finder (fastLocate) vs the full parser locator, on every field path',
  arbitrary: (seeds) =>
    fc.record({
      // Clean documents mostly; noisy ones (anchors, aliases, tags, tabs, CRs) now and then.
      text: fc.oneof(
        { weight: 4, arbitrary: cleanYaml },
        { weight: 3, arbitrary: mutatedSeed(seeds.documents, true) },
        { weight: 1, arbitrary: mutatedSeed(seeds.documents) },
        { weight: 1, arbitrary: structuredYaml },
      ),
      startLine: fc.constantFrom(1, 1, 5, 40),
    }),
  check: checkLocate,
  async: false,
  smokeRuns: 2000,
};
