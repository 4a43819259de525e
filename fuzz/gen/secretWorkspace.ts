// Workspaces holding secret material in every shape a person writes it, edited the way
// people edit (half-typed quotes, duplicate keys, odd line endings, aliases, merge keys,
// Lists, JSON), for the redaction target. Each workspace comes with its ground truth: the
// secret strings (random tokens, private-key bodies, and the base64 stretches that encode
// only secret bytes) that must not appear in a share link.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';

const MATERIAL = JSON.parse(readFileSync(new URL('../../tests/fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const CERT = MATERIAL.leafCert!;
const ROOT = MATERIAL.rootCert!;
/** Private keys as text (armoured), by name. */
const KEY_TEXTS = ['rsaPkcs8', 'rsaPkcs1', 'ecSec1', 'encryptedPkcs8', 'ed25519Pkcs8', 'opensshKey', 'pgpKey', 'bagAttributesPem'] as const;

/** The certificates the workspaces hold in public, as text (a piece of a key found in them is no leak). */
export function publicMaterial(): string[] {
  return [CERT, ROOT, CERT + ROOT];
}

export interface SecretWorkspace {
  files: Array<{ path: string; text: string }>;
  /** Strings that must not appear in the link (compared without white space, in 24-character pieces). */
  secrets: string[];
}

const b64 = (s: string | Uint8Array) => Buffer.from(s as string).toString('base64');

/** The armoured block of a key text (what is secret in it; "Bag Attributes" and certificates are not). */
function keyBlock(text: string): string {
  const m = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.exec(text);
  return m ? m[0] : text;
}

/** The base64 of `whole`, plus the stretch of it that encodes only `part` (registered as secret). */
function base64With(whole: string, part: string, secrets: string[]): string {
  const encoded = b64(whole);
  const at = Buffer.from(whole.slice(0, whole.indexOf(part))).length;
  const end = at + Buffer.from(part).length;
  const from = Math.ceil(at / 3) * 4;
  const to = Math.floor(end / 3) * 4;
  if (to - from >= 24) secrets.push(encoded.slice(from, to));
  return encoded;
}

function keyBody(text: string): string {
  return keyBlock(text)
    .split('\n')
    .filter((l) => !l.startsWith('-----') && !/^[A-Za-z-]+: /.test(l))
    .join('');
}

/** A value of a Secret or ConfigMap, with what is secret in it. */
type ValueSpec =
  | { t: 'token' }
  | { t: 'config' }
  | { t: 'key'; key: number; encoding: 'pem' | 'base64' | 'wrapped' | 'json' | 'folded'; width: number }
  | { t: 'der' }
  | { t: 'p12' }
  | { t: 'cert' }
  | { t: 'certAndToken' }
  | { t: 'kubeconfig'; wrapWidth: number };

interface Rendered {
  /** The value as the app should read it. */
  text: string;
  /** How to write it: as it is (block literal when multi-line), or already-written YAML. */
  yaml?: string;
}

function renderValue(v: ValueSpec, token: string, secrets: string[], inData: boolean): Rendered {
  switch (v.t) {
    case 'token':
      secrets.push(token);
      return { text: token };
    case 'config':
      secrets.push(token);
      return { text: `[db]\nuser = app\npassword = ${token}\n` };
    case 'key': {
      const name = KEY_TEXTS[v.key % KEY_TEXTS.length]!;
      const text = MATERIAL[name]!;
      secrets.push(keyBody(text));
      if (v.encoding === 'base64' || v.encoding === 'wrapped') {
        const enc = base64With(text, keyBlock(text), secrets);
        if (v.encoding === 'wrapped') return { text: enc.match(new RegExp(`.{1,${v.width}}`, 'g'))!.join('\n') + '\n' };
        return { text: enc };
      }
      if (v.encoding === 'json') return { text, yaml: JSON.stringify(text) };
      if (v.encoding === 'folded') {
        // A plain scalar folded over lines: the armour breaks between its words.
        const words = text
          .trim()
          .replace(/-----(BEGIN|END) /g, '-----$1\n')
          .split(/\s+/);
        return { text: words.join(' '), yaml: words.join('\n    ') };
      }
      return { text };
    }
    case 'der':
      secrets.push(MATERIAL.rsaDerBase64!);
      return { text: MATERIAL.rsaDerBase64! };
    case 'p12':
      secrets.push(MATERIAL.pkcs12Base64!.slice(120, 600));
      return { text: MATERIAL.pkcs12Base64! };
    case 'cert':
      return { text: inData ? b64(CERT + ROOT) : CERT + ROOT };
    case 'certAndToken': {
      secrets.push(token);
      const text = `${CERT}password: ${token}\n`;
      return { text: inData ? base64With(text, token, secrets) : text };
    }
    case 'kubeconfig': {
      secrets.push(token, keyBody(MATERIAL.ecSec1!));
      const keyData = base64With(MATERIAL.ecSec1!, keyBlock(MATERIAL.ecSec1!), secrets);
      return {
        text: `apiVersion: v1\nkind: Config\nclusters:\n- name: east\n  cluster:\n    server: https://east.example:6443\n    certificate-authority-data: ${b64(ROOT)}\nusers:\n- name: admin\n  user:\n    token: ${token}\n    client-key-data: ${keyData}\ncontexts:\n- name: east\n  context: {cluster: east, user: admin}\n`,
      };
    }
  }
}

/** YAML for a value at an indentation (a block literal for multi-line text). */
function yamlValue(r: Rendered, indent: number, quote: number): string {
  if (r.yaml !== undefined) return r.yaml;
  if (r.text.includes('\n')) {
    const pad = ' '.repeat(indent + 2);
    const body = r.text
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (l === '' ? '' : pad + l))
      .join('\n');
    return `|${r.text.endsWith('\n') ? '' : '-'}\n${body}`;
  }
  if (quote % 3 === 1) return JSON.stringify(r.text);
  if (quote % 3 === 2) return `'${r.text.replace(/'/g, "''")}'`;
  return /^[A-Za-z0-9+/=._-]+$/.test(r.text) ? r.text : JSON.stringify(r.text);
}

type DocKind = 'secret' | 'configMap' | 'kubeconfig' | 'remote' | 'service' | 'virtualService' | 'publicCerts';

interface DocSpec {
  kind: DocKind;
  values: ValueSpec[];
  /** 0 block, 1 flow, 2 JSON. */
  style: number;
  quote: number;
  comment: boolean;
  anchorTrick: number;
}

const NAMES = ['payments', 'ingress-cert', 'cacerts', 'db', 'api'];

function renderDoc(d: DocSpec, tokens: () => string, secrets: string[], n: number): string {
  const name = `${NAMES[n % NAMES.length]}-${n}`;
  if (d.kind === 'service')
    return `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  selector: {app: ${name}}\n  ports:\n  - name: http\n    port: 80\n`;
  if (d.kind === 'virtualService')
    return `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  hosts: [${name}]\n  http:\n  - route:\n    - destination: {host: ${name}, subset: v1}\n`;
  if (d.kind === 'publicCerts')
    return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}-ca\ndata:\n  root-cert.pem: |\n${(CERT + ROOT)
      .trimEnd()
      .split('\n')
      .map((l) => '    ' + l)
      .join('\n')}\n`;
  const isSecret = d.kind === 'secret' || d.kind === 'remote';
  // Outside a Secret only key material and credentials are secret: a token in a ConfigMap is
  // just text to any reader, so a ConfigMap gets certificates in its place.
  const values = (d.values.length ? d.values : [{ t: 'token' } as ValueSpec]).map(
    (v): ValueSpec => (isSecret || !['token', 'config', 'certAndToken'].includes(v.t) ? v : { t: 'cert' }),
  );
  const entries = values.map((v, i) => {
    const inData = isSecret && i % 2 === 0;
    const spec: ValueSpec = d.kind === 'remote' ? { t: 'kubeconfig', wrapWidth: 0 } : v;
    const r = renderValue(spec, tokens(), secrets, inData);
    const text = inData && spec.t !== 'cert' && spec.t !== 'certAndToken' ? b64(r.text) : r.text;
    if (inData && spec.t !== 'cert' && spec.t !== 'certAndToken') secrets.push(...secretsIn(text, r.text, secrets));
    return { field: inData ? 'data' : 'stringData', key: `k${i}.${spec.t}`, value: inData && text !== r.text ? { text } : { ...r, text } };
  });
  const kind = isSecret ? 'Secret' : d.kind === 'kubeconfig' ? 'Config' : 'ConfigMap';
  if (d.kind === 'kubeconfig') {
    const token = tokens();
    secrets.push(token);
    return `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://10.1.2.3:6443"}\nusers:\n- name: admin\n  user:\n    username: admin\n    password: ${token}\n`;
  }
  if (d.style === 2) {
    const obj: Record<string, unknown> = { apiVersion: 'v1', kind, metadata: { name, namespace: 'istio-system' } };
    for (const e of entries) {
      const field = isSecret ? e.field : 'data';
      obj[field] ??= {} as Record<string, string>;
      (obj[field] as Record<string, string>)[e.key] = e.value.text;
    }
    return JSON.stringify(obj, null, d.quote % 2 ? 2 : undefined) + '\n';
  }
  const lines = [`apiVersion: v1`, `kind: ${kind}`, `metadata:`, `  name: ${name}`, `  namespace: istio-system`];
  if (d.kind === 'remote') lines.push('  labels:', '    istio/multiCluster: "true"');
  if (d.anchorTrick === 1 && isSecret) {
    // A value given by an alias: the anchor stands in a label.
    const token = tokens();
    secrets.push(token);
    lines.push('  annotations:', `    copy: &tok ${token}`);
    entries.push({ field: 'stringData', key: 'aliased', value: { text: token, yaml: '*tok' } });
  }
  if (d.comment && isSecret) {
    const token = tokens();
    secrets.push(token);
    lines.push(`# previous value: ${token}`);
  }
  for (const field of ['data', 'stringData']) {
    const mine = entries.filter((e) => (isSecret ? e.field === field : field === 'data'));
    if (mine.length === 0) continue;
    if (d.style === 1) {
      lines.push(
        `${field}: {${mine.map((e) => `${JSON.stringify(e.key)}: ${e.value.text.includes('\n') || e.value.yaml ? JSON.stringify(e.value.text) : yamlValue(e.value, 2, d.quote)}`).join(', ')}}`,
      );
    } else {
      lines.push(`${field}:`);
      for (const e of mine) lines.push(`  ${e.key}: ${yamlValue(e.value, 2, d.quote)}`);
    }
  }
  if (d.anchorTrick === 3 && isSecret) {
    // The whole stringData map given by an alias of a label map.
    const token = tokens();
    secrets.push(token);
    lines.splice(3, 0, `  labels: &whole {aliasmap: ${token}}`);
    lines.push('stringData: *whole');
  }
  if (d.anchorTrick === 2 && isSecret) {
    // Merge keys: the values come from a mapping written under metadata.
    const token = tokens();
    secrets.push(token);
    lines.splice(3, 0, `  labels: &base {merged: ${token}}`);
    lines.push('stringData:', '  <<: *base');
  }
  return lines.join('\n') + '\n';
}

/** The base64 stretches of a data value that encode only secret strings already registered. */
function secretsIn(encoded: string, plain: string, known: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of known) {
    const at = plain.indexOf(s);
    if (at < 0 || s.length < 18) continue;
    const from = Math.ceil(Buffer.from(plain.slice(0, at)).length / 3) * 4;
    const to = Math.floor(Buffer.from(plain.slice(0, at + s.length)).length / 3) * 4;
    if (to - from >= 24) out.push(encoded.slice(from, to));
  }
  return out;
}

type Edit =
  | { e: 'quote'; line: number; char: number }
  | { e: 'dupKind'; doc: number; after: boolean }
  | { e: 'dupData'; doc: number }
  | { e: 'endings'; how: number }
  | { e: 'separator'; how: number }
  | { e: 'kindSpelling'; how: number }
  | { e: 'kindAlias' }
  | { e: 'listAlias'; doc: number }
  | { e: 'list'; from: number }
  | { e: 'bom' }
  | { e: 'trailing'; line: number };

const KIND_SPELLINGS = ['"Secre\\x74"', '"\\u0053ecret"', "'Secret'", '!!str Secret', '"Secret"', 'Secret # the kind'];
const SEPARATORS = ['---\u00a0', '--- ', '---\t', '---\u2003', '---'];

function lines(text: string): string[] {
  return text.split('\n');
}

function applyEdit(
  docs: string[],
  edit: Edit,
  tokens: () => string,
  secrets: string[],
): { docs: string[]; endings?: number; separator?: number; bom?: boolean } {
  const pick = (n: number) => n % docs.length;
  switch (edit.e) {
    case 'quote': {
      const d = pick(edit.line);
      const ls = lines(docs[d]!);
      const i = edit.line % ls.length;
      const l = ls[i]!;
      // After the colon or at the end of a line: half-typed text, never inside a key.
      const colon = l.indexOf(': ');
      ls[i] =
        colon >= 0 && edit.char % 2 === 0
          ? `${l.slice(0, colon + 2)}${edit.char % 4 === 0 ? '"' : "'"}${l.slice(colon + 2)}`
          : `${l}${edit.char % 3 === 0 ? '"' : "'"}`;
      docs[d] = ls.join('\n');
      return { docs };
    }
    case 'dupKind': {
      const d = pick(edit.doc);
      if (!/^kind: Secret$/m.test(docs[d]!)) return { docs };
      docs[d] = docs[d]!.replace(/^kind: Secret$/m, edit.after ? 'kind: Secret\nkind: ConfigMap' : 'kind: ConfigMap\nkind: Secret');
      return { docs };
    }
    case 'dupData': {
      const d = pick(edit.doc);
      if (!/^kind: Secret$/m.test(docs[d]!) || !/^stringData:$/m.test(docs[d]!)) return { docs };
      const token = tokens();
      secrets.push(token, ...secretsIn(b64(token), token, [token]));
      docs[d] = docs[d]!.replace(/^stringData:$/m, `stringData:\n  shadowed: ${token}\nstringData:`);
      return { docs };
    }
    case 'endings':
      return { docs, endings: edit.how };
    case 'separator':
      return { docs, separator: edit.how };
    case 'kindSpelling':
      return { docs: docs.map((t) => t.replace(/^kind: Secret$/m, `kind: ${KIND_SPELLINGS[edit.how % KIND_SPELLINGS.length]}`)) };
    case 'kindAlias':
      // `kind: *k`, the anchor on an annotation written before it.
      return {
        docs: docs.map((t) =>
          /^kind: Secret$/m.test(t) && /^apiVersion: v1$/m.test(t)
            ? t.replace(/^kind: Secret$/m, 'kind: *k').replace(/^apiVersion: v1$/m, 'apiVersion: v1\nx-kind: &k Secret')
            : t,
        ),
      };
    case 'listAlias': {
      // A List whose item is an alias of the Secret, written (anchored) under another key.
      const d = pick(edit.doc);
      if (!/^kind: Secret$/m.test(docs[d]!) || docs[d]!.trimStart().startsWith('{')) return { docs };
      const body = docs[d]!.trimEnd()
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n');
      docs[d] = `apiVersion: v1\nkind: List\nx-stash:\n- &s\n${body}\nitems:\n- *s\n`;
      return { docs };
    }
    case 'list': {
      // The documents from `from` on become the items of one kind: List.
      const from = edit.from % docs.length;
      const items = docs.slice(from).filter((t) => !t.trimStart().startsWith('{'));
      if (items.length === 0) return { docs };
      const list = `apiVersion: v1\nkind: List\nitems:\n${items
        .map((t) =>
          t
            .trimEnd()
            .split('\n')
            .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
            .join('\n'),
        )
        .join('\n')}\n`;
      return { docs: [...docs.slice(0, from), ...docs.slice(from).filter((t) => t.trimStart().startsWith('{')), list] };
    }
    case 'bom':
      return { docs, bom: true };
    case 'trailing': {
      const d = pick(edit.line);
      docs[d] = lines(docs[d]!)
        .map((l, i) => (i % 3 === edit.line % 3 ? `${l} \t` : l))
        .join('\n');
      return { docs };
    }
  }
}

const valueArb: fc.Arbitrary<ValueSpec> = fc.oneof(
  fc.constant({ t: 'token' as const }),
  fc.constant({ t: 'config' as const }),
  fc.record({
    t: fc.constant('key' as const),
    key: fc.nat(KEY_TEXTS.length - 1),
    encoding: fc.constantFrom('pem' as const, 'base64' as const, 'wrapped' as const, 'json' as const, 'folded' as const),
    width: fc.integer({ min: 16, max: 90 }),
  }),
  fc.constant({ t: 'der' as const }),
  fc.constant({ t: 'p12' as const }),
  fc.constant({ t: 'cert' as const }),
  fc.constant({ t: 'certAndToken' as const }),
  fc.record({ t: fc.constant('kubeconfig' as const), wrapWidth: fc.nat(80) }),
);

const docArb: fc.Arbitrary<DocSpec> = fc.record({
  kind: fc.constantFrom<DocKind>('secret', 'secret', 'secret', 'configMap', 'configMap', 'kubeconfig', 'remote', 'service', 'virtualService', 'publicCerts'),
  values: fc.array(valueArb, { minLength: 1, maxLength: 3 }),
  style: fc.nat(5).map((n) => (n < 4 ? 0 : n - 3)),
  quote: fc.nat(5),
  comment: fc.boolean(),
  anchorTrick: fc.nat(4),
});

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ e: fc.constant('quote' as const), line: fc.nat(200), char: fc.nat(11) }),
  fc.record({ e: fc.constant('dupKind' as const), doc: fc.nat(5), after: fc.boolean() }),
  fc.record({ e: fc.constant('dupData' as const), doc: fc.nat(5) }),
  fc.record({ e: fc.constant('endings' as const), how: fc.nat(3) }),
  fc.record({ e: fc.constant('separator' as const), how: fc.nat(SEPARATORS.length - 1) }),
  fc.record({ e: fc.constant('kindSpelling' as const), how: fc.nat(KIND_SPELLINGS.length - 1) }),
  fc.record({ e: fc.constant('list' as const), from: fc.nat(5) }),
  fc.constant({ e: 'bom' as const }),
  fc.constant({ e: 'kindAlias' as const }),
  fc.record({ e: fc.constant('listAlias' as const), doc: fc.nat(5) }),
  fc.record({ e: fc.constant('trailing' as const), line: fc.nat(100) }),
);

export const secretWorkspaceArb: fc.Arbitrary<SecretWorkspace> = fc
  .record({
    files: fc.array(fc.record({ docs: fc.array(docArb, { minLength: 1, maxLength: 4 }), edits: fc.array(editArb, { maxLength: 4 }), json: fc.nat(7) }), {
      minLength: 1,
      maxLength: 2,
    }),
    tokenSeed: fc.array(fc.stringMatching(/^[A-Za-z0-9]{18}$/), { minLength: 8, maxLength: 8 }),
  })
  .map(({ files, tokenSeed }) => {
    const secrets: string[] = [];
    let t = 0;
    // Tokens are random and long, so that none turns up in the text by chance.
    const tokens = () => `Tk${t}x${tokenSeed[t++ % tokenSeed.length]}`;
    const out = files.map((f, i) => {
      let docs = f.docs.map((d, n) => renderDoc(d, tokens, secrets, i * 10 + n));
      let endings = 0;
      let separator = SEPARATORS.length - 1;
      let bom = false;
      for (const e of f.edits) {
        const r = applyEdit(docs, e, tokens, secrets);
        docs = r.docs;
        if (r.endings !== undefined) endings = r.endings;
        if (r.separator !== undefined) separator = r.separator;
        if (r.bom) bom = true;
      }
      let text = docs.join(`${SEPARATORS[separator]}\n`);
      if (endings === 1) text = text.replace(/\n/g, '\r\n');
      else if (endings === 2) text = text.replace(/\n/g, '\r');
      else if (endings === 3)
        text = text
          .split('\n')
          .map((l, k) => l + (k % 2 ? '\r\n' : '\n'))
          .join('')
          .slice(0, -1);
      if (bom) text = '\ufeff' + text;
      return { path: `ws${i}.${f.json === 0 && docs.length === 1 ? 'json' : 'yaml'}`, text };
    });
    return { files: out, secrets: [...new Set(secrets)].filter((s) => s.replace(/\s+/g, '').length >= 16) };
  });
