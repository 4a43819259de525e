import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, FOUND_ISSUES } from './helpers.ts';
import { scratchDir } from '../helpers/scratch.ts';

const VS_ERROR = 'Error [IST0101] (VirtualService shop/ratings missing-host.yaml:24) Referenced host not found: "ratings-v9"\n';

describe('mesh-workbench analyze: exit codes and stderr', () => {
  it('exits 0 on a clean file with the check-mark message', async () => {
    const r = await cli(['analyze', 'clean.yaml']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '\n', '\u2714 No validation issues found when analyzing clean.yaml.\n']);
  });

  it('says once which analyzers it skipped for lack of input, and what to add', async () => {
    const r = await cli(['analyze', 'clean.yaml']);
    // clean.yaml has a Service but no Pods, Namespaces or Secrets (no analyzer needs Nodes).
    expect(r.notice).toMatch(
      /^Notice: Skipped \d+ analyzers that need Namespaces, Pods or Secrets, of which the files hold none \(istioctl analyze skips them too\): /,
    );
    expect(r.notice).toContain('gateway.IngressGatewayPortAnalyzer');
    expect(r.notice).not.toContain('virtualservice.DestinationHostAnalyzer');
    expect(r.notice).toContain('kubectl get namespaces,pods,secrets -A -o yaml');
    expect(r.notice!.split('\n')).toHaveLength(2);
    // With Pods and Services present, the analyzers that need only those run.
    const w = await cli(['analyze', 'clean.yaml', 'workloads.yaml']);
    expect(w.notice).not.toContain('gateway.IngressGatewayPortAnalyzer');
    expect(w.notice).toContain('injection.Analyzer');
    // Without Services, the host checks are skipped, as istioctl skips them: no false alarm.
    const vsOnly = await cli(['analyze', '-'], {
      stdin:
        'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: v, namespace: shop}\nspec:\n  hosts: [a]\n  http: [{route: [{destination: {host: b}}]}]\n',
    });
    expect(vsOnly.code).toBe(0);
    expect(vsOnly.notice).toContain('virtualservice.DestinationHostAnalyzer');
  });

  it('lists several clean files', async () => {
    const r = await cli(['analyze', 'clean.yaml', 'gateway.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('\u2714 No validation issues found when analyzing:\n  - clean.yaml\n  - gateway.yaml\n');
  });

  it('exits 79 with the log line on an Error', async () => {
    const r = await cli(['analyze', 'missing-host.yaml']);
    expect(r.code).toBe(79);
    expect(r.stdout).toBe(VS_ERROR);
    expect(r.stderr).toBe(FOUND_ISSUES);
  });

  it('exits 79 with -o json too (istioctl would exit 0)', async () => {
    const r = await cli(['analyze', '-o', 'json', 'missing-host.yaml']);
    expect(r.code).toBe(79);
    const parsed = JSON.parse(r.stdout);
    expect(parsed).toEqual([
      {
        code: 'IST0101',
        documentationUrl: 'https://istio.io/latest/docs/reference/config/analysis/ist0101/?ref=istioctl-analyze',
        level: 'Error',
        message: 'Referenced host not found: "ratings-v9"',
        origin: 'VirtualService shop/ratings',
        reference: 'missing-host.yaml:24',
      },
    ]);
    expect(r.stdout.startsWith('[\n\t{\n\t\t"code": "IST0101",\n')).toBe(true);
  });

  it('exits 79 with -o yaml and -o sarif', async () => {
    const y = await cli(['analyze', '-o', 'YAML', 'missing-host.yaml']);
    expect(y.code).toBe(79);
    expect(y.stdout).toContain('  message: \'Referenced host not found: "ratings-v9"\'\n');
    expect(y.stdout.endsWith('missing-host.yaml:24\n\n')).toBe(true);
    const s = await cli(['analyze', '--output=sarif', 'missing-host.yaml']);
    expect(s.code).toBe(79);
    const log = JSON.parse(s.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('missing-host.yaml');
    expect(log.runs[0].results[0].locations[0].physicalLocation.region.startLine).toBe(24);
  });

  it('prints only the path as reference for JSON input', async () => {
    const r = await cli(['analyze', '-o', 'json', 'missing-host.json']);
    expect(r.code).toBe(79);
    expect(JSON.parse(r.stdout)[0].reference).toBe('missing-host.json');
    const log = await cli(['analyze', 'missing-host.json']);
    expect(log.stdout).toBe('Error [IST0101] (VirtualService shop/ratings-json missing-host.json) Referenced host not found: "ratings-json-v9"\n');
  });

  it('exits 65 when a file cannot be parsed, reporting file:line:col on stderr', async () => {
    const r = await cli(['analyze', 'broken.yaml']);
    expect(r.code).toBe(65);
    expect(r.stdout).toBe('\n');
    expect(r.stderr).toMatch(/^Error\(s\) adding files:\n {2}broken\.yaml:\d+:\d+: error: YAML syntax error: .* \(MWB-YAML-SYNTAX\)\n/);
    expect(r.stderr).toContain('No validation issues found when analyzing namespace: default (but 1 file could not be parsed).\n');
    expect(r.stderr.endsWith("Error: Some files couldn't be parsed.\n")).toBe(true);
  });

  it('counts unparsable files, not documents, and says "files" for more than one', async () => {
    const dir = scratchDir('mwb-unparsable-');
    const broken = readFileSync(join(FIXTURES, 'broken.yaml'), 'utf8');
    writeFileSync(join(dir, 'one.yaml'), broken);
    writeFileSync(join(dir, 'two.yaml'), broken);
    // Two broken documents in one file are still one file.
    writeFileSync(join(dir, 'double.yaml'), `${broken}---\n${broken}`);
    const summary = (r: { stderr: string }) => r.stderr.match(/\(but .* parsed\)/)?.[0];
    expect(summary(await cli(['analyze', 'double.yaml'], { cwd: dir }))).toBe('(but 1 file could not be parsed)');
    expect(summary(await cli(['analyze', 'one.yaml', 'two.yaml'], { cwd: dir }))).toBe('(but 2 files could not be parsed)');
    expect(summary(await cli(['analyze', 'one.yaml', 'two.yaml', 'double.yaml'], { cwd: dir }))).toBe('(but 3 files could not be parsed)');
  });

  it('parser problems stay out of json output but are SARIF results', async () => {
    const j = await cli(['analyze', '-o', 'json', 'broken.yaml']);
    expect(j.stdout).toBe('[]\n');
    const s = await cli(['analyze', '-o', 'sarif', 'broken.yaml']);
    expect(JSON.parse(s.stdout).runs[0].results[0].ruleId).toBe('MWB-YAML-SYNTAX');
  });

  it('--ignore-unknown turns the parse failure into exit 0', async () => {
    const r = await cli(['analyze', '--ignore-unknown', 'broken.yaml', 'clean.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Error(s) adding files:');
  });

  it('79 wins over 65', async () => {
    const r = await cli(['analyze', 'broken.yaml', 'missing-host.yaml']);
    expect(r.code).toBe(79);
  });

  it('exits 64 on a bad flag, a bad value or an unknown command', async () => {
    for (const args of [
      ['analyze', '--bogus', 'clean.yaml'],
      ['analyze', '-x'],
      ['analyze', '-o', 'xml', 'clean.yaml'],
      ['analyze', '--failure-threshold', 'Fatal', 'clean.yaml'],
      ['analyze', '--output-threshold'],
      ['analyze', '-S', 'IST0101', 'clean.yaml'],
      ['analyze', '--use-kube', 'clean.yaml'],
      ['analyze', '--use-kube=true', 'clean.yaml'],
      ['analyze', '--color=maybe', 'clean.yaml'],
      ['validate', 'clean.yaml'],
      [],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    const bad = await cli(['analyze', '-o', 'xml', 'clean.yaml']);
    expect(bad.stderr).toContain('Error: xml not a valid option for format. See mesh-workbench analyze --help\n');
    const unknown = await cli(['upgrade']);
    expect(unknown.stderr).toContain('unknown command "upgrade"');
  });

  it('reads --timeout as pflag does (time.ParseDuration) and prints its error', async () => {
    for (const ok of ['30s', '1m30s', '-1s', '+2m', '1.s', '0', '5\u03bcs']) expect((await cli(['analyze', `--timeout=${ok}`, 'clean.yaml'])).code, ok).toBe(0);
    const errors: Array<[string, string]> = [
      ['5', 'time: missing unit in duration "5"'],
      ['5d', 'time: unknown unit "d" in duration "5d"'],
      ['5\u00e9', 'time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"'],
      ['abc', 'time: invalid duration "abc"'],
      ['.s', 'time: invalid duration ".s"'],
      ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ];
    for (const [value, error] of errors) {
      const r = await cli(['analyze', `--timeout=${value}`, 'clean.yaml']);
      expect(r.code, value).toBe(64);
      expect(r.stderr, value).toContain(`invalid argument "${value}" for "--timeout" flag: ${error}`);
    }
  });

  it('accepts --use-kube=false and -k=false', async () => {
    expect((await cli(['analyze', '--use-kube=false', 'clean.yaml'])).code).toBe(0);
    expect((await cli(['analyze', '-k=false', 'clean.yaml'])).code).toBe(0);
  });

  it('exits 1 when an input path cannot be read', async () => {
    const r = await cli(['analyze', 'does-not-exist.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: stat does-not-exist.yaml: no such file or directory\n');
    const m = await cli(['analyze', '--meshConfigFile', 'nope.yaml', 'clean.yaml']);
    expect(m.code).toBe(1);
  });
});

describe('mesh-workbench analyze: thresholds and suppression', () => {
  it('warnings do not fail by default, but do with --failure-threshold Warning', async () => {
    const r = await cli(['analyze', 'warning-only.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Warning \[IST0132\] \(VirtualService shop\/web warning-only\.yaml:\d+\) /);
    expect(r.stderr).toBe('');
    const f = await cli(['analyze', '--failure-threshold', 'warning', 'warning-only.yaml']);
    expect(f.code).toBe(79);
  });

  it('--output-threshold hides messages but not the exit code', async () => {
    const r = await cli(['analyze', '--output-threshold', 'Error', '--failure-threshold=Warning', 'warning-only.yaml']);
    expect(r.stdout).toBe('\n');
    expect(r.stderr).toContain('\u2714 No validation issues found when analyzing warning-only.yaml.\n');
    expect(r.code).toBe(79);
  });

  it('-S suppresses by code and glob over the origin', async () => {
    const r = await cli(['analyze', '-S', 'IST0101=VirtualService shop/*', 'missing-host.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('\n');
    const other = await cli(['analyze', '-S', 'IST0101=VirtualService other/*', 'missing-host.yaml']);
    expect(other.code).toBe(79);
  });

  it('accepts the legacy name.namespace form with a warning', async () => {
    const r = await cli(['analyze', '--suppress=IST0101=VirtualService ratings.shop', 'missing-host.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Warning: .*legacy/);
  });

  it('warns about unknown codes like istioctl', async () => {
    const r = await cli(['analyze', '-S', 'IST9999=Pod *', 'clean.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr.startsWith("Warning: Supplied message code 'IST9999' is an unknown message code and will not have any effect.\n")).toBe(true);
  });

  it('--analyzer limits the analyzers run', async () => {
    const r = await cli(['analyze', '--analyzer', 'gateway.IngressGatewayPortAnalyzer', 'missing-host.yaml']);
    expect(r.code).toBe(0);
    const all = await cli(['analyze', '--analyzer', 'no.SuchAnalyzer', 'missing-host.yaml']);
    expect(all.code).toBe(79);
    expect(all.stderr).toContain('unknown analyzer "no.SuchAnalyzer"');
  });
});

describe('mesh-workbench analyze: namespaces and placeholders', () => {
  it('puts namespace-less objects in default without filtering messages', async () => {
    const r = await cli(['analyze', 'no-namespace.yaml', 'missing-host.yaml']);
    expect(r.code).toBe(79);
    expect(r.stdout).toContain('(VirtualService default/orphan no-namespace.yaml:22)');
    expect(r.stdout).toContain('(VirtualService shop/ratings missing-host.yaml:24)');
  });

  it('-n sets the namespace and filters messages', async () => {
    const r = await cli(['analyze', '-n', 'shop', 'no-namespace.yaml', 'missing-host.yaml']);
    expect(r.stdout).toContain('VirtualService shop/orphan');
    const other = await cli(['analyze', '-n', 'other', 'missing-host.yaml']);
    expect(other.code).toBe(0);
    expect(other.stdout).toBe('\n');
  });

  it('-A keeps empty namespaces and names all namespaces', async () => {
    const r = await cli(['analyze', '-A', 'no-namespace.yaml']);
    expect(r.code).toBe(79);
    expect(r.stdout).toBe('Error [IST0101] (VirtualService orphan no-namespace.yaml:22) Referenced host not found: "nowhere"\n');
    expect(r.stderr).toContain('Error: Analyzers found issues when analyzing all namespaces.\n');
  });

  it('takes a pod CIDR with --pod-cidr, refusing one that is not an IPv4 CIDR of /24 or wider', async () => {
    const ok = await cli(['analyze', '--pod-cidr', '10.0.0.0/8', 'gateway.yaml', 'workloads.yaml']);
    expect(ok.code).toBe(0);
    const bad = await cli(['analyze', '--pod-cidr', '10.244.1.0/14', 'gateway.yaml']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('invalid argument for "--pod-cidr" flag: "10.244.1.0/14" has host bits set (the network is 10.244.0.0/14)');
    const notCidr = await cli(['analyze', '--pod-cidr', '10.244.0.0', 'gateway.yaml']);
    expect(notCidr.code).toBe(64);
    expect(notCidr.stderr).toContain('"10.244.0.0" is not an IPv4 CIDR');
    const istioctl = await cli(['analyze', '--istioctl', '--pod-cidr', '10.0.0.0/8', 'gateway.yaml']);
    expect(istioctl.code).toBe(64);
    expect(istioctl.stderr).toContain('--pod-cidr cannot be combined with --istioctl');
  });

  it('assumes the placeholder ingress gateway unless told not to', async () => {
    expect((await cli(['analyze', 'gateway.yaml', 'workloads.yaml'])).code).toBe(0);
    const none = await cli(['analyze', '--no-placeholders', 'gateway.yaml', 'workloads.yaml']);
    expect(none.code).toBe(79);
    expect(none.stdout).toContain('Referenced selector not found: "istio=ingressgateway"');
    const off = await cli(['analyze', '--meshConfigFile', 'mesh-ingress-off.yaml', 'gateway.yaml', 'workloads.yaml']);
    expect(off.code).toBe(79);
    // The placeholder alone does not count as the Pods a gateway check needs.
    const alone = await cli(['analyze', '--no-placeholders', 'gateway.yaml']);
    expect(alone.code).toBe(0);
    expect(alone.notice).toContain('gateway.IngressGatewayPortAnalyzer');
  });
});

describe('mesh-workbench analyze: inputs', () => {
  it('reads stdin as file "-"', async () => {
    const text = readFileSync(`${FIXTURES}missing-host.yaml`, 'utf8');
    const r = await cli(['analyze', '-'], { stdin: text });
    expect(r.code).toBe(79);
    expect(r.stdout).toBe('Error [IST0101] (VirtualService shop/ratings -:24) Referenced host not found: "ratings-v9"\n');
  });

  it('walks directories recursively and skips unknown extensions', async () => {
    const r = await cli(['analyze', 'tree']);
    expect(r.code).toBe(79);
    expect(r.stderr).toContain('Skipping file tree/notes.txt, recognized file extensions are: [.json .yaml .yml]\n');
    expect(r.stdout).toBe('Error [IST0101] (VirtualService shop/ratings tree/nested/b.yml:12) Referenced host not found: "ratings-v9"\n');
    const dot = await cli(['analyze', './tree/']);
    expect(dot.stdout).toContain('tree/nested/b.yml:12');
  });

  it('skips a named file with another extension', async () => {
    const r = await cli(['analyze', 'tree/notes.txt']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'Skipping file tree/notes.txt, recognized file extensions are: [.json .yaml .yml]\n' +
        '\u2714 No validation issues found when analyzing namespace: default.\n',
    );
  });

  it('flags may come before the command and in grouped or attached forms', async () => {
    const r = await cli(['-ojson', 'analyze', '-A', 'no-namespace.yaml']);
    expect(r.code).toBe(79);
    expect(JSON.parse(r.stdout)[0].origin).toBe('VirtualService orphan');
    const g = await cli(['analyze', '-Av', 'no-namespace.yaml']);
    expect(g.stderr).toContain('Analyzed resources in all namespaces\n');
  });
});

describe('mesh-workbench analyze: listing, help, color', () => {
  it('-L lists analyzers in name order, istioctl style', async () => {
    const r = await cli(['analyze', '-L']);
    expect(r.code).toBe(0);
    const names = [...r.stdout.matchAll(/^\* (.+):$/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort());
    expect(r.stdout).toMatch(/^\* [^\n]+:\n( {4}[^\n]+\n)?/);
    expect(names).toContain('virtualservice.DestinationHostAnalyzer');
  });

  it('--help documents exit codes; --version prints the version', async () => {
    const h = await cli(['analyze', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('79');
    expect(h.stdout).toContain('every output');
    const v = await cli(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^mesh-workbench \d+\.\d+\.\d+/);
  });

  it('colors the level word on a TTY unless TERM is dumb or --color=false', async () => {
    const tty = await cli(['analyze', 'missing-host.yaml'], { isTTY: true, env: { TERM: 'xterm' } });
    expect(tty.stdout.startsWith('\u001b[1;31mError\u001b[0m [IST0101]')).toBe(true);
    const dumb = await cli(['analyze', 'missing-host.yaml'], { isTTY: true, env: { TERM: 'dumb' } });
    expect(dumb.stdout).toBe(VS_ERROR);
    const off = await cli(['analyze', '--color=false', 'missing-host.yaml'], { isTTY: true, env: {} });
    expect(off.stdout).toBe(VS_ERROR);
    const forced = await cli(['analyze', '--color', 'warning-only.yaml']);
    expect(forced.stdout.startsWith('\u001b[33mWarning\u001b[0m')).toBe(true);
  });
});
