// Commands that open the capability views in the main area (palette: "View: …"), close the
// one on screen, and split it beside the file.
import { registerCommands, type Command } from '../../state/commands.ts';
import { useViews, VIEW_IDS, VIEW_TITLES } from '../../state/views.ts';
import { useProxyView } from '../../state/proxyView.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { query } from '../../state/queries.ts';
import { afterFirstResults } from '../../state/firstResults.ts';
import type { ProxySummary } from '../../core/queries/views.ts';

/**
 * The proxies of the latest analysis, with the YAML document each comes from, so the editor's
 * context menu can offer a workload's Envoy config without waiting for the worker.
 */
let proxies: readonly ProxySummary[] = [];
let watching = false;

function watchProxies(): void {
  if (watching) return;
  watching = true;
  const refresh = () => {
    query('proxies', {}).then(
      (r) => {
        proxies = r.items;
      },
      () => {
        proxies = [];
      },
    );
  };
  const start = () => {
    useAnalysis.subscribe((s, prev) => {
      if (s.resultVersion !== prev.resultVersion) refresh();
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
