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

// The app is a static single page; `npm start` serves dist/ on this fixed port.
export default defineConfig({
  plugins: [react(), readmePage()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    chunkSizeWarningLimit: 4096,
  },
  server: { port: 5173, strictPort: false },
});
