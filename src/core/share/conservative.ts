// Conservative redaction, for text whose structure cannot be trusted: a document the app
// cannot read (an unclosed quote while typing, a tab, a bad alias), or one whose precise
// redaction did not pass its own check. Without a reading, any value could be a Secret's,
// so every value and comment is masked. What stays is what a reviewer needs to see the
// shape: indentation, sequence dashes, simple keys, and document markers. Every line break
// (LF, CRLF, CR and the Unicode ones) stays where it was, so no line moves.

/** What a masked value becomes in conservative redaction. */
export const MASKED = 'REDACTED';

const LINE_BREAK = /\r\n|\r|\n|\u0085|\u2028|\u2029/g;
/** A key a reviewer may see: plain or double-quoted, made of the characters Kubernetes keys use. */
const SIMPLE_KEY = /^(?:"[A-Za-z0-9_][A-Za-z0-9_./-]{0,62}"|[A-Za-z0-9_][A-Za-z0-9_./-]{0,62})[ \t]*:(?=[ \t]|$)/;

function maskLine(line: string): string {
  const lead = /^[ \t]*(?:-[ \t]+)*/.exec(line)![0];
  const rest = line.slice(lead.length);
  if (rest === '' || /^(?:---|\.\.\.)[ \t]*$/.test(rest)) return line;
  if (rest.startsWith('#')) return `${lead}#`;
  const key = SIMPLE_KEY.exec(rest);
  if (key) {
    const after = rest.slice(key[0].length);
    return after.trim() === '' ? lead + key[0] : `${lead}${key[0]} ${MASKED}`;
  }
  // A lone dash (an empty sequence item) shows nothing.
  if (rest === '-') return line;
  return lead + MASKED;
}

/** The text with every value and comment masked, line breaks kept in place. */
export function maskConservatively(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    out += maskLine(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + maskLine(text.slice(at));
}
