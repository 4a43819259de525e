// Every kind whose schema we know, by API group and kind: the versions the API server serves,
// the deprecated ones (with the API server's warning), and the shapes of `spec` (or of the
// whole body, for kinds without a spec).
import { listAt, mapAt } from '../../../document/maps.ts';
import type { MessageShape, Fields } from '../../shape.ts';
import { CRDS as NETWORKING } from './networking.ts';
import { CRDS as SECURITY } from './security.ts';
import { CRDS as TELEMETRY } from './telemetry.ts';
import { CRDS as EXTENSIONS } from './extensions.ts';
import { CRDS as GATEWAY_API } from './gatewayapi.ts';
import { KUBE_KINDS, ObjectMeta } from './kube.ts';

export { ObjectMeta };

export interface ApiKind {
  group: string;
  kind: string;
  /** Versions the API server serves, the storage version first. */
  versions: readonly string[];
  /** Deprecated versions, with the warning the API server prints for them. */
  deprecated?: Readonly<Record<string, string>>;
  /** The schema of `spec`… */
  spec?: MessageShape<Fields>;
  /** …or of the whole body (ConfigMap, Secret). */
  body?: MessageShape<Fields>;
  /** The API server rejects an object without `spec`. */
  specRequired?: boolean;
  /** A CRD of ours (Istio, Gateway API): fields it does not name are rejected. Core kinds are checked loosely. */
  crd: boolean;
  clusterScoped?: boolean;
}

function fromCrds(
  list: ReadonlyArray<{
    group: string;
    kind: string;
    versions: readonly string[];
    storage: string;
    spec: MessageShape<Fields>;
    specRequired: boolean;
    deprecated?: Readonly<Record<string, string>>;
    clusterScoped?: boolean;
  }>,
): ApiKind[] {
  return list.map((c) => ({
    group: c.group,
    kind: c.kind,
    versions: [c.storage, ...c.versions.filter((v) => v !== c.storage)],
    ...(c.deprecated ? { deprecated: c.deprecated } : {}),
    spec: c.spec,
    specRequired: c.specRequired,
    crd: true,
    ...(c.clusterScoped ? { clusterScoped: true } : {}),
  }));
}

export const API_KINDS: readonly ApiKind[] = [
  ...fromCrds(NETWORKING),
  ...fromCrds(SECURITY),
  ...fromCrds(TELEMETRY),
  ...fromCrds(EXTENSIONS),
  ...fromCrds(GATEWAY_API as never),
  ...KUBE_KINDS.map((k) => ({ ...k, crd: false }) as ApiKind),
];

// By group, then kind (asked once per resource: two lookups beat building a `group/kind` key).
const byGroupKind = new Map<string, Map<string, ApiKind>>();
const byGroup = new Map<string, ApiKind[]>();
for (const k of API_KINDS) {
  mapAt(byGroupKind, k.group).set(k.kind, k);
  listAt(byGroup, k.group).push(k);
}

export function apiKind(group: string, kind: string): ApiKind | undefined {
  return byGroupKind.get(group)?.get(kind);
}

/** The kinds we know in a group (empty for groups we know nothing of). */
export function kindsOfGroup(group: string): readonly ApiKind[] {
  return byGroup.get(group) ?? [];
}
