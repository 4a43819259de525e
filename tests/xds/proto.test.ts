// The strict Envoy proto check (src/core/xds/proto): real config dumps pass (with the few
// fields Envoy itself prints that would not load, listed below), and broken resources are
// reported at the right JSON path with the right code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson } from '@bufbuild/protobuf';
import {
  checkConfigDump,
  checkEnvoyResource,
  envoyProtos,
  ENVOY_UNSHIPPED_TYPED_CONFIGS,
  formatProblems,
  ISTIO_TYPED_CONFIGS,
  type ProtoProblem,
} from '../../src/core/xds/proto/index.ts';
import { DEFAULT_ROOT } from '../../scripts/conformance.ts';
import { describeWithSharedCorpus } from '../conformance/sharedCorpus.ts';
import { expectValidConfigDump, expectValidEnvoy } from '../helpers/envoy.ts';
import { cluster, listener, routeConfig, T } from './envoyFixtures.ts';

const ISTIOCTL = join(DEFAULT_ROOT, 'xds', 'istioctl');
const CONFIGDUMP = join(ISTIOCTL, 'pkg', 'writer', 'envoy', 'configdump', 'testdata');

function dumpsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...dumpsUnder(p));
    else if (/^config_?dump.*\.json$/.test(name)) out.push(p);
  }
  return out.sort();
}

const read = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
const brief = (ps: ProtoProblem[]) => ps.map((p) => `${p.severity} ${p.code} ${p.path}`);

describe('the Envoy descriptors', () => {
  it('come from @grpc/grpc-js-xds, with the files left out listed', () => {
    const p = envoyProtos();
    expect(p.source.package).toBe('@grpc/grpc-js-xds');
    expect(p.source.files).toBeGreaterThan(300);
    // Files that import protos the package does not ship (opencensus, opentelemetry).
    expect(p.source.omitted).toEqual([
      'envoy/config/trace/v3/opencensus.proto',
      'envoy/config/trace/v3/trace.proto',
      'envoy/extensions/access_loggers/open_telemetry/v3/logs_service.proto',
    ]);
    expect(p.ext.fieldRules?.typeName).toBe('validate.rules');
  });

  it('hold every upstream Envoy type Istio emits (the xds spec, section 8), or allow-list it as not shipped', () => {
    const emitted = [
      'envoy.config.listener.v3.Listener',
      'envoy.config.cluster.v3.Cluster',
      'envoy.config.route.v3.RouteConfiguration',
      'envoy.config.endpoint.v3.ClusterLoadAssignment',
      'envoy.extensions.transport_sockets.tls.v3.Secret',
      'envoy.config.core.v3.TypedExtensionConfig',
      'envoy.admin.v3.BootstrapConfigDump',
      'envoy.admin.v3.ClustersConfigDump',
      'envoy.admin.v3.ListenersConfigDump',
      'envoy.admin.v3.ScopedRoutesConfigDump',
      'envoy.admin.v3.RoutesConfigDump',
      'envoy.admin.v3.SecretsConfigDump',
      'envoy.admin.v3.EndpointsConfigDump',
      'envoy.admin.v3.EcdsConfigDump',
      'envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
      'envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy',
      'envoy.extensions.filters.network.rbac.v3.RBAC',
      'envoy.extensions.filters.network.ext_authz.v3.ExtAuthz',
      'envoy.extensions.filters.network.mongo_proxy.v3.MongoProxy',
      'envoy.extensions.filters.network.redis_proxy.v3.RedisProxy',
      'envoy.extensions.filters.network.mysql_proxy.v3.MySQLProxy',
      'envoy.extensions.filters.network.sni_dynamic_forward_proxy.v3.FilterConfig',
      'envoy.extensions.filters.network.set_filter_state.v3.Config',
      'envoy.extensions.filters.http.router.v3.Router',
      'envoy.extensions.filters.http.fault.v3.HTTPFault',
      'envoy.extensions.filters.http.cors.v3.Cors',
      'envoy.extensions.filters.http.grpc_stats.v3.FilterConfig',
      'envoy.extensions.filters.http.grpc_web.v3.GrpcWeb',
      'envoy.extensions.filters.http.rbac.v3.RBAC',
      'envoy.extensions.filters.http.ext_authz.v3.ExtAuthz',
      'envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication',
      'envoy.extensions.filters.http.stateful_session.v3.StatefulSession',
      'envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor',
      'envoy.extensions.filters.http.dynamic_forward_proxy.v3.FilterConfig',
      'envoy.extensions.filters.http.set_filter_state.v3.Config',
      'envoy.extensions.filters.http.header_mutation.v3.HeaderMutation',
      'envoy.extensions.filters.http.wasm.v3.Wasm',
      'envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector',
      'envoy.extensions.filters.listener.http_inspector.v3.HttpInspector',
      'envoy.extensions.filters.listener.original_dst.v3.OriginalDst',
      'envoy.extensions.filters.listener.original_src.v3.OriginalSrc',
      'envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol',
      'envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
      'envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
      'envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer',
      'envoy.extensions.transport_sockets.internal_upstream.v3.InternalUpstreamTransport',
      'envoy.extensions.transport_sockets.proxy_protocol.v3.ProxyProtocolUpstreamTransport',
      'envoy.extensions.transport_sockets.quic.v3.QuicDownstreamTransport',
      'envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
      'envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig',
      'envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig',
      'envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate',
      'envoy.extensions.retry.priority.previous_priorities.v3.PreviousPrioritiesConfig',
      'envoy.extensions.access_loggers.file.v3.FileAccessLog',
      'envoy.extensions.matching.common_inputs.network.v3.DestinationIPInput',
      'envoy.extensions.matching.common_inputs.network.v3.DestinationPortInput',
      'envoy.extensions.matching.common_inputs.network.v3.ApplicationProtocolInput',
      'xds.type.matcher.v3.IPMatcher',
      'envoy.extensions.transport_sockets.tls.v3.SPIFFECertValidatorConfig',
      'udpa.type.v1.TypedStruct',
      'xds.type.v3.TypedStruct',
    ];
    const unshipped = new Set(ENVOY_UNSHIPPED_TYPED_CONFIGS.map((e) => e.typeName));
    const missing = emitted.filter((t) => !envoyProtos().message(t) && !unshipped.has(t));
    expect(missing).toEqual([]);
    expect(emitted.filter((t) => unshipped.has(t))).toEqual(['envoy.extensions.filters.network.mysql_proxy.v3.MySQLProxy']);
  });

  it('describe every Istio-only type checked by schema, and nothing on the allow-list is an Envoy type', () => {
    for (const e of ISTIO_TYPED_CONFIGS) {
      const desc = envoyProtos().message(e.typeName);
      expect(desc !== undefined, e.typeName).toBe(e.checked === 'schema');
      if (desc) expect(desc.file.name.startsWith('istio-only/'), e.typeName).toBe(true);
    }
    for (const e of ENVOY_UNSHIPPED_TYPED_CONFIGS) expect(envoyProtos().message(e.typeName), e.typeName).toBeUndefined();
  });
});

describeWithSharedCorpus(
  'istioctl corpus config dumps pass the strict check',
  [CONFIGDUMP, join(ISTIOCTL, 'pkg', 'proxyconfig', 'testdata', 'config_dump.json')],
  () => {
    // Real dumps, printed by Envoy's admin endpoint. What fails in them is Envoy's own output, not
    // config istiod sent; each is listed with the reason.
    const KNOWN: Record<string, string[]> = {
      // Envoy prints the static prometheus_stats cluster's locality weight as 0; the field is a
      // UInt32Value with (validate.rules).uint32.gte = 1, so this JSON would not load as config.
      'pkg/proxyconfig/testdata/config_dump.json': [
        'error constraint $.configs[2].static_endpoint_configs[0].endpoint_config.endpoints[0].load_balancing_weight',
      ],
      // The ROOTCA secret of a SPIFFE validator is printed with an empty trusted_ca DataSource,
      // whose `specifier` oneof is required.
      'pkg/writer/envoy/configdump/testdata/secret/spire/config_dump.json': [
        'error constraint $.configs[0].dynamic_active_secrets[1].secret.validation_context.trusted_ca',
      ],
      // ECDS entries not (yet) received are printed with their name only; TypedExtensionConfig's
      // typed_config is required (any.required).
      'pkg/writer/envoy/configdump/testdata/ecds/configdump.json': [0, 1, 2, 3].map(
        (i) => `error constraint $.configs[${1 + (i >> 1)}].ecds_filters[${i & 1}].ecds_filter.typedConfig`,
      ),
      // Istio still sets RouteAction.max_grpc_timeout, deprecated in Envoy (a warning).
      'pkg/writer/envoy/configdump/testdata/routes/istio-gateway-http-route-prefix/configdump.json': [
        'warning deprecated $.configs[0].dynamic_route_configs[0].route_config.virtual_hosts[0].routes[0].route.max_grpc_timeout',
      ],
      'pkg/writer/envoy/configdump/testdata/routes/k8s-gateway-http-route-path-prefix/configdump.json': [
        'warning deprecated $.configs[0].dynamic_route_configs[0].route_config.virtual_hosts[0].routes[0].route.max_grpc_timeout',
      ],
    };
    const dumps = dumpsUnder(ISTIOCTL);

    it('finds the dumps', () => {
      expect(dumps.map((d) => relative(ISTIOCTL, d))).toEqual([
        'pkg/proxyconfig/testdata/config_dump.json',
        'pkg/writer/envoy/configdump/testdata/configdump.json',
        'pkg/writer/envoy/configdump/testdata/ecds/configdump.json',
        'pkg/writer/envoy/configdump/testdata/endpoint/configdump.json',
        'pkg/writer/envoy/configdump/testdata/routes/empty-gateway/configdump.json',
        'pkg/writer/envoy/configdump/testdata/routes/istio-gateway-http-route-prefix/configdump.json',
        'pkg/writer/envoy/configdump/testdata/routes/k8s-gateway-http-route-path-prefix/configdump.json',
        'pkg/writer/envoy/configdump/testdata/secret/istio/config_dump.json',
        'pkg/writer/envoy/configdump/testdata/secret/spire/config_dump.json',
      ]);
    });

    for (const file of dumpsUnder(ISTIOCTL)) {
      const name = relative(ISTIOCTL, file);
      it(name, () => {
        const problems = checkConfigDump(read(file));
        expect(brief(problems)).toEqual(KNOWN[name] ?? []);
      });
    }

    it('every resource in the dumps passes on its own, by its @type', () => {
      let resources = 0;
      const failing: string[] = [];
      const visit = (v: unknown): void => {
        if (Array.isArray(v)) return v.forEach(visit);
        if (v === null || typeof v !== 'object') return;
        const o = v as Record<string, unknown>;
        const t = o['@type'];
        if (typeof t === 'string' && /\.v3\.(Cluster|Listener|RouteConfiguration|ClusterLoadAssignment|Secret)$/.test(t)) {
          resources++;
          const errs = checkEnvoyResource(o).filter((p) => p.severity === 'error');
          if (errs.length) failing.push(...errs.map((p) => `${t} ${p.path} ${p.code}`));
        }
        Object.values(o).forEach(visit);
      };
      for (const f of dumps) visit(read(f));
      expect(resources).toBeGreaterThan(50);
      // The two dump artifacts above, seen from inside their resource.
      expect(failing).toEqual([
        `${T}envoy.config.endpoint.v3.ClusterLoadAssignment $.endpoints[0].load_balancing_weight constraint`,
        `${T}envoy.extensions.transport_sockets.tls.v3.Secret $.validation_context.trusted_ca constraint`,
      ]);
    });

    it('the bootstrap dump and the eds/ecds outputs pass as their types', () => {
      expect(checkEnvoyResource(read(join(CONFIGDUMP, 'bootstrapdump.json')), `${T}envoy.admin.v3.BootstrapConfigDump`)).toEqual([]);
      expect(
        checkEnvoyResource(read(join(CONFIGDUMP, 'ecds', 'output.json')), `${T}envoy.admin.v3.EcdsConfigDump`).filter((p) => !p.path.endsWith('typedConfig')),
      ).toEqual([]);
      for (const f of ['emptyfilter_output.json', 'portfilter_output.json']) {
        const clas = read(join(CONFIGDUMP, 'endpoint', f)) as unknown[];
        expect(clas.length).toBeGreaterThan(0);
        for (const cla of clas) expect(checkEnvoyResource(cla, 'envoy.config.endpoint.v3.ClusterLoadAssignment')).toEqual([]);
      }
    });

    it('@bufbuild/protobuf fromJson (strict) reads every dump too', () => {
      const p = envoyProtos();
      for (const f of dumps)
        expect(() => fromJson(p.message('envoy.admin.v3.ConfigDump')!, read(f) as never, { registry: p.registry, ignoreUnknownFields: false })).not.toThrow();
    });
  },
);

describe('valid resources', () => {
  it('a cluster, a listener and a route configuration as istiod writes them', () => {
    expectValidEnvoy(cluster());
    expectValidEnvoy(listener());
    expectValidEnvoy(routeConfig());
    expect(checkEnvoyResource(cluster())).toEqual([]);
    expect(checkEnvoyResource(listener())).toEqual([]);
    expect(checkEnvoyResource(routeConfig())).toEqual([]);
  });

  it('takes the type from the argument, with or without @type in the object', () => {
    const { '@type': _t, ...bare } = cluster();
    expect(checkEnvoyResource(bare, `${T}envoy.config.cluster.v3.Cluster`)).toEqual([]);
    expect(checkEnvoyResource(bare, 'envoy.config.cluster.v3.Cluster')).toEqual([]);
    expect(checkEnvoyResource(cluster(), `${T}envoy.config.cluster.v3.Cluster`)).toEqual([]);
  });

  it('accepts proto field names as well as JSON names, and 64-bit ints as strings', () => {
    const c = cluster();
    c.connect_timeout = c.connectTimeout;
    delete c.connectTimeout;
    c.per_connection_buffer_limit_bytes = '32768';
    c.circuitBreakers.thresholds[0].max_connections = '100';
    delete c.circuitBreakers.thresholds[0].maxConnections;
    expect(checkEnvoyResource(c)).toEqual([]);
  });

  it('accepts the well-known types in their JSON forms', () => {
    const c = cluster();
    c.outlierDetection = { consecutive5xx: 5, interval: '10.500s', baseEjectionTime: '30s', maxEjectionPercent: 100, enforcingConsecutive5xx: 100 };
    c.dnsRefreshRate = '5s';
    c.metadata.filterMetadata.istio.config = { nested: [1, 'two', null, { x: true }] };
    expect(checkEnvoyResource(c)).toEqual([]);
    const wasm = {
      '@type': `${T}envoy.extensions.filters.http.wasm.v3.Wasm`,
      config: {
        name: 'p',
        vmConfig: { runtime: 'envoy.wasm.runtime.v8', code: { local: { filename: '/x.wasm' } } },
        configuration: { '@type': `${T}google.protobuf.StringValue`, value: '{"a":1}' },
      },
    };
    expect(checkEnvoyResource(wasm)).toEqual([]);
    expect(checkEnvoyResource({ '@type': `${T}google.protobuf.Duration`, value: '1s' })).toEqual([]);
  });

  it('Istio-only typed configs: the schema-checked ones are checked, opaque ones accepted', () => {
    expect(
      checkEnvoyResource({
        '@type': `${T}stats.PluginConfig`,
        reporter: 'SERVER_GATEWAY',
        metrics: [{ name: 'requests_total', dimensions: { a: 'b' }, tags_to_remove: ['x'] }],
      }),
    ).toEqual([]);
    expect(
      checkEnvoyResource({ '@type': `${T}udpa.type.v1.TypedStruct`, type_url: `${T}istio.workload.BootstrapExtension`, value: { anything: { goes: 1 } } }),
    ).toEqual([]);
    expect(checkEnvoyResource({ '@type': `${T}envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig`, logName: 'otel' })).toEqual([]);
  });

  it('the vitest helpers pass on valid input and fail with the problems listed', () => {
    expectValidConfigDump({ configs: [{ '@type': `${T}envoy.admin.v3.ClustersConfigDump`, dynamicActiveClusters: [{ cluster: cluster() }] }] });
    const bad = cluster();
    bad.lbPolicy = 'FASTEST';
    expect(() => expectValidEnvoy(bad)).toThrow(/\$\.lbPolicy: "FASTEST" is not a value of envoy\.config\.cluster\.v3\.Cluster\.LbPolicy/);
  });
});

describe('broken resources are reported at their path', () => {
  it('unknown field, with a suggestion', () => {
    const c = cluster();
    c.circuitBreakers.thresholds[0].maxConection = 1;
    const ps = checkEnvoyResource(c);
    expect(brief(ps)).toEqual(['error unknown-field $.circuitBreakers.thresholds[0].maxConection']);
    expect(ps[0]!.message).toBe('"maxConection" is not a field of envoy.config.cluster.v3.CircuitBreakers.Thresholds (did you mean "maxConnections"?)');
    expect(ps[0]!.resource).toBe('Cluster outbound|9080|v1|reviews.default.svc.cluster.local');
  });

  it('unknown field deep inside an Any (HCM in a filter chain)', () => {
    const l = listener();
    l.filterChains[0].filters[0].typedConfig.httpFilters[3].typedConfig.suppressEnvoyHeader = true;
    expect(brief(checkEnvoyResource(l))).toEqual([
      'error unknown-field $.filterChains[0].filters[0].typedConfig.httpFilters[3].typedConfig.suppressEnvoyHeader',
    ]);
  });

  it('wrong JSON types', () => {
    const c = cluster();
    c.connectTimeout = 10; // Duration must be a string
    c.name = 42;
    c.circuitBreakers.thresholds = { maxConnections: 1 }; // repeated must be an array
    c.edsClusterConfig.edsConfig.ads = 'yes';
    c.commonLbConfig.healthyPanicThreshold = { value: '50%' };
    const l = listener();
    l.bindToPort = 'false'; // BoolValue
    l.address.socketAddress.portValue = 9080.5;
    expect(brief(checkEnvoyResource(c))).toEqual([
      'error wrong-type $.name',
      'error wrong-type $.edsClusterConfig.edsConfig.ads',
      'error wrong-type $.connectTimeout',
      'error wrong-type $.circuitBreakers.thresholds',
      'error bad-value $.commonLbConfig.healthyPanicThreshold.value',
    ]);
    expect(brief(checkEnvoyResource(l))).toEqual(['error bad-value $.address.socketAddress.portValue', 'error wrong-type $.bindToPort']);
  });

  it('integers: decimal strings are fine, hex is not (where @bufbuild/protobuf is lenient)', () => {
    const c = cluster();
    c.circuitBreakers.thresholds[0].maxRetries = '0x10';
    c.circuitBreakers.thresholds[0].maxRequests = '16';
    c.perConnectionBufferLimitBytes = '1e3';
    expect(brief(checkEnvoyResource(c))).toEqual(['error bad-value $.circuitBreakers.thresholds[0].maxRetries']);
  });

  it('bad enum values, by name and by number', () => {
    const c = cluster();
    c.type = 'EDSS';
    c.lbPolicy = 99;
    const ps = checkEnvoyResource(c);
    expect(brief(ps)).toEqual(['error bad-enum $.type', 'error bad-enum $.lbPolicy']);
    expect(ps[0]!.message).toMatch(
      /^"EDSS" is not a value of envoy\.config\.cluster\.v3\.Cluster\.DiscoveryType \(STATIC, STRICT_DNS, LOGICAL_DNS, EDS, ORIGINAL_DST\)$/,
    );
  });

  it('unknown @type, in an Any and in a TypedStruct', () => {
    const l = listener();
    l.listenerFilters[0].typedConfig['@type'] = `${T}envoy.extensions.filters.listener.tls_inspector.v3.TLSInspector`;
    l.filterChains[0].filters[0].typedConfig.httpFilters[0].typedConfig.typeUrl = `${T}io.istio.http.peer_metadata.Konfig`;
    const ps = checkEnvoyResource(l);
    expect(brief(ps)).toEqual([
      'error unknown-type $.filterChains[0].filters[0].typedConfig.httpFilters[0].typedConfig.typeUrl',
      'error unknown-type $.listenerFilters[0].typedConfig["@type"]',
    ]);
    expect(checkEnvoyResource({ '@type': `${T}istio.something.Else` }).map((p) => p.code)).toEqual(['unknown-type']);
    expect(checkEnvoyResource({}, `${T}envoy.config.cluster.v3.Klaster`).map((p) => p.code)).toEqual(['unknown-type']);
  });

  it('missing @type, @type that disagrees, and a type URL without a slash', () => {
    expect(brief(checkEnvoyResource({ name: 'x' }))).toEqual(['error missing-type $']);
    const c = cluster();
    c.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: { sni: 'x' } };
    expect(brief(checkEnvoyResource(c))).toEqual(['error missing-type $.transportSocket.typedConfig']);
    expect(brief(checkEnvoyResource(cluster(), `${T}envoy.config.listener.v3.Listener`))).toEqual(['error bad-value $["@type"]']);
    const d = cluster();
    d.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: { '@type': 'UpstreamTlsContext' } };
    expect(brief(checkEnvoyResource(d))).toEqual(['error bad-value $.transportSocket.typedConfig["@type"]']);
  });

  it('Istio-only payloads are checked against their schema', () => {
    const l = listener();
    const filters = l.filterChains[0].filters[0].typedConfig.httpFilters;
    filters[0].typedConfig.value.upstream_discovery.push({ istio_headers: {}, workload_discovery: {} });
    filters[1].typedConfig.alpnOverride[1].upstreamProtocol = 'HTTP3';
    filters[2].typedConfig.reporter = 'CLIENT';
    filters[2].typedConfig.statsPrefix = 'istio_';
    expect(brief(checkEnvoyResource(l))).toEqual([
      'error oneof-conflict $.filterChains[0].filters[0].typedConfig.httpFilters[0].typedConfig.value.upstream_discovery[2].workload_discovery',
      'error bad-enum $.filterChains[0].filters[0].typedConfig.httpFilters[1].typedConfig.alpnOverride[1].upstreamProtocol',
      'error bad-enum $.filterChains[0].filters[0].typedConfig.httpFilters[2].typedConfig.reporter',
      'error unknown-field $.filterChains[0].filters[0].typedConfig.httpFilters[2].typedConfig.statsPrefix',
    ]);
  });

  it('duplicate fields, oneof conflicts and null', () => {
    const c = cluster();
    c.connect_timeout = '1s'; // and connectTimeout
    c.loadAssignment = null; // null is "not set": fine
    c.ringHashLbConfig = {};
    c.maglevLbConfig = {};
    c.metadata.filterMetadata.istio.services.push(null); // inside a Struct: fine
    c.circuitBreakers.thresholds.push(null);
    expect(brief(checkEnvoyResource(c))).toEqual([
      'error wrong-type $.circuitBreakers.thresholds[1]',
      'error duplicate-field $.connect_timeout',
      'error oneof-conflict $.maglevLbConfig',
    ]);
  });

  it('values out of range or malformed', () => {
    const c = cluster();
    c.circuitBreakers.thresholds[0].maxRequests = 4294967296;
    c.perConnectionBufferLimitBytes = -1;
    c.connectTimeout = '10ms';
    c.dnsRefreshRate = '1.0000000001s';
    c.upstreamConnectionOptions = { tcpKeepalive: { keepaliveTime: '7200s' } }; // UInt32Value: 7200 or "7200"
    c.lrsReportEndpointMetrics = ['cpu'];
    c.metadata.typedFilterMetadata = { x: { '@type': `${T}google.protobuf.BytesValue`, value: 'not base64!' } };
    expect(brief(checkEnvoyResource(c))).toEqual([
      'error bad-value $.connectTimeout',
      'error bad-value $.circuitBreakers.thresholds[0].maxRequests',
      'error bad-value $.metadata.typedFilterMetadata.x.value',
      'error bad-value $.perConnectionBufferLimitBytes',
      'error bad-value $.dnsRefreshRate',
      'error bad-value $.upstreamConnectionOptions.tcpKeepalive.keepaliveTime',
    ]);
  });

  it("constraints of the protos' validate rules (what Envoy rejects on load)", () => {
    const c = cluster();
    c.name = '';
    c.connectTimeout = '0s';
    const r = routeConfig();
    r.virtualHosts[0].domains = [];
    delete r.virtualHosts[0].routes[0].match;
    r.virtualHosts[0].routes[0].route = { timeout: '0s' };
    r.virtualHosts[0].requestHeadersToAdd = [{ header: { key: 'bad\nheader', value: 'v' } }];
    expect(brief(checkEnvoyResource(c))).toEqual(['error constraint $.name', 'error constraint $.connectTimeout']);
    const ps = checkEnvoyResource(r);
    expect(brief(ps)).toEqual([
      'error constraint $.virtualHosts[0].routes[0].route',
      'error constraint $.virtualHosts[0].routes[0].match',
      'error constraint $.virtualHosts[0].requestHeadersToAdd[0].header.key',
      'error constraint $.virtualHosts[0].domains',
    ]);
    expect(ps.map((p) => p.message)).toEqual([
      'one of cluster, clusterHeader, weightedClusters, clusterSpecifierPlugin, inlineClusterSpecifierPlugin is required (oneof cluster_specifier)',
      'match: is required',
      'key: "bad\\nheader" is not a valid HTTP header name',
      'domains: needs at least 1 item, has 0',
    ]);
    // Without constraints only the JSON mapping is checked.
    expect(checkEnvoyResource(r, undefined, { constraints: false })).toEqual([]);
  });

  it('deprecated fields are warnings, which expectValidEnvoy lets through unless asked', () => {
    const c = cluster();
    c.http2ProtocolOptions = {};
    c.maxRequestsPerConnection = 5;
    const ps = checkEnvoyResource(c);
    expect(brief(ps)).toEqual(['warning deprecated $.http2ProtocolOptions', 'warning deprecated $.maxRequestsPerConnection']);
    expectValidEnvoy(c);
    expect(() => expectValidEnvoy(c, undefined, { warnings: 'fail' })).toThrow(/deprecated/);
    expect(checkEnvoyResource(c, undefined, { deprecations: false })).toEqual([]);
  });

  it('JS values JSON cannot carry', () => {
    const c = cluster();
    c.metadata.filterMetadata.istio.weight = Infinity;
    c.circuitBreakers.thresholds[0].maxRetries = 10n;
    c.commonLbConfig = new Map();
    c.altStatName = undefined; // dropped by JSON.stringify: fine
    expect(brief(checkEnvoyResource(c))).toEqual([
      'error wrong-type $.circuitBreakers.thresholds[0].maxRetries',
      'error wrong-type $.commonLbConfig',
      'error bad-value $.metadata.filterMetadata.istio.weight',
    ]);
  });

  it('checkConfigDump labels problems with the resource they are in', () => {
    const c = cluster();
    c.lbPolicy = 'NOPE';
    const dump = {
      configs: [
        {
          '@type': `${T}envoy.admin.v3.ClustersConfigDump`,
          dynamicActiveClusters: [
            { versionInfo: '1', cluster: cluster() },
            { cluster: c, lastUpdated: '2024-01-01T00:00:00Z' },
          ],
        },
      ],
    };
    const ps = checkConfigDump(dump);
    expect(formatProblems(ps)).toBe(
      'error $.configs[0].dynamicActiveClusters[1].cluster.lbPolicy: "NOPE" is not a value of envoy.config.cluster.v3.Cluster.LbPolicy (ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM, MAGLEV, CLUSTER_PROVIDED, LOAD_BALANCING_POLICY_CONFIG) [bad-enum] (Cluster outbound|9080|v1|reviews.default.svc.cluster.local)',
    );
    dump.configs[0]!.dynamicActiveClusters[1]!.lastUpdated = '2024-13-01T00:00:00Z';
    expect(brief(checkConfigDump(dump)).at(-1)).toBe('error bad-value $.configs[0].dynamicActiveClusters[1].lastUpdated');
  });

  it('the outermost resource names the problem (a route configuration inline in a listener)', () => {
    const l = listener();
    const hcm = l.filterChains[0].filters[0].typedConfig;
    delete hcm.rds;
    hcm.routeConfig = {
      ...routeConfig(),
      '@type': undefined,
      virtualHosts: [{ name: 'x', domains: ['*'], routes: [{ match: { prefix: '/' }, directResponse: { status: 99 } }] }],
    };
    const ps = checkEnvoyResource(l);
    expect(brief(ps)).toEqual(['error constraint $.filterChains[0].filters[0].typedConfig.routeConfig.virtualHosts[0].routes[0].directResponse.status']);
    expect(ps[0]!.resource).toBe('Listener 0.0.0.0_9080');
    expect(ps[0]!.message).toBe('status: must be >= 200 and < 600, is 99');
  });

  it('stops at maxProblems', () => {
    const c = cluster();
    for (let i = 0; i < 50; i++) c[`junk${i}`] = i;
    expect(checkEnvoyResource(c, undefined, { maxProblems: 10 })).toHaveLength(10);
  });
});
