// Commands that open the capability views in the main area (palette: "View: …"), close the
// one on screen, and split it beside the file.
import { registerCommands, type Command } from '../../state/commands.ts';
import { useViews, VIEW_IDS, VIEW_TITLES } from '../../state/views.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { fileText, useWorkspace } from '../../state/workspace.ts';
import { query } from '../../state/queries.ts';
import { textModel } from '../../state/texts.ts';
import { afterFirstResults } from '../../state/firstResults.ts';
import type { ProxySummary } from '../../core/queries/views.ts';
import { openDescribe, pickAndDescribe } from '../../state/describeView.ts';

/**
 * The proxies of the latest analysis, with the YAML document each comes from, so the editor's
 * context menu can offer a workload's Envoy config without waiting for the worker.
 */
let proxies: readonly ProxySummary[] = [];
/** Past this many proxies the editor's menu asks only for those at the cursor. */
const WATCH_ALL_PROXIES = 5000;
let watching = false;

function watchProxies(): void {
  if (watching) return;
  watching = true;
  // A mesh of up to WATCH_ALL_PROXIES proxies is kept whole; a larger one (a whole cluster) only
  // the proxies of the document at the cursor, asked again as the cursor moves.
  let large = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const atCursor = () => {
    const path = useWorkspace.getState().active;
    const line = useEditorUi.getState().cursor?.line;
    if (!path || line === undefined) return Promise.resolve({ items: [] as ProxySummary[], total: 0, matching: 0 });
    return query('proxies', { at: { file: path, line } });
  };
  const refresh = () => {
    (large ? atCursor() : query('proxies', { limit: WATCH_ALL_PROXIES })).then(
      (r) => {
        if (!large && r.matching > WATCH_ALL_PROXIES) {
          large = true;
          refresh();
          return;
        }
        proxies = r.items;
      },
      () => {
        proxies = [];
      },
    );
  };
  const start = () => {
    useAnalysis.subscribe((s, prev) => {
      if (s.resultVersion !== prev.resultVersion) {
        large = false;
        refresh();
      }
    });
    const follow = () => {
      if (!large) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(refresh, 50);
    };
    useEditorUi.subscribe((s, prev) => {
      if (s.cursor?.line !== prev.cursor?.line) follow();
    });
    useWorkspace.subscribe((s, prev) => {
      if (s.active !== prev.active) follow();
    });
    refresh();
  };
  // Not before the first results are painted: the query makes the worker load its query module.
  afterFirstResults(start);
}

/** The proxy that runs from the YAML document at the cursor (a Pod, a Deployment's pod, a gateway). */
export function proxyAtCursor(): ProxySummary | undefined {
  const path = useWorkspace.getState().active;
  const line = useEditorUi.getState().cursor?.line;
  if (!path || line === undefined) return undefined;
  const inDocument = proxies.filter((p) => p.source?.file === path && p.source.startLine <= line && line <= p.source.endLine);
  // A List's items share one document: the item at the cursor is the last one starting above it.
  let best: ProxySummary | undefined;
  for (const p of inDocument) if (p.source!.line <= line && (!best || p.source!.line > best.source!.line)) best = p;
  return best ?? inDocument[0];
}

/** Kinds whose resources select pods ("Describe selected pods" in the editor's context menu). */
const SELECTING_KINDS = new Set([
  'Pod',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'Service',
  'DestinationRule',
  'Gateway',
  'PeerAuthentication',
  'AuthorizationPolicy',
  'RequestAuthentication',
  'Telemetry',
  'WasmPlugin',
  'Sidecar',
  'EnvoyFilter',
]);

/**
 * Whether the YAML document at the cursor is (or, in a List, holds) a resource that selects
 * pods: its `kind:` lines at the top level or a List item's. Read from the text, so the menu
 * needs no worker; the worker then finds the resource and its pods exactly.
 */
/** A file's lines (0-based): from its editor model one at a time when it has one (a 60 MB file is not copied), else from its text. */
function linesOf(path: string): { count: number; at(i: number): string } {
  const model = textModel(path);
  if (model?.getLineContent && model.getLineCount) {
    const get = model.getLineContent.bind(model);
    return { count: model.getLineCount(), at: (i) => get(i + 1) };
  }
  const lines = (fileText(path) ?? '').split('\n');
  return { count: lines.length, at: (i) => lines[i] ?? '' };
}

export function selectingResourceAtCursor(): boolean {
  const path = useWorkspace.getState().active;
  const line = useEditorUi.getState().cursor?.line;
  if (!path || line === undefined) return false;
  const lines = linesOf(path);
  let start = Math.min(line, lines.count) - 1;
  while (start > 0 && !/^---/.test(lines.at(start))) start--;
  for (let i = start; i < lines.count; i++) {
    const text = lines.at(i);
    if (i > start && /^---/.test(text)) break;
    const m = /^(?:- {1,3}| {2})?kind:\s*["']?([A-Za-z]+)/.exec(text);
    if (m && SELECTING_KINDS.has(m[1] as string)) return true;
  }
  return false;
}

/** Describes the first pod the resource at the cursor selects; the view's picker lists the others. */
async function describeAtCursor(): Promise<void> {
  const path = useWorkspace.getState().active;
  const line = useEditorUi.getState().cursor?.line;
  if (!path || line === undefined) return;
  const t = await query('describeTargets', { file: path, line });
  const notify = (text: string) => useWorkspace.getState().notify({ id: 'describe', level: 'info', text });
  if (!t.resource) return notify('No resource at the cursor selects pods.');
  const first = t.pods[0];
  if (!first) return notify(`${t.resource.kind} ${t.resource.namespace}/${t.resource.name} selects no pod (${t.how}).`);
  openDescribe(first.key, t.pods.length > 1 ? { resource: t.resource, how: t.how, pods: t.pods, total: t.total } : null);
}

/** Opens the Proxy config view on a proxy. */
export function showProxyConfig(id: string): void {
  useProxyView.getState().setProxy(id);
  useViews.getState().openView('proxy');
}

export function registerViewCommands(): () => void {
  const open: Command[] = VIEW_IDS.map((id) => ({
    id: `view.open.${id}`,
    category: 'View',
    title: `Open ${VIEW_TITLES[id]}`,
    perform: () => useViews.getState().openView(id),
  }));
  watchProxies();
  return registerCommands(
    ...open,
    {
      id: 'proxy.showAtCursor',
      category: 'Proxy config',
      title: 'Show the Envoy config of this workload',
      menus: ['editor'],
      order: 30,
      when: () => proxyAtCursor() !== undefined,
      perform: () => {
        const p = proxyAtCursor();
        if (p) showProxyConfig(p.id);
      },
    },
    {
      id: 'describe.pick',
      category: 'Workloads',
      title: 'Describe a workload…',
      perform: pickAndDescribe,
    },
    {
      id: 'describe.atCursor',
      category: 'Workloads',
      title: 'Describe selected pods',
      menus: ['editor'],
      order: 31,
      when: () => selectingResourceAtCursor(),
      perform: () => describeAtCursor(),
    },
    {
      id: 'view.split',
      category: 'View',
      title: 'Split the view beside the file',
      when: () => useViews.getState().active !== null && !useViews.getState().split,
      perform: () => useViews.getState().setSplit(true),
    },
    {
      id: 'view.unsplit',
      category: 'View',
      title: 'Show the view over the editor',
      when: () => useViews.getState().active !== null && useViews.getState().split,
      perform: () => useViews.getState().setSplit(false),
    },
    {
      id: 'view.close',
      category: 'View',
      title: 'Close the view',
      when: () => useViews.getState().active !== null,
      perform: () => {
        const a = useViews.getState().active;
        if (a) useViews.getState().closeView(a);
      },
    },
  );
}
