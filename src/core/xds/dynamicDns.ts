// The ALLOW_ANY_DYNAMIC_DNS outbound traffic policy (istiod: util.IsAllowAnyDynamicDNSOutbound):
// a sidecar sends plaintext HTTP to an unknown host through Envoy's dynamic forward proxy,
// which resolves the Host header itself, instead of passing it through to the original
// address. Generation adds an HTTP chain to the virtualOutbound listener, the dynamic forward
// proxy HTTP filter to every outbound HTTP connection manager, the allow_any_dynamic_dns catch-
// all virtual host (routes/sidecar.ts) and the AllowAnyDynamicDNSCluster (clusters.ts).
import type { Json, Proxy } from './types.ts';
import type { GenContext } from './context.ts';
import { selectDnsLookupFamily } from './net.ts';

export const ALLOW_ANY_DYNAMIC_DNS_CLUSTER = 'AllowAnyDynamicDNSCluster';
/** util.AllowAnyDynamicDNS: the virtual host, route and inline route configuration name. */
export const ALLOW_ANY_DYNAMIC_DNS = 'allow_any_dynamic_dns';
/** util.AllowAnyDFPDNSCacheName. */
const DNS_CACHE_NAME = 'allow_any_dfp_dns_cache';
/** features.AllowAnyDynamicDNSMaxHosts (PILOT_ALLOW_ANY_DYNAMIC_DNS_MAX_HOSTS). */
const MAX_HOSTS = 1024;
/** istio-agent's DNS proxy, where the cache resolves when DNS capture is on (DNSProxyAddr's fallback). */
const DNS_PROXY = { address: '127.0.0.1', portValue: 15053 };

/** IsAllowAnyDynamicDNSOutbound: sidecars only, with the mode in their scope. */
export function isAllowAnyDynamicDns(proxy: Proxy, mode: string): boolean {
  return proxy.type === 'sidecar' && mode === 'ALLOW_ANY_DYNAMIC_DNS';
}

export function allowAnyDynamicDns(ctx: GenContext): boolean {
  return isAllowAnyDynamicDns(ctx.proxy, ctx.scope.outboundTrafficPolicy.mode);
}

/** buildAllowAnyDynamicDNSDNSCacheConfig: the shared cache; through istio-agent's DNS proxy when DNS capture is on. */
export function dnsCacheConfig(ctx: GenContext): Json {
  const cfg: Json = { name: DNS_CACHE_NAME, dnsLookupFamily: selectDnsLookupFamily(ctx.proxy.ipAddresses, ctx.features.ISTIO_DUAL_STACK), maxHosts: MAX_HOSTS };
  if (ctx.proxy.metadata.dnsCapture) {
    cfg.typedDnsResolverConfig = {
      name: 'envoy.network.dns_resolver.cares',
      typedConfig: {
        '@type': 'type.googleapis.com/envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig',
        resolvers: [{ socketAddress: { ...DNS_PROXY } }],
      },
    };
  }
  return cfg;
}

/** buildAllowAnyDynamicDNSHTTPForwardProxyFilter: before the router of every sidecar outbound HCM. */
export function dynamicForwardProxyHttpFilter(ctx: GenContext): Json {
  return {
    name: 'envoy.filters.http.dynamic_forward_proxy',
    typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.dynamic_forward_proxy.v3.FilterConfig', dnsCacheConfig: dnsCacheConfig(ctx) },
  };
}
