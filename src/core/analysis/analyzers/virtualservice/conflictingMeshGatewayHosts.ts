// virtualservice.ConflictingMeshGatewayHostsAnalyzer: VirtualServices that apply to the mesh
// gateway (no gateways, or `mesh` among them) must not claim the same host in the same
// visibility scope. A host exported to a few namespaces also conflicts with overlapping
// hosts exported to all. Each VirtualService is reported at most once.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { EXPORT_TO_ALL, EXPORT_TO_LOCAL, MESH_GATEWAY, fullNameString, hostToFqdn, hostsOverlap, isWildcardHost } from '../../../config/hosts.ts';
import { virtualService } from '../../../config/api/networking.ts';

interface ScopedHost {
  /** `scope/fqdn`, as Istio's ScopedFqdn prints. */
  key: string;
  scope: string;
  host: string;
  /** First-appearance order of the key (our stand-in for Go's map order). */
  order: number;
  services: Resource[];
}

export const conflictingMeshGatewayHostsAnalyzer: Analyzer = {
  metadata: {
    name: 'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
    description: 'Checks that VirtualServices bound to the mesh gateway do not claim the same host',
    inputs: [KINDS.VirtualService],
  },
  analyze(ctx: AnalysisContext) {
    const hosts = meshGatewayHosts(ctx.list(KINDS.VirtualService));
    // Only hosts exported to some namespaces need the overlap index: build it on first use.
    let exportedToAll: ExportedToAllIndex | undefined;
    const exportedToAllIndex = () => (exportedToAll ??= new ExportedToAllIndex([...hosts.values()].filter((h) => h.scope === EXPORT_TO_ALL)));
    const reported = new Set<string>();
    for (const sh of hosts.values()) {
      let list = sh.services;
      if (sh.scope !== EXPORT_TO_ALL) {
        const extra = exportedToAllIndex().overlapping(sh.host);
        if (extra.length > 0) list = [...list, ...extra.flatMap((e) => e.services)];
      }
      if (list.length < 2) continue;
      const names = list.map((r) => fullNameString(r.namespace, r.name)).join(',');
      for (const vs of list) {
        if (reported.has(vs.key)) continue;
        reported.add(vs.key);
        ctx.report(MESSAGES.ConflictingMeshGatewayVirtualServiceHosts.at(vs, names, sh.key), { fieldPath: 'metadata.name', highlightPath: conflictingHostPath(vs, sh.host) });
      }
    }
  },
};

/** Where the editor points: the VirtualService's own host that is (or overlaps) the conflicting one. */
function conflictingHostPath(vs: Resource, host: string): string | undefined {
  const hosts = virtualService(vs).hosts;
  let i = hosts.findIndex((h) => hostToFqdn(vs.namespace, h) === host);
  if (i < 0) i = hosts.findIndex((h) => hostsOverlap(hostToFqdn(vs.namespace, h), host));
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

function meshGatewayHosts(services: readonly Resource[]): Map<string, ScopedHost> {
  const out = new Map<string, ScopedHost>();
  for (const vs of services) {
    for (const { scope, host, key } of meshHostsOf(vs)) {
      let e = out.get(key);
      if (!e) out.set(key, (e = { key, scope, host, order: out.size, services: [] }));
      e.services.push(vs);
    }
  }
  return out;
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
        let l = this.wildByTail.get(tail);
        if (!l) this.wildByTail.set(tail, (l = []));
        l.push(e);
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
    return [...found].sort((a, b) => a.order - b.order);
  }
}
