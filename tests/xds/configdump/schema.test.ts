// The proto schema table (protoSchema.data.ts) is generated from the Envoy protos that
// @grpc/grpc-js-xds ships: it must match what the installed protos give.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProtoSchema } from '../../../src/core/xds/configdump/protoSchema.ts';
import { PROTO_SCHEMA_JSON } from '../../../src/core/xds/configdump/protoSchema.data.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('proto schema table', () => {
  it('is what scripts/gen-proto-json-schema.mjs writes from the installed protos', () => {
    expect(existsSync(`${ROOT}node_modules/@grpc/grpc-js-xds/deps/envoy-api`)).toBe(true);
    execFileSync(process.execPath, ['scripts/gen-proto-json-schema.mjs', '--check'], { cwd: ROOT, stdio: 'pipe' });
  });

  it('has the messages a config dump holds, with declaration order, JSON names, oneofs and maps', () => {
    const s = loadProtoSchema(PROTO_SCHEMA_JSON);
    for (const m of [
      'envoy.admin.v3.ConfigDump',
      'envoy.admin.v3.BootstrapConfigDump',
      'envoy.config.cluster.v3.Cluster',
      'envoy.config.listener.v3.Listener',
      'envoy.config.route.v3.RouteConfiguration',
      'envoy.config.endpoint.v3.ClusterLoadAssignment',
      'envoy.extensions.transport_sockets.tls.v3.Secret',
      'envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
      'envoy.admin.v3.ClusterStatus',
      'google.protobuf.Struct',
      'udpa.type.v1.TypedStruct',
      'xds.type.matcher.v3.Matcher',
    ]) {
      expect(s.message(m), m).toBeDefined();
    }
    const lb = s.message('envoy.config.endpoint.v3.LbEndpoint')!;
    expect(lb.map((f) => f.name)).toEqual(['endpoint', 'endpoint_name', 'health_status', 'metadata', 'load_balancing_weight']);
    expect(lb[0]).toMatchObject({ jsonName: 'endpoint', oneof: 'host_identifier', number: 1 });
    expect(s.message('envoy.config.core.v3.Metadata')!.find((f) => f.name === 'filter_metadata')).toMatchObject({
      map: true,
      keyType: 'string',
      type: 'google.protobuf.Struct',
    });
    expect(s.enumValues('envoy.config.core.v3.HealthStatus')?.slice(0, 2)).toEqual([
      ['UNKNOWN', 0],
      ['HEALTHY', 1],
    ]);
    expect(s.message('no.such.Message')).toBeUndefined();
    expect(s.message('toString')).toBeUndefined();
  });
});
