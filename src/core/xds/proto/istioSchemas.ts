// Istio-only typed configs: messages that istiod puts into Envoy config but that are defined
// outside Envoy's API (in istio/api and istio/proxy), so they are not among the Envoy protos.
// Each one is on the explicit allow-list (ISTIO_TYPED_CONFIGS). Where we know its fields we
// describe the message here, so its payload is checked as strictly as an Envoy message (field
// names, types, enums); the others are accepted as opaque payloads (the message around them is
// still checked).
import { create, createFileRegistry, type FileRegistry } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';

/** How an Istio-only typed config reaches Envoy. */
export type IstioTypedConfigCarrier = 'Any' | 'TypedStruct' | 'Any or TypedStruct';

export interface IstioTypedConfig {
  /** Full message name (the type URL is `type.googleapis.com/<typeName>`). */
  typeName: string;
  carrier: IstioTypedConfigCarrier;
  /** Where the message is defined. */
  definedIn: string;
  /** `schema`: fields checked against the description below; `opaque`: payload accepted as is. */
  checked: 'schema' | 'opaque';
  /** What istiod uses it for. */
  use: string;
}

/**
 * The allow-list. A type URL that is neither an Envoy message nor listed here is an error
 * (`unknown-type`), whether it is an Any's `@type` or a TypedStruct's `type_url`.
 */
export const ISTIO_TYPED_CONFIGS: readonly IstioTypedConfig[] = [
  {
    typeName: 'stats.PluginConfig',
    carrier: 'Any or TypedStruct',
    definedIn: 'istio/api envoy/extensions/stats/config.proto',
    checked: 'schema',
    use: 'istio.stats HTTP and network filters (Telemetry metrics)',
  },
  {
    typeName: 'istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig',
    carrier: 'Any',
    definedIn: 'istio/api envoy/config/filter/http/alpn/v2alpha1/config.proto',
    checked: 'schema',
    use: 'istio.alpn HTTP filter (upstream ALPN override)',
  },
  {
    typeName: 'envoy.tcp.metadataexchange.config.MetadataExchange',
    carrier: 'TypedStruct',
    definedIn: 'istio/api envoy/config/filter/network/metadata_exchange/metadata_exchange.proto',
    checked: 'schema',
    use: 'istio.metadata_exchange network and upstream (cluster) filters',
  },
  {
    typeName: 'io.istio.http.peer_metadata.Config',
    carrier: 'TypedStruct',
    definedIn: 'istio/proxy source/extensions/filters/http/peer_metadata/config.proto',
    checked: 'schema',
    use: 'istio.metadata_exchange HTTP filter, waypoint peer metadata filters',
  },
  {
    typeName: 'envoy.extensions.network_filters.peer_metadata.Config',
    carrier: 'TypedStruct',
    definedIn: 'istio/proxy source/extensions/filters/network/peer_metadata/config.proto',
    checked: 'schema',
    use: 'ambient: HBONE listener peer metadata (baggage)',
  },
  {
    typeName: 'envoy.extensions.network_filters.peer_metadata.UpstreamConfig',
    carrier: 'TypedStruct',
    definedIn: 'istio/proxy source/extensions/filters/network/peer_metadata/config.proto',
    checked: 'schema',
    use: 'ambient: HBONE cluster upstream peer metadata',
  },
  {
    typeName: 'istio.envoy.config.filter.network.tcp_cluster_rewrite.v2alpha1.TcpClusterRewrite',
    carrier: 'Any',
    definedIn: 'istio/api envoy/config/filter/network/tcp_cluster_rewrite/v2alpha1/config.proto',
    checked: 'schema',
    use: 'tcp_cluster_rewrite network filter (multi-network gateways)',
  },
  {
    typeName: 'istio.workload.BootstrapExtension',
    carrier: 'TypedStruct',
    definedIn: 'istio/proxy source/extensions/common/workload_discovery',
    checked: 'opaque',
    use: 'bootstrap extension for workload discovery (bootstrap dumps)',
  },
];

/**
 * Envoy messages that Istio can emit but whose protos @grpc/grpc-js-xds does not ship (contrib
 * extensions, and files that import opentelemetry/opencensus protos). Accepted as opaque.
 */
export const ENVOY_UNSHIPPED_TYPED_CONFIGS: readonly IstioTypedConfig[] = [
  {
    typeName: 'envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig',
    carrier: 'Any',
    definedIn: 'envoy api (imports opentelemetry protos, not shipped)',
    checked: 'opaque',
    use: 'Telemetry API OpenTelemetry access log provider',
  },
  {
    typeName: 'envoy.config.trace.v3.OpenCensusConfig',
    carrier: 'Any',
    definedIn: 'envoy api (imports opencensus protos, not shipped)',
    checked: 'opaque',
    use: 'legacy OpenCensus tracer',
  },
  {
    typeName: 'envoy.extensions.filters.network.mysql_proxy.v3.MySQLProxy',
    carrier: 'Any',
    definedIn: 'envoy contrib (not shipped)',
    checked: 'opaque',
    use: 'MySQL protocol sniffing filter',
  },
  {
    typeName: 'envoy.extensions.filters.network.sip_proxy.v3alpha.SipProxy',
    carrier: 'Any',
    definedIn: 'envoy contrib (not shipped)',
    checked: 'opaque',
    use: 'EnvoyFilter-supplied SIP proxy',
  },
];

const allowed = new Map<string, IstioTypedConfig>();
for (const e of [...ISTIO_TYPED_CONFIGS, ...ENVOY_UNSHIPPED_TYPED_CONFIGS]) allowed.set(e.typeName, e);

/** The allow-list entry for a message name, if any. */
export function allowedTypedConfig(typeName: string): IstioTypedConfig | undefined {
  return allowed.get(typeName);
}

// --- Message descriptions -------------------------------------------------------------------

const T = FieldDescriptorProto_Type;
/** `.pkg.Message` for a message field, `enum .pkg.Enum` for an enum field, else a scalar. */
type FieldType = 'string' | 'bool' | 'int32' | `.${string}` | `enum .${string}`;
type FieldSpec = [name: string, number: number, type: FieldType, mod?: 'repeated' | `oneof ${number}`];

function field([name, number, type, mod]: FieldSpec) {
  const scalar = { string: T.STRING, bool: T.BOOL, int32: T.INT32 } as const;
  const ref = type.startsWith('.')
    ? { type: T.MESSAGE, typeName: type }
    : type.startsWith('enum ')
      ? { type: T.ENUM, typeName: type.slice(5) }
      : { type: scalar[type as keyof typeof scalar] };
  return {
    name,
    jsonName: name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    number,
    label: mod === 'repeated' ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
    ...ref,
    ...(mod?.startsWith('oneof ') ? { oneofIndex: Number(mod.slice(6)) } : {}),
  };
}

interface MessageSpec {
  name: string;
  fields: FieldSpec[];
  nested?: MessageSpec[];
  enums?: EnumSpec[];
  oneofs?: string[];
  mapEntry?: boolean;
}
type EnumSpec = [name: string, values: string[]];

function message(m: MessageSpec): object {
  return {
    name: m.name,
    field: m.fields.map(field),
    nestedType: (m.nested ?? []).map(message),
    enumType: (m.enums ?? []).map(enumType),
    oneofDecl: (m.oneofs ?? []).map((name) => ({ name })),
    ...(m.mapEntry ? { options: { mapEntry: true } } : {}),
  };
}

function enumType([name, values]: EnumSpec): object {
  return { name, value: values.map((v, number) => ({ name: v, number })) };
}

function file(name: string, pkg: string, messages: MessageSpec[], enums: EnumSpec[] = []): FileDescriptorProto {
  const deps = JSON.stringify(messages).includes('.google.protobuf.Duration') ? ['google/protobuf/duration.proto'] : [];
  return create(FileDescriptorProtoSchema, {
    name,
    package: pkg,
    syntax: 'proto3',
    dependency: deps,
    messageType: messages.map(message),
    enumType: enums.map(enumType),
  } as never);
}

function describeIstioFiles(): FileDescriptorProto[] {
  const duration = '.google.protobuf.Duration';
  const stats = file(
    'istio-only/stats.proto',
    'stats',
    [
      {
        name: 'MetricConfig',
        fields: [
          ['dimensions', 1, '.stats.MetricConfig.DimensionsEntry', 'repeated'],
          ['name', 2, 'string'],
          ['tags_to_remove', 3, 'string', 'repeated'],
          ['match', 4, 'string'],
          ['drop', 5, 'bool'],
        ],
        nested: [
          {
            name: 'DimensionsEntry',
            fields: [
              ['key', 1, 'string'],
              ['value', 2, 'string'],
            ],
            mapEntry: true,
          },
        ],
      },
      {
        name: 'MetricDefinition',
        fields: [
          ['name', 1, 'string'],
          ['value', 2, 'string'],
          ['type', 3, 'enum .stats.MetricType'],
        ],
      },
      {
        name: 'PluginConfig',
        fields: [
          ['debug', 1, 'bool'],
          ['max_peer_cache_size', 2, 'int32'],
          ['stat_prefix', 3, 'string'],
          ['field_separator', 4, 'string'],
          ['value_separator', 5, 'string'],
          ['disable_host_header_fallback', 6, 'bool'],
          ['tcp_reporting_duration', 7, duration],
          ['metrics', 8, '.stats.MetricConfig', 'repeated'],
          ['definitions', 9, '.stats.MetricDefinition', 'repeated'],
          ['reporter', 10, 'enum .stats.Reporter'],
          ['rotation_interval', 11, duration],
          ['graceful_deletion_interval', 12, duration],
        ],
      },
    ],
    [
      ['MetricType', ['COUNTER', 'GAUGE', 'HISTOGRAM']],
      ['Reporter', ['UNSPECIFIED', 'SERVER_GATEWAY']],
    ],
  );

  const alpnPkg = 'istio.envoy.config.filter.http.alpn.v2alpha1';
  const alpn = file('istio-only/alpn.proto', alpnPkg, [
    {
      name: 'FilterConfig',
      fields: [['alpn_override', 1, `.${alpnPkg}.FilterConfig.AlpnOverride`, 'repeated']],
      enums: [['Protocol', ['HTTP10', 'HTTP11', 'HTTP2']]],
      nested: [
        {
          name: 'AlpnOverride',
          fields: [
            ['upstream_protocol', 1, `enum .${alpnPkg}.FilterConfig.Protocol`],
            ['alpn_override', 2, 'string', 'repeated'],
          ],
        },
      ],
    },
  ]);

  const mx = file('istio-only/metadata_exchange.proto', 'envoy.tcp.metadataexchange.config', [
    {
      name: 'MetadataExchange',
      fields: [
        ['protocol', 1, 'string'],
        ['enable_discovery', 2, 'bool'],
      ],
    },
  ]);

  const pm = '.io.istio.http.peer_metadata.Config';
  const peer = file('istio-only/peer_metadata.proto', 'io.istio.http.peer_metadata', [
    {
      name: 'Config',
      fields: [
        ['downstream_discovery', 1, `${pm}.DiscoveryMethod`, 'repeated'],
        ['upstream_discovery', 2, `${pm}.DiscoveryMethod`, 'repeated'],
        ['downstream_propagation', 3, `${pm}.PropagationMethod`, 'repeated'],
        ['upstream_propagation', 4, `${pm}.PropagationMethod`, 'repeated'],
        ['shared_with_upstream', 5, 'bool'],
        ['additional_labels', 6, 'string', 'repeated'],
      ],
      nested: [
        { name: 'Baggage', fields: [] },
        { name: 'WorkloadDiscovery', fields: [] },
        { name: 'IstioHeaders', fields: [['skip_external_clusters', 1, 'bool']] },
        {
          name: 'DiscoveryMethod',
          fields: [
            ['baggage', 1, `${pm}.Baggage`, 'oneof 0'],
            ['workload_discovery', 2, `${pm}.WorkloadDiscovery`, 'oneof 0'],
            ['istio_headers', 3, `${pm}.IstioHeaders`, 'oneof 0'],
          ],
          oneofs: ['method_specifier'],
        },
        { name: 'PropagationMethod', fields: [['istio_headers', 1, `${pm}.IstioHeaders`, 'oneof 0']], oneofs: ['method_specifier'] },
      ],
    },
  ]);

  const netPeer = file('istio-only/network_peer_metadata.proto', 'envoy.extensions.network_filters.peer_metadata', [
    { name: 'Config', fields: [['baggage_key', 1, 'string']] },
    { name: 'UpstreamConfig', fields: [] },
  ]);

  const rewrite = file('istio-only/tcp_cluster_rewrite.proto', 'istio.envoy.config.filter.network.tcp_cluster_rewrite.v2alpha1', [
    {
      name: 'TcpClusterRewrite',
      fields: [
        ['cluster_pattern', 1, 'string'],
        ['cluster_replacement', 2, 'string'],
      ],
    },
  ]);

  return [stats, alpn, mx, peer, netPeer, rewrite];
}

/** The Istio-only messages as a registry; google/protobuf imports resolve from `envoy`. */
export function istioFiles(envoy: FileRegistry): FileRegistry {
  return createFileRegistry(...describeIstioFiles().map((f) => createFileRegistry(f, (name) => envoy.getFile(name))));
}
