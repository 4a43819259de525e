// Validation of Istio resources: the CRD schema layer and the webhook layer, combined in the
// order Istio reports them (see types.ts).
import type { Resource } from '../model/types.ts';
import type { ValidationFinding } from './types.ts';
import { schemaFindings } from './schema.ts';
import { webhookFindings } from './webhook.ts';

export type { ValidationFinding } from './types.ts';

/** Every finding on a resource: schema first, then the webhook's. */
export function validateResource(r: Resource): ValidationFinding[] {
  return [...schemaFindings(r), ...webhookFindings(r)];
}
