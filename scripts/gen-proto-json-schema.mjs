#!/usr/bin/env node
// Writes src/core/xds/configdump/protoSchema.data.ts: for every Envoy v3 / xds / udpa message
// in the protos that @grpc/grpc-js-xds ships (plus the google.protobuf and google.rpc types
// they import), its fields in declaration order with their JSON names, types, and whether they
// sit in a oneof — what Go's jsonpb needs to print a message the way istioctl does
// (`proxy-config … -o json|yaml`). Enums are listed with their values.
//
//   node scripts/gen-proto-json-schema.mjs [--check]
//
// --check exits 1 when the committed file differs from what the installed protos give.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEPS = join(ROOT, 'node_modules', '@grpc', 'grpc-js-xds', 'deps');
const OUT = join(ROOT, 'src', 'core', 'xds', 'configdump', 'protoSchema.data.ts');
const INCLUDE = [
  join(DEPS, 'envoy-api'),
  join(DEPS, 'xds'),
  join(DEPS, 'googleapis'),
  join(DEPS, 'protoc-gen-validate'),
  join(ROOT, 'node_modules', 'protobufjs'),
];

function protoFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...protoFiles(p));
    else if (name.endsWith('.proto')) out.push(p);
  }
  return out;
}

function sources() {
  const files = [
    ...protoFiles(join(DEPS, 'envoy-api', 'envoy')),
    ...protoFiles(join(DEPS, 'xds', 'xds')),
    ...protoFiles(join(DEPS, 'xds', 'udpa')),
    join(DEPS, 'googleapis', 'google', 'rpc', 'status.proto'),
  ];
  // The v2 API and the alpha packages are not what a current Envoy dumps.
  return files.filter((f) => !/\/v2(alpha\d*)?\/|\/v1alpha\d*\/|\/v2beta\d*\/|\/v3alpha\//.test(relative(DEPS, f)) || /udpa\/type\/v1|typed_struct/.test(f));
}

const COMMON = /^google\/protobuf\/(any|duration|empty|field_mask|struct|timestamp|wrappers)\.proto$/;

function findImport(target) {
  if (COMMON.test(target)) return target;
  for (const dir of INCLUDE) {
    const p = join(dir, target);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Files whose imports all exist (some, e.g. OpenCensus tracing, import protos the package lacks). */
function loadable(files) {
  const memo = new Map();
  const ok = (file, seen) => {
    if (COMMON.test(file)) return true;
    if (memo.has(file)) return memo.get(file);
    if (seen.has(file)) return true;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    let good = true;
    for (const m of text.matchAll(/^import\s+(?:public\s+|weak\s+)?"([^"]+)";/gm)) {
      const p = findImport(m[1]);
      if (!p || !ok(p, seen)) {
        good = false;
        break;
      }
    }
    memo.set(file, good);
    return good;
  };
  return files.filter((f) => ok(f, new Set()));
}

function load() {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (target.startsWith('/')) return target;
    if (/^google\/protobuf\/(any|duration|empty|field_mask|struct|timestamp|wrappers)\.proto$/.test(target)) return target;
    for (const dir of INCLUDE) {
      const p = join(dir, target);
      if (existsSync(p)) return p;
    }
    return protobuf.util.path.resolve(origin, target);
  };
  root.loadSync(loadable(sources()), { keepCase: true, alternateCommentMode: false });
  root.resolveAll();
  return root;
}

/** protoc's default JSON name: drop underscores and upper-case the letter after each. */
function defaultJsonName(name) {
  let out = '';
  let upper = false;
  for (const ch of name) {
    if (ch === '_') upper = true;
    else if (upper) {
      out += ch.toUpperCase();
      upper = false;
    } else out += ch;
  }
  return out;
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

function typeOf(field) {
  if (SCALARS.has(field.type)) return field.type;
  const t = field.resolvedType;
  if (!t) throw new Error(`unresolved type ${field.type} of ${field.fullName}`);
  return t.fullName.slice(1);
}

function collect(ns, messages, enums) {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) {
      const fields = [];
      for (const f of nested.fieldsArray) {
        const entry = { n: f.name, t: typeOf(f) };
        const json = f.options?.json_name ?? defaultJsonName(f.name);
        if (json !== defaultJsonName(f.name)) entry.j = json;
        entry.id = f.id;
        if (f.map) {
          entry.k = f.keyType;
          entry.m = 1;
        } else if (f.repeated) entry.r = 1;
        if (f.partOf) {
          // proto3 `optional` fields are single-field synthetic oneofs: presence, no grouping.
          if (f.options?.proto3_optional || f.partOf.name === `_${f.name}`) entry.p = 1;
          else entry.o = f.partOf.name;
        }
        fields.push(entry);
      }
      messages[nested.fullName.slice(1)] = fields;
    } else if (nested instanceof protobuf.Enum) {
      enums[nested.fullName.slice(1)] = Object.entries(nested.values);
    }
    if (nested.nestedArray) collect(nested, messages, enums);
  }
}

function schemaText() {
  const root = load();
  const messages = {};
  const enums = {};
  collect(root, messages, enums);
  const sorted = (o) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  const version = JSON.parse(readFileSync(join(DEPS, '..', 'package.json'), 'utf8')).version;
  const data = JSON.stringify({ messages: sorted(messages), enums: sorted(enums) });
  return (
    `// Generated by scripts/gen-proto-json-schema.mjs from the protos of @grpc/grpc-js-xds ${version}. Do not edit.\n` +
    `// ${Object.keys(messages).length} messages, ${Object.keys(enums).length} enums: field order, JSON names and types, for jsonpb-style output.\n` +
    `export const PROTO_SCHEMA_JSON = ${JSON.stringify(data)};\n`
  );
}

const text = schemaText();
if (process.argv.includes('--check')) {
  const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  if (current !== text) {
    console.error(`${relative(ROOT, OUT)} is out of date: run node scripts/gen-proto-json-schema.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${relative(ROOT, OUT)} (${text.length} bytes)`);
}
