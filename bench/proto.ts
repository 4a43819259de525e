// `npm run bench:proto` (node --import tsx bench/proto.ts): the strict Envoy proto check.
//   - cold load: importing src/core/xds/proto and building the registry, in fresh processes;
//   - checking a 1,000-cluster CDS (a ClustersConfigDump of istiod-like clusters), warm;
//   - what the worker would download: the check bundled for the browser, raw and gzipped.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const RUNS = 5;
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const kb = (x: number) => `${(x / 1024).toFixed(0)} KB`;

/** One istiod-like outbound cluster: EDS, subsets' metadata, Istio mTLS, circuit breakers. */
function cluster(i: number): Record<string, unknown> {
  const host = `svc-${i}.ns-${i % 50}.svc.cluster.local`;
  const name = `outbound|${8000 + (i % 20)}|${i % 3 ? `v${i % 3}` : ''}|${host}`;
  return {
    '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster',
    name,
    type: 'EDS',
    edsClusterConfig: { edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, serviceName: name },
    connectTimeout: '10s',
    lbPolicy: 'LEAST_REQUEST',
    circuitBreakers: {
      thresholds: [{ maxConnections: 4294967295, maxPendingRequests: 4294967295, maxRequests: 4294967295, maxRetries: 4294967295, trackRemaining: true }],
    },
    outlierDetection: i % 4 === 0 ? { consecutive5xx: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 100 } : undefined,
    commonLbConfig: {},
    metadata: { filterMetadata: { istio: { services: [{ host, name: `svc-${i}`, namespace: `ns-${i % 50}` }], default_original_port: 8000 + (i % 20) } } },
    filters: [
      {
        name: 'istio.metadata_exchange',
        typedConfig: {
          '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
          typeUrl: 'type.googleapis.com/envoy.tcp.metadataexchange.config.MetadataExchange',
          value: { protocol: 'istio-peer-exchange', enable_discovery: true },
        },
      },
    ],
    transportSocketMatches: [
      {
        name: 'tlsMode-istio',
        match: { tlsMode: 'istio' },
        transportSocket: {
          name: 'envoy.transport_sockets.tls',
          typedConfig: {
            '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
            commonTlsContext: {
              tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_2', tlsMaximumProtocolVersion: 'TLSv1_3' },
              alpnProtocols: ['istio-peer-exchange', 'istio'],
              tlsCertificateSdsSecretConfigs: [
                {
                  name: 'default',
                  sdsConfig: {
                    apiConfigSource: {
                      apiType: 'GRPC',
                      transportApiVersion: 'V3',
                      grpcServices: [{ envoyGrpc: { clusterName: 'sds-grpc' } }],
                      setNodeOnFirstMessageOnly: true,
                    },
                    initialFetchTimeout: '0s',
                    resourceApiVersion: 'V3',
                  },
                },
              ],
              combinedValidationContext: {
                defaultValidationContext: {
                  matchTypedSubjectAltNames: [{ sanType: 'URI', matcher: { exact: `spiffe://cluster.local/ns/ns-${i % 50}/sa/svc-${i}` } }],
                },
                validationContextSdsSecretConfig: {
                  name: 'ROOTCA',
                  sdsConfig: {
                    apiConfigSource: {
                      apiType: 'GRPC',
                      transportApiVersion: 'V3',
                      grpcServices: [{ envoyGrpc: { clusterName: 'sds-grpc' } }],
                      setNodeOnFirstMessageOnly: true,
                    },
                    initialFetchTimeout: '0s',
                    resourceApiVersion: 'V3',
                  },
                },
              },
            },
            sni: `outbound_.${8000 + (i % 20)}_._.${host}`,
          },
        },
      },
      {
        name: 'tlsMode-disabled',
        match: {},
        transportSocket: {
          name: 'envoy.transport_sockets.raw_buffer',
          typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer' },
        },
      },
    ],
    typedExtensionProtocolOptions: {
      'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
        '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
        useDownstreamProtocolConfig: { httpProtocolOptions: {}, http2ProtocolOptions: {} },
      },
    },
  };
}

function cds(n: number): unknown {
  return {
    configs: [
      {
        '@type': 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
        versionInfo: '2026-01-01T00:00:00Z/1',
        dynamicActiveClusters: Array.from({ length: n }, (_, i) => ({ versionInfo: '1', cluster: cluster(i), lastUpdated: '2026-01-01T00:00:00.000Z' })),
      },
    ],
  };
}

/** In a fresh process: import time, registry build, first check. Printed as JSON. */
async function coldChild(): Promise<void> {
  const t0 = performance.now();
  const proto = await import('../src/core/xds/proto/index.ts');
  const t1 = performance.now();
  const loadMs = proto.envoyProtos().loadMs;
  const t2 = performance.now();
  const problems = proto.checkConfigDump(cds(1));
  const t3 = performance.now();
  if (problems.length) throw new Error(proto.formatProblems(problems));
  // A one-shot check (the CLI's case): the first 1,000-cluster dump, before the JIT has warmed up.
  const big = cds(1000);
  const t4 = performance.now();
  proto.checkConfigDump(big);
  const t5 = performance.now();
  process.stdout.write(JSON.stringify({ importMs: t1 - t0, registryMs: loadMs, buildMs: t2 - t1, firstCheckMs: t3 - t2, firstCdsMs: t5 - t4 }));
}

async function main(): Promise<void> {
  const { checkConfigDump, envoyProtos, formatProblems } = await import('../src/core/xds/proto/index.ts');
  const src = envoyProtos().source;
  console.log(
    `Envoy protos: ${src.package} ${src.version}, ${src.files} files, ${kb(src.bytes)} descriptors (binary, no source info); ${src.omitted.length} files omitted`,
  );

  // Cold load, in fresh processes (tsx compiles our sources there, so import time includes that).
  const cold = [] as { importMs: number; registryMs: number; firstCheckMs: number; firstCdsMs: number }[];
  for (let i = 0; i < RUNS; i++)
    cold.push(JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', SELF, '--cold-child'], { cwd: ROOT, encoding: 'utf8' })));
  console.log(
    `cold: import ${ms(median(cold.map((c) => c.importMs)))} (tsx included), decode + registry ${ms(median(cold.map((c) => c.registryMs)))}, first check ${ms(median(cold.map((c) => c.firstCheckMs)))}, then a first 1,000-cluster CDS ${ms(median(cold.map((c) => c.firstCdsMs)))} (median of ${RUNS})`,
  );

  // Warm: a 1,000-cluster CDS.
  for (const n of [1000, 5000]) {
    const dump = cds(n);
    const json = JSON.stringify(dump);
    const first = checkConfigDump(dump);
    if (first.length) throw new Error(formatProblems(first.slice(0, 10)));
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      checkConfigDump(dump);
      times.push(performance.now() - t0);
    }
    console.log(`check a ${n.toLocaleString('en')}-cluster CDS (${(json.length / 1e6).toFixed(1)} MB of JSON): ${ms(median(times))} (median of ${RUNS}, warm)`);
  }

  // What the worker would load: the check bundled for the browser.
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [`${ROOT}src/core/xds/proto/index.ts`],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const bytes = out.outputFiles[0]!.contents;
  console.log(`browser bundle of src/core/xds/proto: ${kb(bytes.length)} minified, ${kb(gzipSync(bytes).length)} gzipped (descriptors included)`);
}

if (process.argv.includes('--cold-child')) await coldChild();
else await main();
