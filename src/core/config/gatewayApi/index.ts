// The Istio config istiod derives from the workspace's Gateway API objects, as a lookup: the
// generated Gateways, VirtualServices and DestinationRules (as Resources the generator reads
// like any other), the status istiod would write back, and the GatewayClasses in play
// (including the built-in ones assumed when the workspace has none). These objects are not
// in the analyzer store: istioctl's analyzers do not see them either.
import type { Resource } from '../../document/types.ts';
import { KINDS, type KindInfo } from '../../document/kinds.ts';
import type { ConfigView } from '../configView.ts';
import { DOMAIN_SUFFIX, meshServices } from '../services.ts';
import { serviceSpec } from '../api/kube.ts';
import { convertGatewayApi, type ConvertOptions, type IstioConfig, type RegistryService, type StatusWrite } from './convert.ts';
import type { GwObject } from './objects.ts';
import { listAt } from '../../document/maps.ts';

export {
  builtinGatewayClasses,
  convertGatewayApi,
  internalGatewayName,
  isInternalGatewayName,
  KUBERNETES_GATEWAY_NAME,
} from './convert.ts';
export type { ConvertOptions, GatewayApiResult, IstioConfig, RegistryService, ServiceRegistry, StatusWrite } from './convert.ts';
export type { GwObject } from './objects.ts';

export interface GatewayApiConfig {
  gateways: readonly Resource[];
  virtualServices: readonly Resource[];
  destinationRules: readonly Resource[];
  /** Status istiod would write to each Gateway API object (by `Kind/namespace/name`). */
  statuses: ReadonlyMap<string, StatusWrite>;
  /** GatewayClasses: those in the workspace, and the built-in ones istiod creates when missing. */
  classes: readonly { name: string; controller: string; assumed: boolean }[];
}

/** The kinds the conversion reads (those the store knows). */
export const GATEWAY_API_INPUT_KINDS: readonly KindInfo[] = [
  KINDS.GatewayClass,
  KINDS.KubernetesGateway,
  KINDS.HTTPRoute,
  KINDS.GRPCRoute,
  KINDS.TCPRoute,
  KINDS.TLSRoute,
  KINDS.ReferenceGrant,
  KINDS.BackendTLSPolicy,
  KINDS.ServiceEntry,
  KINDS.Service,
  KINDS.Secret,
  KINDS.ConfigMap,
  KINDS.Namespace,
];

function gwObject(r: Resource): GwObject {
  const md = (r.body.metadata ?? {}) as Record<string, unknown>;
  const ts = typeof md.creationTimestamp === 'string' ? Date.parse(md.creationTimestamp) : NaN;
  return {
    apiVersion: `${r.gvk.group ? `${r.gvk.group}/` : ''}${r.gvk.version}`,
    kind: r.gvk.kind,
    namespace: r.namespace,
    name: r.name,
    labels: r.labels,
    annotations: r.annotations,
    body: r.body,
    created: Number.isFinite(ts) ? ts : 0,
    generation: typeof md.generation === 'number' ? md.generation : 0,
  };
}

/** A Kubernetes Service's external addresses: LoadBalancer ingress and spec.externalIPs. */
function externalAddresses(svc: Resource): string[] {
  const out: string[] = [];
  const lb = ((svc.body.status as Record<string, unknown> | undefined)?.loadBalancer as Record<string, unknown> | undefined)?.ingress;
  if (Array.isArray(lb)) {
    for (const i of lb) {
      if (typeof i !== 'object' || i === null) continue;
      const e = i as Record<string, unknown>;
      if (typeof e.ip === 'string' && e.ip) out.push(e.ip);
      else if (typeof e.hostname === 'string' && e.hostname) out.push(e.hostname);
    }
  }
  if (svc.kindId === KINDS.Service.id) out.push(...serviceSpec(svc).externalIPs);
  return out;
}

/** The registry as the conversion needs it, from the mesh's service registry. */
export function gatewayApiRegistry(view: ConfigView): RegistryService[] {
  return meshServices(view).map((s) => {
    const endpointPorts = new Map<number, number[]>();
    for (const p of s.ports) {
      const eps: number[] = [];
      for (const e of s.endpoints) {
        const port = e.ports[p.name];
        if (port !== undefined) eps.push(port);
      }
      endpointPorts.set(p.port, eps);
    }
    const isKube = s.resource.kindId === KINDS.Service.id;
    return {
      hostname: s.hostname,
      namespace: s.namespace,
      ports: s.ports.map((p) => ({ name: p.name, port: p.port })),
      endpointPorts,
      addresses: s.addresses.filter((a) => a !== 'None' && a !== ''),
      externalAddresses: externalAddresses(s.resource),
      loadBalancer: isKube && serviceSpec(s.resource).type === 'LoadBalancer',
      labels: s.resource.labels,
    };
  });
}

function toResource(c: IstioConfig): Resource {
  const info = c.kind === 'Gateway' ? KINDS.Gateway : c.kind === 'VirtualService' ? KINDS.VirtualService : KINDS.DestinationRule;
  const body = { apiVersion: c.apiVersion, kind: c.kind, metadata: c.metadata, spec: c.spec } as Record<string, unknown>;
  const annotations = Object.assign(Object.create(null) as Record<string, string>, c.metadata.annotations);
  return {
    key: `${info.id}/${c.metadata.namespace}/${c.metadata.name}`,
    kindId: info.id,
    gvk: { group: info.group, version: info.version, kind: info.kind },
    namespace: c.metadata.namespace,
    name: c.metadata.name,
    labels: Object.create(null) as Record<string, string>,
    annotations,
    body,
  };
}

/** Options for the view's conversion: Istio's defaults, the mesh's domain suffix. */
export function defaultConvertOptions(view: ConfigView): ConvertOptions {
  const registry = gatewayApiRegistry(view);
  const byHost = new Map<string, RegistryService[]>();
  for (const s of registry) {
    listAt(byHost, s.hostname).push(s);
  }
  return {
    domainSuffix: DOMAIN_SUFFIX,
    registry: { byHostname: (h) => byHost.get(h) ?? [] },
    now: '1970-01-01T00:00:00Z',
  };
}

/** The Gateway API conversion of a view, built once per version (`view.lookups`). */
export function gatewayApiConfig(view: ConfigView): GatewayApiConfig {
  return view.lookups.cached('config.gatewayApi', () => {
    const objects: GwObject[] = [];
    for (const k of GATEWAY_API_INPUT_KINDS) for (const r of view.list(k)) objects.push(gwObject(r));
    const result = convertGatewayApi(objects, defaultConvertOptions(view));
    const statuses = new Map<string, StatusWrite>();
    for (const s of result.statuses) statuses.set(`${s.kind}/${s.namespace}/${s.name}`, s);
    return {
      gateways: result.gateways.map(toResource),
      virtualServices: result.virtualServices.map(toResource),
      destinationRules: result.destinationRules.map(toResource),
      statuses,
      classes: result.classes,
    };
  });
}

export { assumedGatewayClassesNote } from './builtins.ts';
