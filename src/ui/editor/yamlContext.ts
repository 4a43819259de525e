// Where the cursor is in a YAML manifest, for completion and hover: the document's apiVersion
// and kind, the path of keys (and '[]' list items) leading to the cursor, and whether the
// cursor is at a key or at the value of a key. Indentation-based: it reads block-style YAML
// the way people write manifests, without needing the text to parse.

export interface YamlContext {
  apiVersion: string;
  kind: string;
  /** Path of the mapping the cursor is in (for a key) or of the key whose value it is in. */
  path: string[];
  /** 'key': typing a field name; 'value': after `key:` on the same line. */
  at: 'key' | 'value';
  /** The word typed so far. */
  prefix: string;
  /** Keys already written in the mapping at the cursor (for a key). */
  siblings: string[];
  /** 0-based column where a key at the cursor starts. */
  keyColumn: number;
}

interface Line {
  indent: number;
  dash: number;
  keyCol: number;
  key?: string;
  hasValue: boolean;
  blank: boolean;
}

const KEY_RE = /^(["']?)([^"'#:]+?)\1\s*:(?:\s|$)/;

function parseLine(text: string): Line {
  const indent = text.length - text.trimStart().length;
  const rest = text.slice(indent);
  if (rest === '' || rest.startsWith('#')) return { indent, dash: -1, keyCol: indent, hasValue: false, blank: true };
  let dash = -1;
  let keyCol = indent;
  let body = rest;
  if (rest === '-' || rest.startsWith('- ')) {
    dash = indent;
    const after = rest.slice(1);
    const sp = after.length - after.trimStart().length;
    keyCol = indent + 1 + sp;
    body = after.trimStart();
  }
  const m = KEY_RE.exec(body);
  if (!m) return { indent, dash, keyCol, hasValue: body !== '', blank: false };
  const value = body.slice(m[0].length).replace(/#.*$/, '').trim();
  return {
    indent,
    dash,
    keyCol,
    key: (m[2] as string).trim(),
    hasValue: value !== '' && value !== '|' && value !== '>' && !value.startsWith('&'),
    blank: false,
  };
}

/** The lines of the YAML document around `lineIndex` (0-based), and its first line. */
function documentLines(lines: readonly string[], lineIndex: number): { start: number; end: number } {
  let start = lineIndex;
  while (start > 0 && !/^---(\s|$)/.test(lines[start - 1] as string)) start--;
  let end = lineIndex + 1;
  while (end < lines.length && !/^---(\s|$)/.test(lines[end] as string)) end++;
  return { start, end };
}

function topLevel(lines: readonly string[], start: number, end: number, key: string): string {
  const re = new RegExp(`^${key}\\s*:\\s*["']?([^"'#\\s]+)`);
  for (let i = start; i < end; i++) {
    const m = re.exec(lines[i] as string);
    if (m) return m[1] as string;
  }
  return '';
}

/** The context at 1-based `line` and `column` of `text`. */
export function yamlContextAt(text: string, line: number, column: number): YamlContext {
  const lines = text.split(/\r?\n/);
  const li = Math.min(Math.max(line - 1, 0), lines.length - 1);
  const { start, end } = documentLines(lines, li);
  const apiVersion = topLevel(lines, start, end, 'apiVersion');
  const kind = topLevel(lines, start, end, 'kind');
  const full = lines[li] ?? '';
  const before = full.slice(0, column - 1);
  const cur = parseLine(before);
  const path: string[] = [];
  let at: 'key' | 'value' = 'key';
  let prefix = '';
  // Value position: `key: |` on this line.
  const keyThenValue = /^(\s*(?:-\s+)?)(["']?)([^"'#:]+?)\2\s*:\s+(\S*)$/.exec(before);
  if (keyThenValue) {
    at = 'value';
    prefix = keyThenValue[4] as string;
    path.push((keyThenValue[3] as string).trim());
  } else {
    prefix = /[\w.-]*$/.exec(before)?.[0] ?? '';
  }
  // The cursor's own indentation: where its key starts (after `- ` on an item line).
  let need = cur.blank ? before.length - before.trimStart().length : cur.keyCol;
  if (cur.blank && before.trim() === '') need = before.length;
  let mode: 'key' | 'seq' = 'key';
  const keyColumn = need;
  if (cur.dash >= 0) {
    path.unshift('[]');
    need = cur.dash;
    mode = 'seq';
  }
  const parents: string[] = [];
  for (let i = li - 1; i >= start && need > 0; i--) {
    const l = parseLine(lines[i] as string);
    if (l.blank) continue;
    if (mode === 'key') {
      if (l.dash >= 0 && l.dash < need && l.keyCol >= need) {
        parents.push('[]');
        need = l.dash;
        mode = 'seq';
      } else if (l.keyCol < need && l.key) {
        parents.push(l.key);
        if (l.dash >= 0) {
          parents.push('[]');
          need = l.dash;
          mode = 'seq';
        } else need = l.keyCol;
      } else if (l.keyCol < need && l.dash < 0) {
        break; // a scalar line above: not a mapping we understand
      }
    } else {
      if (l.dash === need) continue; // a sibling item of the same list
      if (l.keyCol <= need && l.key && !l.hasValue) {
        parents.push(l.key);
        if (l.dash >= 0) {
          parents.push('[]');
          need = l.dash;
        } else {
          need = l.keyCol;
          mode = 'key';
        }
      } else if (l.keyCol < need) break;
    }
  }
  path.unshift(...parents.reverse());
  // Keys already written in the mapping at the cursor.
  const siblings: string[] = [];
  if (at === 'key') {
    for (const dir of [-1, 1]) {
      for (let i = li + dir; i >= start && i < end; i += dir) {
        const l = parseLine(lines[i] as string);
        if (l.blank) continue;
        if (l.keyCol < keyColumn) {
          if (dir < 0 && l.dash >= 0 && l.keyCol === keyColumn && l.key) siblings.push(l.key);
          break;
        }
        if (l.keyCol === keyColumn && l.key) {
          if (l.dash >= 0 && cur.dash >= 0) break; // another item of the list
          if (l.dash >= 0 && dir > 0) break;
          siblings.push(l.key);
          if (l.dash >= 0) break;
        }
      }
    }
  }
  return { apiVersion, kind, path, at, prefix, siblings, keyColumn };
}

/** The key under the cursor on a line (`  timeout: 5s` → timeout) and the context of that key. */
export function keyAt(
  text: string,
  line: number,
  column: number,
): { key: string; path: string[]; apiVersion: string; kind: string; startCol: number; endCol: number } | undefined {
  const lines = text.split(/\r?\n/);
  const full = lines[line - 1] ?? '';
  const l = parseLine(full);
  if (!l.key) return undefined;
  const startCol = full.indexOf(l.key, l.keyCol) + 1;
  const endCol = startCol + l.key.length;
  if (column < startCol || column > endCol) return undefined;
  // The context of a key is the context of typing it at its own column.
  const ctx = yamlContextAt(text, line, startCol);
  return { key: l.key, path: [...ctx.path, l.key], apiVersion: ctx.apiVersion, kind: ctx.kind, startCol, endCol };
}
