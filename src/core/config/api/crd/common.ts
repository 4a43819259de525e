// Shapes every Istio CRD shares.
import { describe, map, message, string } from '../../shape.ts';

/**
 * A protobuf Duration as Istio's CRDs take it: a string such as `5s`, `250ms` or `1h30m`, of
 * at least 1ms (the CEL rule the API server runs on every duration field).
 */
export const durationField = describe(string, {
  format: 'duration',
  rules: [{ rule: "duration(self) >= duration('1ms')", message: 'must be a valid duration greater than 1ms' }],
});

/** istio.type.v1beta1.WorkloadSelector: the `selector` of policies, telemetry, extensions and DestinationRules. */
export const WorkloadSelector = message(
  {
    matchLabels: describe(
      describe(map(describe(string, { maxLength: 63, rules: [{ rule: '!self.contains("*")', message: 'wildcard not allowed in label value match' }] })), {
        maxProperties: 4096,
        rules: [
          { rule: 'self.all(key, !key.contains("*"))', message: 'wildcard not allowed in label key match' },
          { rule: 'self.all(key, key.size() != 0)', message: 'key must not be empty' },
        ],
      }),
      { help: 'Label key/values a workload must all carry to be selected.' },
    ),
  },
  { proto: true },
);

/** istio.type.v1beta1.PolicyTargetReference: the `targetRef(s)` of policies, telemetry and extensions. */
export const PolicyTargetReference = message(
  {
    group: describe(describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }), {
      help: "API group of the target: '' for core Services, gateway.networking.k8s.io for Gateways.",
    }),
    kind: describe(describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }), {
      help: 'Kind of the target resource, e.g. Gateway or Service.',
    }),
    name: describe(describe(string, { minLength: 1, maxLength: 253 }), { help: "Name of the target resource, in the policy's own namespace." }),
    namespace: describe(describe(string, { rules: [{ rule: 'self.size() == 0', message: 'cross namespace referencing is not currently supported' }] }), {
      help: 'Must be empty: cross-namespace targets are not supported.',
    }),
  },
  { proto: true, required: ['kind', 'name'] },
);
