// The sidecar DNS proxy as the mesh config sets it up for every proxy: whether DNS is
// captured, and whether ServiceEntries without addresses get auto-allocated ones. Read from
// the default proxy config's `proxyMetadata`, as Istio's analyzers do.
import type { MeshConfig } from './mesh/meshconfig.ts';
import { message, strings } from './shape.ts';

const DefaultProxyMetadata = message({ proxyMetadata: strings }, { proto: true });

const DNS_CAPTURE = 'ISTIO_META_DNS_CAPTURE';
const DNS_AUTO_ALLOCATE = 'ISTIO_META_DNS_AUTO_ALLOCATE';
const IP_AUTO_ALLOCATE = 'PILOT_ENABLE_IP_AUTOALLOCATE';

/** The default proxy config's `proxyMetadata` (an empty map when absent or not a mapping). */
export function defaultProxyMetadata(mesh: Pick<MeshConfig, 'defaultConfig'>): Readonly<Record<string, string>> {
  return DefaultProxyMetadata.readOrEmpty(mesh.defaultConfig).proxyMetadata;
}

/**
 * True when the default proxy metadata turns on DNS capture with address auto-allocation
 * (`ISTIO_META_DNS_AUTO_ALLOCATE` or `PILOT_ENABLE_IP_AUTOALLOCATE`), so ServiceEntries
 * need no addresses of their own.
 */
export function meshAutoAllocatesAddresses(mesh: Pick<MeshConfig, 'defaultConfig'>): boolean {
  const md = defaultProxyMetadata(mesh);
  if (md[DNS_CAPTURE] !== 'true') return false;
  return md[DNS_AUTO_ALLOCATE] === 'true' || md[IP_AUTO_ALLOCATE] === 'true';
}
