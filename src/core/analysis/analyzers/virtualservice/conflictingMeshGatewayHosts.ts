// virtualservice.ConflictingMeshGatewayHostsAnalyzer: VirtualServices that apply to the mesh
// gateway (no gateways, or `mesh` among them) must not claim the same host in the same
// visibility scope. A host exported to a few namespaces also conflicts with overlapping
// hosts exported to all. Each VirtualService is reported at most once.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { EXPORT_TO_ALL, EXPORT_TO_LOCAL, MESH_GATEWAY, fullNameString, hostToFqdn, hostMatches, isWildcardHost } from '../../../config/hosts.ts';
import { virtualService } from '../../../config/api/networking.ts';
import { followList } from '../../followList.ts';
import { listAt } from '../../../document/maps.ts';

interface ScopedHost {
  /** `scope/fqdn`, as Istio's ScopedFqdn prints. */
  key: string;
  scope: string;
  host: string;
  /** The VirtualServices claiming it, in list order (a VirtualService may claim it twice). */
  members: Array<{ vs: Resource; slot: number; hostIndex: number }>;
}

/**
 * Where the key first appears (our stand-in for Go's map order): the list position of the
 * first VirtualService claiming it, then the host's place in that VirtualService.
 */
function orderOf(h: ScopedHost): number {
  const first = h.members[0];
  return first ? first.slot * 65536 + Math.min(first.hostIndex, 65535) : Infinity;
}

function byOrder(a: ScopedHost, b: ScopedHost): number {
  return orderOf(a) - orderOf(b);
}

/**
 * The mesh-gateway hosts of all VirtualServices, kept per workspace (by its lookups object)
 * and updated for the VirtualServices that changed place-for-place (an edit), so a keystroke
 * does not rebuild a table of every host.
 */
interface HostTable {
  hosts: Map<string, ScopedHost>;
  /** Hosts claimed more than once. */
  shared: Set<ScopedHost>;
  /** Hosts visible only in some namespaces (they may overlap hosts exported to all). */
  scoped: Set<ScopedHost>;
}

const tables = new WeakMap<object, { list: Resource[]; state: HostTable }>();

function meshHostTable(ctx: AnalysisContext): HostTable {
  return followList<HostTable>(ctx, KINDS.VirtualService, tables, {
    create: () => ({ hosts: new Map(), shared: new Set(), scoped: new Set() }),
    add: addClaims,
    remove: removeClaims,
  });
}

function classify(table: HostTable, h: ScopedHost): void {
  if (h.members.length === 0) {
    table.hosts.delete(h.key);
    table.shared.delete(h);
    table.scoped.delete(h);
    return;
  }
  if (h.members.length > 1) table.shared.add(h);
  else table.shared.delete(h);
  if (h.scope !== EXPORT_TO_ALL) table.scoped.add(h);
}

function addClaims(table: HostTable, vs: Resource, slot: number): void {
  meshHostsOf(vs).forEach(({ scope, host, key }, hostIndex) => {
    let h = table.hosts.get(key);
    if (!h) table.hosts.set(key, (h = { key, scope, host, members: [] }));
    let at = h.members.length;
    while (
      at > 0 &&
      ((h.members[at - 1] as { slot: number }).slot > slot ||
        ((h.members[at - 1] as { slot: number }).slot === slot && (h.members[at - 1] as { hostIndex: number }).hostIndex > hostIndex))
    )
      at--;
    h.members.splice(at, 0, { vs, slot, hostIndex });
    classify(table, h);
  });
}

function removeClaims(table: HostTable, vs: Resource, slot: number): void {
  for (const { key } of meshHostsOf(vs)) {
    const h = table.hosts.get(key);
    if (!h) continue;
    h.members = h.members.filter((m) => !(m.slot === slot && m.vs === vs));
    classify(table, h);
  }
}

export const conflictingMeshGatewayHostsAnalyzer: Analyzer = {
  metadata: {
    name: 'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
    description: 'Checks that VirtualServices bound to the mesh gateway do not claim the same host',
    inputs: [KINDS.VirtualService],
  },
  analyze(ctx: AnalysisContext) {
    const table = meshHostTable(ctx);
    // Only hosts exported to some namespaces need the overlap index: build it on first use.
    let exportedToAll: ExportedToAllIndex | undefined;
    const exportedToAllIndex = () =>
      (exportedToAll ??= new ExportedToAllIndex([...table.hosts.values()].filter((h) => h.scope === EXPORT_TO_ALL).sort(byOrder)));
    const reported = new Set<string>();
    // Only hosts claimed twice, or exported to some namespaces, can conflict.
    const candidates = [...new Set([...table.shared, ...table.scoped])].sort(byOrder);
    for (const sh of candidates) {
      let list = sh.members.map((m) => m.vs);
      if (sh.scope !== EXPORT_TO_ALL) {
        const extra = exportedToAllIndex().overlapping(sh.host);
        if (extra.length > 0) list = [...list, ...extra.flatMap((e) => e.members.map((m) => m.vs))];
      }
      if (list.length < 2) continue;
      // Istio's combineResourceEntryNames sorts the names.
      const names = list
        .map((r) => fullNameString(r.namespace, r.name))
        .sort()
        .join(',');
      for (const vs of list) {
        if (reported.has(vs.key)) continue;
        reported.add(vs.key);
        ctx.report(MESSAGES.ConflictingMeshGatewayVirtualServiceHosts.at(vs, names, sh.key), {
          fieldPath: 'metadata.name',
          highlightPath: conflictingHostPath(vs, sh.host),
        });
      }
    }
  },
};

/** Where the editor points: the VirtualService's own host that is (or overlaps) the conflicting one. */
function conflictingHostPath(vs: Resource, host: string): string | undefined {
  const hosts = virtualService(vs).hosts;
  let i = hosts.findIndex((h) => hostToFqdn(vs.namespace, h) === host);
  if (i < 0) i = hosts.findIndex((h) => hostMatches(hostToFqdn(vs.namespace, h), host));
  return i < 0 ? undefined : `spec.hosts[${i}]`;
}

function appliesToMesh(gateways: readonly string[]): boolean {
  return gateways.length === 0 || gateways.includes(MESH_GATEWAY);
}

/** The scopes a VirtualService's hosts are visible in: `*`, or its exportTo namespaces. */
function scopesOf(vs: Resource, exportTo: readonly string[]): string[] {
  if (exportTo.length === 0 || exportTo.includes(EXPORT_TO_ALL)) return [EXPORT_TO_ALL];
  const out = new Set<string>();
  for (const e of exportTo) out.add(e === EXPORT_TO_LOCAL ? vs.namespace : e);
  return [...out];
}

/** A VirtualService's mesh-gateway hosts as (scope, fqdn, key); resources never change, so this is kept per resource. */
const hostsOfService = new WeakMap<Resource, Array<{ scope: string; host: string; key: string }>>();

function meshHostsOf(vs: Resource): Array<{ scope: string; host: string; key: string }> {
  let list = hostsOfService.get(vs);
  if (list) return list;
  list = [];
  const spec = virtualService(vs);
  if (appliesToMesh(spec.gateways)) {
    for (const scope of scopesOf(vs, spec.exportTo)) {
      for (const h of spec.hosts) {
        const host = hostToFqdn(vs.namespace, h);
        list.push({ scope, host, key: `${scope}/${host}` });
      }
    }
  }
  hostsOfService.set(vs, list);
  return list;
}

function reversed(s: string): string {
  return s.split('').reverse().join('');
}

/** Strings that end with a given suffix, found by binary search over their reversals. */
class SuffixSearch<T> {
  private readonly items: Array<{ rev: string; value: T }>;

  constructor(entries: Array<[string, T]>) {
    this.items = entries.map(([s, value]) => ({ rev: reversed(s), value }));
    this.items.sort((a, b) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0));
  }

  endingWith(suffix: string, fn: (value: T) => void): void {
    const prefix = reversed(suffix);
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.items[mid] as { rev: string }).rev < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.items.length; i++) {
      const it = this.items[i] as { rev: string; value: T };
      if (!it.rev.startsWith(prefix)) break;
      fn(it.value);
    }
  }
}

/**
 * The hosts exported to all namespaces, searchable by Istio's host overlap rule
 * (host.Name.Matches) without comparing every pair.
 */
class ExportedToAllIndex {
  private readonly exact = new Map<string, ScopedHost>();
  /** Wildcard entries by the part after `*`. */
  private readonly wildByTail = new Map<string, ScopedHost[]>();
  private readonly plainSearch: SuffixSearch<ScopedHost>;
  private readonly wildTailSearch: SuffixSearch<ScopedHost>;

  constructor(entries: ScopedHost[]) {
    const plain: Array<[string, ScopedHost]> = [];
    const wild: Array<[string, ScopedHost]> = [];
    for (const e of entries) {
      if (isWildcardHost(e.host)) {
        const tail = e.host.slice(1);
        listAt(this.wildByTail, tail).push(e);
        wild.push([tail, e]);
      } else {
        this.exact.set(e.host, e);
        plain.push([e.host, e]);
      }
    }
    this.plainSearch = new SuffixSearch(plain);
    this.wildTailSearch = new SuffixSearch(wild);
  }

  /** Entries whose host overlaps `host`, in first-appearance order. */
  overlapping(host: string): ScopedHost[] {
    const found = new Set<ScopedHost>();
    const byTailSuffixes = (s: string) => {
      // wildcard entries `*<tail>` where `s` ends with <tail>
      for (let i = 0; i <= s.length; i++) for (const e of this.wildByTail.get(s.slice(i)) ?? []) found.add(e);
    };
    if (isWildcardHost(host)) {
      const tail = host.slice(1);
      this.plainSearch.endingWith(tail, (e) => found.add(e));
      this.wildTailSearch.endingWith(tail, (e) => found.add(e));
      byTailSuffixes(tail);
    } else {
      const e = this.exact.get(host);
      if (e) found.add(e);
      byTailSuffixes(host);
    }
    return [...found].sort(byOrder);
  }
}
