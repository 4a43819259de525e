// The Kubernetes objects the analyzers read, as far as structural checks go: the fields we
// read, with their types, enums and bounds. Everything else Kubernetes has is accepted as is
// (`preserveUnknown`): we do not carry the whole Kubernetes API. Help lines are ours.
import { bool, describe, enumOf, int, intOrString, list, message, raw, string, strings } from '../../shape.ts';

const open = { preserveUnknown: true };
const port = (help: string) => describe(int, { minimum: 1, maximum: 65535, help });
const PROTOCOL = enumOf(['TCP', 'UDP', 'SCTP']);

export const ContainerPort = message(
  {
    name: describe(string, { maxLength: 15, help: 'Name of the port; Istio reads its protocol prefix (http-, grpc-, …).' }),
    containerPort: port('Port the container listens on.'),
    protocol: PROTOCOL,
    hostPort: describe(int, { minimum: 0, maximum: 65535 }),
  },
  { ...open, required: ['containerPort'] },
);

export const EnvVar = message({ name: string, value: string, valueFrom: raw }, { ...open, required: ['name'] });

export const Container = message(
  {
    name: describe(string, { help: 'Name of the container, unique in the pod.' }),
    image: describe(string, { help: 'Image of the container.' }),
    args: list(string),
    command: list(string),
    ports: list(ContainerPort),
    env: list(EnvVar),
    securityContext: message({ runAsUser: int, runAsGroup: int, runAsNonRoot: bool, privileged: bool }, open),
  },
  { ...open, required: ['name'] },
);

export const PodSpec = message(
  {
    containers: describe(list(Container), { help: 'The containers of the pod; Istio adds istio-proxy when injecting.' }),
    initContainers: list(Container),
    serviceAccountName: describe(string, { help: 'Service account the pod runs as: its Istio identity.' }),
    serviceAccount: string,
    nodeName: string,
    hostNetwork: bool,
    hostname: string,
    subdomain: string,
  },
  { ...open, required: ['containers'] },
);

export const ObjectMeta = message(
  {
    name: string,
    namespace: string,
    generateName: string,
    labels: describe(strings, { help: 'Labels: what selectors (Services, subsets, policies) match.' }),
    annotations: describe(strings, { help: 'Annotations, e.g. sidecar.istio.io/inject or proxy settings.' }),
    ownerReferences: raw,
    uid: string,
    resourceVersion: string,
    generation: int,
    creationTimestamp: raw,
    deletionTimestamp: raw,
    deletionGracePeriodSeconds: int,
    finalizers: list(string),
    managedFields: raw,
  },
  { preserveUnknown: false },
);

export const PodTemplate = message({ metadata: ObjectMeta, spec: PodSpec }, open);

export const LabelSelector = message(
  {
    matchLabels: strings,
    matchExpressions: list(
      message({ key: string, operator: enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist']), values: list(string) }, { ...open, required: ['key', 'operator'] }),
    ),
  },
  open,
);

export const WorkloadControllerSpec = message(
  {
    replicas: describe(int, { minimum: 0, help: 'How many pods to run.' }),
    selector: describe(LabelSelector, { help: 'Labels of the pods this controller owns; must match the template.' }),
    template: describe(PodTemplate, { help: 'The pods to create.' }),
    serviceName: string,
  },
  open,
);

export const ServicePort = message(
  {
    name: describe(string, { help: 'Port name; Istio reads the protocol from a prefix such as http- or grpc-.' }),
    protocol: PROTOCOL,
    appProtocol: describe(string, { help: 'Application protocol (http, http2, grpc, tcp, …); Istio prefers it to the name.' }),
    port: port('Port the Service exposes.'),
    targetPort: describe(intOrString, { help: 'Container port (number or name) the traffic goes to. Default: port.' }),
    nodePort: describe(int, { minimum: 0, maximum: 65535 }),
  },
  { ...open, required: ['port'] },
);

export const ServiceSpec = message(
  {
    type: describe(enumOf(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']), { help: 'How the Service is exposed.' }),
    selector: describe(strings, { help: 'Pod labels of the Service’s endpoints.' }),
    ports: list(ServicePort),
    clusterIP: string,
    clusterIPs: list(string),
    externalName: string,
    externalIPs: list(string),
    loadBalancerIP: string,
  },
  open,
);

const Data = message({ data: strings, binaryData: strings, stringData: strings, type: string, immutable: bool }, open);

/** `spec` of each core kind we check, and the kinds whose body is checked instead (ConfigMap, Secret). */
export const KUBE_KINDS = [
  { group: '', kind: 'Pod', versions: ['v1'], spec: PodSpec },
  { group: '', kind: 'Service', versions: ['v1'], spec: ServiceSpec },
  { group: '', kind: 'Namespace', versions: ['v1'], spec: message({}, open), clusterScoped: true },
  { group: '', kind: 'ConfigMap', versions: ['v1'], body: Data },
  { group: '', kind: 'Secret', versions: ['v1'], body: Data },
  { group: 'apps', kind: 'Deployment', versions: ['v1'], spec: WorkloadControllerSpec },
  { group: 'apps', kind: 'StatefulSet', versions: ['v1'], spec: WorkloadControllerSpec },
  { group: 'apps', kind: 'DaemonSet', versions: ['v1'], spec: WorkloadControllerSpec },
  { group: 'apps', kind: 'ReplicaSet', versions: ['v1'], spec: WorkloadControllerSpec },
  { group: 'batch', kind: 'Job', versions: ['v1'], spec: WorkloadControllerSpec },
  {
    group: 'batch',
    kind: 'CronJob',
    versions: ['v1'],
    spec: message(
      { schedule: string, suspend: bool, jobTemplate: message({ metadata: ObjectMeta, spec: WorkloadControllerSpec }, open) },
      { ...open, required: ['schedule', 'jobTemplate'] },
    ),
  },
] as const;
