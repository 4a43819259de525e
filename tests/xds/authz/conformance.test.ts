// The xds/authz conformance part over the shared corpus: every case whose goldens are in
// the corpus passes, except the stale golden README 1.3 says no test reads.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_ROOT } from '../../../scripts/conformance.ts';
import { AUTHZ_TESTDATA, runAuthz } from '../../../scripts/conformance/xdsAuthz.ts';
import { describeWithSharedCorpus } from '../../conformance/sharedCorpus.ts';

const DIR = AUTHZ_TESTDATA(DEFAULT_ROOT);

describeWithSharedCorpus('xds/authz conformance', [join(DIR, 'http'), join(DIR, 'tcp')], () => {
  it('passes every case with goldens', () => {
    const results = runAuthz(DEFAULT_ROOT);
    expect(results.length).toBeGreaterThanOrEqual(27);
    const unexpected = results.filter(
      (r) => !r.passed && !(r.error ?? '').includes('expected output not in the corpus') && r.id !== 'xds/authz/http/allow-host-before-111',
    );
    expect(unexpected.map((r) => `${r.id}: ${r.error ?? ''} ${r.missing.slice(0, 3).join(' ')}`)).toEqual([]);
    expect(results.filter((r) => r.passed).length).toBeGreaterThanOrEqual(19);
  });
});
