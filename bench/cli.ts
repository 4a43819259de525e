// Whole-process CLI timings, side by side with what they are compared to: `node -e 0` (a
// bare Node start) for `analyze -L` and one small file, and a Node process that only reads
// the same mesh and loads it with js-yaml for `analyze -o json` on the generated meshes (and,
// where git has it, the CLI as it was before the mesh model on the same meshes), and istioctl
// itself (`istioctl analyze --use-kube=false`) when `npm run oracle -- build` has built it.
// Commands run interleaved, round after round, so a busy machine slows all of them alike.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../scripts/build-cli.mjs';
import { generateMesh } from './generateMesh.ts';
import { buildBeforeMeshModelCli } from './beforeMeshModel.ts';
import { ISTIOCTL } from '../scripts/oracle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/mesh-workbench.js');
export const SMALL_FILE = 'public/samples/bookinfo-mistakes/networking.yaml';

export interface CliFigures {
  bareNode: number;
  list: number;
  small: number;
  /** `before`: the same run by the CLI before the mesh model (see beforeMeshModel.ts), when it could be built. */
  meshes: Array<{
    services: number;
    withPods: boolean;
    bytes: number;
    jsyaml: number;
    cli: number;
    messages: number;
    before?: { ms: number; messages: number };
    istioctl?: { ms: number; messages: number };
  }>;
  /** Why istioctl was not timed (not built). */
  istioctlSkipped?: string;
  /** Why the CLI before the mesh model was not timed. */
  beforeSkipped?: string;
  phases: Array<{
    services: number;
    withPods: boolean;
    readMs: number;
    parseMs: number;
    analyzeMs: number;
    formatMs: number;
    writeMs: number;
    outputBytes: number;
  }>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Wall time of one process (Node unless `exe` is given), which must exit with one of `okStatus`. */
function timeProcess(args: string[], okStatus: number[], exe: string = process.execPath): number {
  const t0 = performance.now();
  const r = spawnSync(exe, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status === null || !okStatus.includes(r.status)) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr?.toString().slice(0, 500)}`);
  return ms;
}

/** A generated mesh to time: `withPods` writes each Deployment's Pods out, as a dump of a live cluster holds them. */
export interface MeshSpec {
  services: number;
  withPods?: boolean;
}

/** `comparisons: false` leaves out the CLI before the mesh model and istioctl (the budgets need neither). */
export async function measureCli(specs: MeshSpec[], rounds: number, { comparisons = true }: { comparisons?: boolean } = {}): Promise<CliFigures> {
  // The bin runs the bundle only when it is current; build it so that is what we time.
  await buildCli();
  const dir = mkdtempSync(join(tmpdir(), 'mwb-bench-cli-'));
  try {
    const loader = join(dir, 'jsyaml-load.mjs');
    const jsyamlUrl = import.meta.resolve('js-yaml');
    writeFileSync(
      loader,
      `import { readFileSync } from 'node:fs';\nimport jsyaml from ${JSON.stringify(jsyamlUrl)};\njsyaml.loadAll(readFileSync(process.argv[2], 'utf8'));\n`,
    );
    const before = comparisons ? await buildBeforeMeshModelCli(ROOT, dir) : { skipped: 'not asked for (--budgets)' };
    const beforeArgs = 'args' in before ? before.args : undefined;
    const messagesOf = (args: string[], exe: string = process.execPath) => {
      const out = spawnSync(exe, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      // istioctl prints log lines before its JSON on stdout; the JSON starts at the first `[`.
      const text = out.stdout.slice(Math.max(0, out.stdout.indexOf('[')));
      return (JSON.parse(text) as unknown[]).length;
    };
    const istioctl = comparisons && existsSync(ISTIOCTL) ? ISTIOCTL : undefined;
    const istioctlArgs = (file: string) => ['analyze', '--use-kube=false', '-o', 'json', file];
    const meshes = specs.map(({ services, withPods = false }) => {
      const mesh = generateMesh(services, { withPods });
      const key = `${services}${withPods ? '-pods' : ''}`;
      const file = join(dir, `mesh-${key}.yaml`);
      writeFileSync(file, mesh.text);
      // The before-the-mesh-model CLI's first run also writes its code cache.
      const beforeMessages = beforeArgs ? messagesOf([...beforeArgs, 'analyze', '-o', 'json', file]) : undefined;
      const istioctlMessages = istioctl ? messagesOf(istioctlArgs(file), istioctl) : undefined;
      return {
        services,
        withPods,
        key,
        file,
        bytes: Buffer.byteLength(mesh.text),
        messages: messagesOf([BIN, 'analyze', '-o', 'json', file]),
        beforeMessages,
        istioctlMessages,
      };
    });

    const commands: Array<{ key: string; args: string[]; ok: number[]; exe?: string }> = [
      { key: 'bare', args: ['-e', '0'], ok: [0] },
      { key: 'list', args: [BIN, 'analyze', '-L'], ok: [0] },
      { key: 'small', args: [BIN, 'analyze', SMALL_FILE], ok: [0, 79] },
      ...meshes.flatMap((m) => [
        { key: `jsyaml-${m.key}`, args: [loader, m.file], ok: [0] },
        { key: `cli-${m.key}`, args: [BIN, 'analyze', '-o', 'json', m.file], ok: [0, 79] },
        ...(beforeArgs ? [{ key: `before-${m.key}`, args: [...beforeArgs, 'analyze', '-o', 'json', m.file], ok: [0, 79] }] : []),
        // istioctl exits 79 when a message is at or above its failure threshold (ExitCodeAnalyzerErrors).
        ...(istioctl ? [{ key: `istioctl-${m.key}`, args: istioctlArgs(m.file), ok: [0, 79], exe: istioctl }] : []),
      ]),
    ];
    const samples = new Map<string, number[]>(commands.map((c) => [c.key, []]));
    for (const c of commands) timeProcess(c.args, c.ok, c.exe); // warm the file cache
    for (let round = 0; round < rounds; round++) for (const c of commands) samples.get(c.key)!.push(timeProcess(c.args, c.ok, c.exe));
    const m = (key: string) => median(samples.get(key)!);

    type Phases = Omit<CliFigures['phases'][number], 'services' | 'withPods'>;
    const phases = meshes.map((mesh) => {
      const runs: Phases[] = [];
      for (let i = 0; i < 3; i++) {
        const out = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/cliPhases.ts'), mesh.file], {
          cwd: ROOT,
          encoding: 'utf8',
          maxBuffer: 16 * 1024 * 1024,
        });
        if (out.status !== 0) throw new Error(`cliPhases failed: ${out.stderr}`);
        runs.push(JSON.parse(out.stdout.trim().split('\n').pop() as string) as Phases);
      }
      const phase = (k: keyof Phases) => median(runs.map((r) => r[k]));
      return {
        services: mesh.services,
        withPods: mesh.withPods,
        readMs: phase('readMs'),
        parseMs: phase('parseMs'),
        analyzeMs: phase('analyzeMs'),
        formatMs: phase('formatMs'),
        writeMs: phase('writeMs'),
        outputBytes: phase('outputBytes'),
      };
    });
    return {
      bareNode: m('bare'),
      list: m('list'),
      small: m('small'),
      meshes: meshes.map((mesh) => ({
        services: mesh.services,
        withPods: mesh.withPods,
        bytes: mesh.bytes,
        jsyaml: m(`jsyaml-${mesh.key}`),
        cli: m(`cli-${mesh.key}`),
        messages: mesh.messages,
        ...(mesh.beforeMessages !== undefined ? { before: { ms: m(`before-${mesh.key}`), messages: mesh.beforeMessages } } : {}),
        ...(mesh.istioctlMessages !== undefined ? { istioctl: { ms: m(`istioctl-${mesh.key}`), messages: mesh.istioctlMessages } } : {}),
      })),
      ...('skipped' in before ? { beforeSkipped: before.skipped } : {}),
      ...(istioctl ? {} : { istioctlSkipped: comparisons ? `no ${ISTIOCTL}; npm run oracle -- build makes it` : 'not asked for (--budgets)' }),
      phases,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
