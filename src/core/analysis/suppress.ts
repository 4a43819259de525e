// Message suppression: the `galley.istio.io/analyze-suppress` annotation on the resource,
// and `-S CODE=RESOURCE` settings (go-glob over the origin, legacy `name.namespace` accepted).
import type { Resource } from '../document/types.ts';

export const SUPPRESS_ANNOTATION = 'galley.istio.io/analyze-suppress';

/** Istio compares the comma-separated items exactly (no trimming); `*` suppresses all. */
export function suppressedByAnnotation(resource: Resource | undefined, code: string): boolean {
  const v = resource?.annotations[SUPPRESS_ANNOTATION];
  if (v === undefined) return false;
  return v.split(',').some((item) => item === '*' || item === code);
}

export interface Suppression {
  code: string;
  /** The resource pattern, matched with `goGlob`. */
  pattern: string;
  raw: string;
}

/**
 * The glob istioctl matches suppressions with (github.com/ryanuber/go-glob): `*` is the only
 * wildcard; the text between stars must appear in order, the first part as a prefix (unless
 * the pattern starts with `*`) and the last as a suffix (unless it ends with `*`).
 */
export function goGlob(pattern: string, subject: string): boolean {
  if (pattern === '') return subject === '';
  if (pattern === '*') return true;
  const parts = pattern.split('*');
  if (parts.length === 1) return subject === pattern;
  const leading = pattern.startsWith('*');
  const trailing = pattern.endsWith('*');
  const end = parts.length - 1;
  let rest = subject;
  for (let i = 0; i < end; i++) {
    const part = parts[i] as string;
    const at = rest.indexOf(part);
    if (i === 0 ? !leading && at !== 0 : at < 0) return false;
    rest = rest.slice(at + part.length);
  }
  return trailing || rest.endsWith(parts[end] as string);
}

export interface ParsedSuppressions {
  rules: Suppression[];
  warnings: string[];
}

/**
 * Parses `CODE=RESOURCE` items. A legacy `Kind name.namespace` resource (still shown in
 * istioctl's help) is also matched as `Kind namespace/name`, with a warning.
 */
export function parseSuppressions(items: readonly string[], knownCode: (code: string) => boolean): ParsedSuppressions {
  const rules: Suppression[] = [];
  const warnings: string[] = [];
  for (const raw of items) {
    const eq = raw.indexOf('=');
    if (eq < 0) {
      warnings.push(`Suppression "${raw}" is not in the form CODE=RESOURCE and has no effect.`);
      continue;
    }
    const code = raw.slice(0, eq).trim();
    const resource = raw.slice(eq + 1).trim();
    if (!knownCode(code)) warnings.push(`Supplied message code '${code}' is an unknown message code and will not have any effect.`);
    rules.push({ code, pattern: resource, raw });
    const legacy = /^(\S+) ([^/\s]+)\.([^/.\s]+)$/.exec(resource);
    if (legacy) {
      const modern = `${legacy[1]} ${legacy[3]}/${legacy[2]}`;
      warnings.push(`Suppression "${raw}" uses the legacy "name.namespace" form; it is matched as "${code}=${modern}".`);
      rules.push({ code, pattern: modern, raw });
    }
  }
  return { rules, warnings };
}

export function suppressedBySettings(rules: readonly Suppression[], code: string, origin: string | undefined): boolean {
  if (!origin) return false;
  return rules.some((r) => r.code === code && goGlob(r.pattern, origin));
}
