// CLUSTER patches (pilot/pkg/networking/core/envoyfilter/cluster_patch.go): REMOVE and MERGE
// (or MERGE_AND_REPLACE_LIST) on each generated cluster the match selects, ADD appended per
// patch context. A merge whose value has a transport socket is special: it deep-merges into
// the cluster's socket of the same name (or the same-named socket of a transport socket
// match), replaces a differently named socket, and the rest of that patch value is not merged.
import type { Json } from '../types.ts';
import { mergeAnyWithAny, mergeMessage } from './protoJson.ts';
import { contextMatches, patchesFor } from './select.ts';
import { hit, note, valueCopy, type PatchRun } from './run.ts';
import type { PatchContext, PatchWrapper } from './wrapper.ts';
import { mark, patchRef } from '../provenance.ts';
import { parseSubsetKey as parseDumpSubsetKey } from '../configdump/names.ts';
import { isObj } from '../../document/read.ts';

const CLUSTER = 'envoy.config.cluster.v3.Cluster';

/** model.ParseSubsetKey (configdump/names.ts reads it as istioctl does), with the port as a number. */
export function parseSubsetKey(s: string): { direction: string; subset: string; hostname: string; port: number } {
  const k = parseDumpSubsetKey(s);
  return { ...k, port: Number(k.port) };
}

/** clusterMatch: by name alone when given, else subset, service (the inbound cluster's services) and port. */
export function clusterMatch(cluster: Json, p: PatchWrapper, hosts: readonly string[]): boolean {
  const m = p.match.cluster;
  if (!m) return true;
  const name = typeof cluster.name === 'string' ? cluster.name : '';
  if (m.name !== '') return m.name === name;
  const k = parseSubsetKey(name);
  const hostMatches = k.direction === 'inbound' && hosts.length > 0 ? hosts : [k.hostname];
  if (m.subset !== '' && m.subset !== k.subset) return false;
  if (m.service !== '' && !hostMatches.includes(m.service)) return false;
  if (m.portNumber !== 0 && m.portNumber !== k.port) return false;
  return true;
}

/**
 * mergeTransportSocketCluster. Returns undefined when the patch has no transport socket (merge
 * the value as usual), else the cluster after the socket handling (the value is not merged).
 */
function mergeTransportSocket(run: PatchRun, c: Json, p: PatchWrapper): Json | 'panic' | undefined {
  const pts = p.value?.transportSocket;
  if (!isObj(pts)) return undefined;
  const tsms = Array.isArray(c.transportSocketMatches) ? (c.transportSocketMatches as unknown[]) : [];
  let target: { socket: Json; set: (s: Json) => void } | undefined;
  if (tsms.length > 0) {
    const i = tsms.findIndex((m) => isObj(m) && isObj(m.transportSocket) && m.transportSocket.name === pts.name);
    if (i < 0) {
      // A socket next to transport socket matches would be invalid: istiod drops the patch.
      note(run, p, `cluster ${String(c.name)} has transport socket matches and none is named ${String(pts.name)}; istiod drops this patch there`);
      return c;
    }
    const tsm = tsms[i] as Json;
    target = { socket: tsm.transportSocket as Json, set: (s) => (tsms[i] = { ...tsm, transportSocket: s }) };
  } else if (isObj(c.transportSocket) && c.transportSocket.name === pts.name) {
    const cur = c.transportSocket;
    target = { socket: cur, set: (s) => (c.transportSocket = s) };
  }
  if (!target) {
    c.transportSocket = JSON.parse(JSON.stringify(pts)) as Json;
    mark(c.transportSocket as Json, patchRef(p.resourceKey, p.fullName, p.index, 'replaced', 'transport socket'));
    return c;
  }
  const dst = target.socket.typedConfig;
  const src = pts.typedConfig;
  if (isObj(dst) && isObj(src)) {
    const schemaless: string[] = [];
    const r = mergeAnyWithAny(dst, src, { schemaless });
    if (!r.ok) {
      if (r.panics) {
        note(
          run,
          p,
          `istiod's merge of the transport socket of cluster ${String(c.name)} panics (${r.reason}); the cluster keeps what earlier patches did and no later patch applies to it`,
        );
        return 'panic';
      }
      note(run, p, `istiod cannot unpack the transport socket of cluster ${String(c.name)} (${r.reason}); the patch is skipped there`);
      return c;
    }
    if (schemaless.length > 0) note(run, p, `merged ${schemaless.join(', ')} without its schema`);
    target.set({ ...target.socket, typedConfig: r.value });
  }
  if (tsms.length > 0) c.transportSocketMatches = tsms;
  return c;
}

/** ApplyClusterMerge: the patched cluster, or undefined when a REMOVE matched it. */
export function applyClusterMerge(run: PatchRun, pctx: PatchContext, cluster: Json, hosts: readonly string[]): Json | undefined {
  let c = cluster;
  for (const p of patchesFor(run.merged, 'CLUSTER')) {
    if (p.operation === 'REMOVE' && contextMatches(pctx, p) && clusterMatch(c, p, hosts)) {
      hit(run, p);
      run.removed.push({ kind: 'cluster', name: String(c.name ?? ''), patch: p });
      return undefined;
    }
    if (p.operation !== 'MERGE' && p.operation !== 'MERGE_AND_REPLACE_LIST') continue;
    if (!contextMatches(pctx, p) || !clusterMatch(c, p, hosts)) continue;
    if (!p.value) {
      note(run, p, 'a MERGE without a value makes istiod panic; the clusters stay as generated');
      continue;
    }
    const ts = mergeTransportSocket(run, c, p);
    if (ts === 'panic') return c;
    if (ts) c = ts;
    else {
      const schemaless: string[] = [];
      const merged = mergeMessage(c, p.value, CLUSTER, { replaceList: p.operation === 'MERGE_AND_REPLACE_LIST', schemaless });
      if (schemaless.length > 0) note(run, p, `merged ${schemaless.join(', ')} without its schema`);
      // Keep the cluster's identity (its provenance marks) while taking the merged fields.
      for (const k of Object.keys(c)) delete c[k];
      Object.assign(c, merged);
    }
    hit(run, p, c, 'merged');
  }
  return c;
}

/** InsertedClusters: ADD patches for this context (a patch without context only for outbound and gateways). */
export function insertedClusters(run: PatchRun, pctx: PatchContext): Json[] {
  const out: Json[] = [];
  for (const p of patchesFor(run.merged, 'CLUSTER')) {
    if (p.operation !== 'ADD') continue;
    if (p.match.context === 'ANY' && pctx !== 'SIDECAR_OUTBOUND' && pctx !== 'GATEWAY') continue;
    if (!contextMatches(pctx, p)) continue;
    if (!p.value) {
      note(run, p, 'an ADD without a value is skipped');
      continue;
    }
    out.push(valueCopy(run, p, 'added'));
  }
  return out;
}
