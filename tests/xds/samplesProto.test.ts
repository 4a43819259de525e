// Every resource generated for every proxy of every bundled sample passes the strict Envoy proto
// check (real Envoy v3 descriptors, proto3 JSON mapping, Istio typed configs on the allow-list).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { listProxies, proxyForPod } from '../../src/core/xds/proxy.ts';
import { generateForProxy } from '../../src/core/xds/generate.ts';
import { configDump, DUMP_TYPES } from '../../src/core/xds/dump.ts';
import { checkConfigDump, checkEnvoyResource, formatProblems, type ProtoProblem } from '../../src/core/xds/proto/index.ts';
import type { Json } from '../../src/core/xds/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const SAMPLES = resolve(__dirname, '../../public/samples');
// Deprecated fields Istio itself still sets (Envoy accepts them with a warning). Every other
// problem, warning or error, fails the test.
const ISTIO_DEPRECATED = new Set([
  'matchSubjectAltNames', // pilot/pkg/security/model/authentication.go, networking/core/cluster_tls.go
  'maxGrpcTimeout', // pilot/pkg/networking/core/route/route.go, httproute.go (notimeout)
  'maxRequestsPerConnection', // the xds-grpc cluster of Istio's bootstrap template
]);

// Where istiod (pilot/pkg/networking/core/cluster_builder.go, DNS clusters) sets fields of a newer
// Envoy than the protos @grpc/grpc-js-xds ships: Cluster.dns_jitter does not exist there yet, and
// CaresDnsResolverConfig.resolvers still carries the old min_items: 1 rule (istiod sends only
// udp_max_queries). Both are exact: nothing else is let through.
function protoSkew(p: ProtoProblem): boolean {
  if (p.code === 'unknown-field' && p.path.endsWith('.dnsJitter')) return true;
  return p.code === 'constraint' && p.path.endsWith('.typedDnsResolverConfig.typedConfig.resolvers');
}

function unexpected(problems: readonly ProtoProblem[]): ProtoProblem[] {
  return problems.filter((p) => !protoSkew(p) && !(p.code === 'deprecated' && ISTIO_DEPRECATED.has(p.path.slice(p.path.lastIndexOf('.') + 1))));
}

const index = JSON.parse(readFileSync(join(SAMPLES, 'index.json'), 'utf8')) as { samples: { id: string; dir?: string; files: string[] }[] };
// The samples have sidecars, a gateway and (ambient) a waypoint; the generator's fixtures add an ingress gateway.
const FIXTURES = resolve(__dirname, 'fixtures');
const cases = [
  ...index.samples.map((s) => ({ ...s, dir: join(SAMPLES, s.id) })),
  ...readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ id: `fixture ${f}`, dir: FIXTURES, files: [f] })),
];

function sampleView(dir: string, files: string[]): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update(
    files.map((f) => ({ path: f, text: readFileSync(join(dir, f), 'utf8') })),
    [],
  );
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: true,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

describe.each(cases)('sample $id', ({ dir, files }) => {
  const view = sampleView(dir, files);
  const proxies = listProxies(view);

  it('has proxies to check', () => {
    expect(proxies.length).toBeGreaterThan(0);
  });

  it.each(proxies.map((p) => [p.id, p] as const))('%s: every generated resource passes the Envoy proto check', (_id, ref) => {
    const gen = generateForProxy(view, proxyForPod(view, ref));
    const problems: ProtoProblem[] = [];
    const check = (list: readonly Json[], type: string) => {
      for (const r of list) problems.push(...checkEnvoyResource(r, type));
    };
    check(gen.listeners, DUMP_TYPES.listener);
    check(gen.routes, DUMP_TYPES.routeConfiguration);
    check(gen.clusters, DUMP_TYPES.cluster);
    check(gen.endpoints, DUMP_TYPES.clusterLoadAssignment);
    // The assembled dump too: bootstrap, static listeners and clusters, secrets.
    problems.push(...checkConfigDump(configDump(gen).dump));
    expect(formatProblems(unexpected(problems))).toBe('');
    expect(gen.listeners.length + gen.clusters.length).toBeGreaterThan(0);
  });
});

it('covers sidecars, gateways and waypoints', () => {
  const types = new Set<string>();
  for (const c of cases) for (const p of listProxies(sampleView(c.dir, c.files))) types.add(p.type);
  expect([...types].sort()).toEqual(['router', 'sidecar', 'waypoint']);
});
