// The first load in real Chromium: from navigation to the first row of the Problems list on a
// fresh visit (the default sample), with Chromium's own figures for that window: the scripts
// it fetched (page and workers; each counted at its gzip size, as a server would send it, and at
// the bytes this server sent), the main thread's script time and long tasks (CDP Performance
// metrics, PerformanceObserver 'longtask'), and the machine's load average, since a busy
// machine moves every figure here. Run on its own: node --import tsx bench/firstLoad.ts [runs]
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { ROOT, withServedApp, type Browser } from './chromium.ts';

const dist = join(ROOT, 'dist');

export interface FirstLoadRun {
  /** Navigation start → the first Problems row in the DOM (the page's clock). */
  firstDiagnosticsMs: number;
  /** Scripts whose response arrived before the first row: path under dist/, gzip and sent bytes. */
  scripts: Array<{ path: string; gzipBytes: number; sentBytes: number }>;
  gzipBytes: number;
  sentBytes: number;
  /** Main-thread script time until the first row (CDP Performance.getMetrics ScriptDuration). */
  scriptMs: number;
  longTasks: number;
  maxLongTaskMs: number;
  /** Whether a Monaco chunk was requested before the first row. */
  monacoBefore: boolean;
}

export interface FirstLoadResult {
  runs: FirstLoadRun[];
  /** The run with the median time to the first row. */
  median: FirstLoadRun;
  /** One-minute load average when the measurement started and ended. */
  loadAverage: [number, number];
}

function gzipOf(path: string): number {
  const file = join(dist, path);
  return existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
}

/** `runs` fresh browser contexts; undefined when no Chromium can be launched. */
export async function measureFirstLoad(runs = 5, port = Number(process.env.BENCH_PORT ?? 4175)): Promise<FirstLoadResult | undefined> {
  const loadStart = loadavg()[0] as number;
  const out = await withServedApp(port, async (browser) => {
    const visits: FirstLoadRun[] = [];
    // One unmeasured visit first: the server's and the OS's file caches, as for any later visitor.
    for (let i = 0; i <= runs; i++) {
      const r = await oneVisit(browser, port);
      if (i > 0) visits.push(r);
    }
    return visits;
  });
  if (!out) return undefined;
  const sorted = [...out].sort((a, b) => a.firstDiagnosticsMs - b.firstDiagnosticsMs);
  return { runs: out, median: sorted[Math.floor(sorted.length / 2)] as FirstLoadRun, loadAverage: [loadStart, loadavg()[0] as number] };
}

async function oneVisit(browser: Browser, port: number): Promise<FirstLoadRun> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  // Every response, page's and workers' alike (context-level events see worker fetches too),
  // in arrival order; the first row's arrival is marked by the page calling back.
  const events: Array<{ kind: 'response'; url: string; sent: number } | { kind: 'row' }> = [];
  context.on('response', (res) => {
    const url = res.url();
    if (!/\.m?js(\?|$)/.test(url)) return;
    const e = { kind: 'response' as const, url, sent: 0 };
    events.push(e);
    void res.body().then(
      (b) => (e.sent = b.length),
      () => undefined,
    );
  });
  await page.exposeBinding('__benchFirstRow', () => {
    events.push({ kind: 'row' });
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __benchLong: Array<{ start: number; duration: number }>; __benchRowAt?: number; __benchFirstRow: () => void };
    w.__benchLong = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__benchLong.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    const seen = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="problem-row"]')) return;
      w.__benchRowAt = performance.now();
      seen.disconnect();
      w.__benchFirstRow();
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => (window as unknown as { __benchRowAt?: number }).__benchRowAt !== undefined, undefined, { timeout: 60_000 });
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  const at = await page.evaluate(() => {
    const w = window as unknown as { __benchLong: Array<{ start: number; duration: number }>; __benchRowAt: number };
    const long = w.__benchLong.filter((t) => t.start < w.__benchRowAt);
    return { row: w.__benchRowAt, long: long.length, maxLong: Math.max(0, ...long.map((t) => t.duration)) };
  });
  // Bodies are read asynchronously: let the ones already received land before splitting at the row.
  await page.waitForTimeout(200);
  await context.close();
  const rowIndex = events.findIndex((e) => e.kind === 'row');
  const before = events
    .slice(0, rowIndex < 0 ? events.length : rowIndex)
    .filter((e): e is { kind: 'response'; url: string; sent: number } => e.kind === 'response');
  const scripts = before.map((e) => {
    const path = new URL(e.url).pathname.replace(/^\//, '');
    return { path, gzipBytes: gzipOf(path), sentBytes: e.sent };
  });
  return {
    firstDiagnosticsMs: at.row,
    scripts,
    gzipBytes: scripts.reduce((a, s) => a + s.gzipBytes, 0),
    sentBytes: scripts.reduce((a, s) => a + s.sentBytes, 0),
    scriptMs: 1000 * (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN),
    longTasks: at.long,
    maxLongTaskMs: at.maxLong,
    monacoBefore: scripts.some((s) => /monaco|editor\.worker|useColorScheme/i.test(s.path)),
  };
}

export function formatFirstLoad(r: FirstLoadResult): string[] {
  const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  const m = r.median;
  return [
    `First load of the default sample in Chromium (${r.runs.length} fresh contexts after one unmeasured visit; load average ${r.loadAverage[0].toFixed(2)} at the start, ${r.loadAverage[1].toFixed(2)} at the end):`,
    `  navigation -> first diagnostics: median ${m.firstDiagnosticsMs.toFixed(0)} ms (runs ${r.runs.map((x) => x.firstDiagnosticsMs.toFixed(0)).join(', ')} ms)`,
    `  JavaScript fetched before the first diagnostics (page and workers): ${kib(m.gzipBytes)} gzip, ${kib(m.sentBytes)} as sent by scripts/serve.js, ${m.scripts.length} scripts${m.monacoBefore ? ' (Monaco among them)' : ''}:`,
    ...m.scripts.map((s) => `    ${s.path.padEnd(48)} ${kib(s.gzipBytes).padStart(10)} gzip`),
    `  main-thread script time ${m.scriptMs.toFixed(0)} ms; long tasks ${m.longTasks}, longest ${m.maxLongTaskMs.toFixed(0)} ms`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await measureFirstLoad(Number(process.argv[2] ?? 5));
  if (!r) console.log('first load: skipped (no Chromium found)');
  else for (const l of formatFirstLoad(r)) console.log(l);
}
