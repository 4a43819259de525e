// LISTENER, LISTENER_FILTER, FILTER_CHAIN, NETWORK_FILTER and HTTP_FILTER patches
// (pilot/pkg/networking/core/envoyfilter/listener_patch.go). Per listener: listener
// REMOVE/MERGE, its listener filters, then each filter chain (and the default chain):
// chain REMOVE/MERGE, network filter ADD/INSERT_*/REPLACE/REMOVE then MERGE on each filter,
// and inside each HTTP connection manager the HTTP filter operations then MERGE on each HTTP
// filter. Chain ADDs follow the chains of a listener; listener ADDs come after all listeners.
import type { Json } from '../types.ts';
import { HCM_NAME, HCM_TYPE } from '../filters.ts';
import { VIRTUAL_INBOUND, VIRTUAL_OUTBOUND } from '../names.ts';
import { mark, patchRef } from '../provenance.ts';
import { mergeAnyWithAny, mergeMessage } from './protoJson.ts';
import { contextMatches, patchesFor } from './select.ts';
import { hit, note, valueCopy, type PatchRun } from './run.ts';
import type { PatchContext, PatchWrapper } from './wrapper.ts';
import { isObj } from '../../document/read.ts';

const LISTENER = 'envoy.config.listener.v3.Listener';
const FILTER_CHAIN = 'envoy.config.listener.v3.FilterChain';

function objs(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

function isMerge(p: PatchWrapper): boolean {
  return p.operation === 'MERGE' || p.operation === 'MERGE_AND_REPLACE_LIST';
}

/** Replaces the contents of `target` with `next`, keeping the object (and its provenance). */
function assignInPlace(target: Json, next: Json): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, next);
}

function isVirtual(l: Json): boolean {
  return l.name === VIRTUAL_INBOUND || l.name === VIRTUAL_OUTBOUND;
}

/** listenerMatch. */
export function listenerMatch(l: Json, p: PatchWrapper): boolean {
  const m = p.match.listener;
  if (!m) return true;
  if (m.name !== '' && m.name !== l.name) return false;
  // Virtual listeners carry the port in their chains' matches instead (see filterChainMatch).
  if (p.applyTo !== 'LISTENER' && isVirtual(l)) return true;
  if (m.portNumber !== 0) {
    const sa = isObj(l.address) && isObj(l.address.socketAddress) ? l.address.socketAddress : undefined;
    if (!sa || Number(sa.portValue ?? 0) !== m.portNumber) return false;
  }
  return true;
}

/** filterChainMatch (the listener has matched already). */
export function filterChainMatch(l: Json, fc: Json, p: PatchWrapper): boolean {
  const lm = p.match.listener;
  if (!lm) return true;
  const fcm = isObj(fc.filterChainMatch) ? fc.filterChainMatch : undefined;
  const destPort = fcm && typeof fcm.destinationPort === 'number' ? fcm.destinationPort : undefined;
  if (isVirtual(l) && lm.portNumber > 0 && (destPort ?? 0) !== lm.portNumber) return false;
  const m = lm.filterChain;
  if (!m) return true;
  if (m.name !== '' && m.name !== fc.name) return false;
  if (m.sni !== '') {
    const names = fcm && Array.isArray(fcm.serverNames) ? fcm.serverNames : [];
    if (!names.includes(m.sni)) return false;
  }
  if (m.transportProtocol !== '' && (!fcm || fcm.transportProtocol !== m.transportProtocol)) return false;
  if (m.applicationProtocols !== '') {
    if (!fcm) return false;
    const have = Array.isArray(fcm.applicationProtocols) ? fcm.applicationProtocols : [];
    for (const ap of m.applicationProtocols.split(',')) if (!have.includes(ap)) return false;
  }
  if (m.destinationPort > 0 && destPort !== m.destinationPort) return false;
  return true;
}

function hasListenerFilterMatch(p: PatchWrapper): boolean {
  return (p.match.listener?.listenerFilter ?? '') !== '';
}

function hasNetworkFilterMatch(p: PatchWrapper): boolean {
  return p.match.listener?.filterChain?.filter !== undefined;
}

function networkFilterMatch(f: Json, p: PatchWrapper): boolean {
  if (!hasNetworkFilterMatch(p)) return true;
  return p.match.listener?.filterChain?.filter?.name === f.name;
}

function hasHttpFilterMatch(p: PatchWrapper): boolean {
  return hasNetworkFilterMatch(p) && p.match.listener?.filterChain?.filter?.subFilter !== undefined;
}

function httpFilterMatch(hf: Json, p: PatchWrapper): boolean {
  if (!hasHttpFilterMatch(p)) return true;
  return p.match.listener?.filterChain?.filter?.subFilter?.name === hf.name;
}

/**
 * The list operations istiod shares between listener filters, network filters and HTTP
 * filters: ADD, INSERT_FIRST, INSERT_AFTER/INSERT_BEFORE (after/before the first match; at the
 * end/start without a match condition), REPLACE (the first match) and REMOVE (every match).
 * `parent` is marked with what happened so the generated config can say so.
 */
function listOperation(run: PatchRun, p: PatchWrapper, list: Json[], hasMatch: boolean, matches: (e: Json) => boolean, parent: Json, kind: string): Json[] {
  const label = (v: Json) => `${kind} ${typeof v.name === 'string' ? v.name : ''}`.trim();
  const insertAt = (i: number): Json[] => {
    const v = valueCopy(run, p, 'inserted');
    mark(parent, patchRef(p.resourceKey, p.fullName, p.index, 'inserted', label(v)));
    return [...list.slice(0, i), v, ...list.slice(i)];
  };
  switch (p.operation) {
    case 'ADD': {
      const v = valueCopy(run, p, 'added');
      mark(parent, patchRef(p.resourceKey, p.fullName, p.index, 'added', label(v)));
      return [...list, v];
    }
    case 'INSERT_FIRST':
      return insertAt(0);
    case 'INSERT_AFTER': {
      if (!hasMatch) return insertAt(list.length);
      const i = list.findIndex(matches);
      return i < 0 ? list : insertAt(i + 1);
    }
    case 'INSERT_BEFORE': {
      if (!hasMatch) return insertAt(0);
      const i = list.findIndex(matches);
      return i < 0 ? list : insertAt(i);
    }
    case 'REPLACE': {
      if (!hasMatch) return list;
      const i = list.findIndex(matches);
      if (i < 0) return list;
      const v = valueCopy(run, p, 'replaced');
      mark(parent, patchRef(p.resourceKey, p.fullName, p.index, 'replaced', label(list[i] as Json)));
      return [...list.slice(0, i), v, ...list.slice(i + 1)];
    }
    case 'REMOVE': {
      if (!hasMatch) return list;
      const kept = list.filter((e) => !matches(e));
      if (kept.length !== list.length) {
        hit(run, p);
        for (const e of list) if (matches(e)) mark(parent, patchRef(p.resourceKey, p.fullName, p.index, 'removed', label(e)));
      }
      return kept;
    }
    default:
      return list;
  }
}

/**
 * Filter-level MERGE (network, HTTP and listener filters): the patch's name replaces the
 * filter's when set, and its typed config is merged into the filter's as the same message.
 * Filters without a typed config are skipped, as istiod does.
 */
function mergeFilter(run: PatchRun, p: PatchWrapper, f: Json, renames: boolean): void {
  if (!isObj(f.typedConfig)) return;
  const v = p.value ?? {};
  let merged: Json | undefined;
  if (isObj(v.typedConfig)) {
    const schemaless: string[] = [];
    const r = mergeAnyWithAny(f.typedConfig, v.typedConfig, { schemaless });
    if (!r.ok && r.panics) {
      // istiod recovers from the panic by keeping the listeners as they were at that point.
      note(
        run,
        p,
        `istiod's merge into ${String(f.name)} panics (${r.reason}) and the rest of this context's listener patches are dropped; here only this filter is left as is`,
      );
      return;
    }
    // Otherwise a payload istiod cannot unpack keeps the filter's own; the name still changes.
    if (r.ok) merged = r.value;
    if (schemaless.length > 0) note(run, p, `merged ${schemaless.join(', ')} without its schema`);
  }
  if (renames && typeof v.name === 'string' && v.name !== '') f.name = v.name;
  if (merged) f.typedConfig = merged;
  hit(run, p, f, 'merged');
}

/** ApplyListenerPatches for one patch context. */
export function applyListenerPatches(run: PatchRun, pctx: PatchContext, listeners: Json[], skipAdds: boolean): Json[] {
  const removed = new Set<Json>();
  for (const l of listeners) {
    if (removed.has(l) || typeof l.name !== 'string' || l.name === '') continue;
    patchListener(run, pctx, l, removed);
  }
  const out = [...listeners];
  if (!skipAdds) {
    for (const p of patchesFor(run.merged, 'LISTENER')) {
      if (p.operation !== 'ADD') continue;
      // Without a context, a listener ADD is for sidecar outbound and gateways only.
      if (p.match.context === 'ANY' && pctx !== 'SIDECAR_OUTBOUND' && pctx !== 'GATEWAY') continue;
      if (!contextMatches(pctx, p) || !p.value) continue;
      out.push(valueCopy(run, p, 'added'));
    }
  }
  return out.filter((l) => !removed.has(l) && typeof l.name === 'string' && l.name !== '');
}

function patchListener(run: PatchRun, pctx: PatchContext, l: Json, removed: Set<Json>): void {
  for (const p of patchesFor(run.merged, 'LISTENER')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p)) continue;
    if (p.operation === 'REMOVE') {
      hit(run, p);
      run.removed.push({ kind: 'listener', name: String(l.name), patch: p });
      removed.add(l);
      return;
    }
    if (isMerge(p) && p.value) {
      assignInPlace(l, mergeMessage(l, p.value, LISTENER, { replaceList: p.operation === 'MERGE_AND_REPLACE_LIST' }));
      hit(run, p, l, 'merged');
    }
  }
  patchListenerFilters(run, pctx, l);
  patchFilterChains(run, pctx, l);
}

function patchListenerFilters(run: PatchRun, pctx: PatchContext, l: Json): void {
  for (const p of patchesFor(run.merged, 'LISTENER_FILTER')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || (!p.value && p.operation !== 'REMOVE')) continue;
    const name = p.match.listener?.listenerFilter ?? '';
    const has = hasListenerFilterMatch(p);
    const matches = (f: Json) => !has || f.name === name;
    const list = objs(l.listenerFilters);
    if (p.operation === 'MERGE') {
      if (!has) continue;
      // istiod merges into every listener filter with a typed config, whatever its name, and
      // writes the patch's name back into the patch rather than the filter.
      for (const f of list) mergeFilter(run, p, f, false);
      continue;
    }
    const next = listOperation(run, p, list, has, matches, l, 'listener filter');
    if (next.length > 0) l.listenerFilters = next;
    else delete l.listenerFilters;
  }
}

/** A chain istiod treats as absent: no filters at all (an emptied list still counts as a chain). */
function hasFilters(fc: Json): boolean {
  return Array.isArray(fc.filters);
}

function patchFilterChains(run: PatchRun, pctx: PatchContext, l: Json): void {
  const removed = new Set<Json>();
  const chains = objs(l.filterChains);
  for (const fc of chains) {
    if (!hasFilters(fc)) continue;
    patchFilterChain(run, pctx, l, fc, removed);
  }
  if (isObj(l.defaultFilterChain) && hasFilters(l.defaultFilterChain)) {
    const dfc = l.defaultFilterChain;
    patchFilterChain(run, pctx, l, dfc, removed);
    if (removed.has(dfc)) delete l.defaultFilterChain;
  }
  const added: Json[] = [];
  for (const p of patchesFor(run.merged, 'FILTER_CHAIN')) {
    if (p.operation !== 'ADD') continue;
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !p.value) continue;
    added.push(valueCopy(run, p, 'added'));
  }
  if (chains.length === 0 && added.length === 0 && !Array.isArray(l.filterChains)) return;
  const kept = [...chains, ...added].filter((fc) => !removed.has(fc) && hasFilters(fc));
  if (kept.length > 0) l.filterChains = kept;
  else delete l.filterChains;
}

function patchFilterChain(run: PatchRun, pctx: PatchContext, l: Json, fc: Json, removed: Set<Json>): void {
  for (const p of patchesFor(run.merged, 'FILTER_CHAIN')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p)) continue;
    if (p.operation === 'REMOVE') {
      hit(run, p);
      mark(l, patchRef(p.resourceKey, p.fullName, p.index, 'removed', `filter chain ${typeof fc.name === 'string' ? fc.name : ''}`.trim()));
      removed.add(fc);
      return;
    }
    if (!isMerge(p) || !p.value) continue;
    const ts = mergeChainTransportSocket(run, fc, p);
    if (ts === 'failed') continue;
    if (ts === 'not-handled') assignInPlace(fc, mergeMessage(fc, p.value, FILTER_CHAIN, { replaceList: p.operation === 'MERGE_AND_REPLACE_LIST' }));
    hit(run, p, fc, 'merged');
  }
  patchNetworkFilters(run, pctx, l, fc);
}

/**
 * mergeTransportSocketListener: a patch socket named like the chain's own is merged into it
 * (and nothing else of the patch value is); otherwise the value merges as a whole.
 */
function mergeChainTransportSocket(run: PatchRun, fc: Json, p: PatchWrapper): 'handled' | 'not-handled' | 'failed' {
  const pts = p.value?.transportSocket;
  if (!isObj(pts) || !isObj(fc.transportSocket)) return 'not-handled';
  if (fc.transportSocket.name !== pts.name) return 'not-handled';
  const dst = fc.transportSocket.typedConfig;
  const src = pts.typedConfig;
  if (isObj(dst) && isObj(src)) {
    const r = mergeAnyWithAny(dst, src);
    if (!r.ok) {
      note(run, p, `istiod's merge of a filter chain's transport socket fails (${r.reason}); the patch is skipped there`);
      return 'failed';
    }
    fc.transportSocket = { ...fc.transportSocket, typedConfig: r.value };
  }
  return 'handled';
}

function patchNetworkFilters(run: PatchRun, pctx: PatchContext, l: Json, fc: Json): void {
  for (const p of patchesFor(run.merged, 'NETWORK_FILTER')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p)) continue;
    if (isMerge(p) || (!p.value && p.operation !== 'REMOVE')) continue;
    fc.filters = listOperation(run, p, objs(fc.filters), hasNetworkFilterMatch(p), (f) => networkFilterMatch(f, p), fc, 'network filter');
  }
  for (const f of objs(fc.filters)) patchNetworkFilter(run, pctx, l, fc, f);
}

function patchNetworkFilter(run: PatchRun, pctx: PatchContext, l: Json, fc: Json, f: Json): void {
  for (const p of patchesFor(run.merged, 'NETWORK_FILTER')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p) || !networkFilterMatch(f, p)) continue;
    // Only MERGE itself: MERGE_AND_REPLACE_LIST does nothing at filter level.
    if (p.operation === 'MERGE' && p.value) mergeFilter(run, p, f, true);
  }
  if (f.name === HCM_NAME) patchHttpFilters(run, pctx, l, fc, f);
}

function patchHttpFilters(run: PatchRun, pctx: PatchContext, l: Json, fc: Json, f: Json): void {
  // istiod unpacks the typed config as an HttpConnectionManager; anything else is left alone.
  const hcm = f.typedConfig;
  if (!isObj(hcm) || hcm['@type'] !== HCM_TYPE) return;
  let filters = objs(hcm.httpFilters);
  for (const p of patchesFor(run.merged, 'HTTP_FILTER')) {
    if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p) || !networkFilterMatch(f, p)) continue;
    if (isMerge(p)) continue;
    if (!p.value && p.operation !== 'REMOVE') continue;
    filters = listOperation(run, p, filters, hasHttpFilterMatch(p), (hf) => httpFilterMatch(hf, p), fc, 'HTTP filter');
  }
  for (const hf of filters) {
    for (const p of patchesFor(run.merged, 'HTTP_FILTER')) {
      if (!contextMatches(pctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p) || !networkFilterMatch(f, p) || !httpFilterMatch(hf, p)) continue;
      if (p.operation === 'MERGE' && p.value) {
        mergeFilter(run, p, hf, true);
        mark(fc, patchRef(p.resourceKey, p.fullName, p.index, 'merged', `HTTP filter ${String(hf.name)}`));
      }
    }
  }
  const next: Json = { ...hcm };
  if (filters.length > 0) next.httpFilters = filters;
  else delete next.httpFilters;
  f.typedConfig = next;
}
