// Runs analyzers over a store and post-processes their messages the way istioctl does:
// suppression, namespace filter, rendering, de-duplication and ordering.
import type { Diagnostic, Resource } from '../model/types.ts';
import { LEVEL_ORDER } from '../model/types.ts';
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
      sink.push({ message, analyzer });
    },
    canceled,
  };
}

export function runAnalyzersSync(store: StoreView, analyzers: readonly Analyzer[], lookup: DocumentLookup, options: Omit<RunAnalyzersOptions, 'yieldNow'> = {}): Diagnostic[] {
  const index = new Lookups(store);
  const reported: Reported[] = [];
  for (const analyzer of analyzers) analyzer.analyze(contextFor(store, index, reported, analyzer.metadata.name, options.canceled ?? (() => false)));
  return postProcess(reported, lookup, options);
}

function keepForNamespace(r: Resource | undefined, ns: string | undefined): boolean {
  if (!ns || !r || !r.namespace) return true;
  return r.namespace === ns;
}

export type MessageRenderer = (message: AnalysisMessage, analyzer: string) => Diagnostic;

export function postProcess(reported: readonly Reported[], lookup: DocumentLookup, options: RunAnalyzersOptions, render?: MessageRenderer): Diagnostic[] {
  const kept: Array<{ d: Diagnostic; r: Resource | undefined }> = [];
  for (const { message, analyzer } of reported) {
    const r = message.resource;
    if (suppressedByAnnotation(r, message.type.code)) continue;
    if (!keepForNamespace(r, options.namespaceFilter)) continue;
    const d = render ? render(message, analyzer) : renderMessage(message, analyzer, lookup);
    if (options.suppressions && suppressedBySettings(options.suppressions, d.code, d.origin)) continue;
    kept.push({ d, r });
  }
  return sortAndDedupe(kept);
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

interface SortItem {
  d: Diagnostic;
  r: Resource | undefined;
  origin: string;
  /** The uncoloured log line (istioctl's Message.String()), made only when needed. */
  line?: string;
}

function lineOf(x: SortItem): string {
  return (x.line ??= logLine(x.d));
}

/**
 * Sort keys by diagnostic. An incremental run keeps most diagnostic objects, so their keys
 * (and log lines, once made) carry over instead of being rebuilt for every message each run.
 */
const sortItems = new WeakMap<Diagnostic, SortItem>();

function sortItemOf(d: Diagnostic, r: Resource | undefined): SortItem {
  let item = sortItems.get(d);
  if (!item || item.r !== r) sortItems.set(d, (item = { d, r, origin: r ? originSortKey(r) : '' }));
  return item;
}

export function sortAndDedupe(items: Array<{ d: Diagnostic; r: Resource | undefined }>): Diagnostic[] {
  const keyed: SortItem[] = items.map((x) => sortItemOf(x.d, x.r));
  keyed.sort(compareMessages);
  // Duplicates (same log line) can only be neighbours with equal level, code and origin.
  const out: Diagnostic[] = [];
  let prev: SortItem | undefined;
  for (const k of keyed) {
    if (prev && prev.d.code === k.d.code && prev.origin === k.origin && prev.d.level === k.d.level && sameLine(prev, k)) continue;
    prev = k;
    out.push(k.d);
  }
  return out;
}
