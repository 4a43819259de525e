// Assembly: everything generated for one proxy as an Envoy `/config_dump?include_eds` document
// (the shape `istioctl proxy-config all -o json` prints and configdump/ renders), plus a
// provenance side table: for each listener, filter chain, cluster, route configuration,
// virtual host, route and endpoint set, the resources (and fields) that produced it.
import type { Json } from './types.ts';
import type { GeneratedConfig } from './generate.ts';
import { marksOf, emptyProvenance, type ProvenanceTable } from './provenance.ts';
import type { ProvenanceRef } from './types.ts';
import { bootstrapNode, bootstrapStaticClusters, bootstrapStaticListeners } from './bootstrap.ts';
import { isObj } from '../document/read.ts';
import { SDS_DEFAULT, SDS_ROOT } from './tlsContext.ts';
import { sdsResourceNames } from './secrets.ts';

const T = 'type.googleapis.com/';
export const DUMP_TYPES = {
  bootstrap: `${T}envoy.admin.v3.BootstrapConfigDump`,
  clusters: `${T}envoy.admin.v3.ClustersConfigDump`,
  endpoints: `${T}envoy.admin.v3.EndpointsConfigDump`,
  listeners: `${T}envoy.admin.v3.ListenersConfigDump`,
  scopedRoutes: `${T}envoy.admin.v3.ScopedRoutesConfigDump`,
  routes: `${T}envoy.admin.v3.RoutesConfigDump`,
  secrets: `${T}envoy.admin.v3.SecretsConfigDump`,
  cluster: `${T}envoy.config.cluster.v3.Cluster`,
  listener: `${T}envoy.config.listener.v3.Listener`,
  routeConfiguration: `${T}envoy.config.route.v3.RouteConfiguration`,
  clusterLoadAssignment: `${T}envoy.config.endpoint.v3.ClusterLoadAssignment`,
  secret: `${T}envoy.extensions.transport_sockets.tls.v3.Secret`,
  bootstrapConfig: `${T}envoy.config.bootstrap.v3.Bootstrap`,
  ecds: `${T}envoy.admin.v3.EcdsConfigDump`,
  typedExtensionConfig: `${T}envoy.config.core.v3.TypedExtensionConfig`,
} as const;

export interface DumpOptions {
  /** `lastUpdated` of every entry (a real dump has push times; a fixed value keeps output stable). */
  lastUpdated?: string;
  /** `versionInfo` of every dynamic entry. */
  versionInfo?: string;
  /** Leave out the bootstrap section and the static clusters and listeners. */
  omitBootstrap?: boolean;
  /**
   * The Envoy Secret istiod would send for an SDS resource name (secrets.ts resolveProxySecret),
   * `warming` when it would send none. Without it, secrets are listed by name only.
   */
  secret?: (name: string) => { secret: Json; warming: boolean };
}

export interface GeneratedDump {
  /** `{configs: [...]}`, as Envoy's admin `/config_dump?include_eds` writes it. */
  dump: { configs: Json[] };
  provenance: ProvenanceTable;
  notes: readonly string[];
}

const DEFAULT_TIME = '2000-01-01T00:00:00Z';

/** A resource or dump section with its `@type`, as Envoy's admin interface writes them. */
export function typed(type: string, body: Json): Json {
  return { '@type': type, ...body };
}

function refs(obj: unknown): ProvenanceRef[] {
  return isObj(obj) ? [...marksOf(obj)] : [];
}

/** Gathers the marks builders left on the generated objects into the side table. */
export function provenanceOf(gen: GeneratedConfig): ProvenanceTable {
  const t = emptyProvenance();
  const put = (table: Record<string, ProvenanceRef[]>, key: string, obj: unknown) => {
    const r = refs(obj);
    if (r.length > 0) table[key] = [...(table[key] ?? []), ...r];
  };
  for (const l of gen.listeners) {
    const name = String(l.name ?? '');
    put(t.listeners, name, l);
    (Array.isArray(l.filterChains) ? l.filterChains : []).forEach((c, i) => put(t.filterChains, `${name}/${i}`, c));
    if (isObj(l.defaultFilterChain)) put(t.filterChains, `${name}/default`, l.defaultFilterChain);
  }
  for (const c of gen.clusters) put(t.clusters, String(c.name ?? ''), c);
  for (const rc of gen.routes) {
    const rcName = String(rc.name ?? '');
    put(t.routeConfigs, rcName, rc);
    for (const vh of Array.isArray(rc.virtualHosts) ? rc.virtualHosts : []) {
      if (!isObj(vh)) continue;
      const vhName = `${rcName}/${String(vh.name ?? '')}`;
      put(t.virtualHosts, vhName, vh);
      (Array.isArray(vh.routes) ? vh.routes : []).forEach((r, i) => put(t.routes, `${vhName}/${i}`, r));
    }
  }
  for (const cla of gen.endpoints) {
    const name = String(cla.clusterName ?? '');
    put(t.endpoints, name, cla);
  }
  return t;
}

/** The config dump of generated config. */
export function configDump(gen: GeneratedConfig, opts: DumpOptions = {}): GeneratedDump {
  const lastUpdated = opts.lastUpdated ?? DEFAULT_TIME;
  const versionInfo = opts.versionInfo ?? `${lastUpdated}/1`;
  const proxy = gen.proxy;
  const withBootstrap = !opts.omitBootstrap;
  const staticClusters = withBootstrap ? bootstrapStaticClusters(proxy, gen.mesh) : [];
  const staticListeners = withBootstrap ? bootstrapStaticListeners(proxy) : [];
  const configs: Json[] = [];
  if (withBootstrap) {
    configs.push(
      typed(DUMP_TYPES.bootstrap, {
        bootstrap: {
          node: bootstrapNode(proxy, gen.mesh, proxy.clusterId || 'Kubernetes'),
          staticResources: { listeners: staticListeners, clusters: staticClusters },
          dynamicResources: {
            ldsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
            cdsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
            adsConfig: {
              apiType: 'GRPC',
              setNodeOnFirstMessageOnly: true,
              transportApiVersion: 'V3',
              grpcServices: [{ envoyGrpc: { clusterName: 'xds-grpc' } }],
            },
          },
        },
        lastUpdated,
      }),
    );
  }
  configs.push(
    typed(DUMP_TYPES.clusters, {
      versionInfo,
      ...(staticClusters.length > 0 ? { staticClusters: staticClusters.map((c) => ({ cluster: typed(DUMP_TYPES.cluster, c), lastUpdated })) } : {}),
      dynamicActiveClusters: gen.clusters.map((c) => ({ versionInfo, cluster: typed(DUMP_TYPES.cluster, c), lastUpdated })),
    }),
  );
  configs.push(
    typed(DUMP_TYPES.endpoints, {
      ...(staticClusters.length > 0
        ? {
            staticEndpointConfigs: staticClusters
              .filter((c) => isObj(c.loadAssignment))
              .map((c) => ({ endpointConfig: typed(DUMP_TYPES.clusterLoadAssignment, c.loadAssignment as Json), lastUpdated })),
          }
        : {}),
      dynamicEndpointConfigs: gen.endpoints.map((e) => ({ versionInfo, endpointConfig: typed(DUMP_TYPES.clusterLoadAssignment, e), lastUpdated })),
    }),
  );
  configs.push(
    typed(DUMP_TYPES.listeners, {
      versionInfo,
      ...(staticListeners.length > 0 ? { staticListeners: staticListeners.map((l) => ({ listener: typed(DUMP_TYPES.listener, l), lastUpdated })) } : {}),
      dynamicListeners: gen.listeners.map((l) => ({ name: l.name, activeState: { versionInfo, listener: typed(DUMP_TYPES.listener, l), lastUpdated } })),
    }),
  );
  configs.push(typed(DUMP_TYPES.scopedRoutes, {}));
  // ECDS: the extension configs the listeners' filters ask for by name (EnvoyFilter EXTENSION_CONFIG patches).
  const ecds = gen.extensionConfigs ?? [];
  if (ecds.length > 0)
    configs.push(
      typed(DUMP_TYPES.ecds, { ecdsFilters: ecds.map((e) => ({ versionInfo, ecdsFilter: typed(DUMP_TYPES.typedExtensionConfig, e), lastUpdated })) }),
    );
  const staticRoutes: Json[] = [];
  for (const l of staticListeners) {
    for (const c of Array.isArray(l.filterChains) ? (l.filterChains as Json[]) : []) {
      for (const f of Array.isArray(c.filters) ? (c.filters as Json[]) : []) {
        if (isObj(f.typedConfig) && isObj(f.typedConfig.routeConfig))
          staticRoutes.push({ routeConfig: typed(DUMP_TYPES.routeConfiguration, f.typedConfig.routeConfig), lastUpdated });
      }
    }
  }
  configs.push(
    typed(DUMP_TYPES.routes, {
      ...(staticRoutes.length > 0 ? { staticRouteConfigs: staticRoutes } : {}),
      dynamicRouteConfigs: gen.routes.map((r) => ({ versionInfo, routeConfig: typed(DUMP_TYPES.routeConfiguration, r), lastUpdated })),
    }),
  );
  const secretNames = sdsResourceNames(gen.listeners, gen.clusters);
  for (const n of [SDS_ROOT, SDS_DEFAULT]) if (!secretNames.includes(n) && proxy.type !== 'waypoint') secretNames.unshift(n);
  const active: Json[] = [];
  const warming: Json[] = [];
  for (const name of secretNames) {
    const r = opts.secret?.(name);
    if (r?.warming) warming.push({ name, versionInfo: 'uninitialized', lastUpdated, secret: r.secret });
    else active.push({ name, versionInfo, lastUpdated, secret: r ? r.secret : typed(DUMP_TYPES.secret, { name }) });
  }
  configs.push(
    typed(DUMP_TYPES.secrets, {
      dynamicActiveSecrets: active,
      ...(warming.length > 0 ? { dynamicWarmingSecrets: warming } : {}),
    }),
  );
  const notes = [
    ...gen.notes,
    opts.secret
      ? "Secrets: Istio's own certificates (default, ROOTCA) are issued at run time and listed by name only; credentials are read from the workspace's Secrets, and those istiod could not send stay warming."
      : 'Secrets are listed by name only: certificates and keys are issued at run time and are not part of the workspace.',
  ];
  return { dump: { configs }, provenance: provenanceOf(gen), notes };
}
