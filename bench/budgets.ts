// Issue #32's budgets: what each one measures, its target, and how the README shows them. The
// README's performance block, and the same block in docs/performance.md, are written from a
// bench run (npm run bench -- --budgets --write-readme), never by hand, between the two marker
// comments below.

export interface Budget {
  label: string;
  /** The target: a measured value at or under it passes. */
  target: number;
  format: (v: number) => string;
  value: number;
  detail: string;
}

type Target = Omit<Budget, 'value' | 'detail'>;

const ms = (v: number) => `${Math.round(v)} ms`;
const kib = (v: number) => `${v.toFixed(1)} KiB`;
const times = (v: number) => `${v.toFixed(2)}×`;

export const BUDGET_TARGETS = {
  firstDiagnostics: { label: 'Navigation → first diagnostics of the default sample (Chromium, median of 5 fresh visits)', target: 800, format: ms },
  firstJs: { label: 'JavaScript fetched before the first diagnostics, page and workers (gzip)', target: 300, format: kib },
  typingTask: { label: 'Longest main-thread task while typing into a 2,000-service file', target: 50, format: ms },
  landingTask: { label: "Longest main-thread task while that typing's results land", target: 100, format: ms },
  cliDeployments: { label: 'CLI `analyze -o json`, 5,000-service mesh (Deployments), whole process vs a js-yaml process', target: 2.5, format: times },
  cliPods: { label: 'The same mesh with its Pods written out (a cluster dump)', target: 2, format: times },
} satisfies Record<string, Target>;

export const BLOCK_START = '<!-- bench:budgets:start (written by npm run bench -- --write-readme; do not edit by hand) -->';
export const BLOCK_END = '<!-- bench:budgets:end -->';

export interface BlockContext {
  date: string;
  node: string;
  load: [number, number];
  command: string;
}

/** The README block: one row per budget, with the run that measured them. */
export function budgetsBlock(budgets: readonly Budget[], c: BlockContext): string {
  const rows = budgets.map((b) => `| ${b.label} | ${b.format(b.value)} | ≤ ${b.format(b.target)} | ${b.value <= b.target ? 'pass' : '**fail**'} |`);
  return [
    BLOCK_START,
    '| Budget | Measured | Target | |',
    '|---|---:|---:|---|',
    ...rows,
    '',
    `Measured by \`${c.command}\` on ${c.date} (Node ${c.node}, this project's 2-core machine, load average ${c.load[0].toFixed(1)} at the start and ${c.load[1].toFixed(1)} at the end).`,
    BLOCK_END,
  ].join('\n');
}

/** The files that carry the block, relative to the repository root. */
export const BLOCK_FILES = ['README.md', 'docs/performance.md'] as const;

/** `text` with its block replaced by `block`; an error naming `file` when the markers are missing or out of order. */
export function replaceBudgetsBlock(text: string, block: string, file = 'README.md'): string {
  const start = text.indexOf(BLOCK_START);
  const end = text.indexOf(BLOCK_END);
  if (start < 0 || end < start) throw new Error(`${file} has no performance block (${BLOCK_START} … ${BLOCK_END})`);
  return text.slice(0, start) + block + text.slice(end + BLOCK_END.length);
}

/**
 * Writes `block` into every file of BLOCK_FILES. Every file is read and checked first, so a file
 * without the markers leaves all of them as they were. Returns the files written.
 */
export function rewriteBudgetsBlocks(block: string, io: { read: (file: string) => string; write: (file: string, text: string) => void }): string[] {
  const next = BLOCK_FILES.map((file) => ({ file, text: replaceBudgetsBlock(io.read(file), block, file) }));
  for (const n of next) io.write(n.file, n.text);
  return next.map((n) => n.file);
}
