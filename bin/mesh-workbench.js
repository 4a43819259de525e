#!/usr/bin/env node
// Entry point of `npx mesh-workbench`. Runs the compiled bundle in dist-cli/ (built by
// `npm install` and before the tests) when it is at least as new as every source it was
// built from; otherwise (a fresh edit, no bundle, or MESH_WORKBENCH_FROM_SOURCE=1) it loads
// the TypeScript sources through tsx, which is slower to start but always current.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const bundle = new URL('dist-cli/mesh-workbench.cjs', root);

function bundleIsCurrent() {
  if (process.env.MESH_WORKBENCH_FROM_SOURCE === '1') return false;
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const sources = JSON.parse(readFileSync(new URL('dist-cli/inputs.json', root), 'utf8'));
    return sources.every((source) => statSync(new URL(source, root)).mtimeMs <= builtAt);
  } catch {
    // No bundle, no list, or a source that no longer exists.
    return false;
  }
}

let main;
if (bundleIsCurrent()) {
  // With V8's code cache next to it (see load-compiled.js).
  const { loadCompiledCli } = await import('./load-compiled.js');
  ({ main } = loadCompiledCli(fileURLToPath(bundle)));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main();
