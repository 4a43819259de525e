// gateway.ConflictingGatewayAnalyzer: Gateways that reach the same workload (same selector,
// or selectors whose texts contain one another and that select a common pod) must not define
// the same host with the same bind on the same port (IST0145, listing the other Gateways).
// A Gateway with a selector that no Gateway with servers shares gets IST0101.
//
// Istio's CheckDuplicates also records the hosts of a non-conflicting server into the other
// Gateway's host table, which makes its result depend on Go's random map iteration order;
// we report the order-independent pairwise conflicts.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { firstSelectorKey, keySegment, selectorMatches, selectorString, type LabelMap } from '../../../config/labels.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { gateway, type Server } from '../../../config/api/networking.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { listAt, mapAt, setAt } from '../../../document/maps.ts';

/** One selector text seen on Gateways with servers, and what Istio parses back from it. */
interface SelectorEntry {
  text: string;
  parsed: LabelMap;
  /** port → host → bind → gateway full names (each Gateway's last server on the port wins). */
  ports: Map<string, Map<string, Map<string, Set<string>>>>;
}

/** Istio's parseSelectorFromString: `k=v` pairs split on `,`; malformed pairs are dropped. */
function parseSelectorText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const kv = part.split('=');
    if (kv.length === 2) out[kv[0]!] = kv[1]!;
  }
  return out;
}

function portText(server: Server): string {
  return `${server.port?.number ?? 0}`;
}

const labelPair = (k: string, v: string) => `${k}\u0000${v}`;

function buildSelectorTable(gateways: readonly Resource[]): Map<string, SelectorEntry> {
  // Per Gateway and port, the host→bind table of its last server on that port.
  const table = new Map<string, SelectorEntry>();
  for (const gw of gateways) {
    const { servers, selector } = gateway(gw);
    if (servers.length === 0) continue;
    const text = selectorString(selector);
    let entry = table.get(text);
    if (!entry) table.set(text, (entry = { text, parsed: parseSelectorText(text), ports: new Map() }));
    const name = fullNameString(gw.namespace, gw.name);
    const lastByPort = new Map<string, Map<string, string>>();
    for (const server of servers) {
      const hb = new Map<string, string>();
      for (const h of server.hosts) hb.set(h, server.bind);
      lastByPort.set(portText(server), hb);
    }
    for (const [port, hb] of lastByPort) {
      const hosts = mapAt(entry.ports, port);
      for (const [h, bind] of hb) {
        const binds = mapAt(hosts, h);
        setAt(binds, bind).add(name);
      }
    }
  }
  return table;
}

interface ConflictIndex {
  table: Map<string, SelectorEntry>;
  /** Selector entries by one label pair of their parsed selector; '' key holds empty selectors. */
  byPair: Map<string, SelectorEntry[]>;
  /** Selector text → the entries it shares a workload with (memo). */
  related: Map<string, SelectorEntry[]>;
}

function conflictIndex(ctx: AnalysisContext): ConflictIndex {
  return ctx.lookups.cached(
    'gateway.conflicting.index',
    (store) => {
      const table = buildSelectorTable(store.list(KINDS.Gateway));
      const byPair = new Map<string, SelectorEntry[]>();
      for (const e of table.values()) {
        const first = Object.entries(e.parsed)[0];
        const key = first ? labelPair(first[0], first[1]) : '';
        listAt(byPair, key).push(e);
      }
      return { table, byPair, related: new Map() };
    },
    [KINDS.Pod],
  );
}

/**
 * The selector entries a Gateway with this selector is compared with: its own text, and any
 * text containing it (or contained in it) whose parsed selector matches a pod the Gateway's
 * selector also matches.
 */
function relatedEntries(ctx: AnalysisContext, index: ConflictIndex, selector: LabelMap, text: string): SelectorEntry[] {
  const hit = index.related.get(text);
  if (hit) return hit;
  const out = new Set<SelectorEntry>();
  const own = index.table.get(text);
  if (own) out.add(own);
  const seenLabelSets = new Set<string>();
  for (const pod of podsSelectedBy(ctx, selector)) {
    const labelKey = selectorString(pod.labels);
    if (seenLabelSets.has(labelKey)) continue;
    seenLabelSets.add(labelKey);
    const candidates = [...(index.byPair.get('') ?? [])];
    for (const [k, v] of Object.entries(pod.labels)) candidates.push(...(index.byPair.get(labelPair(k, v)) ?? []));
    for (const e of candidates) {
      if (out.has(e) || e.text === text) continue;
      if (!e.text.includes(text) && !text.includes(e.text)) continue;
      if (selectorMatches(e.parsed, pod.labels)) out.add(e);
    }
  }
  const list = [...out];
  index.related.set(text, list);
  return list;
}

export const conflictingGatewayAnalyzer: Analyzer = {
  metadata: {
    name: 'gateway.ConflictingGatewayAnalyzer',
    description: 'Checks that Gateways on the same workload and port do not claim the same hosts',
    inputs: [KINDS.Gateway, KINDS.Pod],
  },
  analyze(ctx) {
    const index = conflictIndex(ctx);
    for (const gw of ctx.list(KINDS.Gateway)) {
      const spec = gateway(gw);
      const text = selectorString(spec.selector);
      const related = relatedEntries(ctx, index, spec.selector, text);
      if (text !== '' && related.length === 0) {
        const label = firstSelectorKey(text);
        ctx.report(MESSAGES.ReferencedResourceNotFound.at(gw, 'selector', text), { fieldPath: `spec.selector${keySegment(label)}` });
        continue;
      }
      const name = fullNameString(gw.namespace, gw.name);
      spec.servers.forEach((server, i) => {
        const port = portText(server);
        const { hosts, bind } = server;
        const conflicting = new Set<string>();
        // Index of the first host another Gateway also claims (where the squiggle goes).
        let firstHost = -1;
        for (const e of related) {
          const table = e.ports.get(port);
          if (!table) continue;
          hosts.forEach((h, k) => {
            for (const other of table.get(h)?.get(bind) ?? []) {
              if (other === name) continue;
              conflicting.add(other);
              if (firstHost < 0 || k < firstHost) firstHost = k;
            }
          });
        }
        if (conflicting.size === 0) return;
        const names = [...conflicting].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        ctx.report(MESSAGES.ConflictingGateways.at(gw, names.join(','), text, port, hosts.join(',')), {
          highlightPath: `spec.servers[${i}].hosts[${firstHost}]`,
        });
      });
    }
  },
};
