// The Proxy config view's own state, shared by the inspector's summary and the main-area view:
// the picked proxy, the sub-tab, and for each table (Routes, Clusters, …, and the compared
// dump's tables) its selected row, filter text and scroll position, so one table's open row
// never opens in another. Kept in localStorage: a reload, or a narrow window folding the panes
// into drawers, brings back the same rows.
import { create } from 'zustand';
import { readJson, writeJson } from './persistence.ts';

export const PROXY_VIEW_KEY = 'mesh-workbench/proxy-view/v1';

export type ProxySubTab = 'listeners' | 'routes' | 'clusters' | 'endpoints' | 'secrets' | 'simulate' | 'changes' | 'dump' | 'routeTests';
export const PROXY_SUB_TABS: readonly ProxySubTab[] = ['listeners', 'routes', 'clusters', 'endpoints', 'secrets', 'simulate', 'changes', 'dump', 'routeTests'];

export interface TableUiState {
  /** The selected row's key (stable across edits: a route config/vhost/index, a cluster name…). */
  selected: string | null;
  filter: string;
  scrollTop: number;
}

export interface SimForm {
  protocol: 'http' | 'http2' | 'grpc' | 'tcp' | 'tls';
  method: string;
  host: string;
  port: number;
  path: string;
  headers: string;
}

export const EMPTY_TABLE: TableUiState = { selected: null, filter: '', scrollTop: 0 };
const DEFAULT_SIM: SimForm = { protocol: 'http', method: 'GET', host: '', port: 80, path: '/', headers: '' };

export interface ProxyViewState {
  proxy: string;
  tab: ProxySubTab;
  /** Per table scope (`routes`, `dump:routes`, …). */
  tables: Record<string, TableUiState>;
  sim: SimForm;
  setProxy(id: string): void;
  setTab(tab: ProxySubTab): void;
  setTable(scope: string, patch: Partial<TableUiState>): void;
  setSim(patch: Partial<SimForm>): void;
}

type Saved = Pick<ProxyViewState, 'proxy' | 'tab' | 'tables' | 'sim'>;

function isTab(v: unknown): v is ProxySubTab {
  return typeof v === 'string' && (PROXY_SUB_TABS as readonly string[]).includes(v);
}

function readTables(v: unknown): Record<string, TableUiState> {
  const out: Record<string, TableUiState> = {};
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, t] of Object.entries(v as Record<string, unknown>)) {
    if (typeof t !== 'object' || t === null) continue;
    const x = t as Record<string, unknown>;
    out[k] = {
      selected: typeof x.selected === 'string' ? x.selected : null,
      filter: typeof x.filter === 'string' ? x.filter : '',
      scrollTop: typeof x.scrollTop === 'number' && Number.isFinite(x.scrollTop) && x.scrollTop >= 0 ? x.scrollTop : 0,
    };
  }
  return out;
}

function readSim(v: unknown): SimForm {
  if (typeof v !== 'object' || v === null) return DEFAULT_SIM;
  const x = v as Record<string, unknown>;
  const s = (k: keyof SimForm, d: string) => (typeof x[k] === 'string' ? (x[k] as string) : d);
  const protocol = ['http', 'http2', 'grpc', 'tcp', 'tls'].includes(x.protocol as string) ? (x.protocol as SimForm['protocol']) : DEFAULT_SIM.protocol;
  return {
    protocol,
    method: s('method', DEFAULT_SIM.method),
    host: s('host', ''),
    path: s('path', '/'),
    headers: s('headers', ''),
    port: typeof x.port === 'number' && Number.isFinite(x.port) ? x.port : DEFAULT_SIM.port,
  };
}

function initial(): Saved {
  const saved = readJson<Record<string, unknown>>(PROXY_VIEW_KEY);
  return {
    proxy: typeof saved?.proxy === 'string' ? saved.proxy : '',
    tab: isTab(saved?.tab) ? saved.tab : 'routes',
    tables: readTables(saved?.tables),
    sim: readSim(saved?.sim),
  };
}

function write(s: Saved): void {
  writeJson(PROXY_VIEW_KEY, { proxy: s.proxy, tab: s.tab, tables: s.tables, sim: s.sim });
}

// Scrolling changes the state at every frame: those writes wait a little (and a reload or a
// closed tab writes at once); everything else is written as it happens.
let timer: ReturnType<typeof setTimeout> | null = null;
function save(s: Saved, soon = false): void {
  if (soon) {
    timer ??= setTimeout(flush, 200);
    return;
  }
  if (timer) clearTimeout(timer);
  timer = null;
  write(s);
}
function flush(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  write(useProxyView.getState());
}
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    if (timer) flush();
  });
}

export const useProxyView = create<ProxyViewState>()((set, get) => ({
  ...initial(),
  setProxy(id) {
    if (id === get().proxy) return;
    // Rows of another proxy mean nothing here: each table starts at its top, nothing selected.
    set({ proxy: id, tables: {} });
    save(get());
  },
  setTab(tab) {
    set({ tab });
    save(get());
  },
  setTable(scope, patch) {
    const cur = get().tables[scope] ?? EMPTY_TABLE;
    const next = { ...cur, ...patch };
    if (next.selected === cur.selected && next.filter === cur.filter && next.scrollTop === cur.scrollTop) return;
    set({ tables: { ...get().tables, [scope]: next } });
    save(get(), next.selected === cur.selected && next.filter === cur.filter);
  },
  setSim(patch) {
    set({ sim: { ...get().sim, ...patch } });
    save(get());
  },
}));

/** One table's state (a stable empty one when it has none yet). */
export function useTableUi(scope: string): TableUiState {
  return useProxyView((s) => s.tables[scope] ?? EMPTY_TABLE);
}
