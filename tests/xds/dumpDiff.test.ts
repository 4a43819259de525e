// A real config dump (istioctl's test dumps, read from the shared conformance corpus) against
// the config generated from a workspace: what is only in one, and which fields differ.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, answerQueryAsync, QueryError, type QueryState } from '../../src/core/queries/index.ts';
import { configDumpFromValue, readConfigDump, type ConfigDump } from '../../src/core/xds/configdump/dump.ts';
import { envoyProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { canonicalResource, diffDumpWithGenerated, dumpDiffText, proxyOfNodeId } from '../../src/core/xds/dumpDiff.ts';

const CORPUS = '/work/shared/conformance/xds/istioctl/pkg/';
const ROUTE_DUMP = `${CORPUS}writer/envoy/configdump/testdata/routes/istio-gateway-http-route-prefix/configdump.json`;
const WAYPOINT_DUMP = `${CORPUS}proxyconfig/testdata/config_dump.json`;
const EDS_DUMP = `${CORPUS}writer/envoy/configdump/testdata/endpoint/configdump.json`;

// The workspace behind ROUTE_DUMP: an ingress gateway, a Gateway for httpbin.example.com and a
// VirtualService sending /get to httpbin:8000.
const HTTPBIN = `apiVersion: v1
kind: Pod
metadata:
  name: istio-ingressgateway-abc
  namespace: istio-system
  labels: {istio: ingressgateway, app: istio-ingressgateway}
spec:
  containers: [{name: istio-proxy, image: docker.io/istio/proxyv2:1.28.0}]
---
apiVersion: v1
kind: Service
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  ports: [{name: http2, port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: httpbin, namespace: default}
spec:
  selector: {app: httpbin}
  ports: [{name: http, port: 8000, targetPort: 8080}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: httpbin-gateway, namespace: default}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [httpbin.example.com]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: httpbin, namespace: default}
spec:
  hosts: [httpbin.example.com]
  gateways: [httpbin-gateway]
  http:
  - match: [{uri: {prefix: /get}}]
    route: [{destination: {host: httpbin, port: {number: 8000}}}]
`;
const GW = 'istio-ingressgateway-abc.istio-system';

async function analyzed(files: { path: string; text: string }[]): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(files, []);
  expect(await w.run(defaultAnalysisSettings())).not.toBe('canceled');
  return w.analyzedState()!;
}

function read(path: string): ConfigDump {
  const r = readConfigDump(readFileSync(path, 'utf8'));
  if (!r.ok) throw new Error(r.error);
  return r.dump;
}

function generated(state: QueryState, proxy: string): ConfigDump {
  const r = configDumpFromValue(answerQuery('proxyConfig', { proxy }, state).dump);
  if (!r.ok) throw new Error(r.error);
  return r.dump;
}

describe('config dump against generated config', () => {
  it("finds the one route field istioctl's gateway dump has that Istio no longer sets", async () => {
    const state = await analyzed([{ path: 'httpbin.yaml', text: HTTPBIN }]);
    const r = diffDumpWithGenerated(read(ROUTE_DUMP), generated(state, GW), await envoyProtoSchema());
    const route = r.differences.find((d) => d.type === 'route' && d.name === 'http.8080')!;
    expect(route.status).toBe('differs');
    // snake_case in the dump, lowerCamel generated: compared in one canonical form.
    expect(route.fields).toEqual([{ path: 'virtualHosts[httpbin.example.com:80].routes[0].route.retryPolicy.retriableStatusCodes', after: '[503]' }]);
    // The dump holds routes only: the generated listener and clusters are only generated.
    expect(r.differences.filter((d) => d.status === 'only-generated').map((d) => d.type)).toEqual(expect.arrayContaining(['listener', 'cluster']));
    expect(r.differences.some((d) => d.status === 'only-in-dump')).toBe(false);
    expect(r.counts.route).toMatchObject({ dump: 1, generated: 1, same: 0, differs: 1 });
    expect(r.notes.join(' ')).toContain('no endpoints section');
    const text = dumpDiffText(r, GW);
    expect(text).toMatch(/^route\s+differs\s+http\.8080$/m);
    expect(text).toContain('retriableStatusCodes: generated (absent), dump [503]');
  });

  it('lists what only the dump has, with the proxy it came from', async () => {
    const state = await analyzed([{ path: 'httpbin.yaml', text: HTTPBIN }]);
    const dump = read(WAYPOINT_DUMP);
    const r = diffDumpWithGenerated(dump, generated(state, GW), await envoyProtoSchema());
    expect(r.nodeId).toMatch(/^waypoint~/);
    expect(r.dumpProxy).toBe('httpbin-istio-waypoint-58f646c5ff-dbfkz.default');
    expect(r.differences).toContainEqual(expect.objectContaining({ type: 'listener', name: 'main_internal', status: 'only-in-dump' }));
    expect(r.differences).toContainEqual(
      expect.objectContaining({ type: 'cluster', name: 'inbound-vip|8000|http|httpbin.default.svc.cluster.local', status: 'only-in-dump' }),
    );
    expect(dumpDiffText(r, GW)).toContain(`the dump comes from httpbin-istio-waypoint-58f646c5ff-dbfkz.default, not ${GW}`);
  });

  it('ignores runtime-only fields: version_info, last_updated and endpoint health', async () => {
    const schema = await envoyProtoSchema();
    const eds = read(EDS_DUMP);
    const value = eds.toJson();
    // The same dump with other push versions and health states is no different.
    const changed = JSON.parse(
      JSON.stringify(value)
        .replace(/"HEALTHY"/g, '"UNHEALTHY"')
        .replace(/"version_info":\s*"[^"]*"/g, '"version_info":"other"'),
    ) as unknown;
    expect(JSON.stringify(changed)).not.toBe(JSON.stringify(value));
    const other = configDumpFromValue(changed);
    if (!other.ok) throw new Error(other.error);
    const r = diffDumpWithGenerated(eds, other.dump, schema);
    expect(r.differences).toEqual([]);
    expect(r.counts.endpoints.same).toBeGreaterThan(10);
    // A real change to an endpoint's address is a difference.
    const moved = configDumpFromValue(JSON.parse(JSON.stringify(value).replace('"10.244.0.', '"10.99.0.')) as unknown);
    if (!moved.ok) throw new Error(moved.error);
    const d = diffDumpWithGenerated(eds, moved.dump, schema).differences;
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ type: 'endpoints', status: 'differs' });
    expect(d[0]!.fields[0]!.path).toMatch(/lbEndpoints\[\d+\]\.endpoint\.address\.socketAddress\.address$/);
  });

  it('compares a field written as its default the same as a field left out', async () => {
    const schema = await envoyProtoSchema();
    const a = canonicalResource({ name: 'c', connect_timeout: '10s', respect_dns_ttl: false, type: 'EDS', lb_policy: 'ROUND_ROBIN' }, 'cluster', schema);
    const b = canonicalResource(
      { '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster', name: 'c', connectTimeout: '10s', type: 'EDS' },
      'cluster',
      schema,
    );
    expect(a).toEqual(b);
    // A wrapper (UInt32Value) has presence: an explicit 0 is not the same as none.
    expect(canonicalResource({ name: 'c', per_connection_buffer_limit_bytes: 0 }, 'cluster', schema)).toEqual({ name: 'c', perConnectionBufferLimitBytes: 0 });
  });

  it('reads node ids', () => {
    expect(proxyOfNodeId('sidecar~10.1.2.3~productpage-v1-abc.bookinfo~bookinfo.svc.cluster.local')).toBe('productpage-v1-abc.bookinfo');
    expect(proxyOfNodeId('not-a-node')).toBeUndefined();
  });

  it('answers the proxyDumpDiff query from a workspace file, which the analysis leaves alone', async () => {
    const dumpText = readFileSync(ROUTE_DUMP, 'utf8');
    const state = await analyzed([
      { path: 'httpbin.yaml', text: HTTPBIN },
      { path: 'config_dump.json', text: dumpText },
    ]);
    const r = await answerQueryAsync('proxyDumpDiff', { proxy: GW, file: 'config_dump.json' }, state);
    expect(r.proxy).toBe(GW);
    expect(r.differences.find((d) => d.name === 'http.8080')?.status).toBe('differs');
    const byText = await answerQueryAsync('proxyDumpDiff', { proxy: GW, text: dumpText }, state);
    expect(byText.differences).toEqual(r.differences);
    await expect(answerQueryAsync('proxyDumpDiff', { proxy: GW, file: 'nope.json' }, state)).rejects.toThrow(QueryError);
    await expect(answerQueryAsync('proxyDumpDiff', { proxy: GW, text: '{"kind": "Pod"}' }, state)).rejects.toThrow(/no "configs" list/);
    await expect(answerQueryAsync('proxyDumpDiff', { proxy: GW, text: '{ nope' }, state)).rejects.toThrow(/not readable/);
  });

  it('does not report a config dump in the workspace as "not a Kubernetes object"', async () => {
    const w = new WorkspaceAnalyzer();
    w.update(
      [
        { path: 'config_dump.json', text: readFileSync(ROUTE_DUMP, 'utf8') },
        { path: 'other.json', text: '{"configs": [{"a": 1}]}' },
      ],
      [],
    );
    const r = await w.run(defaultAnalysisSettings());
    if (r === 'canceled') throw new Error('canceled');
    const files = r.diagnostics.filter((d) => d.message.includes('not a Kubernetes object')).map((d) => d.file);
    expect(files).toEqual(['other.json']);
  });
});

describe('field differences with keys named like Object.prototype members', () => {
  it('compares own keys only and never prints undefined', async () => {
    const { diffResources } = await import('../../src/core/xds/diff.ts');
    const route = (meta: Record<string, unknown>) => ({
      name: '9080',
      virtualHosts: [{ name: 'r:9080', routes: [{ name: 'a', metadata: { filterMetadata: meta } }] }],
    });
    const before = { listeners: [], routes: [route(JSON.parse('{"toString": {}, "__proto__": {"x": 1}}'))], clusters: [], endpoints: [] };
    const after = { listeners: [], routes: [route({})], clusters: [], endpoints: [] };
    const changes = diffResources(before, after);
    const fields = changes.flatMap((c) => ('fields' in c && Array.isArray(c.fields) ? c.fields : []));
    expect(fields.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining([expect.stringContaining('filterMetadata.toString'), expect.stringContaining('filterMetadata.__proto__')]),
    );
    expect(JSON.stringify(changes)).not.toMatch(/undefined|\[object /);
  });
});

describe('a resource whose name is not text', () => {
  it('is compared as written and named by its JSON, never as [object Object]', async () => {
    const { readFileSync } = await import('node:fs');
    const { readConfigDump } = await import('../../src/core/xds/configdump/dump.ts');
    const { loadProtoSchema } = await import('../../src/core/xds/configdump/protoSchema.ts');
    const { PROTO_SCHEMA_JSON } = await import('../../src/core/xds/configdump/protoSchema.data.ts');
    const { diffDumpWithGenerated, dumpDiffText } = await import('../../src/core/xds/dumpDiff.ts');
    const text = readFileSync(new URL('../fixtures/xds/sidecar-config-dump.json', import.meta.url), 'utf8');
    const json = JSON.parse(text) as { configs: Array<Record<string, unknown>> };
    const eds = json.configs.find((c) => String(c['@type']).endsWith('EndpointsConfigDump')) as {
      dynamic_endpoint_configs: Array<{ endpoint_config: Record<string, unknown> }>;
    };
    eds.dynamic_endpoint_configs[0]!.endpoint_config.cluster_name = [{}];
    const a = readConfigDump(JSON.stringify(json));
    const b = readConfigDump(text);
    if (!a.ok || !b.ok) throw new Error('fixture not read');
    const schema = loadProtoSchema(PROTO_SCHEMA_JSON);
    for (const r of [diffDumpWithGenerated(a.dump, b.dump, schema), diffDumpWithGenerated(b.dump, a.dump, schema)]) {
      expect(r.differences.some((d) => d.name === '[{}]')).toBe(true);
      expect(dumpDiffText(r, 'p.ns')).not.toMatch(/\[object |undefined/);
    }
  });
});
