// The scenarios an inspection recognises in Secrets, ConfigMaps and pasted PEM (src/core/pki/
// inspect.ts and the modules behind it) and the checklists it runs for each. Expected values
// follow Istio and Go:
// - gateway credentials: pilot/pkg/credentials/kube/secrets.go (ExtractCertInfo, ExtractRoot and
//   their errors), pilot/pkg/xds/sds.go (ValidateCertificate: istiod only checks the first
//   certificate's window), Go's tls.X509KeyPair ("tls: private key does not match public key"),
//   and Go's crypto/tls host matching (a `*.` name covers exactly one label);
// - the self-signed CA: security/pkg/pki/ca/selfsignedcarootcertrotator.go rotates istio-ca-secret
//   when less than CITADEL_SELF_SIGNED_ROOT_CERT_GRACE_PERIOD_PERCENTILE (20%) of its life is left;
// - plug-in CAs: pilot/pkg/bootstrap/istio_ca.go needs all four files (key, cert, root, chain), and
//   workloads receive their leaf followed by cert-chain.pem;
// - trust bundles: Go's CertPool.AppendCertsFromPEM keeps every certificate it parses (expired or not
//   self-signed alike);
// - mutual TLS between workloads: each side verifies the other with Go for clientAuth and serverAuth.
import { describe, expect, it } from 'vitest';
import { inspect, type CredentialUser } from '../../src/core/pki/inspect.ts';
import type { CertsReport, ScenarioView } from '../../src/core/pki/report.ts';
import { DAY, EKU, NOW, intermediate, keys, leaf, root, type Issued } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A Secret with `data` (base64 of the exact texts given). */
function secret(name: string, data: Record<string, string>, extra: { namespace?: string; type?: string; labels?: Record<string, string> } = {}): string {
  const labels = extra.labels
    ? `  labels:\n${Object.entries(extra.labels)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
        .join('\n')}\n`
    : '';
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: ${extra.namespace ?? 'istio-system'}\n${labels}${extra.type ? `type: ${extra.type}\n` : ''}data:\n${Object.entries(
    data,
  )
    .map(([k, v]) => `  ${k}: ${b64(v)}`)
    .join('\n')}\n`;
}

function configMap(name: string, data: Record<string, string>): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: istio-system\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;
}

const yaml = (text: string, options: Parameters<typeof inspect>[1] = {}) => inspect([{ name: 'in.yaml', text }], { now: NOW, ...options });
const scenarios = (r: CertsReport, kind: ScenarioView['kind']) => r.scenarios.filter((s) => s.kind === kind);
const only = (r: CertsReport, kind: ScenarioView['kind']): ScenarioView => {
  const list = scenarios(r, kind);
  expect(list).toHaveLength(1);
  return list[0]!;
};
const step = (s: ScenarioView, name: string) => s.steps.find((x) => x.name === name);
const findingIds = (r: CertsReport) => r.findings.map((f) => f.id);

function gatewayUser(servers: Array<{ hosts: string[]; credentialName: string }>): CredentialUser {
  return {
    kind: 'Gateway',
    namespace: 'default',
    name: 'gw',
    secretNamespace: 'istio-system',
    servers: servers.map((s, index) => ({ index, mode: 'SIMPLE', ...s })),
  };
}

describe('gateway credential', () => {
  it('checks the hosts of each server naming the Secret against the DNS SANs (one label per wildcard)', async () => {
    const ca = await root();
    const server = await leaf(ca, { san: [{ dns: '*.example.com' }], eku: [EKU.serverAuth] });
    const user = gatewayUser([
      { hosts: ['ns1/a.example.com', '*.example.com'], credentialName: 'cred' },
      { hosts: ['a.b.example.com', 'example.com'], credentialName: 'kubernetes-gateway://istio-system/cred' },
      { hosts: ['a.example.com'], credentialName: 'another' },
    ]);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }, { type: 'kubernetes.io/tls' }), {
      credentialUsers: [user],
    });
    const s = only(r, 'gateway-credential');
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would serve this credential' });
    expect(step(s, 'keys (ExtractCertInfo)')?.status).toBe('pass');
    expect(step(s, 'validity (ValidateCertificate)')?.status).toBe('pass');
    expect(step(s, 'key matches the certificate (tls.X509KeyPair)')?.status).toBe('pass');
    expect(step(s, 'chain')?.status).toBe('pass');
    expect(step(s, 'client CA (ExtractRoot)')?.status).toBe('pass');
    expect(step(s, 'hosts of Gateway default/gw server 0')?.status).toBe('pass');
    const second = step(s, 'hosts of Gateway default/gw server 1')!;
    expect(second.status).toBe('fail');
    expect(second.detail).toContain('a.b.example.com, example.com not covered');
    expect(step(s, 'hosts of Gateway default/gw server 2')).toBeUndefined();
    // The server certificate's chain is checked against ca.crt, for serverAuth.
    const chain = r.chains.find((c) => s.chains.includes(c.id))!;
    expect(chain.go).toEqual({ ok: true, error: null, usages: ['serverAuth'] });
    expect(chain.roots).toEqual([ca.cert.facts.sha256FingerprintHex]);
  });

  it('a certificate for clientAuth only: Go refuses it for serverAuth; istiod serves it anyway', async () => {
    const ca = await root();
    const server = await leaf(ca, { eku: [EKU.clientAuth] });
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }));
    const s = only(r, 'gateway-credential');
    expect(s.verdict.ok).toBe(true);
    expect(step(s, 'chain')?.status).toBe('warn');
    expect(step(s, 'chain')?.detail).toContain('x509: certificate specifies an incompatible key usage');
    expect(findingIds(r)).toContain('EKU_CHAIN_INCOMPATIBLE');
  });

  it('a chain ending at a root that ca.crt does not hold: not trusted', async () => {
    const ca = await root();
    const otherCa = await root({ subject: 'CN=Other Root' });
    const server = await leaf(ca);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server, ca), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(otherCa) }));
    const s = only(r, 'gateway-credential');
    expect(step(s, 'chain')?.status).toBe('warn');
    expect(findingIds(r)).toContain('CHAIN_ROOT_NOT_TRUSTED');
  });

  it('an expired certificate: IST0161 on every Gateway using it', async () => {
    const ca = await root();
    const server = await leaf(ca, { notBefore: new Date(NOW.getTime() - 20 * DAY), notAfter: new Date(NOW.getTime() - DAY) });
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys) }), {
      credentialUsers: [gatewayUser([{ hosts: ['leaf.example.com'], credentialName: 'cred' }])],
    });
    const s = only(r, 'gateway-credential');
    expect(s.verdict.ok).toBe(false);
    expect(s.verdict.text).toMatch(/^invalid gateway credential \(IST0161\): /);
    expect(step(s, 'validity (ValidateCertificate)')?.status).toBe('fail');
    expect(step(s, 'IST0161 on Gateway default/gw')?.status).toBe('fail');
  });

  it('a key of another certificate: Envoy refuses the pair as tls.X509KeyPair does', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(await keys()) }));
    const s = only(r, 'gateway-credential');
    expect(s.verdict).toEqual({ ok: false, text: 'Envoy would reject this credential: tls: private key does not match public key' });
    expect(step(s, 'key matches the certificate (tls.X509KeyPair)')?.status).toBe('fail');
    expect(findingIds(r)).toContain('KEY_MISMATCH');
  });

  it('keys Istio does not read: ExtractCertInfo error, IST0161', async () => {
    const ca = await root();
    const r = await yaml(secret('cred', { 'tls.cert': pem(ca), 'tls.key': await keyPem(ca.keys) }, { type: 'kubernetes.io/tls' }), {
      credentialUsers: [gatewayUser([{ hosts: ['a.example.com'], credentialName: 'cred' }])],
    });
    const s = only(r, 'gateway-credential');
    expect(s.verdict.ok).toBe(false);
    expect(step(s, 'keys (ExtractCertInfo)')?.error).toBe(
      "found secret, but didn't have expected keys (cert and key) or (tls.crt and tls.key); found: tls.cert, tls.key",
    );
    expect(step(s, 'IST0161 on Gateway default/gw')?.status).toBe('fail');
  });
});

describe('gateway client CA (a `-cacert` Secret)', () => {
  it('ca.crt with a certificate: usable for MUTUAL', async () => {
    const ca = await root();
    const s = only(await yaml(secret('cred-cacert', { 'ca.crt': pem(ca) })), 'gateway-ca');
    expect(s.verdict.ok).toBe(true);
    expect(step(s, 'keys (ExtractRoot)')?.status).toBe('pass');
    expect(step(s, 'CA bundle')).toMatchObject({ status: 'pass', detail: '1 certificate(s)' });
  });

  it('without cacert or ca.crt: ExtractRoot error', async () => {
    const s = only(await yaml(secret('cred-cacert', { foo: 'bar' })), 'gateway-ca');
    expect(s.verdict).toEqual({ ok: false, text: "found secret, but didn't have expected keys cacert or ca.crt; found: foo" });
  });
});

describe('self-signed CA (istio-ca-secret)', () => {
  const caSecret = async (ca: Issued) =>
    secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(ca.keys) }, { type: 'istio.io/ca-root' });

  it('loads, and is rotated once 20% or less of its life is left', async () => {
    const young = await root({ notBefore: new Date(NOW.getTime() - 50 * DAY), notAfter: new Date(NOW.getTime() + 50 * DAY) });
    const s = only(await yaml(await caSecret(young)), 'self-signed-ca');
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would load this self-signed CA' });
    expect(step(s, 'rotation')?.status).toBe('info');
    const old = await root({ notBefore: new Date(NOW.getTime() - 90 * DAY), notAfter: new Date(NOW.getTime() + 10 * DAY) });
    const s2 = only(await yaml(await caSecret(old)), 'self-signed-ca');
    expect(s2.verdict.ok).toBe(true);
    expect(step(s2, 'rotation')?.status).toBe('warn');
  });

  it('without its key: istiod keeps retrying', async () => {
    const ca = await root();
    const s = only(await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca) })), 'self-signed-ca');
    expect(s.verdict.ok).toBe(false);
    expect(step(s, 'keys')?.status).toBe('fail');
  });
});

describe('plug-in CA (cacerts)', () => {
  async function files(chainOf: (ca: { root: Issued; signing: Issued }) => string, withRoot = true) {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing CA');
    const data: Record<string, string> = {
      'ca-cert.pem': pem(signing),
      'ca-key.pem': await keyPem(signing.keys),
      'cert-chain.pem': chainOf({ root: r0, signing }),
    };
    if (withRoot) data['root-cert.pem'] = pem(r0);
    return secret('cacerts', data);
  }

  it('cert-chain.pem without ca-cert.pem: istiod loads it, but workloads miss their issuer', async () => {
    const r = await yaml(await files(({ root: r0 }) => pem(r0)));
    const s = only(r, 'plugin-ca');
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would load this plug-in CA' });
    expect(r.findings.find((f) => f.id === 'CHAIN_MISSING_SIGNING_CERT')?.severity).toBe('error');
    expect(r.findings.find((f) => f.id === 'CHAIN_CONTAINS_ROOT')?.severity).toBe('info');
  });

  it('the usual cert-chain.pem (signing cert, then root): loads, nothing to fix', async () => {
    const r = await yaml(await files(({ root: r0, signing }) => pem(signing, r0)));
    expect(only(r, 'plugin-ca').verdict.ok).toBe(true);
    expect(findingIds(r)).not.toContain('CHAIN_MISSING_SIGNING_CERT');
    expect(findingIds(r)).not.toContain('CHAIN_FIRST_NOT_SIGNING_CERT');
  });

  it('without root-cert.pem: the bundle is incomplete', async () => {
    const s = only(await yaml(await files(({ root: r0, signing }) => pem(signing, r0), false)), 'plugin-ca');
    expect(s.verdict.ok).toBe(false);
    expect(step(s, 'completeness')).toMatchObject({ status: 'fail', detail: 'missing: root cert' });
    expect(s.chains).toEqual([]);
  });
});

describe('workload certificates', () => {
  async function workloadSecret(trustDomain: string) {
    const ca = await root();
    const w = await leaf(ca, { san: [{ uri: `spiffe://${trustDomain}/ns/shop/sa/cart` }] });
    return secret('wl', { 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }, { namespace: 'shop' });
  }

  it('a SPIFFE identity outside the mesh trust domain: the chain verifies, authorization would not match', async () => {
    const s = only(await yaml(await workloadSecret('other.domain')), 'workload');
    expect(s.verdict.ok).toBe(false);
    expect(s.verdict.text).toMatch(/^the chain verifies, but other\.domain is not cluster\.local/);
    expect(step(s, 'trust domain')?.status).toBe('fail');
  });

  it('a trust domain alias is accepted', async () => {
    const s = only(await yaml(await workloadSecret('other.domain'), { aliases: ['other.domain'] }), 'workload');
    expect(s.verdict.ok).toBe(true);
    expect(step(s, 'trust domain')).toMatchObject({ status: 'pass', detail: 'other.domain is the mesh trust domain or an alias' });
  });
});

describe('trust bundles', () => {
  it('istio-ca-root-cert: every certificate Go parses is a root, expired and partial ones flagged', async () => {
    const r0 = await root();
    const partial = await intermediate(r0, 'CN=Partial');
    const expired = await root({ subject: 'CN=Old Root', notBefore: new Date(NOW.getTime() - 400 * DAY), notAfter: new Date(NOW.getTime() - DAY) });
    const s = only(await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': pem(r0, partial, expired) })), 'trust-bundle');
    expect(s.title).toBe('Trust bundle (ConfigMap istio-system/istio-ca-root-cert)');
    expect(s.verdict).toEqual({ ok: true, text: '3 root(s) Go would trust' });
    expect(s.steps.map((x) => [x.name, x.status])).toEqual([
      ['roots', 'pass'],
      ['Partial', 'warn'],
      ['Old Root', 'fail'],
    ]);
  });

  it('a ConfigMap with ca.crt is a CA bundle', async () => {
    const s = only(await yaml(configMap('my-ca', { 'ca.crt': pem(await root()) })), 'trust-bundle');
    expect(s.title).toBe('CA bundle (ConfigMap istio-system/my-ca)');
  });

  it('a paste of roots only is a trust bundle, not a PEM bundle with chains', async () => {
    const r = await inspect([{ name: 'roots.pem', text: pem(await root(), await root({ subject: 'CN=Second Root' })) }], { now: NOW });
    expect(scenarios(r, 'trust-bundle')).toHaveLength(1);
    expect(scenarios(r, 'pem-bundle')).toHaveLength(0);
    expect(r.chains).toEqual([]);
  });
});

describe('mutual trust between pasted workload certificates', () => {
  it('two mesh certificates of one root trust each other; one without clientAuth is refused as a client', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/a' }] });
    const b = await leaf(ca, { subject: 'CN=b', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/b' }] });
    const c = await leaf(ca, { subject: 'CN=c', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/c' }], eku: [EKU.serverAuth] });
    const r = await inspect([{ name: 'bundle.pem', text: pem(a, b, c, ca) }], { now: NOW });
    const trust = scenarios(r, 'mutual-trust');
    expect(trust.map((s) => s.title)).toEqual([
      'Will spiffe://cluster.local/ns/shop/sa/a and spiffe://cluster.local/ns/shop/sa/b trust each other?',
      'Will spiffe://cluster.local/ns/shop/sa/a and spiffe://cluster.local/ns/shop/sa/c trust each other?',
      'Will spiffe://cluster.local/ns/shop/sa/b and spiffe://cluster.local/ns/shop/sa/c trust each other?',
    ]);
    expect(trust[0]!.verdict.ok).toBe(true);
    expect(trust[0]!.steps.map((x) => x.status)).toEqual(['pass', 'pass', 'pass']);
    const withC = trust[1]!;
    expect(withC.verdict.ok).toBe(false);
    expect(step(withC, 'spiffe://cluster.local/ns/shop/sa/a accepts spiffe://cluster.local/ns/shop/sa/c')).toMatchObject({
      status: 'fail',
      error: 'x509: certificate specifies an incompatible key usage',
    });
    expect(step(withC, 'spiffe://cluster.local/ns/shop/sa/c accepts spiffe://cluster.local/ns/shop/sa/a')?.status).toBe('pass');
    expect(step(withC, 'spiffe://cluster.local/ns/shop/sa/c usages')?.status).toBe('fail');
  });
});

describe('scenario detection', () => {
  it('a Secret with no key layout Istio reads is a generic Secret', async () => {
    const s = only(await yaml(secret('misc', { 'foo.txt': 'hello' })), 'generic-secret');
    expect(s.verdict).toEqual({ ok: true, text: 'no Istio key layout recognised' });
    expect(step(s, 'key names')?.detail).toMatch(/^found: foo\.txt\. /);
  });

  it('a remote secret: one cluster per key, and whether its CA signs the client certificate (a note, not an error)', async () => {
    const clusterCa = await root({ subject: 'CN=Cluster CA' });
    const client = await leaf(clusterCa, { subject: 'CN=istio-reader', eku: [EKU.clientAuth], san: undefined });
    const strangerCa = await root({ subject: 'CN=Stranger CA' });
    const kubeconfig = async (ca: Issued) =>
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://10.0.0.1:6443\n    certificate-authority-data: ${b64(pem(ca))}\nusers:\n- name: u\n  user:\n    client-certificate-data: ${b64(pem(client))}\n    client-key-data: ${b64(await keyPem(client.keys))}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n`;
    const text = secret(
      'istio-remote-secret-west',
      { west: await kubeconfig(clusterCa), north: await kubeconfig(strangerCa) },
      { labels: { 'istio/multiCluster': 'true' } },
    );
    const r = await yaml(text);
    expect(scenarios(r, 'generic-secret')).toEqual([]);
    const s = only(r, 'remote-secret');
    expect(s.title).toBe('Remote secret istio-system/istio-remote-secret-west (2 clusters)');
    expect(s.verdict).toEqual({ ok: true, text: 'every kubeconfig is readable' });
    expect(r.remotes.map((x) => [x.clusterId, x.auth, x.caVerifiesClient, x.error])).toEqual([
      ['west', 'client certificate', true, undefined],
      ['north', 'client certificate', false, undefined],
    ]);
    // certificate-authority-data verifies the API server (client-go); the API server verifies
    // client certificates against its own --client-ca-file, which may be another CA.
    const note = r.findings.find((f) => f.id === 'REMOTE_CLIENT_CA');
    expect(note?.severity).toBe('info');
    expect(note?.message).toContain('cluster "north"');
    expect(findingIds(r)).not.toContain('CHAIN_INCOMPLETE');
  });
  it("an Envoy config dump: each SDS secret, and the workload chain verified against the dump's ROOTCA", async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const secretEntry = (name: string, body: object) => ({
      name,
      version_info: '2026-06-01T00:00:00Z/1',
      last_updated: '2026-06-01T00:00:00Z',
      secret: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret', name, ...body },
    });
    const dump = {
      configs: [
        {
          '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump',
          dynamic_active_secrets: [
            secretEntry('default', {
              tls_certificate: { certificate_chain: { inline_bytes: b64(pem(w, ca)) }, private_key: { inline_bytes: b64('[redacted]') } },
            }),
            secretEntry('ROOTCA', { validation_context: { trusted_ca: { inline_bytes: b64(pem(ca)) } } }),
          ],
        },
      ],
    };
    const r = await inspect([{ name: 'config_dump.json', text: JSON.stringify(dump) }], { now: NOW });
    const s = only(r, 'envoy-dump');
    expect(s.title).toBe('Envoy config dump (secrets)');
    expect(s.verdict).toEqual({ ok: true, text: '2 secret(s)' });
    expect(s.steps.map((x) => [x.name, x.status])).toEqual([
      ['default (ACTIVE)', 'info'],
      ['ROOTCA (ACTIVE)', 'info'],
    ]);
    expect(step(s, 'default (ACTIVE)')?.detail).toBe('certificate chain: 2 certificate(s); key redacted');
    expect(s.chains).toHaveLength(1);
    const chain = r.chains.find((c) => c.id === s.chains[0])!;
    expect(chain.title).toBe('default (ACTIVE)');
    expect(chain.go.ok).toBe(true);
    expect(chain.path).toEqual([w.cert.facts.sha256FingerprintHex, ca.cert.facts.sha256FingerprintHex]);
    expect(scenarios(r, 'pem-bundle')).toEqual([]);
  });
});
