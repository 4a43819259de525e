// The checklist of each scenario (src/core/pki/scenarios.ts), step by step: names, statuses, the
// details where the text is the point, verdicts, roles and chains, and the edge of each condition.
// Expected values follow Istio and Go:
// - plug-in CA: pilot/pkg/bootstrap/istio_ca.go detectSigningCABundleAndCRL (tls.crt selects the
//   kubernetes.io/tls layout, whose chain files are tls.crt and ca.crt) and checkCABundleCompleteness
//   (all of key, cert, root and one chain file, else "failed to create an istiod CA: incomplete signing
//   CA bundle detected" when some exist; none existing is no bundle: istiod makes its self-signed CA);
// - self-signed CA: security/pkg/pki/ca/ca.go loads ca-cert.pem/ca-key.pem with the CA certificate as
//   its own root; security/pkg/util/certutil.go GetWaitTime rotates once NotAfter - now - 20% of the
//   lifetime is no longer > 0 (selfsignedcarootcertrotator.go skips only when waitTime > 0);
// - gateway credentials: pilot/pkg/credentials/kube/secrets.go ExtractCertInfo (cert/key before
//   tls.crt/tls.key) and ExtractRoot (cacert/crl before ca.crt/ca.crl), Go's tls.X509KeyPair, and Go's
//   crypto/x509 host matching (case-insensitive, `*.` covers one label);
// - trust bundles: Go's CertPool.AppendCertsFromPEM (only CERTIFICATE blocks without headers);
// - mutual TLS: each side verifies the other with Go for clientAuth.
import { describe, expect, it } from 'vitest';
import { DAY, EKU, NOW, intermediate, keys, leaf, root, issue } from './pkiBuilder.ts';
import { crlDer, crlPem, keyPem, pem } from './istioFixtures.ts';
import {
  REDACTED,
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

describe('plug-in CA: completeness (checkCABundleCompleteness)', () => {
  it('some files but not all: istiod refuses to start its CA, naming each missing file in its order', async () => {
    const { signing, key } = await pluginCa();
    const s = only(await yaml(secret('cacerts', { 'ca-key.pem': key })), 'plugin-ca');
    expect(s.title).toBe('Plug-in CA (Secret istio-system/cacerts, istiod file layout)');
    expect(s.verdict).toEqual({
      ok: false,
      text: 'istiod would not start its CA: failed to create an istiod CA: incomplete signing CA bundle detected',
    });
    expect(s.steps).toEqual([
      {
        name: 'layout',
        status: 'pass',
        detail: 'istiod layout: ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem',
        source: 'pilot/pkg/bootstrap/istio_ca.go:229',
      },
      {
        name: 'completeness',
        status: 'fail',
        detail: 'missing: signing cert, root cert, cert chain',
        error: 'failed to create an istiod CA: incomplete signing CA bundle detected',
        source: 'pilot/pkg/bootstrap/istio_ca.go:501',
      },
    ]);
    expect(s.chains).toEqual([]);
    const s2 = only(await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'root-cert.pem': pem(signing), 'cert-chain.pem': pem(signing) })), 'plugin-ca');
    expect(step(s2, 'completeness').detail).toBe('missing: signing key');
  });

  it('none of the four files: no bundle, so no error; istiod starts its self-signed CA instead', async () => {
    const { r0 } = await pluginCa();
    const s = only(await yaml(secret('cacerts', { 'ca.crt': pem(r0) })), 'plugin-ca');
    expect(s.verdict.ok).toBe(true);
    expect(s.verdict.text).toContain('istiod starts its self-signed CA (istio-ca-secret)');
    expect(states(s)).toEqual([
      ['layout', 'pass'],
      ['completeness', 'info'],
    ]);
  });

  it('kubernetes.io/tls layout: tls.crt, tls.key and ca.crt; the chain is tls.crt + ca.crt', async () => {
    const { r0, signing, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'tls.crt': pem(signing), 'tls.key': key, 'ca.crt': pem(r0) }, { type: 'kubernetes.io/tls' }));
    const s = only(r, 'plugin-ca');
    expect(s.title).toBe('Plug-in CA (Secret istio-system/cacerts, kubernetes.io/tls layout)');
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would load this plug-in CA' });
    expect(step(s, 'layout').detail).toBe('kubernetes.io/tls layout: signing cert tls.crt, key tls.key, root ca.crt, chain tls.crt + ca.crt');
    expect(step(s, 'completeness')).toMatchObject({ status: 'pass', detail: 'signing key, signing cert, root cert and chain present' });
    expect(roles(r, signing)).toEqual(['plugin-ca-path', 'signing-cert']);
    expect(roles(r, r0)).toEqual(['plugin-ca-path', 'trust-bundle']);
    const [chain] = chainsOf(r, s);
    expect(chain!.title).toBe('Plug-in CA (Secret istio-system/cacerts, kubernetes.io/tls layout): signing cert');
    expect(chain!.path).toEqual([fp(signing), fp(r0)]);
    expect(chain!.go.ok).toBe(true);
    // tls.crt ends with a newline: the concatenation decodes.
    expect(findingIds(r)).not.toContain('TLS_CRT_NO_TRAILING_NEWLINE');
    // CHAIN_* lints are about cert-chain.pem, which this layout has not.
    expect(findingIds(r)).not.toContain('CHAIN_CONTAINS_ROOT');
    expect(s.istio?.pluggedCaLoad?.ok).toBe(true);
  });

  it('kubernetes.io/tls layout without tls.key: only the signing key is missing (tls.crt is a chain file)', async () => {
    const { r0, signing } = await pluginCa();
    const s = only(await yaml(secret('cacerts', { 'tls.crt': pem(signing), 'ca.crt': pem(r0) })), 'plugin-ca');
    expect(step(s, 'completeness')).toMatchObject({ status: 'fail', detail: 'missing: signing key' });
  });

  it('tls.crt without a final newline: TLS_CRT_NO_TRAILING_NEWLINE', async () => {
    const { r0, signing, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'tls.crt': pem(signing).trimEnd(), 'tls.key': key, 'ca.crt': pem(r0) }));
    expect(finding(r, 'TLS_CRT_NO_TRAILING_NEWLINE')?.severity).toBe('error');
    expect(finding(r, 'TLS_CRT_NO_TRAILING_NEWLINE')?.subject).toMatchObject({ kind: 'scenario', id: 'scenario-1' });
  });
});

describe('plug-in CA: the cacerts lints and the load', () => {
  it('ca-cert.pem second in cert-chain.pem: CHAIN_FIRST_NOT_SIGNING_CERT names the block', async () => {
    const { r0, signing, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(r0, signing), 'root-cert.pem': pem(r0) }));
    expect(finding(r, 'CHAIN_FIRST_NOT_SIGNING_CERT')).toMatchObject({
      severity: 'warning',
      message:
        'Plug-in CA (Secret istio-system/cacerts, istiod file layout): ca-cert.pem is block 1 of cert-chain.pem; the metrics and TTL clamp track the first',
    });
    expect(findingIds(r)).not.toContain('CHAIN_MISSING_SIGNING_CERT');
    expect(finding(r, 'CHAIN_CONTAINS_ROOT')?.severity).toBe('info');
  });

  it('cert-chain.pem of the signing cert only: no chain lint fires', async () => {
    const { r0, signing, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(signing), 'root-cert.pem': pem(r0) }));
    expect(only(r, 'plugin-ca').verdict.ok).toBe(true);
    expect(findingIds(r).filter((id) => id.startsWith('CHAIN_') || id === 'ROOT_NOT_SELF_SIGNED')).toEqual([]);
  });

  it('root-cert.pem holding an intermediate: Go trusts it as an anchor, ROOT_NOT_SELF_SIGNED warns', async () => {
    const r0 = await root();
    const mid = await intermediate(r0, 'CN=Mid');
    const signing = await intermediate(mid, 'CN=Signing CA');
    const r = await yaml(
      secret('cacerts', {
        'ca-cert.pem': pem(signing),
        'ca-key.pem': await keyPem(signing.keys),
        'cert-chain.pem': pem(signing, mid),
        'root-cert.pem': pem(mid),
      }),
    );
    expect(only(r, 'plugin-ca').verdict.ok).toBe(true);
    expect(finding(r, 'ROOT_NOT_SELF_SIGNED')).toMatchObject({
      severity: 'warning',
      message: `Plug-in CA (Secret istio-system/cacerts, istiod file layout): root-cert.pem holds ${mid.cert.facts.subject}, which is not self-signed (a partial trust anchor)`,
    });
  });

  it('a block of root-cert.pem Go does not take: a warning step counting it', async () => {
    const { r0, signing, key } = await pluginCa();
    const rootFile = `${pem(r0)}-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n`;
    const s = only(
      await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(signing, r0), 'root-cert.pem': rootFile })),
      'plugin-ca',
    );
    expect(step(s, 'root bundle')).toEqual({
      name: 'root bundle',
      status: 'warn',
      detail: '1 block(s) of the root file ignored by Go (not certificates, headers, or certificates Go cannot parse)',
    });
    const clean = only(
      await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(signing, r0), 'root-cert.pem': pem(r0) })),
      'plugin-ca',
    );
    expect(names(clean)).not.toContain('root bundle');
  });

  it('a CRL no certificate of cert-chain.pem signed: refused (missing CRL signed by certificates), CRL_NOT_SIGNED_BY_CHAIN', async () => {
    const { r0, signing, key } = await pluginCa();
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await yaml(
      secret('cacerts', {
        'ca-cert.pem': pem(signing),
        'ca-key.pem': key,
        'cert-chain.pem': pem(signing),
        'root-cert.pem': pem(r0),
        'ca-crl.pem': text(crlPem(await crlDer(stranger))),
      }),
    );
    const s = only(r, 'plugin-ca');
    expect(s.verdict.ok).toBe(false);
    expect(s.verdict.text).toMatch(/^istiod would refuse this bundle: missing CRL signed by certificates: \[/);
    expect(finding(r, 'CRL_NOT_SIGNED_BY_CHAIN')?.severity).toBe('error');
    expect(finding(r, 'CRL_NOT_SIGNED_BY_CHAIN')?.message).toMatch(/^Plug-in CA \(Secret istio-system\/cacerts, istiod file layout\): no CRL signed by /);
    // With the signing CA's own CRL: covered.
    const ok = await yaml(
      secret('cacerts', {
        'ca-cert.pem': pem(signing),
        'ca-key.pem': key,
        'cert-chain.pem': pem(signing),
        'root-cert.pem': pem(r0),
        'ca-crl.pem': text(crlPem(await crlDer(signing))),
      }),
    );
    expect(only(ok, 'plugin-ca').verdict).toEqual({ ok: true, text: 'istiod would load this plug-in CA' });
    expect(findingIds(ok)).not.toContain('CRL_NOT_SIGNED_BY_CHAIN');
  });

  it('ca-key.pem of another key: refused, and KEY_MISMATCH on the signing certificate', async () => {
    const { r0, signing } = await pluginCa();
    const r = await yaml(
      secret('cacerts', {
        'ca-cert.pem': pem(signing),
        'ca-key.pem': await keyPem(await keys()),
        'cert-chain.pem': pem(signing, r0),
        'root-cert.pem': pem(r0),
      }),
    );
    const s = only(r, 'plugin-ca');
    expect(s.verdict).toEqual({
      ok: false,
      text: 'istiod would refuse this bundle: the cert does not match the key: tls: private key does not match public key',
    });
    const card = r.certificates.find((c) => c.id === fp(signing))!;
    expect(card.findings.find((f) => f.id === 'KEY_MISMATCH')).toEqual({
      id: 'KEY_MISMATCH',
      severity: 'error',
      message: 'ca-key.pem does not match this signing cert: the cert does not match the key: tls: private key does not match public key',
      subject: { kind: 'certificate', id: fp(signing), label: 'Signing CA' },
    });
  });
});

describe('plug-in CA: values a share link removed', () => {
  it('a certificate redacted: nothing is verified, the verdict says which value', async () => {
    const { r0, key } = await pluginCa();
    const r = await yaml(secret('cacerts', { 'ca-cert.pem': REDACTED, 'ca-key.pem': REDACTED, 'cert-chain.pem': REDACTED, 'root-cert.pem': pem(r0) }));
    const s = only(r, 'plugin-ca');
    const what = 'not checked: ca-cert.pem was redacted in this link; cert-chain.pem was redacted in this link';
    expect(s.verdict).toEqual({ ok: true, text: what });
    expect(s.steps.at(-1)).toEqual({ name: 'Verify', status: 'skipped', detail: what });
    expect(s.chains).toEqual([]);
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    // The key present and the certificate redacted: no redacted key is listed.
    const r2 = await yaml(secret('cacerts', { 'ca-cert.pem': REDACTED, 'ca-key.pem': key, 'cert-chain.pem': pem(r0), 'root-cert.pem': pem(r0) }));
    expect(r2.keys.map((k) => k.state)).not.toContain('redacted-in-link');
  });

  it('the key redacted: the verdict is conditional on the key', async () => {
    const { r0, signing } = await pluginCa();
    const s = only(
      await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': REDACTED, 'cert-chain.pem': pem(signing, r0), 'root-cert.pem': pem(r0) })),
      'plugin-ca',
    );
    expect(s.verdict).toEqual({
      ok: true,
      text: 'istiod would load this plug-in CA if its key matches the signing cert (not checked: ca-key.pem was redacted in this link)',
    });
  });
});

describe('self-signed CA (istio-ca-secret)', () => {
  const caSecret = async (ca: Awaited<ReturnType<typeof root>>, extra: Record<string, string> = {}) =>
    secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(ca.keys), ...extra }, { type: 'istio.io/ca-root' });
  const aged = (leftDays: number, extraSeconds = 0) =>
    root({ notBefore: new Date(NOW.getTime() - (100 - leftDays) * DAY), notAfter: new Date(NOW.getTime() + leftDays * DAY + extraSeconds * 1000) });

  it('loads: the steps of KeyCertBundle.Verify without the CRL step, the CA as its own root, then rotation', async () => {
    const ca = await aged(50);
    const r = await yaml(await caSecret(ca));
    const s = only(r, 'self-signed-ca');
    expect(s.title).toBe('Self-signed CA (Secret istio-system/istio-ca-secret)');
    expect(names(s)).toEqual(['signing cert parses', 'chain verification', 'key parse', 'key matches the signing cert', 'rotation']);
    expect(step(s, 'rotation')).toEqual({
      name: 'rotation',
      status: 'info',
      detail: 'istiod rotates it when 20% of its lifetime is left (in 1 month)',
      source: 'security/pkg/pki/ca/selfsignedcarootcertrotator.go',
    });
    expect(roles(r, ca)).toEqual(['root']);
    const [chain] = chainsOf(r, s);
    expect(chain!.title).toBe('Self-signed CA (Secret istio-system/istio-ca-secret): CA certificate');
    expect(chain!.path).toEqual([fp(ca)]);
    expect(s.istio?.keyCertBundleVerify).toEqual({ ok: true, failingCheck: null, error: null });
  });

  it('rotation at the edge: an hour more than 20% left waits; exactly 20% left rotates (GetWaitTime returns 0)', async () => {
    // Lifetime 100 days + 1 hour, 20 days + 1 hour left: waitTime = 1h - 20% of 1h = 48 minutes.
    const waits = only(await yaml(await caSecret(await aged(20, 3600))), 'self-signed-ca');
    expect(step(waits, 'rotation')).toMatchObject({ status: 'info', detail: 'istiod rotates it when 20% of its lifetime is left (in 48 minutes)' });
    const due = only(await yaml(await caSecret(await aged(20))), 'self-signed-ca');
    expect(step(due, 'rotation')).toMatchObject({
      status: 'warn',
      detail: '20% or less of its lifetime left: istiod rotates it (same key) at the next hourly check',
    });
  });

  it('a key of another certificate: istiod retries, then gives up', async () => {
    const ca = await root();
    const s = only(await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(await keys()) })), 'self-signed-ca');
    expect(s.verdict).toEqual({
      ok: false,
      text: 'istiod would retry for up to 20 minutes, then give up: the cert does not match the key: tls: private key does not match public key',
    });
  });

  it('either file missing: keys step fails', async () => {
    const ca = await root();
    const halves: Record<string, string>[] = [{ 'ca-cert.pem': pem(ca) }, { 'ca-key.pem': await keyPem(ca.keys) }];
    for (const data of halves) {
      const s = only(await yaml(secret('istio-ca-secret', data)), 'self-signed-ca');
      expect(s.verdict).toEqual({ ok: false, text: 'istiod would keep retrying: ca-cert.pem and ca-key.pem are both needed' });
      expect(s.steps).toEqual([{ name: 'keys', status: 'fail', detail: 'ca-cert.pem and ca-key.pem must both be present' }]);
    }
  });

  it('redacted in a share link: the certificate (nothing checked) or the key (a conditional verdict)', async () => {
    const ca = await root();
    const certGone = only(await yaml(secret('istio-ca-secret', { 'ca-cert.pem': REDACTED, 'ca-key.pem': await keyPem(ca.keys) })), 'self-signed-ca');
    expect(certGone.verdict).toEqual({ ok: true, text: 'not checked: ca-cert.pem was redacted in this link' });
    expect(certGone.steps).toEqual([{ name: 'Verify', status: 'skipped', detail: 'not checked: ca-cert.pem was redacted in this link' }]);
    const rootGone = only(
      await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(ca.keys), 'root-cert.pem': REDACTED })),
      'self-signed-ca',
    );
    expect(rootGone.verdict.text).toBe('not checked: root-cert.pem was redacted in this link');
    const r = await yaml(secret('istio-ca-secret', { 'ca-cert.pem': pem(ca), 'ca-key.pem': REDACTED }));
    expect(only(r, 'self-signed-ca').verdict).toEqual({
      ok: true,
      text: 'istiod would load this self-signed CA if its key matches the CA certificate (not checked: ca-key.pem was redacted in this link)',
    });
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
  });
});

describe('workload certificates', () => {
  const wl = (data: Record<string, string>) => secret('wl', data, { namespace: 'shop' });

  it('a SPIFFE leaf in the mesh trust domain: every step passes, the chain is drawn for any usage', async () => {
    const ca = await root();
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const r = await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }));
    const s = only(r, 'workload');
    expect(s.title).toBe('Workload certificates (Secret shop/wl)');
    expect(s.verdict).toEqual({ ok: true, text: "a Go peer (and Istio's VerifyCertificate) would accept this workload certificate" });
    expect(step(s, 'trust domain')).toEqual({ name: 'trust domain', status: 'pass', detail: 'cluster.local is the mesh trust domain' });
    expect(roles(r, w)).toEqual(['workload']);
    expect(roles(r, ca)).toEqual(['trust-bundle']);
    const [chain] = chainsOf(r, s);
    expect(chain!.title).toBe('Workload certificates (Secret shop/wl): workload certificate');
    expect(chain!.go.usages).toEqual(['any']);
    expect(chain!.path).toEqual([fp(w), fp(ca)]);
  });

  it('a leaf without SPIFFE IDs: no trust domain step', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const s = only(await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) })), 'workload');
    expect(s.verdict.ok).toBe(true);
    expect(names(s)).not.toContain('trust domain');
  });

  it('a chain that does not verify: the verdict is Go’s error', async () => {
    const ca = await root();
    const other = await root({ subject: 'CN=Other' });
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const s = only(await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(other) })), 'workload');
    expect(s.verdict.ok).toBe(false);
    expect(s.verdict.text).toMatch(/x509: certificate signed by unknown authority/);
    expect(s.istio?.workloadVerify?.ok).toBe(false);
  });

  it('several foreign trust domains listed against the domain and its aliases', async () => {
    const ca = await root();
    const w = await leaf(ca, { san: [{ uri: 'spiffe://a.example/ns/x/sa/y' }] });
    const s = only(
      await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }), {
        trustDomain: 'mesh.local',
        aliases: ['old.local'],
      }),
      'workload',
    );
    expect(step(s, 'trust domain')).toEqual({
      name: 'trust domain',
      status: 'fail',
      detail: "a.example is not mesh.local or old.local: authorization policies won't match (TRUST_DOMAIN_MISMATCH)",
    });
    expect(s.verdict).toEqual({
      ok: false,
      text: "the chain verifies, but a.example is not mesh.local or old.local: authorization policies won't match (TRUST_DOMAIN_MISMATCH)",
    });
  });

  it('redacted in a share link: the certificate (listed once, though it is also the chain) or the key', async () => {
    const ca = await root();
    const w = await leaf(ca);
    const certGone = only(await yaml(wl({ 'cert-chain.pem': REDACTED, 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) })), 'workload');
    expect(certGone.verdict).toEqual({ ok: true, text: 'not checked: cert-chain.pem was redacted in this link' });
    expect(certGone.steps).toEqual([{ name: 'chain verification', status: 'skipped', detail: 'not checked: cert-chain.pem was redacted in this link' }]);
    expect(certGone.chains).toEqual([]);
    const r = await yaml(wl({ 'cert-chain.pem': pem(w), 'key.pem': REDACTED, 'root-cert.pem': pem(ca) }));
    const keyGone = only(r, 'workload');
    expect(keyGone.verdict.ok).toBe(true);
    expect(step(keyGone, 'key matches the leaf').status).toBe('skipped');
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
  });
});

describe('gateway credential: keys', () => {
  it('cert/key take precedence over tls.crt/tls.key, and the CRL key is named', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const other = await leaf(ca, { subject: 'CN=other' });
    const r = await yaml(
      secret('cred', {
        cert: pem(server),
        key: await keyPem(server.keys),
        crl: text(crlPem(await crlDer(ca))),
        'tls.crt': pem(other),
        'tls.key': await keyPem(other.keys),
      }),
    );
    const s = only(r, 'gateway-credential');
    expect(step(s, 'keys (ExtractCertInfo)')).toEqual({
      name: 'keys (ExtractCertInfo)',
      status: 'pass',
      detail: 'certificate from "cert", key from "key", CRL from "crl" (cert/key take precedence over tls.crt/tls.key)',
      source: 'pilot/pkg/credentials/kube/secrets.go:291',
    });
    expect(roles(r, server)).toEqual(['gateway-server']);
  });

  it('tls.crt/tls.key alone: no precedence note; cert/key alone: none either', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const tls = only(await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys) })), 'gateway-credential');
    expect(step(tls, 'keys (ExtractCertInfo)').detail).toBe('certificate from "tls.crt", key from "tls.key"');
    const generic = only(await yaml(secret('cred', { cert: pem(server), key: await keyPem(server.keys) })), 'gateway-credential');
    expect(step(generic, 'keys (ExtractCertInfo)').detail).toBe('certificate from "cert", key from "key"');
  });

  it('empty cert and key: ExtractCertInfo says so, for each Gateway using it', async () => {
    const r = await yaml(secret('cred', { cert: '', key: '' }), {
      credentialUsers: [gatewayUser([{ hosts: ['a.example.com'], credentialName: 'kubernetes://cred' }])],
    });
    const s = only(r, 'gateway-credential');
    expect(s.verdict).toEqual({ ok: false, text: 'istiod cannot serve this credential: found keys "cert" and "key", but they were empty' });
    expect(s.steps).toEqual([
      {
        name: 'keys (ExtractCertInfo)',
        status: 'fail',
        detail: 'cert/key or tls.crt/tls.key, non-empty',
        error: 'found keys "cert" and "key", but they were empty',
        source: 'pilot/pkg/credentials/kube/secrets.go:291',
      },
      {
        name: 'IST0161 on Gateway default/gw',
        status: 'fail',
        detail: 'gateway.SecretAnalyzer reports InvalidGatewayCredential',
        error: 'found keys "cert" and "key", but they were empty',
      },
    ]);
    expect(s.object).toMatchObject({ kind: 'Secret', namespace: 'istio-system', name: 'cred', input: 'in.yaml' });
  });

  it('a Gateway whose secret namespace differs is not a user of the Secret', async () => {
    const r = await yaml(secret('cred', { cert: '', key: '' }), {
      credentialUsers: [gatewayUser([{ hosts: ['a.example.com'], credentialName: 'cred' }], 'gw', 'other-ns')],
    });
    expect(names(only(r, 'gateway-credential'))).toEqual(['keys (ExtractCertInfo)']);
  });
});

describe('gateway credential: certificate, key and chain', () => {
  it('an expired certificate and a mismatched key: IST0161 per user with the error; the verdict names validity first', async () => {
    const ca = await root();
    const server = await leaf(ca, { notBefore: new Date(NOW.getTime() - 20 * DAY), notAfter: new Date(NOW.getTime() - DAY) });
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(await keys()) }), {
      credentialUsers: [gatewayUser([{ hosts: ['leaf.example.com'], credentialName: 'cred' }]), gatewayUser([{ hosts: [], credentialName: 'cred' }], 'gw2')],
    });
    const s = only(r, 'gateway-credential');
    expect(s.verdict).toEqual({ ok: false, text: 'invalid gateway credential (IST0161): certificate is expired or not yet valid' });
    expect(step(s, 'validity (ValidateCertificate)')).toEqual({
      name: 'validity (ValidateCertificate)',
      status: 'fail',
      detail: 'istiod logs a warning and sends it anyway; gateway.SecretAnalyzer reports IST0161',
      error: 'certificate is expired or not yet valid',
      source: 'pilot/pkg/xds/sds.go:221',
    });
    expect(step(s, 'IST0161 on Gateway default/gw2')).toEqual({
      name: 'IST0161 on Gateway default/gw2',
      status: 'fail',
      detail: 'InvalidGatewayCredential: the credential of Gateway default/gw2 is invalid (certificate is expired or not yet valid)',
      error: 'certificate is expired or not yet valid',
    });
    expect(step(s, 'key matches the certificate (tls.X509KeyPair)')).toMatchObject({
      status: 'fail',
      error: 'tls: private key does not match public key',
    });
    expect(finding(r, 'KEY_MISMATCH')?.message).toBe('Gateway credential (Secret istio-system/cred): tls: private key does not match public key');
  });

  it('a valid certificate: validity and key pass, no IST0161 step; the chain verifies to ca.crt', async () => {
    const ca = await root({ subject: 'CN=Gateway CA' });
    const server = await leaf(ca);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }), {
      credentialUsers: [gatewayUser([{ hosts: ['leaf.example.com'], credentialName: 'cred' }])],
    });
    const s = only(r, 'gateway-credential');
    expect(step(s, 'validity (ValidateCertificate)')).toMatchObject({ status: 'pass', detail: 'the first PEM block parses and is within its validity window' });
    expect(step(s, 'key matches the certificate (tls.X509KeyPair)')).toEqual({
      name: 'key matches the certificate (tls.X509KeyPair)',
      status: 'pass',
      detail: 'same public key',
    });
    expect(names(s).filter((n) => n.startsWith('IST0161'))).toEqual([]);
    expect(step(s, 'chain')).toEqual({ name: 'chain', status: 'pass', detail: `verifies to ${ca.cert.facts.subject}` });
    expect(step(s, 'client CA (ExtractRoot)')).toEqual({ name: 'client CA (ExtractRoot)', status: 'pass', detail: '"ca.crt": 1 CA certificate(s) for MUTUAL' });
    expect(roles(r, ca)).toEqual(['gateway-client-ca']);
    expect(findingIds(r)).not.toContain('KEY_MISMATCH');
  });

  it('without ca.crt the chain is checked against the roots of the input; a missing issuer is a warning', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys) }));
    const s = only(r, 'gateway-credential');
    expect(s.verdict).toEqual({ ok: true, text: 'istiod would serve this credential' });
    expect(step(s, 'chain').status).toBe('warn');
    expect(step(s, 'chain').detail).toMatch(/ \(clients need the issuer; istiod does not check this\)$/);
    expect(names(s)).not.toContain('client CA (ExtractRoot)');
    // The root pasted alongside is an anchor of the input.
    const r2 = await files({ 'cred.yaml': secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys) }), 'root.pem': pem(ca) });
    expect(step(only(r2, 'gateway-credential'), 'chain').status).toBe('pass');
  });

  it('ca.crt without a certificate: the client CA step fails', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const s = only(
      await yaml(secret('cred', { 'tls.crt': pem(server, ca), 'tls.key': await keyPem(server.keys), 'ca.crt': 'not a certificate' })),
      'gateway-credential',
    );
    expect(step(s, 'client CA (ExtractRoot)')).toEqual({ name: 'client CA (ExtractRoot)', status: 'fail', detail: 'no certificate in the CA bundle' });
  });

  it('redacted in a share link: the certificate, the key, or ca.crt', async () => {
    const ca = await root();
    const server = await leaf(ca);
    const certGone = only(await yaml(secret('cred', { 'tls.crt': REDACTED, 'tls.key': await keyPem(server.keys) })), 'gateway-credential');
    expect(certGone.verdict).toEqual({ ok: true, text: 'not checked: tls.crt was redacted in this link' });
    expect(states(certGone)).toEqual([
      ['keys (ExtractCertInfo)', 'pass'],
      ['validity (ValidateCertificate)', 'skipped'],
      ['key matches the certificate (tls.X509KeyPair)', 'skipped'],
    ]);
    expect(certGone.steps.slice(1).map((x) => x.detail)).toEqual([
      'not checked: tls.crt was redacted in this link',
      'not checked: tls.crt was redacted in this link',
    ]);
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': REDACTED, 'ca.crt': REDACTED }));
    const keyGone = only(r, 'gateway-credential');
    expect(keyGone.verdict).toEqual({
      ok: true,
      text: 'istiod would serve this credential; Envoy loads it if its key matches the certificate (not checked: tls.key was redacted in this link)',
    });
    expect(step(keyGone, 'key matches the certificate (tls.X509KeyPair)')).toEqual({
      name: 'key matches the certificate (tls.X509KeyPair)',
      status: 'skipped',
      detail: 'not checked (tls.key was redacted in this link)',
    });
    expect(step(keyGone, 'client CA (ExtractRoot)')).toEqual({
      name: 'client CA (ExtractRoot)',
      status: 'skipped',
      detail: 'not checked: ca.crt was redacted in this link',
    });
    expect(findingIds(r)).not.toContain('KEY_MISMATCH');
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
  });
});

describe('gateway credential: hosts of the servers naming it', () => {
  async function hostSteps(san: Array<{ dns: string }> | undefined, servers: Array<{ hosts: string[]; credentialName: string }>) {
    const ca = await root();
    const server = await leaf(ca, { san });
    const r = await yaml(secret('cred', { 'tls.crt': pem(server), 'tls.key': await keyPem(server.keys), 'ca.crt': pem(ca) }), {
      credentialUsers: [gatewayUser(servers)],
    });
    return only(r, 'gateway-credential').steps.filter((x) => x.name.startsWith('hosts of '));
  }

  it('case-insensitive names, `*` skipped, a wildcard host covered by a wildcard name, namespaces stripped', async () => {
    const steps = await hostSteps(
      [{ dns: 'Shop.Example.com' }, { dns: '*.api.example.com' }],
      [{ hosts: ['ns/shop.example.COM', '*', '*.api.example.com', 'v1.api.example.com'], credentialName: 'cred' }],
    );
    expect(steps).toEqual([
      {
        name: 'hosts of Gateway default/gw server 0',
        status: 'pass',
        detail: "shop.example.COM, *, *.api.example.com, v1.api.example.com covered by the certificate's DNS SANs",
      },
    ]);
  });

  it('a wildcard host is not covered by one exact name; a wildcard name does not cover deeper or bare names', async () => {
    const steps = await hostSteps(
      [{ dns: 'a.example.com' }, { dns: '*.b.example.com' }],
      [{ hosts: ['*.example.com', 'x.y.b.example.com', 'b.example.com', 'x.b.example.com'], credentialName: 'cred' }],
    );
    expect(steps[0]).toEqual({
      name: 'hosts of Gateway default/gw server 0',
      status: 'fail',
      detail: '*.example.com, x.y.b.example.com, b.example.com not covered by the DNS SANs (a.example.com, *.b.example.com); clients will see a name mismatch',
    });
  });

  it('no hosts on the server: info; no DNS SANs on the certificate: "none"', async () => {
    expect(await hostSteps([{ dns: 'a.example.com' }], [{ hosts: [], credentialName: 'cred' }])).toEqual([
      { name: 'hosts of Gateway default/gw server 0', status: 'info', detail: 'the server lists no hosts' },
    ]);
    const bare = await hostSteps(undefined, [{ hosts: ['a.example.com'], credentialName: 'cred' }]);
    expect(bare[0]!.detail).toBe('a.example.com not covered by the DNS SANs (none); clients will see a name mismatch');
  });
});

describe('gateway client CA', () => {
  it('cacert with a CRL the CA signed: pass; keys named', async () => {
    const ca = await root({ subject: 'CN=Client CA' });
    // A certificate next to the CRL in the crl key is not a CRL: one CRL step.
    const r = await yaml(secret('cred-cacert', { cacert: pem(ca), crl: pem(ca) + text(crlPem(await crlDer(ca))) }));
    const s = only(r, 'gateway-ca');
    expect(s.title).toBe('Gateway client CA (Secret istio-system/cred-cacert)');
    expect(s.verdict).toEqual({ ok: true, text: 'usable as the client CA of a MUTUAL gateway' });
    expect(s.steps).toEqual([
      { name: 'keys (ExtractRoot)', status: 'pass', detail: 'CA bundle from "cacert", CRL from "crl"', source: 'pilot/pkg/credentials/kube/secrets.go:339' },
      { name: 'CA bundle', status: 'pass', detail: '1 certificate(s)' },
      { name: 'CRL', status: 'pass', detail: `signed by the CA (${ca.cert.facts.subject})` },
    ]);
    expect(roles(r, ca)).toEqual(['gateway-client-ca']);
    expect(findingIds(r)).not.toContain('CRL_NOT_SIGNED_BY_CHAIN');
  });

  it('ca.crt with a ca.crl another CA signed: the CRL step fails, CRL_NOT_SIGNED_BY_CHAIN', async () => {
    const ca = await root({ subject: 'CN=Client CA' });
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await yaml(secret('cred-cacert', { 'ca.crt': pem(ca), 'ca.crl': text(crlPem(await crlDer(stranger))) }));
    const s = only(r, 'gateway-ca');
    expect(s.verdict).toEqual({ ok: false, text: 'the client CA has problems' });
    expect(step(s, 'keys (ExtractRoot)').detail).toBe('CA bundle from "ca.crt", CRL from "ca.crl"');
    expect(step(s, 'CRL')).toEqual({
      name: 'CRL',
      status: 'fail',
      detail: `issued by ${stranger.cert.facts.subject}, not signed by any certificate of the CA bundle (CRL_NOT_SIGNED_BY_CHAIN)`,
    });
    expect(finding(r, 'CRL_NOT_SIGNED_BY_CHAIN')?.message).toBe(
      `Gateway client CA (Secret istio-system/cred-cacert): the CRL issued by ${stranger.cert.facts.subject} is not signed by the CA next to it`,
    );
  });

  it('a CA bundle without certificates, an empty key, a redacted bundle', async () => {
    const none = only(await yaml(secret('cred-cacert', { cacert: 'hello' })), 'gateway-ca');
    expect(none.verdict.ok).toBe(false);
    expect(step(none, 'CA bundle')).toEqual({ name: 'CA bundle', status: 'fail', detail: '0 certificate(s)' });
    expect(step(none, 'keys (ExtractRoot)').detail).toBe('CA bundle from "cacert"');
    const empty = only(await yaml(secret('cred-cacert', { 'ca.crt': '' })), 'gateway-ca');
    expect(empty.verdict).toEqual({ ok: false, text: 'found key "ca.crt", but it was empty' });
    expect(empty.steps[0]).toMatchObject({ name: 'keys (ExtractRoot)', status: 'fail', detail: 'cacert or ca.crt, non-empty' });
    const gone = only(await yaml(secret('cred-cacert', { cacert: REDACTED })), 'gateway-ca');
    expect(gone.verdict).toEqual({ ok: true, text: 'not checked: cacert was redacted in this link' });
    expect(gone.steps).toEqual([{ name: 'CA bundle', status: 'skipped', detail: 'not checked: cacert was redacted in this link' }]);
  });
});

describe('trust bundles', () => {
  it('blocks Go ignores are counted; a bundle without certificates fails', async () => {
    const r0 = await root();
    const s = only(
      await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': `${pem(r0)}-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n` })),
      'trust-bundle',
    );
    expect(s.steps).toEqual([{ name: 'roots', status: 'pass', detail: '1 certificate(s); 1 block(s) ignored by Go' }]);
    expect(s.verdict).toEqual({ ok: true, text: '1 root(s) Go would trust' });
    const empty = only(await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': 'nothing here' })), 'trust-bundle');
    expect(empty.steps).toEqual([{ name: 'roots', status: 'fail', detail: '0 certificate(s)' }]);
    expect(empty.verdict).toEqual({ ok: false, text: '0 root(s) Go would trust' });
  });

  it('a certificate without a common name is named by its subject; an expired one says when', async () => {
    const r0 = await root();
    const partial = await issue({ subject: 'O=Acme', issuer: r0, ca: true });
    const old = await root({ subject: 'O=Old', notBefore: new Date(NOW.getTime() - 40 * DAY), notAfter: new Date('2026-05-01T00:00:00Z') });
    const s = only(await yaml(configMap('istio-ca-root-cert', { 'root-cert.pem': pem(partial, old) })), 'trust-bundle');
    expect(s.steps).toEqual([
      { name: 'roots', status: 'pass', detail: '2 certificate(s)' },
      { name: partial.cert.facts.subject, status: 'warn', detail: 'not self-signed: a partial trust anchor (Go accepts it; ROOT_NOT_SELF_SIGNED)' },
      { name: old.cert.facts.subject, status: 'fail', detail: 'expired 2026-05-01T00:00:00Z' },
    ]);
    expect(s.object).toMatchObject({ kind: 'ConfigMap', namespace: 'istio-system', name: 'istio-ca-root-cert' });
  });
});

describe('mutual trust', () => {
  const spiffe = (td: string, sa: string) => [{ uri: `spiffe://${td}/ns/shop/sa/${sa}` }];

  it('two workloads of one root: each accepts the other for clientAuth, naming the root', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const a = await leaf(ca, { subject: 'CN=a', san: spiffe('cluster.local', 'a') });
    const b = await leaf(ca, { subject: 'CN=b', san: spiffe('cluster.local', 'b'), eku: [EKU.any] });
    const s = only(await files({ 'bundle.pem': pem(a, b, ca) }), 'mutual-trust');
    expect(s.title).toBe('Will spiffe://cluster.local/ns/shop/sa/a and spiffe://cluster.local/ns/shop/sa/b trust each other?');
    expect(s.source).toBe('input');
    expect(s.verdict).toEqual({ ok: true, text: 'yes: each verifies the other against the roots supplied' });
    expect(s.steps).toEqual([
      {
        name: 'spiffe://cluster.local/ns/shop/sa/a accepts spiffe://cluster.local/ns/shop/sa/b',
        status: 'pass',
        detail: `verifies to ${ca.cert.facts.subject} (clientAuth)`,
        error: undefined,
      },
      {
        name: 'spiffe://cluster.local/ns/shop/sa/b accepts spiffe://cluster.local/ns/shop/sa/a',
        status: 'pass',
        detail: `verifies to ${ca.cert.facts.subject} (clientAuth)`,
        error: undefined,
      },
      { name: 'trust domains', status: 'pass', detail: 'cluster.local: the mesh trust domain' },
    ]);
  });

  it('a foreign trust domain warns (mTLS still works); an alias passes', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a', san: spiffe('cluster.local', 'a') });
    const b = await leaf(ca, { subject: 'CN=b', san: spiffe('other.domain', 'b') });
    const foreign = only(await files({ 'bundle.pem': pem(a, b, ca) }), 'mutual-trust');
    expect(foreign.verdict.ok).toBe(true);
    expect(step(foreign, 'trust domains')).toEqual({
      name: 'trust domains',
      status: 'warn',
      detail: "other.domain is not cluster.local: mTLS works, but authorization policies naming principals in the mesh trust domain won't match",
    });
    const aliased = only(await files({ 'bundle.pem': pem(a, b, ca) }, { aliases: ['other.domain'] }), 'mutual-trust');
    expect(step(aliased, 'trust domains')).toEqual({
      name: 'trust domains',
      status: 'pass',
      detail: 'cluster.local, other.domain: the mesh trust domain or an alias',
    });
  });

  it('a certificate with clientAuth only fails its usages step; one without an EKU extension is fine', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a', san: spiffe('cluster.local', 'a'), eku: [EKU.clientAuth] });
    const b = await issue({ subject: 'CN=b', issuer: ca, san: spiffe('cluster.local', 'b') });
    const s = only(await files({ 'bundle.pem': pem(a, b, ca) }), 'mutual-trust');
    expect(s.verdict).toEqual({ ok: false, text: 'no: see the failing step' });
    expect(states(s).filter(([, st]) => st === 'fail')).toEqual([['spiffe://cluster.local/ns/shop/sa/a usages', 'fail']]);
    expect(step(s, 'spiffe://cluster.local/ns/shop/sa/a usages').detail).toBe('a mesh certificate needs both serverAuth and clientAuth');
  });

  it('at most three pairs are checked', async () => {
    const ca = await root();
    const ws = [];
    for (const n of ['a', 'b', 'c', 'd']) ws.push(await leaf(ca, { subject: `CN=${n}`, san: spiffe('cluster.local', n) }));
    expect(scenarios(await files({ 'bundle.pem': pem(...ws, ca) }), 'mutual-trust')).toHaveLength(3);
  });
});
