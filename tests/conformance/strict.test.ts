// Strict mode (issue #28): for every suite, a copy of (a small part of) its corpus in a temp
// folder gets its own manifest and baseline; then deleting the corpus part, a baselined case
// or a corpus file must fail the strict run with a message naming what is missing, and
// inserting a document must leave the other cases' ids as they were.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_SUITES, CONFORMANCE_DIR, DEFAULT_ROOT, runConformance, writeBaseline, type ConformanceOptions } from '../../scripts/conformance.ts';
import { readKnownFailures, readManifest, suiteOf } from '../../scripts/conformance/manifest.ts';
import { loadValidationCases } from '../../scripts/conformance/validation.ts';
import { CORPUS_DIR, loadCorpus } from '../../scripts/conformance/webhookCorpus.ts';
import { describeWithSharedCorpus } from './sharedCorpus.ts';
import { scratchDir } from '../helpers/scratch.ts';

const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as unknown;
const writeJson = (p: string, v: unknown) => writeFileSync(p, JSON.stringify(v, null, 2));

interface Setup {
  root: string;
  options: ConformanceOptions & { baseline: string };
  strict(): { exitCode: number; out: string; lines: string[] };
}

/**
 * A corpus in a temp folder (`build` copies what it needs from ../shared), with manifests and a
 * baseline written for `suite` from it; the untouched copy must pass strictly.
 */
function setUp(suite: string, build: (root: string) => void, extra: Partial<ConformanceOptions> = {}, knownFailures = ''): Setup {
  const root = scratchDir(`mwb-strict-${suite}-`);
  const conf = scratchDir('mwb-strict-conf-');
  build(root);
  writeFileSync(join(conf, 'known-failures.txt'), knownFailures);
  const options = { root, baseline: join(conf, 'baseline.txt'), suites: [suite], ...extra };
  const written = writeBaseline(options);
  expect(written.lines.join('\n')).not.toContain('NEEDS A REASON');
  expect(written.exitCode).toBe(0);
  const strict = () => {
    const r = runConformance(options);
    return { exitCode: r.exitCode, out: r.lines.join('\n'), lines: r.lines };
  };
  const untouched = strict();
  expect(untouched.lines.filter((l) => /^(MISSING|NOT RUN|NEW FAILURE|REGRESSION|ERROR|FAILED)/.test(l))).toEqual([]);
  expect(untouched.exitCode).toBe(0);
  return { root, options, strict };
}

function copy(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

describeWithSharedCorpus('strict conformance: nothing goes missing silently', [DEFAULT_ROOT], () => {
  const shared = (...p: string[]) => join(DEFAULT_ROOT, ...p);

  describe('analyzers', () => {
    const build = (root: string) => {
      copy(shared('analyzers'), join(root, 'analyzers'));
      const cases = readJson(join(root, 'analyzers', 'cases.json')) as { id: string }[];
      writeJson(join(root, 'analyzers', 'cases.json'), cases.slice(0, 4));
      writeJson(join(root, 'analyzers', 'multicluster-cases.json'), (readJson(join(root, 'analyzers', 'multicluster-cases.json')) as unknown[]).slice(0, 1));
    };
    it('fails naming the missing part, case and file', () => {
      const s = setUp('analyzers', build);
      const cases = readJson(join(s.root, 'analyzers', 'cases.json')) as { id: string; inputFiles?: string[] }[];
      const [gone, kept] = [cases[1]!, cases[0]!];
      writeJson(
        join(s.root, 'analyzers', 'cases.json'),
        cases.filter((c) => c !== gone),
      );
      let r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): analyzers/${gone.id}`);
      writeJson(join(s.root, 'analyzers', 'cases.json'), cases);

      const input = kept.inputFiles![0]!;
      rmSync(join(s.root, 'analyzers', input));
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain(`MISSING corpus file: analyzers/${input}`);

      rmSync(join(s.root, 'analyzers'), { recursive: true });
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toMatch(/^MISSING corpus part: analyzers\/ .*none of its 5 case\(s\) ran \(5 in the baseline\)$/m);
    });
  });

  describe('validation', () => {
    const build = (root: string) => copy(shared('validation'), join(root, 'validation'));
    const crds = (root: string) => join(root, 'validation', 'crds');

    it('fails naming the missing part, document and file', () => {
      const s = setUp('validation', build);
      const before = loadValidationCases(join(s.root, 'validation'));
      // Drop the first document of a file with several: only its id goes missing.
      const file = 'destinationrule-valid.yaml';
      const text = readFileSync(join(crds(s.root), file), 'utf8');
      const docs = text.split(/^---[ \t]*$/m);
      writeFileSync(join(crds(s.root), file), docs.slice(1).join('---'));
      const gone = before
        .filter((c) => c.file === file)
        .map((c) => c.id)
        .filter((id) => !loadValidationCases(join(s.root, 'validation')).some((c) => c.id === id));
      expect(gone).toHaveLength(1);
      let r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): ${gone[0]}`);
      expect(r.lines.filter((l) => l.startsWith('MISSING case'))).toHaveLength(1);
      writeFileSync(join(crds(s.root), file), text);

      rmSync(join(crds(s.root), 'peerauth-invalid.yaml'));
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain('MISSING corpus file: validation/crds/peerauth-invalid.yaml');
      expect(r.out).toMatch(/MISSING case \(in the manifest and the baseline, not in the corpus\): validation\/peerauth-invalid\.yaml#/);

      rmSync(join(s.root, 'validation'), { recursive: true });
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain('MISSING corpus part: validation/');
    });

    it('ids come from the document, not its position: inserting one changes no other id', () => {
      const s = setUp('validation', build);
      const before = loadValidationCases(join(s.root, 'validation')).map((c) => c.id);
      const file = join(crds(s.root), 'destinationrule-valid.yaml');
      const inserted = 'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: inserted-first\nspec:\n  host: inserted\n---\n';
      writeFileSync(file, inserted + readFileSync(file, 'utf8'));
      const after = loadValidationCases(join(s.root, 'validation')).map((c) => c.id);
      expect(after.filter((id) => !before.includes(id))).toEqual([
        expect.stringMatching(/^validation\/destinationrule-valid\.yaml#[0-9a-f]{10} inserted-first$/),
      ]);
      expect(before.filter((id) => !after.includes(id))).toEqual([]);
      // Nothing is missing; the new case is named as not in the manifest yet.
      const r = s.strict();
      expect(r.exitCode).toBe(0);
      expect(r.out).toMatch(/new case \(not in the manifest; --write-baseline adds it\): validation\/destinationrule-valid\.yaml#\w+ inserted-first/);
    });
  });

  describe('xds', () => {
    const build = (root: string) => {
      mkdirSync(join(root, 'xds'));
      for (const f of ['vhost-domains-cases.json', 'simulation-cases.json']) {
        const v = readJson(shared('xds', f)) as { cases?: unknown[] } | unknown[];
        const list = Array.isArray(v) ? v : (v.cases ?? []);
        writeJson(join(root, 'xds', f), Array.isArray(v) ? list.slice(0, 3) : { ...v, cases: list.slice(0, 3) });
      }
      const authz = join('pilot', 'pkg', 'security', 'authz', 'builder', 'testdata', 'http');
      mkdirSync(join(root, 'xds', authz), { recursive: true });
      for (const f of ['allow-path-in.yaml', 'allow-path-out.yaml', 'extended-allow-path-out.yaml', 'allow-full-rule-in.yaml'])
        cpSync(shared('xds', authz, f), join(root, 'xds', authz, f));
    };
    // allow-full-rule's golden is not in ../shared: a known failure, as in conformance/known-failures.txt.
    const known = 'xds/authz/http/allow-full-rule | golden not in ../shared\n';

    it('fails naming the missing part, case and file; a known failure stays known', () => {
      const s = setUp('xds', build, {}, known);
      expect(s.strict().out).toContain('known failures: 1 listed, 1 failing as known, 0 now passing');
      const file = join(s.root, 'xds', 'vhost-domains-cases.json');
      const v = readJson(file) as { cases?: { name: string }[] } | { name: string }[];
      const list = Array.isArray(v) ? v : v.cases!;
      const gone = list[1]!.name;
      writeJson(file, Array.isArray(v) ? list.filter((c) => c.name !== gone) : { ...v, cases: list.filter((c) => c.name !== gone) });
      let r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): xds/vhost-domains/${gone}`);

      rmSync(file);
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain('MISSING corpus file: xds/vhost-domains-cases.json');
      expect(r.lines.filter((l) => l.startsWith('MISSING case') && l.includes('xds/vhost-domains/'))).toHaveLength(3);

      rmSync(join(s.root, 'xds', 'pilot', 'pkg', 'security', 'authz', 'builder', 'testdata', 'http', 'allow-path-out.yaml'));
      r = s.strict();
      expect(r.out).toContain('MISSING corpus file: xds/pilot/pkg/security/authz/builder/testdata/http/allow-path-out.yaml');
      expect(r.out).toContain('REGRESSION (in baseline, now failing): xds/authz/http/allow-path');

      rmSync(join(s.root, 'xds'), { recursive: true });
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toMatch(/^MISSING corpus part: xds\/ .*none of its 8 case\(s\) ran \(7 in the baseline\)$/m);
    });

    it('a failure that is neither baselined nor a known failure fails the run', () => {
      const s = setUp('xds', build, {}, known);
      writeFileSync(join(resolve(s.options.baseline, '..'), 'known-failures.txt'), '');
      const r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.lines).toContain('NEW FAILURE (in neither the baseline nor the known failures): xds/authz/http/allow-full-rule');
    });
  });

  describe('certs', () => {
    const build = (root: string) => {
      copy(shared('certs'), join(root, 'certs'));
      const p = join(root, 'certs', 'expected.json');
      const e = readJson(p) as {
        files: Record<string, unknown>;
        chainChecks: { id: string }[];
        derived: Record<string, unknown>;
        keyMatches: unknown[];
        istioRootBundleParsing: unknown[];
      };
      // Every file entry (their facts relate files to each other), a few of the other checks.
      writeJson(p, {
        ...e,
        chainChecks: e.chainChecks.slice(0, 2),
        derived: Object.fromEntries(Object.entries(e.derived).slice(0, 2)),
        keyMatches: e.keyMatches.slice(0, 1),
        istioRootBundleParsing: e.istioRootBundleParsing.slice(0, 1),
      });
    };

    it('fails naming the missing part, case and file', () => {
      const s = setUp('certs', build);
      const p = join(s.root, 'certs', 'expected.json');
      const text = readFileSync(p, 'utf8');
      const e = JSON.parse(text) as { files: Record<string, unknown>; chainChecks: { id: string }[] };
      const gone = e.chainChecks[0]!.id;
      writeJson(p, { ...e, chainChecks: e.chainChecks.slice(1) });
      let r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): certs/${gone}`);
      writeFileSync(p, text);

      const file = Object.keys(e.files)[0]!;
      rmSync(join(s.root, 'certs', file));
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain(`MISSING corpus file: certs/${file}`);
      expect(r.out).toContain(`REGRESSION (in baseline, now failing): certs/${file}`);

      rmSync(join(s.root, 'certs'), { recursive: true });
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain('MISSING corpus part: certs/');
    }, 60_000);
  });

  describe('ambient', () => {
    const build = (root: string) => {
      copy(shared('ambient'), join(root, 'ambient'));
      const p = join(root, 'ambient', 'scenarios.json');
      writeJson(p, (readJson(p) as unknown[]).slice(0, 7));
    };

    it('fails naming each missing scenario, the missing file and the missing part', () => {
      const s = setUp('ambient', build);
      const p = join(s.root, 'ambient', 'scenarios.json');
      const scenarios = readJson(p) as { name: string }[];
      writeJson(p, scenarios.slice(5));
      let r = s.strict();
      expect(r.exitCode).toBe(1);
      for (const sc of scenarios.slice(0, 5))
        expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): ambient/${sc.name}`);
      expect(r.lines).toContain('FAILED: 5 manifest case(s) not in the corpus');

      rmSync(p);
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toContain('MISSING corpus file: ambient/scenarios.json');

      rmSync(join(s.root, 'ambient'), { recursive: true });
      r = s.strict();
      expect(r.exitCode).toBe(1);
      expect(r.out).toMatch(/^MISSING corpus part: ambient\/ .*none of its 7 case\(s\) ran \(7 in the baseline\)$/m);
    });
  });
});

describe('strict conformance: the webhook corpus (tests/fixtures/validation)', () => {
  const build = (dir: string) => {
    mkdirSync(dir);
    for (const f of ['proxyconfig.yaml', 'sidecar.yaml']) cpSync(join(CORPUS_DIR, f), join(dir, f));
  };

  it('fails naming the missing part, case and file; inserting a case changes no other id', () => {
    const base = scratchDir('mwb-strict-webhook-');
    const dir = join(base, 'validation');
    build(dir);
    const s = setUp('webhook-corpus', () => {}, { webhookDir: dir });
    const before = loadCorpus(dir).map((c) => c.id);
    const file = join(dir, 'proxyconfig.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `case: inserted/first\nkind: ProxyConfig\nvalid: true\nspec: {}\n---\n${text}`);
    const after = loadCorpus(dir).map((c) => c.id);
    expect(before.filter((id) => !after.includes(id))).toEqual([]);
    expect(after.filter((id) => !before.includes(id))).toEqual([expect.stringMatching(/^webhook-corpus\/proxyconfig\.yaml#[0-9a-f]{10} inserted\/first$/)]);

    // Drop the first case of the file (the first chunk holds only comments).
    const docs = text.split(/^---[ \t]*$/m);
    const dropped = [docs[0], ...docs.slice(2)].join('---');
    writeFileSync(file, dropped);
    const gone = before.filter((id) => !loadCorpus(dir).some((c) => c.id === id));
    expect(gone).toHaveLength(1);
    let r = s.strict();
    expect(r.exitCode).toBe(1);
    expect(r.lines).toContain(`MISSING case (in the manifest and the baseline, not in the corpus): ${gone[0]}`);
    writeFileSync(file, text);

    rmSync(join(dir, 'sidecar.yaml'));
    r = s.strict();
    expect(r.exitCode).toBe(1);
    expect(r.out).toContain('MISSING corpus file: webhook-corpus/sidecar.yaml');

    rmSync(dir, { recursive: true });
    r = s.strict();
    expect(r.exitCode).toBe(1);
    expect(r.out).toContain('MISSING corpus part: webhook-corpus/');
  });
});

describe('strict conformance: the checked-in manifests, baseline and known failures', () => {
  const manifests = Object.fromEntries(ALL_SUITES.map((s) => [s, readManifest(join(CONFORMANCE_DIR, 'manifest', `${s}.txt`))]));
  const baseline = readFileSync(join(CONFORMANCE_DIR, 'baseline.txt'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const { known, errors } = readKnownFailures(join(CONFORMANCE_DIR, 'known-failures.txt'));

  it('has a manifest with files and cases for every suite', () => {
    for (const s of ALL_SUITES) {
      expect(manifests[s]!.files.length, s).toBeGreaterThan(0);
      expect(manifests[s]!.cases.length, s).toBeGreaterThan(0);
      expect(
        manifests[s]!.cases.every((id) => suiteOf(id) === s),
        s,
      ).toBe(true);
    }
  });

  it('lists every baselined case and every known failure in a manifest; each known failure has a reason and is not baselined', () => {
    const all = new Set(ALL_SUITES.flatMap((s) => manifests[s]!.cases));
    expect(baseline.filter((id) => !all.has(id))).toEqual([]);
    expect(errors).toEqual([]);
    expect([...known.keys()].filter((id) => !all.has(id))).toEqual([]);
    expect([...known.keys()].filter((id) => baseline.includes(id))).toEqual([]);
    // Every case of a manifest is either passing (baselined), a known failure, or pending (its
    // checker not implemented yet: listed, never baselined).
    const pending = new Set(ALL_SUITES.flatMap((s) => manifests[s]!.pending ?? []));
    expect([...pending].filter((id) => baseline.includes(id) || known.has(id))).toEqual([]);
    expect([...all].filter((id) => !baseline.includes(id) && !known.has(id) && !pending.has(id))).toEqual([]);
  });

  it('the webhook corpus manifest matches tests/fixtures/validation', () => {
    const ids = loadCorpus().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...manifests['webhook-corpus']!.cases].sort());
    const files = readdirSync(CORPUS_DIR)
      .map((f) => `webhook-corpus/${f}`)
      .sort();
    expect(files).toEqual([...manifests['webhook-corpus']!.files].sort());
    expect(existsSync(CORPUS_DIR)).toBe(true);
  });
});
