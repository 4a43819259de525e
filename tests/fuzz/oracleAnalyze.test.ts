import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYZE_ORACLE,
  AnalyzeServer,
  blankMapOrder,
  compareRuns,
  materialise,
  removeDir,
  runOurs,
  stripTimestamps,
} from '../../scripts/oracle/analyzeServer.ts';
import { differenceCause, toOracleRun, type OracleAnalyzeCase } from '../../fuzz/targets/oracleAnalyze.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';

const run = (stdout: string, stderr = '', exit = 0) => ({ stdout, stderr, exit });

describe('the analyze oracle comparison', () => {
  it('sets aside log time stamps only', () => {
    const a = run('2026-12-06T11:33:51.559644Z\twarn\tfile\terror processing a.yaml[0]: x - skipping\n[]\n');
    const b = run('2026-12-06T11:33:51.560000Z\twarn\tfile\terror processing a.yaml[0]: x - skipping\n[]\n');
    expect(stripTimestamps(a.stdout)).toBe(stripTimestamps(b.stdout));
    expect(compareRuns(a, b)).toEqual({ same: true, ignored: 'log time stamps' });
    expect(compareRuns(a, a)).toEqual({ same: true });
    expect(compareRuns(a, { ...b, exit: 79 }).same).toBe(false);
    expect(compareRuns(a, run(b.stdout.replace('x -', 'y -'))).same).toBe(false);
  });

  it('sets aside the text of IST0109/IST0175/IST0177 (Go map order), in log and JSON output, and nothing else', () => {
    const log = (conflict: string, code = 'IST0109') => run(`Error [${code}] (VirtualService default/a a.yaml:1) Conflicting with ${conflict}\n`, '', 79);
    expect(compareRuns(log('b'), log('c')).ignored).toMatch(/Go map order/);
    expect(compareRuns(log('b', 'IST0101'), log('c', 'IST0101')).same).toBe(false);
    const json = (m: string) => `[\n\t{\n\t\t"code": "IST0175",\n\t\t"level": "Warning",\n\t\t"message": "${m}",\n\t\t"origin": "x"\n\t}\n]\n`;
    expect(blankMapOrder(json('a, b'))).toBe(blankMapOrder(json('b, a')));
    expect(compareRuns(run(json('a, b')), run(json('b, a'))).same).toBe(true);
  });

  it('names the cause of a difference from the first differing line', () => {
    const decoding = (d: string) => run(`TIME\twarn\tfile\terror processing a.yaml[0]: ${d} - skipping\n`);
    const json = decoding("failed interpreting jsonChunk: couldn't get version/kind; json parse error: invalid character '\"' after object key:value pair");
    const yaml = decoding("failed converting YAML to JSON: yaml: line 3: did not find expected ',' or '}'");
    expect(differenceCause(json, yaml).cause).toBe(
      "decoding error, other kind: istioctl JSON syntax (istioctl reads a document that starts with '{' with encoding/json); ours YAML syntax (go-yaml)",
    );
    expect(differenceCause(run(''), yaml).cause).toBe('decoding error only ours: YAML syntax (go-yaml)');
    expect(differenceCause(run('[]\n'), run('', "Error: Cannot read properties of undefined (reading 'constructor')\n", 1)).cause).toBe(
      'ours threw: Cannot read properties of undefined (reading …)',
    );
    expect(differenceCause(run('x', '', 0), run('x', '', 79)).cause).toBe('exit code: istioctl 0, ours 79');
    expect(differenceCause(run('Error [IST0101] (VirtualService default/a a.yaml:1) Referenced x\n'), run('')).cause).toBe('stdout: IST0101 differs');
  });

  it("turns a pipeline case into files and istioctl's flags", () => {
    const c: OracleAnalyzeCase = {
      pipeline: {
        files: [
          { path: '0-a.yaml', text: 'kind: A\n' },
          { path: '1-dir/d.yaml', text: 'kind: B\n' },
        ],
        settings: { ...defaultAnalysisSettings(), defaultNamespace: 'bookinfo', suppressions: ['IST0101=*'] },
        meshConfigText: 'rootNamespace: {}',
        edit: { path: '1-dir/d.yaml', text: 'kind: C\n' },
        applyFix: false,
      },
      flags: { format: 'json', verbose: true, allNamespaces: false, outputThreshold: 'Error', failureThreshold: null },
    };
    const { ws, args } = toOracleRun(c);
    expect(ws.files).toEqual([
      { name: '0-a.yaml', text: 'kind: A\n' },
      { name: '1-dir/d.yaml', text: 'kind: C\n' },
      { name: 'mesh-config.yaml', text: 'rootNamespace: {}' },
    ]);
    expect(ws.paths).toEqual(['0-a.yaml', '1-dir/d.yaml']);
    expect(args).toEqual(['-n', 'bookinfo', '-S', 'IST0101=*', '--meshConfigFile', 'mesh-config.yaml', '-o', 'json', '-v', '--output-threshold', 'Error']);
    expect(toOracleRun({ ...c, flags: { ...c.flags, allNamespaces: true, format: 'log', verbose: false, outputThreshold: null } }).args).toEqual([
      '-A',
      '-S',
      'IST0101=*',
      '--meshConfigFile',
      'mesh-config.yaml',
    ]);
  });

  it('runs our CLI in process in the workspace directory, with relative names', async () => {
    const ws = {
      files: [
        {
          name: 'dir/a.yaml',
          text: 'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: x\nspec:\n  hosts: [a]\n  gateways: [nope]\n  http:\n  - route:\n    - destination: {host: b}\n',
        },
      ],
    };
    const dir = materialise(ws);
    try {
      const r = await runOurs(dir, ws, []);
      expect(r.exit).toBe(79);
      expect(r.stdout).toContain('Error [IST0101] (VirtualService default/x dir/a.yaml:7) Referenced gateway not found: "nope"');
    } finally {
      removeDir(dir);
    }
  });
});

describe('the oracle-analyze fuzz target without the Go side', () => {
  const saved = process.env.MESH_WORKBENCH_ORACLE_CACHE;
  afterEach(() => {
    if (saved === undefined) delete process.env.MESH_WORKBENCH_ORACLE_CACHE;
    else process.env.MESH_WORKBENCH_ORACLE_CACHE = saved;
    vi.resetModules();
  });

  it('is unavailable (the runner skips it) when the analyze server is not built', async () => {
    process.env.MESH_WORKBENCH_ORACLE_CACHE = mkdtempSync(join(tmpdir(), 'no-oracle-'));
    vi.resetModules();
    const { oracleAnalyzeTarget } = await import('../../fuzz/targets/oracleAnalyze.ts');
    expect(oracleAnalyzeTarget.unavailable?.()).toMatch(/analyze server is not built/);
  });
});

// Only where `npm run oracle -- build` has been run (never in CI).
describe.skipIf(!existsSync(ANALYZE_ORACLE))('the analyze server (analyze-oracle)', () => {
  it('answers as istioctl, and a flag of one run does not leak into the next', async () => {
    const server = new AnalyzeServer();
    try {
      const ws = {
        files: [
          {
            name: 'a.yaml',
            text: 'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: x\nspec:\n  hosts: [a]\n  gateways: [nope]\n  http:\n  - route:\n    - destination: {host: b}\n',
          },
        ],
      };
      const first = await server.run(ws, ['--output-threshold', 'Error', '--failure-threshold', 'Info']);
      expect(first.stdout).not.toContain('Warning [IST0132]');
      const second = await server.run(ws, []);
      expect(second.exit).toBe(79);
      expect(second.stdout).toContain('Warning [IST0132]');
      const json = await server.run(ws, ['-o', 'json']);
      expect(json.exit).toBe(0);
      expect(JSON.parse(json.stdout)).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
