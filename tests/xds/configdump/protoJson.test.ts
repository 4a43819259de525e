// jsonpb (golang/protobuf) output of proto JSON messages, as istioctl's -o json prints them.
import { describe, expect, it } from 'vitest';
import { goJsonIndent, marshalJsonpb, messageSliceJson, formatDuration, formatTimestamp } from '../../../src/core/xds/configdump/protoJson.ts';
import { loadProtoSchema } from '../../../src/core/xds/configdump/protoSchema.ts';
import { PROTO_SCHEMA_JSON } from '../../../src/core/xds/configdump/protoSchema.data.ts';

const schema = loadProtoSchema(PROTO_SCHEMA_JSON);
const CLUSTER = 'envoy.config.cluster.v3.Cluster';

describe('marshalJsonpb', () => {
  it('writes fields in declaration order under their JSON names, whatever the input order and naming', () => {
    const a = marshalJsonpb({ type: 'EDS', name: 'c', connect_timeout: '1s', eds_cluster_config: { service_name: 's' } }, CLUSTER, schema);
    const b = marshalJsonpb({ edsClusterConfig: { serviceName: 's' }, connectTimeout: '1s', name: 'c', type: 'EDS' }, CLUSTER, schema);
    expect(a).toBe('{"name":"c","type":"EDS","edsClusterConfig":{"serviceName":"s"},"connectTimeout":"1s"}');
    expect(b).toBe(a);
  });

  it('leaves out zero values of fields without presence, and unknown fields', () => {
    expect(marshalJsonpb({ name: '', alt_stat_name: 'x', per_connection_buffer_limit_bytes: 0, respect_dns_ttl: false, not_a_field: 1 }, CLUSTER, schema)).toBe(
      '{"altStatName":"x","perConnectionBufferLimitBytes":0}',
    );
  });

  it('writes oneof members even when zero, at the position of the oneof', () => {
    const sa = marshalJsonpb({ port_value: 0, address: '1.2.3.4', protocol: 'UDP' }, 'envoy.config.core.v3.SocketAddress', schema);
    expect(sa).toBe('{"protocol":"UDP","address":"1.2.3.4","portValue":0}');
    // A cluster's `type` is a oneof member too: STATIC (0) is written when given.
    expect(marshalJsonpb({ name: 'x', type: 'STATIC' }, CLUSTER, schema)).toBe('{"name":"x","type":"STATIC"}');
  });

  it('quotes 64-bit integers, names enums, normalises durations, timestamps and bytes', () => {
    expect(marshalJsonpb({ name: 'n', type: 3, max_requests_per_connection: 5, dns_refresh_rate: '5.000s' }, CLUSTER, schema)).toBe(
      '{"name":"n","type":"EDS","maxRequestsPerConnection":5,"dnsRefreshRate":"5s"}',
    );
    expect(marshalJsonpb({ value: '12' }, 'google.protobuf.UInt64Value', schema)).toBe('"12"');
    expect(marshalJsonpb({ inline_bytes: 'aGk' }, 'envoy.config.core.v3.DataSource', schema)).toBe('{"inlineBytes":"aGk="}');
    expect(formatDuration('1.5s')).toBe('"1.500s"');
    expect(formatDuration('0.000000001s')).toBe('"0.000000001s"');
    expect(formatDuration('-1.25s')).toBe('"-1.250s"');
    // Under a second, the sign goes before the 0 (jsonpb prints seconds and nanos as one number).
    expect(formatDuration('-0.5s')).toBe('"-0.500s"');
    expect(formatDuration('1m')).toBeUndefined();
    expect(formatTimestamp('2022-12-08T11:03:53.3610Z')).toBe('"2022-12-08T11:03:53.361Z"');
    expect(formatTimestamp('2022-12-08T12:03:53+01:00')).toBe('"2022-12-08T11:03:53Z"');
    expect(formatTimestamp('2022-12-08T11:03:53.000001Z')).toBe('"2022-12-08T11:03:53.000001Z"');
  });

  it('writes Any with @type first, well-known types under "value", and unknown types as they came', () => {
    const any = (v: unknown) => marshalJsonpb(v as never, 'google.protobuf.Any', schema);
    expect(any({ '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router', suppress_envoy_headers: true })).toBe(
      '{"@type":"type.googleapis.com/envoy.extensions.filters.http.router.v3.Router","suppressEnvoyHeaders":true}',
    );
    expect(any({ '@type': 'type.googleapis.com/google.protobuf.StringValue', value: 'x' })).toBe(
      '{"@type":"type.googleapis.com/google.protobuf.StringValue","value":"x"}',
    );
    expect(any({ '@type': 'type.googleapis.com/google.protobuf.Duration', value: '1.5s' })).toBe(
      '{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.500s"}',
    );
    expect(any({ '@type': 'type.googleapis.com/istio.example.v1.Thing', some_field: 1, Keep: 'x' })).toBe(
      '{"@type":"type.googleapis.com/istio.example.v1.Thing","someField":1,"Keep":"x"}',
    );
    expect(any({})).toBe('{}');
  });

  it('sorts map keys and keeps Struct values as JSON', () => {
    const md = marshalJsonpb({ filter_metadata: { istio: { z: 1, a: [true, null, 'x', { k: 1.5 }] }, envoy: {} } }, 'envoy.config.core.v3.Metadata', schema);
    expect(md).toBe('{"filterMetadata":{"envoy":{},"istio":{"a":[true,null,"x",{"k":1.5}],"z":1}}}');
  });

  it("indents like jsonpb, with the extra level of Struct and empty messages' blank line", () => {
    const out = marshalJsonpb({ node: { id: 'i', metadata: { K: 'v' } }, admin: {} }, 'envoy.config.bootstrap.v3.Bootstrap', schema, { indent: '  ' });
    expect(out).toBe('{\n  "node": {\n    "id": "i",\n    "metadata": {\n        "K": "v"\n      }\n  },\n  "admin": {\n\n  }\n}');
  });
});

describe('goJsonIndent and messageSliceJson (json.MarshalIndent of istioctl MessageSlice)', () => {
  it('indents compact JSON with 4 spaces and keeps empty collections together', () => {
    expect(goJsonIndent('{"a":[1,{"b":{}},[]],"c":"x,y:{"}')).toBe(
      '{\n    "a": [\n        1,\n        {\n            "b": {}\n        },\n        []\n    ],\n    "c": "x,y:{"\n}',
    );
    expect(goJsonIndent('[]')).toBe('[]');
  });

  it('prints a list of messages', () => {
    expect(
      messageSliceJson(
        [
          { json: { name: 'a' }, typeName: CLUSTER },
          { json: { name: 'b', type: 'EDS' }, typeName: CLUSTER },
        ],
        schema,
      ),
    ).toBe('[\n    {\n        "name": "a"\n    },\n    {\n        "name": "b",\n        "type": "EDS"\n    }\n]');
  });

  it('prints a field of the wrong type as text, even an object with a toString key (config-dump fuzzing, seed 20261209)', () => {
    // protojson would refuse the dump; istioctl prints nothing. We show what is there instead of throwing.
    const out = marshalJsonpb({ name: { '@type': 'type.googleapis.com/unknown.Type', x: 1, toString: 0 }, connect_timeout: { toString: 0 } }, CLUSTER, schema);
    expect(JSON.parse(out)).toEqual({ name: '{"@type":"type.googleapis.com/unknown.Type","x":1,"toString":0}', connectTimeout: '{"toString":0}' });
  });
});
