// Which KIA findings Kiali leaves out (models/istio_validation.go StripIgnoredChecks, models/
// ignore_validations.go): the codes of `kiali_feature_flags.validations.ignore` (KIA1301 by
// default), and per object, the `kiali.io/ignore-validations` annotation (empty: every code;
// else a comma-separated list of codes, each trimmed).
import type { Resource } from '../../../document/types.ts';
import type { KialiValidation } from './types.ts';

export const IGNORE_VALIDATIONS_ANNOTATION = 'kiali.io/ignore-validations';

/** Kiali's default `kiali_feature_flags.validations.ignore` (config/config.go NewConfig). */
export const KIALI_DEFAULT_IGNORE: readonly string[] = ['KIA1301'];

export interface IgnoreRule {
  all: boolean;
  codes: readonly string[];
}

/** The rule an object's annotations give (ParseIgnoreValidationsAnnotation), or undefined without the annotation. */
export function ignoreRuleOf(resource: Pick<Resource, 'annotations'> | undefined): IgnoreRule | undefined {
  const value = resource?.annotations[IGNORE_VALIDATIONS_ANNOTATION];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return { all: true, codes: [] };
  return { all: false, codes: trimmed.split(',').map((c) => c.trim()) };
}

/** Whether Kiali drops a finding of `code` on an object with `rule` (shouldIgnoreCheck). */
export function ignoredCode(code: string, global: readonly string[], rule: IgnoreRule | undefined): boolean {
  if (global.includes(code)) return true;
  if (!rule) return false;
  return rule.all || rule.codes.includes(code);
}

/**
 * The validations without the ignored checks. As in Kiali, an object keeps its entry (and its
 * `valid` flag) even when all its checks go.
 */
export function stripIgnoredChecks(validations: readonly KialiValidation[], global: readonly string[] = KIALI_DEFAULT_IGNORE): KialiValidation[] {
  return validations.map((v) => {
    const rule = ignoreRuleOf(v.resource);
    if (global.length === 0 && !rule) return v;
    // Unchanged when nothing is ignored (the common case: no copy per finding).
    if (!v.checks.some((c) => ignoredCode(c.code, global, rule))) return v;
    return { ...v, checks: v.checks.filter((c) => !ignoredCode(c.code, global, rule)) };
  });
}
