// The xDS views: the proxies of the mesh, the config dump generated for one of them (with the
// provenance of each listener, filter chain, route configuration, virtual host, route, cluster
// and endpoint set, resolved to file lines), and the request simulator.
import { listProxies, findProxy, proxyForPod, type ProxyRef } from '../xds/proxy.ts';
import { generateForProxy, type GeneratedConfig } from '../xds/generate.ts';
import { configDump } from '../xds/dump.ts';
import { externalSdsResources, resolveProxySecret, type ProxySecret } from '../xds/secrets.ts';
import { simulateRequest, REQUEST_PROTOCOLS, type RequestProtocol } from '../xds/request.ts';
import type { ProvenanceRef } from '../xds/types.ts';
import type { ProvenanceTable } from '../xds/provenance.ts';
import { kindById } from '../document/kinds.ts';
import { locateInDocument, parseFieldPath } from '../document/locate.ts';
import type { ConfigView } from '../config/configView.ts';
import { argBag, documentHoldsLine, optOneOf, optString, QueryError, sourceLocation, type QueryState } from './common.ts';
import { parseResourceKey } from './resource.ts';
import type { ProxiesResult, ProxyConfigResult, ProxySecretInfo, ProxySummary, ResolvedProvenance, SimulateResult } from './views.ts';

/**
 * The resource whose findings a proxy's config shows, as a finding's origin (`Kind ns/name`):
 * a pod from the files is its own; a derived pod stands for what it was derived from (a
 * controller, or a Gateway istiod deploys).
 */
function proxyOrigin(p: ProxyRef): string | undefined {
  if (p.pod.synthetic !== 'derived') return `Pod ${p.pod.namespace}/${p.pod.name}`;
  const from = p.pod.derivedFrom;
  return from ? `${from.kind} ${from.namespace}/${from.name}` : undefined;
}

function summary(p: ProxyRef, state: QueryState): ProxySummary {
  const out: ProxySummary = {
    id: p.id,
    type: p.type,
    namespace: p.pod.namespace,
    name: p.pod.name,
    syntheticAddress: p.syntheticAddress,
    derived: p.pod.synthetic === 'derived',
  };
  const from = p.pod.derivedFrom;
  if (out.derived && from) out.derivedFrom = `${from.kind} ${from.namespace}/${from.name}`;
  const origin = proxyOrigin(p);
  if (origin !== undefined) out.origin = origin;
  const src = sourceLocation(p.pod, state);
  if (src) out.source = src;
  return out;
}

export function answerProxies(raw: unknown, state: QueryState): ProxiesResult {
  const all = listProxies(state.view);
  const bag = argBag(raw);
  const origins = bag.origins;
  const at = bag.at;
  if (typeof at === 'object' && at !== null && typeof (at as { file?: unknown }).file === 'string' && typeof (at as { line?: unknown }).line === 'number') {
    // The proxies that run from the document at a file line (the editor's cursor).
    const { file, line } = at as { file: string; line: number };
    // Only the proxies from the document at that line are located to their lines (a cluster's
    // dump is one List of 100,000).
    const items = all
      .filter((p) => documentHoldsLine(p.pod, state, file, line))
      .map((p) => summary(p, state))
      .filter((p) => p.source?.file === file && p.source.startLine <= line && line <= p.source.endLine);
    return { items, total: all.length, matching: items.length };
  }
  if (!Array.isArray(origins)) {
    const limit = typeof bag.limit === 'number' && Number.isFinite(bag.limit) ? Math.max(0, Math.trunc(bag.limit)) : undefined;
    if (limit === undefined && bag.search === undefined && bag.include === undefined)
      return { items: all.map((p) => summary(p, state)), total: all.length, matching: all.length };
    // A picker's page: the proxies whose id holds `search` (case aside), at most `limit`, and the
    // one it has picked (`include`) first when it exists and is not among them.
    const needle = (optString(bag, 'search') ?? '').trim().toLowerCase();
    const include = optString(bag, 'include');
    const matching = needle === '' ? all : all.filter((p) => p.id.toLowerCase().includes(needle));
    const shown = matching.slice(0, limit ?? matching.length);
    const picked = include ? all.find((p) => p.id === include) : undefined;
    if (picked && !shown.includes(picked)) shown.unshift(picked);
    return { items: shown.map((p) => summary(p, state)), total: all.length, matching: matching.length };
  }
  // Only the proxy of each origin asked for (a Problems row's resource): a pod is its own, a
  // controller's is its first pod. A whole cluster has 100,000 proxies; a screen of rows, a few.
  const wanted = new Set(origins.filter((o): o is string => typeof o === 'string'));
  const found = new Set<string>();
  const items: ProxySummary[] = [];
  for (const p of all) {
    const origin = proxyOrigin(p);
    if (origin === undefined || !wanted.has(origin) || found.has(origin)) continue;
    found.add(origin);
    items.push(summary(p, state));
  }
  return { items, total: all.length, matching: items.length };
}

function proxyArg(raw: unknown, state: QueryState, view: string): ProxyRef {
  const id = optString(argBag(raw), 'proxy');
  if (id === undefined || id === '') throw new QueryError(`The ${view} query needs a proxy (e.g. "productpage-v1-abc.default").`);
  const p = findProxy(state.view, id);
  if (!p) throw new QueryError(`No proxy "${id}" in the workspace (proxies are injected pods, gateways and waypoints).`);
  return p;
}

/** Generation for one proxy, once per analyzed version. */
function generated(view: ConfigView, p: ProxyRef): GeneratedConfig {
  return view.lookups.cached(`xds.generated:${p.id}`, () => generateForProxy(view, proxyForPod(view, p)));
}

function resolveRef(r: ProvenanceRef, state: QueryState, cache: Map<string, ResolvedProvenance>): ResolvedProvenance {
  const key = `${r.resourceKey}\u0000${r.fieldPath ?? ''}\u0000${r.note ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out: ResolvedProvenance = { resourceKey: r.resourceKey };
  if (r.fieldPath) out.fieldPath = r.fieldPath;
  if (r.note) out.note = r.note;
  const parsed = r.resourceKey ? parseResourceKey(r.resourceKey) : undefined;
  const info = parsed && kindById(parsed.kindId);
  const res = parsed && info ? state.view.find(info, parsed.namespace, parsed.name) : undefined;
  if (res) {
    out.kind = res.gvk.kind;
    out.namespace = res.namespace;
    out.name = res.name;
    const src = res.source;
    const loc = sourceLocation(res, state);
    if (src && loc) {
      out.file = loc.file;
      out.line = loc.line;
      const doc = state.document(src.file, src.docIndex);
      if (doc && !doc.isJson && r.fieldPath && !src.templatePath) {
        const prefix: (string | number)[] = src.itemIndex !== undefined ? ['items', src.itemIndex] : [];
        try {
          const at = locateInDocument(doc, [...prefix, ...parseFieldPath(r.fieldPath)]);
          if (at) out.line = (at.key ?? at.value).startLine;
        } catch {
          // An unreadable path keeps the resource's line.
        }
      }
    }
  }
  cache.set(key, out);
  return out;
}

export function answerProxyConfig(raw: unknown, state: QueryState): ProxyConfigResult {
  const p = proxyArg(raw, state, 'proxyConfig');
  const gen = generated(state.view, p);
  const secrets = new Map<string, ProxySecret>();
  const external = externalSdsResources(gen.listeners, gen.clusters);
  const d = configDump(gen, {
    secret: (name) => {
      const s = resolveProxySecret(state.view, gen.proxy, name, external);
      secrets.set(name, s);
      return { secret: s.secret, warming: !s.served };
    },
  });
  const cache = new Map<string, ResolvedProvenance>();
  const provenance = {} as ProxyConfigResult['provenance'];
  for (const [table, entries] of Object.entries(d.provenance) as [keyof ProvenanceTable, Record<string, ProvenanceRef[]>][]) {
    const t: Record<string, ResolvedProvenance[]> = {};
    for (const [k, refs] of Object.entries(entries)) t[k] = refs.map((r) => resolveRef(r, state, cache));
    provenance[table] = t;
  }
  const secretInfo: ProxySecretInfo[] = [...secrets.values()].map((s) => ({
    name: s.name,
    source: s.source,
    role: s.role,
    served: s.served,
    note: s.note,
    ...(s.ref ? { ref: { ...s.ref } } : {}),
    ...(s.resourceKey ? { from: resolveRef({ resourceKey: s.resourceKey }, state, cache) } : {}),
  }));
  return { proxy: summary(p, state), dump: d.dump, provenance, notes: [...d.notes], secrets: secretInfo };
}

export function answerSimulate(raw: unknown, state: QueryState): SimulateResult {
  const bag = argBag(raw);
  const p = proxyArg(raw, state, 'simulate');
  const host = optString(bag, 'host') ?? '';
  if (host.trim() === '') throw new QueryError('The simulate query needs a destination host or IP.');
  const portRaw = bag.port;
  const port = typeof portRaw === 'number' ? portRaw : typeof portRaw === 'string' ? Number(portRaw) : NaN;
  const headers: Record<string, string> = {};
  const hb = argBag(bag.headers);
  for (const k of Object.keys(hb)) if (typeof hb[k] === 'string') headers[k] = hb[k] as string;
  const gen = generated(state.view, p);
  const result = simulateRequest(state.view, gen, {
    host,
    port,
    protocol: optOneOf<RequestProtocol>(bag, 'protocol', REQUEST_PROTOCOLS) ?? 'http',
    method: optString(bag, 'method') ?? 'GET',
    path: optString(bag, 'path') ?? '/',
    headers,
    ...(optString(bag, 'sni') ? { sni: optString(bag, 'sni')! } : {}),
  });
  const cache = new Map<string, ResolvedProvenance>();
  return { proxy: p.id, ...result, steps: result.steps.map((s) => (s.ref ? { ...s, source: resolveRef(s.ref, state, cache) } : s)) };
}
