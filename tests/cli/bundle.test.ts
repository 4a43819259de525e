// The compiled CLI (scripts/build-cli.mjs) must behave exactly as the TypeScript sources,
// and bin/mesh-workbench.js must pick it only when it is current.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../scripts/build-cli.mjs';
import { b64, makeCredential } from '../analysis/analyzers/gateways/certs.ts';
import { FIXTURES, REPO } from './helpers.ts';
import { scratchDir } from '../helpers/scratch.ts';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string, entry: string, env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [entry, ...args], { cwd, encoding: 'utf8', timeout: 60000, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A Gateway with one valid and one expired credential, so the bundle must really parse certificates. */
async function credentialWorkspace(): Promise<string> {
  const dir = scratchDir('mwb-cred-');
  const valid = await makeCredential({ cn: 'good.example.com' });
  const expired = await makeCredential({ cn: 'old.example.com', notBefore: new Date('2020-01-01'), notAfter: new Date('2020-02-01') });
  const secret = (name: string, c: { certPem: string; keyPem: string }) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: istio-system\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${b64(c.certPem)}\n  tls.key: ${b64(c.keyPem)}\n`;
  const gateway = (name: string, credential: string) =>
    `apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: ${name}\n  namespace: istio-system\nspec:\n  selector:\n    istio: ingressgateway\n  servers:\n  - port:\n      number: 443\n      name: https\n      protocol: HTTPS\n    hosts:\n    - "${name}.example.com"\n    tls:\n      mode: SIMPLE\n      credentialName: ${credential}\n`;
  const gatewayPod =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ingress-1\n  namespace: istio-system\n  labels:\n    istio: ingressgateway\nspec:\n  containers:\n  - name: istio-proxy\n    image: proxyv2\n';
  writeFileSync(
    join(dir, 'gateways.yaml'),
    [gatewayPod, secret('good-cert', valid), secret('old-cert', expired), gateway('good', 'good-cert'), gateway('old', 'old-cert')].join('---\n'),
  );
  return dir;
}

describe('dist-cli bundle', () => {
  let runner = '';
  let credentials = '';
  let bundlePath = '';

  beforeAll(async () => {
    const outdir = scratchDir('mwb-bundle-');
    const { bundle, sources } = await buildCli(outdir);
    expect(sources).toContain('src/cli/main.ts');
    bundlePath = bundle;
    // Loaded the way the bin loads it: through bin/load-compiled.js, with the code cache.
    runner = join(outdir, 'run.mjs');
    const loader = `file://${join(REPO, 'bin/load-compiled.js')}`;
    writeFileSync(runner, `import { loadCompiledCli } from ${JSON.stringify(loader)};\nawait loadCompiledCli(${JSON.stringify(bundle)}).main();\n`);
    credentials = await credentialWorkspace();
  }, 120000);

  const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest();

  const fromSources = (args: string[], cwd: string) => run(args, cwd, join(REPO, 'bin/mesh-workbench.js'), { MESH_WORKBENCH_FROM_SOURCE: '1' });

  it('prints the same as the sources for help, version, listing and analysis (byte for byte, same exit code)', () => {
    const cases: Array<[string[], string]> = [
      [['--version'], FIXTURES],
      [['analyze', '--help'], FIXTURES],
      [['analyze', '-L'], FIXTURES],
      [['analyze', '-o', 'json', 'missing-host.yaml'], FIXTURES],
      [['analyze', 'broken.yaml', 'gateway.yaml'], FIXTURES],
      [['analyze', '--nope'], FIXTURES],
    ];
    for (const [args, cwd] of cases) expect(run(args, cwd, runner), args.join(' ')).toEqual(fromSources(args, cwd));
    expect(run(['--version'], FIXTURES, runner).stdout).toMatch(/^mesh-workbench \d+\.\d+\.\d+\n$/);
    // Twelve processes, half of them compiling the sources: slow when the machine is busy.
  }, 120000);

  it('parses certificates (its @peculiar/x509 loads on first use): only the expired credential is reported', () => {
    const bundled = run(['analyze', '-o', 'json', '.'], credentials, runner);
    expect(bundled).toEqual(fromSources(['analyze', '-o', 'json', '.'], credentials));
    const messages = (JSON.parse(bundled.stdout) as Array<{ code: string; origin: string }>).filter((m) => m.code === 'IST0161');
    expect(messages.map((m) => m.origin)).toEqual(['Gateway istio-system/old']);
  });

  it('runs the xDS generator for EnvoyFilters (it loads on the first one) as the sources do', () => {
    const dir = scratchDir('mwb-envoyfilter-');
    // A BOOTSTRAP patch, which istiod no longer applies: envoyfilter.PatchReachAnalyzer reports it.
    writeFileSync(
      join(dir, 'ef.yaml'),
      'apiVersion: networking.istio.io/v1alpha3\nkind: EnvoyFilter\nmetadata:\n  name: boot\n  namespace: default\nspec:\n  configPatches:\n  - applyTo: BOOTSTRAP\n    patch:\n      operation: MERGE\n      value:\n        stats_flush_interval: 10s\n',
    );
    const bundled = run(['analyze', '-o', 'json', '.'], dir, runner);
    expect(bundled).toEqual(fromSources(['analyze', '-o', 'json', '.'], dir));
    const codes = (JSON.parse(bundled.stdout) as Array<{ code: string }>).map((m) => m.code);
    expect(codes).toContain('MWB-ENVOYFILTER-NO-PROXY');
  });

  it('evaluates CRD rules that need CEL (its library loads on first use) as the sources do', () => {
    const dir = scratchDir('mwb-cel-');
    // Duplicate port numbers and a CIDR address with DNS resolution: rules no native check covers.
    writeFileSync(
      join(dir, 'se.yaml'),
      'apiVersion: networking.istio.io/v1\nkind: ServiceEntry\nmetadata:\n  name: cidr\n  namespace: default\nspec:\n  hosts: [a.example.com]\n  addresses: ["10.0.0.0/24"]\n  ports:\n  - {number: 80, name: http, protocol: HTTP}\n  - {number: 80, name: http2, protocol: HTTP}\n  resolution: DNS\n',
    );
    const bundled = run(['analyze', '-o', 'json', '.'], dir, runner);
    expect(bundled).toEqual(fromSources(['analyze', '-o', 'json', '.'], dir));
    const messages = (JSON.parse(bundled.stdout) as Array<{ message: string }>).map((m) => m.message);
    expect(messages).toContain(
      'The API server would reject this object (kubectl apply fails): spec.ports: Invalid value: "array": port number cannot be duplicated',
    );
    expect(messages).toContain(
      'The API server would reject this object (kubectl apply fails): spec: Invalid value: "object": CIDR addresses are allowed only for NONE/STATIC resolution types',
    );
  });

  it("comes with a code cache made from this very bundle (its first 20 bytes are the bundle's SHA-1)", () => {
    const cache = readFileSync(`${bundlePath}.cache`);
    expect(cache.subarray(0, 20).equals(sha1(readFileSync(bundlePath)))).toBe(true);
    // The training run compiled the analysis, not only the top level: far more than a header.
    expect(cache.length).toBeGreaterThan(100_000);
  });

  it('ignores a cache made from another bundle, runs right, and writes a fitting one', () => {
    const cachePath = `${bundlePath}.cache`;
    const good = readFileSync(cachePath);
    try {
      // Same length, other header: V8 itself would only compare the source length.
      const stale = Buffer.from(good);
      stale.fill(7, 0, 20);
      writeFileSync(cachePath, stale);
      expect(run(['analyze', '-o', 'json', 'missing-host.yaml'], FIXTURES, runner)).toEqual(
        fromSources(['analyze', '-o', 'json', 'missing-host.yaml'], FIXTURES),
      );
      const rewritten = readFileSync(cachePath);
      expect(rewritten.subarray(0, 20).equals(sha1(readFileSync(bundlePath)))).toBe(true);
      // No cache at all: the run works and leaves one behind.
      rmSync(cachePath);
      expect(run(['analyze', '-L'], FIXTURES, runner).status).toBe(0);
      expect(existsSync(cachePath)).toBe(true);
    } finally {
      writeFileSync(cachePath, good);
    }
  });
});

describe('bin/mesh-workbench.js picks the bundle only when it is current', () => {
  // A copy of the bin in a package whose "bundle" and "sources" say which one ran.
  function fakePackage(): { root: string; source: string; bundle: string; inputs: string } {
    const root = scratchDir('mwb-bin-');
    for (const d of ['bin', 'dist-cli', 'src/cli']) mkdirSync(join(root, d), { recursive: true });
    copyFileSync(join(REPO, 'bin/mesh-workbench.js'), join(root, 'bin/mesh-workbench.js'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
    const source = join(root, 'src/cli/main.ts');
    writeFileSync(source, "export async function main(): Promise<void> { process.stdout.write('sources'); }\n");
    copyFileSync(join(REPO, 'bin/load-compiled.js'), join(root, 'bin/load-compiled.js'));
    const bundle = join(root, 'dist-cli/mesh-workbench.cjs');
    writeFileSync(bundle, "exports.main = async function main() { process.stdout.write('bundle'); };\n");
    const inputs = join(root, 'dist-cli/inputs.json');
    writeFileSync(inputs, JSON.stringify(['src/cli/main.ts']));
    const past = new Date(Date.now() - 60_000);
    utimesSync(source, past, past);
    return { root, source, bundle, inputs };
  }
  const which = (root: string, env: Record<string, string> = {}) => run([], root, join(root, 'bin/mesh-workbench.js'), env).stdout;

  it('runs the bundle when it is newer than every source it lists', () => {
    const p = fakePackage();
    expect(which(p.root)).toBe('bundle');
    expect(which(p.root, { MESH_WORKBENCH_FROM_SOURCE: '1' })).toBe('sources');
  });

  it('runs the sources when one of them changed after the build', () => {
    const p = fakePackage();
    const future = new Date(Date.now() + 60_000);
    utimesSync(p.source, future, future);
    expect(which(p.root)).toBe('sources');
  });

  it('runs the sources when the bundle, its input list or a listed source is missing', () => {
    const noBundle = fakePackage();
    rmSync(noBundle.bundle);
    expect(which(noBundle.root)).toBe('sources');
    const noList = fakePackage();
    rmSync(noList.inputs);
    expect(which(noList.root)).toBe('sources');
    const goneSource = fakePackage();
    writeFileSync(goneSource.inputs, JSON.stringify(['src/cli/main.ts', 'src/cli/deleted.ts']));
    expect(which(goneSource.root)).toBe('sources');
  });
});
