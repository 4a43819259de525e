import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeToHtml } from './scripts/readmePage.ts';

/** dist/readme.html: the README as a page the app links to (the privacy note). */
function readmePage() {
  return {
    name: 'mesh-workbench-readme',
    generateBundle(this: { emitFile(f: { type: 'asset'; fileName: string; source: string }): void }) {
      this.emitFile({ type: 'asset', fileName: 'readme.html', source: readmeToHtml(readFileSync(new URL('./README.md', import.meta.url), 'utf8')) });
    },
  };
}

import type { Plugin } from 'vite';

/**
 * The Content-Security-Policy of the built page (a meta tag; the dev server's hot reload
 * needs inline scripts, so only the build gets it). Scripts and workers only from our own
 * files, requests only to our own origin, no plugins, no <base>. Styles allow inline:
 * Monaco writes its theme into <style> elements.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'mesh-workbench-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
    },
  };
}

/**
 * Modules the worker's analysis gets a stand-in for, which the host loads the real one of on
 * demand (src/worker/host.ts): the CEL library (celLib.lazy.ts, before a run with a rule only
 * CEL can judge) and certificate parsing (credential.lazy.ts, before a run with a Secret),
 * see src/worker/libGates.ts; the quick fixes (after the first diagnostics), istioctl
 * mode's reader (before a run in that mode) and the Kiali pack (after the first diagnostics). The worker's first chunk then holds only what
 * diagnostics need. `importers` limits a swap to the modules under a folder, or one module
 * (the queries keep the real ones).
 */
const projectFile = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const STAND_INS = [
  { real: projectFile('./src/core/validation/schema/celLib.ts'), standIn: projectFile('./src/worker/celLib.lazy.ts'), importers: projectFile('./src/core/') },
  {
    real: projectFile('./src/core/pki/credential.ts'),
    standIn: projectFile('./src/worker/credential.lazy.ts'),
    importers: projectFile('./src/core/analysis/'),
  },
  {
    real: projectFile('./src/core/analysis/fixes/index.ts'),
    standIn: projectFile('./src/worker/fixes.lazy.ts'),
    importers: projectFile('./src/core/workspace.ts'),
  },
  {
    real: projectFile('./src/core/analysis/istioctlMode.ts'),
    standIn: projectFile('./src/worker/istioctl.lazy.ts'),
    importers: projectFile('./src/core/workspace.ts'),
  },
  {
    real: projectFile('./src/core/analysis/packs/kiali/diagnostics.ts'),
    standIn: projectFile('./src/worker/kiali.lazy.ts'),
    importers: projectFile('./src/core/workspace.ts'),
  },
  {
    real: projectFile('./src/core/xds/envoyFilterReach.ts'),
    standIn: projectFile('./src/worker/envoyFilterReach.lazy.ts'),
    importers: projectFile('./src/core/xds/envoyfilter/patchReachAnalyzer.ts'),
  },
];

function lazyModules(): Plugin {
  return {
    name: 'mesh-workbench-lazy-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const from = importer.split('?')[0] as string;
      const target = resolve(dirname(from), source);
      const swap = STAND_INS.find((s) => s.real === target && from.startsWith(s.importers) && from !== s.standIn);
      return swap ? swap.standIn : null;
    },
  };
}

// The app is a static single page; `npm start` serves dist/ on this fixed port.
export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), readmePage()],
  base: './',
  // Only the worker's build: the page loads no CEL, and its certificate code (generation,
  // the Share dialog) uses the libraries directly. The dev server keeps the real modules.
  worker: { format: 'es', plugins: () => [lazyModules()] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    chunkSizeWarningLimit: 4096,
  },
  server: { port: 5173, strictPort: false },
});
