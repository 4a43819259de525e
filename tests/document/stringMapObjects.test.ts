// String maps (labels, annotations, selectors) are read onto objects whose prototype has no
// members (document/read.ts): a key a user writes is the only thing a lookup can find.
import { describe, expect, it } from 'vitest';
import { EMPTY_STRING_MAP, newStringMap, stringMap } from '../../src/core/document/read.ts';
import { parseFastYaml } from '../../src/core/document/fastYaml.ts';

describe('string maps', () => {
  it("find no Object members: absent keys read undefined, and keys named like them are the map's own", () => {
    const empty = stringMap({ app: 'x' });
    for (const k of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      expect(empty[k], k).toBeUndefined();
      expect(k in empty, k).toBe(false);
    }
    expect(EMPTY_STRING_MAP.toString).toBeUndefined();
    const labels = stringMap(JSON.parse('{"constructor":"a","toString":"b","__proto__":"c","app":"d"}'));
    expect(labels.constructor).toBe('a');
    expect(labels.toString).toBe('b');
    expect(labels.__proto__).toBe('c');
    expect(Object.keys(labels)).toEqual(['constructor', 'toString', '__proto__', 'app']);
    expect(JSON.parse(JSON.stringify(labels))).toEqual(JSON.parse('{"constructor":"a","toString":"b","__proto__":"c","app":"d"}'));
  });

  it('keep a __proto__ key written into a new map as an entry, not as the prototype', () => {
    const m = newStringMap();
    m.__proto__ = 'x';
    expect(Object.keys(m)).toEqual(['__proto__']);
    expect(m.__proto__).toBe('x');
    expect(Object.assign(newStringMap(), m).__proto__).toBe('x');
  });

  it('read values as text, as kubectl prints them', () => {
    const doc = parseFastYaml('a: 1\nb: true\nc: x\n') as Record<string, unknown>;
    expect({ ...stringMap(doc) }).toEqual({ a: '1', b: 'true', c: 'x' });
  });
});
