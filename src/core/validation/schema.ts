// The CRD schema layer (to be built: issue #8).
import type { Resource } from '../model/types.ts';
import type { ValidationFinding } from './types.ts';

export function schemaFindings(_r: Resource): ValidationFinding[] {
  return [];
}
