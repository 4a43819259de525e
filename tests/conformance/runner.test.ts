import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROOT, compareMessages, loadMeshConfig, parseArgs, runCasesFile, runConformance } from '../../scripts/conformance.ts';

const CASES = resolve(__dirname, '../fixtures/conformance/cases.json');

describe('conformance runner (our fixture)', () => {
  it('runs each case in harness mode and compares (code, origin) multisets', () => {
    const results = runCasesFile(CASES);
    expect(results.map((r) => [r.id, r.passed])).toEqual([
      ['analyzers/routes-ok-and-missing', true],
      ['analyzers/gateway-missing', true],
      ['analyzers/wrong-expectation', false],
      ['analyzers/unknown-analyzer', false],
    ]);
    const wrong = results[2]!;
    expect(wrong.missing).toEqual(['IST0101 VirtualService shop/to-nowhere']);
    expect(wrong.extra).toEqual(['IST0132 VirtualService shop/to-nowhere']);
    expect(results[3]!.error).toBe('analyzer not implemented');
  });

  it('prints failures, a table by analyzer and the totals last, and exits 1 on failure', () => {
    const report = runConformance({ cases: CASES });
    const out = report.lines.join('\n');
    expect(out).toContain('FAIL analyzers/wrong-expectation (virtualservice.GatewayAnalyzer)');
    expect(out).toContain('  missing: IST0101 VirtualService shop/to-nowhere');
    expect(out).toContain('FAIL analyzers/unknown-analyzer (imaginary.Analyzer): analyzer not implemented');
    expect(out).toMatch(/virtualservice\.GatewayAnalyzer\s+1\s+1/);
    expect(report.lines.at(-2)).toBe('analyzers: 2 passed, 2 failed');
    expect(report.lines.at(-1)).toBe('2 passed, 2 failed');
    expect(report.exitCode).toBe(1);
  });

  it('with a baseline, fails only on listed cases and names the newly passing ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mwb-conf-'));
    const ok = join(dir, 'ok.txt');
    writeFileSync(ok, '# passing cases\nanalyzers/routes-ok-and-missing\n');
    const r1 = runConformance({ cases: CASES, baseline: ok });
    expect(r1.exitCode).toBe(0);
    expect(r1.newlyPassing).toEqual(['analyzers/gateway-missing']);
    expect(r1.lines.join('\n')).toContain('newly passing (add to baseline): analyzers/gateway-missing');
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'analyzers/wrong-expectation\n');
    const r2 = runConformance({ cases: CASES, baseline: bad });
    expect(r2.exitCode).toBe(1);
    expect(r2.lines.join('\n')).toContain('REGRESSION (in baseline, now failing): analyzers/wrong-expectation');
  });

  it('says the corpus is absent and succeeds when the root does not exist', () => {
    const r = runConformance({ root: join(tmpdir(), 'definitely-not-here-mwb') });
    expect(r.exitCode).toBe(0);
    expect(r.lines[0]).toMatch(/absent/);
  });

  it('parses its arguments and merges a mesh config file over the defaults', () => {
    expect(parseArgs(['--root', 'r', '--cases=c.json', '--baseline', 'b.txt'])).toEqual({ root: 'r', cases: 'c.json', baseline: 'b.txt' });
    expect(() => parseArgs(['--nope'])).toThrow(/unknown argument/);
    const mc = loadMeshConfig('data/mesh.yaml', resolve(__dirname, '../fixtures/conformance'));
    expect(mc.ingressService).toBe('custom-ingress');
    expect(mc.rootNamespace).toBe('istio-system');
  });

  it('compares with multiplicity', () => {
    const d = (code: string, origin: string) => ({ code, origin, level: 'Error' as const, message: '', source: 'analyzer' as const });
    expect(compareMessages([{ code: 'A', origin: 'x' }, { code: 'A', origin: 'x' }], [d('A', 'x')])).toEqual({ missing: ['A x'], extra: [] });
    expect(compareMessages([], [d('A', 'x')])).toEqual({ missing: [], extra: ['A x'] });
  });
});

const SHARED_CASES = join(DEFAULT_ROOT, 'analyzers', 'cases.json');
const haveShared = existsSync(SHARED_CASES);
if (!haveShared) console.warn(`[conformance] ${SHARED_CASES} is absent: the shared-corpus tests are skipped.`);

describe.skipIf(!haveShared)('shared analyzer corpus (../shared/conformance)', () => {
  const mine = ['virtualservice.DestinationHostAnalyzer', 'virtualservice.GatewayAnalyzer', 'gateway.IngressGatewayPortAnalyzer'];
  it('passes every case of the implemented VirtualService and gateway-port analyzers', () => {
    const results = runCasesFile(SHARED_CASES).filter((r) => mine.includes(r.analyzer));
    expect(results.length).toBeGreaterThanOrEqual(12);
    expect(results.filter((r) => !r.passed).map((r) => ({ id: r.id, missing: r.missing, extra: r.extra, error: r.error }))).toEqual([]);
  });

  it('keeps every case listed in conformance/baseline.txt passing', () => {
    const report = runConformance({ baseline: resolve(__dirname, '../../conformance/baseline.txt') });
    expect(report.lines.filter((l) => l.startsWith('REGRESSION'))).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
});
