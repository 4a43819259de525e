// Pods derived from workload controllers. Manifests usually hold Deployments, not the Pods
// they create, yet the mesh is made of pods: subsets select pods, policies apply to pods,
// proxies run in pods. When a controller's pods are not in the workspace we create them as
// Kubernetes would: from the pod template, `replicas` times (one per Node for a DaemonSet),
// with Kubernetes' naming, a deterministic IP, and the sidecar the injector would add or the
// ambient mark istio-cni would write. They are marked `synthetic: 'derived'` and point back
// at the controller's template in the file.
import type { Resource, ResourceSource } from '../document/types.ts';
import { KINDS, type KindInfo } from '../document/kinds.ts';
import { EMPTY_STRING_MAP, isObj, newStringMap, objOrUndefined, str, valueAt, type Obj } from '../document/read.ts';
import type { ResourceReader } from './resourceReader.ts';
import {
  Container,
  cronJobSpec,
  podSpec,
  podStatus,
  PodSpec,
  workloadControllerSpec,
  type LabelSelector,
  type PodSpec as PodSpecView,
  type PodTemplate,
} from './api/kube.ts';
import { compiledMatches, compileLabelSelector, type CompiledSelector } from './labelSelector.ts';
import { injectorConfigMapName, injectorProxyImage, injectorSettings } from './injector.ts';
import { ambientEnrolled, sidecarInjected, type WorkloadShape } from './workloadState.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  CANONICAL_NAME_LABEL,
  CANONICAL_REVISION_LABEL,
  ISTIO_PROXY_CONTAINER,
  REVISION_LABEL,
  SIDECAR_STATUS_ANNOTATION,
  TLS_MODE_LABEL,
} from './wellKnown.ts';
import { fnv32a, FNV32A_OFFSET, fnv32aCode, fnv32aFrom, SAFE_ALPHABET } from './fnv.ts';
import { addressRange, AddressRing, parseAddressRange, type AddressRange } from './addressRing.ts';
import { listAt } from '../document/maps.ts';

/** The controller kinds whose pods we derive, and where their pod template sits. */
export const CONTROLLER_KINDS: ReadonlyArray<{ kind: KindInfo; templatePath: readonly string[] }> = [
  { kind: KINDS.Deployment, templatePath: ['spec', 'template'] },
  { kind: KINDS.StatefulSet, templatePath: ['spec', 'template'] },
  { kind: KINDS.DaemonSet, templatePath: ['spec', 'template'] },
  { kind: KINDS.ReplicaSet, templatePath: ['spec', 'template'] },
  { kind: KINDS.Job, templatePath: ['spec', 'template'] },
  { kind: KINDS.CronJob, templatePath: ['spec', 'jobTemplate', 'spec', 'template'] },
];

/** Kinds whose changes can change the derived pods. */
export const DERIVED_POD_INPUTS: readonly KindInfo[] = [...CONTROLLER_KINDS.map((c) => c.kind), KINDS.Pod, KINDS.Node, KINDS.Namespace, KINDS.ConfigMap];

/** More replicas than this are not derived (the rest would only repeat the same facts). */
export const MAX_DERIVED_REPLICAS = 20;

/** The proxy image assumed for injected pods when no injector ConfigMap says otherwise. */
export const DEFAULT_PROXY_IMAGE = 'docker.io/istio/proxyv2:latest';

/**
 * Where derived pods get their IPs unless the settings name another pod CIDR: a /14 from
 * Kubernetes' usual 10.244.0.0/16 of kind and kubeadm on (flannel's default is 10.244.0.0/16;
 * real clusters' are /14 or wider).
 */
export const DEFAULT_POD_CIDR = '10.244.0.0/14';

/** DEFAULT_POD_CIDR as a range. */
export const DEFAULT_POD_RANGE: AddressRange = addressRange(DEFAULT_POD_CIDR);

/** The pod CIDR a setting names (DEFAULT_POD_RANGE when it names none), or why it cannot be one. */
export function podCidrSetting(cidr: string | undefined): AddressRange | { error: string } {
  if (cidr === undefined || cidr.trim() === '') return DEFAULT_POD_RANGE;
  const range = parseAddressRange(cidr);
  return 'error' in range ? { error: `invalid pod CIDR: ${range.error}` } : range;
}

/** Kubernetes' SafeEncodeString over the decimal text of a number. */
function safeEncode(n: number): string {
  let out = '';
  for (const ch of String(n)) out += SAFE_ALPHABET[ch.charCodeAt(0) % SAFE_ALPHABET.length];
  return out;
}

/**
 * A 5-character suffix like the random one Kubernetes appends, but fixed for a given seed:
 * character i comes from the hash of `<seed>:<i>`. Takes the seed's hash (see fnv32aFrom), so
 * the replicas of one controller hash their shared prefix once.
 */
/** Attempts at a generated name before one is used even though a sibling has it (never reached: see replicaPlans). */
const MAX_NAME_RETRIES = 1000;

function podSuffix(seedHash: number): string {
  const h = fnv32aCode(seedHash, 58); // ':'
  let out = '';
  for (let i = 0; i < 5; i++) out += SAFE_ALPHABET[fnv32aCode(h, 48 + i) % SAFE_ALPHABET.length];
  return out;
}

/** The hash of `<seed><mark><n>` given the hash of `seed` (n a replica index). */
function indexedSeed(seedHash: number, mark: number, n: number): number {
  return fnv32aFrom(fnv32aCode(seedHash, mark), String(n));
}

/** What the derivation reads besides the controllers themselves. */
interface DerivationInputs {
  view: ResourceReader;
  pods: readonly Resource[];
  nodes: readonly Resource[];
  /** The pod CIDR (default DEFAULT_POD_RANGE). */
  podRange?: AddressRange;
}

/** The pod template of a controller (as parsed), and its typed view. */
function templateOf(controller: Resource, kind: KindInfo): { raw: Obj; typed: PodTemplate } | undefined {
  if (kind === KINDS.CronJob) {
    const raw = rawAt(controller.body, ['spec', 'jobTemplate', 'spec', 'template']);
    const typed = cronJobSpec(controller).jobTemplate?.spec?.template;
    return raw && typed ? { raw, typed } : undefined;
  }
  const raw = rawAt(controller.body, ['spec', 'template']);
  const typed = workloadControllerSpec(controller).template;
  return raw && typed ? { raw, typed } : undefined;
}

function rawAt(o: Obj, path: readonly string[]): Obj | undefined {
  return objOrUndefined(valueAt(o, path));
}

/** The controller's selector, or its template's labels when it has none (as Jobs default). */
function selectorOf(controller: Resource, kind: KindInfo, template: PodTemplate): LabelSelector {
  const spec = kind === KINDS.CronJob ? cronJobSpec(controller).jobTemplate?.spec : workloadControllerSpec(controller);
  const sel = spec?.selector;
  if (sel && (Object.keys(sel.matchLabels).length > 0 || sel.matchExpressions.length > 0)) return sel;
  return { matchLabels: template.metadata?.labels ?? {}, matchExpressions: [] };
}

function ownerRefs(r: Resource): Array<{ kind: string; name: string }> {
  const meta = isObj(r.body.metadata) ? r.body.metadata : {};
  const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  return refs.filter(isObj).map((o) => ({ kind: str(o.kind), name: str(o.name) }));
}

/**
 * The workspace's own pods of one namespace, indexed for the one question derivation asks of
 * each controller: are its pods already here? A `kubectl get deploy,pods -o yaml` dump holds
 * thousands of both, so scanning the namespace's pods per controller would be quadratic.
 */
class NamespacePods {
  readonly pods: Resource[] = [];
  /** Owner names by owner kind. A ReplicaSet `<d>-<hash>` also counts as owned by Deployment `<d>`, a Job `<c>-<time>` by CronJob `<c>`. */
  private readonly owners = new Map<string, Set<string>>();
  /** Pods by label key, then value; made on the first selector asked (owners usually answer first). */
  private byLabel: Map<string, Map<string, Resource[]>> | undefined;

  add(pod: Resource): void {
    this.pods.push(pod);
    for (const ref of ownerRefs(pod)) {
      this.addOwner(ref.kind, ref.name);
      const parent = generatedParent(ref.name);
      if (parent === undefined) continue;
      if (ref.kind === 'ReplicaSet') this.addOwner(KINDS.Deployment.kind, parent);
      else if (ref.kind === 'Job') this.addOwner(KINDS.CronJob.kind, parent);
    }
  }

  private labelIndex(): Map<string, Map<string, Resource[]>> {
    if (this.byLabel) return this.byLabel;
    const index = new Map<string, Map<string, Resource[]>>();
    for (const pod of this.pods) {
      const labels = pod.labels;
      for (const key of Object.keys(labels)) {
        const value = labels[key];
        if (typeof value !== 'string') continue;
        let byValue = index.get(key);
        if (!byValue) index.set(key, (byValue = new Map()));
        listAt(byValue, value).push(pod);
      }
    }
    return (this.byLabel = index);
  }

  private addOwner(kind: string, name: string): void {
    let names = this.owners.get(kind);
    if (!names) this.owners.set(kind, (names = new Set()));
    names.add(name);
  }

  ownedBy(kind: string, name: string): boolean {
    return this.owners.get(kind)?.has(name) === true;
  }

  /** True when some pod's labels satisfy the selector (an invalid selector matches nothing). */
  anyMatches(selector: CompiledSelector): boolean {
    if (selector === null) return false;
    // Only pods carrying one of an `In` requirement's values can match: check the smallest such set.
    let candidates: readonly Resource[] | undefined;
    for (const r of selector) {
      if (r.op !== 'In') continue;
      const byValue = this.labelIndex().get(r.key);
      const found: Resource[] = [];
      for (const v of r.values) {
        const list = byValue?.get(v);
        if (list) for (const pod of list) found.push(pod);
      }
      if (found.length === 0) return false;
      if (candidates === undefined || found.length < candidates.length) candidates = found;
    }
    for (const pod of candidates ?? this.pods) if (compiledMatches(selector, pod.labels)) return true;
    return false;
  }
}

/** The parent a generated child name `<parent>-<suffix>` was made from (suffix of [a-z0-9]), if it is one. */
function generatedParent(child: string): string | undefined {
  const dash = child.lastIndexOf('-');
  if (dash < 0) return undefined;
  return GENERATED_SUFFIX.test(child.slice(dash + 1)) ? child.slice(0, dash) : undefined;
}

const GENERATED_SUFFIX = /^[a-z0-9]+$/;

/** True when some Pod of the namespace matches the controller's selector (a selector with no terms selects none here). */
function selectsAny(selector: LabelSelector, podsOfNamespace: NamespacePods): boolean {
  if (Object.keys(selector.matchLabels).length === 0 && selector.matchExpressions.length === 0) return false;
  const compiled = compileLabelSelector({ matchLabels: selector.matchLabels, matchExpressions: selector.matchExpressions.map((e) => ({ ...e })) });
  return compiled !== undefined && podsOfNamespace.anyMatches(compiled);
}

/** A ReplicaSet or Job whose owner (a Deployment or CronJob) is in the workspace derives nothing itself. */
function ownedByWorkspaceController(r: Resource, view: DerivationInputs['view']): boolean {
  for (const ref of ownerRefs(r)) {
    if (ref.kind === 'Deployment' && view.find(KINDS.Deployment, r.namespace, ref.name)) return true;
    if (ref.kind === 'CronJob' && view.find(KINDS.CronJob, r.namespace, ref.name)) return true;
  }
  return false;
}

interface PodPlan {
  name: string;
  nodeName: string;
  /** Shared by the replicas that get the same extra labels (podParts memoizes on it). */
  extraLabels: Record<string, string>;
  /** The pod's controlling owner as Kubernetes sets it (a Deployment's pods belong to its ReplicaSet, a CronJob's to a Job). */
  owner: { apiVersion: string; kind: string; name: string };
  /** `metadata.generateName` (StatefulSet pods have none). */
  generateName?: string;
}

function replicaPlans(controller: Resource, kind: KindInfo, template: PodTemplate, nodes: readonly Resource[]): PodPlan[] {
  const spec = workloadControllerSpec(controller);
  const templateNode = template.spec?.nodeName ?? '';
  const count = (n: number | undefined, dflt: number) => Math.max(0, Math.min(MAX_DERIVED_REPLICAS, n ?? dflt));
  const seed = fnv32a(`${controller.namespace}/${kind.kind}/${controller.name}`);
  const HASH = 35; // '#'
  const self = { apiVersion: `${kind.group}/${kind.version}`, kind: kind.kind, name: controller.name };
  const plans: PodPlan[] = [];
  // The API server refuses a generated name that is taken, and the controller asks again with
  // another suffix: so a second pod whose suffix repeats a sibling's gets a new one, and no
  // replica is lost (the first suffix of each stays what it always was).
  const taken = new Set<string>();
  const freshName = (generateName: string, seedHash: number): string => {
    let name = generateName + podSuffix(seedHash);
    for (let retry = 1; taken.has(name) && retry <= MAX_NAME_RETRIES; retry++) name = generateName + podSuffix(fnv32aFrom(seedHash, `~${retry}`));
    taken.add(name);
    return name;
  };
  // `n` replicas named `<prefix>-<suffix>`, as a ReplicaSet or Job controller names them.
  const numbered = (prefix: string, n: number, owner: PodPlan['owner'], extraLabels: Record<string, string>) => {
    const generateName = `${prefix}-`;
    for (let i = 0; i < n; i++)
      plans.push({ name: freshName(generateName, indexedSeed(seed, HASH, i)), nodeName: templateNode, extraLabels, owner, generateName });
  };
  switch (kind) {
    case KINDS.Deployment: {
      const hash = safeEncode(templateFingerprintHash(template));
      const rs = `${controller.name}-${hash}`;
      numbered(rs, count(spec.replicas, 1), { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs }, { 'pod-template-hash': hash });
      break;
    }
    case KINDS.StatefulSet:
      for (let i = 0; i < count(spec.replicas, 1); i++) {
        const name = `${controller.name}-${i}`;
        plans.push({
          name,
          nodeName: templateNode,
          extraLabels: { 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(i) },
          owner: self,
        });
      }
      break;
    case KINDS.DaemonSet: {
      const targets = templateNode !== '' ? [templateNode] : nodes.length > 0 ? nodes.slice(0, MAX_DERIVED_REPLICAS).map((n) => n.name) : [''];
      const generateName = `${controller.name}-`;
      const extraLabels = {};
      for (const node of targets)
        plans.push({ name: freshName(generateName, fnv32aFrom(fnv32aCode(seed, 64), node)), nodeName: node, extraLabels, owner: self, generateName });
      break;
    }
    case KINDS.ReplicaSet:
      numbered(controller.name, count(spec.replicas, 1), self, {});
      break;
    case KINDS.Job:
      numbered(controller.name, count(spec.parallelism, 1), self, { 'job-name': controller.name, 'batch.kubernetes.io/job-name': controller.name });
      break;
    case KINDS.CronJob: {
      if (cronJobSpec(controller).suspend === true) break;
      // Jobs of a CronJob are named after their scheduled minute; one fixed minute keeps names stable.
      const job = `${controller.name}-29000000`;
      const parallelism = cronJobSpec(controller).jobTemplate?.spec?.parallelism;
      numbered(job, count(parallelism, 1), { apiVersion: 'batch/v1', kind: 'Job', name: job }, { 'job-name': job, 'batch.kubernetes.io/job-name': job });
      break;
    }
  }
  return plans;
}

/** Characters JSON.stringify writes escaped. */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The hash of a string's JSON text, continued from `h`. */
function fnvJsonString(h: number, s: string): number {
  if (JSON_ESCAPED.test(s)) return fnv32aFrom(h, JSON.stringify(s));
  return fnv32aCode(fnv32aFrom(fnv32aCode(h, 34), s), 34);
}

/**
 * What of a template decides Kubernetes' pod-template-hash (any stable text of it will do):
 * the hash of the JSON text of `{labels, containers: [[name, image], …]}`, taken over its
 * pieces without building the text (thousands of Deployments would each cost a JSON text and
 * its garbage otherwise).
 */
export function templateFingerprintHash(t: PodTemplate): number {
  const labels = t.metadata?.labels;
  const containers = t.spec?.containers;
  let h = fnv32aCode(FNV32A_OFFSET, 123); // {
  if (labels !== undefined) {
    h = fnv32aFrom(h, '"labels":{');
    let first = true;
    for (const k of Object.keys(labels)) {
      if (!first) h = fnv32aCode(h, 44); // ,
      first = false;
      h = fnv32aCode(fnvJsonString(h, k), 58); // :
      h = fnvJsonString(h, labels[k] as string);
    }
    h = fnv32aCode(h, 125); // }
  }
  if (containers !== undefined) {
    h = fnv32aFrom(h, labels !== undefined ? ',"containers":[' : '"containers":[');
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i]!;
      if (i > 0) h = fnv32aCode(h, 44);
      h = fnv32aCode(h, 91); // [
      h = fnv32aCode(fnvJsonString(h, c.name), 44);
      h = fnv32aCode(fnvJsonString(h, c.image), 93); // ]
    }
    h = fnv32aCode(h, 93);
  }
  return fnv32aCode(h, 125);
}

/**
 * Allocates pod IPs in the pod CIDR from a hash of the pod's name, skipping taken ones (see
 * addressRing.ts: in the default 10.244.0.0/14, the first probe lands in 10.244.0.0/16).
 */
class PodIpAllocator {
  private readonly ring: AddressRing;
  private reserved = false;

  /**
   * `pods`: the workspace's pods, whose addresses are taken. They are read on the first
   * allocation: a dump of a live cluster holds every controller's pods, and then none is made.
   */
  constructor(
    private readonly pods: readonly Resource[],
    range: AddressRange,
  ) {
    this.ring = new AddressRing(range);
  }

  /** The hash state after `<namespace>/`, which every pod of the namespace continues. */
  namespaceSeed(namespace: string): number {
    return fnv32aCode(fnv32a(namespace), 47);
  }

  /** The address for the pod `<namespace>/<name>`, given namespaceSeed(namespace); '' when the pod CIDR is full. */
  allocate(namespaceSeed: number, name: string): string {
    if (!this.reserved) {
      this.reserved = true;
      for (const p of this.pods) this.ring.reserveAddress(podStatus(p).podIP);
    }
    return this.ring.take(fnv32aFrom(namespaceSeed, name));
  }
}

/** Injected proxy image for a pod: the revision's injector ConfigMap, else the default image. */
function proxyImageFor(view: DerivationInputs['view'], revision: string): string {
  const cmName = injectorConfigMapName(revision);
  const cm =
    view.list(KINDS.ConfigMap).find((c) => c.name === cmName && c.namespace === 'istio-system') ?? view.list(KINDS.ConfigMap).find((c) => c.name === cmName);
  const image = cm ? injectorProxyImage(cm) : '';
  return image !== '' && image !== '/:' ? image : DEFAULT_PROXY_IMAGE;
}

/** How a new pod of this template joins the mesh: the injector's sidecar, istio-cni's ambient mark, or neither. */
type MeshMode = { mode: 'sidecar'; image: string } | { mode: 'ambient' } | { mode: 'none' };

/** What every controller's mesh decision reads, worked out once per derivation. */
interface MeshModeContext {
  settings: ReturnType<typeof injectorSettings>;
  imageByRevision: Map<string, string>;
}

function meshModeOf(controller: Resource, shape: WorkloadShape, inputs: DerivationInputs, mc: MeshModeContext): MeshMode {
  if (sidecarInjected(inputs.view, shape, mc.settings).inject) {
    const revision = shape.labels[REVISION_LABEL] ?? inputs.view.find(KINDS.Namespace, '', controller.namespace)?.labels[REVISION_LABEL] ?? '';
    let image = mc.imageByRevision.get(revision);
    if (image === undefined) mc.imageByRevision.set(revision, (image = proxyImageFor(inputs.view, revision)));
    return { mode: 'sidecar', image };
  }
  return ambientEnrolled(inputs.view, shape).mode === 'ambient' ? { mode: 'ambient' } : { mode: 'none' };
}

/** Shallow-copied template fields plus what Kubernetes and Istio add to a running pod. */
/** The parts of a derived pod that depend only on the template, the node and the extra labels. */
interface PodParts {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: Obj;
}

/**
 * Replicas of one controller share their labels, annotations and spec objects (they differ
 * only in name and IP, and StatefulSet pods in two labels): a mesh of thousands of
 * Deployments then allocates a fraction of the objects, which the analysis time is mostly
 * made of. Resources are never mutated, so sharing is safe.
 */
function podParts(controller: Resource, template: { raw: Obj; typed: PodTemplate }, plan: PodPlan, mesh: MeshMode, memo: PartsMemo): PodParts {
  // Replicas that share their extra labels share the plan's object for them (see replicaPlans).
  // A controller has one or a few such groups: a scan beats a map of maps.
  for (const m of memo) if (m.extraLabels === plan.extraLabels && m.nodeName === plan.nodeName) return m.parts;
  const rawSpec = isObj(template.raw.spec) ? template.raw.spec : {};
  const labels: Record<string, string> = Object.assign(newStringMap(), template.typed.metadata?.labels, plan.extraLabels);
  const annotations: Record<string, string> = Object.assign(newStringMap(), template.typed.metadata?.annotations);
  const spec: Obj = { ...rawSpec };
  if (plan.nodeName !== '') spec.nodeName = plan.nodeName;
  // The container injection wrote (replaced or added), for the spec's typed view.
  let injected = -1;
  if (mesh.mode === 'sidecar') {
    const containers = Array.isArray(rawSpec.containers) ? [...rawSpec.containers] : [];
    const at = containers.findIndex((c) => isObj(c) && c.name === ISTIO_PROXY_CONTAINER);
    // Gateway Deployments carry an `istio-proxy` container with `image: auto`: injection fills it in.
    if (at >= 0) containers[at] = { ...(containers[at] as Obj), image: mesh.image };
    else containers.push({ name: ISTIO_PROXY_CONTAINER, image: mesh.image, args: ['proxy', 'sidecar'] });
    injected = at >= 0 ? at : containers.length - 1;
    spec.containers = containers;
    annotations[SIDECAR_STATUS_ANNOTATION] = DERIVED_SIDECAR_STATUS;
    labels[TLS_MODE_LABEL] = 'istio';
    labels[CANONICAL_NAME_LABEL] ??= labels['app.kubernetes.io/name'] ?? labels.app ?? controller.name;
    labels[CANONICAL_REVISION_LABEL] ??= labels['app.kubernetes.io/version'] ?? labels.version ?? 'latest';
  } else if (mesh.mode === 'ambient') {
    annotations[AMBIENT_REDIRECTION_ANNOTATION] = AMBIENT_REDIRECTION_ENABLED;
  }
  seedSpecView(template.typed.spec, spec, plan, injected);
  const parts = { labels, annotations, spec };
  memo.push({ extraLabels: plan.extraLabels, nodeName: plan.nodeName, parts });
  return parts;
}

/**
 * Gives the pod spec reader the view of a derived spec, made from the template's view: the
 * spec is the template's with the node and the container injection wrote (at `injected`, -1
 * for none), so only those change (thousands of derived specs would otherwise each be read
 * through PodSpec again).
 */
function seedSpecView(templateView: PodSpecView | undefined, spec: Obj, plan: PodPlan, injected: number): void {
  if (!templateView) return;
  let containers = templateView.containers;
  if (injected >= 0) {
    // The template's view lists its containers as written (none unless they were a list).
    const views = [...containers];
    views[injected] = Container.readOrEmpty((spec.containers as readonly unknown[])[injected]);
    containers = views;
  }
  podSpec.seed(spec, { ...templateView, containers, nodeName: plan.nodeName !== '' ? plan.nodeName : templateView.nodeName });
}

/** The injector's status annotation on a derived pod (marked derived). */
const DERIVED_SIDECAR_STATUS = JSON.stringify({ containers: [ISTIO_PROXY_CONTAINER], derived: true });

/** The parts built for one controller, by the plan's extra-labels object and node name. */
type PartsMemo = Array<{ extraLabels: Readonly<Record<string, string>>; nodeName: string; parts: PodParts }>;

/** What all replicas of one controller share (resources are never mutated, so sharing is safe). */
interface ControllerShared {
  /** Fields of the template's metadata a pod keeps besides the ones every pod sets (see podMetadata). */
  otherMeta: ReadonlyArray<readonly [string, unknown]>;
  derivedFrom: NonNullable<Resource['derivedFrom']>;
  source: Resource['source'];
  /** The owner references of the last owner asked for: every replica of a Deployment has the same ReplicaSet. */
  ownerName: string;
  ownerRefs: readonly Obj[];
}

/** The metadata fields a derived pod sets itself, in the order it writes them. */
const POD_META_FIELDS = new Set(['name', 'generateName', 'namespace', 'labels', 'annotations', 'ownerReferences']);

function controllerShared(controller: Resource, kind: KindInfo, templatePath: readonly string[], template: { raw: Obj }): ControllerShared {
  const rawMeta = isObj(template.raw.metadata) ? template.raw.metadata : {};
  const otherMeta: Array<readonly [string, unknown]> = [];
  for (const k of Object.keys(rawMeta)) if (!POD_META_FIELDS.has(k)) otherMeta.push([k, rawMeta[k]]);
  return {
    otherMeta,
    derivedFrom: { kind: kind.kind, namespace: controller.namespace, name: controller.name },
    source: controller.source ? new LiveSource(controller.source, templatePath) : undefined,
    ownerName: '',
    ownerRefs: [],
  };
}

/**
 * The controller's place in the file, read through: when lines are inserted above it the
 * model moves the controller's source in place, and derived pods are kept while their
 * controller object is the same, so a copy would point at the old line and document.
 */
class LiveSource implements ResourceSource {
  readonly itemIndex?: number;

  constructor(
    private readonly of: ResourceSource,
    readonly templatePath: readonly string[],
  ) {
    if (of.itemIndex !== undefined) this.itemIndex = of.itemIndex;
  }

  get file(): string {
    return this.of.file;
  }

  get docIndex(): number {
    return this.of.docIndex;
  }

  get line(): number {
    return this.of.line;
  }

  get isJson(): boolean {
    return this.of.isJson;
  }
}

const POD_GVK = { group: '', version: 'v1', kind: 'Pod' } as const;
const READY_CONDITIONS: readonly Obj[] = [{ type: 'Ready', status: 'True' }];

/**
 * A pod's metadata: what every pod gets, in one literal (so all share one hidden class),
 * then any other field of the template's metadata.
 */
function podMetadata(controller: Resource, shared: ControllerShared, plan: PodPlan, parts: PodParts): Obj {
  if (shared.ownerName !== plan.owner.name || shared.ownerRefs.length === 0) {
    shared.ownerName = plan.owner.name;
    const o = plan.owner;
    // A literal, not a spread: V8 builds spreads with an added field slowly.
    shared.ownerRefs = [{ apiVersion: o.apiVersion, kind: o.kind, name: o.name, controller: true }];
  }
  // StatefulSet pods have no generateName.
  const metadata: Obj =
    plan.generateName === undefined
      ? { name: plan.name, namespace: controller.namespace, labels: parts.labels, annotations: parts.annotations, ownerReferences: shared.ownerRefs }
      : {
          name: plan.name,
          generateName: plan.generateName,
          namespace: controller.namespace,
          labels: parts.labels,
          annotations: parts.annotations,
          ownerReferences: shared.ownerRefs,
        };
  for (const [k, v] of shared.otherMeta) metadata[k] = v;
  return metadata;
}

function buildPod(controller: Resource, shared: ControllerShared, plan: PodPlan, ip: string, parts: PodParts): Resource {
  const body: Obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: podMetadata(controller, shared, plan, parts),
    spec: parts.spec,
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: READY_CONDITIONS },
  };
  const pod: Resource = {
    key: `${KINDS.Pod.id}/${controller.namespace}/${plan.name}`,
    kindId: KINDS.Pod.id,
    gvk: POD_GVK,
    namespace: controller.namespace,
    name: plan.name,
    labels: parts.labels,
    annotations: parts.annotations,
    body,
    synthetic: 'derived',
    derivedFrom: shared.derivedFrom,
  };
  if (shared.source) pod.source = shared.source;
  return pod;
}

/**
 * The pods of every controller whose pods are not in the workspace. With a cache, a pod
 * whose controller object and derivation inputs did not change is the same object as last
 * time (incremental analysis relies on identity).
 */
export function derivePods(inputs: DerivationInputs, cache?: DerivedPodCache): Resource[] {
  const ips = new PodIpAllocator(inputs.pods, inputs.podRange ?? DEFAULT_POD_RANGE);
  // The workspace's pods by namespace: each controller looks only at its own namespace's.
  const podsByNamespace = new Map<string, NamespacePods>();
  for (const p of inputs.pods) {
    if (p.synthetic) continue;
    let list = podsByNamespace.get(p.namespace);
    if (!list) podsByNamespace.set(p.namespace, (list = new NamespacePods()));
    list.add(p);
  }
  const out: Resource[] = [];
  const meshContext: MeshModeContext = { settings: injectorSettings(inputs.view), imageByRevision: new Map() };
  for (const { kind, templatePath } of CONTROLLER_KINDS) {
    for (const controller of inputs.view.list(kind)) {
      if ((kind === KINDS.ReplicaSet || kind === KINDS.Job) && ownedByWorkspaceController(controller, inputs.view)) continue;
      const podsHere = podsByNamespace.get(controller.namespace);
      // By owner first: it needs no view of the template, and a dump of a live cluster answers here.
      if (podsHere?.ownedBy(kind.kind, controller.name)) continue;
      const template = templateOf(controller, kind);
      if (!template) continue;
      if (podsHere && selectsAny(selectorOf(controller, kind, template.typed), podsHere)) continue;
      const plans = replicaPlans(controller, kind, template.typed, inputs.nodes);
      if (plans.length === 0) continue;
      const typedSpec = template.typed.spec ?? PodSpec.readOrEmpty({});
      // Replicas differ only in name, node and IP, so the mesh decision is made once.
      const shape: WorkloadShape = {
        namespace: controller.namespace,
        labels: template.typed.metadata?.labels ?? EMPTY_STRING_MAP,
        annotations: template.typed.metadata?.annotations ?? EMPTY_STRING_MAP,
        containers: typedSpec.containers,
        initContainers: typedSpec.initContainers,
        hostNetwork: typedSpec.hostNetwork,
      };
      const mesh = meshModeOf(controller, shape, inputs, meshContext);
      const partsMemo: PartsMemo = [];
      const shared = controllerShared(controller, kind, templatePath, template);
      const namespaceSeed = ips.namespaceSeed(controller.namespace);
      const image = mesh.mode === 'sidecar' ? mesh.image : '';
      const previous = cache?.lookup(controller, mesh.mode, image);
      const built: CachedController = { mode: mesh.mode, image, pods: [], nodeNames: [], ips: [] };
      for (let i = 0; i < plans.length; i++) {
        const plan = plans[i]!;
        const ip = ips.allocate(namespaceSeed, plan.name);
        const known = previous?.pods[i];
        const pod =
          known && known.name === plan.name && previous!.nodeNames[i] === plan.nodeName && previous!.ips[i] === ip
            ? known
            : buildPod(controller, shared, plan, ip, podParts(controller, template, plan, mesh, partsMemo));
        built.pods.push(pod);
        built.nodeNames.push(plan.nodeName);
        built.ips.push(ip);
        out.push(pod);
      }
      cache?.remember(controller, built);
    }
  }
  return out;
}

/**
 * The pods one controller object gave in the last derivation, in plan order, with what they
 * were built from besides the controller: the mesh decision, and each pod's node and IP.
 * Parallel lists, not an object per pod: the browser keeps this for every controller.
 */
interface CachedController {
  mode: MeshMode['mode'];
  image: string;
  pods: Resource[];
  nodeNames: string[];
  ips: string[];
}

/** Derived pods of the last derivation, by controller object (a pod is reused when its name, node and IP are the same). */
export class DerivedPodCache {
  private byController = new WeakMap<Resource, CachedController>();

  lookup(controller: Resource, mode: MeshMode['mode'], image: string): CachedController | undefined {
    const hit = this.byController.get(controller);
    return hit && hit.mode === mode && hit.image === image ? hit : undefined;
  }

  remember(controller: Resource, built: CachedController): void {
    this.byController.set(controller, built);
  }
}
