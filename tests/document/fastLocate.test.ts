import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sharedTest } from '../helpers/shared.ts';
import { yamlFiles } from '../helpers/files.ts';
import { splitDocuments } from '../../src/core/document/split.ts';
import { fieldRangeMap, locateWithParser, parseFieldPath } from '../../src/core/document/locate.ts';
import { fastLocate } from '../../src/core/document/fastLocate.ts';
import { generateMesh } from '../../bench/generateMesh.ts';
import type { SourceDocument } from '../../src/core/document/types.ts';

/** Checks the fast locator against the full parser on every field of every document. */
function compareAll(docs: SourceDocument[]): { answered: number; total: number } {
  let answered = 0;
  let total = 0;
  for (const doc of docs) {
    for (const path of fieldRangeMap(doc).keys()) {
      const segs = parseFieldPath(path);
      if (segs.some((s) => typeof s === 'string' && /[.[\]]/.test(s))) continue; // keys with dots don't round-trip through the path syntax
      total++;
      const fast = fastLocate(doc, segs);
      if (!fast) continue;
      answered++;
      const slow = locateWithParser(doc, segs);
      const where = `${doc.file}#${doc.index} ${path}`;
      expect(slow?.exact, where).toBe(true);
      expect(fast.scalar, where).toBe(slow!.scalar);
      expect(fast.key, where).toEqual(slow!.key);
      expect([fast.value.startLine, fast.value.startCol], where).toEqual([slow!.value.startLine, slow!.value.startCol]);
      if (fast.scalar && slow!.value.startLine === slow!.value.endLine) expect(fast.value, where).toEqual(slow!.value);
    }
  }
  return { answered, total };
}

describe('fast locator', () => {
  it('agrees with the full parser on our samples and fixtures, and answers nearly all of them', () => {
    const files = [...yamlFiles('public/samples'), ...yamlFiles('tests/fixtures')];
    const docs = files.flatMap((f) => splitDocuments(f, readFileSync(f, 'utf8')));
    docs.push(...splitDocuments('mesh.yaml', generateMesh(40).text));
    const { answered, total } = compareAll(docs);
    expect(total).toBeGreaterThan(1000);
    expect(answered / total).toBeGreaterThan(0.95);
  });

  sharedTest('agrees with the full parser on Istio test inputs', '../shared/conformance/analyzers/testdata', (dir) => {
    const docs = yamlFiles(dir).flatMap((f) => splitDocuments(f, readFileSync(f, 'utf8')));
    const { answered, total } = compareAll(docs);
    expect(total).toBeGreaterThan(1000);
    expect(answered / total).toBeGreaterThan(0.9);
  });

  it('handles flow collections, quoted keys, comments and same-indent sequences', () => {
    const text = [
      'metadata:',
      '  annotations:',
      '    "sidecar.istio.io/inject": "false"   # quoted key',
      'spec:',
      '  hosts: [a.example.com, "b.example.com"]',
      '  selector: {app: web, tier: "front"}',
      '  http:',
      '  - match:',
      '    - uri: {prefix: /api}',
      '    route:',
      '    - destination:',
      '        host: web # trailing comment',
      '',
    ].join('\n');
    const [doc] = splitDocuments('t.yaml', text);
    const at = (p: Array<string | number>) => {
      const r = fastLocate(doc!, p);
      return r && [r.value.startLine, r.value.startCol, r.value.endCol];
    };
    const parser = (p: Array<string | number>) => {
      const r = locateWithParser(doc!, p);
      return r && [r.value.startLine, r.value.startCol, r.value.endCol];
    };
    expect(at(['spec', 'hosts', 1])).toEqual([5, 26, 41]);
    expect(at(['spec', 'selector', 'tier'])).toEqual([6, 30, 37]);
    expect(at(['spec', 'http', 0, 'route', 0, 'destination', 'host'])).toEqual([12, 15, 18]);
    expect(at(['metadata', 'annotations', 'sidecar.istio.io/inject'])).toEqual([3, 32, 39]);
    for (const p of [
      ['spec', 'hosts', 1],
      ['spec', 'selector', 'tier'],
      ['spec', 'http', 0, 'route', 0, 'destination', 'host'],
      ['metadata', 'annotations', 'sidecar.istio.io/inject'],
    ]) {
      expect(at(p)).toEqual(parser(p));
    }
    expect(at(['spec', 'http', 0, 'match', 0, 'uri', 'prefix'])).toEqual(parser(['spec', 'http', 0, 'match', 0, 'uri', 'prefix']));
    const [nested] = splitDocuments('n.yaml', 'spec:\n  a: {b: {c: d}}\n  e: &x 1\n');
    expect(fastLocate(nested!, ['spec', 'a', 'b', 'c'])).toBeNull(); // nested flow: left to the parser
    expect(fastLocate(nested!, ['spec', 'e'])).toBeNull(); // anchors: left to the parser
    expect(at(['spec', 'missing'])).toBeNull();
  });
});
