// scripts/check-envoy.ts: the strict Envoy proto check from the command line.
import { describe, expect, it } from 'vitest';
import { runCheckEnvoy } from '../../scripts/check-envoy.ts';
import { cluster, T } from '../xds/envoyFixtures.ts';

function run(argv: string[], files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCheckEnvoy(argv, {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    readFile: (p) => {
      if (!(p in files)) throw new Error(`ENOENT: ${p}`);
      return files[p]!;
    },
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('check-envoy', () => {
  const bad = cluster();
  bad.lbPolicy = 'NOPE';
  const dump = { configs: [{ '@type': `${T}envoy.admin.v3.ClustersConfigDump`, dynamicActiveClusters: [{ cluster: cluster() }] }] };

  it('passes a valid dump and a valid resource (JSON or YAML)', () => {
    const { '@type': _t, ...bare } = cluster();
    const r = run(['dump.json', 'c.yaml', '--type', 'envoy.config.cluster.v3.Cluster'], { 'dump.json': JSON.stringify(dump), 'c.yaml': JSON.stringify(bare) });
    // --type applies to every file: the dump is not a Cluster.
    expect(r.code).toBe(1);
    const ok = run(['dump.json', 'c.json'], { 'dump.json': JSON.stringify(dump), 'c.json': JSON.stringify(cluster()) });
    expect(ok).toEqual({ code: 0, out: '', err: 'check-envoy: 2 files, 0 errors, 0 warnings\n' });
  });

  it('lists every problem with its file and path, and exits 1', () => {
    const r = run(['bad.json'], { 'bad.json': JSON.stringify([cluster(), bad]) });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^bad\.json: error \$\[1\]\.lbPolicy: "NOPE" is not a value of envoy\.config\.cluster\.v3\.Cluster\.LbPolicy .*\[bad-enum\] \(Cluster outbound\|9080\|v1\|reviews\.default\.svc\.cluster\.local\)\n$/,
    );
    expect(r.err).toBe('check-envoy: 1 file, 1 error, 0 warnings\n');
  });

  it('usage errors', () => {
    expect(run([], {}).code).toBe(2);
    expect(run(['--bogus', 'x'], {}).code).toBe(2);
    expect(run(['missing.json'], {})).toMatchObject({ code: 1, err: expect.stringContaining('missing.json: ENOENT') });
  });
});
