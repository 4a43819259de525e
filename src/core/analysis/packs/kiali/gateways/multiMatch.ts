// gateways.MultiMatchChecker (Kiali business/checkers/gateways/multi_match_checker.go): hosts of
// Gateways with the same selector and server port must not match each other (KIA0301 on
// spec/servers[i]/hosts[j]). Hosts compare case-insensitively, `*` matches everything unless
// Kiali's skip_wildcard_gateway_hosts is set, two `*.` wildcards never match, and otherwise Kiali
// anchors each host as a regular expression with its dots escaped. `ns/host` hosts only meet
// hosts of the same target namespace (or `*`). The Gateways stay valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { gateway } from '../../../../config/api/networking.ts';
import { selectorString } from '../../../../config/labels.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';

interface GatewayHost {
  gateway: Resource;
  name: string;
  serverIndex: number;
  hostIndex: number;
  targetNamespace: string;
}

/**
 * Kiali's regexpFromHostname: `^<host with dots escaped>$`, in Go's RE2 syntax. A leading `*`
 * repeats the empty `^` there (so `*.a.com` only matches `.a.com`); JavaScript rejects that, so it
 * is dropped, which matches the same strings. A host that is no valid expression matches nothing.
 */
export function hostnameMatcher(hostname: string): (other: string) => boolean {
  const body = hostname.replace(/^\*+/, '').split('.').join('\\.');
  try {
    const re = new RegExp(`^${body}$`);
    return (other) => re.test(other);
  } catch {
    return () => false;
  }
}

function findMatch(ctx: KialiContext, host: GatewayHost, others: readonly GatewayHost[]): GatewayHost[] {
  const duplicates: GatewayHost[] = [];
  for (const other of others) {
    if (host.targetNamespace !== other.targetNamespace && host.targetNamespace !== '*' && other.targetNamespace !== '*') continue;
    if (host.name === '*' || other.name === '*') {
      if (!ctx.skipWildcardGatewayHosts) duplicates.push(host, other);
      continue;
    }
    const a = host.name.toLowerCase();
    const b = other.name.toLowerCase();
    if (a === b) {
      duplicates.push(host, other);
      continue;
    }
    if (a.startsWith('*.') && b.startsWith('*.')) continue;
    if (hostnameMatcher(a)(b) || hostnameMatcher(b)(a)) duplicates.push(host, other);
  }
  return duplicates;
}

export const gatewayMultiMatchChecker: KialiChecker = {
  name: 'gateways.MultiMatchChecker',
  kinds: [KINDS.Gateway],
  codes: ['KIA0301'],
  run(ctx: KialiContext) {
    // Hosts grouped by (port, selector): only those can collide.
    const groups = new Map<string, GatewayHost[]>();
    for (const gw of ctx.gateways) {
      const spec = gateway(gw);
      const selector = selectorString(spec.selector);
      spec.servers.forEach((server, serverIndex) => {
        const key = `${server.port?.number ?? 0}|${selector}`;
        server.hosts.forEach((serverHost, hostIndex) => {
          const host: GatewayHost = { gateway: gw, name: serverHost, serverIndex, hostIndex, targetNamespace: '*' };
          const parts = serverHost.split('/');
          if (parts.length > 1) {
            host.name = parts[1] as string;
            host.targetNamespace = parts[0] === '.' ? gw.namespace : (parts[0] as string);
          }
          const list = groups.get(key);
          if (list) list.push(host);
          else groups.set(key, [host]);
        });
      });
    }
    const results = new GroupResults();
    const check = (h: GatewayHost) => buildCheck('gateways.multimatch', `spec/servers[${h.serverIndex}]/hosts[${h.hostIndex}]`);
    for (const hosts of groups.values()) {
      hosts.forEach((host, i) => {
        if (i === hosts.length - 1) return;
        const duplicates = findMatch(ctx, host, hosts.slice(i + 1));
        if (duplicates.length === 0) return;
        const refs: string[] = [];
        const seen = new Set<string>();
        for (const d of duplicates) {
          const key = `${d.gateway.namespace}/${d.gateway.name}`;
          if (d.gateway.key === host.gateway.key || seen.has(key)) continue;
          seen.add(key);
          results.add(d.gateway, check(d), true, [`${host.gateway.namespace}/${host.gateway.name}`]);
          refs.push(key);
        }
        results.add(host.gateway, check(host), true, refs);
      });
    }
    return results.list();
  },
};
