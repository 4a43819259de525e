// Typing into a large file in real Chromium: the generated mesh is uploaded into the app,
// 40 characters are typed at 50 ms intervals into a VirtualService host, and the page
// records its long tasks (PerformanceObserver 'longtask'), the slowest key events (Event
// Timing) and the time from the last key to the Problems row that names the edited host.
// Also the longest task while the file loads. Run on its own:
//   node --import tsx bench/typing.ts [services=2000] [runs=3]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMesh } from './generateMesh.ts';
import { ROOT, withServedApp, type Browser } from './chromium.ts';

export interface TypingRun {
  /** Longest main-thread task from the first key until the Problems row appeared (+ 500 ms). */
  maxLongTaskMs: number;
  /** Longest task that started while typing (first key to 50 ms after the last, the key interval). */
  maxTypingTaskMs: number;
  /** Longest task that started after that, while the results land (until the row's frame + 500 ms). */
  maxLandingTaskMs: number;
  longTasks: number;
  /** Sum of the long tasks' durations in that window. */
  longTaskTotalMs: number;
  /** Slowest key event (keydown/keypress/input, processing to next paint). */
  maxKeyEventMs: number;
  /** Last keydown → Problems lists the edited host (DOM updated; and after the next frame). */
  lastKeyToProblemsMs: number;
  lastKeyToFrameMs: number;
  /** Longest task while the file was uploaded, opened and first analyzed. */
  loadMaxLongTaskMs: number;
  /** Upload → the file's first diagnostics listed. */
  loadMs: number;
  /** The worker's last run after the typing: parsing the edit, and the analysis (store, analyzers, messages). */
  workerParseMs: number;
  workerAnalyzeMs: number;
}

export interface TypingResult {
  services: number;
  bytes: number;
  runs: TypingRun[];
  median: TypingRun;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const TYPED = 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn'; // 40 keys

/** Measures typing into the generated mesh of `services` services; undefined when no Chromium can be launched. */
export async function measureTyping(services = 2000, runs = 3, port = Number(process.env.BENCH_PORT ?? 4176)): Promise<TypingResult | undefined> {
  const mesh = generateMesh(services);
  // BENCH_SERVE_ROOT: serve another build (a copy of dist/ with scripts/serve.js beside it) to compare.
  const out = await withServedApp(
    port,
    async (browser) => {
      const done: TypingRun[] = [];
      for (let i = 0; i < runs; i++) done.push(await oneRun(browser, port, mesh.text));
      return done;
    },
    process.env.BENCH_SERVE_ROOT ?? ROOT,
  );
  if (!out) return undefined;
  const keys = Object.keys(out[0]!) as (keyof TypingRun)[];
  const med = Object.fromEntries(keys.map((k) => [k, median(out.map((r) => r[k]))])) as unknown as TypingRun;
  return { services, bytes: Buffer.byteLength(mesh.text), runs: out, median: med };
}

interface PageProbe {
  longTasks: Array<{ start: number; duration: number }>;
  events: Array<{ name: string; start: number; duration: number }>;
  keys: number[];
  found?: number;
  frame?: number;
  watch?: string;
}

async function oneRun(browser: Browser, port: number, text: string): Promise<TypingRun> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const probe: PageProbe = { longTasks: [], events: [], keys: [] };
    (window as unknown as { __probe: PageProbe }).__probe = probe;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) probe.events.push({ name: e.name, start: e.startTime, duration: e.duration });
    }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
    window.addEventListener('keydown', () => probe.keys.push(performance.now()), true);
    new MutationObserver((records) => {
      if (!probe.watch || probe.found !== undefined) return;
      // Only mutations inside the Problems panel can show the row (the editor mutates the DOM on every key; scanning then would load the page we measure).
      if (!records.some((r) => (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('[data-testid="problems"]'))) return;
      for (const row of document.querySelectorAll('[data-testid="problem-row"]')) {
        if (row.textContent?.includes(probe.watch)) {
          probe.found = performance.now();
          requestAnimationFrame(() => setTimeout(() => (probe.frame = performance.now()), 0));
          return;
        }
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.getByTestId('last-analysis').waitFor({ timeout: 60_000 });
  await page.locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 });

  // Load: upload the mesh, wait for its first diagnostics (the canary host of svc-7).
  await page.getByTestId('filter-text').fill('svc-7-canary');
  const t0 = await page.evaluate(() => performance.now());
  await page.evaluate(() => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    p.watch = 'svc-7-canary';
    p.found = undefined;
  });
  const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // By path: Playwright hands a local browser the file itself, where a buffer would be sent
  // through the page as base64 (a second-long task of Playwright's own, counted as ours).
  const meshFile = join(mkdtempSync(join(tmpdir(), 'mwb-typing-')), 'mesh.yaml');
  writeFileSync(meshFile, text);
  await page.getByTestId('upload-input').setInputFiles(meshFile);
  await page.waitForFunction(() => (window as unknown as { __probe: PageProbe }).__probe.frame !== undefined, undefined, { timeout: 120_000 });
  await page.locator('.monaco-editor .view-lines').filter({ hasText: 'kind: Namespace' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    (await import('node:fs')).writeFileSync(`${process.env.BENCH_PROFILE}-load.cpuprofile`, JSON.stringify(profile));
  }
  const load = await page.evaluate((start) => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    const tasks = p.longTasks.filter((t) => t.start >= start);
    return { max: Math.max(0, ...tasks.map((t) => t.duration)), ms: (p.found ?? NaN) - start };
  }, t0);

  // Only the row for the fully typed host will match the filter.
  await page.getByTestId('filter-text').fill(`svc-7-canary${TYPED}`);
  // Put the cursor at the end of `host: svc-7-canary` with the editor's Find widget.
  await page.getByTestId('editor').click({ position: { x: 200, y: 10 } });
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ControlOrMeta+F');
  const find = page.locator('.monaco-editor .find-widget textarea, .monaco-editor .find-widget input').first();
  await find.waitFor();
  await find.fill('host: svc-7-canary');
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.waitForTimeout(1000);
  const start = await page.evaluate((watch) => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    p.watch = watch;
    p.found = undefined;
    p.frame = undefined;
    p.keys = [];
    return performance.now();
  }, `svc-7-canary${TYPED}`);
  if (cdp) await cdp.send('Profiler.start');
  const wall0 = Date.now();
  for (let k = 0; k < TYPED.length; k++) {
    const due = wall0 + k * 50;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await page.keyboard.press(TYPED[k] as string);
  }
  if (process.env.BENCH_DEBUG) await page.waitForTimeout(3000), await page.screenshot({ path: '/tmp/typing.png' });
  await page.waitForFunction(() => (window as unknown as { __probe: PageProbe }).__probe.frame !== undefined, undefined, { timeout: 60_000 });
  await page.waitForTimeout(500);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    (await import('node:fs')).writeFileSync(`${process.env.BENCH_PROFILE}-type.cpuprofile`, JSON.stringify(profile));
  }
  const r = await page.evaluate((s) => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    const end = (p.frame ?? performance.now()) + 500;
    const tasks = p.longTasks.filter((t) => t.start >= s && t.start <= end);
    const keyEvents = p.events.filter(
      (e) => e.start >= s && (e.name === 'keydown' || e.name === 'keypress' || e.name === 'input' || e.name === 'keyup' || e.name === 'beforeinput'),
    );
    const last = p.keys[p.keys.length - 1] ?? s;
    const typingEnd = last + 50;
    return {
      keys: p.keys.length,
      maxLongTaskMs: Math.max(0, ...tasks.map((t) => t.duration)),
      maxTypingTaskMs: Math.max(0, ...tasks.filter((t) => t.start <= typingEnd).map((t) => t.duration)),
      maxLandingTaskMs: Math.max(0, ...tasks.filter((t) => t.start > typingEnd).map((t) => t.duration)),
      longTasks: tasks.length,
      longTaskTotalMs: tasks.reduce((a, t) => a + t.duration, 0),
      maxKeyEventMs: Math.max(0, ...keyEvents.map((e) => e.duration)),
      lastKeyToProblemsMs: (p.found ?? NaN) - last,
      lastKeyToFrameMs: (p.frame ?? NaN) - last,
    };
  }, start);
  if (r.keys !== TYPED.length) throw new Error(`expected ${TYPED.length} keys, saw ${r.keys}`);
  // The worker's own account of the last run (the status bar's tooltip): where the time went.
  const lastRun =
    (await page
      .getByTestId('last-analysis')
      .getAttribute('title')
      .catch(() => null)) ?? '';
  const numberAfter = (label: string) => Number(new RegExp(`${label} ([0-9.]+) ms`).exec(lastRun)?.[1] ?? NaN);
  await context.close();
  return {
    maxLongTaskMs: r.maxLongTaskMs,
    maxTypingTaskMs: r.maxTypingTaskMs,
    maxLandingTaskMs: r.maxLandingTaskMs,
    longTasks: r.longTasks,
    longTaskTotalMs: r.longTaskTotalMs,
    maxKeyEventMs: r.maxKeyEventMs,
    lastKeyToProblemsMs: r.lastKeyToProblemsMs,
    lastKeyToFrameMs: r.lastKeyToFrameMs,
    loadMaxLongTaskMs: load.max,
    loadMs: load.ms,
    workerParseMs: numberAfter('Parse'),
    workerAnalyzeMs: numberAfter('analyze'),
  };
}

export function formatTyping(r: TypingResult): string[] {
  const f = (n: number) => `${Math.round(n)} ms`;
  const m = r.median;
  return [
    `Typing 40 keys at 50 ms into the generated ${r.services.toLocaleString('en')}-service mesh (${(r.bytes / (1024 * 1024)).toFixed(1)} MB), Chromium, median of ${r.runs.length}:`,
    `  longest main-thread task while typing ${f(m.maxTypingTaskMs)}, while the results land ${f(m.maxLandingTaskMs)} (${m.longTasks} long tasks, ${f(m.longTaskTotalMs)} in all); slowest key event ${f(m.maxKeyEventMs)}`,
    `  last key -> Problems updated ${f(m.lastKeyToProblemsMs)} (next frame ${f(m.lastKeyToFrameMs)})`,
    `  loading the file: ${f(m.loadMs)} to its diagnostics, longest task ${f(m.loadMaxLongTaskMs)}`,
    `  runs: ${r.runs.map((x) => `${Math.round(x.maxTypingTaskMs)}/${Math.round(x.maxLandingTaskMs)}/${Math.round(x.lastKeyToProblemsMs)}`).join(', ')} (longest task while typing / while landing / last key -> Problems, ms)`,
    `  the worker's last run: ${r.runs.map((x) => `${Math.round(x.workerParseMs)}+${Math.round(x.workerAnalyzeMs)}`).join(', ')} (parse + analysis, ms)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const services = Number(process.argv[2] ?? 2000);
  const runs = Number(process.argv[3] ?? 3);
  const r = await measureTyping(services, runs);
  if (!r) console.log('typing: skipped (no Chromium found)');
  else for (const l of formatTyping(r)) console.log(l);
}
