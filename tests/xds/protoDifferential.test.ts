// The proto check's JSON mapping against the reference: @bufbuild/protobuf's strict fromJson.
// Valid resources are mutated at random places (a renamed key, a value of another JSON type, an
// enum name that does not exist, an unknown or missing @type) and both must agree on whether
// the result is valid proto3 JSON. (Constraints and TypedStruct payloads are checks fromJson
// does not make; they are left out here: constraints off, no mutation inside a TypedStruct.
// One known difference, tested in proto.test.ts: fromJson reads "0x10" as a 32-bit int; we
// reject it, as the proto3 JSON mapping and Envoy's parser do.)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { checkEnvoyResource, envoyProtos } from '../../src/core/xds/proto/index.ts';
import { DEFAULT_ROOT } from '../../scripts/conformance.ts';
import { cluster, listener, routeConfig } from './envoyFixtures.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Slot {
  parent: { [k: string]: Json } | Json[];
  key: string | number;
}

/** Places a mutation may go: every value, except inside TypedStruct payloads. */
function slots(v: Json, out: Slot[] = []): Slot[] {
  if (Array.isArray(v)) {
    v.forEach((e, i) => {
      out.push({ parent: v, key: i });
      slots(e, out);
    });
  } else if (v !== null && typeof v === 'object') {
    if (typeof v['@type'] === 'string' && v['@type'].endsWith('TypedStruct')) return out;
    for (const k of Object.keys(v)) {
      out.push({ parent: v, key: k });
      slots(v[k]!, out);
    }
  }
  return out;
}

const NUMBER_EDGES: Json[] = [
  0,
  -1,
  1.5,
  2147483647,
  2147483648,
  4294967295,
  4294967296,
  -2147483649,
  1e20,
  '12',
  '-3',
  '1e2',
  '1.0',
  ' 12',
  '',
  'NaN',
  'Infinity',
  '18446744073709551615',
  '18446744073709551616',
  '9223372036854775808',
];
const DURATION_EDGES: Json[] = ['0s', '1.5s', '-5s', '10', '10ms', '1.0000000001s', '315576000000s', '315576000001s', '.5s', '1.s', 's', '1e3s'];
const STRING_EDGES: Json[] = ['', 'x', '2024-01-01T00:00:00Z', '2024-02-30T00:00:00Z', 'AAEC', 'AAE', '@@'];

function mutate(base: Json, random: () => number): { doc: Json; what: string } {
  const doc = structuredClone(base);
  const all = slots(doc);
  const s = all[Math.floor(random() * all.length)]!;
  const get = () => (s.parent as Record<string | number, Json>)[s.key]!;
  const set = (v: Json) => ((s.parent as Record<string | number, Json>)[s.key] = v);
  const v = get();
  const kind = Math.floor(random() * 4);
  if (kind === 0 && typeof s.key === 'string' && !Array.isArray(s.parent)) {
    const parent = s.parent as Record<string, Json>;
    if (s.key === '@type') {
      if (random() < 0.5) {
        parent['@type'] = `${v as string}Nope`;
        return { doc, what: `@type ${s.key} → unknown` };
      }
      delete parent['@type'];
      return { doc, what: 'drop @type' };
    }
    delete parent[s.key];
    parent[`${s.key}Zz`] = v;
    return { doc, what: `rename ${s.key}` };
  }
  if (kind === 1 && typeof v === 'string' && /^[A-Z][A-Z0-9_]+$/.test(v)) {
    set('NOT_A_VALUE_X');
    return { doc, what: `enum ${String(s.key)}: ${v} → NOT_A_VALUE_X` };
  }
  if (kind === 2 && (typeof v === 'number' || typeof v === 'string')) {
    // Edge values of the scalar and well-known forms.
    const pool: Json[] = typeof v === 'number' ? NUMBER_EDGES : /^-?\d+(\.\d+)?s$/.test(v) ? DURATION_EDGES : /^\d+$/.test(v) ? NUMBER_EDGES : STRING_EDGES;
    const next = pool[Math.floor(random() * pool.length)]!;
    set(next);
    return { doc, what: `value ${String(s.key)}: ${JSON.stringify(v).slice(0, 40)} → ${JSON.stringify(next)}` };
  }
  const swapped: Json =
    typeof v === 'string' ? true : typeof v === 'number' ? {} : typeof v === 'boolean' ? 'yes' : Array.isArray(v) ? {} : v === null ? 'x' : 'str';
  set(swapped);
  return { doc, what: `type ${String(s.key)}: ${JSON.stringify(v).slice(0, 40)} → ${JSON.stringify(swapped)}` };
}

function corpusResources(): Json[] {
  const dir = join(DEFAULT_ROOT, 'xds', 'istioctl');
  if (!existsSync(dir)) return [];
  const out: Json[] = [];
  const walkFiles = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walkFiles(p);
      else if (/^config_?dump\.json$/.test(n)) collect(JSON.parse(readFileSync(p, 'utf8')));
    }
  };
  const collect = (v: Json): void => {
    if (Array.isArray(v)) return v.forEach(collect);
    if (v === null || typeof v !== 'object') return;
    const t = v['@type'];
    if (typeof t === 'string' && /\.v3\.(Cluster|Listener|RouteConfiguration|ClusterLoadAssignment|Secret)$/.test(t)) out.push(v);
    else Object.values(v).forEach(collect);
  };
  walkFiles(dir);
  return out;
}

describe('proto check vs @bufbuild/protobuf fromJson', () => {
  const p = envoyProtos();
  /** fromJson as an Any when the document carries @type, else as the message itself. */
  const reference = (doc: Json, typeUrl: string): string | undefined => {
    const desc = p.message(typeUrl.slice(typeUrl.lastIndexOf('/') + 1))!;
    try {
      if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && '@type' in doc)
        fromJson(AnySchema, doc as never, { registry: p.registry, ignoreUnknownFields: false });
      else fromJson(desc, doc as never, { registry: p.registry, ignoreUnknownFields: false });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };
  const ours = (doc: Json, typeUrl: string) => checkEnvoyResource(doc, typeUrl, { constraints: false, deprecations: false });

  it('agree on valid resources', () => {
    for (const r of [cluster(), listener(), routeConfig(), ...corpusResources()] as Json[]) {
      const t = (r as { '@type': string })['@type'];
      expect(reference(r, t)).toBeUndefined();
      expect(ours(r, t)).toEqual([]);
    }
  });

  it('agree on 600 random mutations', () => {
    const bases = [cluster(), listener(), routeConfig(), ...corpusResources()] as Json[];
    const random = rng(9);
    const disagreements: string[] = [];
    let rejected = 0;
    for (let i = 0; i < 600; i++) {
      const base = bases[i % bases.length]!;
      const typeUrl = (base as { '@type': string })['@type'];
      const { doc, what } = mutate(base, random);
      const ref = reference(doc, typeUrl);
      const mine = ours(doc, typeUrl);
      if (ref !== undefined) rejected++;
      if ((ref !== undefined) !== mine.length > 0)
        disagreements.push(`${typeUrl} ${what}: fromJson ${ref ?? 'accepts'}; ours ${mine.map((m) => `${m.code} ${m.path}`).join(', ') || 'accepts'}`);
    }
    expect(disagreements).toEqual([]);
    // Most mutations make invalid JSON; some land in Structs or string maps, where any JSON goes.
    expect(rejected).toBeGreaterThan(300);
  });
});
