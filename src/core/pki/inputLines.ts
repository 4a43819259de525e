// Where things sit in the text of an input the certificate decoder reads (input.ts): the first
// line of each YAML document, of an object and of one of its keys, found in the text's lines
// (the decoder parses with js-yaml, which keeps no positions).

/** 1-based first line of each YAML document. */
export function documentStartLines(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let current: number | undefined;
  lines.forEach((l, i) => {
    if (/^---(\s|$)/.test(l)) {
      if (current !== undefined) starts.push(current);
      current = undefined;
      return;
    }
    if (current === undefined && l.trim() !== '' && !l.trim().startsWith('#')) current = i + 1;
  });
  if (current !== undefined) starts.push(current);
  return starts.length > 0 ? starts : [1];
}

/** The line of the object's `name:` at or after its document's first line (that line when not found). */
export function objectLine(lines: readonly string[], name: string, docLine: number): number {
  const re = new RegExp(`^\\s*name:\\s*["']?${escapeRegExp(name)}["']?\\s*$`);
  for (let i = Math.max(0, docLine - 1); i < lines.length; i++) if (re.test(lines[i]!)) return i + 1;
  return docLine;
}

/**
 * The line of `key:` in the object around its line: the nearest one above it (`kubectl get -o
 * yaml` writes `data` before `metadata`), else the first one below it (the object's line when
 * not found). The search stays in the object: it stops at a `---` separator and at the start
 * of another list item less indented than the object's line (the next item of a List).
 */
export function keyLine(lines: readonly string[], key: string, line: number): number {
  const re = new RegExp(`^\\s*["']?${escapeRegExp(key)}["']?\\s*:`);
  const at = Math.min(Math.max(0, line - 1), lines.length - 1);
  const indent = (l: string): number => l.length - l.trimStart().length;
  const objectIndent = indent(lines[at]!);
  const bound = (l: string): boolean => /^---(\s|$)/.test(l) || (/^\s*- /.test(l) && indent(l) < objectIndent - 1);
  for (let i = at; i >= 0 && (i === at || !bound(lines[i]!)); i--) if (re.test(lines[i]!)) return i + 1;
  for (let i = at + 1; i < lines.length && !bound(lines[i]!); i++) if (re.test(lines[i]!)) return i + 1;
  return line;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
