// istioctl's own proxy-config goldens (../shared/conformance/xds/istioctl), byte for byte:
// the same checks as the xds/istioctl conformance part.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_ROOT } from '../../../scripts/conformance.ts';
import { istioctlChecks } from '../../../scripts/conformance/parts.ts';
import { PINNED_NOW, renderIstioctlCheck } from '../../../scripts/conformance/xdsIstioctl.ts';
import { describeWithSharedCorpus } from '../../conformance/sharedCorpus.ts';

const ISTIOCTL = join(DEFAULT_ROOT, 'xds', 'istioctl');

describeWithSharedCorpus('istioctl proxy-config goldens', [ISTIOCTL], () => {
  it('has all 18 checks', () => {
    expect(istioctlChecks(DEFAULT_ROOT)).toHaveLength(18);
  });
  it.each(istioctlChecks(DEFAULT_ROOT))('%s', (check) => {
    const { got, goldenPath } = renderIstioctlCheck(DEFAULT_ROOT, check);
    expect(got).toBe(readFileSync(goldenPath, 'utf8'));
  });
  it('pins a clock inside the window both secret goldens assume', () => {
    expect(PINNED_NOW.getTime()).toBeGreaterThan(Date.parse('2024-10-27T22:44:37Z'));
    expect(PINNED_NOW.getTime()).toBeLessThan(Date.parse('2033-05-02T03:41:33Z'));
  });
});
