// Target `oracle-xds`: our generated xDS against istiod's own generator (issue #29), on generated
// workspaces: a base mesh (the Bookinfo sample; Bookinfo with the `xds-simulate` target's routes,
// fuzz/oracles/routes-networking.yaml; or a small mesh of scripts/oracle/xdsMesh.ts), some of its
// documents dropped, plus generated Istio config (VirtualServices, DestinationRules, Sidecars,
// PeerAuthentications, ServiceEntries, Gateways, written for the base's hosts and namespaces) and
// Istio config documents of the seed corpus (fuzz/gen/seeds.ts) moved into the base's namespace.
// For one or two of the workspace's sidecar and gateway proxies, the clusters, listeners, routes
// and endpoints of ours (the proxyConfig query) are compared with those of `xds-oracle --serve`
// (oracle/cmd/xds-oracle, built by `npm run oracle -- build`) through the xds oracle's normaliser
// and comparison (scripts/oracle/xdsCompare.ts): the same as `npm run oracle -- xds` does.
//
// A differing resource is counted under its known cause (KNOWN_CAUSES) or under a signature of
// its first differing field; the first input of each new signature is minimised (documents
// dropped one at a time while the signature stays) and written with both sides' resource to
// reports/oracle/fuzz-oracle-xds.json. report() fails the run for a signature not known.
// Without the xds-oracle binary the target is SKIPPED (CI never builds the oracle).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import type { Seeds } from '../gen/seeds.ts';
import type { CheckOptions, CheckOutcome, Target, TargetReport } from '../target.ts';
import { answerQuery, type QueryState } from '../../src/core/queries/index.ts';
import { envoyProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import type { ProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import type { Normalisation } from '../../scripts/oracle/xdsNormalise.ts';
import { analyze, compareResources, workspaceFacts, oursFromDump, theirsFromOracle, TYPES, workloadsFile, type Obj } from '../../scripts/oracle/xdsCompare.ts';
import { XdsServer, XDS_ORACLE_BIN, type XdsRejected } from '../../scripts/oracle/xdsServer.ts';
import { xdsMesh } from '../../scripts/oracle/xdsMesh.ts';
import { RUNS_DIR } from '../../scripts/oracle/xdsFuzzRuns.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const REPORT_FILE = join(ROOT, 'reports', 'oracle', 'fuzz-oracle-xds.json');
/**
 * Each run's counts go to RUNS_DIR, rewritten every CHECKPOINT_EVERY inputs and at its end: a run
 * of 100,000 inputs takes about 10 hours on a 2-core machine, longer than a working session, so
 * the counts of a run stopped early are kept; `npm run oracle -- xds-fuzz-runs` adds them up.
 */
const CHECKPOINT_EVERY = 100;
const SAMPLES = join(ROOT, 'public', 'samples');

type Base = 'bookinfo' | 'routes' | 'mesh';

export interface OracleXdsCase {
  base: Base;
  /** Services of the `mesh` base (2 to 8). */
  meshSize: number;
  /** Indexes of base documents left out (modulo their number). */
  drop: number[];
  /** Generated documents (JSON text). */
  added: string[];
  /** Istio config documents of the seed corpus, moved into the base's first namespace. */
  seedDocs: string[];
  /** Proxies compared: indexes into the workspace's sidecar and gateway proxies (modulo). */
  proxies: number[];
}

// ---- the bases -------------------------------------------------------------------------------

interface BaseInfo {
  files: { path: string; text: string }[];
  namespaces: string[];
  /** Short names of its services (in namespaces[0] for bookinfo; svc-i in ns-i for mesh). */
  hosts: string[];
  subsets: string[];
}

const baseCache = new Map<string, BaseInfo>();

function docsOf(text: string): string[] {
  return text.split(/^---[ \t]*$\n?/m).filter((d) => d.trim() !== '');
}

function baseInfo(base: Base, meshSize: number): BaseInfo {
  const key = base === 'mesh' ? `mesh${meshSize}` : base;
  let b = baseCache.get(key);
  if (b) return b;
  if (base === 'mesh') {
    const files = xdsMesh(meshSize);
    b = {
      files,
      namespaces: Array.from({ length: Math.min(meshSize, 20) }, (_, i) => `ns-${i}`),
      hosts: Array.from({ length: meshSize }, (_, i) => `svc-${i}.ns-${i % 20}.svc.cluster.local`),
      subsets: ['v1', 'v2'],
    };
  } else {
    const names =
      base === 'routes'
        ? ['platform.yaml', 'bookinfo.yaml', 'destination-rules.yaml', 'pods.yaml']
        : ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];
    const files = names.map((f) => ({ path: f, text: readFileSync(join(SAMPLES, 'bookinfo', f), 'utf8') }));
    if (base === 'routes') files.push({ path: 'networking.yaml', text: readFileSync(join(ROOT, 'fuzz', 'oracles', 'routes-networking.yaml'), 'utf8') });
    b = { files, namespaces: ['bookinfo'], hosts: ['productpage', 'reviews', 'ratings', 'details'], subsets: ['v1', 'v2', 'v3'] };
  }
  baseCache.set(key, b);
  return b;
}

// ---- generated config ------------------------------------------------------------------------

/** Hosts a generated document refers to: the base's, and a few outside it. */
const hostArb = (b: BaseInfo) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...b.hosts) },
    { weight: 1, arbitrary: fc.constantFrom('api.example.org', '*.example.org', 'httpbin.example.org', 'unknown.svc') },
  );
const nsArb = (b: BaseInfo) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...b.namespaces) }, { weight: 1, arbitrary: fc.constant('istio-system') });
const nameArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}[a-z0-9]$/);
const durationArb = fc.constantFrom('1s', '0.5s', '2s', '10s', '250ms', '1m');

function stringMatchArb() {
  return fc.oneof(
    fc.record({ exact: fc.constantFrom('/', '/api', '/reviews/1', 'jason', 'GET') }),
    fc.record({ prefix: fc.constantFrom('/', '/api', '/static', '/reviews') }),
    fc.record({ regex: fc.constantFrom('/api/v[0-9]+/.*', '.*', '^/x$') }),
  );
}

function httpRouteArb(b: BaseInfo) {
  const dest = fc.record(
    {
      host: hostArb(b),
      subset: fc.option(fc.constantFrom(...b.subsets), { nil: undefined }),
      port: fc.option(fc.record({ number: fc.constantFrom(80, 9080, 8080) }), { nil: undefined }),
    },
    { requiredKeys: ['host'] },
  );
  const routeList = fc.oneof(
    dest.map((d) => [{ destination: d }]),
    fc.tuple(dest, dest, fc.integer({ min: 0, max: 100 })).map(([a, c, w]) => [
      { destination: a, weight: w },
      { destination: c, weight: 100 - w },
    ]),
  );
  const match = fc.record(
    {
      uri: stringMatchArb(),
      headers: fc.dictionary(fc.constantFrom('end-user', 'x-canary'), stringMatchArb(), { maxKeys: 1 }),
      method: stringMatchArb(),
      ignoreUriCase: fc.boolean(),
      queryParams: fc.dictionary(fc.constantFrom('v', 'debug'), stringMatchArb(), { maxKeys: 1 }),
    },
    { requiredKeys: [] },
  );
  const extras = fc.record(
    {
      timeout: durationArb,
      retries: fc.record(
        {
          attempts: fc.integer({ min: 0, max: 5 }),
          perTryTimeout: durationArb,
          retryOn: fc.constantFrom('5xx', 'connect-failure,refused-stream', 'gateway-error'),
        },
        { requiredKeys: ['attempts'] },
      ),
      fault: fc.oneof(
        fc.record({ delay: fc.record({ fixedDelay: durationArb, percentage: fc.record({ value: fc.constantFrom(0, 10, 50, 100) }) }) }),
        fc.record({ abort: fc.record({ httpStatus: fc.constantFrom(400, 503), percentage: fc.record({ value: fc.constantFrom(10, 100) }) }) }),
      ),
      mirror: fc.record({ host: hostArb(b) }),
      rewrite: fc.record({ uri: fc.constantFrom('/', '/v2', '/new') }),
      headers: fc.record({
        request: fc.record(
          { set: fc.dictionary(fc.constantFrom('x-a', 'x-b'), fc.constantFrom('1', 'v')), remove: fc.constantFrom(['x-c']) },
          { requiredKeys: [] },
        ),
      }),
      corsPolicy: fc.record(
        { allowOrigins: fc.constant([{ exact: 'https://example.org' }]), allowMethods: fc.constant(['GET', 'POST']), maxAge: durationArb },
        { requiredKeys: ['allowOrigins'] },
      ),
    },
    { requiredKeys: [] },
  );
  const redirect = fc.record({
    redirect: fc.record(
      { uri: fc.constantFrom('/x', '/'), authority: fc.constantFrom('example.org'), redirectCode: fc.constantFrom(301, 302) },
      { requiredKeys: ['uri'] },
    ),
  });
  const direct = fc.record({
    directResponse: fc.record(
      { status: fc.constantFrom(200, 404, 503), body: fc.record({ string: fc.constantFrom('ok', 'nope') }) },
      { requiredKeys: ['status'] },
    ),
  });
  return fc
    .tuple(
      fc.option(fc.array(match, { minLength: 1, maxLength: 2 }), { nil: undefined }),
      fc.oneof(
        { weight: 6, arbitrary: fc.tuple(routeList, extras).map(([route, e]) => ({ route, ...e })) },
        { weight: 1, arbitrary: redirect },
        { weight: 1, arbitrary: direct },
      ),
    )
    .map(([m, r]) => ({ ...(m ? { match: m } : {}), ...r }));
}

function virtualServiceArb(b: BaseInfo) {
  return fc
    .record({
      name: nameArb,
      namespace: nsArb(b),
      hosts: fc.array(hostArb(b), { minLength: 1, maxLength: 2 }),
      gateways: fc.option(fc.constantFrom(['mesh'], ['bookinfo-gateway'], ['mesh', 'gw'], ['gw']), { nil: undefined }),
      http: fc.array(httpRouteArb(b), { minLength: 1, maxLength: 3 }),
      exportTo: fc.option(fc.constantFrom(['.'], ['*']), { nil: undefined }),
    })
    .map((v) => ({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: `vs-${v.name}`, namespace: v.namespace },
      spec: { hosts: [...new Set(v.hosts)], ...(v.gateways ? { gateways: v.gateways } : {}), http: v.http, ...(v.exportTo ? { exportTo: v.exportTo } : {}) },
    }));
}

function trafficPolicyArb() {
  return fc.record(
    {
      loadBalancer: fc.oneof(
        fc.record({ simple: fc.constantFrom('ROUND_ROBIN', 'LEAST_REQUEST', 'RANDOM', 'PASSTHROUGH') }),
        fc.record({
          consistentHash: fc.oneof(
            fc.record({ httpHeaderName: fc.constant('x-user') }),
            fc.record({ useSourceIp: fc.constant(true) }),
            fc.record({ httpCookie: fc.record({ name: fc.constant('c'), ttl: durationArb }) }),
          ),
        }),
      ),
      connectionPool: fc.record(
        {
          tcp: fc.record({ maxConnections: fc.integer({ min: 1, max: 1000 }), connectTimeout: durationArb }, { requiredKeys: [] }),
          http: fc.record(
            {
              http1MaxPendingRequests: fc.integer({ min: 1, max: 100 }),
              http2MaxRequests: fc.integer({ min: 1, max: 1000 }),
              maxRequestsPerConnection: fc.integer({ min: 0, max: 10 }),
              idleTimeout: durationArb,
              h2UpgradePolicy: fc.constantFrom('UPGRADE', 'DO_NOT_UPGRADE'),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      outlierDetection: fc.record(
        {
          consecutive5xxErrors: fc.integer({ min: 0, max: 10 }),
          interval: durationArb,
          baseEjectionTime: durationArb,
          maxEjectionPercent: fc.integer({ min: 0, max: 100 }),
        },
        { requiredKeys: [] },
      ),
      tls: fc.oneof(
        fc.record({ mode: fc.constantFrom('ISTIO_MUTUAL', 'DISABLE') }),
        fc.record({ mode: fc.constant('SIMPLE'), sni: fc.constantFrom('example.org', 'api.example.org') }, { requiredKeys: ['mode'] }),
      ),
    },
    { requiredKeys: [] },
  );
}

function destinationRuleArb(b: BaseInfo) {
  return fc
    .record({
      name: nameArb,
      namespace: nsArb(b),
      host: hostArb(b),
      trafficPolicy: fc.option(trafficPolicyArb(), { nil: undefined }),
      portLevel: fc.option(fc.tuple(fc.constantFrom(80, 9080, 8080), trafficPolicyArb()), { nil: undefined }),
      subsets: fc
        .subarray(b.subsets)
        .chain((names) =>
          fc
            .array(fc.option(trafficPolicyArb(), { nil: undefined }), { minLength: names.length, maxLength: names.length })
            .map((tps) => names.map((n, i) => ({ name: n, labels: { version: n }, ...(tps[i] ? { trafficPolicy: tps[i] } : {}) }))),
        ),
    })
    .map((d) => {
      const tp =
        d.trafficPolicy || d.portLevel
          ? {
              ...(d.trafficPolicy ?? {}),
              ...(d.portLevel
                ? {
                    portLevelSettings: [
                      {
                        port: { number: d.portLevel[0] },
                        ...(({ loadBalancer, connectionPool, outlierDetection, tls }) => ({
                          ...(loadBalancer ? { loadBalancer } : {}),
                          ...(connectionPool ? { connectionPool } : {}),
                          ...(outlierDetection ? { outlierDetection } : {}),
                          ...(tls ? { tls } : {}),
                        }))(d.portLevel[1]),
                      },
                    ],
                  }
                : {}),
            }
          : undefined;
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'DestinationRule',
        metadata: { name: `dr-${d.name}`, namespace: d.namespace },
        spec: { host: d.host, ...(tp ? { trafficPolicy: tp } : {}), ...(d.subsets.length ? { subsets: d.subsets } : {}) },
      };
    });
}

function sidecarArb(b: BaseInfo) {
  return fc
    .record({
      namespace: fc.constantFrom(...b.namespaces),
      selector: fc.option(fc.constantFrom({ app: 'reviews' }, { app: 'productpage' }, { app: 'svc-0' }, { app: 'svc-1' }, { version: 'v1' }), {
        nil: undefined,
      }),
      hosts: fc.array(
        fc.constantFrom('./*', '*/*', 'istio-system/*', `${b.namespaces[0]}/*`, './reviews.bookinfo.svc.cluster.local', '*/api.example.org', `ns-1/*`),
        { minLength: 1, maxLength: 3 },
      ),
      mode: fc.option(fc.constantFrom('REGISTRY_ONLY', 'ALLOW_ANY'), { nil: undefined }),
      egressPort: fc.option(fc.record({ number: fc.constantFrom(80, 9080, 8080), protocol: fc.constantFrom('HTTP', 'TCP'), name: fc.constant('p') }), {
        nil: undefined,
      }),
    })
    .map((s) => ({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: s.selector ? `sc-${Object.values(s.selector)[0]}` : 'default', namespace: s.namespace },
      spec: {
        ...(s.selector ? { workloadSelector: { labels: s.selector } } : {}),
        egress: [{ ...(s.egressPort ? { port: s.egressPort } : {}), hosts: [...new Set(s.hosts)] }],
        ...(s.mode ? { outboundTrafficPolicy: { mode: s.mode } } : {}),
      },
    }));
}

function peerAuthenticationArb(b: BaseInfo) {
  return fc
    .record({
      namespace: nsArb(b),
      selector: fc.option(fc.constantFrom({ app: 'reviews' }, { app: 'ratings' }, { app: 'svc-0' }, { app: 'svc-1' }), { nil: undefined }),
      mode: fc.constantFrom('STRICT', 'PERMISSIVE', 'DISABLE', 'UNSET'),
      port: fc.option(fc.tuple(fc.constantFrom(9080, 8080), fc.constantFrom('STRICT', 'PERMISSIVE', 'DISABLE')), { nil: undefined }),
    })
    .map((p) => ({
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: p.selector ? `pa-${p.selector.app}` : 'default', namespace: p.namespace },
      spec: {
        ...(p.selector ? { selector: { matchLabels: p.selector } } : {}),
        mtls: { mode: p.mode },
        ...(p.port && p.selector ? { portLevelMtls: { [p.port[0]]: { mode: p.port[1] } } } : {}),
      },
    }));
}

function serviceEntryArb(b: BaseInfo) {
  return fc
    .record({
      name: nameArb,
      namespace: nsArb(b),
      hosts: fc.array(fc.constantFrom('api.example.org', '*.example.org', 'httpbin.example.org', 'db.internal', 'legacy.svc'), { minLength: 1, maxLength: 2 }),
      ports: fc.array(
        fc.record(
          {
            number: fc.constantFrom(80, 443, 8080, 5432),
            protocol: fc.constantFrom('HTTP', 'HTTPS', 'TLS', 'TCP', 'GRPC', 'HTTP2'),
            targetPort: fc.option(fc.constantFrom(8443, 9000), { nil: undefined }),
          },
          { requiredKeys: ['number', 'protocol'] },
        ),
        { minLength: 1, maxLength: 2 },
      ),
      location: fc.constantFrom('MESH_EXTERNAL', 'MESH_INTERNAL'),
      resolution: fc.constantFrom('DNS', 'STATIC', 'NONE', 'DNS_ROUND_ROBIN'),
      endpoints: fc.array(
        fc.record(
          {
            address: fc.constantFrom('10.10.0.1', '10.10.0.2', '192.168.1.5'),
            labels: fc.constantFrom({ version: 'v1' }, { version: 'v2' }, {}),
            serviceAccount: fc.option(fc.constantFrom('db', 'default'), { nil: undefined }),
          },
          { requiredKeys: ['address'] },
        ),
        { maxLength: 2 },
      ),
      addresses: fc.option(fc.constantFrom(['10.96.200.10'], ['240.0.0.1']), { nil: undefined }),
      exportTo: fc.option(fc.constantFrom(['.'], ['*']), { nil: undefined }),
    })
    .map((s) => {
      const ports = [...new Map(s.ports.map((p) => [p.number, p])).values()].map((p) => ({
        number: p.number,
        name: `${p.protocol.toLowerCase()}-${p.number}`,
        protocol: p.protocol,
        ...(p.targetPort ? { targetPort: p.targetPort } : {}),
      }));
      // STATIC needs endpoints; a wildcard host cannot be resolved by DNS (both are refused by validation).
      const resolution =
        s.resolution === 'STATIC' && s.endpoints.length === 0
          ? 'NONE'
          : s.hosts.some((h) => h.startsWith('*')) && s.resolution.startsWith('DNS')
            ? 'NONE'
            : s.resolution;
      const endpoints =
        resolution === 'NONE'
          ? []
          : s.endpoints.map((e) => ({
              address: e.address,
              ...(e.labels && Object.keys(e.labels).length ? { labels: e.labels } : {}),
              ...(e.serviceAccount ? { serviceAccount: e.serviceAccount } : {}),
            }));
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'ServiceEntry',
        metadata: { name: `se-${s.name}`, namespace: s.namespace },
        spec: {
          hosts: [...new Set(s.hosts)],
          ...(s.addresses && resolution !== 'NONE' ? { addresses: s.addresses } : {}),
          ports,
          location: s.location,
          resolution,
          ...(endpoints.length ? { endpoints } : {}),
          ...(s.exportTo ? { exportTo: s.exportTo } : {}),
        },
      };
    });
}

function gatewayArb(b: BaseInfo) {
  return fc
    .record({
      namespace: nsArb(b),
      servers: fc.array(
        fc.record({
          port: fc.constantFrom(
            { number: 80, name: 'http', protocol: 'HTTP' },
            { number: 443, name: 'https', protocol: 'HTTPS' },
            { number: 443, name: 'tls', protocol: 'TLS' },
            { number: 8080, name: 'http2', protocol: 'HTTP2' },
            { number: 31400, name: 'tcp', protocol: 'TCP' },
          ),
          hosts: fc.array(fc.constantFrom('*', '*.example.org', 'bookinfo.example.com', `${b.namespaces[0]}/*`, 'api.example.org'), {
            minLength: 1,
            maxLength: 2,
          }),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    })
    .map((g) => ({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Gateway',
      metadata: { name: 'gw', namespace: g.namespace },
      spec: {
        selector: { istio: 'ingressgateway' },
        servers: g.servers.map((s) => ({
          port: s.port,
          hosts: [...new Set(s.hosts)],
          ...(s.port.protocol === 'HTTPS'
            ? { tls: { mode: 'SIMPLE', credentialName: 'gw-cert' } }
            : s.port.protocol === 'TLS'
              ? { tls: { mode: 'PASSTHROUGH' } }
              : {}),
        })),
      },
    }));
}

function addedArb(b: BaseInfo): fc.Arbitrary<string[]> {
  const doc = fc.oneof(
    { weight: 4, arbitrary: virtualServiceArb(b) },
    { weight: 3, arbitrary: destinationRuleArb(b) },
    { weight: 1, arbitrary: sidecarArb(b) },
    { weight: 1, arbitrary: peerAuthenticationArb(b) },
    { weight: 2, arbitrary: serviceEntryArb(b) },
    { weight: 1, arbitrary: gatewayArb(b) },
  );
  return fc.array(doc, { maxLength: 5 }).map((docs) => docs.map((d) => JSON.stringify(d, null, 1)));
}

/** The seed corpus's Istio networking and security config documents (not EnvoyFilters: their patches are not applied yet, issue #33). */
let seedPool: string[] | undefined;
function seedConfig(seeds: Seeds): string[] {
  seedPool ??= seeds.documents.filter(
    (d) =>
      /^apiVersion:\s*(networking|security)\.istio\.io\//m.test(d) &&
      /^kind:\s*(VirtualService|DestinationRule|ServiceEntry|Sidecar|PeerAuthentication|Gateway|AuthorizationPolicy|RequestAuthentication|WorkloadEntry)\s*$/m.test(
        d,
      ) &&
      d.length < 4000,
  );
  return seedPool;
}

export function oracleXdsArb(seeds: Seeds): fc.Arbitrary<OracleXdsCase> {
  const pool = seedConfig(seeds);
  return fc.record({ base: fc.constantFrom<Base>('bookinfo', 'routes', 'mesh'), meshSize: fc.integer({ min: 2, max: 8 }) }).chain(({ base, meshSize }) => {
    const b = baseInfo(base, meshSize);
    return fc.record({
      base: fc.constant(base),
      meshSize: fc.constant(meshSize),
      drop: fc.array(fc.nat(200), { maxLength: 2 }),
      added: addedArb(b),
      seedDocs: pool.length ? fc.array(fc.constantFrom(...pool), { maxLength: 2 }) : fc.constant([]),
      proxies: fc.array(fc.nat(50), { minLength: 1, maxLength: 2 }),
    });
  });
}

// ---- one input ------------------------------------------------------------------------------

/** A workspace's files: the base (documents dropped), then one file of additions. */
export function caseFiles(c: OracleXdsCase): { path: string; text: string }[] {
  const b = baseInfo(c.base, c.meshSize);
  const docs = b.files.flatMap((f) => docsOf(f.text).map((text) => ({ path: f.path, text })));
  const dropped = new Set(c.drop.map((i) => i % docs.length));
  const files = new Map<string, string[]>();
  docs.forEach((d, i) => {
    if (dropped.has(i)) return;
    files.set(d.path, [...(files.get(d.path) ?? []), d.text]);
  });
  const ns = b.namespaces[0] as string;
  const moved = c.seedDocs.map((d) =>
    /^ {2}namespace:/m.test(d) ? d.replace(/^ {2}namespace:.*$/m, `  namespace: ${ns}`) : d.replace(/^metadata:\s*$/m, `metadata:\n  namespace: ${ns}`),
  );
  const extra = [...c.added, ...moved];
  const out = [...files].map(([path, ds]) => ({ path, text: ds.map((d) => (d.endsWith('\n') ? d : `${d}\n`)).join('---\n') }));
  if (extra.length) out.push({ path: 'added.yaml', text: extra.map((d) => (d.endsWith('\n') ? d : `${d}\n`)).join('---\n') });
  return out;
}

interface Difference {
  /** Known cause id, or a signature of the first differing field. */
  cause: string;
  known: boolean;
  proxy: string;
  type: string;
  name: string;
  istiod?: unknown;
  ours?: unknown;
  fields?: unknown;
}

interface Compared {
  /** The oracle could not load the workspace or make a proxy (why), or undefined. */
  skipped?: string;
  /** Istio config objects left out because Istio's validation refuses them. */
  rejected?: number;
  proxies: number;
  resources: number;
  differences: Difference[];
}

let server: XdsServer | undefined;
let schema: ProtoSchema | undefined;
const normalisations = new Map<string, Normalisation>();

/** A differing resource's signature: the type and its first differing field path, indexes folded. */
function signature(type: string, path: string): string {
  return `${type}: ${path.replace(/\[\d+\]/g, '[]')}`;
}

/** The files without the documents of the rejected objects (kind, namespace and name). */
function withoutRejected(files: { path: string; text: string }[], rejected: readonly XdsRejected[]): { path: string; text: string }[] {
  const keys = new Set(rejected.map((r) => `${r.kind}/${r.namespace}/${r.name}`));
  return files.map((f) => ({
    path: f.path,
    text: docsOf(f.text)
      .filter((d) => {
        let o: { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | undefined;
        try {
          o = parseYaml(d) as typeof o;
        } catch {
          return true;
        }
        return !keys.has(`${String(o?.kind)}/${String(o?.metadata?.namespace ?? 'default')}/${String(o?.metadata?.name)}`);
      })
      .map((d) => (d.endsWith('\n') ? d : `${d}\n`))
      .join('---\n'),
  }));
}

export async function compareCase(c: OracleXdsCase): Promise<Compared> {
  server ??= new XdsServer();
  schema ??= await envoyProtoSchema();
  let files = caseFiles(c);
  let state: QueryState | undefined;
  let picked: { id: string; type: string }[] = [];
  let answer: Awaited<ReturnType<XdsServer['generate']>> | undefined;
  let rejected = 0;
  // Istio config that Istio's validation refuses would never be in a cluster (the webhook
  // refuses it): when the oracle reports such objects, both sides run again without them.
  for (let round = 0; round < 2; round++) {
    try {
      state = await analyze(files);
    } catch (e) {
      return { skipped: `ours: ${(e as Error).message}`, proxies: 0, resources: 0, differences: [] };
    }
    const all = answerQuery('proxies', {}, state).items.filter((p) => p.type === 'sidecar' || p.type === 'router');
    if (all.length === 0) return { skipped: 'no sidecar or gateway proxy', proxies: 0, resources: 0, differences: [] };
    picked = [...new Map(c.proxies.map((i) => all[i % all.length]!).map((p) => [p.id, p])).values()];
    answer = await server.generate(
      [...files.map((f) => ({ name: f.path, text: f.text })), { name: 'workloads.yaml', text: workloadsFile(state) }],
      picked.map((p) => ({ name: p.id, type: p.type as 'sidecar' | 'router' })),
    );
    if (answer.error || answer.rejected.length === 0) break;
    rejected += answer.rejected.length;
    files = withoutRejected(files, answer.rejected);
    answer = undefined;
  }
  if (!answer || !state) return { skipped: 'xds-oracle: still rejected objects after one round', proxies: 0, resources: 0, differences: [] };
  if (answer.error) return { skipped: `xds-oracle: ${answer.error.replace(/\d+/g, 'N').slice(0, 120)}`, proxies: 0, resources: 0, differences: [] };
  const facts = workspaceFacts(files.map((f) => f.text));
  const out: Compared = { rejected, proxies: 0, resources: 0, differences: [] };
  for (const [i, p] of picked.entries()) {
    const theirsRaw = answer.proxies[i];
    if (!theirsRaw || theirsRaw.error) {
      out.skipped = `xds-oracle: ${(theirsRaw?.error ?? 'no answer').replace(/\d+/g, 'N').slice(0, 120)}`;
      continue;
    }
    const theirs = theirsFromOracle(theirsRaw as unknown as Obj);
    const ours = oursFromDump(answerQuery('proxyConfig', { proxy: p.id }, state).dump);
    const cmp = compareResources(theirs, ours, facts, schema, normalisations);
    out.proxies++;
    for (const t of TYPES) {
      const cell = cmp[t];
      out.resources += cell.agree.length + cell.differ.length + cell.onlyIstiod.length + cell.onlyOurs.length;
      for (const d of cell.differ) {
        const first = d.fields[0]!;
        out.differences.push({
          cause: d.cause ?? signature(t, first.path),
          known: d.cause !== undefined,
          proxy: p.id,
          type: t,
          name: d.name,
          istiod: theirs[t].get(d.name),
          ours: ours[t].get(d.name),
          fields: d.fields.slice(0, 8),
        });
      }
      const kindOf = (name: string) => name.replace(/\|[^|]*$/, '|HOST').replace(/\d+/g, 'N');
      const missing = (n: string, fallback: string) =>
        cell.missingCauses?.[n] ? { cause: cell.missingCauses[n] as string, known: true } : { cause: fallback, known: false };
      for (const n of cell.onlyIstiod)
        out.differences.push({ ...missing(n, `${t} only istiod's: ${kindOf(n)}`), proxy: p.id, type: t, name: n, istiod: theirs[t].get(n) });
      for (const n of cell.onlyOurs)
        out.differences.push({ ...missing(n, `${t} only ours: ${kindOf(n)}`), proxy: p.id, type: t, name: n, ours: ours[t].get(n) });
    }
  }
  return out;
}

// ---- minimising -------------------------------------------------------------------------------

/** Drops documents (additions first, then the base's) while `still` holds; at most `budget` comparisons. */
async function minimise(c: OracleXdsCase, cause: string, budget = 60): Promise<OracleXdsCase> {
  let cur = c;
  let tries = 0;
  const still = async (x: OracleXdsCase) => {
    tries++;
    const r = await compareCase(x);
    return r.differences.some((d) => d.cause === cause);
  };
  // additions and seed documents, one at a time
  for (const key of ['added', 'seedDocs'] as const) {
    for (let i = cur[key].length - 1; i >= 0 && tries < budget; i--) {
      const next = { ...cur, [key]: cur[key].filter((_, j) => j !== i) };
      if (await still(next)) cur = next;
    }
  }
  // a smaller mesh
  while (cur.base === 'mesh' && cur.meshSize > 1 && tries < budget) {
    const next = { ...cur, meshSize: cur.meshSize - 1 };
    if (await still(next)) cur = next;
    else break;
  }
  // base documents, one at a time (drop indexes into the original list; base docs are re-indexed after each drop, so work on absolute indexes)
  const b = baseInfo(cur.base, cur.meshSize);
  const total = b.files.reduce((n, f) => n + docsOf(f.text).length, 0);
  for (let i = total - 1; i >= 0 && tries < budget; i--) {
    const dropped = new Set(cur.drop.map((d) => d % total));
    if (dropped.has(i)) continue;
    const next = { ...cur, drop: [...dropped, i] };
    if (await still(next)) cur = next;
  }
  if (cur.proxies.length > 1 && tries < budget) {
    for (const p of cur.proxies) {
      const next = { ...cur, proxies: [p] };
      if (await still(next)) {
        cur = next;
        break;
      }
    }
  }
  return cur;
}

// ---- counts and report --------------------------------------------------------------------------

interface CauseEntry {
  count: number;
  inputs: number;
  known: boolean;
  example?: { case: OracleXdsCase; files: { path: string; text: string }[]; difference: Difference; minimised: boolean };
}

let inputs = 0;
let rejectedObjects = 0;
let inputsWithRejected = 0;
let compared = 0;
let comparedProxies = 0;
let comparedResources = 0;
let identical = 0;
const skipped = new Map<string, number>();
const causes = new Map<string, CauseEntry>();
const t0 = Date.now();
/** New causes minimised (each costs up to 60 comparisons): the rest keep their first input. */
const MINIMISE_LIMIT = 12;
let minimised = 0;

let runSeed: number | undefined;
const runStarted = new Date().toISOString();

async function check(c: OracleXdsCase, options: CheckOptions): Promise<CheckOutcome> {
  runSeed ??= options.seed;
  if (inputs > 0 && inputs % CHECKPOINT_EVERY === 0) {
    writeRunCounts(true);
    // The (minimised) inputs of new causes too: a run stopped before its end keeps them.
    writeReportFile();
  }
  inputs++;
  const r = await compareCase(c);
  if (r.rejected) {
    rejectedObjects += r.rejected;
    inputsWithRejected++;
  }
  if (r.skipped && r.proxies === 0) {
    skipped.set(r.skipped, (skipped.get(r.skipped) ?? 0) + 1);
    return 'skipped';
  }
  compared++;
  comparedProxies += r.proxies;
  comparedResources += r.resources;
  if (r.differences.length === 0) identical++;
  const seen = new Set<string>();
  for (const d of r.differences) {
    let e = causes.get(d.cause);
    if (!e) causes.set(d.cause, (e = { count: 0, inputs: 0, known: d.known }));
    e.count++;
    if (!seen.has(d.cause)) {
      seen.add(d.cause);
      e.inputs++;
    }
    if (!e.example) {
      let mc = c;
      let done = false;
      if (!d.known && minimised < MINIMISE_LIMIT) {
        minimised++;
        mc = await minimise(c, d.cause);
        done = true;
      }
      const again = mc === c ? r : await compareCase(mc);
      const diff = again.differences.find((x) => x.cause === d.cause) ?? d;
      e.example = { case: mc, files: caseFiles(mc), difference: diff, minimised: done };
    }
  }
  return 'ok';
}

/** What one run counted so far (no examples: those are in REPORT_FILE); `partial` until its end. */
export interface OracleXdsRunCounts {
  seed: number | null;
  started: string;
  updated: string;
  partial: boolean;
  seconds: number;
  inputs: number;
  compared: number;
  comparedProxies: number;
  comparedResources: number;
  identical: number;
  rejectedObjects: number;
  inputsWithRejected: number;
  skipped: Record<string, number>;
  causes: Record<string, { inputs: number; count: number; known: boolean }>;
}

function writeRunCounts(partial: boolean): void {
  const counts: OracleXdsRunCounts = {
    seed: runSeed ?? null,
    started: runStarted,
    updated: new Date().toISOString(),
    partial,
    seconds: Math.round((Date.now() - t0) / 1000),
    // A checkpoint is written before the next input starts: every input counted is finished.
    inputs,
    compared,
    comparedProxies,
    comparedResources,
    identical,
    rejectedObjects,
    inputsWithRejected,
    skipped: Object.fromEntries(skipped),
    causes: Object.fromEntries([...causes].map(([c, e]) => [c, { inputs: e.inputs, count: e.count, known: e.known }])),
  };
  mkdirSync(RUNS_DIR, { recursive: true });
  writeFileSync(join(RUNS_DIR, `seed-${runSeed ?? 'none'}-${runStarted.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(counts, null, 1)}\n`);
}

function causesByInputs(): Array<[string, CauseEntry]> {
  return [...causes].sort((a, b) => b[1].inputs - a[1].inputs);
}

/** REPORT_FILE: the counts so far, and the (minimised) first input of each cause with both sides' resource. */
function writeReportFile(): void {
  mkdirSync(join(ROOT, 'reports', 'oracle'), { recursive: true });
  writeFileSync(
    REPORT_FILE,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        seconds: (Date.now() - t0) / 1000,
        inputs,
        rejectedObjects,
        inputsWithRejected,
        compared,
        comparedProxies,
        comparedResources,
        identical,
        skipped: Object.fromEntries(skipped),
        normalisations: [...normalisations.values()],
        causes: Object.fromEntries(causesByInputs()),
      },
      null,
      1,
    ),
  );
}

function report(): TargetReport {
  writeRunCounts(false);
  const seconds = (Date.now() - t0) / 1000;
  const list = causesByInputs();
  const unknown = list.filter(([, e]) => !e.known);
  const differInputs = compared - identical;
  const lines = [
    `oracle-xds: ${inputs.toLocaleString('en-US')} inputs in ${seconds.toFixed(0)} s (${(inputs / Math.max(seconds, 1)).toFixed(2)}/s), ${compared.toLocaleString('en-US')} compared (${comparedProxies.toLocaleString('en-US')} proxies, ${comparedResources.toLocaleString('en-US')} resources), ${identical.toLocaleString('en-US')} identical, ${differInputs.toLocaleString('en-US')} with a difference; ${server?.runs ?? 0} xds-oracle requests, ${server?.recycled ?? 0} fresh processes, ${server?.restarts ?? 0} crashes`,
    `  Istio config refused by Istio's validation (left out on both sides, as the webhook would refuse it): ${rejectedObjects} objects in ${inputsWithRejected} inputs`,
    ...[...skipped]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([w, n]) => `  skipped: ${n}  ${w}`),
    ...list.map(([c, e]) => `  ${e.known ? 'known' : 'differ'}: ${e.inputs} inputs, ${e.count} resources  ${c}`),
  ];
  writeReportFile();
  lines.push(`counts, and the (minimised) first input of each cause with both sides' resource: ${REPORT_FILE}`);
  server?.close();
  const failure =
    compared === 0
      ? 'compared nothing'
      : unknown.length > 0
        ? `${unknown.reduce((n, [, e]) => n + e.inputs, 0)} inputs differ from istiod for ${unknown.length} causes not in KNOWN_CAUSES`
        : undefined;
  return { lines, ...(failure ? { failure } : {}) };
}

export const oracleXdsTarget: Target<OracleXdsCase> = {
  name: 'oracle-xds',
  description: "our generated clusters/listeners/routes/endpoints against istiod's generator (xds-oracle --serve) for 1-2 proxies of mutated meshes",
  arbitrary: oracleXdsArb,
  check,
  async: true,
  smokeRuns: 50,
  onlyWhenNamed: true,
  unavailable: () => (XdsServer.available() ? undefined : `xds-oracle is not built (${XDS_ORACLE_BIN}; run npm run oracle -- build, which needs Go)`),
  report,
};
