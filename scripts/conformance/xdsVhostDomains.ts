// xds/vhost-domains: TestGenerateVirtualHostDomains (httproute_test.go), transcribed in
// ../shared/conformance/xds/vhost-domains-cases.json. Each case is one service and proxy; the
// domain list of the service's sidecar outbound virtual host must equal the expected one, in order.
import { join } from 'node:path';
import { casesIn } from './parts.ts';
import type { CaseResult } from './types.ts';
import { virtualHostDomains } from '../../src/core/xds/routes/domains.ts';

interface VhostCase {
  name: string;
  service: {
    hostname: string;
    meshExternal?: boolean;
    resolution?: string;
    registry?: string;
    defaultAddress?: string;
    clusterVIPs?: Record<string, string[]>;
    aliases?: { hostname: string; namespace?: string }[];
  };
  listenerPort: number;
  vhostPort: number;
  proxy: { dnsDomain: string; clusterID?: string; ips?: string[] };
  featureFlags: Record<string, boolean>;
  wantDomains: string[];
}

export function runVhostDomainCase(c: VhostCase): CaseResult {
  const { domains } = virtualHostDomains(
    {
      hostname: c.service.hostname,
      aliases: c.service.aliases ?? [],
      resolution: c.service.resolution ?? 'ClientSideLB',
      registry: c.service.registry ?? '',
      defaultAddress: c.service.defaultAddress ?? '',
      clusterVips: c.service.clusterVIPs ?? {},
    },
    c.listenerPort,
    c.vhostPort,
    { dnsDomain: c.proxy.dnsDomain, clusterId: c.proxy.clusterID ?? '', ipAddresses: c.proxy.ips ?? [], type: 'sidecar' },
    { absoluteFqdn: c.featureFlags.PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN ?? true, dualStack: c.featureFlags.ISTIO_DUAL_STACK ?? false, autoAllocate: true },
  );
  const passed = JSON.stringify(domains) === JSON.stringify(c.wantDomains);
  return {
    suite: 'xds',
    id: `xds/vhost-domains/${c.name}`,
    analyzer: 'xds/vhost-domains',
    passed,
    missing: passed ? [] : c.wantDomains.filter((d) => !domains.includes(d)),
    extra: passed ? [] : domains.filter((d) => !c.wantDomains.includes(d)),
    ...(passed ? {} : { error: `want ${JSON.stringify(c.wantDomains)}\ngot  ${JSON.stringify(domains)}` }),
  };
}

export function runVhostDomains(root: string): CaseResult[] {
  return (casesIn(join(root, 'xds', 'vhost-domains-cases.json')) as VhostCase[]).map(runVhostDomainCase);
}
