#!/usr/bin/env node
// Writes src/core/validation/jsonpb/istioProtos.gen.ts: the message and enum tables that
// src/core/validation/jsonpb/decode.ts walks to decode an Istio resource the way istioctl's
// file reader does (golang/protobuf's legacy jsonpb).
//
// Regenerate (needs the Go module cache; CI has none, so the output is committed):
//
//   node scripts/gen-istio-protos.mjs [--api DIR] [--istio DIR]
//
// DIR defaults: the newest istio.io/api@* and istio.io/istio@* directory in ~/go/pkg/mod
// (`npm run oracle -- build` fetches the versions oracle/go.mod pins; pass --api/--istio to
// choose others).
// It reads the .proto files of istio.io/api (no protoc: a small parser of the proto3 syntax
// those files use) and, from istio.io/istio, pkg/config/schema/collections/collections.gen.go
// for the kinds (group, kind, versions, spec and status messages).
import { readFileSync, readdirSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

function newestModule(prefix) {
  const dir = join(homedir(), 'go/pkg/mod/istio.io');
  if (!existsSync(dir)) throw new Error(`no Go module cache at ${dir}; pass --api and --istio`);
  const names = readdirSync(dir)
    .filter((n) => n.startsWith(prefix + '@'))
    .sort();
  if (names.length === 0) throw new Error(`no ${prefix}@* in ${dir}`);
  return join(dir, names[names.length - 1]);
}

const apiDir = opt('--api') ?? newestModule('api');
const istioDir = opt('--istio') ?? newestModule('istio');

// ---------------------------------------------------------------- proto tokenizer and parser

function tokenize(src) {
  const toks = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      toks.push({ s: src.slice(i + 1, j), str: true });
      i = j + 1;
    } else if (/[A-Za-z0-9_.\-+]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_.\-+]/.test(src[j])) j++;
      toks.push({ s: src.slice(i, j) });
      i = j;
    } else {
      toks.push({ s: c });
      i++;
    }
  }
  return toks;
}

/** protoc's default json_name: underscores dropped, the letter after one upper-cased. */
function jsonName(name) {
  let out = '';
  let up = false;
  for (const ch of name) {
    if (ch === '_') {
      up = true;
      continue;
    }
    out += up ? ch.toUpperCase() : ch;
    up = false;
  }
  return out;
}

function parseProto(src, file) {
  const t = tokenize(src);
  let p = 0;
  const peek = () => t[p]?.s;
  const next = () => t[p++]?.s;
  const expect = (s) => {
    const got = next();
    if (got !== s) throw new Error(`${file}: expected ${s}, got ${got} at token ${p}`);
  };
  const skipStatement = () => {
    // to the next ';' at this depth, or over a { ... } block
    let depth = 0;
    for (;;) {
      const s = next();
      if (s === undefined) return;
      if (s === '{') depth++;
      else if (s === '}') {
        depth--;
        if (depth <= 0) return;
      } else if (s === ';' && depth === 0) return;
    }
  };
  /** `[opt = v, ...]` after a field: returns the json_name option if any. */
  const fieldOptions = () => {
    let json;
    if (peek() !== '[') return json;
    next();
    let depth = 1;
    while (depth > 0) {
      const s = next();
      if (s === '[') depth++;
      else if (s === ']') depth--;
      else if (s === 'json_name' && peek() === '=') {
        next();
        json = next();
      } else if (s === '{') {
        // aggregate option value
        let d = 1;
        while (d > 0) {
          const x = next();
          if (x === '{') d++;
          else if (x === '}') d--;
        }
      }
    }
    return json;
  };

  const out = { pkg: '', messages: [], enums: [] };

  function parseEnum(scope) {
    const name = next();
    const full = scope + '.' + name;
    const values = [];
    expect('{');
    while (peek() !== '}') {
      const s = peek();
      if (s === 'option' || s === 'reserved') {
        skipStatement();
        continue;
      }
      if (s === ';') {
        next();
        continue;
      }
      const vname = next();
      expect('=');
      const num = Number(next());
      fieldOptions();
      expect(';');
      values.push([vname, num]);
    }
    expect('}');
    out.enums.push({ full, values });
  }

  function parseMessage(scope) {
    const name = next();
    const full = scope + '.' + name;
    const msg = { full, fields: [], scope: full };
    out.messages.push(msg);
    expect('{');
    body(msg, undefined);
    expect('}');
  }

  function field(msg, oneof, label) {
    let type = next();
    let map;
    if (type === 'map') {
      expect('<');
      const k = next();
      expect(',');
      const v = next();
      expect('>');
      map = [k, v];
      type = undefined;
    }
    const fname = next();
    expect('=');
    const num = Number(next());
    const json = fieldOptions();
    expect(';');
    msg.fields.push({ name: fname, json: json ?? jsonName(fname), num, type, map, repeated: label === 'repeated', oneof });
  }

  function body(msg, oneof) {
    while (peek() !== '}') {
      const s = peek();
      if (s === ';') {
        next();
      } else if (s === 'message' && !oneof) {
        next();
        parseMessage(msg.full);
      } else if (s === 'enum' && !oneof) {
        next();
        parseEnum(msg.full);
      } else if (s === 'oneof') {
        next();
        const oname = next();
        expect('{');
        body(msg, oname);
        expect('}');
      } else if (s === 'option' || s === 'reserved' || s === 'extensions' || s === 'extend') {
        skipStatement();
      } else if (s === 'repeated' || s === 'optional' || s === 'required') {
        next();
        field(msg, oneof, s);
      } else {
        field(msg, oneof, undefined);
      }
    }
  }

  while (p < t.length) {
    const s = next();
    if (s === 'package') {
      out.pkg = next();
      expect(';');
    } else if (s === 'message') {
      parseMessage(out.pkg ? '.' + out.pkg : '');
    } else if (s === 'enum') {
      parseEnum(out.pkg ? '.' + out.pkg : '');
    } else if (s === 'syntax' || s === 'import' || s === 'option' || s === 'edition') {
      p--;
      skipStatement();
    } else if (s === 'service' || s === 'extend') {
      p--;
      skipStatement();
    } else if (s === ';') {
      // empty statement
    } else {
      throw new Error(`${file}: unexpected ${s}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- read every proto

function walk(dir, acc = []) {
  for (const n of readdirSync(dir)) {
    const f = join(dir, n);
    if (statSync(f).isDirectory()) walk(f, acc);
    else if (n.endsWith('.proto')) acc.push(f);
  }
  return acc;
}

const protoFiles = [
  ...walk(apiDir).filter((f) => !f.includes('/common-protos/')),
  ...walk(join(apiDir, 'common-protos/google/protobuf')).filter((f) => !f.includes('/compiler/') && !f.includes('/util/')),
];
const messages = new Map();
const enums = new Map();
for (const f of protoFiles) {
  const parsed = parseProto(readFileSync(f, 'utf8'), f);
  for (const m of parsed.messages) messages.set(m.full, m);
  for (const e of parsed.enums) enums.set(e.full, e);
}

const SCALARS = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);
/** Well-known messages whose JSON form legacy jsonpb special-cases (decode.ts handles each). */
const WKT = new Set([
  '.google.protobuf.Any',
  '.google.protobuf.Duration',
  '.google.protobuf.Timestamp',
  '.google.protobuf.Struct',
  '.google.protobuf.Value',
  '.google.protobuf.ListValue',
  '.google.protobuf.BoolValue',
  '.google.protobuf.BytesValue',
  '.google.protobuf.StringValue',
  '.google.protobuf.Int32Value',
  '.google.protobuf.UInt32Value',
  '.google.protobuf.FloatValue',
  '.google.protobuf.Int64Value',
  '.google.protobuf.UInt64Value',
  '.google.protobuf.DoubleValue',
]);

/** Protobuf name resolution: innermost scope outwards. */
function resolve(type, scope) {
  if (SCALARS.has(type)) return { scalar: type };
  if (type.startsWith('.')) {
    if (messages.has(type)) return { message: type };
    if (enums.has(type)) return { enum: type };
    throw new Error(`cannot resolve ${type}`);
  }
  let s = scope;
  for (;;) {
    const cand = s + '.' + type;
    if (messages.has(cand)) return { message: cand };
    if (enums.has(cand)) return { enum: cand };
    if (s === '') break;
    s = s.slice(0, s.lastIndexOf('.'));
  }
  throw new Error(`cannot resolve ${type} in ${scope}`);
}

// ---------------------------------------------------------------- kinds from Istio's collections

const collections = readFileSync(join(istioDir, 'pkg/config/schema/collections/collections.gen.go'), 'utf8');
const kinds = [];
for (const block of collections.split(/\n\t[A-Za-z0-9]+ = resource\.Builder\{/).slice(1)) {
  const body = block.slice(0, block.indexOf('}.MustBuild()'));
  const str = (key) => body.match(new RegExp(`\\b${key}:\\s*"([^"]*)"`))?.[1];
  const proto = str('Proto');
  if (!proto?.startsWith('istio.') || !str('Group')?.endsWith('.istio.io')) continue;
  const aliases = [...(body.match(/VersionAliases:\s*\[\]string\{([^}]*)\}/)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const versions = [...new Set([str('Version'), ...aliases])].sort();
  kinds.push({ group: str('Group'), kind: str('Kind'), versions, spec: proto, status: str('StatusProto') });
}
kinds.sort((a, b) => (a.group + a.kind).localeCompare(b.group + b.kind));
const seenKind = new Set();
const uniqueKinds = kinds.filter((k) => {
  const key = k.group + '/' + k.kind;
  if (seenKind.has(key)) return false;
  seenKind.add(key);
  return true;
});

// ---------------------------------------------------------------- reachable messages and enums

const needMessages = new Set();
const needEnums = new Set();
function visit(full) {
  if (needMessages.has(full) || WKT.has(full)) return;
  const m = messages.get(full);
  if (!m) throw new Error(`no message ${full}`);
  needMessages.add(full);
  for (const f of m.fields) {
    const types = f.map ? [f.map[1]] : [f.type];
    for (const ty of types) {
      const r = resolve(ty, m.scope);
      if (r.message) visit(r.message);
      if (r.enum) needEnums.add(r.enum);
    }
  }
}
for (const k of uniqueKinds) {
  visit('.' + k.spec);
  if (k.status) visit('.' + k.status);
}

/** A field type as the table writes it: a scalar name, `.Full.Message` or `enum:.Full.Enum`. */
function typeCode(ty, scope) {
  const r = resolve(ty, scope);
  if (r.scalar) return r.scalar;
  if (r.message) return r.message.slice(1);
  return 'enum:' + r.enum.slice(1);
}

const msgOut = {};
for (const full of [...needMessages].sort()) {
  const m = messages.get(full);
  msgOut[full.slice(1)] = m.fields.map((f) => {
    const row = [f.name, f.json === f.name ? 0 : f.json];
    if (f.map) {
      row.push('map', typeCode(f.map[0], m.scope), typeCode(f.map[1], m.scope));
    } else {
      row.push(f.repeated ? 'repeated' : f.oneof ? 'oneof:' + f.oneof : '', typeCode(f.type, m.scope));
    }
    return row;
  });
}
needEnums.add('.google.protobuf.NullValue');
const enumOut = {};
for (const full of [...needEnums].sort()) {
  enumOut[full.slice(1)] = Object.fromEntries(enums.get(full).values);
}

const apiVersion = apiDir.slice(apiDir.lastIndexOf('@') + 1);
const istioVersion = istioDir.slice(istioDir.lastIndexOf('@') + 1);
const text = `// Code generated by scripts/gen-istio-protos.mjs from istio.io/api@${apiVersion}
// and istio.io/istio@${istioVersion}. DO NOT EDIT; regenerate with
// \`node scripts/gen-istio-protos.mjs\` (needs those modules in the Go module cache).

/**
 * One field, in the order the .proto declares it (the order legacy jsonpb visits them):
 * [proto name, json name (0 when the same), label, type] or
 * [proto name, json name, 'map', key type, value type].
 * label: '' (singular), 'repeated' or 'oneof:<name>'. A type is a scalar (int32, string, ...),
 * a message's full name, or 'enum:' and the enum's full name.
 */
export type ProtoField =
  | readonly [name: string, json: string | 0, label: string, type: string]
  | readonly [name: string, json: string | 0, label: 'map', key: string, value: string];

/** The Istio kinds whose spec (and status) is an istio.io/api message. */
export const ISTIO_KINDS: readonly { group: string; kind: string; versions: readonly string[]; spec: string; status?: string }[] = ${JSON.stringify(uniqueKinds, null, 1)};

export const MESSAGES: Readonly<Record<string, readonly ProtoField[]>> = ${JSON.stringify(msgOut, null, 0).replace(/\],"/g, '],\n"').replace(/^\{/, '{\n')};

export const ENUMS: Readonly<Record<string, Readonly<Record<string, number>>>> = ${JSON.stringify(enumOut, null, 0).replace(/\},"/g, '},\n"').replace(/^\{/, '{\n')};
`;
const outFile = join(root, 'src/core/validation/jsonpb/istioProtos.gen.ts');
writeFileSync(outFile, text);
console.log(`wrote ${outFile}: ${uniqueKinds.length} kinds, ${needMessages.size} messages, ${needEnums.size} enums`);
