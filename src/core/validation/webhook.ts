// The validating webhook's semantic rules (to be built: issue #8).
import type { Resource } from '../model/types.ts';
import type { ValidationFinding } from './types.ts';

export function webhookFindings(_r: Resource): ValidationFinding[] {
  return [];
}
