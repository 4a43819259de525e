// Shapes every Istio CRD shares.
import { describe, string } from '../../shape.ts';

/**
 * A protobuf Duration as Istio's CRDs take it: a string such as `5s`, `250ms` or `1h30m`, of
 * at least 1ms (the CEL rule the API server runs on every duration field).
 */
export const durationField = describe(string, {
  format: 'duration',
  rules: [{ rule: "duration(self) >= duration('1ms')", message: 'must be a valid duration greater than 1ms' }],
});
