// API groups and kinds as the conversion compares them: gatewaycommon.NormalizeReference's defaults
// (gatewaycommon/references.go), and the group/version/kind istiod prints in messages.

export const GW_GROUP = 'gateway.networking.k8s.io';
export const GWX_GROUP = 'gateway.networking.x-k8s.io';
export const ISTIO_NET_GROUP = 'networking.istio.io';
const INFERENCE_GROUP = 'inference.networking.k8s.io';
export const MCS_GROUP = 'multicluster.x-k8s.io';

export interface GK {
  group: string;
  kind: string;
}

export const KNOWN_GK: readonly GK[] = [
  { group: '', kind: 'Service' },
  { group: '', kind: 'Secret' },
  { group: '', kind: 'ConfigMap' },
  { group: '', kind: 'Namespace' },
  { group: GW_GROUP, kind: 'Gateway' },
  { group: GW_GROUP, kind: 'GatewayClass' },
  { group: GW_GROUP, kind: 'HTTPRoute' },
  { group: GW_GROUP, kind: 'GRPCRoute' },
  { group: GW_GROUP, kind: 'TCPRoute' },
  { group: GW_GROUP, kind: 'TLSRoute' },
  { group: GW_GROUP, kind: 'ReferenceGrant' },
  { group: GW_GROUP, kind: 'BackendTLSPolicy' },
  { group: GW_GROUP, kind: 'ListenerSet' },
  { group: GWX_GROUP, kind: 'XBackend' },
  { group: GWX_GROUP, kind: 'XBackendTrafficPolicy' },
  { group: GWX_GROUP, kind: 'XListenerSet' },
  { group: ISTIO_NET_GROUP, kind: 'ServiceEntry' },
  { group: INFERENCE_GROUP, kind: 'InferencePool' },
];

/** gatewaycommon.NormalizeReference: group/kind with defaults for absent fields. */
export function normalizeRef(group: string | undefined, kind: string | undefined, def: GK): GK {
  const gk = { group: group ?? def.group, kind: kind ?? def.kind };
  // "core" is how the registry spells the empty group.
  if (gk.group === 'core') gk.group = '';
  const known = KNOWN_GK.find((k) => k.group === gk.group && k.kind === gk.kind);
  return known ?? gk;
}

export function gkEq(a: GK, b: GK): boolean {
  return a.group === b.group && a.kind === b.kind;
}

export const GK_GATEWAY: GK = { group: GW_GROUP, kind: 'Gateway' };
export const GK_LISTENERSET: GK = { group: GW_GROUP, kind: 'ListenerSet' };
export const GK_SERVICE: GK = { group: '', kind: 'Service' };
export const GK_SERVICEENTRY: GK = { group: ISTIO_NET_GROUP, kind: 'ServiceEntry' };
export const GK_SECRET: GK = { group: '', kind: 'Secret' };
export const GK_CONFIGMAP: GK = { group: '', kind: 'ConfigMap' };
export const GK_XBACKEND: GK = { group: GWX_GROUP, kind: 'XBackend' };
export const GK_INFERENCEPOOL: GK = { group: INFERENCE_GROUP, kind: 'InferencePool' };
export const GK_NONE: GK = { group: '', kind: '' };

export function gkString(gk: GK): string {
  // config.GroupVersionKind.String(): core kinds print as `core/v1/Kind`-like; istiod prints group/version/kind.
  return `${gk.group || 'core'}/${VERSIONS[`${gk.group}/${gk.kind}`] ?? 'v1'}/${gk.kind}`;
}

const VERSIONS: Record<string, string> = {
  [`${GW_GROUP}/TLSRoute`]: 'v1',
  [`${GW_GROUP}/ReferenceGrant`]: 'v1beta1',
  [`${GWX_GROUP}/XBackend`]: 'v1alpha1',
  [`${GWX_GROUP}/XBackendTrafficPolicy`]: 'v1alpha1',
};

export type RouteKind = 'HTTPRoute' | 'GRPCRoute' | 'TCPRoute' | 'TLSRoute';
