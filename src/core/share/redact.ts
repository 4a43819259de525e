// Redaction before sharing. It reads each file the way the app does (the same splitter, the
// same value reader, the same positioned parse the editor's squiggles use) and rewrites the
// text from the source ranges of what it read:
// - a Secret (by the app's reading of `kind`, and by any `kind` key the positioned parse
//   sees when keys are duplicated) keeps only its identity and shape: apiVersion, kind,
//   type, name, namespace, labels, annotations, data keys, and values that are nothing but
//   certificates. Every other value, its comments and anything an alias pulls in are masked;
// - a kubeconfig keeps its clusters and contexts; its users' values are masked;
// - anywhere else, a value holding a private key (any encoding) or a kubeconfig with
//   credentials is masked;
// - a document the app cannot read is masked conservatively (conservative.ts): without a
//   reading, any value could be a Secret's.
// Then it checks itself with the app's reader: the redacted text must hold no Secret value,
// no key material and no piece of a value it masked; a document that fails is masked
// conservatively. Private-key armour and base64 keys are also cut from the raw text, which
// covers comments and files that are not YAML at all. No line moves.
import { Parser, isAlias, isMap, isScalar, isSeq, visit, type Document, type Node as YamlNode, type YAMLMap } from 'yaml';
import { splitDocuments } from '../document/split.ts';
import { parseSourceDocument } from '../document/parse.ts';
import { positionedDocument, withLoneCrAsLf } from '../document/locate.ts';
import { isObj, str } from '../document/read.ts';
import { MAX_YAML_DEPTH } from '../document/yamlSchema.ts';
import type { SourceDocument } from '../document/types.ts';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, isRedactionMarker } from '../document/redactionMarkers.ts';
import {
  BASE64_RUN,
  decodeBase64Loose,
  hasPrivateKeyArmour,
  holdsPrivateKey,
  isKubeconfigWithCredentials,
  isCertificatesOnly,
  isCertificatesOnlyBase64,
  isSecretMaterial,
  keyStartInRun,
} from './keyMaterial.ts';
import { maskConservatively } from './conservative.ts';
import { SecretPieces } from './pieces.ts';
import { bytesToLatin1, decodeBase64Std } from '../pki/base64.ts';
import type { RedactedItem, ShareFile } from './link.ts';

export { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, isRedactionMarker } from '../document/redactionMarkers.ts';

export interface RedactionResult {
  files: ShareFile[];
  items: RedactedItem[];
}

interface Cut {
  start: number;
  end: number;
  replacement: string;
  what: string;
  /** Found in the raw text rather than read: where it overlaps a cut from reading, that one's replacement wins. */
  raw?: boolean;
}

type Path = Array<string | number>;

/** A Secret or kubeconfig the app reads in a document: where, and its name for the list. */
interface Target {
  kind: 'secret' | 'kubeconfig';
  path: Path;
  who: string;
}

const PEM_PRIVATE_BLOCK = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g;
/** Secret fields that say what the Secret is, not what it holds. */
const SECRET_IDENTITY = new Set(['apiVersion', 'kind', 'type', 'immutable']);
const METADATA_IDENTITY = new Set([
  'name',
  'namespace',
  'generateName',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);
/** kubectl keeps the whole object, Secret data included, in this annotation. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Keys shown as they are (`<<`, a merge key, too: what it pulls in is masked where it comes from). */
const SIMPLE_KEY = /^(?:[A-Za-z0-9_./-]{1,253}|<<)$/;
/**
 * Masked values shorter than this are not searched for in the redacted text: short ones
 * (`admin`, a namespace) also stand in public fields. They are still checked by reading.
 */
const MIN_CHECKED_CHARS = 12;

/**
 * `Secret`, however written, as a careful reader would take it: `Secret"` or `secret` while
 * typing, and a value that starts with the word Secret (`"Secret` whose quote, left open,
 * ran on over the lines below; SecretProviderClass is another kind).
 */
function isSecretKind(kind: unknown): boolean {
  if (typeof kind !== 'string') return false;
  return kind.replace(/[^A-Za-z]/g, '').toLowerCase() === 'secret' || /^[^A-Za-z]*secret(?![A-Za-z])/i.test(kind);
}

/**
 * A Secret, or what may be one while it is typed: its kind names a Secret; or it has Secret
 * fields and no kind (a quote left open above `kind:` swallowed it); or the word Secret
 * stands in its apiVersion (the same, one line earlier).
 */
function couldBeSecret(o: Record<string, unknown>): boolean {
  if (isSecretKind(o.kind)) return true;
  if (typeof o.kind !== 'string' && (o.data !== undefined || o.stringData !== undefined)) return true;
  return typeof o.apiVersion === 'string' && /secret/i.test(o.apiVersion);
}

function isKubeconfig(o: Record<string, unknown>): boolean {
  return (o.kind === 'Config' && Array.isArray(o.users)) || (Array.isArray(o.users) && (Array.isArray(o.clusters) || Array.isArray(o.contexts)));
}

function targetName(kind: string, o: Record<string, unknown>): string {
  const meta = isObj(o.metadata) ? o.metadata : {};
  const ns = str(meta.namespace);
  return `${kind} ${ns ? `${ns}/` : ''}${str(meta.name)}`.trimEnd();
}

/**
 * Secrets and kubeconfigs in a value as the app read it: the root, List items, a sequence of
 * objects; and what a careful reader takes for one beyond that: a List's `items` written as a
 * single object, and Lists inside Lists at any depth the reader reads.
 */
function findTargets(value: unknown, path: Path, out: Target[], depth = 0): void {
  if (depth > MAX_YAML_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => findTargets(v, [...path, i], out, depth + 1));
    return;
  }
  if (!isObj(value)) return;
  if (couldBeSecret(value)) out.push({ kind: 'secret', path, who: targetName('Secret', value) });
  else if (isKubeconfig(value)) out.push({ kind: 'kubeconfig', path, who: 'kubeconfig' });
  if (isObj(value.items) || Array.isArray(value.items)) findTargets(value.items, [...path, 'items'], out, depth + 1);
}

/** Every string in a value (keys too, unless `valuesOnly`), depth-first; stops when `visit` returns true. */
function someString(value: unknown, visit: (s: string) => boolean, valuesOnly = false, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return visit(value);
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.some((v) => someString(v, visit, valuesOnly, seen));
  for (const [k, v] of Object.entries(value)) if ((!valuesOnly && visit(k)) || someString(v, visit, valuesOnly, seen)) return true;
  return false;
}

type SecretField = 'data' | 'stringData' | 'user';

/**
 * Each value the app reads under a secret field: every entry of a Secret's `data` and
 * `stringData` (the field itself when it is not a mapping), every string of a kubeconfig
 * user. Stops when `visit` returns true, and says so.
 */
function someSecretValue(value: unknown, visit: (v: unknown, field: SecretField) => boolean): boolean {
  const targets: Target[] = [];
  findTargets(value, [], targets);
  for (const t of targets) {
    const o = valueAtPath(value, t.path);
    if (!isObj(o)) continue;
    if (t.kind === 'kubeconfig') {
      for (const u of Array.isArray(o.users) ? o.users : []) if (isObj(u) && someString(u.user, (s) => visit(s, 'user'), true)) return true;
      continue;
    }
    for (const field of ['data', 'stringData'] as const) {
      const m = o[field];
      if (m === undefined || m === null) continue;
      if (!isObj(m)) {
        if (visit(m, field)) return true;
        continue;
      }
      for (const v of Object.values(m)) if (visit(v, field)) return true;
    }
  }
  return false;
}

/** A value that may stay: empty, a marker, or certificates (base64 in `data`). */
function isPublicIn(field: SecretField, v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v !== 'string') return false;
  return field === 'user' ? isPublicValue(v) : isPublicSecretValue(field, v);
}

/** What the app reads under a Secret's or kubeconfig's secret fields: the strings that must not survive. */
function secretStrings(value: unknown): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (s.length >= MIN_CHECKED_CHARS && !isRedactionMarker(s)) out.push(s);
  };
  someSecretValue(value, (v, field) => {
    if (typeof v !== 'string' || isPublicIn(field, v)) return false;
    add(v);
    if (field === 'data') {
      const bytes = decodeBase64Std(v.replace(/\s+/g, ''));
      if (bytes) add(bytesToLatin1(bytes));
    }
    return false;
  });
  someString(value, (s) => (isSecretMaterial(s) ? (add(s), false) : false));
  return out;
}

/** A certificate block, also with fewer dashes (a YAML reader takes a leading `---` for a document marker). */
const PEM_CERTIFICATE_BLOCK = /-*BEGIN (?:TRUSTED )?CERTIFICATE-+[\s\S]*?-+END (?:TRUSTED )?CERTIFICATE-+/g;

/**
 * What a document shows in public: its certificates, as text and as the base64 they are
 * written in. A piece of a masked value found here is no leak (a bundle that was masked
 * for its key shares its certificate with the `tls.crt` next to it).
 */
function publicTextOf(value: unknown): string {
  let out = '';
  someString(
    value,
    (s) => {
      if (s.length < 40) return false;
      if (isCertificatesOnlyBase64(s)) out += s.replace(/\s+/g, '') + '\n';
      else if (s.includes('CERTIFICATE-')) for (const m of s.matchAll(PEM_CERTIFICATE_BLOCK)) out += m[0].replace(/\s+/g, '') + '\n';
      return false;
    },
    true,
  );
  return out;
}

function valueAtPath(value: unknown, path: Path): unknown {
  let cur = value;
  for (const seg of path) {
    if (typeof seg === 'number') cur = Array.isArray(cur) ? cur[seg] : undefined;
    else cur = isObj(cur) && Object.hasOwn(cur, seg) ? cur[seg] : undefined;
  }
  return cur;
}

function isPublicValue(s: string): boolean {
  return s === '' || isRedactionMarker(s) || isCertificatesOnly(s) || isCertificatesOnlyBase64(s);
}

function isPublicSecretValue(field: 'data' | 'stringData', v: string): boolean {
  if (v === '' || isRedactionMarker(v)) return true;
  return field === 'data' ? isCertificatesOnlyBase64(v) || decodedIsMarker(v) : isCertificatesOnly(v);
}

function decodedIsMarker(v: string): boolean {
  // The longest marker, PRIVATE_KEY_MARKER, is 36 characters: 48 in base64.
  if (v.length > 64) return false;
  const bytes = decodeBase64Std(v.replace(/\s+/g, ''));
  return !!bytes && isRedactionMarker(bytesToLatin1(bytes));
}

/**
 * Whether the app's reading of a (redacted) document is clean: every Secret value a marker,
 * empty or certificates, every kubeconfig credential masked, no key material anywhere.
 */
function readingIsClean(value: unknown): boolean {
  if (someSecretValue(value, (v, field) => !isPublicIn(field, v))) return false;
  return !someString(value, (s) => !isRedactionMarker(s) && isSecretMaterial(s));
}

/** The line breaks of a text, in order (what a cut leaves behind so that no line moves). */
function lineBreaksOf(s: string): string {
  const m = s.match(/\r\n|\r|\n/g);
  return m ? m.join('') : '';
}

/** Applies cuts (sorted, not overlapping) to a text. */
function applyCuts(text: string, cuts: readonly Cut[], offset = 0): string {
  let out = '';
  let at = 0;
  for (const c of cuts) {
    const start = c.start - offset;
    const end = c.end - offset;
    const removed = text.slice(start, end);
    const breaks = lineBreaksOf(removed);
    const lastBreak = Math.max(removed.lastIndexOf('\n'), removed.lastIndexOf('\r'));
    // The indentation a multi-line range ran into stays, so the next line keeps its place.
    const tail = breaks && lastBreak >= 0 ? removed.slice(lastBreak + 1) : '';
    out += text.slice(at, start) + c.replacement + breaks + (/^[ \t]*$/.test(tail) ? tail : '');
    at = end;
  }
  return out + text.slice(at);
}

/** Sorts cuts and merges overlapping ones into their union (the first one's replacement). */
function mergeCuts(cuts: Cut[]): Cut[] {
  cuts.sort((a, b) => a.start - b.start || Number(a.raw ?? false) - Number(b.raw ?? false) || b.end - a.end);
  const out: Cut[] = [];
  for (const c of cuts) {
    const last = out[out.length - 1];
    if (last && c.start < last.end) {
      last.end = Math.max(last.end, c.end);
      continue;
    }
    out.push({ ...c });
  }
  return out;
}

/** Comments of a document text, from the `yaml` package's token stream (offsets in the text). */
function commentRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  // A token nests about four deep for each level of the document, which the reader reads to MAX_YAML_DEPTH levels.
  const walk = (o: unknown, depth: number): void => {
    if (depth > 8 * MAX_YAML_DEPTH || typeof o !== 'object' || o === null) return;
    if (Array.isArray(o)) {
      for (const x of o) walk(x, depth + 1);
      return;
    }
    const t = o as { type?: unknown; offset?: unknown; source?: unknown };
    if (t.type === 'comment' && typeof t.offset === 'number' && typeof t.source === 'string') {
      out.push([t.offset, t.offset + t.source.length]);
      return;
    }
    for (const v of Object.values(o)) walk(v, depth + 1);
  };
  try {
    for (const token of new Parser().parse(withLoneCrAsLf(text))) walk(token, 0);
  } catch {
    return out;
  }
  return out;
}

/** Collects the cuts for one document the app reads, in document offsets, walking its positioned parse. */
class DocumentRedactor {
  readonly cuts: Cut[] = [];
  private readonly masked = new Set<YamlNode>();

  constructor(
    private readonly ydoc: Document.Parsed,
    private readonly text: string,
  ) {}

  private cut(node: YamlNode, replacement: string, what: string): void {
    const r = node.range;
    if (!r || r[1] <= r[0]) return;
    this.cuts.push({ start: r[0], end: r[1], replacement, what });
  }

  private resolve(node: unknown): unknown {
    let n = node;
    for (let i = 0; i < 64 && isAlias(n); i++) n = n.resolve(this.ydoc);
    return n;
  }

  /** The node the app's path leads to (the last of duplicated keys, aliases followed). */
  nodeAt(path: Path): unknown {
    let n: unknown = this.resolve(this.ydoc.contents);
    for (const seg of path) {
      if (typeof seg === 'number') {
        if (!isSeq(n)) return undefined;
        n = n.items[seg];
      } else {
        if (!isMap(n)) return undefined;
        let found: unknown;
        for (const p of n.items) if (isScalar(p.key) && String(p.key.value) === seg) found = p.value;
        n = found;
      }
      n = this.resolve(n);
    }
    return n;
  }

  /** Masks every value under a node (simple keys stay), following aliases to what they stand for. */
  maskAll(node: unknown, what: string, keepCertificates = false): void {
    if (isAlias(node)) {
      this.maskAll(node.resolve(this.ydoc), what, keepCertificates);
      return;
    }
    if (!node || typeof node !== 'object' || this.masked.has(node as YamlNode)) return;
    this.masked.add(node as YamlNode);
    if (isScalar(node)) {
      const v = node.value;
      if (v === null || v === '' || (keepCertificates && typeof v === 'string' && isPublicValue(v))) return;
      this.cut(node, JSON.stringify(STRING_MARKER), what);
    } else if (isMap(node)) {
      for (const p of node.items) {
        if (!(isScalar(p.key) && SIMPLE_KEY.test(String(p.key.value)))) this.maskAll(p.key, what);
        this.maskAll(p.value, what, keepCertificates);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) this.maskAll(item, what, keepCertificates);
    }
  }

  private keyOf(p: { key: unknown }): string | undefined {
    return isScalar(p.key) && SIMPLE_KEY.test(String(p.key.value)) ? String(p.key.value) : undefined;
  }

  private keepScalar(node: unknown, what: string): void {
    // A value kept as it is must be a scalar on one line: an alias or a collection may carry
    // anything, and a quote left open runs on over the lines below and swallows them.
    if (isScalar(node) && !this.spansLines(node)) this.valueRule(node, what);
    else this.maskAll(node, what);
  }

  private spansLines(node: YamlNode): boolean {
    const r = node.range;
    return !r || /[\r\n]/.test(this.text.slice(r[0], r[1]));
  }

  secret(node: YAMLMap, who: string): void {
    for (const p of node.items) {
      const key = this.keyOf(p);
      if (key === undefined) {
        this.maskAll(p.key, `${who}`);
        this.maskAll(p.value, `${who}`);
      } else if (SECRET_IDENTITY.has(key)) this.keepScalar(p.value, `${who} ${key}`);
      else if (key === 'metadata' && isMap(p.value)) this.metadata(p.value, who);
      else if ((key === 'data' || key === 'stringData') && isMap(p.value)) this.secretValues(p.value, key, who);
      else this.maskAll(p.value, `${who} ${key}`);
    }
  }

  private metadata(node: YAMLMap, who: string): void {
    for (const p of node.items) {
      const key = this.keyOf(p);
      if (key !== undefined && METADATA_IDENTITY.has(key)) this.keepScalar(p.value, `${who} metadata.${key}`);
      else if ((key === 'labels' || key === 'annotations') && isMap(p.value)) {
        for (const a of p.value.items) {
          const name = this.keyOf(a);
          if (name === undefined || name === LAST_APPLIED) {
            if (name === undefined) this.maskAll(a.key, `${who} metadata.${key}`);
            this.maskAll(a.value, `${who} metadata.${key}${name ? `["${name}"]` : ''}`);
          } else this.keepScalar(a.value, `${who} metadata.${key}["${name}"]`);
        }
      } else {
        // A key that is not a plain name may be anything: masked as it is in the Secret itself.
        if (key === undefined) this.maskAll(p.key, `${who} metadata`);
        this.maskAll(p.value, `${who} metadata${key ? `.${key}` : ''}`);
      }
    }
  }

  private secretValues(node: YAMLMap, field: 'data' | 'stringData', who: string): void {
    for (const p of node.items) {
      const key = this.keyOf(p);
      const what = `${who} ${field}[${JSON.stringify(key ?? '?')}]`;
      if (key === undefined) this.maskAll(p.key, what);
      const v = p.value;
      if (isScalar(v) && !this.masked.has(v)) {
        const s = v.value;
        if (s === null || s === '' || (typeof s === 'string' && isPublicSecretValue(field, s))) continue;
        this.masked.add(v);
        this.cut(v, JSON.stringify(field === 'data' ? DATA_MARKER : STRING_MARKER), what);
      } else this.maskAll(v, what);
    }
  }

  kubeconfig(node: YAMLMap, who: string): void {
    for (const p of node.items) {
      const key = this.keyOf(p);
      if (key === 'users') this.maskAll(p.value, `${who} users`, true);
      else this.everyValue(p.value);
    }
  }

  /** The rule for values outside Secrets: key material and kubeconfigs with credentials are masked. */
  private valueRule(node: YamlNode, what: string): void {
    if (!isScalar(node) || typeof node.value !== 'string' || this.masked.has(node)) return;
    const v = node.value;
    if (isRedactionMarker(v) || !isSecretMaterial(v)) return;
    this.masked.add(node);
    // Keys written as PEM blocks in the value's own text are cut there (rawTextCuts), which
    // keeps the rest, certificates included, as it was written.
    const r = node.range;
    if (r && !isSecretMaterial(this.text.slice(r[0], r[1]).replace(PEM_PRIVATE_BLOCK, ''))) return;
    this.cut(node, JSON.stringify(maskedValue(v)), what.startsWith('Secret') ? what : keyMaterialName(v));
  }

  /** Applies the value rule to every scalar under a node (aliases are followed where they stand). */
  everyValue(node: unknown, depth = 0): void {
    if (depth > 400) return;
    const n = this.resolve(node);
    if (isScalar(n)) this.valueRule(n, '');
    else if (isMap(n)) {
      for (const p of n.items) {
        this.everyValue(p.key, depth + 1);
        this.everyValue(p.value, depth + 1);
      }
    } else if (isSeq(n)) for (const item of n.items) this.everyValue(item, depth + 1);
  }

  /** Maps whose `kind` key, any of its duplicates, names a Secret: what a duplicate may hide from the app. */
  secretMapsByAnyKind(node: unknown, out: YAMLMap[], depth = 0): void {
    const n = this.resolve(node);
    if (depth > MAX_YAML_DEPTH) return;
    if (isSeq(n)) {
      for (const item of n.items) this.secretMapsByAnyKind(item, out, depth + 1);
      return;
    }
    if (!isMap(n)) return;
    if (n.items.some((p) => isScalar(p.key) && p.key.value === 'kind' && isSecretKind(scalarValue(this.resolve(p.value))))) out.push(n);
    for (const p of n.items) if (isScalar(p.key) && p.key.value === 'items') this.secretMapsByAnyKind(p.value, out, depth + 1);
  }

  maskComments(text: string, who: string): void {
    for (const [start, end] of commentRanges(text)) if (end - start > 1) this.cuts.push({ start, end, replacement: '#', what: `${who} comment` });
  }
}

function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

/** What a value outside a Secret becomes: its private-key blocks replaced when that is all it holds, else a marker. */
function maskedValue(v: string): string {
  if (!holdsPrivateKey(v)) return STRING_MARKER;
  const trimmed = v.replace(/\s+/g, '');
  if (trimmed.length > 0 && decodeBase64Loose(trimmed) && !/-----/.test(v)) return DATA_MARKER;
  if (isCertificatesOnly(v.replace(PEM_PRIVATE_BLOCK, '')) || hasPrivateKeyArmour(v)) {
    const kept = v.replace(PEM_PRIVATE_BLOCK, PRIVATE_KEY_MARKER);
    if (!isSecretMaterial(kept)) return kept;
  }
  return PRIVATE_KEY_MARKER;
}

function keyMaterialName(v: string): string {
  if (!holdsPrivateKey(v)) return isKubeconfigWithCredentials(v) ? 'kubeconfig credentials' : 'a Secret written as text';
  const m = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/.exec(v);
  return m ? m[1]!.toLowerCase() : 'private key (encoded)';
}

interface DocumentResult {
  cuts: Cut[];
  /** Strings the app read that must not appear in the redacted text. */
  secrets: string[];
  /** Its certificates (see publicTextOf). */
  publicText: string;
  /** True when the document must be masked conservatively. */
  conservative: boolean;
  /** The document's text after its cuts, when the app's reading of it was checked and found clean. */
  readClean?: string;
}

/**
 * False only for text whose reading cannot hold anything redaction masks, so that most
 * documents of a large workspace are not read twice. Every way a reading can arrive at a
 * Secret, a kubeconfig or key material leaves a mark in the text: the letters of `secret`
 * in order (a kind folded over lines or typed half-way too), `users`, armour (`begin`, its
 * letters spaced), a `data` key, a run of base64 long enough to hold a key, or an escape
 * or alias, which can spell anything.
 */
function mayHoldSecrets(text: string): boolean {
  if (/[\\*]|s[^a-z]*e[^a-z]*c[^a-z]*r[^a-z]*e[^a-z]*t|users|b\s*e\s*g\s*i\s*n/i.test(text)) return true;
  // A `data` or `stringData` key: without a kind, that may be a Secret too (couldBeSecret).
  if (/(?:^|[\s{,"'])(?:string)?data["']?\s*:/im.test(text)) return true;
  for (const m of text.matchAll(BASE64_RUN)) if (m[0].length >= 40) return true;
  return false;
}

/** A line of a mapping (`key:` or `- key:`), as it looks in the lines a quote swallowed. */
const MAPPING_LINE = /^[ \t]*(?:-[ \t]+)?["']?[\w./-]+["']?[ \t]*:(?:[ \t]|$)/;

/**
 * True when an open quote may have swallowed the lines below it: a quote opened and not
 * closed on some line (a cheap look at the text), and then either the positioned parse
 * refuses what the value reader took (js-yaml reads a double-quoted scalar on over the
 * lines; the `yaml` package stops at the line's end), or a quoted scalar runs over a line
 * that reads as a mapping entry.
 */
function quoteSwallowsLines(text: string): boolean {
  // An escaped quote (`\"`) inside a double-quoted scalar closes nothing: it is left out of the count.
  if (!text.split(/\r\n|\r|\n/).some((l) => (l.replace(/\\./g, '').match(/"/g)?.length ?? 0) % 2 === 1 || (l.match(/'/g)?.length ?? 0) % 2 === 1)) return false;
  const ydoc = positionedDocument(text);
  if (!ydoc || ydoc.errors.length > 0) return true;
  let swallowed = false;
  visit(ydoc, {
    Scalar(_key, node) {
      if ((node.type !== 'QUOTE_DOUBLE' && node.type !== 'QUOTE_SINGLE') || !node.range) return undefined;
      const source = text.slice(node.range[0], node.range[1]);
      const lines = source.split(/\r\n|\r|\n/).slice(1);
      // A quote the positioned parse closed at the end of the line, where the value reader reads on.
      const closed = node.type === 'QUOTE_DOUBLE' ? /^"(?:[^"\\]|\\[\s\S])*"$/.test(source) : /^'(?:[^']|'')*'$/.test(source);
      if (!closed || lines.some((l) => MAPPING_LINE.test(l))) {
        swallowed = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return swallowed;
}

function redactDocument(doc: SourceDocument): DocumentResult {
  if (!mayHoldSecrets(doc.text)) return { cuts: [], secrets: [], publicText: '', conservative: false };
  const parsed = parseSourceDocument(doc);
  if (parsed.value === undefined) {
    // Read as nothing without a complaint (comments only): the raw-text scan covers it.
    return { cuts: [], secrets: [], publicText: '', conservative: parsed.problems.length > 0 };
  }
  // A quote left open reads on over the lines below and turns them into one value: what the
  // reader then sees is no longer what was written, so nothing in it can be trusted.
  if (quoteSwallowsLines(doc.text)) return { cuts: [], secrets: [], publicText: '', conservative: true };
  const targets: Target[] = [];
  findTargets(parsed.value, [], targets);
  const secrets = secretStrings(parsed.value);
  const publicText = secrets.length > 0 ? publicTextOf(parsed.value) : '';
  const duplicates = (parsed.duplicateKeys?.length ?? 0) > 0;
  if (targets.length === 0 && secrets.length === 0 && !duplicates) return { cuts: [], secrets, publicText, conservative: false, readClean: doc.text };
  const ydoc = positionedDocument(doc.text);
  if (!ydoc || ydoc.errors.length > 0) return { cuts: [], secrets, publicText, conservative: true };
  const r = new DocumentRedactor(ydoc, doc.text);
  const secretMaps = new Set<YAMLMap>();
  for (const t of targets) {
    const node = r.nodeAt(t.path);
    if (!isMap(node)) return { cuts: [], secrets, publicText, conservative: true };
    if (t.kind === 'secret') {
      secretMaps.add(node);
      r.secret(node, t.who);
    } else r.kubeconfig(node, t.who);
  }
  if (duplicates) {
    const more: YAMLMap[] = [];
    r.secretMapsByAnyKind(ydoc.contents, more);
    for (const m of more) if (!secretMaps.has(m)) r.secret(m, 'Secret');
  }
  r.everyValue(ydoc.contents);
  if (targets.length > 0) r.maskComments(doc.text, targets[0]!.who);
  const cuts = mergeCuts([...r.cuts, ...rawTextCuts(doc.text)]);
  // The check: the app's reading of the result, and no piece of what was masked.
  const text = applyCuts(doc.text, cuts);
  const again = parseSourceDocument({ ...doc, text });
  const clean = (again.value === undefined || readingIsClean(again.value)) && !new SecretPieces(secrets, publicText, MIN_CHECKED_CHARS).foundIn(text);
  return {
    cuts: cuts.map((c) => ({ ...c, start: c.start + doc.startOffset, end: c.end + doc.startOffset })),
    secrets,
    publicText,
    conservative: !clean,
    ...(clean ? { readClean: text } : {}),
  };
}

/** Private-key armour and base64 keys in the raw text: comments, files that are not YAML, anything. */
function rawTextCuts(text: string): Cut[] {
  const cuts: Cut[] = [];
  if (/begin/i.test(text)) {
    for (const m of text.matchAll(PEM_PRIVATE_BLOCK))
      cuts.push({ start: m.index, end: m.index + m[0].length, replacement: PRIVATE_KEY_MARKER, what: m[1]!.toLowerCase(), raw: true });
  }
  for (const m of text.matchAll(BASE64_RUN)) {
    if (m[0].length < 40) continue;
    const run = m[0].replace(/#/g, '');
    if (!holdsPrivateKey(run)) continue;
    // Words above a key that joined its run stay: the cut starts at the key's line, after its indentation and `#`.
    const lines = (run.slice(0, Math.max(0, keyStartInRun(run))).match(/\r\n|\r|\n/g) ?? []).length;
    const start = m.index + startOfLine(m[0], lines);
    cuts.push({ start, end: m.index + m[0].length, replacement: DATA_MARKER, what: 'private key (encoded)', raw: true });
  }
  return cuts;
}

/** The offset of line `n` of a run (0 for the first), past its indentation and comment mark. */
function startOfLine(run: string, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) {
    const next = /\r\n|\r|\n/.exec(run.slice(at));
    if (!next) break;
    at += next.index + next[0].length;
  }
  return at === 0 ? 0 : at + /^[ \t]*#?[ \t]*/.exec(run.slice(at))![0].length;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const CONSERVATIVE_WHAT = 'a document that could not be read as YAML: every value masked';

function redactFile(f: ShareFile): { text: string; items: RedactedItem[] } {
  const docs = splitDocuments(f.path, f.text);
  const cuts: Cut[] = [];
  const secrets: string[] = [];
  // A bundle repeated in many documents is public once.
  const publicParts = new Set<string>();
  const conservativeDocs: SourceDocument[] = [];
  // Redacted documents already read and found clean: the final check need not read them again.
  const readClean = new Set<string>();
  for (const doc of docs) {
    const r = redactDocument(doc);
    if (r.readClean !== undefined) readClean.add(r.readClean);
    secrets.push(...r.secrets);
    if (r.publicText) publicParts.add(r.publicText);
    if (r.conservative) conservativeDocs.push(doc);
    else cuts.push(...r.cuts);
  }
  for (const doc of conservativeDocs) {
    cuts.push({ start: doc.startOffset, end: doc.startOffset + doc.text.length, replacement: '', what: CONSERVATIVE_WHAT });
  }
  const all = mergeCuts([...cuts, ...rawTextCuts(f.text)]);
  if (all.length === 0) return { text: f.text, items: [] };
  const starts = lineStarts(f.text);
  const items = all.map((c) => ({ file: f.path, line: lineAt(starts, c.start), what: c.what }));
  let text = '';
  let at = 0;
  for (const c of all) {
    // A document masked conservatively keeps its shape; any other cut becomes its marker.
    const body =
      c.what === CONSERVATIVE_WHAT
        ? maskedConservatively(f.text.slice(c.start, c.end))
        : applyCuts(f.text.slice(c.start, c.end), [{ ...c, start: 0, end: c.end - c.start }]);
    text += f.text.slice(at, c.start) + body;
    at = c.end;
  }
  text += f.text.slice(at);
  return checkedFile(f.path, text, items, readClean, new SecretPieces(secrets, [...publicParts].join('\n'), MIN_CHECKED_CHARS));
}

/**
 * The last check, on the whole redacted file as the app would read it: a document that
 * still shows a Secret value, key material or a piece of a masked value is masked
 * conservatively; if a piece still shows (across documents), the whole file is. A document
 * whose text is one already read clean (`readClean`) is only searched for pieces.
 */
function checkedFile(
  path: string,
  text: string,
  items: RedactedItem[],
  readClean: ReadonlySet<string>,
  pieces: SecretPieces,
): { text: string; items: RedactedItem[] } {
  let out = '';
  let at = 0;
  let changed = false;
  for (const doc of splitDocuments(path, text)) {
    const shows = pieces.foundIn(doc.text);
    if (!shows && (readClean.has(doc.text) || !mayHoldSecrets(doc.text))) continue;
    const parsed = parseSourceDocument(doc);
    const clean = (parsed.value === undefined || readingIsClean(parsed.value)) && !shows;
    if (clean) continue;
    out += text.slice(at, doc.startOffset) + maskedConservatively(doc.text);
    at = doc.startOffset + doc.text.length;
    changed = true;
    items.push({ file: path, line: doc.startLine, what: CONSERVATIVE_WHAT });
  }
  if (!changed) return { text, items };
  out += text.slice(at);
  if (pieces.foundIn(out)) {
    // Conservative masking keeps simple keys: a masked value written as a key still shows there.
    const masked = maskConservatively(out);
    return {
      text: pieces.foundIn(masked) ? maskEveryLine(masked) : masked,
      items: [...items, { file: path, line: 1, what: 'the whole file: every value masked' }],
    };
  }
  items.sort((a, b) => a.line - b.line);
  return { text: out, items };
}

/**
 * Conservative masking, or every line masked when what it keeps still holds a private key: it
 * keeps simple keys, and a key can be a private key's base64 (the raw scan's cut of it is
 * merged into the document's conservative cut).
 */
function maskedConservatively(text: string): string {
  const masked = maskConservatively(text);
  return holdsPrivateKey(masked) ? maskEveryLine(masked) : masked;
}

/** The last resort: every line but its indentation and document markers, keys too. Line breaks stay. */
function maskEveryLine(text: string): string {
  return text.replace(/[^\r\n\u0085\u2028\u2029]+/g, (line) => {
    const lead = /^[ \t]*/.exec(line)![0];
    return lead.length === line.length || /^(?:---|\.\.\.)[ \t]*$/.test(line) ? line : `${lead}${STRING_MARKER}`;
  });
}

/** Secret values and private keys in these files (what `redact` would replace), without changing anything. */
export function findSecrets(files: readonly ShareFile[]): RedactedItem[] {
  return redact(files).items;
}

export function redact(files: readonly ShareFile[]): RedactionResult {
  const items: RedactedItem[] = [];
  const outFiles = files.map((f) => {
    const r = redactFile(f);
    items.push(...r.items);
    return r.text === f.text ? f : { path: f.path, text: r.text };
  });
  return { files: outFiles, items };
}
