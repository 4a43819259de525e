// The CLI as it was before the mesh model (src/core/config), pod derivation and schema
// validation: issue #6 asks that the bench show no slowdown beyond noise against it. Its
// sources come from git, are bundled the way scripts/build-cli.mjs bundles ours and run with
// the same V8 code cache loader, so both CLIs start alike and only the analysis differs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The last commit before the mesh model. */
export const BEFORE_MESH_MODEL = 'b042d72';

/**
 * Builds that commit's CLI in `dir` and returns the arguments that run it under `node`
 * (followed by the CLI's own), or why it cannot be built here (no git, or a clone without
 * that commit).
 */
export async function buildBeforeMeshModelCli(root: string, dir: string): Promise<{ args: string[] } | { skipped: string }> {
  try {
    execFileSync('git', ['-C', root, 'cat-file', '-e', `${BEFORE_MESH_MODEL}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { skipped: `commit ${BEFORE_MESH_MODEL} is not in this checkout (a shallow clone, or no git)` };
  }
  const src = join(dir, 'before-mesh-model');
  mkdirSync(src, { recursive: true });
  try {
    const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', BEFORE_MESH_MODEL, 'src'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', src], { input: archive, stdio: ['pipe', 'ignore', 'pipe'] });
  } catch (e) {
    return { skipped: `its sources could not be taken from git (${e instanceof Error ? e.message.split('\n')[0] : String(e)})` };
  }
  const { build } = await import('esbuild');
  const bundle = join(src, 'mesh-workbench.cjs');
  await build({
    entryPoints: [join(src, 'src/cli/main.ts')],
    outfile: bundle,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    // Its dependencies are ours (the same packages it was written against).
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'error',
  });
  return { args: [writeBundleRunner(root, join(src, 'run.mjs'), bundle)] };
}

/**
 * Writes a script that runs the CLI bundle at `bundle` through our loader (bin/load-compiled.js,
 * so with a V8 code cache next to the bundle) with the script's own arguments; returns its path.
 */
export function writeBundleRunner(root: string, runner: string, bundle: string): string {
  const loader = pathToFileURL(join(root, 'bin/load-compiled.js')).href;
  writeFileSync(
    runner,
    `import { loadCompiledCli } from ${JSON.stringify(loader)};\nconst { main } = loadCompiledCli(${JSON.stringify(bundle)});\nawait main(process.argv.slice(2));\n`,
  );
  return runner;
}
