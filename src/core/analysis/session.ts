// Incremental analysis across workspace versions. An analyzer none of whose input kinds
// changed keeps its messages; a per-resource analyzer whose only changed input is its own
// kind re-checks just the resources that are new or changed. Everything else re-runs.
import type { Diagnostic, Resource } from '../document/types.ts';
import type { AnalysisContext, AnalysisMessage, Analyzer } from './types.ts';
import { MESSAGES } from './messages.ts';
import type { StoreView } from '../config/store.ts';
import type { Lookups } from '../config/lookups.ts';
import { KINDS, type KindInfo } from '../document/kinds.ts';
import { contextFor, mergeProcessed, processMessages, AnalysisCanceled, type Reported, type RunAnalyzersOptions, type SortItem } from './run.ts';
import { rememberMessage, renderMessage, type DocumentLookup } from './render.ts';
import { clearLocateCaches } from '../document/locate.ts';
import { changedSlots } from './followList.ts';
import type { SourceDocument } from '../document/types.ts';

interface RenderedMessage {
  d: Diagnostic;
  doc: SourceDocument | undefined;
  startLine: number;
  /** Rendered with its range (see RunAnalyzersOptions.ranges). */
  ranged: boolean;
}

function shiftLines(d: Diagnostic, delta: number): Diagnostic {
  const out: Diagnostic = { ...d };
  if (out.line !== undefined) out.line += delta;
  if (out.range) out.range = { ...out.range, startLine: out.range.startLine + delta, endLine: out.range.endLine + delta };
  return out;
}

interface AnalyzerCache {
  /** Messages of the per-resource checks, by the checked resource (only those with messages). */
  byResource?: Map<Resource, AnalysisMessage[]>;
  /** All other messages (the whole analysis, or a per-resource analyzer's global part). */
  rest: AnalysisMessage[];
}

/** Kinds every analyzer may read besides its declared inputs. */
const ALWAYS_READ = [KINDS.MeshConfig.id, KINDS.MeshNetworks.id];

/**
 * Runs one analyzer step so that a bug in it costs only its own findings: the failure is
 * reported as IST0001 (on the resource being checked, when there is one) and every other
 * analyzer and resource is still analyzed.
 */
function guarded(ctx: AnalysisContext, analyzer: string, resource: Resource | undefined, step: () => void): void {
  try {
    step();
  } catch (e) {
    reportFailure(ctx, analyzer, resource, e);
  }
}

/** guarded() for one resource's check, without a closure per resource (there are tens of thousands). */
function guardedCheck(ctx: AnalysisContext, analyzer: string, parts: NonNullable<Analyzer['perResource']>, r: Resource): void {
  try {
    parts.check(ctx, r);
  } catch (e) {
    reportFailure(ctx, analyzer, r, e);
  }
}

function reportFailure(ctx: AnalysisContext, analyzer: string, resource: Resource | undefined, e: unknown): void {
  if (e instanceof AnalysisCanceled) throw e;
  const detail = e instanceof Error ? e.message : 'unknown failure';
  ctx.report(MESSAGES.InternalError.at(resource, `analyzer ${analyzer} failed: ${detail}`));
}

export class AnalysisSession {
  private caches = new Map<string, AnalyzerCache>();
  /**
   * The resources of each per-resource kind as of the last completed run, in store order: a
   * resource in this list was checked then by every per-resource analyzer of its kind. One
   * list per kind is shared by all analyzers, which keeps the caches small.
   */
  private checked = new Map<string, readonly Resource[]>();
  /**
   * Rendered diagnostics of kept messages. A message is reused as long as its document is
   * the same object; when the document only moved (lines inserted above), lines shift.
   */
  private rendered = new WeakMap<AnalysisMessage, RenderedMessage>();
  /** Per kind, this run's resources not checked last time and last time's that are gone (made once per run). */
  private deltas = new Map<string, { fresh: Resource[]; gone: Resource[] }>();
  /**
   * Each analyzer cache's messages as processed (filtered, rendered, sorted), with what they
   * were processed under. A kept cache keeps its list while documents keep their lines and
   * the settings stay, so a run merges the few new messages instead of re-sorting them all.
   */
  private processed = new WeakMap<AnalyzerCache, { key: string; rank: number; items: SortItem[] }>();
  /** Numbers runs that carry no render epoch, so that their processed lists are never reused. */
  private unkeyedRuns = 0;
  /** How each analyzer was run last time (for tests and the benchmark). */
  lastModes = new Map<string, 'cached' | 'incremental' | 'full'>();

  reset(): void {
    this.caches.clear();
    this.checked.clear();
  }

  /**
   * Runs (or reuses) each analyzer. `changedKinds` are the kind ids whose resources changed
   * since the previous run of this session; 'all' forces every analyzer to run.
   */
  async run(
    store: StoreView,
    index: Lookups,
    analyzers: readonly Analyzer[],
    changedKinds: ReadonlySet<string> | 'all',
    lookup: DocumentLookup,
    options: RunAnalyzersOptions = {},
  ): Promise<Diagnostic[]> {
    const canceled = options.canceled ?? (() => false);
    const lists: SortItem[][] = [];
    const epoch = options.renderEpoch ?? `run ${++this.unkeyedRuns}`;
    const ranges = options.ranges !== false;
    const postKey = JSON.stringify([epoch, options.suppressions ?? null, options.namespaceFilter ?? null, ranges]);
    const live = new Set<string>();
    this.lastModes.clear();
    this.deltas.clear();
    for (const analyzer of analyzers) {
      options.progress?.(lists.length, analyzers.length);
      if (options.yieldNow) await options.yieldNow();
      if (canceled()) {
        // The caches are kept: each still describes the version its analyzer last ran on, and
        // the caller passes the kinds changed since the last completed run (the workspace keeps
        // a canceled run's changed kinds for the next one), so an analyzer whose inputs changed
        // since its cache runs again. Starting afresh would make the run after every keystroke
        // that cancels one a full analysis.
        throw new AnalysisCanceled();
      }
      const name = analyzer.metadata.name;
      live.add(name);
      const t0 = performance.now();
      const cache = this.runOne(store, index, analyzer, changedKinds, canceled);
      options.timing?.set(name, (options.timing.get(name) ?? 0) + performance.now() - t0);
      const rank = lists.length;
      let processed = this.processed.get(cache);
      if (!processed || processed.key !== postKey || processed.rank !== rank) {
        const reported: Reported[] = [];
        for (const m of cache.rest) reported.push({ message: m, analyzer: name });
        if (cache.byResource) for (const list of cache.byResource.values()) for (const m of list) reported.push({ message: m, analyzer: name });
        processed = { key: postKey, rank, items: processMessages(reported, lookup, options, (m, analyzer) => this.render(m, analyzer, lookup, ranges), rank) };
        this.processed.set(cache, processed);
      }
      lists.push(processed.items);
    }
    for (const name of [...this.caches.keys()]) if (!live.has(name)) this.caches.delete(name);
    // Remember which resources every per-resource analyzer has now seen (only kinds that changed differ).
    const kinds = new Map<string, KindInfo>();
    for (const a of analyzers) if (a.perResource) kinds.set(a.perResource.kind.id, a.perResource.kind);
    for (const id of [...this.checked.keys()]) if (!kinds.has(id)) this.checked.delete(id);
    for (const [id, kind] of kinds) {
      if (changedKinds === 'all' || changedKinds.has(id) || !this.checked.has(id)) this.checked.set(id, [...store.list(kind)]);
    }
    this.deltas.clear();
    const out = mergeProcessed(lists);
    clearLocateCaches();
    return out;
  }

  private render(m: AnalysisMessage, analyzer: string, lookup: DocumentLookup, ranges: boolean): Diagnostic {
    const got = this.rendered.get(m);
    // A diagnostic rendered without its range is not reused where one is wanted.
    const hit = got && (got.ranged || !ranges) ? got : undefined;
    // A kept message means a kept resource, whose document object is kept too: it can only
    // have moved (documents are relocated in place).
    if (hit) {
      const startLine = hit.doc?.startLine ?? 0;
      if (hit.startLine === startLine) return hit.d;
      const moved = shiftLines(hit.d, startLine - hit.startLine);
      rememberMessage(moved, m);
      this.rendered.set(m, { d: moved, doc: hit.doc, startLine, ranged: hit.ranged });
      return moved;
    }
    const src = m.resource?.source;
    const doc = src ? lookup(src.file, src.docIndex) : undefined;
    const d = renderMessage(m, analyzer, lookup, ranges);
    this.rendered.set(m, { d, doc, startLine: doc?.startLine ?? 0, ranged: ranges });
    return d;
  }

  private deltaOf(kind: KindInfo, list: readonly Resource[], checked: readonly Resource[]): { fresh: Resource[]; gone: Resource[] } {
    let delta = this.deltas.get(kind.id);
    if (delta) return delta;
    const fresh: Resource[] = [];
    const gone: Resource[] = [];
    const slots = changedSlots(checked, list);
    if (slots) {
      for (const i of slots) {
        fresh.push(list[i]!);
        gone.push(checked[i]!);
      }
    } else {
      const before = new Set(checked);
      const now = new Set(list);
      for (const r of list) if (!before.has(r)) fresh.push(r);
      for (const r of checked) if (!now.has(r)) gone.push(r);
    }
    this.deltas.set(kind.id, (delta = { fresh, gone }));
    return delta;
  }

  private runOne(store: StoreView, index: Lookups, analyzer: Analyzer, changedKinds: ReadonlySet<string> | 'all', canceled: () => boolean): AnalyzerCache {
    const name = analyzer.metadata.name;
    const prev = this.caches.get(name);
    const inputs = [...analyzer.metadata.inputs.map((k) => k.id), ...ALWAYS_READ];
    const changedInputs = changedKinds === 'all' ? inputs : inputs.filter((k) => changedKinds.has(k));
    if (prev && changedInputs.length === 0) {
      this.lastModes.set(name, 'cached');
      return prev;
    }
    const sink: Reported[] = [];
    const ctx = contextFor(store, index, sink, name, canceled);
    const take = (): AnalysisMessage[] => sink.splice(0, sink.length).map((r) => r.message);
    const parts = analyzer.perResource;
    let cache: AnalyzerCache;
    if (!parts) {
      guarded(ctx, name, undefined, () => analyzer.analyze(ctx));
      cache = { rest: take() };
      this.lastModes.set(name, 'full');
    } else {
      const checked = this.checked.get(parts.kind.id);
      const reuse = prev?.byResource && checked && changedInputs.every((k) => k === parts.kind.id) ? prev.byResource : undefined;
      let byResource: Map<Resource, AnalysisMessage[]>;
      if (reuse && checked) {
        // Start from the kept messages and check only what is new: an edit costs the edited
        // resources, not a pass over every resource of the kind for every analyzer. (The map's
        // order does not matter: the messages are sorted, and one resource's stay together.)
        const delta = this.deltaOf(parts.kind, store.list(parts.kind), checked);
        byResource = new Map(reuse);
        for (const r of delta.gone) byResource.delete(r);
        for (const r of delta.fresh) {
          byResource.delete(r);
          guardedCheck(ctx, name, parts, r);
          if (sink.length > 0) byResource.set(r, take());
        }
      } else {
        byResource = new Map<Resource, AnalysisMessage[]>();
        for (const r of store.list(parts.kind)) {
          guardedCheck(ctx, name, parts, r);
          if (sink.length > 0) byResource.set(r, take());
        }
      }
      if (parts.global) guarded(ctx, name, undefined, () => parts.global?.(ctx));
      cache = { byResource, rest: take() };
      this.lastModes.set(name, reuse ? 'incremental' : 'full');
    }
    this.caches.set(name, cache);
    return cache;
  }
}
