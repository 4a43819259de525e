import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
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

// The app is a static single page; `npm start` serves dist/ on this fixed port.
export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), readmePage()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    chunkSizeWarningLimit: 4096,
  },
  server: { port: 5173, strictPort: false },
});
