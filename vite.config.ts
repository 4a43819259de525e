import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app is a static single page; `npm start` serves dist/ on this fixed port.
export default defineConfig({
  plugins: [react()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    chunkSizeWarningLimit: 4096,
  },
  server: { port: 5173, strictPort: false },
});
