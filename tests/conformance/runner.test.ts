import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, compareMessages, isCi, loadMeshConfig, parseArgs, runCasesFile, runConformance } from '../../scripts/conformance.ts';
import { describeWithSharedCorpus, SHARED_ANALYZERS } from './sharedCorpus.ts';

/** A temporary directory, removed after the tests of this file. */
const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

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
    const dir = scratchDir('mwb-conf-');
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

/** A corpus made from our fixture: analyzers/cases.json (with its data) and an empty multi-cluster table. */
function fixtureCorpus(): { root: string; baseline: string } {
  const root = scratchDir('mwb-corpus-');
  const analyzers = join(root, 'analyzers');
  mkdirSync(analyzers);
  cpSync(CASES, join(analyzers, 'cases.json'));
  cpSync(resolve(__dirname, '../fixtures/conformance/data'), join(analyzers, 'data'), { recursive: true });
  writeFileSync(join(analyzers, 'multicluster-cases.json'), '[]\n');
  const baseline = join(root, 'baseline.txt');
  writeFileSync(baseline, 'analyzers/routes-ok-and-missing\nanalyzers/gateway-missing\n');
  return { root, baseline };
}

describe('conformance runner: nothing passes by not running', () => {
  const nowhere = join(tmpdir(), 'definitely-not-here-mwb');

  it('without a baseline and outside CI, an absent corpus is reported and the run succeeds', () => {
    const r = runConformance({ root: nowhere });
    expect(r.exitCode).toBe(0);
    expect(r.lines[0]).toMatch(/absent/);
  });

  it('with a baseline (or strict, as under CI), an absent corpus fails with a clear message', () => {
    for (const options of [{ root: nowhere, baseline: fixtureCorpus().baseline }, { root: nowhere, strict: true }]) {
      const r = runConformance(options);
      expect(r.exitCode).toBe(1);
      expect(r.lines.join('\n')).toContain(`ERROR: conformance corpus is absent (${nowhere})`);
    }
  });

  it('a complete corpus passes its baseline; without cases.json every baseline case is named as not run and the run fails', () => {
    const { root, baseline } = fixtureCorpus();
    const complete = runConformance({ root, baseline });
    expect(complete.exitCode).toBe(0);
    expect(complete.lines).toContain('baseline: 2 listed, 0 regressed, 0 not run, 0 newly passing');

    rmSync(join(root, 'analyzers', 'cases.json'));
    const r = runConformance({ root, baseline });
    expect(r.exitCode).toBe(1);
    const out = r.lines.join('\n');
    expect(out).toContain('NOT RUN (in baseline, no such case ran): analyzers/routes-ok-and-missing');
    expect(out).toContain('NOT RUN (in baseline, no such case ran): analyzers/gateway-missing');
    expect(out).toContain(`ERROR: cases file is absent: ${join(root, 'analyzers', 'cases.json')}`);
    expect(r.lines.at(-2)).toBe('FAILED: 1 cases file(s) absent, 2 baseline case(s) not run');
  });

  it('a baseline case that no longer exists fails a strict run even when the cases file is there', () => {
    const { root, baseline } = fixtureCorpus();
    writeFileSync(baseline, 'analyzers/routes-ok-and-missing\nanalyzers/renamed-case\n');
    const r = runConformance({ root, baseline });
    expect(r.exitCode).toBe(1);
    expect(r.lines).toContain('NOT RUN (in baseline, no such case ran): analyzers/renamed-case');
  });

  it('a missing --cases file is an error, not an empty run', () => {
    const r = runConformance({ cases: join(nowhere, 'cases.json') });
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/^ERROR: cases file not found/);
  });

  it('reads CI as set unless it is empty, 0 or false', () => {
    expect([undefined, '', '0', 'false', 'FALSE'].map((v) => isCi({ CI: v }))).toEqual([false, false, false, false, false]);
    expect(['1', 'true', 'yes'].map((v) => isCi({ CI: v }))).toEqual([true, true, true]);
  });

  it('the command line is strict under CI: an absent corpus exits 1 there, 0 otherwise', () => {
    const runScript = (ci: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/conformance.ts', '--root', nowhere], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, CI: ci }, timeout: 60000 });
    const underCi = runScript('1');
    expect(underCi.stdout).toContain('ERROR: conformance corpus is absent');
    expect(underCi.status).toBe(1);
    expect(runScript('').status).toBe(0);
  });
});

const SHARED_CASES = join(SHARED_ANALYZERS, 'cases.json');

describeWithSharedCorpus('shared analyzer corpus (../shared/conformance)', [SHARED_CASES, join(SHARED_ANALYZERS, 'multicluster-cases.json')], () => {
  const mine = ['virtualservice.DestinationHostAnalyzer', 'virtualservice.GatewayAnalyzer', 'gateway.IngressGatewayPortAnalyzer'];

  it('passes every case of the implemented VirtualService and gateway-port analyzers', () => {
    const results = runCasesFile(SHARED_CASES).filter((r) => mine.includes(r.analyzer));
    expect(results.length).toBeGreaterThanOrEqual(12);
    expect(results.filter((r) => !r.passed).map((r) => ({ id: r.id, missing: r.missing, extra: r.extra, error: r.error }))).toEqual([]);
  });

  it('keeps every case listed in conformance/baseline.txt passing, and runs every one of them', () => {
    const report = runConformance({ baseline: resolve(__dirname, '../../conformance/baseline.txt') });
    expect(report.lines.filter((l) => l.startsWith('REGRESSION') || l.startsWith('NOT RUN') || l.startsWith('ERROR'))).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
});
