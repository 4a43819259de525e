// Message suppression: the `galley.istio.io/analyze-suppress` annotation on the resource,
// and `-S CODE=RESOURCE` settings (glob over the origin, legacy `name.namespace` accepted).
import type { Resource } from '../model/types.ts';

export const SUPPRESS_ANNOTATION = 'galley.istio.io/analyze-suppress';

/** Istio compares the comma-separated items exactly (no trimming); `*` suppresses all. */
export function suppressedByAnnotation(resource: Resource | undefined, code: string): boolean {
  const v = resource?.annotations[SUPPRESS_ANNOTATION];
  if (v === undefined) return false;
  return v.split(',').some((item) => item === '*' || item === code);
}

export interface Suppression {
  code: string;
  pattern: RegExp;
  raw: string;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
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
    rules.push({ code, pattern: globToRegExp(resource), raw });
    const legacy = /^(\S+) ([^/\s]+)\.([^/.\s]+)$/.exec(resource);
    if (legacy) {
      const modern = `${legacy[1]} ${legacy[3]}/${legacy[2]}`;
      warnings.push(`Suppression "${raw}" uses the legacy "name.namespace" form; it is matched as "${code}=${modern}".`);
      rules.push({ code, pattern: globToRegExp(modern), raw });
    }
  }
  return { rules, warnings };
}

export function suppressedBySettings(rules: readonly Suppression[], code: string, origin: string | undefined): boolean {
  if (!origin) return false;
  return rules.some((r) => r.code === code && r.pattern.test(origin));
}
