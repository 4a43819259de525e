// Go's text/tabwriter with the settings istioctl uses (pad character ' ', flags 0): text is
// cut into lines and tab-terminated cells; the cell after the last tab of a line is not part
// of any column and is written as it is. A column is a run of consecutive lines that all
// have a cell at that index ("column block"); each of its cells is padded to the widest cell
// of the block plus `padding` (and at least `minwidth`). Widths count Unicode code points,
// as Go counts runes.
import { runeCount } from '../../go/strings.ts';

export interface TabwriterOptions {
  minwidth?: number;
  padding: number;
}

/** Formats `text` (lines ending in `\n`, cells separated by `\t`) as tabwriter.Flush would. */
export function tabwrite(text: string, opts: TabwriterOptions): string {
  const minwidth = opts.minwidth ?? 0;
  const lines = text.split('\n').map((l) => l.split('\t'));
  // The text after the last newline is an unterminated last line (empty when text ends in \n).
  const out: string[] = [];
  const widthOf = lines.map((cells) => cells.map(runeCount));
  const widths: number[] = [];

  const writeLines = (line0: number, line1: number) => {
    for (let i = line0; i < line1; i++) {
      const cells = lines[i]!;
      let s = '';
      for (let j = 0; j < cells.length; j++) {
        s += cells[j];
        if (j < widths.length) s += ' '.repeat(Math.max(0, widths[j]! - widthOf[i]![j]!));
      }
      out.push(i + 1 === lines.length ? s : s + '\n');
    }
  };

  const format = (line0: number, line1: number) => {
    const column = widths.length;
    for (let ln = line0; ln < line1; ln++) {
      if (column >= lines[ln]!.length - 1) continue;
      writeLines(line0, ln);
      line0 = ln;
      let width = minwidth;
      for (; ln < line1; ln++) {
        if (column >= lines[ln]!.length - 1) break;
        const w = widthOf[ln]![column]! + opts.padding;
        if (w > width) width = w;
      }
      widths.push(width);
      format(line0, ln);
      widths.pop();
      line0 = ln;
    }
    writeLines(line0, line1);
  };

  // Go recurses once per column; so do we. A cell text full of tabs (a pathological name in a
  // dump) could make that deeper than a JS stack allows: such text is written unaligned.
  if (lines.some((cells) => cells.length > MAX_COLUMNS)) return text;
  format(0, lines.length);
  return out.join('');
}

const MAX_COLUMNS = 2000;

/** A table as rows of cells, written through tabwrite (one line per row). */
export function tabwriteRows(rows: readonly (readonly string[])[], opts: TabwriterOptions): string {
  return tabwrite(rows.map((r) => r.join('\t') + '\n').join(''), opts);
}
