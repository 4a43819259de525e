// Mesh config as the analyzers see it: Istio's defaults, with the workspace's `istio`
// ConfigMap (or a --meshConfigFile) merged over them the way istiod does.
import { strList } from '../../document/read.ts';

export interface ExtensionProvider {
  name: string;
  [key: string]: unknown;
}

export interface MeshConfig {
  ingressControllerMode: 'UNSPECIFIED' | 'OFF' | 'DEFAULT' | 'STRICT' | string;
  ingressService: string;
  ingressClass?: string;
  ingressSelector?: string;
  rootNamespace: string;
  trustDomain: string;
  trustDomainAliases?: string[];
  enableAutoMtls: boolean;
  defaultProviders: Record<string, unknown>;
  extensionProviders: ExtensionProvider[];
  defaultConfig: Record<string, unknown>;
  [key: string]: unknown;
}

export interface MeshNetworks {
  networks: Record<string, unknown>;
}

/** Istio's built-in defaults for the fields analyzers read. */
export function defaultMeshConfig(): MeshConfig {
  return {
    ingressControllerMode: 'STRICT',
    ingressService: 'istio-ingressgateway',
    ingressClass: 'istio',
    ingressSelector: 'ingressgateway',
    rootNamespace: 'istio-system',
    trustDomain: 'cluster.local',
    trustDomainAliases: [],
    enableAutoMtls: true,
    defaultProviders: {},
    extensionProviders: [
      { name: 'prometheus', prometheus: {} },
      { name: 'stackdriver', stackdriver: {} },
      { name: 'envoy', envoyFileAccessLog: { path: '/dev/stdout' } },
    ],
    defaultConfig: defaultProxyConfig(),
    accessLogFile: '',
    enableTracing: true,
    outboundTrafficPolicy: { mode: 'ALLOW_ANY' },
    localityLbSetting: { enabled: true },
  };
}

/** The default ProxyConfig: note there is no `image` and no `proxyMetadata`. */
export function defaultProxyConfig(): Record<string, unknown> {
  return {
    configPath: './etc/istio/proxy',
    binaryPath: '/usr/local/bin/envoy',
    serviceCluster: 'istio-proxy',
    drainDuration: '45s',
    terminationDrainDuration: '5s',
    proxyAdminPort: 15000,
    controlPlaneAuthPolicy: 'MUTUAL_TLS',
    discoveryAddress: 'istiod.istio-system.svc:15012',
    statNameLength: 189,
    statusPort: 15020,
    tracing: { zipkin: { address: 'zipkin.istio-system:9411' } },
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Merges user mesh config over a base: top-level fields replace, `defaultConfig` merges
 * field by field, `extensionProviders` merge by name, `trustDomainAliases` are unioned.
 */
export function mergeMeshConfig(base: MeshConfig, overlay: Record<string, unknown> | null | undefined): MeshConfig {
  if (!overlay) return base;
  const out: MeshConfig = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    if (key === 'defaultConfig' && isPlainObject(value)) {
      out.defaultConfig = { ...base.defaultConfig, ...value };
    } else if (key === 'extensionProviders' && Array.isArray(value)) {
      const merged = [...base.extensionProviders];
      for (const p of value) {
        if (!isPlainObject(p)) continue;
        const provider = p as ExtensionProvider;
        const at = merged.findIndex((e) => e.name === provider.name);
        if (at >= 0) merged[at] = provider;
        else merged.push(provider);
      }
      out.extensionProviders = merged;
    } else if (key === 'trustDomainAliases' && Array.isArray(value)) {
      const union = new Set([...(base.trustDomainAliases ?? []), ...strList(value)]);
      out.trustDomainAliases = [...union];
    } else {
      out[key] = value;
    }
  }
  return keepTypedFields(out, base);
}

/**
 * The fields code reads with a type: a value of the wrong type in the user's mesh config
 * reads as absent (the base value), like a field of the wrong type anywhere else.
 */
function keepTypedFields(m: MeshConfig, base: MeshConfig): MeshConfig {
  for (const k of ['ingressControllerMode', 'ingressService', 'rootNamespace', 'trustDomain', 'ingressClass', 'ingressSelector'] as const) {
    if (m[k] !== undefined && typeof m[k] !== 'string') m[k] = base[k] as string;
  }
  if (typeof m.enableAutoMtls !== 'boolean') m.enableAutoMtls = base.enableAutoMtls;
  if (!isPlainObject(m.defaultProviders)) m.defaultProviders = base.defaultProviders;
  if (!isPlainObject(m.defaultConfig)) m.defaultConfig = base.defaultConfig;
  if (!Array.isArray(m.extensionProviders)) m.extensionProviders = base.extensionProviders;
  m.extensionProviders = m.extensionProviders.filter((p) => isPlainObject(p) && typeof p.name === 'string');
  return m;
}

export function defaultMeshNetworks(): MeshNetworks {
  return { networks: {} };
}
