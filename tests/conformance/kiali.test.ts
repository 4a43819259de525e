// The kiali conformance suite: a case of a checker the pack lacks is listed as NOT IMPLEMENTED
// and fails nothing, strict or not; an implemented case that fails is a new failure; passing
// cases are written to the baseline, not-implemented ones are not.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance, writeBaseline } from '../../scripts/conformance.ts';
import { runKialiCase, type KialiCase } from '../../scripts/conformance/kiali.ts';
import { scratchDir } from '../helpers/scratch.ts';

const DR = `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: dr, namespace: shop}
spec:
  host: nowhere
`;

function kialiCase(id: string, checker: string, expected: KialiCase['expected']): KialiCase {
  return {
    id,
    checker,
    object: { kind: 'DestinationRule', namespace: 'shop', name: 'dr' },
    expected,
    expect_valid: false,
    assert_no_findings: false,
    match: 'exact',
    codes_in_scope: ['KIA0202', 'KIA0203', 'KIA0209'],
    context: { namespaces: null },
    files: { 'dr.yaml': DR },
  };
}

const PASSING = kialiCase('destinationrules/no_dest/Unknown', 'destinationrules.NoDestinationChecker', [
  { code: 'KIA0202', severity: 'error', path: 'spec/host' },
]);
const WRONG = kialiCase('destinationrules/no_dest/Wrong', 'destinationrules.NoDestinationChecker', [
  { code: 'KIA0202', severity: 'warning', path: 'spec/host' },
]);
const LATER = kialiCase('destinationrules/later/Later', 'destinationrules.NotWrittenYetChecker', []);

function corpus(cases: KialiCase[]): { root: string; baseline: string } {
  const dir = scratchDir('kiali-conformance-');
  const root = join(dir, 'corpus');
  mkdirSync(join(root, 'kiali'), { recursive: true });
  writeFileSync(join(root, 'kiali', 'cases.json'), JSON.stringify({ cases }));
  const conf = join(dir, 'conformance');
  mkdirSync(conf, { recursive: true });
  writeFileSync(join(conf, 'known-failures.txt'), '');
  return { root, baseline: join(conf, 'baseline.txt') };
}

describe('kiali conformance suite', () => {
  it('compares a case as the corpus README says (severity and path included)', () => {
    expect(runKialiCase(PASSING)).toMatchObject({ id: 'kiali/destinationrules/no_dest/Unknown', passed: true });
    const wrong = runKialiCase(WRONG);
    expect(wrong.passed).toBe(false);
    expect(wrong.missing).toEqual(['DestinationRule shop/dr: KIA0202 warning spec/host']);
    expect(wrong.extra).toEqual(['DestinationRule shop/dr: KIA0202 error spec/host']);
    expect(runKialiCase(LATER)).toMatchObject({ passed: false, notImplemented: true });
  });

  it('lists not-implemented cases without failing a strict run; baselines only passing cases', () => {
    const { root, baseline } = corpus([PASSING, LATER]);
    const written = writeBaseline({ root, baseline, suites: ['kiali'] });
    expect(written.exitCode).toBe(0);
    expect(readFileSync(baseline, 'utf8')).toContain('kiali/destinationrules/no_dest/Unknown\n');
    expect(readFileSync(baseline, 'utf8')).not.toContain('Later');
    // The manifest lists it as pending: a case, neither baselined nor a known failure.
    const manifest = readFileSync(join(baseline, '..', 'manifest', 'kiali.txt'), 'utf8');
    expect(manifest).toContain('\npending kiali/destinationrules/later/Later\n');
    expect(manifest).toContain('\ncase kiali/destinationrules/no_dest/Unknown\n');
    const r = runConformance({ root, baseline, suites: ['kiali'], strict: true });
    expect(r.exitCode).toBe(0);
    expect(r.lines).toContain('NOT IMPLEMENTED kiali/destinationrules/later/Later (destinationrules.NotWrittenYetChecker)');
    expect(r.lines).toContain('kiali: 1 passed, 0 failed');
    expect(r.lines).toContain('kiali: 1 not implemented (listed above as NOT IMPLEMENTED; not failures)');
  });

  it('an implemented case that fails is a new failure in a strict run', () => {
    const { root, baseline } = corpus([PASSING, WRONG]);
    writeFileSync(baseline, 'kiali/destinationrules/no_dest/Unknown\n');
    const r = runConformance({ root, baseline, suites: ['kiali'], strict: true });
    expect(r.exitCode).toBe(1);
    expect(r.lines).toContain('NEW FAILURE (in neither the baseline nor the known failures): kiali/destinationrules/no_dest/Wrong');
  });
});
