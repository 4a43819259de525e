// What a proxy has before any xDS: the bootstrap istio-agent writes from
// tools/packaging/common/envoy_bootstrap.json (spec §1.1, §1.2 "bootstrap static"). Only what
// shows in a config dump is modelled: the node, the static clusters (prometheus_stats, agent,
// sds-grpc, xds-grpc, zipkin when tracing goes to Zipkin) and the static listeners
// (`0.0.0.0_15090` Prometheus, `0.0.0.0_15021` health).
import type { Json, Proxy } from './types.ts';
import type { MeshSettings } from './mesh.ts';
import { isObj, str } from '../document/read.ts';
import { HCM_NAME, HCM_TYPE } from './filters.ts';
import { canonicalService } from '../config/services.ts';
import { supportsIPv4 } from './proxy.ts';

const HTTP_OPTIONS: Json = {
  'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
    '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
    explicitHttpConfig: { http2ProtocolOptions: {} },
  },
};

function num(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isInteger(v) ? v : dflt;
}

function staticCluster(name: string, address: Json, extra: Json = {}): Json {
  return {
    name,
    altStatName: `${name};`,
    type: 'STATIC',
    connectTimeout: '0.250s',
    lbPolicy: 'ROUND_ROBIN',
    loadAssignment: { clusterName: name, endpoints: [{ lbEndpoints: [{ endpoint: { address } }] }] },
    ...extra,
  };
}

function socket(address: string, port: number): Json {
  return { socketAddress: { protocol: 'TCP', address, portValue: port } };
}

/** `host:port` of the Zipkin tracer, when tracing is on and goes to Zipkin. */
function zipkinAddress(mesh: MeshSettings): { address: string; port: number } | undefined {
  if (!mesh.enableTracing) return undefined;
  const tracing = isObj(mesh.defaultConfig.tracing) ? mesh.defaultConfig.tracing : undefined;
  const z = tracing && isObj(tracing.zipkin) ? str(tracing.zipkin.address) : '';
  if (z === '') return undefined;
  const i = z.lastIndexOf(':');
  return i > 0 ? { address: z.slice(0, i), port: Number(z.slice(i + 1)) || 9411 } : { address: z, port: 9411 };
}

export function bootstrapStaticClusters(proxy: Proxy, mesh: MeshSettings): Json[] {
  const localhost = supportsIPv4(proxy) ? '127.0.0.1' : '::1';
  const configPath = str(mesh.defaultConfig.configPath) || './etc/istio/proxy';
  const limits = { maxConnections: 100000, maxPendingRequests: 100000, maxRequests: 100000 };
  const out = [
    staticCluster('prometheus_stats', socket(localhost, num(mesh.defaultConfig.proxyAdminPort, 15000))),
    staticCluster('agent', socket(localhost, num(mesh.defaultConfig.statusPort, 15020))),
    {
      ...staticCluster('sds-grpc', { pipe: { path: './var/run/secrets/workload-spiffe-uds/socket' } }),
      connectTimeout: '1s',
      typedExtensionProtocolOptions: HTTP_OPTIONS,
    },
    {
      ...staticCluster('xds-grpc', { pipe: { path: `${configPath}/XDS` } }),
      connectTimeout: '1s',
      circuitBreakers: {
        thresholds: [
          { priority: 'DEFAULT', ...limits },
          { priority: 'HIGH', ...limits },
        ],
      },
      upstreamConnectionOptions: { tcpKeepalive: { keepaliveTime: 300 } },
      maxRequestsPerConnection: 1,
      typedExtensionProtocolOptions: HTTP_OPTIONS,
    },
  ];
  const z = zipkinAddress(mesh);
  if (z) {
    out.push({
      name: 'zipkin',
      altStatName: 'zipkin;',
      type: 'STRICT_DNS',
      respectDnsTtl: true,
      dnsLookupFamily: supportsIPv4(proxy) ? 'V4_ONLY' : 'V6_ONLY',
      dnsRefreshRate: '30s',
      connectTimeout: '1s',
      lbPolicy: 'ROUND_ROBIN',
      loadAssignment: { clusterName: 'zipkin', endpoints: [{ lbEndpoints: [{ endpoint: { address: socket(z.address, z.port) } }] }] },
    });
  }
  return out;
}

function inlineHttpListener(name: string, wildcard: string, port: number, statPrefix: string, prefix: string, cluster: string): Json {
  return {
    name,
    address: socket(wildcard, port),
    ignoreGlobalConnLimit: true,
    bypassOverloadManager: true,
    filterChains: [
      {
        filters: [
          {
            name: HCM_NAME,
            typedConfig: {
              '@type': HCM_TYPE,
              codecType: 'AUTO',
              statPrefix,
              routeConfig: { virtualHosts: [{ name: 'backend', domains: ['*'], routes: [{ match: { prefix }, route: { cluster } }] }] },
              httpFilters: [
                { name: 'envoy.filters.http.router', typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router' } },
              ],
            },
          },
        ],
      },
    ],
  };
}

export function bootstrapStaticListeners(proxy: Proxy): Json[] {
  const wildcard = supportsIPv4(proxy) ? '0.0.0.0' : '::';
  return [
    inlineHttpListener(`${wildcard}_15090`, wildcard, 15090, 'stats', '/stats/prometheus', 'prometheus_stats'),
    inlineHttpListener(`${wildcard}_15021`, wildcard, 15021, 'agent', '/healthz/ready', 'agent'),
  ];
}

/** The xDS node: `<type>~<ip>~<pod>.<ns>~<ns>.svc.<domain>`, with the metadata istiod reads. */
export function bootstrapNode(proxy: Proxy, mesh: MeshSettings, clusterId: string): Json {
  const cs = canonicalService(proxy.labels, proxy.workloadName);
  const meta: Json = {
    ISTIO_VERSION: proxy.istioVersion,
    CLUSTER_ID: clusterId,
    NAMESPACE: proxy.namespace,
    NAME: proxy.id.split('.')[0] ?? proxy.id,
    LABELS: { ...proxy.labels },
    MESH_ID: proxy.metadata.meshId || mesh.meshId || mesh.trustDomain,
    SERVICE_ACCOUNT: proxy.serviceAccount,
    WORKLOAD_NAME: proxy.workloadName,
    INTERCEPTION_MODE: proxy.interceptionMode,
    INSTANCE_IPS: proxy.ipAddresses.join(','),
    ...(proxy.network ? { NETWORK: proxy.network } : {}),
    ...(proxy.nodeName ? { NODE_NAME: proxy.nodeName } : {}),
  };
  const loc = proxy.locality;
  return {
    id: `${proxy.type}~${proxy.ipAddresses[0] ?? ''}~${proxy.id}~${proxy.dnsDomain}`,
    cluster: `${cs.name}.${proxy.namespace}`,
    ...(loc.region || loc.zone || loc.subzone
      ? {
          locality: {
            ...(loc.region ? { region: loc.region } : {}),
            ...(loc.zone ? { zone: loc.zone } : {}),
            ...(loc.subzone ? { subZone: loc.subzone } : {}),
          },
        }
      : {}),
    metadata: meta,
    userAgentName: 'envoy',
  };
}
