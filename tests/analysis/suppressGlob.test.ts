import { describe, expect, it } from 'vitest';
import { goGlob, parseSuppressions, suppressedBySettings } from '../../src/core/analysis/suppress.ts';

describe('suppression patterns follow go-glob', () => {
  it('treats only * as a wildcard', () => {
    expect(goGlob('Namespace defaul?', 'Namespace default')).toBe(false);
    expect(goGlob('Namespace defaul*', 'Namespace default')).toBe(true);
    expect(goGlob('Pod [ab]*', 'Pod a1')).toBe(false);
    expect(goGlob('Pod [ab]*', 'Pod [ab]x')).toBe(true);
    expect(goGlob('Pod a.b', 'Pod axb')).toBe(false);
  });

  it('anchors the first and last parts unless a star stands there', () => {
    expect(goGlob('*', '')).toBe(true);
    expect(goGlob('', '')).toBe(true);
    expect(goGlob('', 'x')).toBe(false);
    expect(goGlob('Pod *', 'Pod ns/p')).toBe(true);
    expect(goGlob('Pod *', 'xPod ns/p')).toBe(false);
    expect(goGlob('*/p', 'Pod ns/p')).toBe(true);
    expect(goGlob('*/p', 'Pod ns/p2')).toBe(false);
    expect(goGlob('P*d*/p', 'Pod ns/p')).toBe(true);
    expect(goGlob('P*x*/p', 'Pod ns/p')).toBe(false);
    expect(goGlob('ab*b', 'ab')).toBe(false);
    expect(goGlob('a*a', 'a')).toBe(false);
    expect(goGlob('*ns*', 'Pod ns/p')).toBe(true);
  });

  it('is what -S rules use', () => {
    const { rules } = parseSuppressions(['IST0102=Namespace defaul?', 'IST0103=Pod *'], () => true);
    expect(suppressedBySettings(rules, 'IST0102', 'Namespace default')).toBe(false);
    expect(suppressedBySettings(rules, 'IST0103', 'Pod default/x')).toBe(true);
    expect(suppressedBySettings(rules, 'IST0102', 'Pod default/x')).toBe(false);
  });
});
