// The edges of scenarioDetection.ts and scenarios.ts that the step-by-step tests
// (scenarioSteps.test.ts, scenarioDetection.test.ts) leave open: which values each scenario reads,
// which certificate of a file gets a role, the subjects of findings, lists of several names, and the
// limits of the loops. Expected values follow Istio and Go:
// - istio_ca.go: the kubernetes.io/tls layout's chain files are tls.crt then ca.crt, and the workload
//   TTL is clamped to the first certificate of the chain (NewIstioCA's minTTL);
// - generate_csr.go AppendCertByte: the self-signed CA's root file is ca-cert.pem, a newline, then
//   root-cert.pem;
// - resource.go ParseResourceName: `kubernetes://` is a prefix (strings.CutPrefix);
// - Go's crypto/x509: empty KeyUsages means serverAuth, `*.` covers exactly one label, a
//   certificate is valid up to and including NotAfter, and AppendCertsFromPEM skips blocks with headers;
// - Envoy: a SPIFFE validator's trust bundles anchor the workload chain.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EKU, NOW, intermediate, issue, keys, leaf, root } from './pkiBuilder.ts';
import { asV1, crlDer, crlPem, keyPem, pem } from './istioFixtures.ts';
import {
  REDACTED,
  b64,
  chainsOf,
  configMap,
  files,
  finding,
  findingIds,
  fp,
  gatewayUser,
  names,
  only,
  pluginCa,
  roles,
  scenarios,
  secret,
  states,
  step,
  text,
  yaml,
} from './scenarioInputs.ts';
import type { CertsReport } from '../../src/core/pki/report.ts';

const HOUR = 3600000;
/** Every chain id a scenario lists names a chain of the report. */
const chainIdsResolve = (r: CertsReport) => r.scenarios.every((s) => s.chains.every((id) => r.chains.some((c) => c.id === id)));
const objectKinds = (r: CertsReport) => r.scenarios.filter((s) => s.object).map((s) => s.kind);

describe('plug-in CA', () => {
  it('no file at all: an info step citing checkCABundleCompleteness, no chain', async () => {
    const { r0 } = await pluginCa();
    const s = only(await yaml(secret('cacerts', { 'ca.crt': pem(r0) })), 'plugin-ca');
    expect(step(s, 'completeness')).toEqual({
      name: 'completeness',
      status: 'info',
      detail: 'none of the signing key, signing cert, root cert or cert chain present: no plug-in CA bundle',
      source: 'pilot/pkg/bootstrap/istio_ca.go:501',
    });
    expect(s.chains).toEqual([]);
  });

  it('complete: the completeness step cites istio_ca.go; the chain is drawn for serverAuth (Verify sets no usage); the signing role goes to the first block only', async () => {
    const { r0, signing, key } = await pluginCa();
    // ca-cert.pem with the root after the signing cert: istiod reads the first block.
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing, r0), 'ca-key.pem': key, 'cert-chain.pem': pem(signing), 'root-cert.pem': pem(r0) }));
    const s = only(r, 'plugin-ca');
    expect(s.verdict.ok).toBe(true);
    expect(step(s, 'completeness').source).toBe('pilot/pkg/bootstrap/istio_ca.go:501');
    const [chain] = chainsOf(r, s);
    expect(chain!.go.usages).toEqual(['serverAuth']);
    expect(roles(r, signing)).toContain('signing-cert');
    expect(roles(r, r0)).not.toContain('signing-cert');
    // The key matches: no KEY_MISMATCH on the signing cert's card.
    const card = r.certificates.find((c) => c.id === fp(signing))!;
    expect(card.findings.map((f) => f.id)).not.toContain('KEY_MISMATCH');
    // istiod layout: ca-cert.pem is not concatenated with anything, a missing final newline is harmless.
    const trimmed = await yaml(
      secret('cacerts', { 'ca-cert.pem': pem(signing).trimEnd(), 'ca-key.pem': key, 'cert-chain.pem': pem(signing), 'root-cert.pem': pem(r0) }),
    );
    expect(only(trimmed, 'plugin-ca').verdict.ok).toBe(true);
    expect(findingIds(trimmed)).not.toContain('TLS_CRT_NO_TRAILING_NEWLINE');
  });

  it('a signing cert that does not parse: refused, no chain drawn', async () => {
    const { r0, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': 'garbage', 'ca-key.pem': key, 'cert-chain.pem': pem(r0), 'root-cert.pem': pem(r0) }));
    const s = only(r, 'plugin-ca');
    expect(s.verdict.ok).toBe(false);
    expect(step(s, 'signing cert parses').status).toBe('fail');
    expect(s.chains).toEqual([]);
  });

  it('kubernetes.io/tls layout: the first chain file is tls.crt, so its expiry clamps the workload TTL', async () => {
    const r0 = await root({ subject: 'CN=Mesh Root' });
    const signing = await intermediate(r0, 'CN=Signing CA', { notAfter: new Date(NOW.getTime() + 12 * HOUR) });
    const s = only(await yaml(secret('cacerts', { 'tls.crt': pem(signing), 'tls.key': await keyPem(signing.keys), 'ca.crt': pem(r0) })), 'plugin-ca');
    expect(s.verdict.ok).toBe(true);
    expect(step(s, 'first chain certificate not expired')).toMatchObject({
      status: 'warn',
      detail: 'expires in 12 h: workload certificates are clamped to that',
    });
  });

  it('kubernetes.io/tls layout redacted: each redacted file named once (ca.crt is root and chain file)', async () => {
    const { signing, key } = await pluginCa();
    const s = only(await yaml(secret('cacerts', { 'tls.crt': pem(signing), 'tls.key': key, 'ca.crt': REDACTED })), 'plugin-ca');
    expect(s.verdict).toEqual({ ok: true, text: 'not checked: ca.crt was redacted in this link' });
  });

  it('an empty tls.crt has no missing newline to report; TLS_CRT_NO_TRAILING_NEWLINE names the secret', async () => {
    const { r0, signing, key } = await pluginCa();
    const empty = await yaml(secret('cacerts', { 'tls.crt': '', 'tls.key': key, 'ca.crt': pem(r0) }));
    expect(findingIds(empty)).not.toContain('TLS_CRT_NO_TRAILING_NEWLINE');
    const r = await yaml(secret('cacerts', { 'tls.crt': pem(signing).trimEnd(), 'tls.key': key, 'ca.crt': pem(r0) }));
    expect(finding(r, 'TLS_CRT_NO_TRAILING_NEWLINE')?.message).toBe(
      'Plug-in CA (Secret istio-system/cacerts, kubernetes.io/tls layout): tls.crt does not end with a newline; tls.crt + ca.crt has no decodable PEM block',
    );
  });

  it('cert-chain.pem without ca-cert.pem, with one of two roots: CHAIN_MISSING_SIGNING_CERT and CHAIN_CONTAINS_ROOT', async () => {
    const { r0, signing, key } = await pluginCa();
    const other = await root({ subject: 'CN=Other Root' });
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(r0), 'root-cert.pem': pem(r0, other) }));
    const title = 'Plug-in CA (Secret istio-system/cacerts, istiod file layout)';
    expect(finding(r, 'CHAIN_MISSING_SIGNING_CERT')?.message).toBe(
      `${title}: cert-chain.pem does not contain ca-cert.pem; workloads receive leaf + cert-chain.pem + root without their issuer`,
    );
    expect(finding(r, 'CHAIN_CONTAINS_ROOT')?.message).toBe(`${title}: cert-chain.pem includes the root (normal for Istio)`);
  });

  it('two chain certificates without a CRL: both named in CRL_NOT_SIGNED_BY_CHAIN', async () => {
    const r0 = await root({ subject: 'CN=Mesh Root' });
    const mid = await intermediate(r0, 'CN=Mid');
    const signing = await intermediate(mid, 'CN=Signing CA');
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await yaml(
      secret('cacerts', {
        'ca-cert.pem': pem(signing),
        'ca-key.pem': await keyPem(signing.keys),
        'cert-chain.pem': pem(signing, mid),
        'root-cert.pem': pem(r0),
        'ca-crl.pem': text(crlPem(await crlDer(stranger))),
      }),
    );
    // Go prints pkix.Name as CN=…; istiod lists the subjects (sorted here).
    expect(finding(r, 'CRL_NOT_SIGNED_BY_CHAIN')?.message).toBe(
      'Plug-in CA (Secret istio-system/cacerts, istiod file layout): no CRL signed by CN=Mid, CN=Signing CA',
    );
  });
});

describe('self-signed CA', () => {
  it('a missing key: no chain; a valid CA: its key is not listed as redacted', async () => {
    const ca = await root();
    expect(only(await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca) })), 'self-signed-ca').chains).toEqual([]);
    const r = await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(ca.keys) }));
    expect(only(r, 'self-signed-ca').verdict.ok).toBe(true);
    expect(r.keys.map((k) => k.state)).not.toContain('redacted-in-link');
    expect(chainsOf(r, only(r, 'self-signed-ca'))[0]!.go.usages).toEqual(['serverAuth']);
  });

  it('both certificates redacted: both named, no chain', async () => {
    const ca = await root();
    const s = only(
      await yaml(secret('istio-ca-secret', { 'ca-cert.pem': REDACTED, 'ca-key.pem': await keyPem(ca.keys), 'root-cert.pem': REDACTED })),
      'self-signed-ca',
    );
    expect(s.verdict.text).toBe('not checked: ca-cert.pem was redacted in this link; root-cert.pem was redacted in this link');
    expect(s.chains).toEqual([]);
  });

  it('ca-cert.pem without a final newline, then root-cert.pem: the CA is still its own root (AppendCertByte adds the newline)', async () => {
    const ca = await root({ subject: 'CN=Self CA' });
    const other = await root({ subject: 'CN=Other' });
    const s = only(
      await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca).trimEnd(), 'ca-key.pem': await keyPem(ca.keys), 'root-cert.pem': pem(other) })),
      'self-signed-ca',
    );
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would load this self-signed CA' });
  });

  it('a CA certificate that does not parse: refused, no chain', async () => {
    const ca = await root();
    const s = only(await yaml(secret('istio-ca-secret', { 'ca-cert.pem': 'garbage', 'ca-key.pem': await keyPem(ca.keys) })), 'self-signed-ca');
    expect(s.verdict.ok).toBe(false);
    expect(s.chains).toEqual([]);
  });
});

describe('workload certificates', () => {
  const wl = (data: Record<string, string>) => secret('wl', data, { namespace: 'shop' });

  it('key.pem is read and matched; the workload role goes to the leaf only; the chain is anchored at root-cert.pem', async () => {
    const ca = await root();
    const mid = await intermediate(ca, 'CN=Mid');
    const w = await leaf(mid, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const r = await yaml(wl({ 'cert-chain.pem': pem(w, mid), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }));
    const s = only(r, 'workload');
    expect(step(s, 'key matches the leaf').status).toBe('pass');
    expect(roles(r, w)).toEqual(['workload']);
    expect(roles(r, mid)).not.toContain('workload');
    expect(chainsOf(r, s)[0]!.roots).toEqual([fp(ca)]);
    expect(r.keys.map((k) => k.state)).not.toContain('redacted-in-link');
  });

  it('a redacted key: the key step says why it was not checked', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const s = only(await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': REDACTED, 'root-cert.pem': pem(ca) })), 'workload');
    expect(step(s, 'key matches the leaf')).toEqual({
      name: 'key matches the leaf',
      status: 'skipped',
      detail: 'not checked (key.pem was redacted in this link)',
    });
  });

  it('both cert-chain.pem and root-cert.pem redacted: both named', async () => {
    const s = only(await yaml(wl({ 'cert-chain.pem': REDACTED, 'key.pem': 'x', 'root-cert.pem': REDACTED })), 'workload');
    expect(s.verdict.text).toBe('not checked: cert-chain.pem was redacted in this link; root-cert.pem was redacted in this link');
  });

  it('root-cert.pem without a certificate: VerifyCertificate fails to parse the root, no chain is drawn', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const s = only(await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': 'garbage' })), 'workload');
    expect(s.verdict).toEqual({ ok: false, text: 'failed to parse root certificate' });
    expect(s.chains).toEqual([]);
  });

  it('several SPIFFE trust domains are listed, accepted or not', async () => {
    const ca = await root();
    const two = (a: string, b: string) => leaf(ca, { san: [{ uri: `spiffe://${a}/ns/x/sa/y` }, { uri: `spiffe://${b}/ns/x/sa/y` }] });
    const good = await two('cluster.local', 'old.local');
    const ok = only(
      await yaml(wl({ 'cert-chain.pem': pem(good), 'key.pem': await keyPem(good.keys), 'root-cert.pem': pem(ca) }), { aliases: ['old.local'] }),
      'workload',
    );
    expect(step(ok, 'trust domain').detail).toBe('cluster.local, old.local is the mesh trust domain or an alias');
    const bad = await two('a.example', 'b.example');
    const no = only(await yaml(wl({ 'cert-chain.pem': pem(bad), 'key.pem': await keyPem(bad.keys), 'root-cert.pem': pem(ca) })), 'workload');
    expect(step(no, 'trust domain').detail).toBe("a.example, b.example is not cluster.local: authorization policies won't match (TRUST_DOMAIN_MISMATCH)");
  });
});

describe('gateway credential', () => {
  it('only the Gateways naming this Secret are its users; a wrong or empty credential has no chain', async () => {
    const r = await yaml(secret('cred', { cert: '', key: '' }), {
      credentialUsers: [gatewayUser([{ hosts: ['a.example.com'], credentialName: 'other' }])],
    });
    const s = only(r, 'gateway-credential');
    expect(names(s)).toEqual(['keys (ExtractCertInfo)']);
    expect(s.chains).toEqual([]);
  });

  it('a certificate redacted: no chain; a certificate value without a certificate: checked, no chain', async () => {
    const ca = await root();
    const server = await leaf(ca);
    expect(only(await yaml(secret('cred', { 'tls.crt': REDACTED, 'tls.key': await keyPem(server.keys) })), 'gateway-credential').chains).toEqual([]);
    const s = only(await yaml(secret('cred', { 'tls.crt': 'garbage', 'tls.key': await keyPem(server.keys) })), 'gateway-credential');
    expect(step(s, 'validity (ValidateCertificate)')).toMatchObject({ status: 'fail', source: 'pilot/pkg/xds/sds.go:221' });
    expect(s.chains).toEqual([]);
  });

  it('the redacted certificate step cites ValidateCertificate', async () => {
    const s = only(await yaml(secret('cred', { 'tls.crt': REDACTED, 'tls.key': 'x' })), 'gateway-credential');
    expect(step(s, 'validity (ValidateCertificate)').source).toBe('pilot/pkg/xds/sds.go:221');
  });

  it('a valid credential: validity cites ValidateCertificate, one chain for serverAuth titled by the Secret, the server role on the first block only', async () => {
    const ca = await root({ subject: 'CN=Gateway CA' });
    const server = await leaf(ca);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server, ca), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }));
    const s = only(r, 'gateway-credential');
    expect(step(s, 'validity (ValidateCertificate)').source).toBe('pilot/pkg/xds/sds.go:221');
    expect(chainsOf(r, s).map((c) => [c.title, c.go.usages])).toEqual([['Gateway credential (Secret istio-system/cred): server certificate', ['serverAuth']]]);
    expect(s.chains).toHaveLength(1);
    expect(roles(r, server)).toEqual(['gateway-server']);
    expect(roles(r, ca)).not.toContain('gateway-server');
  });

  it('a mismatched key: the step says Envoy rejects it; KEY_MISMATCH is an error about the scenario', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const r = await files({
      'a.yaml': configMap('istio-ca-root-cert', { 'root-cert.pem': pem(ca) }),
      'b.yaml': secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(await keys()) }),
    });
    const s = only(r, 'gateway-credential');
    expect(step(s, 'key matches the certificate (tls.X509KeyPair)').detail).toBe(
      'Envoy rejects the secret when it loads it (istiod does not check this for Istio Gateways; Gateway API certificateRefs do)',
    );
    expect(finding(r, 'KEY_MISMATCH')).toMatchObject({
      severity: 'error',
      subject: { kind: 'scenario', id: s.id, label: 'Gateway credential (Secret istio-system/cred)' },
    });
    expect(s.id).toBe('scenario-2');
  });

  it('a redacted ca.crt gives one skipped client CA step only', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const s = only(await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': REDACTED })), 'gateway-credential');
    expect(states(s).filter(([n]) => n === 'client CA (ExtractRoot)')).toEqual([['client CA (ExtractRoot)', 'skipped']]);
  });

  it('a wildcard host: only the same wildcard covers it, not one name below it; `*.` needs a label before the dot', async () => {
    const ca = await root();
    const hostSteps = async (dns: string, host: string) => {
      const server = await leaf(ca, { san: [{ dns }] });
      const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }), {
        credentialUsers: [gatewayUser([{ hosts: [host], credentialName: 'cred' }])],
      });
      return step(only(r, 'gateway-credential'), 'hosts of Gateway default/gw server 0').status;
    };
    expect(await hostSteps('x.api.example.com', '*.api.example.com')).toBe('fail');
    expect(await hostSteps('*.API.example.com', '*.api.example.com')).toBe('pass');
    expect(await hostSteps('*.example', 'example')).toBe('fail');
  });
});

describe('gateway client CA', () => {
  it('the object names the Secret; a failed ExtractRoot cites secrets.go and draws no chain; a good CA draws none either', async () => {
    const empty = only(await yaml(secret('cred-cacert', { 'ca.crt': '' })), 'gateway-ca');
    expect(empty.object).toEqual({ kind: 'Secret', namespace: 'istio-system', name: 'cred-cacert', line: expect.any(Number), input: 'in.yaml' });
    expect(empty.steps[0]!.source).toBe('pilot/pkg/credentials/kube/secrets.go:339');
    expect(empty.chains).toEqual([]);
    expect(only(await yaml(secret('cred-cacert', { cacert: REDACTED })), 'gateway-ca').chains).toEqual([]);
    const ca = await root();
    expect(only(await yaml(secret('cred-cacert', { cacert: pem(ca) })), 'gateway-ca').chains).toEqual([]);
  });

  it('CRL_NOT_SIGNED_BY_CHAIN is an error about the scenario', async () => {
    const ca = await root({ subject: 'CN=Client CA' });
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await files({
      'a.yaml': configMap('istio-ca-root-cert', { 'root-cert.pem': pem(ca) }),
      'b.yaml': secret('cred-cacert', { 'ca.crt': pem(ca), 'ca.crl': text(crlPem(await crlDer(stranger))) }),
    });
    const s = only(r, 'gateway-ca');
    expect(finding(r, 'CRL_NOT_SIGNED_BY_CHAIN')).toMatchObject({
      severity: 'error',
      subject: { kind: 'scenario', id: s.id, label: 'Gateway client CA (Secret istio-system/cred-cacert)' },
    });
    expect(s.id).toBe('scenario-2');
  });

  it('`kubernetes://` is only a prefix of credentialName (CutPrefix)', async () => {
    const user = gatewayUser([{ hosts: ['a.example.com'], credentialName: 'other/kubernetes://cred' }]);
    expect(objectKinds(await yaml(secret('cred', { foo: 'bar' }), { credentialUsers: [user] }))).toEqual(['generic-secret']);
  });
});

describe('trust bundles', () => {
  it('valid up to and including NotAfter; no chain', async () => {
    const r0 = await root({ notAfter: NOW });
    const s = only(await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': pem(r0) })), 'trust-bundle');
    expect(states(s)).toEqual([['roots', 'pass']]);
    expect(s.chains).toEqual([]);
  });

  it('a certificate in a block with headers: Go takes no root, so the bundle is not usable', async () => {
    const r0 = await root();
    const withHeader = pem(r0).replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
    const s = only(await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': withHeader })), 'trust-bundle');
    expect(s.verdict.text).toBe('0 root(s) Go would trust');
    expect(s.verdict.ok).toBe(false);
  });
});

describe('mutual trust', () => {
  const spiffe = (td: string, sa: string) => [{ uri: `spiffe://${td}/ns/shop/sa/${sa}` }];

  it('one side whose issuer is not in the input: that direction fails, so the pair does not trust each other', async () => {
    const ca = await root();
    const outside = await root({ subject: 'CN=Outside' });
    const a = await leaf(ca, { subject: 'CN=a', san: spiffe('cluster.local', 'a') });
    const b = await leaf(outside, { subject: 'CN=b', san: spiffe('cluster.local', 'b') });
    const s = only(await files({ 'bundle.pem': pem(a, b, ca) }), 'mutual-trust');
    expect(s.verdict.ok).toBe(false);
    expect(step(s, 'spiffe://cluster.local/ns/shop/sa/a accepts spiffe://cluster.local/ns/shop/sa/b')).toMatchObject({
      status: 'fail',
      detail: 'Go verification of the peer (clientAuth) fails',
    });
    expect(s.chains).toEqual([]);
  });

  it('two foreign trust domains, and the aliases, are listed', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a', san: spiffe('a.example', 'a') });
    const b = await leaf(ca, { subject: 'CN=b', san: spiffe('b.example', 'b') });
    const s = only(await files({ 'bundle.pem': pem(a, b, ca) }, { aliases: ['old.local'] }), 'mutual-trust');
    expect(step(s, 'trust domains').detail).toBe(
      "a.example, b.example is not cluster.local or old.local: mTLS works, but authorization policies naming principals in the mesh trust domain won't match",
    );
  });

  it('five SPIFFE leaves: still three pairs; leaves without SPIFFE IDs are no pair', async () => {
    const ca = await root();
    const ws = [];
    for (const n of ['a', 'b', 'c', 'd', 'e']) ws.push(await leaf(ca, { subject: `CN=${n}`, san: spiffe('cluster.local', n) }));
    expect(scenarios(await files({ 'bundle.pem': pem(...ws, ca) }), 'mutual-trust')).toHaveLength(3);
    const web = await leaf(ca, { subject: 'CN=web' });
    const api = await leaf(ca, { subject: 'CN=api' });
    expect(scenarios(await files({ 'bundle.pem': pem(web, api, ca) }), 'mutual-trust')).toEqual([]);
  });
});

describe('detection', () => {
  it('a ConfigMap with cacert only is a CA bundle of its object', async () => {
    const a = await root();
    const r = await yaml(configMap('ca', { cacert: pem(a) }));
    expect(objectKinds(r)).toEqual(['trust-bundle']);
    expect(r.scenarios.map((s) => s.title)).toEqual(['CA bundle (ConfigMap istio-system/ca)']);
  });

  it('a Secret a Gateway names in one of its servers is a credential', async () => {
    const user = gatewayUser([
      { hosts: ['a.example.com'], credentialName: 'other' },
      { hosts: ['b.example.com'], credentialName: 'cred' },
    ]);
    expect(objectKinds(await yaml(secret('cred', { foo: 'bar' }), { credentialUsers: [user] }))).toEqual(['gateway-credential']);
  });

  it('a generic Secret draws no chain', async () => {
    expect(only(await yaml(secret('misc', { a: 'b' })), 'generic-secret').chains).toEqual([]);
  });

  it('a workload Secret reads key.pem', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const s = only(await yaml(secret('wl', { 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) })), 'workload');
    expect(step(s, 'key matches the leaf').status).toBe('pass');
  });

  it('two remote secrets: each has its own clusters; one malformed kubeconfig of two fails the secret; no chain', async () => {
    const kubeconfig =
      'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://10.0.0.9:6443\nusers:\n- name: u\n  user:\n    token: abc\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n';
    const labels = { 'istio/multiCluster': 'true' };
    const r = await yaml(
      `${secret('istio-remote-secret-a', { east: kubeconfig, west: 'a: [unclosed' }, { labels })}---\n${secret('istio-remote-secret-b', { north: kubeconfig }, { labels })}`,
    );
    const list = scenarios(r, 'remote-secret');
    expect(list.map((s) => [s.title, states(s), s.verdict])).toEqual([
      [
        'Remote secret istio-system/istio-remote-secret-a (2 clusters)',
        [
          ['cluster east', 'pass'],
          ['cluster west', 'fail'],
        ],
        { ok: false, text: 'a kubeconfig is malformed' },
      ],
      ['Remote secret istio-system/istio-remote-secret-b (1 cluster)', [['cluster north', 'pass']], { ok: true, text: 'every kubeconfig is readable' }],
    ]);
    expect(list.map((s) => s.chains)).toEqual([[], []]);
  });
});

describe('dumps', () => {
  const entry = (name: string, body: object) => ({ name, secret: { name, ...body } });

  it('Envoy: a clientAuth-only workload chain verifies (any usage); SPIFFE bundles are listed; a partial anchor in a validation context anchors', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const mid = await intermediate(ca, 'CN=Mid');
    const w = await leaf(mid, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }], eku: [EKU.clientAuth] });
    const bundle = (td: string) => ({ name: td, trust_bundle: { inline_bytes: b64(pem(mid)) } });
    const dump = {
      dynamic_active_secrets: [
        entry('default', { tls_certificate: { certificate_chain: { inline_bytes: b64(pem(w)) } } }),
        entry('spiffe', {
          validation_context: { custom_validator_config: { typed_config: { trust_domains: [bundle('cluster.local'), bundle('other.local')] } } },
        }),
      ],
    };
    const r = await files({ 'secrets.json': JSON.stringify(dump) });
    const s = only(r, 'envoy-dump');
    expect(step(s, 'spiffe (ACTIVE)').detail).toBe('SPIFFE bundles: cluster.local, other.local');
    const [chain] = chainsOf(r, s);
    expect(chain!.go.ok).toBe(true);
    expect(chain!.roots).toEqual([fp(mid)]);
  });

  it('ztunnel: the workload role goes to the first certificate only; without roots the last chain certificate anchors; any usage', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const mid = await intermediate(ca, 'CN=Mid');
    const b = await leaf(mid, { subject: 'CN=b', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/b' }], eku: [EKU.clientAuth] });
    const dump = [{ identity: 'spiffe://cluster.local/ns/shop/sa/b', state: 'Available', certChain: [{ pem: pem(b, mid) }, { pem: pem(ca) }] }];
    const r = await files({ 'ztunnel.json': JSON.stringify(dump) });
    const s = only(r, 'ztunnel');
    expect(roles(r, mid)).not.toContain('workload');
    const [chain] = chainsOf(r, s);
    expect([chain!.go.ok, chain!.path, chain!.roots]).toEqual([true, [fp(b), fp(mid), fp(ca)], [fp(ca)]]);
  });

  it('a dump is no loose file: its certificate chain is no workload cert-chain.pem', async () => {
    const ca = await root();
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const dump = { dynamic_active_secrets: [entry('default', { tls_certificate: { certificate_chain: { inline_bytes: b64(pem(w)) } } })] };
    const r = await files({ 'w/cert-chain.pem': JSON.stringify(dump), 'w/key.pem': await keyPem(w.keys) });
    expect(scenarios(r, 'workload')).toEqual([]);
  });
});

describe('loose files', () => {
  it('a plug-in CA without cert-chain.pem is incomplete; ca-crl.pem is its CRL; the CHAIN_ lints apply', async () => {
    const { r0, signing, key } = await pluginCa();
    const noChain = only(await files({ 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'root-cert.pem': pem(r0) }), 'plugin-ca');
    expect(step(noChain, 'completeness')).toMatchObject({ status: 'fail', detail: 'missing: cert chain' });
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await files({
      'ca-cert.pem': pem(signing),
      'ca-key.pem': key,
      'cert-chain.pem': pem(r0),
      'root-cert.pem': pem(r0),
      'ca-crl.pem': text(crlPem(await crlDer(stranger))),
    });
    expect(step(only(r, 'plugin-ca'), 'CRL coverage').status).toBe('fail');
    expect(findingIds(r)).toContain('CHAIN_MISSING_SIGNING_CERT');
  });

  it('workload files read key.pem', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const s = only(await files({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }), 'workload');
    expect(step(s, 'key matches the leaf').status).toBe('pass');
  });
});

describe('PEM bundles', () => {
  it('a v1 self-signed certificate is a root, not a leaf; a chain is drawn for any usage', async () => {
    const r0 = await root({ subject: 'CN=Old Root' });
    const v1 = await asV1(r0, r0.keys);
    const w = await leaf(r0, { subject: 'CN=w', eku: [EKU.clientAuth] });
    const r = await files({ 'root.pem': pem(v1), 'w.pem': pem(w) });
    expect(roles(r, v1)).toEqual(['root']);
    const s = only(r, 'pem-bundle');
    expect(states(s)).toEqual([['w', 'pass']]);
  });

  it('the signing cert: first in its file, its key among others in the input; a key Go cannot use is skipped', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing');
    const mid = await intermediate(r0, 'CN=Mid');
    const keyless = await intermediate(r0, 'CN=Keyless');
    const ed448 = generateKeyPairSync('ed448').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const r = await files({
      'a.pem': pem(signing, r0),
      'b.pem': pem(r0, mid),
      'signing-key.pem': await keyPem(signing.keys),
      'mid-key.pem': await keyPem(mid.keys),
      'other-key.pem': await keyPem(await keys()),
      'ed448-key.pem': ed448,
      'c.pem': pem(keyless),
    });
    expect(roles(r, signing)).toEqual(['signing-cert']);
    // Second in its file: an intermediate even with its key.
    expect(roles(r, mid)).toEqual(['intermediate']);
    // First in its file, no key of the input (an Ed448 key has no public key Go reads): an intermediate.
    expect(roles(r, keyless)).toEqual(['intermediate']);
  });

  it('a key of two certificates names both; a certificate without CN or SPIFFE ID by its subject; one source per input', async () => {
    const r0 = await root();
    const k = await keys();
    const a = await leaf(r0, { subject: 'O=Acme', keys: k, san: [{ dns: 'a.example.com' }] });
    const b = await leaf(r0, { subject: 'CN=b', keys: k });
    const r = await yaml(secret('misc', { 'a.pem': pem(a, r0), 'b.pem': pem(b), 'k.pem': await keyPem(k) }));
    const s = only(r, 'pem-bundle');
    expect(s.source).toBe('in.yaml');
    expect(step(s, 'key in.yaml › Secret istio-system/misc › k.pem › block 0').detail).toBe(`belongs to ${a.cert.facts.subject}, b`);
  });

  it('a leaf with an empty subject and no SPIFFE ID is titled "certificate"', async () => {
    const r0 = await root();
    const w = await issue({ subject: '', issuer: r0, san: [{ dns: 'w.example.com' }] });
    expect(names(only(await files({ 'w.pem': pem(w, r0) }), 'pem-bundle'))).toEqual(['certificate']);
  });

  it('at most 50 chains are drawn', async () => {
    const r0 = await root();
    const k = await keys();
    const ws = [];
    for (let i = 0; i < 51; i++) ws.push(await leaf(r0, { subject: `CN=w${i}`, keys: k, san: [{ dns: `w${i}.example.com` }] }));
    const s = only(await files({ 'all.pem': pem(...ws, r0) }), 'pem-bundle');
    expect(s.chains).toHaveLength(50);
  });
});

it('every scenario lists only chains the report has', async () => {
  const ca = await root();
  const w = await leaf(ca);
  const r = await files({ 'a.yaml': secret('misc', { a: 'b' }), 'b.yaml': configMap('istio-ca-root-cert', { 'root-cert.pem': pem(ca) }), 'w.pem': pem(w) });
  expect(chainIdsResolve(r)).toBe(true);
});
