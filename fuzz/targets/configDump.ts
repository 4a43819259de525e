// Target `config-dump`: reading an Envoy config dump and rendering every `proxy-config`
// command in every output format (src/core/xds/configdump). Inputs are our sidecar dump
// (tests/fixtures/xds) and istioctl's test dumps in ../shared when present, with values
// replaced by wrong types, odd keys and tricky strings, and now and then broken text.
// The property: reading gives a dump or a message, never an exception; a dump renders every
// command (an istioctl error is a result, not an exception); `-o json` is JSON; `-o yaml`
// reads back (YAML 1.2 core) to the same value as the JSON (unless it holds U+0085/U+2028/
// U+2029, line breaks to go-yaml's YAML 1.1 but text to 1.2); nothing takes over the time limit.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { readConfigDump } from '../../src/core/xds/configdump/dump.ts';
import { loadProtoSchema, type ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { PROTO_SCHEMA_JSON } from '../../src/core/xds/configdump/protoSchema.data.ts';
import { PROXY_CONFIG_COMMANDS, renderProxyConfig, type OutputFormat } from '../../src/core/xds/configdump/render.ts';
import { word } from '../gen/yamlText.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

export interface ConfigDumpInput {
  /** The dump text as read (so a corpus entry needs no seed files). */
  text: string;
}

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SHARED_XDS = resolve(ROOT, '../shared/conformance/xds/istioctl');

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(p));
    else if (/dump\.json$/.test(name)) out.push(p);
  }
  return out;
}

let seedValues: unknown[] | undefined;

function seeds(): unknown[] {
  if (!seedValues) {
    const files = [join(ROOT, 'tests', 'fixtures', 'xds', 'sidecar-config-dump.json'), ...jsonFiles(SHARED_XDS)];
    seedValues = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
  }
  return seedValues;
}

const WRONG: unknown[] = [
  0,
  -1,
  1.5,
  4294967296,
  1e300,
  -0,
  true,
  false,
  null,
  '',
  'x',
  '0',
  '-1',
  '1e3',
  'NaN',
  'Infinity',
  '1.5s',
  'STATIC',
  'EDS',
  'HEALTHY',
  'bad base64!',
  [],
  {},
  ['x'],
  [1],
  [null],
  [{}],
  { a: 'b' },
  { '@type': 'type.googleapis.com/unknown.Type', x: 1 },
  { '@type': '' },
  { value: 1 },
  'a'.repeat(300),
  'BlackHoleCluster',
  'PassthroughCluster',
  'outbound|80||a',
  'a|b|c|d|e',
];
const ODD_KEYS = [
  'toString',
  '__proto__',
  'constructor',
  'valueOf',
  '@type',
  'name',
  'cluster',
  'routes',
  'virtual_hosts',
  'domains',
  'filter_chains',
  'filters',
  'typed_config',
  'address',
  'socket_address',
  'port_value',
  'metadata',
  'secret',
  'inline_bytes',
  'endpoints',
  'lb_endpoints',
  'configs',
];

interface Mutation {
  op: 'replace' | 'delete' | 'add' | 'dup' | 'word';
  at: number;
  pick: number;
  word: string;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('replace' as const, 'replace' as const, 'delete' as const, 'add' as const, 'dup' as const, 'word' as const),
  at: fc.nat(),
  pick: fc.nat(),
  word,
});

type Container = Record<string, unknown> | unknown[];

function slots(value: unknown, max = 3000): Array<[Container, string | number]> {
  const out: Array<[Container, string | number]> = [];
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length && out.length < max) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null || depth > 60) continue;
    const c = v as Container;
    if (Array.isArray(c)) c.forEach((x, i) => (out.push([c, i]), stack.push([x, depth + 1])));
    else for (const k of Object.keys(c)) out.push([c, k]), stack.push([c[k], depth + 1]);
  }
  return out;
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function mutate(value: unknown, m: Mutation): unknown {
  const all = slots(value);
  const wrong = m.op === 'word' ? m.word : structuredClone(WRONG[m.pick % WRONG.length]);
  if (all.length === 0) return wrong;
  const [c, k] = all[m.at % all.length]!;
  if (Array.isArray(c)) {
    const i = k as number;
    if (m.op === 'delete') c.splice(i, 1);
    else if (m.op === 'dup') c.splice(i, 0, structuredClone(c[i]));
    else if (m.op === 'add') c.push(wrong);
    else c[i] = wrong;
  } else {
    const key = k as string;
    if (m.op === 'delete') delete c[key];
    else if (m.op === 'dup') setOwn(c, `${key}2`, structuredClone(c[key]));
    else if (m.op === 'add') setOwn(c, ODD_KEYS[m.pick % ODD_KEYS.length]!, wrong);
    else setOwn(c, key, wrong);
  }
  return value;
}

export const configDumpInputs: fc.Arbitrary<ConfigDumpInput> = fc
  .record({
    seed: fc.nat(),
    mutations: fc.array(mutationArb, { maxLength: 6 }),
    pretty: fc.boolean(),
    cut: fc.option(fc.nat(), { freq: 8 }),
  })
  .map(({ seed, mutations, pretty, cut }) => {
    const all = seeds();
    let value = structuredClone(all[seed % all.length]);
    for (const m of mutations) value = mutate(value, m);
    let text = JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null';
    if (cut !== null) text = text.slice(0, cut % (text.length + 1));
    return { text };
  });

let schema: ProtoSchema | undefined;

function sane(message: string, what: string): void {
  if (!message || /undefined|\[object /.test(message)) throw new FuzzFailure('divergence', `${what}: not a sane message: ${JSON.stringify(message)}`);
}

/** Same JSON value, numbers compared by value (YAML has no -0). */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Whether a value holds U+0085, U+2028 or U+2029: line breaks to go-yaml (YAML 1.1), text to a YAML 1.2 reader. */
function hasYaml11Breaks(v: unknown): boolean {
  if (typeof v === 'string') return /[\u0085\u2028\u2029]/.test(v);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => hasYaml11Breaks(k) || hasYaml11Breaks(x));
  return false;
}

export function checkConfigDump(input: ConfigDumpInput, options: CheckOptions): CheckOutcome {
  schema ??= loadProtoSchema(PROTO_SCHEMA_JSON);
  const t0 = performance.now();
  const read = guarded('readConfigDump', options.timeLimitMs, () => readConfigDump(input.text));
  if (!read.ok) {
    sane(read.error, 'read error');
    return 'ok';
  }
  const now = new Date('2025-01-01T00:00:00Z');
  for (const command of PROXY_CONFIG_COMMANDS) {
    const json: Partial<Record<OutputFormat, string>> = {};
    for (const output of ['short', 'json', 'yaml'] as const) {
      const r = guarded(`${command} -o ${output}`, options.timeLimitMs, () => renderProxyConfig({ dump: read.dump }, { command, output, now, schema }));
      if (typeof r.text !== 'string') throw new FuzzFailure('divergence', `${command} -o ${output}: no text`);
      if (r.error !== undefined) {
        sane(r.error, `${command} -o ${output}`);
        continue;
      }
      json[output] = r.text;
    }
    if (json.json !== undefined) {
      let fromJson: unknown;
      try {
        fromJson = JSON.parse(json.json);
      } catch (e) {
        throw new FuzzFailure('divergence', `${command} -o json is not JSON: ${(e as Error).message}`);
      }
      // go-yaml folds those breaks like newlines; reading back with YAML 1.2 would not be a fair test.
      if (json.yaml !== undefined && !hasYaml11Breaks(fromJson)) {
        let fromYaml: unknown;
        try {
          // Every -o yaml output ends with the newline istioctl's Println adds after the YAML
          // document; a value ending in blank lines (a `|+` block scalar last in the file) would
          // read it as its own, in istioctl's output too, so the document is read without it.
          fromYaml = parseYaml(json.yaml.endsWith('\n') ? json.yaml.slice(0, -1) : json.yaml, { version: '1.2', uniqueKeys: false });
        } catch (e) {
          throw new FuzzFailure('divergence', `${command} -o yaml does not read back: ${(e as Error).message}`);
        }
        if (!sameValue(fromJson, fromYaml)) throw new FuzzFailure('divergence', `${command}: -o yaml reads back to another value than -o json`);
      }
    }
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs * 4) throw new FuzzFailure('hang', `all renders took ${ms.toFixed(0)} ms`);
  return 'ok';
}

export const configDumpTarget: Target<ConfigDumpInput> = {
  name: 'config-dump',
  description: 'Envoy config dump reader and every proxy-config render: no exception, -o json is JSON, -o yaml reads back to it',
  arbitrary: () => configDumpInputs,
  check: checkConfigDump,
  async: false,
  smokeRuns: 300,
};
