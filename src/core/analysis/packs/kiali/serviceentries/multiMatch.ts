// serviceentries.MultiMatchChecker (Kiali business/checkers/serviceentries/multi_match_checker.go):
// ServiceEntries declaring the same host (case-insensitively) and port number each get a check
// on that port, referencing the others: KIA1211, or KIA1212 when the ports' protocols differ.
// The ServiceEntries stay valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { serviceEntry } from '../../../../config/api/networking.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

interface PortEntry {
  se: Resource;
  portIndex: number;
  protocol: string;
}

export const serviceEntryMultiMatchChecker: KialiChecker = {
  name: 'serviceentries.MultiMatchChecker',
  kinds: [KINDS.ServiceEntry],
  codes: ['KIA1211', 'KIA1212'],
  run(ctx: KialiContext) {
    const index = new Map<string, PortEntry[]>();
    for (const se of ctx.serviceEntries) {
      const spec = serviceEntry(se);
      spec.ports.forEach((port, portIndex) => {
        for (const host of spec.hosts) {
          const key = `${host.toLowerCase()}|${port.number}`;
          const entry = { se, portIndex, protocol: port.protocol.toUpperCase() };
          const list = index.get(key);
          if (list) list.push(entry);
          else index.set(key, [entry]);
        }
      });
    }
    const results = new GroupResults();
    for (const entries of index.values()) {
      if (entries.length < 2) continue;
      const conflict = entries.some((e) => e.protocol !== entries[0]?.protocol);
      const checkId = conflict ? 'serviceentries.port.protocol.conflict' : 'serviceentries.multimatch';
      entries.forEach((e, i) => {
        const refs = entries.filter((_, j) => j !== i).map((o) => `${o.se.namespace}/${o.se.name}`);
        results.add(e.se, buildCheck(checkId, `spec/ports[${e.portIndex}]`), true, refs);
      });
    }
    return results.list();
  },
};
