// serviceentry.ConflictingServiceEntryProtocolAnalyzer: ServiceEntries visible in the same
// scope that declare the same host and port with different protocols (IST0177). Entries
// exported to all namespaces take part in every namespace scope. Each ServiceEntry is
// reported once, for the first conflict found.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { fullNameString, EXPORT_TO_ALL, EXPORT_TO_LOCAL } from '../../../config/hosts.ts';
import { serviceEntry } from '../../../config/api/networking.ts';

interface Entry {
  protocol: string;
  se: Resource;
  /** Index of the port in spec.ports. */
  port: number;
}

interface Key {
  scope: string;
  host: string;
  port: number;
  entries: Entry[];
}

/** The scopes a ServiceEntry is visible in: `*`, or the namespaces of its exportTo. */
function exportScopes(exportTo: readonly string[], namespace: string): Set<string> {
  if (exportTo.length === 0 || exportTo.includes(EXPORT_TO_ALL)) return new Set([EXPORT_TO_ALL]);
  return new Set(exportTo.map((e) => (e === EXPORT_TO_LOCAL ? namespace : e)));
}

const keyOf = (scope: string, host: string, port: number) => `${scope}\u0000${host}\u0000${port}`;

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const conflictingServiceEntryProtocolAnalyzer: Analyzer = {
  metadata: {
    name: 'serviceentry.ConflictingServiceEntryProtocolAnalyzer',
    description: 'Checks that ServiceEntries sharing a host and port agree on its protocol',
    inputs: [KINDS.ServiceEntry],
  },
  analyze(ctx) {
    const index = new Map<string, Key>();
    for (const se of ctx.list(KINDS.ServiceEntry)) {
      const spec = serviceEntry(se);
      for (const scope of exportScopes(spec.exportTo, se.namespace)) {
        for (const host of spec.hosts) {
          spec.ports.forEach((p, i) => {
            const port = p.number;
            const k = keyOf(scope, host, port);
            let key = index.get(k);
            if (!key) index.set(k, (key = { scope, host, port, entries: [] }));
            key.entries.push({ protocol: p.protocol, se, port: i });
          });
        }
      }
    }

    const reported = new Set<string>();
    for (const key of index.values()) {
      let entries = key.entries;
      if (key.scope !== EXPORT_TO_ALL) {
        const shared = index.get(keyOf(EXPORT_TO_ALL, key.host, key.port));
        if (shared) entries = entries.concat(shared.entries);
      }
      const protocols = new Set(entries.map((e) => e.protocol.toUpperCase()));
      if (protocols.size < 2) continue;
      // Nothing left to report for this key: skip building its texts.
      if (entries.every((e) => reported.has(e.se.key))) continue;
      const names = [...new Set(entries.map((e) => fullNameString(e.se.namespace, e.se.name)))].sort(byName).join(', ');
      const protocolText = [...protocols].sort(byName).join(', ');
      for (const e of entries) {
        if (reported.has(e.se.key)) continue;
        reported.add(e.se.key);
        // The port's protocol (its number when it declares none).
        ctx.report(MESSAGES.ConflictingServiceEntryProtocol.at(e.se, names, key.host, key.port, protocolText), {
          fieldPath: 'metadata.name',
          highlightPath: `spec.ports[${e.port}].${e.protocol !== '' ? 'protocol' : 'number'}`,
        });
      }
    }
  },
};
