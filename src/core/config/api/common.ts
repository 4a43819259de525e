// Shapes shared by several Istio APIs (istio.io/api type/v1beta1 and common messages).
import { list, message, string, strings, int, optional, type Infer } from '../shape.ts';

/** type.v1beta1.WorkloadSelector (`selector` of the security, telemetry and extensions APIs). */
export const WorkloadSelector = message({ matchLabels: strings }, { proto: true });

/** type.v1beta1.PolicyTargetReference */
export const PolicyTargetReference = message({ group: string, kind: string, name: string, namespace: string }, { proto: true });
export type PolicyTargetReference = NonNullable<Infer<typeof PolicyTargetReference>>;

/** The selector and target fields every workload-scoped Istio policy has. */
export const policyTargeting = {
  selector: WorkloadSelector,
  targetRef: PolicyTargetReference,
  targetRefs: list(PolicyTargetReference),
};

/** networking PortSelector */
export const PortSelector = message({ number: int }, { proto: true });

/** Duration strings (`5s`) are kept as written. */
export const duration = optional(string);
