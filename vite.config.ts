import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
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
  plugins: [react(), contentSecurityPolicy()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    chunkSizeWarningLimit: 4096,
  },
  server: { port: 5173, strictPort: false },
});
