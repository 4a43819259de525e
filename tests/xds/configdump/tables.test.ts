// The proxy-config tables on our own dumps: a sidecar dump written by hand (tests/fixtures/xds)
// and small dumps for the corner cases of istioctl's rules. The sidecar-*.txt tables are what
// the real istioctl prints for that dump (`istioctl proxy-config <command> -f
// sidecar-config-dump.json`, `bootstrap -o short`, `all --with-headers`; istioctl built from the
// Istio module by `npm run oracle`, 2026-12-06), byte for byte, except the secret's VALID column:
// istioctl judges it against the real clock, these tests at NOW (inside the certificate's window).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDumpFromValue, readConfigDump, type ConfigDump } from '../../../src/core/xds/configdump/dump.ts';
import { renderProxyConfig, type ProxyConfigCommand } from '../../../src/core/xds/configdump/render.ts';
import { clusterTable } from '../../../src/core/xds/configdump/clusters.ts';
import { describeFilterChainMatch, describeFilters, listenerTable } from '../../../src/core/xds/configdump/listeners.ts';
import { describeRouteDomains, routeTable } from '../../../src/core/xds/configdump/routes.ts';
import { edsTable, hostTable } from '../../../src/core/xds/configdump/endpoints.ts';
import { secretSummary, secretSummaryText } from '../../../src/core/xds/configdump/secrets.ts';
import { renderAll } from '../../../src/core/xds/configdump/all.ts';
import { tableText } from '../../../src/core/xds/configdump/table.ts';

const FIX = new URL('../../fixtures/xds/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIX), 'utf8');
const NOW = new Date('2025-01-01T12:00:00Z');

function dumpOf(configs: unknown[]): ConfigDump {
  const r = configDumpFromValue({ configs });
  if (!r.ok) throw new Error(r.error);
  return r.dump;
}

const T = 'type.googleapis.com/envoy.admin.v3.';

describe('the sidecar fixture', () => {
  const r = readConfigDump(fixture('sidecar-config-dump.json'));
  if (!r.ok) throw new Error(r.error);
  const dump = r.dump;
  const render = (command: ProxyConfigCommand) => {
    const out = renderProxyConfig({ dump }, { command, now: NOW, output: 'short' });
    expect(out.error).toBeUndefined();
    return out.text;
  };

  it.each(['clusters', 'listeners', 'routes', 'eds', 'ecds', 'bootstrap', 'secret'] as const)('renders %s as expected', (command) => {
    expect(render(command)).toBe(fixture(`sidecar-${command}.txt`));
  });

  it('renders all, with the banners', () => {
    const out = renderAll(dump, { now: NOW, withHeaders: true });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe(fixture('sidecar-all.txt'));
  });

  it('sorts clusters by host, subset, port, direction; names without 3 bars sort by the whole name', () => {
    const rows = clusterTable(dump).rows;
    // `inbound|9080||` parses to an empty host, so it comes first; upper case before lower case.
    expect(rows.map((x) => x.entry.name).slice(0, 4)).toEqual([
      'inbound|9080||',
      'BlackHoleCluster',
      'PassthroughCluster',
      'outbound|9080||details.default.svc.cluster.local',
    ]);
    const reviews = rows.filter((x) => x.serviceFqdn === 'reviews.default.svc.cluster.local');
    expect(reviews.map((x) => [x.subset, x.destinationRule])).toEqual([
      ['-', 'reviews.default'],
      ['v1', 'reviews.default'],
      ['v2', 'reviews.default'],
    ]);
    // Any networking.istio.io path with 8 segments renders as name.namespace, a ServiceEntry too.
    expect(rows.find((x) => x.serviceFqdn === 'www.example.com')?.destinationRule).toBe('example.default');
  });

  it('filters clusters as istioctl does (substrings; the port between bars)', () => {
    const names = (f: Parameters<typeof clusterTable>[1]) => clusterTable(dump, f).rows.map((x) => x.entry.name);
    expect(names({ port: 443 })).toEqual(['outbound|443||kubernetes.default.svc.cluster.local']);
    expect(names({ fqdn: 'reviews', subset: 'v2' })).toEqual(['outbound|9080|v2|reviews.default.svc.cluster.local']);
    expect(names({ direction: 'inbound' })).toEqual(['inbound|9080||']);
  });

  it('lists one row per filter chain, DESTINATION descending within a listener, listeners by port', () => {
    const t = listenerTable(dump);
    const inbound = t.rows.filter((x) => x.port === 15006).map((x) => x.destination);
    expect(inbound).toEqual(['Route: inbound|9080||', 'Route: inbound|9080||', 'Non-HTTP/Non-TCP', 'Cluster: inbound|9080||', 'Cluster: inbound|9080||']);
    expect(t.rows[0]!.addresses).toBe('10.96.0.1,fd00::1');
    expect(listenerTable(dump, { verbose: false, type: 'tcp' }).rows.map((x) => x.entry.name)).toEqual(['10.96.0.1_443', 'virtualOutbound']);
    expect(listenerTable(dump, { address: 'FD00::1' }).rows.map((x) => x.entry.name)).toEqual(['10.96.0.1_443']);
  });

  it('skips the PassthroughCluster route, shows a vhost without routes as /* 404, keeps the numeric route order', () => {
    const t = routeTable(dump);
    expect(t.rows.some((x) => x.vhostName === 'allow_any')).toBe(false);
    expect(t.rows.find((x) => x.vhostName?.startsWith('empty'))).toMatchObject({ match: '/*', virtualService: '404' });
    expect([...new Set(t.rows.map((x) => x.name))]).toEqual(['9080', 'inbound|9080||', '80', '']);
    expect(routeTable(dump, { verbose: false }).cells).toEqual([
      ['9080', '4'],
      ['inbound|9080||', '1'],
      ['80', '1'],
      ['', '1'],
    ]);
  });

  it('filters EDS endpoints and drops assignments left empty', () => {
    const t = edsTable(dump, { status: 'unhealthy' });
    expect(t.cells).toEqual([['10.244.0.22:9080', 'UNHEALTHY', 'eu-west1/eu-west1-b', 'outbound|9080||reviews.default.svc.cluster.local']]);
    expect(edsTable(dump, { address: '172.18.0.2:6443' }).rows.length).toBe(1);
    expect(edsTable(dump, { address: '172.18.0.2' }).rows.length).toBe(0);
    expect(edsTable(dump, { cluster: 'PROMETHEUS_STATS' }).rows.map((x) => x.name)).toEqual(['127.0.0.1:15000']);
  });

  it("renders Envoy's /clusters output for `endpoints`", () => {
    const clusters = JSON.parse(fixture('clusters.json'));
    expect(tableText(hostTable(clusters))).toBe(fixture('clusters-endpoints.txt'));
    expect(hostTable(clusters, { status: 'healthy', port: 9080 }).rows.map((x) => x.outlierCheck)).toEqual(['OK', 'FAILED']);
  });

  it('computes VALID CERT from the clock it is given', () => {
    const valid = (now: Date) => secretSummary(dump, { now }).table!.rows.map((x) => x.valid);
    expect(valid(new Date('2025-01-01T12:00:00Z'))).toEqual([true, true]);
    expect(valid(new Date('2025-01-03T00:00:00Z'))).toEqual([false, true]);
    // Strictly inside the validity window, as Go's After/Before.
    expect(valid(new Date('2025-01-01T00:00:00Z'))).toEqual([false, true]);
  });
});

describe('listener descriptions (getMatches, getFilterType)', () => {
  const hcm = (tc: object) => ({
    name: 'envoy.filters.network.http_connection_manager',
    typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager', ...tc },
  });
  const tcp = (tc: object) => ({
    name: 'envoy.filters.network.tcp_proxy',
    typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy', ...tc },
  });

  it('names known ALPN sets and writes the rest', () => {
    expect(describeFilterChainMatch({ application_protocols: ['http/1.0', 'http/1.1', 'h2c', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'] })).toBe(
      'App: HTTP TLS',
    );
    expect(describeFilterChainMatch({ application_protocols: ['istio', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'] })).toBe('App: Istio HTTP Plain');
    expect(describeFilterChainMatch({ applicationProtocols: ['h2c', 'http/1.1', 'http/1.0'] })).toBe('App: h2c,http/1.1,http/1.0');
    expect(describeFilterChainMatch({ prefix_ranges: [{ address_prefix: '10.0.0.0', prefix_len: 8 }, { address_prefix: '::1' }], destination_port: 80 })).toBe(
      'Addr: 10.0.0.0/8,::1/0:80',
    );
    expect(describeFilterChainMatch(undefined)).toBe('ALL');
  });

  it('describes where a chain sends traffic', () => {
    expect(describeFilters([hcm({ rds: { route_config_name: 'http.8080' } })])).toBe('Route: http.8080');
    expect(describeFilters([hcm({})])).toBe('HTTP');
    expect(
      describeFilters([
        hcm({ route_config: { virtual_hosts: [{ domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: 'outbound|80||a' } }] }] } }),
      ]),
    ).toBe('Cluster: outbound|80||a');
    expect(
      describeFilters([
        hcm({
          route_config: {
            virtual_hosts: [
              { domains: ['a', 'b'], routes: [{ match: { prefix: '/x' } }, { match: { path: '/y' } }] },
              { domains: ['*'], routes: [{ match: { safe_regex: { regex: '.*' } } }] },
            ],
          },
        }),
      ]),
    ).toBe('Inline Route: a/b /x*, /y; regex .*');
    // A TCP proxy to BlackHoleCluster is skipped; the next filter decides.
    expect(describeFilters([tcp({ cluster: 'BlackHoleCluster', stat_prefix: 'BlackHoleCluster' }), tcp({ cluster: 'outbound|3306||db' })])).toBe(
      'Cluster: outbound|3306||db',
    );
    expect(describeFilters([tcp({ weighted_clusters: { clusters: [{ name: 'a', weight: 1 }] } })])).toBe('Cluster: ');
    expect(describeFilters([tcp({ cluster: 'InboundPassthroughCluster' })])).toBe('InboundPassthroughCluster');
    expect(describeFilters([{ name: 'istio.metadata_exchange' }])).toBe('Non-HTTP/Non-TCP');
    expect(describeFilters([])).toBe('Non-HTTP/Non-TCP');
  });
});

describe('route domains (describeRouteDomains)', () => {
  it('drops ports and long forms and shows at most two', () => {
    expect(describeRouteDomains([])).toBe('');
    expect(describeRouteDomains(['example.com:8080'])).toBe('example.com:8080');
    expect(describeRouteDomains(['example.com', 'example.com:8080', '1.2.3.4', '1.2.3.4:8080'])).toBe('example.com, 1.2.3.4');
    expect(describeRouteDomains(['example.com', 'example.com:8080', '[fd00:10:96::7fc7]', '[fd00:10:96::7fc7]:8080'])).toBe('example.com, [fd00:10:96::7fc7]');
    expect(
      describeRouteDomains(['example.com', 'example.com:8080', 'www.example.com', 'www.example.com:8080', '[fd00:10:96::7fc7]', '[fd00:10:96::7fc7]:8080']),
    ).toBe('example.com, www.example.com + 1 more...');
    expect(describeRouteDomains(['a.ns.svc.cluster.local', 'a.ns'])).toBe('a.ns');
  });
});

describe("istioctl's errors and messages", () => {
  it('reports a missing section the way istioctl does', () => {
    const dump = dumpOf([]);
    const run = (command: ProxyConfigCommand) => renderProxyConfig({ dump }, { command, now: NOW });
    expect(run('clusters').error).toBe(`config dump has no configuration type ${T}ClustersConfigDump`);
    expect(run('listeners').error).toBe(`listener dump: config dump has no configuration type ${T}ListenersConfigDump`);
    expect(run('routes').error).toBe(`config dump has no configuration type ${T}RoutesConfigDump`);
    expect(run('secret').error).toBe(`config dump has no configuration type ${T}SecretsConfigDump`);
    expect(run('ecds').error).toBe(`config dump has no configuration type ${T}EcdsConfigDump`);
    // No EDS section is no endpoints, not an error.
    expect(run('eds')).toEqual({ text: 'NAME     STATUS     LOCALITY     CLUSTER\n' });
  });

  it('reports empty sections', () => {
    const dump = dumpOf([
      { '@type': `${T}ClustersConfigDump` },
      { '@type': `${T}ListenersConfigDump` },
      { '@type': `${T}RoutesConfigDump` },
      { '@type': `${T}SecretsConfigDump` },
    ]);
    const run = (command: ProxyConfigCommand) => renderProxyConfig({ dump }, { command, now: NOW });
    expect(run('clusters').error).toBe('no clusters found');
    expect(run('listeners').error).toBe('no listeners found');
    expect(run('routes').error).toBe('no routes found');
    expect(run('secret')).toEqual({ text: 'No active or warming secrets found.\n' });
  });

  it('stops `all` at the first error, keeping what was printed', () => {
    const dump = dumpOf([{ '@type': `${T}BootstrapConfigDump`, bootstrap: { node: { metadata: { ISTIO_VERSION: '1.2.3' } } } }]);
    const out = renderAll(dump, { now: NOW });
    expect(out.text).toBe('Istio Version: 1.2.3\nEnvoy Version: 0.0.0\n\n');
    expect(out.error).toBe(`config dump has no configuration type ${T}ClustersConfigDump`);
  });

  it('fails a secret that is not a Secret, as istioctl (and says "warming" for active ones too)', () => {
    const dump = dumpOf([
      { '@type': `${T}SecretsConfigDump`, dynamic_active_secrets: [{ name: 'x', secret: { '@type': 'type.googleapis.com/other.Thing' } }] },
    ]);
    expect(renderProxyConfig({ dump }, { command: 'secret', now: NOW }).error).toBe('failed building warming secret x: mismatched message type');
  });
});

describe('secrets', () => {
  const ca = (() => {
    const d = JSON.parse(fixture('sidecar-config-dump.json'));
    return d.configs.find((c: { '@type': string }) => c['@type'].endsWith('SecretsConfigDump')).dynamic_active_secrets[1].secret.validation_context.trusted_ca
      .inline_bytes as string;
  })();
  const leaf = (() => {
    const d = JSON.parse(fixture('sidecar-config-dump.json'));
    return d.configs.find((c: { '@type': string }) => c['@type'].endsWith('SecretsConfigDump')).dynamic_active_secrets[0].secret.tls_certificate
      .certificate_chain.inline_bytes as string;
  })();
  const SECRET = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret';
  const SPIFFE = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.SPIFFECertValidatorConfig';

  it('adds TRUST DOMAIN when every item has one (SPIFFE bundles, spiffe:// SANs)', () => {
    const dump = dumpOf([
      {
        '@type': `${T}SecretsConfigDump`,
        dynamic_active_secrets: [
          { name: 'default', secret: { '@type': SECRET, name: 'default', tls_certificate: { certificate_chain: { inline_bytes: leaf } } } },
          {
            name: 'ROOTCA',
            secret: {
              '@type': SECRET,
              name: 'ROOTCA',
              validation_context: {
                custom_validator_config: {
                  typed_config: {
                    '@type': SPIFFE,
                    trust_domains: [
                      { name: 'west.local', trust_bundle: { inline_bytes: ca } },
                      { name: 'east.local', trust_bundle: { inline_bytes: ca } },
                    ],
                  },
                },
              },
            },
          },
        ],
      },
    ]);
    const s = secretSummary(dump, { now: NOW });
    expect(s.table!.columns.at(-1)).toBe('TRUST DOMAIN');
    expect(s.table!.cells.map((c) => [c[0], c.at(-1)])).toEqual([
      ['default', 'cluster.local'],
      ['ROOTCA', 'west.local'],
      ['ROOTCA', 'east.local'],
    ]);
  });

  it('prints a row with empty facts for a secret without data or with data that is not a certificate', () => {
    const dump = dumpOf([
      {
        '@type': `${T}SecretsConfigDump`,
        dynamic_warming_secrets: [{ name: 'file-cert:/x', secret: { '@type': SECRET, name: 'file-cert:/x' } }],
        dynamic_active_secrets: [
          {
            name: 'bad',
            secret: {
              '@type': SECRET,
              name: 'bad',
              tls_certificate: {
                certificate_chain: { inline_bytes: Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64') },
              },
            },
          },
        ],
      },
    ]);
    const text = secretSummaryText(secretSummary(dump, { now: NOW }));
    // Each empty cell still takes its column's width: RESOURCE NAME 18, TYPE 9, SERIAL NUMBER 18, NOT AFTER 14.
    const row = (name: string, state: string) => `${name.padEnd(18)}${''.padEnd(9)}${state.padEnd(12)}${'false'.padEnd(15)}${''.padEnd(18)}${''.padEnd(14)}`;
    expect(text.split('\n').slice(1, 3)).toEqual([row('file-cert:/x', 'WARMING'), row('bad', 'ACTIVE')]);
  });

  it('says so when the secrets give no items (SPIFFE config without trust domains)', () => {
    const dump = dumpOf([
      {
        '@type': `${T}SecretsConfigDump`,
        dynamic_active_secrets: [
          { name: 'r', secret: { '@type': SECRET, name: 'r', validation_context: { custom_validator_config: { typed_config: { '@type': SPIFFE } } } } },
        ],
      },
    ]);
    expect(secretSummaryText(secretSummary(dump, { now: NOW }))).toBe('No secret items to show.\n');
  });
});

describe('listeners --waypoint (PrintRemoteListenerSummary)', () => {
  it('shows how the filter chain matcher reaches each chain', async () => {
    const { waypointListenerTable } = await import('../../../src/core/xds/configdump/listeners.ts');
    const action = (name: string) => ({ action: { name, typed_config: { '@type': 'type.googleapis.com/google.protobuf.StringValue', value: name } } });
    const listener = {
      name: 'main_internal',
      internal_listener: {},
      filter_chains: [
        { name: 'http', filters: [] },
        { name: 'tcp', filters: [] },
        { name: 'fallback', filters: [] },
        { name: 'never', filters: [] },
      ],
      filter_chain_matcher: {
        matcher_tree: {
          input: { name: 'ip' },
          custom_match: {
            name: 'ip',
            typed_config: {
              '@type': 'type.googleapis.com/xds.type.matcher.v3.IPMatcher',
              range_matchers: [
                {
                  ranges: [{ address_prefix: '10.0.0.1', prefix_len: 32 }],
                  on_match: {
                    matcher: {
                      matcher_tree: { input: { name: 'port' }, exact_match_map: { map: { '80': action('http'), '3306': action('tcp') } } },
                      on_no_match: action('tcp'),
                    },
                  },
                },
                { ranges: [{ address_prefix: '10.1.0.0', prefix_len: 16 }], on_match: action('http') },
              ],
            },
          },
        },
        on_no_match: action('fallback'),
      },
    };
    const dump = dumpOf([{ '@type': `${T}ListenersConfigDump`, dynamic_listeners: [{ name: 'main_internal', active_state: { listener } }] }]);
    expect(waypointListenerTable(dump).cells).toEqual([
      ['envoy://main_internal', 'http', 'ip=10.0.0.1 -> port=80', 'Non-HTTP/Non-TCP'],
      ['envoy://main_internal', 'http', 'ip=10.1.0.0/16', 'Non-HTTP/Non-TCP'],
      ['envoy://main_internal', 'tcp', 'ip=10.0.0.1 -> ANY', 'Non-HTTP/Non-TCP'],
      ['envoy://main_internal', 'fallback', 'UNMATCHED', 'Non-HTTP/Non-TCP'],
      ['envoy://main_internal', 'never', 'NONE', 'Non-HTTP/Non-TCP'],
    ]);
  });
});
