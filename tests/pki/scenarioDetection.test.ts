// Which inputs form which scenario (src/core/pki/scenarioDetection.ts), and what the scenarios of
// dumps, remote secrets, loose files and PEM bundles show. Expected values follow Istio:
// - istiod's self-signed CA lives in istio-ca-secret, of type istio.io/ca-root (security/pkg/pki/ca/ca.go);
// - a plug-in CA is the cacerts Secret, or files named ca-cert.pem, ca-key.pem, cert-chain.pem and
//   root-cert.pem (pilot/pkg/bootstrap/istio_ca.go), one CA per directory;
// - a gateway's client CA is `<credentialName>-cacert`, read with ExtractRoot (cacert or ca.crt), and a
//   gateway credential holds cert/key or tls.crt/tls.key (pilot/pkg/credentials/kube/secrets.go);
// - a workload's SDS files are cert-chain.pem, key.pem and root-cert.pem (the agent's output directory);
// - an Envoy SDS secret is WARMING until it was delivered, and ztunnel reports each identity's state.
import { describe, expect, it } from 'vitest';
import { EKU, intermediate, issue, keys, leaf, root } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';
import { b64, chainsOf, configMap, files, fp, gatewayUser, names, only, roles, scenarios, secret, states, step, yaml } from './scenarioInputs.ts';

const kinds = (r: { scenarios: Array<{ kind: string }> }) => r.scenarios.map((s) => s.kind);
/** The kinds of the scenarios of Kubernetes objects (the values of a Secret Istio does not read are PEM bundles besides). */
const objectKinds = (r: { scenarios: Array<{ kind: string; object?: unknown }> }) => r.scenarios.filter((s) => s.object).map((s) => s.kind);

describe('Kubernetes objects', () => {
  it('ConfigMaps: root-cert.pem first, then cacert before ca.crt; a ConfigMap with neither is no scenario', async () => {
    const a = await root({ subject: 'CN=A' });
    const b = await root({ subject: 'CN=B' });
    // The value not read is a trust bundle of its own (a loose PEM), without an object.
    const bothReport = await yaml(configMap('bundle', { 'root-cert.pem': pem(a), cacert: pem(b) }));
    const [both] = bothReport.scenarios.filter((s) => s.object);
    expect(both!.title).toBe('Trust bundle (ConfigMap istio-system/bundle)');
    expect(both!.verdict.text).toBe('1 root(s) Go would trust');
    expect(objectKinds(bothReport)).toEqual(['trust-bundle']);
    const r = await yaml(configMap('ca', { cacert: pem(a), 'ca.crt': pem(b) }));
    const [ca] = r.scenarios.filter((s) => s.object);
    expect(ca!.title).toBe('CA bundle (ConfigMap istio-system/ca)');
    expect(ca!.steps[0]!.detail).toBe('1 certificate(s)');
    expect(r.scenarios.find((s) => !s.object)?.title).toBe('Trust bundle (in.yaml › ConfigMap istio-system/ca › ca.crt)');
    const crtOnly = only(await yaml(configMap('ca', { 'ca.crt': pem(a, b) })), 'trust-bundle');
    expect(crtOnly.verdict.text).toBe('2 root(s) Go would trust');
    expect(objectKinds(await yaml(configMap('other', { 'x.pem': pem(a) })))).toEqual([]);
  });

  it('the self-signed CA: by name istio-ca-secret, by type istio.io/ca-root, or by the istio-generated key', async () => {
    const ca = await root();
    const data = { 'ca-cert.pem': pem(ca), 'ca-key.pem': await keyPem(ca.keys) };
    const byName = only(await yaml(secret('istio-ca-secret', data)), 'self-signed-ca');
    expect(byName.title).toBe('Self-signed CA (Secret istio-system/istio-ca-secret)');
    expect(byName.object).toMatchObject({ kind: 'Secret', namespace: 'istio-system', name: 'istio-ca-secret', input: 'in.yaml' });
    const byType = only(await yaml(secret('my-ca', data, { type: 'istio.io/ca-root' })), 'self-signed-ca');
    expect(byType.title).toBe('Self-signed CA (Secret istio-system/my-ca)');
    // istiod writes istio-generated into cacerts when it keeps its self-signed CA there (USE_CACERTS_FOR_SELF_SIGNED_CA).
    const generated = await yaml(secret('cacerts', { ...data, 'istio-generated': '' }));
    expect(kinds(generated)).toEqual(['self-signed-ca']);
    expect(kinds(await yaml(secret('my-ca', data, { type: 'Opaque' })))).toEqual(['plugin-ca']);
  });

  it('a plug-in CA: the cacerts name alone, or ca-cert.pem with ca-key.pem under any name', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing');
    const key = await keyPem(signing.keys);
    const named = only(await yaml(secret('cacerts', { 'ca-cert.pem': pem(signing) })), 'plugin-ca');
    expect(named.title).toBe('Plug-in CA (Secret istio-system/cacerts, istiod file layout)');
    const anyName = only(
      await yaml(secret('mesh-ca', { 'ca-cert.pem': pem(signing), 'ca-key.pem': key, 'cert-chain.pem': pem(signing, r0), 'root-cert.pem': pem(r0) })),
      'plugin-ca',
    );
    expect(anyName.title).toBe('Plug-in CA (Secret istio-system/mesh-ca, istiod file layout)');
    expect(anyName.verdict.ok).toBe(true);
    // ca-cert.pem without ca-key.pem under another name: not a plug-in CA.
    expect(objectKinds(await yaml(secret('mesh-ca', { 'ca-cert.pem': pem(signing) })))).toEqual(['generic-secret']);
    expect(objectKinds(await yaml(secret('mesh-ca', { 'ca-key.pem': key })))).toEqual(['generic-secret']);
  });

  it('the CRL of an istiod-layout plug-in CA is ca-crl.pem', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing');
    const s = only(
      await yaml(
        secret('cacerts', {
          'ca-cert.pem': pem(signing),
          'ca-key.pem': await keyPem(signing.keys),
          'cert-chain.pem': pem(signing),
          'root-cert.pem': pem(r0),
          'ca-crl.pem': 'not a CRL',
        }),
      ),
      'plugin-ca',
    );
    expect(step(s, 'CRL coverage').status).toBe('fail');
  });

  it('a gateway client CA: the -cacert suffix, or cacert/ca.crt without server keys in at most three keys', async () => {
    const ca = await root();
    expect(kinds(await yaml(secret('x-cacert', { foo: 'bar' })))).toEqual(['gateway-ca']);
    expect(kinds(await yaml(secret('client-ca', { cacert: pem(ca), crl: 'x', extra: 'y' })))).toEqual(['gateway-ca']);
    expect(kinds(await yaml(secret('client-ca', { 'ca.crt': pem(ca) })))).toEqual(['gateway-ca']);
    // A fourth key: not recognised as a client CA.
    expect(objectKinds(await yaml(secret('client-ca', { cacert: pem(ca), crl: 'x', extra: 'y', more: 'z' })))).toEqual(['generic-secret']);
    // Any of the server keys makes it a credential.
    for (const k of ['cert', 'tls.crt', 'key', 'tls.key'])
      expect(kinds(await yaml(secret('client-ca', { 'ca.crt': pem(ca), [k]: 'x' }))), k).toEqual(['gateway-credential']);
  });

  it('a gateway credential: by its keys, by type kubernetes.io/tls, or because a Gateway names it', async () => {
    const tlsTyped = only(await yaml(secret('cred', { foo: 'bar' }, { type: 'kubernetes.io/tls' })), 'gateway-credential');
    expect(tlsTyped.title).toBe('Gateway credential (Secret istio-system/cred)');
    expect(step(tlsTyped, 'keys (ExtractCertInfo)').status).toBe('fail');
    const user = gatewayUser([{ hosts: ['a.example.com'], credentialName: 'kubernetes-gateway://istio-system/cred' }]);
    expect(kinds(await yaml(secret('cred', { foo: 'bar' }), { credentialUsers: [user] }))).toEqual(['gateway-credential']);
    // Named from another namespace, or another name: a generic Secret.
    expect(kinds(await yaml(secret('cred', { foo: 'bar' }, { namespace: 'other' }), { credentialUsers: [user] }))).toEqual(['generic-secret']);
    expect(kinds(await yaml(secret('cred2', { foo: 'bar' }), { credentialUsers: [user] }))).toEqual(['generic-secret']);
  });

  it('workload certificates need cert-chain.pem and key.pem; cert-chain.pem is the leaf and the chain', async () => {
    const ca = await root();
    const mid = await intermediate(ca, 'CN=Mid');
    const w = await leaf(mid, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const r = await yaml(secret('wl', { 'cert-chain.pem': pem(w, mid), 'key.pem': await keyPem(w.keys), 'root-cert.pem': pem(ca) }, { namespace: 'shop' }));
    const s = only(r, 'workload');
    expect(s.title).toBe('Workload certificates (Secret shop/wl)');
    expect(chainsOf(r, s)[0]!.path).toEqual([fp(w), fp(mid), fp(ca)]);
    expect(objectKinds(await yaml(secret('wl', { 'cert-chain.pem': pem(w, mid) })))).toEqual(['generic-secret']);
    expect(objectKinds(await yaml(secret('wl', { 'key.pem': await keyPem(w.keys) })))).toEqual(['generic-secret']);
  });

  it('a generic Secret lists its keys sorted, or none', async () => {
    const s = only(await yaml(secret('misc', { 'z.txt': 'z', 'a.txt': 'a' })), 'generic-secret');
    expect(s.title).toBe('Secret istio-system/misc');
    expect(s.source).toBe('in.yaml');
    expect(step(s, 'key names')).toEqual({
      name: 'key names',
      status: 'info',
      detail:
        'found: a.txt, z.txt. Istio reads cacerts (ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem or tls.crt, tls.key, ca.crt), gateway credentials (cert/key or tls.crt/tls.key, and cacert or ca.crt), istio-ca-secret (ca-cert.pem, ca-key.pem)',
    });
    const none = only(await yaml(secret('misc', {})), 'generic-secret');
    expect(step(none, 'key names').detail).toMatch(/^found: none\. /);
  });
});

describe('remote secrets', () => {
  it('a kubeconfig that is not YAML or not an object: the cluster step fails with the error', async () => {
    const r = await yaml(secret('istio-remote-secret-east', { east: 'a: [unclosed', west: '- just a list' }, { labels: { 'istio/multiCluster': 'true' } }));
    const s = only(r, 'remote-secret');
    expect(s.title).toBe('Remote secret istio-system/istio-remote-secret-east (2 clusters)');
    expect(s.verdict).toEqual({ ok: false, text: 'a kubeconfig is malformed' });
    expect(states(s)).toEqual([
      ['cluster east', 'fail'],
      ['cluster west', 'fail'],
    ]);
    expect(step(s, 'cluster east').detail).toMatch(/^the kubeconfig is not readable YAML: /);
    expect(step(s, 'cluster east').error).toBe(step(s, 'cluster east').detail);
    expect(step(s, 'cluster west')).toMatchObject({ detail: 'the value is not a kubeconfig', error: 'the value is not a kubeconfig' });
    expect(s.object).toMatchObject({ kind: 'Secret', namespace: 'istio-system', name: 'istio-remote-secret-east' });
  });

  it('one cluster: singular title; a readable kubeconfig passes with its server and auth', async () => {
    const kubeconfig =
      'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://10.0.0.9:6443\nusers:\n- name: u\n  user:\n    token: abc\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n';
    const r = await yaml(secret('istio-remote-secret-x', { x: kubeconfig }, { labels: { 'istio/multiCluster': 'true' } }));
    const s = only(r, 'remote-secret');
    expect(s.title).toBe('Remote secret istio-system/istio-remote-secret-x (1 cluster)');
    expect(s.verdict).toEqual({ ok: true, text: 'every kubeconfig is readable' });
    expect(step(s, 'cluster x')).toMatchObject({ status: 'pass', detail: `https://10.0.0.9:6443 (${r.remotes[0]!.auth})` });
    expect(r.remotes[0]!.auth).not.toBe('');
  });
});

describe('Envoy dumps', () => {
  it('istioctl proxy-config secret: WARMING warns, uninitialized is named, each kind of secret described', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const entry = (name: string, versionInfo: string, body: object) => ({
      name,
      versionInfo,
      secret: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret', name, ...body },
    });
    const dump = {
      dynamicWarmingSecrets: [entry('default', 'uninitialized', {})],
      dynamicActiveSecrets: [
        entry('inline-key', '1', {
          tlsCertificate: { certificateChain: { inlineBytes: b64(pem(w)) }, privateKey: { inlineBytes: b64(await keyPem(w.keys)) } },
        }),
        entry('no-key', '1', { tlsCertificate: { certificateChain: { inlineBytes: b64(pem(w)) } } }),
        entry('link-key', '1', { tlsCertificate: { certificateChain: { inlineBytes: b64(pem(w)) }, privateKey: { inlineString: 'REDACTED' } } }),
        entry('ROOTCA', '1', { validationContext: { trustedCa: { inlineBytes: b64(pem(ca)) } } }),
        entry('spiffe', '1', {
          validationContext: {
            customValidatorConfig: {
              typedConfig: { trustDomains: [{ name: 'cluster.local', trustBundle: { inlineBytes: b64(pem(ca)) } }] },
            },
          },
        }),
        entry('file', '1', { tlsCertificate: { certificateChain: { filename: '/etc/certs/cert-chain.pem' } } }),
      ],
    };
    const r = await files({ 'secrets.json': JSON.stringify(dump) });
    const s = only(r, 'envoy-dump');
    expect(s.title).toBe('istioctl proxy-config secret -o json');
    expect(s.verdict).toEqual({ ok: true, text: '7 secret(s)' });
    expect(s.steps).toEqual([
      { name: 'default (WARMING, uninitialized)', status: 'warn', detail: 'no certificate (not yet delivered)' },
      { name: 'inline-key (ACTIVE)', status: 'info', detail: 'certificate chain: 1 certificate(s); key inline' },
      { name: 'no-key (ACTIVE)', status: 'info', detail: 'certificate chain: 1 certificate(s); key absent' },
      { name: 'link-key (ACTIVE)', status: 'info', detail: 'certificate chain: 1 certificate(s); key redacted in this link' },
      { name: 'ROOTCA (ACTIVE)', status: 'info', detail: 'trusted CA: 1 certificate(s)' },
      { name: 'spiffe (ACTIVE)', status: 'info', detail: 'SPIFFE bundles: cluster.local' },
      { name: 'file (ACTIVE)', status: 'info', detail: 'certificate file /etc/certs/cert-chain.pem' },
    ]);
    expect(roles(r, w)).toEqual(['workload']);
    expect(roles(r, ca)).toEqual(['trust-bundle']);
    // One chain per secret with a certificate chain, verified against the dump's bundles.
    const chains = chainsOf(r, s);
    expect(chains.map((c) => [c.title, c.go.ok, c.path])).toEqual([
      ['inline-key (ACTIVE)', true, [fp(w), fp(ca)]],
      ['no-key (ACTIVE)', true, [fp(w), fp(ca)]],
      ['link-key (ACTIVE)', true, [fp(w), fp(ca)]],
    ]);
  });

  it('a SPIFFE bundle alone anchors the workload chain', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const dump = {
      dynamic_active_secrets: [
        { name: 'default', secret: { tls_certificate: { certificate_chain: { inline_bytes: b64(pem(w)) } } } },
        {
          name: 'spiffe',
          secret: {
            validation_context: {
              custom_validator_config: { typed_config: { trust_domains: [{ name: 'cluster.local', trust_bundle: { inline_bytes: b64(pem(ca)) } }] } },
            },
          },
        },
      ],
    };
    const r = await files({ 'secrets.json': JSON.stringify(dump) });
    const [chain] = chainsOf(r, only(r, 'envoy-dump'));
    expect(chain!.go.ok).toBe(true);
    expect(chain!.roots).toEqual([fp(ca)]);
  });
});

describe('ztunnel', () => {
  it('each identity: Available passes, Initializing is info, anything else fails; chains to the roots given or the last chain certificate', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const a = await leaf(ca, { subject: 'CN=a', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/a' }] });
    const b = await leaf(ca, { subject: 'CN=b', san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/b' }] });
    const c = (x: { der: Uint8Array } & Parameters<typeof pem>[0]) => ({ pem: pem(x) });
    const dump = {
      certificates: [
        { identity: 'spiffe://cluster.local/ns/shop/sa/a', state: 'Available', certChain: [c(a)], rootCerts: [c(ca)] },
        { identity: 'spiffe://cluster.local/ns/shop/sa/b', state: 'Initializing', certChain: [c(b), c(ca)], rootCerts: [] },
        { identity: 'spiffe://cluster.local/ns/shop/sa/c', state: 'Unavailable: no certificate', certChain: [], rootCerts: [] },
      ],
    };
    const r = await files({ 'ztunnel.json': JSON.stringify(dump) });
    const s = only(r, 'ztunnel');
    expect(s.title).toBe('ztunnel certificates');
    expect(s.source).toBe('ztunnel.json');
    expect(s.verdict).toEqual({ ok: false, text: '3 identities' });
    expect(s.steps).toEqual([
      { name: 'spiffe://cluster.local/ns/shop/sa/a', status: 'pass', detail: 'Available: 1 chain certificate(s), 1 root(s)' },
      { name: 'spiffe://cluster.local/ns/shop/sa/b', status: 'info', detail: 'Initializing: 2 chain certificate(s), 0 root(s)' },
      { name: 'spiffe://cluster.local/ns/shop/sa/c', status: 'fail', detail: 'Unavailable: no certificate: 0 chain certificate(s), 0 root(s)' },
    ]);
    expect(roles(r, a)).toEqual(['workload']);
    const chains = chainsOf(r, s);
    expect(chains.map((x) => [x.title, x.go.ok, x.path, x.roots])).toEqual([
      ['spiffe://cluster.local/ns/shop/sa/a', true, [fp(a), fp(ca)], [fp(ca)]],
      ['spiffe://cluster.local/ns/shop/sa/b', true, [fp(b), fp(ca)], [fp(ca)]],
    ]);
    // The ztunnel's certificates are its own: no PEM bundle or mutual trust of them.
    expect(kinds(r)).toEqual(['ztunnel']);
  });

  it('one Available identity: ok, singular', async () => {
    const ca = await root();
    const a = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/a' }] });
    const r = await files({
      'ztunnel.json': JSON.stringify([{ identity: 'spiffe://cluster.local/ns/shop/sa/a', state: 'Available', certChain: [{ pem: pem(a) }] }]),
    });
    expect(only(r, 'ztunnel').verdict).toEqual({ ok: true, text: '1 identity' });
  });
});

describe('loose files named like Istio mounts', () => {
  it('one plug-in CA per directory, titled with its directory; files at the top level have none', async () => {
    const caFiles = async (dir: string) => {
      const r0 = await root({ subject: `CN=${dir || 'top'} root` });
      const signing = await intermediate(r0, `CN=${dir || 'top'} signing`);
      const p = dir ? `${dir}/` : '';
      return {
        [`${p}ca-cert.pem`]: pem(signing),
        [`${p}ca-key.pem`]: await keyPem(signing.keys),
        [`${p}cert-chain.pem`]: pem(signing, r0),
        [`${p}root-cert.pem`]: pem(r0),
      };
    };
    const r = await files({ ...(await caFiles('east')), ...(await caFiles('west')), ...(await caFiles('')) });
    const cas = scenarios(r, 'plugin-ca');
    expect(cas.map((s) => [s.title, s.source, s.verdict.ok])).toEqual([
      ['Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem in east/)', 'east/ca-cert.pem', true],
      ['Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem in west/)', 'west/ca-cert.pem', true],
      ['Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem)', 'ca-cert.pem', true],
    ]);
    expect(kinds(r).filter((k) => k !== 'plugin-ca')).toEqual([]);
  });

  it('ca-cert.pem without ca-key.pem is no plug-in CA', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing');
    expect(kinds(await files({ 'east/ca-cert.pem': pem(signing), 'east/root-cert.pem': pem(r0) }))).not.toContain('plugin-ca');
  });

  it('workload files: cert-chain.pem with key.pem, in their directory', async () => {
    const ca = await root();
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const r = await files({ 'cart/cert-chain.pem': pem(w), 'cart/key.pem': await keyPem(w.keys), 'cart/root-cert.pem': pem(ca) });
    const s = only(r, 'workload');
    expect(s.title).toBe('Workload certificates (files cert-chain.pem, key.pem, root-cert.pem in cart/)');
    expect(s.source).toBe('cart/cert-chain.pem');
    expect(s.verdict.ok).toBe(true);
    expect(kinds(r)).toEqual(['workload']);
    const top = only(await files({ 'cert-chain.pem': pem(w), 'key.pem': await keyPem(w.keys) }), 'workload');
    expect(top.title).toBe('Workload certificates (files cert-chain.pem, key.pem, root-cert.pem)');
    // Without key.pem: a PEM bundle, not a workload.
    expect(kinds(await files({ 'cart/cert-chain.pem': pem(w), 'cart/root-cert.pem': pem(ca) }))).not.toContain('workload');
  });
});

describe('PEM bundles', () => {
  it('roles: leaf, workload, root, intermediate, and the signing cert whose key is in the input', async () => {
    const r0 = await root({ subject: 'CN=Root' });
    const mid = await intermediate(r0, 'CN=Mid');
    const signing = await intermediate(mid, 'CN=Signing');
    const web = await leaf(mid, { subject: 'CN=web' });
    const w = await leaf(signing, { subject: 'CN=w', san: [{ uri: 'spiffe://cluster.local/ns/a/sa/w' }] });
    const r = await files({ 'a.pem': pem(web, mid, r0), 'b.pem': pem(signing, mid), 'c.pem': pem(w), 'signing-key.pem': await keyPem(signing.keys) });
    expect(roles(r, web)).toEqual(['leaf']);
    expect(roles(r, w)).toEqual(['workload']);
    expect(roles(r, r0)).toEqual(['root']);
    expect(roles(r, mid)).toEqual(['intermediate']);
    expect(roles(r, signing)).toEqual(['signing-cert']);
    const s = only(r, 'pem-bundle');
    expect(s.title).toBe('PEM bundle');
    expect(s.source).toBe('a.pem, b.pem, c.pem');
    expect(s.verdict).toEqual({ ok: true, text: 'every chain verifies to a root of the input' });
    expect(s.steps).toEqual([
      { name: 'web', status: 'pass', detail: 'verifies to a root of the input (3 certificates)', error: undefined },
      { name: 'spiffe://cluster.local/ns/a/sa/w', status: 'pass', detail: 'verifies to a root of the input (4 certificates)', error: undefined },
      { name: 'key signing-key.pem › block 0', status: 'pass', detail: 'belongs to Signing' },
    ]);
  });

  it('an intermediate first in its file without its key in the input is an intermediate', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing');
    const w = await leaf(signing);
    const r = await files({ 'a.pem': pem(signing, r0), 'b.pem': pem(w), 'other-key.pem': await keyPem(await keys()) });
    expect(roles(r, signing)).toEqual(['intermediate']);
    const s = only(r, 'pem-bundle');
    expect(step(s, 'key other-key.pem › block 0')).toEqual({
      name: 'key other-key.pem › block 0',
      status: 'fail',
      detail: 'matches no certificate of the input (KEY_MISMATCH)',
    });
    expect(s.verdict).toEqual({ ok: false, text: 'a chain or key check fails' });
  });

  it('a chain without its root fails with Go’s error', async () => {
    const r0 = await root();
    const w = await leaf(r0);
    const s = only(await files({ 'w.pem': pem(w) }), 'pem-bundle');
    expect(s.steps).toHaveLength(1);
    expect(s.steps[0]).toMatchObject({ name: 'leaf', status: 'fail' });
    expect(s.steps[0]!.detail).toBe(s.steps[0]!.error);
    expect(s.steps[0]!.error).toMatch(/^x509: certificate signed by unknown authority/);
  });

  it('CAs only (no leaf): the lowest CAs are the chains drawn; a one-certificate path is singular', async () => {
    const r0 = await root({ subject: 'CN=Root' });
    const mid = await intermediate(r0, 'CN=Mid');
    const low = await intermediate(mid, 'CN=Low');
    const r = await files({ 'cas.pem': pem(low, mid, r0) });
    const s = only(r, 'pem-bundle');
    expect(s.steps.map((x) => [x.name, x.detail])).toEqual([['Low', 'verifies to a root of the input (3 certificates)']]);
    const anchorOnly = await files({ 'leaf.pem': pem(await leaf(r0, { subject: 'CN=x' })), 'root.pem': pem(r0) });
    expect(only(anchorOnly, 'pem-bundle').steps[0]!.detail).toBe('verifies to a root of the input (2 certificates)');
  });

  it('a self-signed end-entity certificate is its own one-certificate chain; a key is named by the SPIFFE ID of a certificate without a CN', async () => {
    const r0 = await root();
    const selfIssued = await issue({ subject: 'CN=self', san: [{ dns: 'self.example.com' }] });
    const w = await leaf(r0, { subject: 'O=Shop', san: [{ uri: 'spiffe://cluster.local/ns/x/sa/w' }] });
    const s = only(await files({ 'self.pem': pem(selfIssued), 'w.pem': pem(w, r0), 'w-key.pem': await keyPem(w.keys) }), 'pem-bundle');
    expect(s.steps.map((x) => [x.name, x.status, x.detail])).toEqual([
      ['self', 'pass', 'verifies to a root of the input (1 certificate)'],
      ['spiffe://cluster.local/ns/x/sa/w', 'pass', 'verifies to a root of the input (2 certificates)'],
      ['key w-key.pem › block 0', 'pass', 'belongs to spiffe://cluster.local/ns/x/sa/w'],
    ]);
  });

  it('a leaf without a common name is titled by its subject', async () => {
    const r0 = await root();
    const w = await leaf(r0, { subject: 'O=Acme' });
    const s = only(await files({ 'w.pem': pem(w, r0) }), 'pem-bundle');
    expect(names(s)).toEqual([w.cert.facts.subject]);
  });

  it('one leaf checked once even when it appears twice; mutual trust needs two SPIFFE leaves', async () => {
    const r0 = await root();
    const a = await leaf(r0, { subject: 'CN=a', san: [{ uri: 'spiffe://cluster.local/ns/x/sa/a' }], eku: [EKU.serverAuth, EKU.clientAuth] });
    const r = await files({ 'a.pem': pem(a, r0), 'a-again.pem': pem(a) });
    expect(only(r, 'pem-bundle').steps).toHaveLength(1);
    expect(scenarios(r, 'mutual-trust')).toEqual([]);
  });
});
