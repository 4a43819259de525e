// YAML-ish texts for differential fuzzing: a structure-aware generator (a random tree of
// mappings, sequences and scalars of every style, rendered with random indentation,
// comments, anchors, aliases, merge keys and tags), mutations of real manifests, and soups
// of YAML's significant tokens. Character noise (tabs, CR and CRLF line breaks, control
// characters, BOMs, unicode) goes on top. Everything is a fast-check arbitrary, so a
// failing text shrinks to a small one.
import fc from 'fast-check';

/** Plain scalars that mean something special to YAML or to JavaScript. */
const TRICKY_WORDS = [
  'a',
  'b',
  'reviews',
  'reviews-typo',
  'v1',
  'x y',
  'true',
  'False',
  'TRUE',
  'yes',
  'No',
  'on',
  'null',
  'Null',
  'NULL',
  '~',
  '',
  '0',
  '-0',
  '+1',
  '1',
  '010',
  '08',
  '0o17',
  '0x1F',
  '0X1f',
  '0b101',
  '1_000',
  '1.5',
  '1.',
  '-.5',
  '.5',
  '1e3',
  '1E-3',
  '+12e03',
  '.inf',
  '-.Inf',
  '+.INF',
  '.NaN',
  '.nan',
  '2020-01-01',
  '2001-12-14t21:59:43.10-05:00',
  '12:30',
  '1:2:3',
  '<<',
  '=',
  '-',
  '--',
  '---',
  '...',
  '?',
  '?x',
  '? x',
  ':x',
  'x:',
  'a:b',
  'a: b',
  'a #b',
  'a#b',
  '#x',
  '@x',
  '`x',
  '%x',
  '!x',
  '&x',
  '*x',
  '|',
  '|-',
  '>',
  '- x',
  '-x',
  'http://a.b:80/c#d',
  'é',
  '日本',
  '😀',
  'a\u00a0b',
  'a\u2028b',
  'a\u0085b',
  'a\ufeffb',
  'a\tb',
  'a\rb',
  'a\x7fb',
  'a\x01b',
  'a\x00b',
  'a\ud800b',
  'toString',
  '__proto__',
  'constructor',
  'valueOf',
  'hasOwnProperty',
  '[a]',
  '[a',
  'a]',
  '{a: b}',
  '{a',
  'a}',
  '"q"',
  "'q'",
  "it's",
  'a,b',
  'a , b',
  '{{ .Values.x }}',
  '{{- if .Values.x }}',
];

const WORD_CHARS = [
  ...'abcdefxyzAZ0189',
  ' ',
  ' ',
  '-',
  '_',
  '.',
  '/',
  ':',
  '#',
  ',',
  '[',
  ']',
  '{',
  '}',
  '&',
  '*',
  '!',
  '|',
  '>',
  "'",
  '"',
  '%',
  '@',
  '`',
  '?',
  '\\',
  '=',
  '<',
  'é',
  '日',
  '😀',
  '\u00a0',
  '\t',
  '\r',
  '\n',
  '\u2028',
  '\u0085',
  '\x00',
  '\x07',
  '\x7f',
  '\ufeff',
  '\ud800',
];

export const word: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_WORDS) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...WORD_CHARS), maxLength: 8 }) },
);

/** Mostly harmless words, for documents that should usually be valid. */
const cleanWord: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'a',
      'b',
      'c',
      'host',
      'name',
      'reviews',
      'v1',
      'x y',
      '1',
      '0x1F',
      'true',
      'null',
      '~',
      '1.5',
      'é',
      'a#b',
      'a:b',
      'http://a:80/x',
      'toString',
      '__proto__',
      '<<',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'abcxyz019 -_./'), minLength: 1, maxLength: 6 }) },
);

const ESCAPES = [
  '\\n',
  '\\t',
  '\\\\',
  '\\"',
  '\\x41',
  '\\u00e9',
  '\\U0001F600',
  '\\0',
  '\\e',
  '\\N',
  '\\_',
  '\\L',
  '\\P',
  '\\/',
  '\\ ',
  '\\q',
  '\\x4',
  '\\u12',
  '\\UFFFFFFFF',
  '\\ud800',
  '\\',
];

type Style = 'plain' | 'single' | 'double' | 'literal' | 'folded';

export type YNode =
  | { t: 'scalar'; style: Style; text: string; header: string; escape: string; props: Props }
  | { t: 'map'; flow: boolean; entries: Entry[]; props: Props; step: number }
  | { t: 'seq'; flow: boolean; items: YNode[]; props: Props; step: number; sameIndent: boolean }
  | { t: 'alias'; name: string };

interface Entry {
  key: { style: 'plain' | 'single' | 'double' | 'flow' | 'explicit'; text: string };
  value: YNode;
  comment: string | null;
}

interface Props {
  anchor: string | null;
  tag: string | null;
}

const noProps: Props = { anchor: null, tag: null };

function propsArb(clean: boolean): fc.Arbitrary<Props> {
  if (clean) return fc.constant(noProps);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(noProps) },
    {
      weight: 1,
      arbitrary: fc.record({
        anchor: fc.option(fc.constantFrom('a', 'b', 'c'), { freq: 2 }),
        tag: fc.option(
          fc.constantFrom('!!str', '!!int', '!!map', '!!seq', '!!null', '!!bool', '!!float', '!!merge', '!custom', '!<tag:yaml.org,2002:str>', '!'),
          { freq: 3 },
        ),
      }),
    },
  );
}

function treeArb(clean: boolean): fc.Arbitrary<YNode> {
  const w = clean ? cleanWord : word;
  const styles: Style[] = clean ? ['plain', 'plain', 'plain', 'single', 'double', 'literal'] : ['plain', 'plain', 'single', 'double', 'literal', 'folded'];
  const headers = clean ? ['', '', '-', '+'] : ['', '', '-', '+', '2', '-2', '+1', '#c', ' #c', '0', '--'];
  return fc.letrec<{ node: YNode; scalar: YNode; map: YNode; seq: YNode; alias: YNode }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth: 5, withCrossShrink: true }, tie('scalar'), tie('map'), tie('seq'), ...(clean ? [] : [tie('alias')])),
    scalar: fc.record({
      t: fc.constant('scalar' as const),
      style: fc.constantFrom(...styles),
      text: w,
      header: fc.constantFrom(...headers),
      escape: clean ? fc.constant('') : fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...ESCAPES) }),
      props: propsArb(clean),
    }),
    map: fc.record({
      t: fc.constant('map' as const),
      flow: fc.constantFrom(false, false, false, true),
      entries: fc.array(
        fc.record({
          key: fc.record({
            style: clean
              ? fc.constantFrom('plain' as const, 'plain' as const, 'single' as const, 'double' as const)
              : fc.constantFrom(
                  'plain' as const,
                  'plain' as const,
                  'plain' as const,
                  'single' as const,
                  'double' as const,
                  'flow' as const,
                  'explicit' as const,
                ),
            text: w,
          }),
          value: tie('node'),
          comment: fc.option(fc.constantFrom(' # c', ' #c', '#c', '\n# full line', '\n  # indented', '\n', '\n\n'), { freq: 4 }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      props: propsArb(clean),
      step: fc.constantFrom(2, 2, 1, 3, 4),
    }),
    seq: fc.record({
      t: fc.constant('seq' as const),
      flow: fc.constantFrom(false, false, true),
      items: fc.array(tie('node'), { minLength: clean ? 1 : 0, maxLength: 4 }),
      props: propsArb(clean),
      step: fc.constantFrom(2, 2, 1, 3, 4),
      sameIndent: fc.boolean(),
    }),
    alias: fc.record({ t: fc.constant('alias' as const), name: fc.constantFrom('a', 'b', 'c', 'zz') }),
  })).node;
}

function quoteSingle(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function quoteDouble(s: string, escape: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}${escape}"`;
}

function propsText(p: Props): string {
  return [p.anchor ? `&${p.anchor}` : '', p.tag ?? ''].filter(Boolean).join(' ');
}

/** A scalar written inline (after `key: ` or `- `); block scalars get their lines indented to `bodyIndent`. */
function inlineScalar(n: Extract<YNode, { t: 'scalar' }>, bodyIndent: number): string {
  const pad = ' '.repeat(bodyIndent);
  switch (n.style) {
    case 'plain':
      return n.text.replace(/\n/g, `\n${pad}`);
    case 'single':
      return quoteSingle(n.text).replace(/\n/g, `\n${pad}`);
    case 'double':
      return quoteDouble(n.text, n.escape).replace(/\n/g, `\n${pad}`);
    case 'literal':
    case 'folded': {
      const body = n.text
        .split('\n')
        .map((l) => (l === '' ? '' : pad + l))
        .join('\n');
      return `${n.style === 'literal' ? '|' : '>'}${n.header}\n${body}`;
    }
  }
}

function keyText(k: Entry['key']): string {
  switch (k.style) {
    case 'plain':
      return k.text;
    case 'single':
      return quoteSingle(k.text);
    case 'double':
      return quoteDouble(k.text, '');
    case 'flow':
      return `[${k.text}]`;
    case 'explicit':
      return `? ${k.text}\n`;
  }
}

function flowText(n: YNode): string {
  if (n.t === 'alias') return `*${n.name}`;
  const props = n.t === 'scalar' || n.t === 'map' || n.t === 'seq' ? propsText(n.props) : '';
  const pre = props ? `${props} ` : '';
  if (n.t === 'scalar') {
    if (n.style === 'single') return pre + quoteSingle(n.text);
    if (n.style === 'double') return pre + quoteDouble(n.text, n.escape);
    return pre + n.text;
  }
  if (n.t === 'map') return `${pre}{${n.entries.map((e) => `${keyText(e.key)}: ${flowText(e.value)}`).join(', ')}}`;
  return `${pre}[${n.items.map(flowText).join(', ')}]`;
}

/** Text after `key:` or `-` for a node whose parent line is at `indent` (including the final newline). */
function after(n: YNode, indent: number): string {
  if (n.t === 'alias') return ` *${n.name}\n`;
  const props = propsText(n.props);
  const pre = props ? ` ${props}` : '';
  if (n.t === 'scalar') return `${pre} ${inlineScalar(n, indent + 2)}\n`;
  if (n.flow) return ` ${flowText(n)}\n`;
  if (n.t === 'map') return `${pre}\n${blockMap(n, indent + n.step)}`;
  return `${pre}\n${blockSeq(n, n.sameIndent ? indent : indent + n.step)}`;
}

function blockMap(n: Extract<YNode, { t: 'map' }>, indent: number): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const e of n.entries) {
    const k = keyText(e.key);
    out += k.endsWith('\n') ? `${pad}${k}${pad}:${after(e.value, indent)}` : `${pad}${k}:${after(e.value, indent)}`;
    if (e.comment) out = out.replace(/\n$/, `${e.comment}\n`);
  }
  return out;
}

function blockSeq(n: Extract<YNode, { t: 'seq' }>, indent: number): string {
  const pad = ' '.repeat(indent);
  if (n.items.length === 0) return `${pad}[]\n`;
  let out = '';
  for (const item of n.items) {
    if ((item.t === 'map' || item.t === 'seq') && !item.flow && !propsText(item.props)) {
      // Compact form: `- key: value` / `- - item`, the rest indented under the first.
      const inner = item.t === 'map' ? blockMap(item, indent + 2) : blockSeq(item, indent + 2);
      out += `${pad}- ${inner.slice(indent + 2)}`;
    } else {
      out += `${pad}-${after(item, indent)}`;
    }
  }
  return out;
}

/** A whole document from a tree, with optional markers and leading indentation. */
export function renderDocument(root: YNode, frame: { start: string; end: string; lead: number }): string {
  let body: string;
  if (root.t === 'map' && !root.flow) body = blockMap(root, frame.lead);
  else if (root.t === 'seq' && !root.flow) body = blockSeq(root, frame.lead);
  else body = `${' '.repeat(frame.lead)}${root.t === 'scalar' ? inlineScalar(root, frame.lead + 1) : flowText(root)}\n`;
  return frame.start + body + frame.end;
}

/** Tokens that change YAML's reading when inserted anywhere. */
const NOISE = [
  '\t',
  '\t',
  '\r',
  '\r\n',
  '\n',
  ' ',
  '  ',
  '#',
  '- ',
  ': ',
  ':',
  '-',
  '?',
  ',',
  '[',
  ']',
  '{',
  '}',
  '&a ',
  '*a',
  '!!str ',
  '|',
  '>',
  '"',
  "'",
  '\\',
  '\x00',
  '\x01',
  '\x1b',
  '\x7f',
  '\x85',
  '\ufeff',
  '\u2028',
  '\ud800',
  '\udc00',
  '<<: ',
  '<<: *a\n',
  '---\n',
  '...\n',
  '%YAML 1.2\n',
  '@',
  '`',
  '{{ .Values.x }}',
  'é',
  '😀',
  '\u00a0',
];

export interface Noise {
  at: number;
  token: string;
}

export const noiseArb: fc.Arbitrary<Noise> = fc.record({ at: fc.nat(), token: fc.constantFrom(...NOISE) });

export function applyNoise(text: string, noise: readonly Noise[]): string {
  let t = text;
  for (const n of noise) {
    const at = n.at % (t.length + 1);
    t = t.slice(0, at) + n.token + t.slice(at);
  }
  return t;
}

/** Whole-text changes: line break styles and tab indentation. */
const TRANSFORMS = ['none', 'none', 'none', 'crlf', 'cr', 'tab-indent', 'trailing-tab', 'bom', 'no-final-newline', 'trailing-spaces'] as const;
export type Transform = (typeof TRANSFORMS)[number];
export const transformArb: fc.Arbitrary<Transform> = fc.constantFrom(...TRANSFORMS);

export function applyTransform(text: string, t: Transform): string {
  switch (t) {
    case 'none':
      return text;
    case 'crlf':
      return text.replace(/\n/g, '\r\n');
    case 'cr':
      return text.replace(/\n/g, '\r');
    case 'tab-indent':
      return text.replace(/^( +)/gm, (m) => (m.length % 2 === 0 ? '\t'.repeat(m.length / 2) : m));
    case 'trailing-tab':
      return text.replace(/([^\n])\n/, '$1\t\n');
    case 'bom':
      return `\ufeff${text}`;
    case 'no-final-newline':
      return text.replace(/\n$/, '');
    case 'trailing-spaces':
      return text.replace(/\n/g, '  \n');
  }
}

const frameArb = fc.record({
  start: fc.constantFrom('', '', '', '', '---\n', '--- ', '%YAML 1.2\n---\n', '\n\n', '# lead\n'),
  end: fc.constantFrom('', '', '', '', '...\n', '---\n', '# tail\n', '\n\n'),
  lead: fc.constantFrom(0, 0, 0, 0, 1, 2),
});

/** A generated document with character noise: anything from valid YAML to garbage. */
export const structuredYaml: fc.Arbitrary<string> = fc
  .record({ tree: treeArb(false), frame: frameArb, transform: transformArb, noise: fc.array(noiseArb, { maxLength: 3 }) })
  .map(({ tree, frame, transform, noise }) => applyNoise(applyTransform(renderDocument(tree, frame), transform), noise));

/** A generated document without noise, tags or aliases: usually valid YAML (for the line finder). */
export const cleanYaml: fc.Arbitrary<string> = fc
  .record({ tree: treeArb(true), transform: fc.constantFrom<Transform>('none', 'none', 'none', 'crlf', 'trailing-spaces', 'no-final-newline') })
  .map(({ tree, transform }) => applyTransform(renderDocument(tree, { start: '', end: '', lead: 0 }), transform));

/** A window of a real document (so shrinking cuts it down) with noise and line edits on top. */
export function mutatedSeed(seeds: readonly string[], clean = false): fc.Arbitrary<string> {
  if (seeds.length === 0) return clean ? cleanYaml : structuredYaml;
  const edit = fc.record({ line: fc.nat(), op: fc.constantFrom('dup', 'drop', 'indent+', 'indent-', 'swap') });
  return fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      from: fc.nat({ max: 400 }),
      count: fc.integer({ min: 1, max: 80 }),
      edits: fc.array(edit, { maxLength: clean ? 2 : 3 }),
      noise: clean ? fc.constant([]) : fc.array(noiseArb, { maxLength: 3 }),
      transform: clean ? fc.constant<Transform>('none') : transformArb,
    })
    .map(({ seed, from, count, edits, noise, transform }) => {
      const all = (seeds[seed] as string).split('\n');
      const start = all.length > 1 ? from % all.length : 0;
      const lines = all.slice(start, start + count);
      for (const e of edits) {
        if (lines.length === 0) break;
        const i = e.line % lines.length;
        const l = lines[i] as string;
        if (e.op === 'dup') lines.splice(i, 0, l);
        else if (e.op === 'drop') lines.splice(i, 1);
        else if (e.op === 'indent+') lines[i] = ` ${l}`;
        else if (e.op === 'indent-') lines[i] = l.replace(/^ /, '');
        else if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1] as string, l];
      }
      return applyNoise(applyTransform(`${lines.join('\n')}\n`, transform), noise);
    });
}

/** Short texts made of YAML's significant tokens and words. */
export const tokenSoup: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...NOISE, '\n', '\n  ', '\n- ', 'a: ', 'b: ', '- ', 'key: value\n', '  '), word), { maxLength: 14 })
  .map((parts) => parts.join(''));

/** Everything the YAML reader target feeds in. */
export function yamlTexts(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: structuredYaml },
    { weight: 2, arbitrary: cleanYaml },
    { weight: 3, arbitrary: mutatedSeed(seeds) },
    { weight: 2, arbitrary: tokenSoup },
  );
}
