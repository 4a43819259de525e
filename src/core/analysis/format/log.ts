// istioctl's `-o log` format: `<Level> [<CODE>] (<Kind ns/name> <file:line>) <message>`.
import type { Diagnostic } from '../../document/types.ts';
import { reference } from '../render.ts';

const COLORS: Record<string, string> = { Error: '\u001b[1;31m', Warning: '\u001b[33m' };

/** One message as istioctl prints it (Message.String() when uncolored). */
export function logLine(d: Diagnostic, color = false): string {
  const level = color && COLORS[d.level] ? `${COLORS[d.level]}${d.level}\u001b[0m` : d.level;
  const parts = [level, ' [', d.code, ']'];
  if (d.origin) {
    const ref = reference(d);
    if (d.cluster) parts.push(' [cluster-', d.cluster, ']');
    parts.push(' (', d.origin);
    if (ref) parts.push(' ', ref);
    parts.push(')');
  }
  parts.push(' ', d.message);
  return parts.join('');
}

/** The whole block: lines joined with `\n` plus Fprintln's newline (an empty run prints one empty line). */
export function formatLog(diagnostics: readonly Diagnostic[], color = false): string {
  return `${diagnostics.map((d) => logLine(d, color)).join('\n')}\n`;
}
