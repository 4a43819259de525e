import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeProcessed, postProcess, processMessages, type Reported } from '../../src/core/analysis/run.ts';
import type { AnalysisMessage } from '../../src/core/analysis/types.ts';
import type { Diagnostic, Level, Resource } from '../../src/core/document/types.ts';

// An incremental run sorts each analyzer's messages once and merges the lists; the result
// must be exactly what sorting every message together gives (istioctl's order, equal
// messages in analyzer order, duplicates printed once).

const resources: Resource[] = ['a', 'b', 'c'].map((name) => ({
  key: `networking.istio.io/VirtualService/default/${name}`,
  kindId: 'networking.istio.io/VirtualService',
  gvk: { group: 'networking.istio.io', version: 'v1', kind: 'VirtualService' },
  namespace: 'default',
  name,
  labels: {},
  annotations: {},
  body: {},
}));

interface Spec {
  analyzer: number;
  level: Level;
  code: string;
  resource: number; // -1: no resource
  text: string;
  line: number;
}

const spec: fc.Arbitrary<Spec> = fc.record({
  analyzer: fc.integer({ min: 0, max: 4 }),
  level: fc.constantFrom<Level>('Error', 'Warning', 'Info'),
  code: fc.constantFrom('IST0101', 'IST0173', 'IST0109'),
  resource: fc.integer({ min: -1, max: 2 }),
  text: fc.constantFrom('x', 'y', 'z'),
  line: fc.integer({ min: 1, max: 3 }),
});

function build(specs: Spec[]) {
  const rendered = new Map<AnalysisMessage, Diagnostic>();
  const byAnalyzer: Reported[][] = [[], [], [], [], []];
  for (const s of specs) {
    const r = s.resource >= 0 ? resources[s.resource] : undefined;
    const message = { type: { code: s.code }, params: [], resource: r } as unknown as AnalysisMessage;
    const d: Diagnostic = {
      level: s.level,
      code: s.code,
      message: s.text,
      file: 'mesh.yaml',
      line: s.line,
      source: 'analyzer',
      ...(r ? { origin: `VirtualService ${r.namespace}/${r.name}` } : {}),
    };
    rendered.set(message, d);
    byAnalyzer[s.analyzer]!.push({ message, analyzer: `a${s.analyzer}` });
  }
  return { rendered, byAnalyzer };
}

describe('mergeProcessed', () => {
  it('equals one sort of all messages, for any mix of analyzers, duplicates and list sizes', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 60 }), (specs) => {
        const { rendered, byAnalyzer } = build(specs);
        const render = (m: AnalysisMessage) => rendered.get(m)!;
        // One sort of every message, in analyzer order (what a run without the merge does).
        const expected = postProcess(byAnalyzer.flat(), () => undefined, {}, render);
        const lists = byAnalyzer.map((reported, rank) => processMessages(reported, () => undefined, {}, render, rank));
        expect(mergeProcessed(lists)).toEqual(expected);
        // The same objects, not just equal ones: the page reuses them by identity.
        mergeProcessed(lists).forEach((d, i) => expect(d).toBe(expected[i]));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('places a few messages into a long list (the binary-search path) without losing duplicates or order', () => {
    const specs: Spec[] = [];
    for (let i = 0; i < 200; i++) specs.push({ analyzer: 1, level: 'Warning', code: 'IST0173', resource: i % 3, text: `t${i % 7}`, line: 1 + (i % 3) });
    specs.push({ analyzer: 0, level: 'Warning', code: 'IST0173', resource: 0, text: 't0', line: 1 }); // a twin from an earlier analyzer
    specs.push({ analyzer: 3, level: 'Error', code: 'IST0101', resource: 2, text: 'x', line: 2 });
    const { rendered, byAnalyzer } = build(specs);
    const render = (m: AnalysisMessage) => rendered.get(m)!;
    const expected = postProcess(byAnalyzer.flat(), () => undefined, {}, render);
    const lists = byAnalyzer.map((reported, rank) => processMessages(reported, () => undefined, {}, render, rank));
    const merged = mergeProcessed(lists);
    expect(merged.length).toBe(expected.length);
    merged.forEach((d, i) => expect(d).toBe(expected[i]));
  });
});
