// Typed views of the Kubernetes objects the mesh model reads: pods and their controllers,
// Services, Nodes, Secrets, ConfigMaps, webhooks and CRDs. Only the fields we use.
import { bool, int, intOrString, list, message, optional, raw, string, strings, type Infer } from '../shape.ts';
import { bodyReader, objectReader, specReader } from '../views.ts';

export const ContainerPort = message({ name: string, containerPort: int, protocol: string, hostPort: int });

export const SecurityContext = message({
  runAsUser: optional(int),
  runAsGroup: optional(int),
  runAsNonRoot: optional(bool),
  privileged: optional(bool),
  capabilities: raw,
});

export const Container = message({
  name: string,
  image: string,
  args: list(string),
  command: list(string),
  ports: list(ContainerPort),
  env: list(message({ name: string, value: string, valueFrom: raw })),
  securityContext: SecurityContext,
});
export type Container = NonNullable<Infer<typeof Container>>;

export const PodSpec = message({
  containers: list(Container),
  initContainers: list(Container),
  serviceAccountName: string,
  serviceAccount: string,
  nodeName: string,
  hostNetwork: bool,
  securityContext: SecurityContext,
  hostname: string,
  subdomain: string,
});
export type PodSpec = Infer<typeof PodSpec> & object;
export const podSpec = specReader(PodSpec);

export const PodStatus = message({
  phase: string,
  podIP: string,
  podIPs: list(message({ ip: string })),
  hostIP: string,
  conditions: raw,
});
export const podStatus = bodyReader(PodStatus, 'status');

const ObjectMeta = message({ name: string, namespace: string, labels: strings, annotations: strings, generateName: string });

export const PodTemplate = message({ metadata: ObjectMeta, spec: PodSpec });
export type PodTemplate = NonNullable<Infer<typeof PodTemplate>>;

export const LabelSelectorRequirement = message({ key: string, operator: string, values: list(string) });
export const LabelSelector = message({ matchLabels: strings, matchExpressions: list(LabelSelectorRequirement) });
export type LabelSelector = NonNullable<Infer<typeof LabelSelector>>;

/** Deployment, StatefulSet, DaemonSet, ReplicaSet and Job share these fields. */
export const WorkloadControllerSpec = message({
  replicas: optional(int),
  parallelism: optional(int),
  completions: optional(int),
  selector: LabelSelector,
  template: PodTemplate,
  serviceName: string,
});
export type WorkloadControllerSpec = Infer<typeof WorkloadControllerSpec> & object;
export const workloadControllerSpec = specReader(WorkloadControllerSpec);

export const CronJobSpec = message({
  schedule: string,
  suspend: optional(bool),
  jobTemplate: message({ metadata: ObjectMeta, spec: WorkloadControllerSpec }),
});
export const cronJobSpec = specReader(CronJobSpec);

export const ServicePort = message({
  name: string,
  protocol: string,
  appProtocol: optional(string),
  port: int,
  targetPort: intOrString,
  nodePort: int,
});
export type KubeServicePort = NonNullable<Infer<typeof ServicePort>>;

export const ServiceSpec = message({
  type: string,
  selector: strings,
  ports: list(ServicePort),
  clusterIP: string,
  clusterIPs: list(string),
  externalName: string,
  externalIPs: list(string),
  loadBalancerIP: string,
});
export type ServiceSpec = Infer<typeof ServiceSpec> & object;
export const serviceSpec = specReader(ServiceSpec);

export const NodeSpec = message({ podCIDR: string, podCIDRs: list(string), unschedulable: bool });
export const nodeSpec = specReader(NodeSpec);

/** `data` of a ConfigMap: every value as a string (non-strings read as ''). */
export const ConfigMapBody = message({ data: strings, binaryData: strings });
export const configMap = objectReader(ConfigMapBody);
/** `data`/`stringData` of a Secret, still base64 in `data`. */
export const SecretBody = message({ type: string, data: strings, stringData: strings });
export const secret = objectReader(SecretBody);

export const WebhookClientConfig = message({
  url: optional(string),
  service: message({ name: string, namespace: string, path: optional(string), port: optional(int) }),
  caBundle: string,
});

export const Webhook = message({
  name: string,
  clientConfig: WebhookClientConfig,
  namespaceSelector: optional(raw),
  objectSelector: optional(raw),
  rules: raw,
  failurePolicy: string,
  sideEffects: string,
  admissionReviewVersions: list(string),
});
export type Webhook = NonNullable<Infer<typeof Webhook>>;

export const WebhookConfiguration = message({ webhooks: list(Webhook) });
export const webhookConfiguration = objectReader(WebhookConfiguration);

export const CRDSpec = message({
  group: string,
  names: message({ kind: string, plural: string, singular: string, listKind: string }),
  versions: list(message({ name: string, served: bool, storage: bool })),
  scope: string,
});
export const crdSpec = specReader(CRDSpec);

/** Status conditions as most controllers write them. */
export const Condition = message({ type: string, status: string, reason: string, message: string, observedGeneration: optional(int) });
export type Condition = NonNullable<Infer<typeof Condition>>;

/** A status made of conditions (`status.conditions`), as Istio and Gateway API controllers write it. */
export const ConditionsStatus = message({ conditions: list(Condition) });
export const statusConditions = bodyReader(ConditionsStatus, 'status');
