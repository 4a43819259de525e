// What redaction writes in place of a secret value. The certificate inspector and the
// analyzers recognise these, so that a check which needs a redacted value says so instead
// of reporting the marker as broken input.

/** What a redacted PEM private key (outside a Secret) becomes. */
export const PRIVATE_KEY_MARKER = '[private key removed before sharing]';
/** A redacted `stringData` value (and any other redacted text value). */
export const STRING_MARKER = 'REDACTED';
/** A redacted `data` value: base64 of "REDACTED", so the Secret still loads as Kubernetes would. */
export const DATA_MARKER = 'UkVEQUNURUQ=';

/** True when a value (as read, for `data` after base64 decoding) is one of redaction's markers. */
export function isRedactionMarker(text: string): boolean {
  const t = text.trim();
  return t === STRING_MARKER || t === PRIVATE_KEY_MARKER || t === DATA_MARKER;
}
