// Conformance part xds/gateway-api: Istio's TestConvertResources cases (pilot/pkg/config/kube/
// gateway/testdata). Each `<case>.yaml` is converted with the fixture istiod's test uses (domain
// suffix `domain.suffix`, a fixed service registry, a few Secrets and ConfigMaps, a Namespace per
// namespace of the input), and compared structurally with `<case>.yaml.golden` (generated Istio
// config, in order) and `<case>.status.yaml.golden` (status written back; timestamps masked).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import type { CaseResult } from './types.ts';
import { convertGatewayApi, inferencePoolServiceName, type RegistryService, type GatewayApiResult } from '../../src/core/config/gatewayApi/convert.ts';
import type { GwObject } from '../../src/core/config/gatewayApi/objects.ts';
import { encodeBase64Std } from '../../src/core/pki/base64.ts';

const DIR = (root: string) => join(root, 'xds', 'pilot', 'pkg', 'config', 'kube', 'gateway', 'testdata');
const SUFFIX = 'domain.suffix';

const PORTS = [
  { name: 'http', port: 80 },
  { name: 'tcp', port: 34000 },
  { name: 'tcp-other', port: 34001 },
];

/** The services of `var services` in conversion_test.go: [hostname, namespace, name?, labels?, ports?]. */
function fixtureServices(): {
  hostname: string;
  namespace: string;
  name?: string;
  labels?: Record<string, string>;
  ports?: { name: string; port: number }[];
  external?: string[];
}[] {
  const d = (h: string, ns: string, name?: string) => ({ hostname: h, namespace: ns, ...(name ? { name } : {}) });
  const pool = (pool: string, ext: string, ports: { name: string; port: number }[]) => ({
    hostname: `${inferencePoolServiceName(pool)}.default.svc.${SUFFIX}`,
    namespace: 'default',
    labels: {
      'istio.io/inferencepool-extension-service': ext,
      'istio.io/inferencepool-extension-port': '9002',
      'istio.io/inferencepool-extension-failure-mode': 'FailClose',
    },
    ports,
  });
  const ipPorts = [{ name: 'http', port: 54321 }];
  return [
    {
      hostname: `istio-ingressgateway.istio-system.svc.${SUFFIX}`,
      namespace: 'istio-system',
      name: 'istio-ingressgateway',
      external: ['1.2.3.4'],
      ports: [
        { name: 'http', port: 80 },
        { name: 'https', port: 443 },
        { name: 'tcp', port: 34000 },
        { name: 'tcp-other', port: 34001 },
      ],
    },
    d('example.com', 'istio-system'),
    d(`httpbin.default.svc.${SUFFIX}`, 'default'),
    pool('infpool-gen', 'ext-proc-svc', ipPorts),
    pool('infpool-gen2', 'ext-proc-svc-2', ipPorts),
    pool('infpool-model1', 'model1-epp', PORTS),
    pool('infpool-model2', 'model2-epp', PORTS),
    d(`httpbin-apple.apple.svc.${SUFFIX}`, 'apple'),
    d(`httpbin-banana.banana.svc.${SUFFIX}`, 'banana'),
    d(`httpbin-second.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin-wildcard.default.svc.${SUFFIX}`, 'default'),
    d(`foo-svc.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin-other.default.svc.${SUFFIX}`, 'default'),
    d(`example.default.svc.${SUFFIX}`, 'default'),
    d(`echo.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin.cert.svc.${SUFFIX}`, 'cert'),
    d(`my-svc.service.svc.${SUFFIX}`, 'service'),
    d('google.com', 'default'),
    d(`a-example.allowed-1.svc.${SUFFIX}`, 'allowed-1'),
    d(`a-example.allowed-2.svc.${SUFFIX}`, 'allowed-2'),
    d(`b-example.allowed-1.svc.${SUFFIX}`, 'allowed-1'),
    d(`svc2.allowed-1.svc.${SUFFIX}`, 'allowed-1'),
    d(`svc2.allowed-2.svc.${SUFFIX}`, 'allowed-2'),
    d(`svc1.allowed-1.svc.${SUFFIX}`, 'allowed-1'),
    d(`svc3.allowed-2.svc.${SUFFIX}`, 'allowed-2'),
    d(`svc4.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin.group-namespace1.svc.${SUFFIX}`, 'group-namespace1'),
    d(`httpbin.group-namespace2.svc.${SUFFIX}`, 'group-namespace2'),
    d(`httpbin-zero.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin.istio-system.svc.${SUFFIX}`, 'istio-system'),
    d(`httpbin-mirror.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin-foo.default.svc.${SUFFIX}`, 'default'),
    d(`httpbin-alt.default.svc.${SUFFIX}`, 'default'),
    d('secure.example.net', 'default'),
    d('cross.example.net', 'allowed-1'),
    d('plaintext.example.net', 'default'),
    d('tcp.example.net', 'default'),
    d(`istiod.istio-system.svc.${SUFFIX}`, 'istio-system'),
    d(`echo.istio-system.svc.${SUFFIX}`, 'istio-system'),
    d(`httpbin-bad.default.svc.${SUFFIX}`, 'default'),
    d(`echo-1.default.svc.${SUFFIX}`, 'default', 'echo-1'),
    d(`echo-2.default.svc.${SUFFIX}`, 'default', 'echo-2'),
    d(`echo-port.default.svc.${SUFFIX}`, 'default', 'echo-port'),
    d(`not-found.default.svc.${SUFFIX}`, 'default', 'not-found'),
  ];
}

/** A well-formed self-signed certificate and key (kubectl's create_secret_tls_test.go fixture). */
const RSA_CERT = `-----BEGIN CERTIFICATE-----
MIIB0zCCAX2gAwIBAgIJAI/M7BYjwB+uMA0GCSqGSIb3DQEBBQUAMEUxCzAJBgNV
BAYTAkFVMRMwEQYDVQQIDApTb21lLVN0YXRlMSEwHwYDVQQKDBhJbnRlcm5ldCBX
aWRnaXRzIFB0eSBMdGQwHhcNMTIwOTEyMjE1MjAyWhcNMTUwOTEyMjE1MjAyWjBF
MQswCQYDVQQGEwJBVTETMBEGA1UECAwKU29tZS1TdGF0ZTEhMB8GA1UECgwYSW50
ZXJuZXQgV2lkZ2l0cyBQdHkgTHRkMFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBANLJ
hPHhITqQbPklG3ibCVxwGMRfp/v4XqhfdQHdcVfHap6NQ5Wok/4xIA+ui35/MmNa
rtNuC+BdZ1tMuVCPFZcCAwEAAaNQME4wHQYDVR0OBBYEFJvKs8RfJaXTH08W+SGv
zQyKn0H8MB8GA1UdIwQYMBaAFJvKs8RfJaXTH08W+SGvzQyKn0H8MAwGA1UdEwQF
MAMBAf8wDQYJKoZIhvcNAQEFBQADQQBJlffJHybjDGxRMqaRmDhX0+6v02TUKZsW
r5QuVbpQhH6u+0UgcW0jp9QwpxoPTLTWGXEWBBBurxFwiCBhkQ+V
-----END CERTIFICATE-----
`;
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----
MIIBOwIBAAJBANLJhPHhITqQbPklG3ibCVxwGMRfp/v4XqhfdQHdcVfHap6NQ5Wo
k/4xIA+ui35/MmNartNuC+BdZ1tMuVCPFZcCAwEAAQJAEJ2N+zsR0Xn8/Q6twa4G
6OB1M1WO+k+ztnX/1SvNeWu8D6GImtupLTYgjZcHufykj09jiHmjHx8u8ZZB/o1N
MQIhAPW+eyZo7ay3lMz1V01WVjNKK9QSn1MJlb06h/LuYv9FAiEA25WPedKgVyCW
SmUwbPw8fnTcpqDWE3yTO3vKcebqMSsCIBF3UmVue8YU3jybC3NxuXq3wNm34R8T
xVLHwDXh/6NJAiEAl2oHGGLz64BuAfjKrqwz7qMYr9HCLIe/YsoWq/olzScCIQDi
D2lWusoe2/nEqfDVVWGWlyJ7yOmqaVm/iNUN9B2N2g==
-----END RSA PRIVATE KEY-----
`;

function object(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
  labels: Record<string, string> = {},
): GwObject {
  return {
    apiVersion,
    kind,
    namespace,
    name,
    labels,
    annotations: {},
    body: { apiVersion, kind, metadata: { name, namespace, labels }, ...body },
    created: 0,
    generation: 0,
  };
}

function fixtureObjects(): GwObject[] {
  const secret = (ns: string, name: string, data: Record<string, string>) =>
    object('v1', 'Secret', ns, name, { data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, encodeBase64Std(new TextEncoder().encode(v))])) });
  const cm = (ns: string, name: string, data: Record<string, string>) => object('v1', 'ConfigMap', ns, name, { data });
  const pair = { 'tls.crt': RSA_CERT, 'tls.key': RSA_KEY };
  return [
    secret('istio-system', 'my-cert-http', { ...pair, 'ca.crt': RSA_CERT }),
    secret('ns2', 'ns2-cert', pair),
    secret('ns3', 'ns3-cert', pair),
    secret('ns4', 'ns4-cert', pair),
    secret('istio-system', 'my-cert', pair),
    secret('istio-system', 'my-cert-http2', pair),
    secret('cert', 'cert', pair),
    secret('bookinfo', 'bookinfo-secret', pair),
    secret('bookinfo', 'another-secret', pair),
    secret('istio-system', 'malformed', { 'tls.crt': 'SGVsbG8gd29ybGQK', 'tls.key': 'SGVsbG8gd29ybGQK' }),
    cm('istio-system', 'malformed', { 'not-ca.crt': 'hello' }),
    cm('istio-system', 'malformed-trustbundle', { 'ca.crt': 'hello' }),
    cm('istio-system', 'my-cert-http', { 'ca.crt': RSA_CERT }),
    cm('default', 'malformed', { 'not-ca.crt': 'hello' }),
    cm('default', 'auth-cert', { 'ca.crt': RSA_CERT }),
  ];
}

const CLUSTER_SCOPED = new Set(['GatewayClass', 'Namespace']);

function toObject(doc: Record<string, unknown>): GwObject {
  const md = (doc.metadata ?? {}) as Record<string, unknown>;
  const created = typeof md.creationTimestamp === 'string' ? Date.parse(md.creationTimestamp) || 0 : 0;
  const kind = String(doc.kind ?? '');
  return {
    apiVersion: String(doc.apiVersion ?? ''),
    kind,
    namespace: CLUSTER_SCOPED.has(kind) ? '' : String(md.namespace ?? ''),
    name: String(md.name ?? ''),
    labels: (md.labels ?? {}) as Record<string, string>,
    annotations: (md.annotations ?? {}) as Record<string, string>,
    body: doc,
    created,
    generation: typeof md.generation === 'number' ? md.generation : 0,
  };
}

function loadDocs(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  jsyaml.loadAll(
    text,
    (d) => {
      if (d && typeof d === 'object' && !Array.isArray(d)) out.push(d as Record<string, unknown>);
    },
    { schema: jsyaml.CORE_SCHEMA },
  );
  return out;
}

/** Converts one case's input with the test's fixture. */
export function convertCase(inputText: string): GatewayApiResult {
  const inputs = loadDocs(inputText).map(toObject);
  const objects: GwObject[] = [...inputs];
  const registry: RegistryService[] = [];
  for (const s of fixtureServices()) {
    const ports = s.ports ?? PORTS;
    registry.push({
      hostname: s.hostname,
      namespace: s.namespace,
      ports,
      // The test gives each service one endpoint per port; the first port's targets port 8080.
      endpointPorts: new Map(ports.map((p, i) => [p.port, [i === 0 ? 8080 : 0]])),
      addresses: [],
      externalAddresses: s.external ?? [],
      loadBalancer: false,
      labels: s.labels ?? {},
    });
    if (!s.hostname.endsWith(SUFFIX)) continue;
    const name = s.name ?? (s.hostname.split('.')[0] as string);
    objects.push(object('v1', 'Service', s.namespace, name, { spec: { ports: PORTS.map((p) => ({ ...p, protocol: 'HTTP' })) } }, s.labels ?? {}));
  }
  objects.push(...fixtureObjects());
  const namespaces = new Set(inputs.map((o) => o.namespace));
  for (const ns of namespaces) objects.push(object('v1', 'Namespace', '', ns, {}, { 'istio.io/test-name-part': ns.split('-')[0] as string }));
  return convertGatewayApi(objects, {
    domainSuffix: SUFFIX,
    now: 'fake',
    registry: { byHostname: (h) => registry.filter((s) => s.hostname === h) },
    alpha: true,
    inferenceExtension: true,
    waypoints: true,
    multiNetwork: true,
    eastWest: true,
  });
}

const STATUS_ORDER = ['GatewayClass', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute'];

/**
 * The status documents as the test's status queue dumps them: by kind (others first), then
 * namespace and name (the dump's objects carry no creation time).
 */
export function statusDocs(r: GatewayApiResult): Record<string, unknown>[] {
  const sorted = r.statuses
    .slice()
    .sort(
      (a, b) =>
        STATUS_ORDER.indexOf(a.kind) - STATUS_ORDER.indexOf(b.kind) ||
        (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  return sorted.map((s) => ({
    apiVersion: s.apiVersion,
    kind: s.kind,
    metadata: { name: s.name, ...(s.namespace ? { namespace: s.namespace } : {}) },
    spec: null,
    // The test masks every condition's time, those carried over from the input included.
    status: JSON.parse(JSON.stringify(s.status).replace(/"lastTransitionTime":"[^"]*"/g, '"lastTransitionTime":"fake"')) as unknown,
  }));
}

export function configDocs(r: GatewayApiResult): Record<string, unknown>[] {
  return [...r.gateways, ...r.virtualServices, ...r.destinationRules].map((c) => ({
    apiVersion: c.apiVersion,
    kind: c.kind,
    metadata: c.metadata,
    spec: c.spec,
  }));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

function docId(d: Record<string, unknown>): string {
  const md = (d.metadata ?? {}) as Record<string, unknown>;
  return `${String(d.kind)} ${md.namespace ? `${String(md.namespace)}/` : ''}${String(md.name)}`;
}

/** Compares documents in order; missing/extra list the differing documents (canonical JSON). */
export function compareDocs(expected: Record<string, unknown>[], actual: Record<string, unknown>[]): { missing: string[]; extra: string[] } {
  const e = expected.map((d) => JSON.stringify(canonical(d)));
  const a = actual.map((d) => JSON.stringify(canonical(d)));
  const missing: string[] = [];
  const extra: string[] = [];
  const n = Math.max(e.length, a.length);
  for (let i = 0; i < n; i++) {
    if (e[i] === a[i]) continue;
    if (e[i] !== undefined) missing.push(`#${i} ${docId(expected[i] as Record<string, unknown>)}: ${e[i]}`);
    if (a[i] !== undefined) extra.push(`#${i} ${docId(actual[i] as Record<string, unknown>)}: ${a[i]}`);
  }
  return { missing, extra };
}

export function runGatewayApi(root: string, cases: readonly string[]): CaseResult[] {
  const dir = DIR(root);
  const out: CaseResult[] = [];
  for (const c of cases) {
    const id = `xds/gateway-api/${c}`;
    try {
      const result = convertCase(readFileSync(join(dir, `${c}.yaml`), 'utf8'));
      const cfg = compareDocs(loadDocs(readFileSync(join(dir, `${c}.yaml.golden`), 'utf8')), configDocs(result));
      const statusFile = join(dir, `${c}.status.yaml.golden`);
      const st = existsSync(statusFile)
        ? compareDocs(loadDocs(readFileSync(statusFile, 'utf8').replace(/lastTransitionTime:.*/g, 'lastTransitionTime: fake')), statusDocs(result))
        : { missing: [], extra: [] };
      const missing = [...cfg.missing, ...st.missing.map((m) => `status ${m}`)];
      const extra = [...cfg.extra, ...st.extra.map((m) => `status ${m}`)];
      out.push({ suite: 'xds', id, analyzer: 'xds/gateway-api', passed: missing.length === 0 && extra.length === 0, missing, extra });
    } catch (e) {
      out.push({
        suite: 'xds',
        id,
        analyzer: 'xds/gateway-api',
        passed: false,
        missing: [],
        extra: [],
        error: e instanceof Error ? (e.stack ?? e.message) : String(e),
      });
    }
  }
  return out;
}
