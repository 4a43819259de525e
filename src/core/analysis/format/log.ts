// istioctl's `-o log` format: `<Level> [<CODE>] (<Kind ns/name> <file:line>) <message>`.
import type { Diagnostic } from '../../model/types.ts';
import { reference } from '../render.ts';

const COLORS: Record<string, string> = { Error: '\u001b[1;31m', Warning: '\u001b[33m' };

/** One message as istioctl prints it (Message.String() when uncolored). */
export function logLine(d: Diagnostic, color = false): string {
  const level = color && COLORS[d.level] ? `${COLORS[d.level]}${d.level}\u001b[0m` : d.level;
  let origin = '';
  if (d.origin) {
    const ref = reference(d);
    origin = ` (${d.origin}${ref ? ` ${ref}` : ''})`;
    if (d.cluster) origin = ` [cluster-${d.cluster}]${origin}`;
  }
  return `${level} [${d.code}]${origin} ${d.message}`;
}

/** The whole block: lines joined with `\n` plus Fprintln's newline (an empty run prints one empty line). */
export function formatLog(diagnostics: readonly Diagnostic[], color = false): string {
  return `${diagnostics.map((d) => logLine(d, color)).join('\n')}\n`;
}
