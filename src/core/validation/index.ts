// Validation of Istio resources: the CRD schema layer and the webhook layer (see types.ts).
import type { Resource } from '../document/types.ts';
import type { ValidationFinding } from './types.ts';
import { schemaFindings } from './schema.ts';
import { webhookFindings } from './webhook.ts';
import { DUPLICATE_KEY_CONSEQUENCE } from '../document/parse.ts';

export type { ValidationFinding } from './types.ts';

/** True when `path` is `at` or lies under it (`spec.http[0]` covers `spec.http[0].match`). */
function within(path: string, at: string): boolean {
  return path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);
}

/**
 * The keys the resource's document repeats (see document/parse.ts DuplicateKey): the API server's
 * strict decoding error, on the earlier key. Schema layer: istioctl's reader takes the later
 * value without a word.
 */
export function duplicateKeyFindings(r: Resource): ValidationFinding[] {
  if (!r.duplicateKeys || r.synthetic) return [];
  return r.duplicateKeys.map((d) => ({
    level: 'error',
    message: d.message,
    layer: 'schema',
    consequence: DUPLICATE_KEY_CONSEQUENCE,
    ...(d.path ? { path: d.path, occurrence: d.occurrence } : {}),
  }));
}

/** Every finding of both layers on a resource: the schema's, then the webhook's. */
export function validateResource(r: Resource): ValidationFinding[] {
  return [...duplicateKeyFindings(r), ...schemaFindings(r), ...webhookFindings(r)];
}

/**
 * The findings to report for a resource. Both layers often reject the same mistake (a missing
 * port, a null route): then only the webhook's finding is kept, since that is the text
 * istioctl prints; a schema finding on a field no webhook error covers is kept.
 */
export function findingsToReport(r: Resource): ValidationFinding[] {
  const webhook = webhookFindings(r);
  const covered = webhook.filter((f) => f.level === 'error' && f.path !== undefined).map((f) => f.path as string);
  const schema = schemaFindings(r).filter((f) => f.path === undefined || !covered.some((at) => within(f.path as string, at)));
  return [...duplicateKeyFindings(r), ...schema, ...webhook];
}
