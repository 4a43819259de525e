import { describe, expect, it } from 'vitest';
import { FuzzFailure, retryingHangs, retryingHangsAsync } from '../../fuzz/failure.ts';

// A check that reports a hang is run again (twice at most): one stalled run on a busy machine
// is not a hang, three slow runs are; other failures are never retried.
function scripted(outcomes: Array<'ok' | 'hang' | 'crash'>) {
  let calls = 0;
  const check = () => {
    const o = outcomes[calls++];
    if (o === 'hang') throw new FuzzFailure('hang', 'slow');
    if (o === 'crash') throw new FuzzFailure('crash', 'boom');
    return 'ok' as const;
  };
  return { check, calls: () => calls };
}

describe('retryingHangs', () => {
  it('passes when a later run is fast', () => {
    const s = scripted(['hang', 'hang', 'ok']);
    expect(retryingHangs(s.check)).toBe('ok');
    expect(s.calls()).toBe(3);
  });
  it('reports a hang that is slow three times', () => {
    const s = scripted(['hang', 'hang', 'hang', 'ok']);
    expect(() => retryingHangs(s.check)).toThrow('hang: slow');
    expect(s.calls()).toBe(3);
  });
  it('does not retry other failures', () => {
    const s = scripted(['crash', 'ok']);
    expect(() => retryingHangs(s.check)).toThrow('crash: boom');
    expect(s.calls()).toBe(1);
  });
  it('reports what the retry finds when it is not a hang', () => {
    const s = scripted(['hang', 'crash']);
    expect(() => retryingHangs(s.check)).toThrow('crash: boom');
  });
  it('works the same for async checks', async () => {
    const s = scripted(['hang', 'ok']);
    await expect(retryingHangsAsync(async () => s.check())).resolves.toBe('ok');
    const t = scripted(['hang', 'hang', 'hang']);
    await expect(retryingHangsAsync(async () => t.check())).rejects.toThrow('hang: slow');
  });
});
