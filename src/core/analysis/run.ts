// Runs analyzers over a store and post-processes their messages the way istioctl does:
// suppression, namespace filter, rendering, de-duplication and ordering.
import type { Diagnostic, Resource } from '../document/types.ts';
import { LEVEL_ORDER } from '../document/types.ts';
import type { AnalysisContext, AnalysisMessage, Analyzer } from './types.ts';
import type { StoreView } from '../config/store.ts';
import { Lookups } from '../config/lookups.ts';
import { renderMessage, type DocumentLookup } from './render.ts';
import { suppressedByAnnotation, suppressedBySettings, type Suppression } from './suppress.ts';
import { logLine } from './format/log.ts';
import { originSortKey } from './origin.ts';

export interface RunAnalyzersOptions {
  suppressions?: readonly Suppression[];
  /** Keep only messages whose resource is in this namespace (or cluster-scoped / none). */
  namespaceFilter?: string;
  canceled?: () => boolean;
  /** Called between analyzers; awaiting it lets a worker receive newer messages. */
  yieldNow?: () => Promise<void>;
  /** Receives each analyzer's time, for the benchmark. */
  timing?: Map<string, number>;
  /**
   * Changes whenever a kept document moves to other lines (WorkspaceModel.layoutVersion): an
   * incremental session reuses messages it rendered under the same epoch. Omitted, nothing is reused.
   */
  renderEpoch?: number;
  /**
   * Locate each message's highlighted field for the editor's range (default true). The CLI's
   * json, yaml and log output print only the line, which does not depend on it.
   */
  ranges?: boolean;
  /** Told before each analyzer how many have run, of how many. */
  progress?: (done: number, total: number) => void;
}

export class AnalysisCanceled extends Error {
  constructor() {
    super('analysis canceled');
  }
}

export interface Reported {
  message: AnalysisMessage;
  analyzer: string;
}

/**
 * One shared, flat copy of each field path: thousands of messages name the same few paths,
 * and analyzers build them with template literals (a tree of parts per message).
 */
const fieldPaths = new Map<string, string>();

function internFieldPath(path: string): string {
  const known = fieldPaths.get(path);
  if (known !== undefined) return known;
  const flat = path.split('\u0000').join('');
  if (fieldPaths.size < 8192) fieldPaths.set(flat, flat);
  return flat;
}

export function contextFor(store: StoreView, index: Lookups, sink: Reported[], analyzer: string, canceled: () => boolean): AnalysisContext {
  return {
    meshConfig: store.options.meshConfig,
    meshNetworks: store.options.meshNetworks,
    podCidr: store.options.podCidr,
    // Reads made while a lookup is being built are its dependencies.
    list: (kind) => (index.noteRead(kind.id), store.list(kind)),
    find: (kind, ns, name) => (index.noteRead(kind.id), store.find(kind, ns, name)),
    exists: (kind, ns, name) => (index.noteRead(kind.id), store.find(kind, ns, name) !== undefined),
    lookups: index,
    report: (message, place) => {
      const fieldPath = place?.fieldPath ?? message.fieldPath;
      const highlightPath = place?.highlightPath ?? message.highlightPath;
      if (fieldPath !== undefined) message.fieldPath = internFieldPath(fieldPath);
      if (highlightPath !== undefined) message.highlightPath = internFieldPath(highlightPath);
      if (place?.highlightOccurrence !== undefined) message.highlightOccurrence = place.highlightOccurrence;
      sink.push({ message, analyzer });
    },
    canceled,
  };
}

export function runAnalyzersSync(
  store: StoreView,
  analyzers: readonly Analyzer[],
  lookup: DocumentLookup,
  options: Omit<RunAnalyzersOptions, 'yieldNow'> = {},
): Diagnostic[] {
  const index = new Lookups(store);
  const reported: Reported[] = [];
  for (const analyzer of analyzers) analyzer.analyze(contextFor(store, index, reported, analyzer.metadata.name, options.canceled ?? (() => false)));
  return postProcess(reported, lookup, options);
}

function keepForNamespace(r: Resource | undefined, ns: string | undefined): boolean {
  if (!ns || !r?.namespace) return true;
  return r.namespace === ns;
}

export type MessageRenderer = (message: AnalysisMessage, analyzer: string) => Diagnostic;

export function postProcess(reported: readonly Reported[], lookup: DocumentLookup, options: RunAnalyzersOptions, render?: MessageRenderer): Diagnostic[] {
  return processMessages(reported, lookup, options, render, 0).map((k) => k.d);
}

/** Istio's order: cluster, level, code, messages without a resource first, origin, text. */
function compareMessages(a: SortItem, b: SortItem): number {
  if (a.r && b.r && (a.d.cluster ?? '') !== (b.d.cluster ?? '')) return (a.d.cluster ?? '') < (b.d.cluster ?? '') ? -1 : 1;
  if (a.d.level !== b.d.level) return LEVEL_ORDER[a.d.level] - LEVEL_ORDER[b.d.level];
  if (a.d.code !== b.d.code) return a.d.code < b.d.code ? -1 : 1;
  if (!a.r !== !b.r) return a.r ? 1 : -1;
  if (a.origin !== b.origin) return a.origin < b.origin ? -1 : 1;
  // Same level, code and origin: the log lines differ in the reference or the text. With the
  // same reference, comparing the texts gives the log-line order without building lines.
  if (a.d.file === b.d.file && a.d.line === b.d.line && a.d.cluster === b.d.cluster) {
    return a.d.message < b.d.message ? -1 : a.d.message > b.d.message ? 1 : 0;
  }
  const la = lineOf(a);
  const lb = lineOf(b);
  return la < lb ? -1 : la > lb ? 1 : 0;
}

/** Same log line (istioctl's de-duplication key), given equal level, code and origin. */
function sameLine(a: SortItem, b: SortItem): boolean {
  if (a.d.file === b.d.file && a.d.line === b.d.line && a.d.cluster === b.d.cluster) return a.d.message === b.d.message;
  return lineOf(a) === lineOf(b);
}

export interface SortItem {
  d: Diagnostic;
  r: Resource | undefined;
  origin: string;
  /** The uncoloured log line (istioctl's Message.String()), made only when needed. */
  line?: string;
  /** The reporting analyzer's place in the run: equal messages keep analyzer order. */
  rank: number;
}

function lineOf(x: SortItem): string {
  return (x.line ??= logLine(x.d));
}

/**
 * Sort keys by diagnostic. An incremental run keeps most diagnostic objects, so their keys
 * (and log lines, once made) carry over instead of being rebuilt for every message each run.
 */
const sortItems = new WeakMap<Diagnostic, SortItem>();

function sortItemOf(d: Diagnostic, r: Resource | undefined, rank = 0): SortItem {
  let item = sortItems.get(d);
  if (!item || item.r !== r) sortItems.set(d, (item = { d, r, origin: r ? originSortKey(r) : '', rank }));
  item.rank = rank;
  return item;
}

/** Same log line as the message before it in sorted order: istioctl prints it once. */
function isDuplicate(prev: SortItem, k: SortItem): boolean {
  return prev.d.code === k.d.code && prev.origin === k.origin && prev.d.level === k.d.level && sameLine(prev, k);
}

/** Sorted items without duplicates (which can only be neighbours with equal level, code and origin). */
function dedupeSorted(sorted: readonly SortItem[]): SortItem[] {
  const out: SortItem[] = [];
  let prev: SortItem | undefined;
  for (const k of sorted) {
    if (prev && isDuplicate(prev, k)) continue;
    prev = k;
    out.push(k);
  }
  return out;
}

/**
 * One analyzer's messages after suppression and the namespace filter, rendered, sorted and
 * without duplicates. `rank` is the analyzer's place in the run (see mergeProcessed).
 */
export function processMessages(
  reported: readonly Reported[],
  lookup: DocumentLookup,
  options: RunAnalyzersOptions,
  render: MessageRenderer | undefined,
  rank: number,
): SortItem[] {
  const kept: SortItem[] = [];
  for (const { message, analyzer } of reported) {
    const r = message.resource;
    if (suppressedByAnnotation(r, message.type.code)) continue;
    if (!keepForNamespace(r, options.namespaceFilter)) continue;
    const d = render ? render(message, analyzer) : renderMessage(message, analyzer, lookup);
    if (options.suppressions && suppressedBySettings(options.suppressions, d.code, d.origin)) continue;
    kept.push(sortItemOf(d, r, rank));
  }
  kept.sort(compareMessages);
  return dedupeSorted(kept);
}

/** True when `a` comes before `b`: istioctl's order, and for equal messages the earlier analyzer. */
function precedes(a: SortItem, b: SortItem): boolean {
  const c = compareMessages(a, b);
  return c < 0 || (c === 0 && a.rank < b.rank);
}

/**
 * Two sorted, de-duplicated lists as one. A short list is placed into a long one by binary
 * search, so merging the few messages of re-run analyzers into thousands of kept ones
 * compares a few dozen pairs instead of visiting every message.
 */
function mergeTwo(a: SortItem[], b: SortItem[]): SortItem[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const [small, big] = a.length <= b.length ? [a, b] : [b, a];
  const out: SortItem[] = [];
  // A duplicate can only meet its twin where the two lists meet.
  let afterSmall = false;
  const copyBig = (from: number, to: number) => {
    if (from >= to) return;
    let i = from;
    if (afterSmall && isDuplicate(out[out.length - 1] as SortItem, big[i] as SortItem)) i++;
    for (; i < to; i++) out.push(big[i] as SortItem);
    afterSmall = false;
  };
  const linear = small.length * 8 > big.length;
  let lo = 0;
  for (const s of small) {
    let l = lo;
    if (linear) {
      while (l < big.length && precedes(big[l] as SortItem, s)) l++;
    } else {
      let h = big.length;
      while (l < h) {
        const m = (l + h) >>> 1;
        if (precedes(big[m] as SortItem, s)) l = m + 1;
        else h = m;
      }
    }
    copyBig(lo, l);
    lo = l;
    const last = out[out.length - 1];
    if (last && isDuplicate(last, s)) continue;
    out.push(s);
    afterSmall = true;
  }
  copyBig(lo, big.length);
  return out;
}

/**
 * The run's diagnostics from each analyzer's processed list: the same order and the same
 * de-duplication as sorting all messages together (a stable sort over analyzer order).
 */
export function mergeProcessed(lists: readonly SortItem[][]): Diagnostic[] {
  const bySize = [...lists].sort((x, y) => x.length - y.length);
  let acc: SortItem[] = [];
  for (const list of bySize) acc = mergeTwo(acc, list);
  return acc.map((k) => k.d);
}
