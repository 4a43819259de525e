// Target `share-link`: the share-link decoder and the workspace import (zip or YAML bundle).
// Property: every input string either decodes to a well-typed ShareState within the caps or
// throws a ShareLinkError with a sane message; nothing else is thrown; it returns within the
// time limit (judged by the fastest of three runs); and what decodes encodes to a link that
// decodes to the same state.
// Inputs: links of real workspaces (the seed manifests), then damaged: bytes flipped, cut,
// spliced, characters swapped, and plain strings; and links that are well formed on the
// outside (magic, version, checksum, length, deflate, all from the real encoder) around a
// crafted meta record: objects where strings are expected, `toString`/`valueOf`/`__proto__`/
// `constructor` keys, huge lists (around and over the caps), deep nesting, over-long strings,
// lone surrogates, text that is not JSON or not UTF-8. Imports get the first treatment.
import fc from 'fast-check';
import {
  decodeShareFragment,
  encodeShareBytes,
  encodeShareBytesWithRawMeta,
  encodeShareFragment,
  MAX_FILES,
  MAX_META_BYTES,
  MAX_META_STRING_CHARS,
  MAX_OPEN_TABS,
  MAX_PATH_CHARS,
  MAX_REDACTED_ITEMS,
  MAX_SELECTIONS,
  MAX_SUPPRESSIONS,
  MAX_TITLE_CHARS,
  SHARE_PREFIX,
  ShareLinkError,
  type ShareFile,
  type ShareState,
} from '../../src/core/share/link.ts';
import { toBase64Url } from '../../src/core/share/bytes.ts';
import { exportYamlBundle, exportZip, importBundle, ImportError } from '../../src/core/share/bundle.ts';
import { FuzzFailure, describeError, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';
import type { Seeds } from '../gen/seeds.ts';

export interface ShareLinkInput {
  kind: 'link' | 'import';
  /** For `link`: the fragment after `#`. For `import`: the file's bytes as base64url. */
  data: string;
  name?: string;
}

/** Cap used while fuzzing: small, so bombs are cheap to find and to refuse; over MAX_META_BYTES, so that cap is reached. */
const FUZZ_CAP = MAX_META_BYTES + 2 * 1024 * 1024;

type Mutation = { op: 'flip' | 'cut' | 'insert' | 'set'; at: number; value: number };

function mutate(bytes: Uint8Array, ms: Mutation[]): Uint8Array {
  let b = Array.from(bytes);
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    if (m.op === 'flip' && b.length) b[at] = b[at]! ^ (1 << (m.value % 8));
    else if (m.op === 'set' && b.length) b[at] = m.value & 0xff;
    else if (m.op === 'cut') b = b.slice(0, at);
    else b.splice(at, 0, m.value & 0xff);
  }
  return Uint8Array.from(b);
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({ op: fc.constantFrom('flip', 'cut', 'insert', 'set'), at: fc.nat(), value: fc.nat(255) });

function filesArb(seeds: Seeds): fc.Arbitrary<ShareFile[]> {
  const file = fc.record({
    path: fc.oneof(fc.constantFrom('a.yaml', 'dir/b.yaml', '<img src=x onerror=alert(1)>.yaml'), fc.string({ minLength: 1, maxLength: 12 })),
    text: fc.oneof(fc.constantFrom(...seeds.documents.slice(0, 200)), fc.string({ maxLength: 200 })),
  });
  return fc.uniqueArray(file, { maxLength: 4, selector: (f) => f.path }).map((fs) => fs.filter((f) => !/[\u0000-\u001f\u007f]/.test(f.path)));
}

function stateArb(seeds: Seeds): fc.Arbitrary<ShareState> {
  return fc
    .record({
      files: filesArb(seeds),
      view: fc.option(fc.record({ file: fc.constant('a.yaml'), line: fc.nat(50) }), { nil: undefined }),
    })
    .map((s) => ({ files: s.files, ...(s.view && s.view.line > 0 ? { view: s.view } : {}) }));
}

// ---- Crafted meta JSON, written as text (a `__proto__` key in an object literal would set
// the prototype instead of making a key). ----

/** JSON text. */
type J = string;
const str = (s: string): J => JSON.stringify(s);
const obj = (entries: ReadonlyArray<readonly [string, J]>): J => `{${entries.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`;
const arr = (items: readonly J[]): J => `[${items.join(',')}]`;

const HOSTILE_KEYS = [
  '__proto__',
  'toString',
  'valueOf',
  'constructor',
  'hasOwnProperty',
  'toJSON',
  'then',
  'length',
  'prototype',
  'file',
  'line',
  'what',
  'code',
  '',
];
const keyArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });

const scalarArb: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom('null', 'true', 'false', '0', '-0', '-1', '1', '3', '0.5', '1e308', '-1e308', '1e21', '9007199254740993', '1e-7'),
  fc.string({ maxLength: 16 }).map(str),
  fc.constantFrom('"a.yaml"', '"__proto__"', '"toString"', '"[object Object]"', '"undefined"', '"NaN"', '"\\ud800"', '"\\udc00x"', '"\\u0000"', '""'),
  // Around the string cap.
  fc.constantFrom(MAX_META_STRING_CHARS, MAX_META_STRING_CHARS + 1, MAX_TITLE_CHARS, MAX_TITLE_CHARS + 1, MAX_PATH_CHARS + 1).map((n) => str('x'.repeat(n))),
  fc.nat(MAX_TITLE_CHARS + 2).map((n) => str('x'.repeat(n) + '\ud83d\ude00')),
);

/** Objects whose `toString`/`valueOf` are not functions: `String(x)` and `x + ''` throw on them. */
const unprintableArb: fc.Arbitrary<J> = fc.constantFrom(
  '{"toString":1}',
  '{"toString":null,"valueOf":null}',
  '{"valueOf":{}, "toString":[]}',
  '[{"toString":1}]',
  '{"__proto__":null}',
  '{"__proto__":{"toString":1}}',
  '{"constructor":{"prototype":1}}',
  '[[[]]]',
  '{}',
  '[]',
);

const valueArb: fc.Arbitrary<J> = fc.letrec<{ value: J; object: J; array: J }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarArb, unprintableArb, tie('object'), tie('array')),
  object: fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 4 }).map(obj),
  array: fc.array(tie('value'), { maxLength: 4 }).map(arr),
})).value;

/** Deep nesting around a value. */
const deepArb: fc.Arbitrary<J> = fc
  .tuple(fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(10_000, 100_000)), fc.boolean(), valueArb)
  .map(([d, inArray, v]) => (inArray ? '['.repeat(d) + v + ']'.repeat(d) : '{"a":'.repeat(d) + v + '}'.repeat(d)));

/** The most bytes a generated list may take: a little over MAX_META_BYTES, so that cap is hit too. */
const LIST_BYTES = MAX_META_BYTES + 64 * 1024;

/** A list of `n` copies of one item (huge lists around and over the caps), at most LIST_BYTES long. */
function hugeList(item: J, n: number): J {
  const count = Math.min(n, Math.floor(LIST_BYTES / (item.length + 1)));
  return `[${new Array<J>(count).fill(item).join(',')}]`;
}
const countArb = fc.oneof(
  { weight: 12, arbitrary: fc.nat(60) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      MAX_REDACTED_ITEMS - 1,
      MAX_REDACTED_ITEMS,
      MAX_REDACTED_ITEMS + 1,
      MAX_OPEN_TABS + 1,
      MAX_SUPPRESSIONS,
      MAX_SUPPRESSIONS + 1,
      MAX_SELECTIONS + 1,
      MAX_FILES,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(200_000, 900_000) },
);

const goodRedactedArb: fc.Arbitrary<J> = fc
  .record({
    file: fc.constantFrom('a.yaml', 'dir/b.yaml', 'gone.yaml'),
    line: fc.integer({ min: 1, max: 500 }),
    what: fc.constantFrom('private key', 'Secret shop/db stringData["password"]'),
  })
  .map((r) => JSON.stringify(r));
/** A redacted entry with each of file, line and what well formed, crafted or missing. */
const redactedEntryArb: fc.Arbitrary<J> = fc
  .tuple(
    fc.option(fc.oneof(fc.constant(str('a.yaml')), valueArb), { nil: undefined }),
    fc.option(fc.oneof(fc.constant('3'), valueArb), { nil: undefined }),
    fc.option(fc.oneof(fc.constant(str('private key')), valueArb), { nil: undefined }),
    fc.array(fc.tuple(keyArb, valueArb), { maxLength: 2 }),
  )
  .map(([file, line, what, extra]) =>
    obj([
      ...(file === undefined ? [] : [['file', file] as const]),
      ...(line === undefined ? [] : [['line', line] as const]),
      ...(what === undefined ? [] : [['what', what] as const]),
      ...extra,
    ]),
  );
const redactedArb: fc.Arbitrary<J> = fc.oneof(
  fc
    .array(fc.oneof({ weight: 3, arbitrary: goodRedactedArb }, { weight: 1, arbitrary: redactedEntryArb }, { weight: 1, arbitrary: valueArb }), {
      maxLength: 6,
    })
    .map(arr),
  fc.tuple(fc.oneof(goodRedactedArb, redactedEntryArb, fc.constantFrom('{}', '0', 'null')), countArb).map(([item, n]) => hugeList(item, n)),
  valueArb,
);

const stringListArb = (good: fc.Arbitrary<string>): fc.Arbitrary<J> =>
  fc.oneof(
    fc.array(fc.oneof(good.map(str), valueArb), { maxLength: 6 }).map(arr),
    fc.tuple(fc.oneof(good.map(str), valueArb), countArb).map(([item, n]) => hugeList(item, n)),
    valueArb,
  );

const selectionsArb: fc.Arbitrary<J> = fc.oneof(
  fc.array(fc.tuple(keyArb, fc.oneof(fc.constant(str('productpage-v1')), valueArb)), { maxLength: 5 }).map(obj),
  fc
    .tuple(fc.constantFrom(MAX_SELECTIONS, MAX_SELECTIONS + 1, 5000), fc.oneof(fc.constant(str('x')), valueArb))
    .map(([n, v]) => obj(Array.from({ length: n }, (_, i) => [`panel${i}`, v] as const))),
  valueArb,
);

const viewArb: fc.Arbitrary<J> = fc.oneof(
  fc
    .record(
      {
        file: fc.oneof(fc.constant(str('a.yaml')), valueArb),
        line: fc.oneof(fc.constant('4'), valueArb),
        diagnostic: fc.oneof(
          fc.constant('{"code":"IST0101","file":"a.yaml","line":2}'),
          fc.record({ code: valueArb, file: valueArb, line: valueArb }).map((d) => obj(Object.entries(d))),
          valueArb,
        ),
        selections: selectionsArb,
        extra: fc.array(fc.tuple(keyArb, valueArb), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map(({ extra, ...v }) => obj([...Object.entries(v), ...(extra ?? [])])),
  valueArb,
  deepArb,
);

const settingsArb: fc.Arbitrary<J> = fc.oneof(
  fc
    .record(
      { includePlaceholders: fc.oneof(fc.constant('false'), valueArb), suppressions: stringListArb(fc.constantFrom('IST0103=Pod *', 'IST0101')) },
      { requiredKeys: [] },
    )
    .map((s) => obj(Object.entries(s))),
  valueArb,
);

/** A meta record: the known keys with crafted values, hostile keys beside them, or no object at all. */
const metaTextArb: fc.Arbitrary<J> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          openTabs: stringListArb(fc.constantFrom('a.yaml', 'dir/b.yaml', 'nope.yaml')),
          view: viewArb,
          settings: settingsArb,
          title: fc.oneof(scalarArb, valueArb),
          redacted: redactedArb,
          hasBefore: fc.oneof(fc.constant('true'), valueArb),
          extra: fc.array(fc.tuple(keyArb, fc.oneof(valueArb, deepArb)), { maxLength: 3 }),
        },
        { requiredKeys: [] },
      )
      .map(({ extra, ...m }) => obj([...(extra ?? []), ...Object.entries(m)])),
  },
  { weight: 1, arbitrary: fc.oneof(valueArb, deepArb) },
  // Not JSON: a valid meta cut short, or stray text.
  { weight: 1, arbitrary: fc.tuple(valueArb, fc.nat()).map(([v, at]) => `{"redacted":${v}`.slice(0, 1 + (at % (v.length + 12)))) },
);

/** A meta record as bytes: JSON text, or text that is not UTF-8. */
const metaBytesArb: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 12, arbitrary: metaTextArb },
  {
    weight: 1,
    arbitrary: fc.tuple(metaTextArb, fc.nat(), fc.constantFrom(0x80, 0xc0, 0xff, 0xed)).map(([t, at, b]) => {
      const u = new TextEncoder().encode(t);
      const out = new Uint8Array(u.length + 1);
      const i = at % (u.length + 1);
      out.set(u.subarray(0, i));
      out[i] = b;
      out.set(u.subarray(i), i + 1);
      return out;
    }),
  },
);

function craftedLinkArb(seeds: Seeds): fc.Arbitrary<ShareLinkInput> {
  return fc.tuple(filesArb(seeds), fc.option(filesArb(seeds), { nil: undefined }), metaBytesArb).map(([files, before, meta]) => ({
    kind: 'link' as const,
    data: SHARE_PREFIX + toBase64Url(encodeShareBytesWithRawMeta({ files, ...(before ? { before } : {}) }, meta)),
  }));
}

// ---- The property ----

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const isString = (v: unknown, max = MAX_META_STRING_CHARS): v is string => typeof v === 'string' && v.length <= max;
const isPosInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const onlyKeys = (o: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(o).every((k) => keys.includes(k) && o[k] !== undefined);
const isList = (v: unknown, max: number, item: (x: unknown) => boolean): boolean =>
  Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && v.length <= max && v.every(item);

function fileProblem(f: unknown): boolean {
  return !(
    isPlainObject(f) &&
    onlyKeys(f, ['path', 'text']) &&
    isString(f.path, MAX_PATH_CHARS) &&
    f.path.length > 0 &&
    !/[\u0000-\u001f\u007f]/.test(f.path) &&
    typeof f.text === 'string'
  );
}

/** What is wrong with a decoded state's types or sizes, or null: the shape ShareState promises, within the documented caps. */
export function shareStateProblem(s: unknown): string | null {
  if (!isPlainObject(s)) return 'not a plain object';
  if (!onlyKeys(s, ['files', 'before', 'openTabs', 'view', 'settings', 'title', 'redacted'])) return `unexpected keys ${JSON.stringify(Object.keys(s))}`;
  if (!isList(s.files, MAX_FILES, (f) => !fileProblem(f))) return 'files';
  if (s.before !== undefined && !isList(s.before, MAX_FILES, (f) => !fileProblem(f))) return 'before';
  if ((s.files as unknown[]).length + ((s.before as unknown[] | undefined)?.length ?? 0) > MAX_FILES) return 'over MAX_FILES';
  const paths = new Set((s.files as ShareFile[]).map((f) => f.path));
  if (paths.size !== (s.files as unknown[]).length) return 'a path twice';
  if (s.openTabs !== undefined && !(isList(s.openTabs, MAX_OPEN_TABS, (t) => typeof t === 'string' && paths.has(t)) && (s.openTabs as unknown[]).length > 0))
    return 'openTabs';
  if (s.view !== undefined) {
    const v = s.view;
    if (!isPlainObject(v) || !onlyKeys(v, ['file', 'line', 'diagnostic', 'selections']) || Object.keys(v).length === 0) return 'view';
    if (v.file !== undefined && !isString(v.file)) return 'view.file';
    if (v.line !== undefined && !isPosInt(v.line)) return 'view.line';
    const d = v.diagnostic;
    if (
      d !== undefined &&
      !(isPlainObject(d) && onlyKeys(d, ['code', 'file', 'line']) && isString(d.code) && isString(d.file) && (d.line === undefined || isPosInt(d.line)))
    )
      return 'view.diagnostic';
    const sel = v.selections;
    if (
      sel !== undefined &&
      !(
        isPlainObject(sel) &&
        Object.keys(sel).length > 0 &&
        Object.keys(sel).length <= MAX_SELECTIONS &&
        Object.entries(sel).every(([k, x]) => k.length <= MAX_META_STRING_CHARS && isString(x))
      )
    )
      return 'view.selections';
  }
  if (s.settings !== undefined) {
    const st = s.settings;
    if (!isPlainObject(st) || !onlyKeys(st, ['includePlaceholders', 'suppressions'])) return 'settings';
    if (st.includePlaceholders !== undefined && typeof st.includePlaceholders !== 'boolean') return 'settings.includePlaceholders';
    if (st.suppressions !== undefined && !isList(st.suppressions, MAX_SUPPRESSIONS, (x) => isString(x))) return 'settings.suppressions';
  }
  if (s.title !== undefined && !(isString(s.title, MAX_TITLE_CHARS) && s.title.length > 0)) return 'title';
  if (
    s.redacted !== undefined &&
    !(
      isList(
        s.redacted,
        MAX_REDACTED_ITEMS,
        (r) => isPlainObject(r) && onlyKeys(r, ['file', 'line', 'what']) && isString(r.file) && isPosInt(r.line) && isString(r.what),
      ) && (s.redacted as unknown[]).length > 0
    )
  )
    return 'redacted';
  return null;
}

type Decoded = { state: ShareState } | { error: ShareLinkError };

/** Decodes, keeping a ShareLinkError as an answer; anything else thrown escapes (a crash). */
function decodeOrError(fragment: string, cap: number): Decoded {
  try {
    return { state: decodeShareFragment(fragment, { maxDecompressedBytes: cap }) };
  } catch (e) {
    if (e instanceof ShareLinkError) return { error: e };
    throw new FuzzFailure('crash', `decodeShareFragment threw ${describeError(e)} (not a ShareLinkError)`);
  }
}

export function checkShareLink(input: ShareLinkInput, options: CheckOptions): CheckOutcome {
  if (input.kind === 'import') {
    const t0 = performance.now();
    const r = fromB64(input.data);
    try {
      const files = importBundle(input.name ?? 'import.yaml', r);
      if (!Array.isArray(files)) throw new FuzzFailure('divergence', 'import gave no list');
    } catch (e) {
      if (e instanceof FuzzFailure) throw e;
      if (!(e instanceof ImportError)) throw new FuzzFailure('crash', `importBundle threw ${describeError(e)} (not an ImportError)`);
      if (!e.message || /undefined|\[object/.test(e.message)) throw new FuzzFailure('divergence', `import error without a sane message: ${e.message}`);
    }
    const ms = performance.now() - t0;
    if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `importBundle took ${ms.toFixed(0)} ms`);
    return 'ok';
  }
  const out = guarded('decodeShareFragment', options.timeLimitMs, () => decodeOrError(input.data, FUZZ_CAP));
  if ('error' in out) {
    const e = out.error;
    if (!e.message || /undefined|NaN|\[object/.test(e.message))
      throw new FuzzFailure('divergence', `link error without a sane message: ${JSON.stringify(e.message)}`);
    return 'ok';
  }
  const state = out.state;
  const problem = shareStateProblem(state);
  if (problem) throw new FuzzFailure('divergence', `the decoded state is not a well-typed ShareState within the caps: ${problem}`);
  const size = state.files.reduce((n, f) => n + f.text.length, 0) + (state.before ?? []).reduce((n, f) => n + f.text.length, 0);
  if (size > FUZZ_CAP) throw new FuzzFailure('divergence', `decoded ${size} characters, over the cap`);
  let link: string;
  try {
    link = encodeShareFragment(state);
  } catch (e) {
    throw new FuzzFailure('divergence', `a decoded state does not encode again: ${describeError(e)}`);
  }
  const again = decodeOrError(link, FUZZ_CAP * 2);
  if ('error' in again) throw new FuzzFailure('divergence', `a decoded link re-encodes to a link that does not open: ${again.error.message}`);
  if (JSON.stringify(again.state) !== JSON.stringify(state)) throw new FuzzFailure('divergence', 'a decoded link re-encodes to a different state');
  return 'ok';
}

function fromB64(s: string): Uint8Array {
  const bin = s.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(bin + '='.repeat((4 - (bin.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

export const shareLinkTarget: Target<ShareLinkInput> = {
  name: 'share-link',
  description:
    'share-link decoder and workspace import: a well-typed state or a typed error only, caps hold, decode∘encode round-trips; crafted meta inside valid links',
  arbitrary: (seeds) =>
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(stateArb(seeds), fc.array(mutationArb, { maxLength: 3 }))
          .map(([s, ms]) => ({ kind: 'link' as const, data: SHARE_PREFIX + toBase64Url(mutate(encodeShareBytes(s), ms)) })),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(stateArb(seeds), fc.nat(), fc.constantFrom('!', '%', '=', ' ', 'A', '%zz', '\u00e9')).map(([s, at, c]) => {
          const f = encodeShareFragment(s);
          const i = SHARE_PREFIX.length + (at % Math.max(1, f.length - SHARE_PREFIX.length));
          return { kind: 'link' as const, data: f.slice(0, i) + c + f.slice(i + 1) };
        }),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => ({ kind: 'link' as const, data: SHARE_PREFIX + s })) },
      { weight: 6, arbitrary: craftedLinkArb(seeds) },
      {
        weight: 2,
        arbitrary: fc.tuple(stateArb(seeds), fc.boolean(), fc.array(mutationArb, { maxLength: 3 })).map(([s, zip, ms]) => ({
          kind: 'import' as const,
          name: zip ? 'w.zip' : 'w.yaml',
          data: toBase64Url(mutate(zip ? exportZip(s.files) : new TextEncoder().encode(exportYamlBundle(s.files)), ms)),
        })),
      },
    ),
  check: checkShareLink,
  async: false,
  smokeRuns: 500,
};
