// The whole pipeline from workspace files to diagnostics, shared by the worker, the CLI
// and the benchmark: incremental parse → store → analyzers → located diagnostics.
import { nextTask } from './nextTask.ts';
import { KINDS } from './document/kinds.ts';
import type { Diagnostic, Resource, SourceDocument, WorkspaceFile } from './document/types.ts';
import { PARSER_CODES } from './document/parse.ts';
import { WorkspaceModel, type ModelOptions, type ParseProgress } from './document/workspaceModel.ts';
import type { AnalysisSettings } from './analysis/settings.ts';
import { placeholderOverlay, ResourceStore } from './config/store.ts';
import { AnalysisCanceled } from './analysis/run.ts';
import { Lookups } from './config/lookups.ts';
import { AnalysisSession } from './analysis/session.ts';
import { selectAnalyzers } from './analyzerSets.ts';
import { isIstioCode, istioctlRun, type IstioctlReport } from './analysis/istioctlMode.ts';
import { parseSuppressions } from './analysis/suppress.ts';
import { messageByCode, OWN_MESSAGES } from './analysis/messages.ts';
import { meshInputsFromResources } from './config/mesh/fromWorkspace.ts';
import { missingInputNotes } from './analysis/assumedInputs.ts';
import { attachFixes, fixContext } from './analysis/fixes/index.ts';
import { absentKinds, partitionByInputs, type SkippedAnalyzer } from './analysis/skipped.ts';
import { configView, type ConfigView } from './config/configView.ts';
import { DEFAULT_POD_CIDR, podCidrSetting } from './config/derivedWorkloads.ts';
import { assumedGatewayClassesNote } from './config/gatewayApi/builtins.ts';
import { kindProblems } from './validation/kindProblems.ts';
import { kialiDiagnostics } from './analysis/packs/kiali/diagnostics.ts';
import { isKialiCode } from './analysis/packs/kiali/codes.ts';

export interface WorkspaceResult {
  diagnostics: Diagnostic[];
  /** Resources as analyzed (namespaces defaulted), including assumed/synthetic ones. */
  resources: Resource[];
  assumptions: string[];
  /** Analyzers run, in order (the selection minus the skipped ones). */
  executed: string[];
  /** Analyzers not run because the workspace holds no object of a kind they need. */
  skipped: SkippedAnalyzer[];
  /** In istioctl mode: the analyzers selected and skipped as istioctl lists them, and the documents it could not add. */
  istioctl?: IstioctlReport;
  /** How each analyzer ran: reused ('cached'), re-checked changed resources ('incremental'), or 'full'. */
  modes: Record<string, 'cached' | 'incremental' | 'full'>;
  stats: { files: number; documents: number; resources: number; parseMs: number; analyzeMs: number; reparsedDocuments: number };
}

export interface RunOptions {
  /** Polled between units of work; return true to abandon the run. */
  canceled?: () => boolean;
  /** Yield to the event loop this often (ms) so newer messages can arrive. 0 = never. */
  yieldEveryMs?: number;
  /** Mesh config / networks given outside the workspace (CLI flags). */
  meshConfigText?: string;
  meshNetworksText?: string;
  timing?: Map<string, number>;
  /** Locate messages' highlighted fields for their ranges (default true; see RunAnalyzersOptions.ranges). */
  ranges?: boolean;
  /** Called between analysis steps (the benchmark samples the heap there). */
  probe?: () => void;
  /**
   * Attach editor quick fixes to the diagnostics before returning (default false: the
   * worker posts diagnostics first and computes fixes afterwards with `attachFixes`, and
   * the CLI has no use for them).
   */
  fixes?: boolean;
  /**
   * Awaited with the resources to analyze before any analyzer runs: the browser worker loads
   * the CEL library and certificate parsing there when they could need them (src/worker/libGates.ts).
   */
  prepare?: (resources: readonly Resource[]) => Promise<void> | void;
  /**
   * Leave the Kiali pack out of this run's result and keep what it needs: `kialiPass()` then
   * gives the whole list with it. The worker posts istioctl's findings first and Kiali's after,
   * so typing never waits for the pack.
   */
  deferKiali?: boolean;
  /** Told where the run is: building the mesh model, then each analyzer in turn (the tab shows it for large files). */
  progress?: (progress: RunProgress) => void;
}

export type RunProgress = { step: 'model' } | { step: 'analyze'; done: number; total: number };

function byFileAndLine(a: Diagnostic, b: Diagnostic): number {
  if ((a.file ?? '') !== (b.file ?? '')) return (a.file ?? '') < (b.file ?? '') ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0);
}

export class WorkspaceAnalyzer {
  readonly model: WorkspaceModel;
  private pendingParseMs = 0;
  /** Kept across runs: only the kinds that changed are reloaded and re-analyzed. */
  private store?: ResourceStore;
  private index?: Lookups;
  private storeKey = '';
  private readonly session = new AnalysisSession();
  /** Changed kinds not yet reflected in a completed run (kept when a run is canceled). */
  private unanalyzedKinds = new Set<string>();
  /** Whether the store is consistent for readers: not mid-run, and the last run did not throw. */
  private storeState: 'none' | 'running' | 'ready' | 'broken' = 'none';
  private readView?: ConfigView;
  /** What the Kiali pack needs after a run that deferred it (see RunOptions.deferKiali). */
  private kialiPending?: { view: ConfigView; problems: Diagnostic[]; istio: Diagnostic[]; options: Parameters<typeof kialiDiagnostics>[3] };
  /** The mesh inputs of the last run, and the overrides they were read with. */
  private mesh?: { key: string; inputs: ReturnType<typeof meshInputsFromResources> };

  /** `options`: the model's size limit (the CLI's is what the machine holds; the default is the tab's). */
  constructor(options: ModelOptions = {}) {
    this.model = new WorkspaceModel(kindProblems, options);
  }

  /**
   * Read access to the mesh as the last run loaded it (resources, derived pods, mesh config
   * and the run's lookups) and to the source documents, for queries. Undefined before the
   * first run, while a run is in progress, and after a run failed.
   */
  analyzedState(): { view: ConfigView; document: (file: string, index: number) => SourceDocument | undefined; files: () => string[] } | undefined {
    if (this.storeState !== 'ready' || !this.store || !this.index) return undefined;
    if (!this.readView) {
      // Analysis assumes the chart's gateway plus istioctl's extra ports; the generated Envoy
      // config of the assumed gateway comes from the chart's alone (its Service's ports are the listeners').
      const swap = this.store.placeholderSwap('chart');
      if (swap.size === 0) this.readView = configView(this.store, this.index);
      else {
        const overlay = placeholderOverlay(this.store, swap);
        this.readView = configView(overlay, this.index.fork(overlay, new Set([...swap.keys()].map((r) => r.kindId))));
      }
    }
    return { view: this.readView, document: (f, i) => this.model.document(f, i), files: () => this.model.fileList().map((f) => f.path) };
  }

  /**
   * The last run's diagnostics with the Kiali pack's, when that run deferred the pack (else
   * undefined): istioctl's messages (those Kiali also gives naming its code), then Kiali's.
   */
  kialiPass(): Diagnostic[] | undefined {
    const p = this.kialiPending;
    if (!p || this.storeState !== 'ready') return undefined;
    this.kialiPending = undefined;
    const pack = kialiDiagnostics(p.view, (f, i) => this.model.document(f, i), p.istio, p.options);
    return [...p.problems, ...pack.istio, ...pack.kiali];
  }

  update(changed: WorkspaceFile[], removed: string[]): void {
    for (const _ of this.updateSteps(changed, removed));
  }

  /** The same update a step at a time (WorkspaceModel.updateSteps), for the tab's worker. */
  *updateSteps(changed: WorkspaceFile[], removed: string[]): Generator<ParseProgress, void, undefined> {
    const steps = this.model.updateSteps(changed, removed);
    for (;;) {
      const t0 = performance.now();
      const step = steps.next();
      this.pendingParseMs += performance.now() - t0;
      if (step.done) return;
      yield step.value;
    }
  }

  /** Computes quick fixes for diagnostics of the last run, against the current store. */
  attachFixes(diagnostics: readonly Diagnostic[]): void {
    if (!this.store) return;
    // The fixes share the analysis run's lookups (indexes built once per version).
    attachFixes(
      diagnostics,
      fixContext(this.store, (f, i) => this.model.document(f, i), this.index),
    );
  }

  async run(settings: AnalysisSettings, options: RunOptions = {}): Promise<WorkspaceResult | 'canceled'> {
    this.storeState = 'running';
    try {
      const result = await this.runInner(settings, options);
      this.storeState = 'ready';
      return result;
    } catch (e) {
      this.storeState = 'broken';
      throw e;
    }
  }

  private async runInner(settings: AnalysisSettings, options: RunOptions): Promise<WorkspaceResult | 'canceled'> {
    const parseMs = this.pendingParseMs;
    this.pendingParseMs = 0;
    const t0 = performance.now();
    // istioctl mode: only what istioctl's file reader takes (see analysis/istioctlMode.ts).
    const istioctl = settings.mode === 'istioctl' ? istioctlRun(this.model.fileList(), settings.analyzers) : undefined;
    const resources = istioctl ? istioctl.resources : this.model.resources();
    if (options.prepare) await options.prepare(resources);
    options.progress?.({ step: 'model' });
    for (const k of this.model.takeChangedKinds()) this.unanalyzedKinds.add(k);
    // The mesh config comes from one ConfigMap: unless ConfigMaps or the overrides changed, it is the same.
    const meshKey = JSON.stringify([options.meshConfigText, options.meshNetworksText, !istioctl]);
    if (!this.mesh || this.mesh.key !== meshKey || this.unanalyzedKinds.has(KINDS.ConfigMap.id)) {
      this.mesh = {
        key: meshKey,
        inputs: meshInputsFromResources(istioctl ? [] : resources, { meshConfigText: options.meshConfigText, meshNetworksText: options.meshNetworksText }),
      };
    }
    const mesh = this.mesh.inputs;
    // Mesh config and namespace/placeholder settings shape the whole store: rebuild on change.
    const storeKey = JSON.stringify([
      settings.defaultNamespace,
      settings.includePlaceholders,
      mesh.meshConfig,
      mesh.meshNetworks,
      settings.mode,
      istioctl ? settings.analyzers : null,
      settings.podCidr ?? '',
    ]);
    const podCidr = podCidrSetting(settings.podCidr);
    let changedKinds: ReadonlySet<string> | 'all';
    if (!this.store || !this.index || storeKey !== this.storeKey) {
      this.store = new ResourceStore(resources, {
        mode: 'cli',
        defaultNamespace: settings.defaultNamespace,
        includePlaceholders: settings.includePlaceholders && !istioctl,
        placeholderFlavor: 'workbench',
        deriveWorkloads: !istioctl,
        meshConfig: mesh.meshConfig,
        meshNetworks: mesh.meshNetworks,
        ...('error' in podCidr ? {} : { podCidr }),
      });
      this.index = new Lookups(this.store);
      this.readView = undefined;
      this.storeKey = storeKey;
      changedKinds = 'all';
    } else {
      const reloaded = this.store.refreshKinds(resources, this.unanalyzedKinds);
      changedKinds = new Set([...this.unanalyzedKinds, ...reloaded]);
      this.index.invalidate(changedKinds);
    }
    const store = this.store;
    const index = this.index;
    const kiali = settings.kiali === true && !istioctl;
    const suppressions = parseSuppressions(settings.suppressions, (c) => messageByCode(c) !== undefined || (kiali && isKialiCode(c)));
    // istioctl matches each -S resource as written: the legacy `name.namespace` form then matches nothing.
    if (istioctl) suppressions.rules = suppressions.rules.filter((r) => r.pattern === r.raw.slice(r.raw.indexOf('=') + 1).trim());
    let lastYield = performance.now();
    const every = options.yieldEveryMs ?? 0;
    const probe = options.probe;
    const yieldNow =
      every > 0 || probe
        ? async () => {
            probe?.();
            if (every <= 0 || performance.now() - lastYield < every) return;
            await nextTask();
            lastYield = performance.now();
          }
        : undefined;
    const { run: analyzers, skipped } = istioctl ? istioctl.partition : partitionByInputs(selectAnalyzers(settings.analyzers), absentKinds(store));
    let diagnostics: Diagnostic[];
    try {
      diagnostics = await this.session.run(store, index, analyzers, changedKinds, (f, i) => this.model.document(f, i), {
        suppressions: suppressions.rules,
        namespaceFilter: settings.namespaceFilter,
        canceled: options.canceled,
        yieldNow,
        timing: options.timing,
        ranges: options.ranges,
        renderEpoch: this.model.layoutVersion,
        ...(options.progress ? { progress: (done: number, total: number) => options.progress?.({ step: 'analyze', done, total }) } : {}),
      });
    } catch (e) {
      if (e instanceof AnalysisCanceled) return 'canceled';
      throw e;
    }
    this.unanalyzedKinds.clear();
    if (istioctl) diagnostics = diagnostics.filter((d) => isIstioCode(d.code));
    // The view for queries may hold other placeholders than the run's (see analyzedState).
    this.readView = undefined;
    // What the API server would refuse, which istioctl never reports (settings.schemaFindings).
    if (!settings.schemaFindings) diagnostics = diagnostics.filter((d) => d.code !== OWN_MESSAGES.ApiServerRejects.code);
    // The Kiali pack (KIA codes), over the same mesh, once istioctl's messages are known.
    const kialiOptions = {
      suppressions: suppressions.rules,
      namespaceFilter: settings.namespaceFilter,
      ...(settings.kialiIgnore ? { ignore: settings.kialiIgnore } : {}),
    };
    this.kialiPending = undefined;
    if (kiali && !options.deferKiali) {
      const pack = kialiDiagnostics(configView(store, index), (f, i) => this.model.document(f, i), diagnostics, kialiOptions);
      diagnostics = [...pack.istio, ...pack.kiali];
    }
    if (options.fixes === true) this.attachFixes(diagnostics);
    const problems = (settings.schemaFindings ? this.model.problems() : this.model.problems().filter((d) => d.code !== PARSER_CODES.duplicateKey)).sort(
      byFileAndLine,
    );
    const assumptions = [...mesh.notes, ...mesh.problems, ...suppressions.warnings, ...missingInputNotes(store)];
    if ('error' in podCidr) assumptions.push(`${podCidr.error}; pods are given addresses from ${DEFAULT_POD_CIDR}.`);
    if (settings.includePlaceholders && mesh.meshConfig.ingressControllerMode !== 'OFF') {
      assumptions.push(
        `Placeholder ingress gateway: Pod istio-system/${mesh.meshConfig.ingressService}-dummypod and Service istio-system/${mesh.meshConfig.ingressService} (labels app=istio-ingressgateway, istio=ingressgateway) are assumed, as Istio's default ingress chart installs them (ports 15021, 80 → 8080, 443 → 8443); analysis also assumes the two ports istioctl's placeholder has that the chart lacks (tcp 31400, tls 15443), so a Gateway on any of them is not reported as missing from the Service. The generated Envoy config follows the chart. A Service of that name in your files replaces the assumed one.`,
      );
    }
    // Gateways name a class; istiod's class controller creates the built-in ones (istio, istio-remote, istio-waypoint) when missing.
    const classNote = assumedGatewayClassesNote(configView(store, index));
    if (classNote) assumptions.push(classNote);
    if (kiali && options.deferKiali) this.kialiPending = { view: configView(store, index), problems, istio: diagnostics, options: kialiOptions };
    return {
      diagnostics: [...(istioctl ? istioctl.problems : problems), ...diagnostics],
      resources: store.all(),
      assumptions,
      executed: analyzers.map((a) => a.metadata.name),
      skipped,
      ...(istioctl ? { istioctl: istioctl.report } : {}),
      modes: Object.fromEntries(this.session.lastModes),
      stats: {
        files: this.model.fileList().length,
        documents: this.model.documentCount(),
        resources: resources.length,
        parseMs,
        analyzeMs: performance.now() - t0,
        reparsedDocuments: this.model.lastReparsed,
      },
    };
  }
}
