#!/usr/bin/env node
// Tiny static server for dist/ (no dependencies). Usage: node scripts/serve.js  (PORT=4173)
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)), 'dist');
const port = Number(process.env.PORT) || 4173;
const host = '127.0.0.1';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function fileFor(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const full = normalize(join(root, p));
  if (full !== root && !full.startsWith(root + sep)) return null;
  try {
    const st = statSync(full);
    if (st.isDirectory()) {
      const index = join(full, 'index.html');
      return statSync(index).isFile() ? { path: index, size: statSync(index).size } : null;
    }
    return st.isFile() ? { path: full, size: st.size } : null;
  } catch {
    return null;
  }
}

const server = createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const f = fileFor(req.url ?? '/');
  if (!f) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  const type = TYPES[extname(f.path).toLowerCase()] ?? 'application/octet-stream';
  const immutable = f.path.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': f.size,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(f.path)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.on('error', (e) => {
  console.error(`Could not start the server on ${host}:${port}: ${e.message}`);
  process.exit(1);
});

server.listen(port, host, () => {
  try {
    statSync(join(root, 'index.html'));
  } catch {
    console.warn('dist/index.html is missing: run `npx vite build` first.');
  }
  console.log(`Mesh Workbench is running at http://${host}:${port}/`);
});

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
