// Target `dump-diff`: a real config dump compared with another (src/core/xds/dumpDiff.ts, the
// "Compare dump" view and `proxy-config diff`). Inputs are the config-dump target's mutated
// dumps. The property: comparing never throws; a dump compared with itself has no differences;
// compared with a reference dump, every difference names a resource and the counts add up.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfigDump, type ConfigDump } from '../../src/core/xds/configdump/dump.ts';
import { loadProtoSchema, type ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { PROTO_SCHEMA_JSON } from '../../src/core/xds/configdump/protoSchema.data.ts';
import { diffDumpWithGenerated, dumpDiffText, type DumpDiffResult } from '../../src/core/xds/dumpDiff.ts';
import { configDumpInputs, type ConfigDumpInput } from './configDump.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
let schema: ProtoSchema | undefined;
let reference: ConfigDump | undefined;

function referenceDump(): ConfigDump {
  if (!reference) {
    const p = resolve(ROOT, 'tests/fixtures/xds/sidecar-config-dump.json');
    const r = readConfigDump(existsSync(p) ? readFileSync(p, 'utf8') : '{"configs": []}');
    if (!r.ok) throw new Error(r.error);
    reference = r.dump;
  }
  return reference;
}

function consistent(r: DumpDiffResult, what: string): void {
  for (const d of r.differences) {
    if (typeof d.name !== 'string' || !['only-in-dump', 'only-generated', 'differs'].includes(d.status))
      throw new FuzzFailure('divergence', `${what}: bad difference ${JSON.stringify(d).slice(0, 200)}`);
  }
  for (const [t, c] of Object.entries(r.counts)) {
    const listed = r.differences.filter((d) => d.type === t);
    if (c.same < 0 || c.onlyInDump > c.dump || c.onlyGenerated > c.generated || listed.length !== c.differs + c.onlyInDump + c.onlyGenerated) {
      throw new FuzzFailure('divergence', `${what}: ${t} counts do not add up: ${JSON.stringify(c)}`);
    }
  }
}

export function checkDumpDiff(input: ConfigDumpInput, options: CheckOptions): CheckOutcome {
  schema ??= loadProtoSchema(PROTO_SCHEMA_JSON);
  const s = schema;
  const read = guarded('readConfigDump', options.timeLimitMs, () => readConfigDump(input.text));
  if (!read.ok) return 'ok';
  const self = guarded('diff with itself', options.timeLimitMs, () => diffDumpWithGenerated(read.dump, read.dump, s));
  if (self.differences.length > 0) throw new FuzzFailure('divergence', `a dump differs from itself: ${JSON.stringify(self.differences[0]).slice(0, 300)}`);
  const ref = referenceDump();
  for (const [a, b, what] of [
    [read.dump, ref, 'dump vs reference'],
    [ref, read.dump, 'reference vs dump'],
  ] as const) {
    const r = guarded(what, options.timeLimitMs, () => diffDumpWithGenerated(a, b, s));
    consistent(r, what);
    const text = dumpDiffText(r, 'proxy.ns');
    if (typeof text !== 'string' || /undefined|\[object /.test(text)) throw new FuzzFailure('divergence', `${what}: text output is not sane`);
  }
  return 'ok';
}

export const dumpDiffTarget: Target<ConfigDumpInput> = {
  name: 'dump-diff',
  description: 'A config dump compared with itself (no differences) and with a reference dump: no exception, counts add up',
  arbitrary: () => configDumpInputs,
  check: checkDumpDiff,
  async: false,
  smokeRuns: 150,
};
