import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, compareMessages, isCi, loadMeshConfig, parseArgs, runCasesFile, runConformance, writeBaseline } from '../../scripts/conformance.ts';
import { describeWithSharedCorpus, SHARED_ANALYZERS } from './sharedCorpus.ts';
import { scratchDir } from '../helpers/scratch.ts';

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

  it('with a baseline, fails on listed cases and on failures that are not known, and names the newly passing ones', () => {
    const dir = scratchDir('mwb-conf-');
    const ok = join(dir, 'ok.txt');
    writeFileSync(ok, '# passing cases\nanalyzers/routes-ok-and-missing\n');
    // The known failures are read next to the baseline.
    writeFileSync(
      join(dir, 'known-failures.txt'),
      'analyzers/wrong-expectation | expects the wrong code on purpose\nanalyzers/unknown-analyzer | no such analyzer\n',
    );
    const r1 = runConformance({ cases: CASES, baseline: ok });
    expect(r1.exitCode).toBe(0);
    expect(r1.newlyPassing).toEqual(['analyzers/gateway-missing']);
    expect(r1.lines.join('\n')).toContain('newly passing (add to baseline): analyzers/gateway-missing');
    expect(r1.lines.join('\n')).toContain(
      'FAIL analyzers/wrong-expectation (virtualservice.GatewayAnalyzer) [known failure: expects the wrong code on purpose]',
    );
    writeFileSync(join(dir, 'known-failures.txt'), 'analyzers/unknown-analyzer | no such analyzer\n');
    const r0 = runConformance({ cases: CASES, baseline: ok });
    expect(r0.exitCode).toBe(1);
    expect(r0.lines).toContain('NEW FAILURE (in neither the baseline nor the known failures): analyzers/wrong-expectation');
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'analyzers/wrong-expectation\n');
    const r2 = runConformance({ cases: CASES, baseline: bad });
    expect(r2.exitCode).toBe(1);
    expect(r2.lines.join('\n')).toContain('REGRESSION (in baseline, now failing): analyzers/wrong-expectation');
  });

  it('a known failure needs a reason', () => {
    const dir = scratchDir('mwb-conf-');
    writeFileSync(join(dir, 'baseline.txt'), 'analyzers/routes-ok-and-missing\nanalyzers/gateway-missing\n');
    writeFileSync(join(dir, 'known-failures.txt'), 'analyzers/wrong-expectation\nanalyzers/unknown-analyzer | no such analyzer\n');
    const r = runConformance({ cases: CASES, baseline: join(dir, 'baseline.txt') });
    expect(r.exitCode).toBe(1);
    expect(r.lines.join('\n')).toMatch(/ERROR: .*known-failures\.txt:1: known failure analyzers\/wrong-expectation has no reason/);
  });

  it('parses its arguments and merges a mesh config file over the defaults', () => {
    expect(parseArgs(['--root', 'r', '--cases=c.json', '--baseline', 'b.txt'])).toEqual({ root: 'r', cases: 'c.json', baseline: 'b.txt' });
    expect(parseArgs(['--write-baseline', '--suite', 'xds', '--suite=certs,ambient', '--known-failures', 'k.txt', '--manifests', 'm'])).toEqual({
      writeBaseline: true,
      suites: ['xds', 'certs', 'ambient'],
      knownFailures: 'k.txt',
      manifests: 'm',
    });
    expect(() => parseArgs(['--nope'])).toThrow(/unknown argument/);
    const mc = loadMeshConfig('data/mesh.yaml', resolve(__dirname, '../fixtures/conformance'));
    expect(mc.ingressService).toBe('custom-ingress');
    expect(mc.rootNamespace).toBe('istio-system');
  });

  it('compares with multiplicity', () => {
    const d = (code: string, origin: string) => ({ code, origin, level: 'Error' as const, message: '', source: 'analyzer' as const });
    expect(
      compareMessages(
        [
          { code: 'A', origin: 'x' },
          { code: 'A', origin: 'x' },
        ],
        [d('A', 'x')],
      ),
    ).toEqual({ missing: ['A x'], extra: [] });
    expect(compareMessages([], [d('A', 'x')])).toEqual({ missing: [], extra: ['A x'] });
  });
});

/**
 * A corpus made from our fixture: analyzers/cases.json (with its data) and an empty multi-cluster
 * table, with its manifest, baseline (the two passing cases) and known failures (the other two)
 * written next to each other as in conformance/.
 */
function fixtureCorpus(): { root: string; baseline: string; suites: string[] } {
  const root = scratchDir('mwb-corpus-');
  const analyzers = join(root, 'analyzers');
  mkdirSync(analyzers);
  cpSync(CASES, join(analyzers, 'cases.json'));
  cpSync(resolve(__dirname, '../fixtures/conformance/data'), join(analyzers, 'data'), { recursive: true });
  writeFileSync(join(analyzers, 'multicluster-cases.json'), '[]\n');
  const conf = scratchDir('mwb-corpus-conf-');
  writeFileSync(
    join(conf, 'known-failures.txt'),
    'analyzers/wrong-expectation | expects the wrong code on purpose\nanalyzers/unknown-analyzer | no such analyzer\n',
  );
  const baseline = join(conf, 'baseline.txt');
  const suites = ['analyzers'];
  expect(writeBaseline({ root, baseline, suites }).exitCode).toBe(0);
  return { root, baseline, suites };
}

describe('conformance runner: nothing passes by not running', () => {
  const nowhere = join(tmpdir(), 'definitely-not-here-mwb');

  it('without a baseline and outside CI, an absent corpus is reported and the run succeeds', () => {
    const r = runConformance({ root: nowhere });
    expect(r.exitCode).toBe(0);
    expect(r.lines[0]).toMatch(/absent/);
  });

  it('with a baseline (or strict, as under CI), an absent corpus fails with a clear message', () => {
    for (const options of [
      { root: nowhere, baseline: fixtureCorpus().baseline },
      { root: nowhere, strict: true },
    ]) {
      const r = runConformance(options);
      expect(r.exitCode).toBe(1);
      expect(r.lines.join('\n')).toContain(`ERROR: conformance corpus is absent (${nowhere})`);
    }
  });

  it('a complete corpus passes its baseline; without cases.json the file and every case of it are named as missing and the run fails', () => {
    const { root, baseline, suites } = fixtureCorpus();
    expect(readFileSync(baseline, 'utf8')).toContain('analyzers/routes-ok-and-missing\n');
    const complete = runConformance({ root, baseline, suites });
    expect(complete.exitCode).toBe(0);
    expect(complete.lines).toContain('baseline: 2 listed, 0 regressed, 0 not run, 0 newly passing');
    expect(complete.lines).toContain('known failures: 2 listed, 2 failing as known, 0 now passing');

    rmSync(join(root, 'analyzers', 'cases.json'));
    const r = runConformance({ root, baseline, suites });
    expect(r.exitCode).toBe(1);
    const out = r.lines.join('\n');
    expect(out).toContain(`MISSING corpus file: analyzers/cases.json (${join(root, 'analyzers', 'cases.json')})`);
    expect(out).toContain('MISSING case (in the manifest and the baseline, not in the corpus): analyzers/routes-ok-and-missing');
    expect(out).toContain('MISSING case (in the manifest and the baseline, not in the corpus): analyzers/gateway-missing');
    expect(out).toContain('MISSING case (in the manifest and the known failures, not in the corpus): analyzers/wrong-expectation');
    expect(out).toContain(`ERROR: cases file is absent: ${join(root, 'analyzers', 'cases.json')}`);
    expect(r.lines.at(-2)).toBe('FAILED: 1 corpus file(s) missing, 1 cases file(s) absent, 4 manifest case(s) not in the corpus');
  });

  it('a baseline case that no longer exists fails a strict run even when the cases file is there', () => {
    const { root, baseline, suites } = fixtureCorpus();
    writeFileSync(baseline, 'analyzers/routes-ok-and-missing\nanalyzers/gateway-missing\nanalyzers/renamed-case\n');
    const r = runConformance({ root, baseline, suites });
    expect(r.exitCode).toBe(1);
    expect(r.lines).toContain('NOT RUN (in baseline, no such case ran): analyzers/renamed-case');
  });

  it('two cases under one id fail a strict run', () => {
    const { root, baseline, suites } = fixtureCorpus();
    const file = join(root, 'analyzers', 'cases.json');
    const cases = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    writeFileSync(file, JSON.stringify([...cases, cases[0]]));
    const r = runConformance({ root, baseline, suites });
    expect(r.exitCode).toBe(1);
    expect(r.lines).toContain('ERROR: 2 cases share the id analyzers/routes-ok-and-missing (ids must be unique)');
  });

  it('a strict run needs the manifest of a suite its baseline lists', () => {
    const { root, baseline, suites } = fixtureCorpus();
    rmSync(join(resolve(baseline, '..'), 'manifest', 'analyzers.txt'));
    const r = runConformance({ root, baseline, suites });
    expect(r.exitCode).toBe(1);
    expect(r.lines.join('\n')).toMatch(
      /^MISSING manifest: .*analyzers\.txt \(the baseline or known failures list 4 analyzers case\(s\); write it with --write-baseline\)$/m,
    );
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
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/conformance.ts', '--root', nowhere], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: { ...process.env, CI: ci },
        timeout: 60000,
      });
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

  it('keeps every case listed in conformance/baseline.txt passing, runs every one of them and every case of the manifests', () => {
    const report = runConformance({ baseline: resolve(__dirname, '../../conformance/baseline.txt') });
    expect(report.lines.filter((l) => /^(REGRESSION|NOT RUN|ERROR|MISSING|NEW FAILURE|FAILED)/.test(l))).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
});
