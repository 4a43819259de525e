// Mesh config as the generator reads it: Istio's defaults (pkg/config/mesh/mesh.go, spec §0.3)
// for the fields that shape generated config, read once per mesh config object.
import type { MeshConfig } from '../config/mesh/meshconfig.ts';
import { isObj, str } from '../document/read.ts';
import { durationJson } from './duration.ts';
import type { Json } from './types.ts';

export interface MeshSettings {
  proxyListenPort: number;
  proxyInboundListenPort: number;
  proxyHttpPort: number;
  connectTimeout: string;
  enableAutoMtls: boolean;
  outboundTrafficPolicy: 'ALLOW_ANY' | 'REGISTRY_ONLY' | 'ALLOW_ANY_DYNAMIC_DNS';
  inboundTrafficPolicy: 'PASSTHROUGH' | 'LOCALHOST';
  rootNamespace: string;
  trustDomain: string;
  trustDomainAliases: readonly string[];
  protocolDetectionTimeout: string;
  dnsRefreshRate: string;
  defaultServiceExportTo: readonly string[];
  defaultVirtualServiceExportTo: readonly string[];
  defaultDestinationRuleExportTo: readonly string[];
  h2UpgradePolicy: 'DO_NOT_UPGRADE' | 'UPGRADE';
  pathNormalization: string;
  /** meshConfig.defaultHttpRetryPolicy (undefined: Istio's built-in default). */
  defaultHttpRetryPolicy: Json | undefined;
  defaultInboundHttpRetryPolicy: Json | undefined;
  /** Prometheus metrics provider in defaultProviders.metrics (adds `istio.stats` filters). */
  prometheusMetrics: boolean;
  enableTracing: boolean;
  traceSampling: number;
  accessLogFile: string;
  tcpKeepalive: Json | undefined;
  meshMtlsMinProtocolVersion: string;
  meshMtlsCipherSuites: readonly string[] | undefined;
  localityLbSetting: Json | undefined;
  defaultTrafficPolicy: Json | undefined;
  /** ProxyConfig defaults (meshConfig.defaultConfig). */
  defaultConfig: Json;
  /** Mesh ID for tracing tags ('' = unknown). */
  meshId: string;
}

const cache = new WeakMap<MeshConfig, MeshSettings>();

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

function port(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isInteger(v) ? v : dflt;
}

export function meshSettings(mesh: MeshConfig): MeshSettings {
  let s = cache.get(mesh);
  if (s) return s;
  const m = mesh as Record<string, unknown>;
  const otp = isObj(m.outboundTrafficPolicy) ? str(m.outboundTrafficPolicy.mode) : '';
  const itp = isObj(m.inboundTrafficPolicy) ? str(m.inboundTrafficPolicy.mode) : '';
  const providers = isObj(m.defaultProviders) ? (strings(m.defaultProviders.metrics) ?? []) : [];
  const extProviders = Array.isArray(m.extensionProviders) ? m.extensionProviders.filter(isObj) : [];
  const prometheusMetrics = providers.some((name) => extProviders.some((p) => p.name === name && isObj(p.prometheus)));
  const meshMtls = isObj(m.meshMTLS) ? m.meshMTLS : {};
  const defaultConfig = isObj(m.defaultConfig) ? m.defaultConfig : {};
  const tracing = isObj(defaultConfig.tracing) ? defaultConfig.tracing : {};
  let sampling = typeof tracing.sampling === 'number' && tracing.sampling !== 0 ? tracing.sampling : 1.0;
  if (sampling > 100) sampling = 1.0;
  const pn = isObj(m.pathNormalization) ? str(m.pathNormalization.normalization) : '';
  s = {
    proxyListenPort: port(m.proxyListenPort, 15001),
    proxyInboundListenPort: port(m.proxyInboundListenPort, 15006),
    proxyHttpPort: port(m.proxyHttpPort, 0),
    connectTimeout: durationJson(m.connectTimeout) ?? '10s',
    enableAutoMtls: typeof m.enableAutoMtls === 'boolean' ? m.enableAutoMtls : true,
    outboundTrafficPolicy: otp === 'REGISTRY_ONLY' || otp === 'ALLOW_ANY_DYNAMIC_DNS' ? otp : 'ALLOW_ANY',
    inboundTrafficPolicy: itp === 'LOCALHOST' ? 'LOCALHOST' : 'PASSTHROUGH',
    rootNamespace: str(m.rootNamespace) || 'istio-system',
    trustDomain: str(m.trustDomain) || 'cluster.local',
    trustDomainAliases: strings(m.trustDomainAliases) ?? [],
    protocolDetectionTimeout: durationJson(m.protocolDetectionTimeout) ?? '0s',
    dnsRefreshRate: durationJson(m.dnsRefreshRate) ?? '60s',
    defaultServiceExportTo: strings(m.defaultServiceExportTo) ?? ['*'],
    defaultVirtualServiceExportTo: strings(m.defaultVirtualServiceExportTo) ?? ['*'],
    defaultDestinationRuleExportTo: strings(m.defaultDestinationRuleExportTo) ?? ['*'],
    h2UpgradePolicy: str(m.h2UpgradePolicy) === 'UPGRADE' ? 'UPGRADE' : 'DO_NOT_UPGRADE',
    pathNormalization: pn || 'DEFAULT',
    defaultHttpRetryPolicy: isObj(m.defaultHttpRetryPolicy) ? m.defaultHttpRetryPolicy : undefined,
    defaultInboundHttpRetryPolicy: isObj(m.defaultInboundHttpRetryPolicy) ? m.defaultInboundHttpRetryPolicy : undefined,
    prometheusMetrics,
    enableTracing: typeof m.enableTracing === 'boolean' ? m.enableTracing : true,
    traceSampling: sampling,
    accessLogFile: str(m.accessLogFile),
    tcpKeepalive: isObj(m.tcpKeepalive) ? m.tcpKeepalive : undefined,
    meshMtlsMinProtocolVersion: str(meshMtls.minProtocolVersion),
    meshMtlsCipherSuites: strings(meshMtls.cipherSuites),
    localityLbSetting: isObj(m.localityLbSetting) ? m.localityLbSetting : undefined,
    defaultTrafficPolicy: isObj(m.defaultTrafficPolicy) ? m.defaultTrafficPolicy : undefined,
    defaultConfig,
    meshId: str(defaultConfig.meshId) || str((m as Json).meshId),
  };
  cache.set(mesh, s);
  return s;
}

/** TrustDomainsForValidation: the trust domain and its aliases, de-duplicated. */
export function trustDomainsForValidation(s: MeshSettings): string[] {
  const out: string[] = [];
  for (const td of [s.trustDomain, ...s.trustDomainAliases]) if (td !== '' && !out.includes(td)) out.push(td);
  return out;
}
