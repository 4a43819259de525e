// Browser-side figures: the gzip size of what index.html loads eagerly, and the time from
// navigation to the first diagnostics of the default sample in real Chromium.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

function ensureBuilt(): void {
  if (existsSync(join(dist, 'index.html'))) return;
  const r = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

/** Scripts, module preloads and stylesheets referenced by dist/index.html, plus the analysis worker. */
export async function measureBundle(): Promise<{ gzipBytes: number; rawBytes: number; files: string[] }> {
  ensureBuilt();
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)) {
    const ref = m[1] as string;
    if (/\.(js|css)$/.test(ref)) refs.add(ref.replace(/^\.?\//, ''));
  }
  // The analysis worker is needed before the first diagnostics, so it counts too.
  for (const f of readdirSync(join(dist, 'assets'))) if (/^analysis\.worker-.*\.js$/.test(f)) refs.add(`assets/${f}`);
  let gzipBytes = gzipSync(html).length;
  let rawBytes = html.length;
  for (const ref of refs) {
    const buf = readFileSync(join(dist, ref));
    rawBytes += buf.length;
    gzipBytes += gzipSync(buf, { level: 9 }).length;
  }
  return { gzipBytes, rawBytes, files: ['index.html', ...refs] };
}

function chromiumPath(): string | undefined {
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Median of 3 cold navigations (fresh context each) until the Problems panel lists a row. */
export async function measureFirstDiagnostics(): Promise<number | undefined> {
  ensureBuilt();
  const { chromium } = await import('@playwright/test');
  const port = 4175;
  const server = spawn(process.execPath, [join(root, 'scripts/serve.js')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const exe = chromiumPath();
    const browser = await chromium.launch({
      ...(exe ? { executablePath: exe } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    }).catch(() => undefined);
    if (!browser) return undefined;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.locator('[data-testid="problem-row"]').first().waitFor({ timeout: 60000 });
      times.push(Date.now() - t0);
      await context.close();
    }
    await browser.close();
    times.sort((a, b) => a - b);
    return times[1];
  } finally {
    server.kill();
  }
}

// Typing into a large file (long tasks, key events, last key -> Problems): see typing.ts.
export { measureTyping, formatTyping, type TypingResult } from './typing.ts';
