// Conformance part xds/istioctl: istioctl's proxy-config goldens (writer/envoy/configdump and
// proxyconfig testdata) rendered by src/core/xds/configdump and compared byte for byte. The
// secrets' VALID CERT column depends on the clock: we pin it to PINNED_NOW, a date inside the
// window both secret goldens assume (README 1.1: ROOTCA valid, the workload certificates expired).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { istioctlChecks } from './parts.ts';
import type { CaseResult } from './types.ts';
import { renderAll } from '../../src/core/xds/configdump/all.ts';
import { readConfigDump, type ConfigDump } from '../../src/core/xds/configdump/dump.ts';
import { ecdsTable, versionSummary, versionSummaryText } from '../../src/core/xds/configdump/ecds.ts';
import { edsTable, type EndpointFilter } from '../../src/core/xds/configdump/endpoints.ts';
import { bootstrapDump, ecdsDump, edsDump } from '../../src/core/xds/configdump/output.ts';
import { loadProtoSchema, type ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { PROTO_SCHEMA_JSON } from '../../src/core/xds/configdump/protoSchema.data.ts';
import { routeTable } from '../../src/core/xds/configdump/routes.ts';
import { secretSummary, secretSummaryText } from '../../src/core/xds/configdump/secrets.ts';
import { tableText } from '../../src/core/xds/configdump/table.ts';

export const PINNED_NOW = new Date('2025-01-01T00:00:00Z');

const CONFIGDUMP = (root: string) => join(root, 'xds', 'istioctl', 'pkg', 'writer', 'envoy', 'configdump', 'testdata');
const PROXYCONFIG = (root: string) => join(root, 'xds', 'istioctl', 'pkg', 'proxyconfig', 'testdata');

let schema: ProtoSchema | undefined;
function protoSchema(): ProtoSchema {
  return (schema ??= loadProtoSchema(PROTO_SCHEMA_JSON));
}

function load(path: string): ConfigDump {
  const r = readConfigDump(readFileSync(path, 'utf8'));
  if (!r.ok) throw new Error(r.error);
  return r.dump;
}

const FILTERS: Record<string, EndpointFilter> = { emptyfilter: {}, portfilter: { port: 8080 } };

/** What we print for one check, and the golden file it is compared with. */
export function renderIstioctlCheck(root: string, check: string): { got: string; goldenPath: string } {
  const cd = CONFIGDUMP(root);
  const [group, rest = ''] = check.split(/\/(.*)/s) as [string, string?];
  switch (group) {
    case 'routes':
      return {
        got: tableText(routeTable(load(join(cd, 'routes', rest, 'configdump.json')), { verbose: true })),
        goldenPath: join(cd, 'routes', rest, 'output.txt'),
      };
    case 'endpoint': {
      const m = /^(\w+)_output\.(txt|json|yaml)$/.exec(rest);
      if (!m || !FILTERS[m[1]!]) throw new Error(`unknown endpoint golden ${rest}`);
      const dump = load(join(cd, 'endpoint', 'configdump.json'));
      const filter = FILTERS[m[1]!]!;
      const got = m[2] === 'txt' ? tableText(edsTable(dump, filter)) : edsDump(dump, filter, protoSchema(), m[2] as 'json' | 'yaml');
      return { got, goldenPath: join(cd, 'endpoint', rest) };
    }
    case 'secret':
      return {
        got: secretSummaryText(secretSummary(load(join(cd, 'secret', rest, 'config_dump.json')), { now: PINNED_NOW })),
        goldenPath: join(cd, 'secret', rest, 'output'),
      };
    case 'ecds': {
      const dump = load(join(cd, 'ecds', 'configdump.json'));
      const format = rest.split('.').pop();
      const got = format === 'txt' ? tableText(ecdsTable(dump)) : ecdsDump(dump, protoSchema(), format as 'json' | 'yaml');
      return { got, goldenPath: join(cd, 'ecds', rest) };
    }
    case 'bootstrap':
      return { got: bootstrapDump(load(join(cd, 'configdump.json')), protoSchema(), 'json'), goldenPath: join(cd, 'bootstrapdump.json') };
    case 'version-summary':
      return { got: versionSummaryText(versionSummary(load(join(cd, 'configdump.json')))), goldenPath: join(cd, 'versionsummary.txt') };
    case 'proxyconfig': {
      const r = renderAll(load(join(PROXYCONFIG(root), 'config_dump.json')), { now: PINNED_NOW, withHeaders: rest.includes('withheaders') });
      return { got: r.text + (r.error ? `Error: ${r.error}\n` : ''), goldenPath: join(PROXYCONFIG(root), rest) };
    }
    default:
      throw new Error(`unknown check ${check}`);
  }
}

/** The first line where two texts differ, for the report. */
function firstDifference(got: string, want: string): { missing: string[]; extra: string[] } {
  const g = got.split('\n');
  const w = want.split('\n');
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) {
      return {
        missing: w[i] === undefined ? [] : [`line ${i + 1}: ${JSON.stringify(w[i])}`],
        extra: g[i] === undefined ? [] : [`line ${i + 1}: ${JSON.stringify(g[i])}`],
      };
    }
  }
  return { missing: [], extra: [] };
}

export function runIstioctlChecks(root: string): CaseResult[] {
  return istioctlChecks(root).map((check) => {
    const id = `xds/istioctl/${check}`;
    try {
      const { got, goldenPath } = renderIstioctlCheck(root, check);
      const want = readFileSync(goldenPath, 'utf8');
      if (got === want) return { suite: 'xds', id, analyzer: 'xds/istioctl', passed: true, missing: [], extra: [] };
      return { suite: 'xds', id, analyzer: 'xds/istioctl', passed: false, ...firstDifference(got, want), error: 'output differs from the golden' };
    } catch (e) {
      return { suite: 'xds', id, analyzer: 'xds/istioctl', passed: false, missing: [], extra: [], error: (e as Error)?.stack ?? String(e) };
    }
  });
}
