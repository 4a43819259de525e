// Istio's checklists, one per scenario: what istiod (or Envoy, or a Go peer) does with the
// material, in Istio's order, each step naming the Istio source it follows where there is one.
// istiod's CA (plug-in or self-signed), workload certificates, a gateway's credential and client
// CA, trust bundles, and whether two workloads trust each other. Each records its ScenarioView
// (and the chains it draws) on the inspection; scenarioDetection.ts decides which inputs form
// which scenario.
import { concatBytes, utf8 } from './bytes.ts';
import type { Certificate } from './cert.ts';
import { buildChain } from './chains.ts';
import { extractCertInfo, extractRoot, validateCertificateChain, type SecretData } from './credential.ts';
import { isRedactedInLink, type KubeObject, type Value } from './input.ts';
import { humanSpan, redactedWhat, type CredentialUser, type GatewayServerContext, type Inspection } from './inspection.ts';
import { crlSignedBy, keyCertBundleVerify, pluggedCaLoad, workloadVerify, x509KeyPair, type CheckStep } from './istio.ts';
import type { ScenarioView } from './report.ts';
import { trustDomainAccepted } from './spiffe.ts';
import { CertPool, goVerify } from './verify.ts';

/** How a scenario is shown: its title, the input it came from, and its Kubernetes object if any. */
export type ScenarioHeader = { title: string; source: string; object?: ScenarioView['object'] };

// ---- istiod's CA: plug-in CA (cacerts) and self-signed CA (istio-ca-secret) ----------------

/** A plug-in CA (istiod file layout or kubernetes.io/tls layout): the files istiod loads, checked as it loads them. */
export async function checkPluginCa(
  run: Inspection,
  obj: ScenarioHeader,
  values: { cert?: Value; key?: Value; chain: Value[]; root?: Value; crl?: Value },
  layout: 'istiod' | 'tls',
): Promise<void> {
  for (const v of [values.cert, values.key, values.root, values.crl, ...values.chain]) if (v) run.covered.add(v);
  run.role(values.cert, 'signing-cert', 'first');
  run.role(values.cert, 'plugin-ca-path');
  for (const c of values.chain) run.role(c, 'plugin-ca-path');
  run.role(values.root, 'trust-bundle');
  run.role(values.root, 'plugin-ca-path');
  const steps: CheckStep[] = [];
  steps.push({
    name: 'layout',
    status: 'pass',
    detail:
      layout === 'tls'
        ? 'kubernetes.io/tls layout: signing cert tls.crt, key tls.key, root ca.crt, chain tls.crt + ca.crt'
        : 'istiod layout: ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem',
    source: 'pilot/pkg/bootstrap/istio_ca.go:229',
  });
  const present = { key: !!values.key, cert: !!values.cert, root: !!values.root, chain: values.chain.length > 0 };
  const missing = Object.entries(present)
    .filter(([, p]) => !p)
    .map(([k]) => k);
  // None of the four files: istiod's checkCABundleCompleteness finds no bundle at all (bundleExists
  // false), so it is no error; istiod starts its self-signed CA (istio-ca-secret) instead.
  if (missing.length === Object.keys(present).length) {
    steps.push({
      name: 'completeness',
      status: 'info',
      detail: 'none of the signing key, signing cert, root cert or cert chain present: no plug-in CA bundle',
      source: 'pilot/pkg/bootstrap/istio_ca.go:501',
    });
    run.scenario({
      kind: 'plugin-ca',
      ...obj,
      verdict: { ok: true, text: 'not a plug-in CA: with none of its files present, istiod starts its self-signed CA (istio-ca-secret)' },
      steps,
      chains: [],
    });
    return;
  }
  if (missing.length > 0) {
    const error = 'failed to create an istiod CA: incomplete signing CA bundle detected';
    steps.push({
      name: 'completeness',
      status: 'fail',
      detail: `missing: ${missing.map((m) => ({ key: 'signing key', cert: 'signing cert', root: 'root cert', chain: 'cert chain' })[m]).join(', ')}`,
      error,
      source: 'pilot/pkg/bootstrap/istio_ca.go:501',
    });
    run.scenario({ kind: 'plugin-ca', ...obj, verdict: { ok: false, text: `istiod would not start its CA: ${error}` }, steps, chains: [] });
    return;
  }
  steps.push({
    name: 'completeness',
    status: 'pass',
    detail: 'signing key, signing cert, root cert and chain present',
    source: 'pilot/pkg/bootstrap/istio_ca.go:501',
  });
  // A certificate a share link removed cannot be checked: say so rather than report the marker as broken.
  // Each file once: in the kubernetes.io/tls layout tls.crt and ca.crt are chain files too.
  const certsRedacted = [...new Set([values.cert, values.root, values.crl, ...values.chain])].filter((v): v is Value => isRedactedInLink(v));
  if (certsRedacted.length > 0) {
    steps.push({ name: 'Verify', status: 'skipped', detail: `not checked: ${certsRedacted.map(redactedWhat).join('; ')}` });
    if (isRedactedInLink(values.key)) run.redactedKey(values.key!);
    run.scenario({ kind: 'plugin-ca', ...obj, verdict: { ok: true, text: `not checked: ${certsRedacted.map(redactedWhat).join('; ')}` }, steps, chains: [] });
    return;
  }
  const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key!) : undefined;
  if (keyRedacted) run.redactedKey(values.key!);
  const chainBytes = concatBytes(...values.chain.map((v) => v.bytes));
  const input = {
    cert: values.cert!.bytes,
    key: values.key!.bytes,
    chain: chainBytes,
    root: values.root!.bytes,
    crl: values.crl?.bytes,
    ...(keyRedacted ? { keyRedacted } : {}),
  };
  const r = await pluggedCaLoad(run.ctx, input);
  steps.push(...r.steps);
  const chains: string[] = [];
  if (r.leaf) {
    const rootPool = new CertPool();
    run.ctx.appendCertsFromPem(rootPool, input.root);
    const interPool = new CertPool();
    run.ctx.appendCertsFromPem(interPool, chainBytes);
    chains.push((await buildChain(run, r.leaf, `${obj.title}: signing cert`, rootPool.certs, interPool.certs, [], r.go)).id);
  }
  // cacerts layout lints.
  const signing = run.certsOf(values.cert)[0];
  const chainCerts = values.chain.flatMap((v) => run.certsOf(v));
  const subj = { kind: 'scenario' as const, id: `scenario-${run.scenarios.length + 1}`, label: obj.title };
  if (signing && layout === 'istiod') {
    const idx = chainCerts.findIndex((c) => c.facts.sha256FingerprintHex === signing.facts.sha256FingerprintHex);
    if (idx < 0)
      run.finding(
        'CHAIN_MISSING_SIGNING_CERT',
        'error',
        `${obj.title}: cert-chain.pem does not contain ca-cert.pem; workloads receive leaf + cert-chain.pem + root without their issuer`,
        subj,
      );
    else if (idx > 0)
      run.finding(
        'CHAIN_FIRST_NOT_SIGNING_CERT',
        'warning',
        `${obj.title}: ca-cert.pem is block ${idx} of cert-chain.pem; the metrics and TTL clamp track the first`,
        subj,
      );
    const rootCerts = run.certsOf(values.root);
    if (chainCerts.some((c) => rootCerts.some((rc) => rc.facts.sha256FingerprintHex === c.facts.sha256FingerprintHex)))
      run.finding('CHAIN_CONTAINS_ROOT', 'info', `${obj.title}: cert-chain.pem includes the root (normal for Istio)`, subj);
  }
  if (layout === 'tls' && values.cert && values.cert.bytes.length > 0 && values.cert.bytes[values.cert.bytes.length - 1] !== 10) {
    run.finding('TLS_CRT_NO_TRAILING_NEWLINE', 'error', `${obj.title}: tls.crt does not end with a newline; tls.crt + ca.crt has no decodable PEM block`, subj);
  }
  for (const rc of run.certsOf(values.root))
    if (!rc.facts.selfSigned)
      run.finding(
        'ROOT_NOT_SELF_SIGNED',
        'warning',
        `${obj.title}: root-cert.pem holds ${rc.facts.subject}, which is not self-signed (a partial trust anchor)`,
        subj,
      );
  if (r.rootsIgnored > 0)
    steps.push({
      name: 'root bundle',
      status: 'warn',
      detail: `${r.rootsIgnored} block(s) of the root file ignored by Go (not certificates, headers, or certificates Go cannot parse)`,
    });
  if (r.certsWithoutCrl && r.certsWithoutCrl.length > 0)
    run.finding('CRL_NOT_SIGNED_BY_CHAIN', 'error', `${obj.title}: no CRL signed by ${r.certsWithoutCrl.join(', ')}`, subj);
  if (signing && r.keyMatchesCert === false) {
    const e = run.entry(signing);
    e.findings.push({
      id: 'KEY_MISMATCH',
      severity: 'error',
      message: `ca-key.pem does not match this signing cert: ${r.verdict.error}`,
      subject: { kind: 'certificate', id: signing.facts.sha256FingerprintHex, label: signing.facts.subjectCommonName ?? signing.facts.subject },
    });
  }
  const load = r.load;
  run.scenario({
    kind: 'plugin-ca',
    ...obj,
    verdict: load.ok
      ? {
          ok: true,
          text: keyRedacted
            ? `istiod would load this plug-in CA if its key matches the signing cert (not checked: ${keyRedacted})`
            : 'istiod would load this plug-in CA',
        }
      : { ok: false, text: `istiod would refuse this bundle: ${load.error}` },
    steps,
    chains,
    istio: { keyCertBundleVerify: r.verdict, pluggedCaLoad: load },
  });
}

/** istiod's self-signed CA (istio-ca-secret): the CA certificate is its own root. */
export async function checkSelfSignedCa(run: Inspection, obj: ScenarioHeader, values: { cert?: Value; key?: Value; root?: Value }): Promise<void> {
  for (const v of [values.cert, values.key, values.root]) if (v) run.covered.add(v);
  run.role(values.cert, 'root');
  const steps: CheckStep[] = [];
  if (!values.cert || !values.key) {
    run.scenario({
      kind: 'self-signed-ca',
      ...obj,
      verdict: { ok: false, text: 'istiod would keep retrying: ca-cert.pem and ca-key.pem are both needed' },
      steps: [{ name: 'keys', status: 'fail', detail: 'ca-cert.pem and ca-key.pem must both be present' }],
      chains: [],
    });
    return;
  }
  const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key) : undefined;
  if (keyRedacted) run.redactedKey(values.key);
  const certsRedacted = [values.cert, values.root].filter((v): v is Value => isRedactedInLink(v));
  if (certsRedacted.length > 0) {
    const text = `not checked: ${certsRedacted.map(redactedWhat).join('; ')}`;
    run.scenario({ kind: 'self-signed-ca', ...obj, verdict: { ok: true, text }, steps: [{ name: 'Verify', status: 'skipped', detail: text }], chains: [] });
    return;
  }
  // The CA cert is its own root (plus any mounted root-cert.pem).
  const root = concatBytes(values.cert.bytes, utf8('\n'), values.root?.bytes ?? new Uint8Array());
  const r = await keyCertBundleVerify(run.ctx, {
    cert: values.cert.bytes,
    key: values.key.bytes,
    chain: new Uint8Array(),
    root,
    ...(keyRedacted ? { keyRedacted } : {}),
  });
  steps.push(...r.steps.filter((s) => s.name !== 'CRL coverage'));
  const chains: string[] = [];
  if (r.leaf) {
    const rootPool = new CertPool();
    run.ctx.appendCertsFromPem(rootPool, root);
    chains.push((await buildChain(run, r.leaf, `${obj.title}: CA certificate`, rootPool.certs, [], [], r.go)).id);
    const left = r.leaf.notAfter.getTime() - run.ctx.now.getTime();
    const life = r.leaf.notAfter.getTime() - r.leaf.notBefore.getTime();
    steps.push({
      name: 'rotation',
      // certutil.GetWaitTime: rotation is skipped only while NotAfter - now - 20% of the lifetime is > 0.
      status: left <= life * 0.2 ? 'warn' : 'info',
      detail:
        left <= life * 0.2
          ? '20% or less of its lifetime left: istiod rotates it (same key) at the next hourly check'
          : `istiod rotates it when 20% of its lifetime is left (${humanSpan(left - life * 0.2)})`,
      source: 'security/pkg/pki/ca/selfsignedcarootcertrotator.go',
    });
  }
  run.scenario({
    kind: 'self-signed-ca',
    ...obj,
    verdict: r.verdict.ok
      ? {
          ok: true,
          text: keyRedacted
            ? `istiod would load this self-signed CA if its key matches the CA certificate (not checked: ${keyRedacted})`
            : 'istiod would load this self-signed CA',
        }
      : { ok: false, text: `istiod would retry for up to 20 minutes, then give up: ${r.verdict.error}` },
    steps,
    chains,
    istio: { keyCertBundleVerify: r.verdict },
  });
}

// ---- workload certificates -------------------------------------------------------------

/** A workload's certificate, key and roots, as a Go peer (and Istio's VerifyCertificate) checks them. */
export async function checkWorkload(
  run: Inspection,
  obj: ScenarioHeader,
  values: { cert?: Value; key?: Value; chain: Value[]; root?: Value },
): Promise<ScenarioView | undefined> {
  for (const v of [values.cert, values.key, values.root, ...values.chain]) if (v) run.covered.add(v);
  if (!values.cert) return undefined;
  run.role(values.cert, 'workload', 'first');
  run.role(values.root, 'trust-bundle');
  const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key!) : undefined;
  if (keyRedacted) run.redactedKey(values.key!);
  const certsRedacted = [values.cert, values.root, ...values.chain].filter((v): v is Value => isRedactedInLink(v));
  if (certsRedacted.length > 0) {
    const text = `not checked: ${[...new Set(certsRedacted)].map(redactedWhat).join('; ')}`;
    return run.scenario({
      kind: 'workload',
      ...obj,
      verdict: { ok: true, text },
      steps: [{ name: 'chain verification', status: 'skipped', detail: text }],
      chains: [],
    });
  }
  const r = await workloadVerify(run.ctx, {
    cert: values.cert.bytes,
    key: keyRedacted ? undefined : values.key?.bytes,
    chain: concatBytes(...values.chain.map((v) => v.bytes)),
    root: values.root?.bytes,
    ...(keyRedacted ? { keyRedacted } : {}),
  });
  const chains: string[] = [];
  if (r.leaf) {
    const roots = new CertPool();
    if (values.root) run.ctx.appendCertsFromPem(roots, values.root.bytes);
    const inter = new CertPool();
    run.ctx.appendCertsFromPem(inter, concatBytes(values.cert.bytes, utf8('\n'), ...values.chain.map((v) => v.bytes)));
    chains.push((await buildChain(run, r.leaf, `${obj.title}: workload certificate`, roots.certs, inter.certs, ['any'], r.go)).id);
    trustDomainStep(run, r.steps, r.leaf);
  }
  const tdFail = r.steps.find((s) => s.name === 'trust domain' && s.status === 'fail');
  const verdict = !r.verdict.ok
    ? { ok: false, text: r.verdict.error ?? 'rejected' }
    : tdFail
      ? { ok: false, text: `the chain verifies, but ${tdFail.detail}` }
      : { ok: true, text: "a Go peer (and Istio's VerifyCertificate) would accept this workload certificate" };
  return run.scenario({ kind: 'workload', ...obj, verdict, steps: r.steps, chains, istio: { workloadVerify: r.verdict } });
}

/** The trust domain step: the leaf's SPIFFE trust domains against the mesh's and its aliases (authorization policies match on them). */
function trustDomainStep(run: Inspection, steps: CheckStep[], leaf: Certificate): void {
  const ids = leaf.facts.spiffe;
  if (ids.length === 0) return;
  const bad = ids.filter((i) => !trustDomainAccepted(i.trustDomain, run.opts.trustDomain, run.opts.aliases));
  steps.push(
    bad.length === 0
      ? {
          name: 'trust domain',
          status: 'pass',
          detail: `${ids.map((i) => i.trustDomain).join(', ')} is the mesh trust domain${run.opts.aliases.length ? ' or an alias' : ''}`,
        }
      : {
          name: 'trust domain',
          status: 'fail',
          detail: `${bad.map((i) => i.trustDomain).join(', ')} is not ${[run.opts.trustDomain, ...run.opts.aliases].join(' or ')}: authorization policies won't match (TRUST_DOMAIN_MISMATCH)`,
        },
  );
}

// ---- gateway credential and client CA --------------------------------------------------

/** A Secret a Gateway's credentialName can name: what istiod extracts and sends, what Envoy then loads. */
export async function checkGatewayCredential(run: Inspection, obj: KubeObject): Promise<void> {
  const title = `Gateway credential (Secret ${obj.ref.namespace}/${obj.ref.name})`;
  const data: SecretData = new Map([...obj.values].map(([k, v]) => [k, v.bytes]));
  for (const v of obj.values.values()) run.covered.add(v);
  const steps: CheckStep[] = [];
  const extracted = extractCertInfo(data);
  const users = run.opts.credentialUsers.filter(
    (u) => u.secretNamespace === obj.ref.namespace && u.servers.some((s) => credentialSecretName(s.credentialName) === obj.ref.name),
  );
  const object = { kind: 'Secret', namespace: obj.ref.namespace, name: obj.ref.name, line: obj.origin.line, input: obj.origin.input };
  if (!extracted.ok) {
    steps.push({
      name: 'keys (ExtractCertInfo)',
      status: 'fail',
      detail: 'cert/key or tls.crt/tls.key, non-empty',
      error: extracted.error,
      source: 'pilot/pkg/credentials/kube/secrets.go:291',
    });
    for (const u of users)
      steps.push({
        name: `IST0161 on ${u.kind} ${u.namespace}/${u.name}`,
        status: 'fail',
        detail: 'gateway.SecretAnalyzer reports InvalidGatewayCredential',
        error: extracted.error,
      });
    run.scenario({
      kind: 'gateway-credential',
      title,
      source: obj.origin.input,
      object,
      verdict: { ok: false, text: `istiod cannot serve this credential: ${extracted.error}` },
      steps,
      chains: [],
    });
    return;
  }
  const { keys } = extracted.value;
  steps.push({
    name: 'keys (ExtractCertInfo)',
    status: 'pass',
    detail: `certificate from "${keys.cert}", key from "${keys.key}"${keys.crl ? `, CRL from "${keys.crl}"` : ''}${keys.cert === 'cert' && obj.values.has('tls.crt') ? ' (cert/key take precedence over tls.crt/tls.key)' : ''}`,
    source: 'pilot/pkg/credentials/kube/secrets.go:291',
  });
  const certValue = obj.values.get(keys.cert)!;
  const keyValue = obj.values.get(keys.key!);
  run.role(certValue, 'gateway-server', 'first');
  // Values a share link removed are not read: the checks that need them say so instead.
  const keyRedacted = isRedactedInLink(keyValue) ? redactedWhat(keyValue!) : undefined;
  if (keyRedacted) run.redactedKey(keyValue!);
  if (isRedactedInLink(certValue)) {
    const text = `not checked: ${redactedWhat(certValue)}`;
    steps.push({ name: 'validity (ValidateCertificate)', status: 'skipped', detail: text, source: 'pilot/pkg/xds/sds.go:221' });
    steps.push({ name: 'key matches the certificate (tls.X509KeyPair)', status: 'skipped', detail: text });
    run.scenario({ kind: 'gateway-credential', title, source: obj.origin.input, object, verdict: { ok: true, text }, steps, chains: [] });
    return;
  }
  const valid = validateCertificateChain(extracted.value.cert, run.ctx.now);
  steps.push(
    valid.ok
      ? {
          name: 'validity (ValidateCertificate)',
          status: 'pass',
          detail: 'the first PEM block parses and is within its validity window',
          source: 'pilot/pkg/xds/sds.go:221',
        }
      : {
          name: 'validity (ValidateCertificate)',
          status: 'fail',
          detail: 'istiod logs a warning and sends it anyway; gateway.SecretAnalyzer reports IST0161',
          error: valid.error,
          source: 'pilot/pkg/xds/sds.go:221',
        },
  );
  for (const u of users) {
    if (!valid.ok)
      steps.push({
        name: `IST0161 on ${u.kind} ${u.namespace}/${u.name}`,
        status: 'fail',
        detail: `InvalidGatewayCredential: the credential of ${u.kind} ${u.namespace}/${u.name} is invalid (${valid.error})`,
        error: valid.error,
      });
  }
  const pair = keyRedacted ? {} : keyValue ? await x509KeyPair(run.ctx, extracted.value.cert, keyValue.bytes) : { error: 'no key' };
  if (keyRedacted) steps.push({ name: 'key matches the certificate (tls.X509KeyPair)', status: 'skipped', detail: `not checked (${keyRedacted})` });
  else
    steps.push(
      pair.error
        ? {
            name: 'key matches the certificate (tls.X509KeyPair)',
            status: 'fail',
            detail: 'Envoy rejects the secret when it loads it (istiod does not check this for Istio Gateways; Gateway API certificateRefs do)',
            error: pair.error,
          }
        : { name: 'key matches the certificate (tls.X509KeyPair)', status: 'pass', detail: 'same public key' },
    );
  if (pair.error && keyValue)
    run.finding('KEY_MISMATCH', 'error', `${title}: ${pair.error}`, { kind: 'scenario', id: `scenario-${run.scenarios.length + 1}`, label: title });
  // The chain of the server certificate: against ca.crt/cacert when present, else the input's roots.
  const leaf = run.certsOf(certValue)[0];
  const chains: string[] = [];
  const root = extractRoot(data);
  const caEntry = root.ok ? obj.values.get(root.value.keys.cert) : undefined;
  // A CA bundle a share link removed is not read (no chain against it, no client CA step).
  const caValue = isRedactedInLink(caEntry) ? undefined : caEntry;
  if (caEntry && !caValue) steps.push({ name: 'client CA (ExtractRoot)', status: 'skipped', detail: `not checked: ${redactedWhat(caEntry)}` });
  if (caValue) run.role(caValue, 'gateway-client-ca');
  if (leaf) {
    const roots = caValue ? run.certsOf(caValue) : run.trustAnchors();
    const view = await buildChain(run, leaf, `${title}: server certificate`, roots, run.certsOf(certValue), ['serverAuth']);
    chains.push(view.id);
    steps.push({
      name: 'chain',
      status: view.go.ok ? 'pass' : 'warn',
      detail: view.go.ok
        ? `verifies to ${run.entry(run.certs.get(view.anchor!.id)!.cert).cert.facts.subject}`
        : `${view.go.error} (clients need the issuer; istiod does not check this)`,
    });
    for (const u of users) for (const s of u.servers.filter((x) => credentialSecretName(x.credentialName) === obj.ref.name)) steps.push(hostsStep(leaf, u, s));
  }
  if (root.ok && caValue) {
    const cas = run.certsOf(caValue);
    steps.push({
      name: 'client CA (ExtractRoot)',
      status: cas.length > 0 ? 'pass' : 'fail',
      detail: cas.length > 0 ? `"${root.value.keys.cert}": ${cas.length} CA certificate(s) for MUTUAL` : 'no certificate in the CA bundle',
    });
  }
  run.scenario({
    kind: 'gateway-credential',
    title,
    source: obj.origin.input,
    object,
    verdict:
      valid.ok && !pair.error
        ? {
            ok: true,
            text: keyRedacted
              ? `istiod would serve this credential; Envoy loads it if its key matches the certificate (not checked: ${keyRedacted})`
              : 'istiod would serve this credential',
          }
        : { ok: false, text: valid.ok ? `Envoy would reject this credential: ${pair.error}` : `invalid gateway credential (IST0161): ${valid.error}` },
    steps,
    chains,
  });
}

/** A gateway's client CA Secret (`<credentialName>-cacert`, or one holding only cacert or ca.crt). */
export async function checkGatewayCa(run: Inspection, obj: KubeObject): Promise<void> {
  const title = `Gateway client CA (Secret ${obj.ref.namespace}/${obj.ref.name})`;
  for (const v of obj.values.values()) run.covered.add(v);
  const data: SecretData = new Map([...obj.values].map(([k, v]) => [k, v.bytes]));
  const steps: CheckStep[] = [];
  const r = extractRoot(data);
  const object = { kind: 'Secret', namespace: obj.ref.namespace, name: obj.ref.name, line: obj.origin.line, input: obj.origin.input };
  if (!r.ok) {
    steps.push({
      name: 'keys (ExtractRoot)',
      status: 'fail',
      detail: 'cacert or ca.crt, non-empty',
      error: r.error,
      source: 'pilot/pkg/credentials/kube/secrets.go:339',
    });
    run.scenario({ kind: 'gateway-ca', title, source: obj.origin.input, object, verdict: { ok: false, text: r.error }, steps, chains: [] });
    return;
  }
  const caValue = obj.values.get(r.value.keys.cert)!;
  if (isRedactedInLink(caValue)) {
    const text = `not checked: ${redactedWhat(caValue)}`;
    steps.push({ name: 'CA bundle', status: 'skipped', detail: text });
    run.scenario({ kind: 'gateway-ca', title, source: obj.origin.input, object, verdict: { ok: true, text }, steps, chains: [] });
    return;
  }
  run.role(caValue, 'gateway-client-ca');
  const cas = run.certsOf(caValue);
  steps.push({
    name: 'keys (ExtractRoot)',
    status: 'pass',
    detail: `CA bundle from "${r.value.keys.cert}"${r.value.keys.crl ? `, CRL from "${r.value.keys.crl}"` : ''}`,
    source: 'pilot/pkg/credentials/kube/secrets.go:339',
  });
  steps.push({ name: 'CA bundle', status: cas.length > 0 ? 'pass' : 'fail', detail: `${cas.length} certificate(s)` });
  let ok = cas.length > 0;
  const crlValue = r.value.keys.crl ? obj.values.get(r.value.keys.crl) : undefined;
  if (crlValue) {
    for (const a of crlValue.artefacts) {
      if (a.kind !== 'crl') continue;
      let signed = false;
      for (const ca of cas) if ((await crlSignedBy(run.ctx, a.crl, ca)) === undefined) signed = true;
      if (!signed) {
        ok = false;
        run.finding('CRL_NOT_SIGNED_BY_CHAIN', 'error', `${title}: the CRL issued by ${a.crl.facts.issuer} is not signed by the CA next to it`, {
          kind: 'scenario',
          id: `scenario-${run.scenarios.length + 1}`,
          label: title,
        });
      }
      steps.push({
        name: 'CRL',
        status: signed ? 'pass' : 'fail',
        detail: signed
          ? `signed by the CA (${a.crl.facts.issuer})`
          : `issued by ${a.crl.facts.issuer}, not signed by any certificate of the CA bundle (CRL_NOT_SIGNED_BY_CHAIN)`,
      });
    }
  }
  run.scenario({
    kind: 'gateway-ca',
    title,
    source: obj.origin.input,
    object,
    verdict: { ok, text: ok ? 'usable as the client CA of a MUTUAL gateway' : 'the client CA has problems' },
    steps,
    chains: [],
  });
}

/** The Secret name a credentialName refers to (without `kubernetes://` or `kubernetes-gateway://` and a namespace). */
export function credentialSecretName(credentialName: string): string {
  const n = credentialName.replace(/^kubernetes(-gateway)?:\/\//, '');
  return n.includes('/') ? n.slice(n.indexOf('/') + 1) : n;
}

/** Whether a certificate's DNS name covers a host (case-insensitive; `*.` covers one label). */
function certificateNameCovers(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (p === h) return true;
  if (p.startsWith('*.')) {
    const rest = h.slice(h.indexOf('.') + 1);
    return h.includes('.') && rest === p.slice(2);
  }
  return false;
}

/** Whether the certificate's DNS SANs cover the hosts of one server (of a Gateway using the credential). */
function hostsStep(leaf: Certificate, u: CredentialUser, s: GatewayServerContext): CheckStep {
  const hosts = s.hosts.map((h) => (h.includes('/') ? h.slice(h.indexOf('/') + 1) : h));
  const dns = leaf.facts.subjectAltName.dns;
  // A wildcard host stands for every name one label below it: only the same wildcard covers it
  // (certificateNameCovers compares `*.a` to `*.a` as equal names), no one name below it does.
  const uncovered = hosts.filter((h) => h !== '*' && !dns.some((d) => certificateNameCovers(d, h)));
  const name = `hosts of ${u.kind} ${u.namespace}/${u.name} server ${s.index}`;
  if (hosts.length === 0) return { name, status: 'info', detail: 'the server lists no hosts' };
  return uncovered.length === 0
    ? { name, status: 'pass', detail: `${hosts.join(', ')} covered by the certificate's DNS SANs` }
    : { name, status: 'fail', detail: `${uncovered.join(', ')} not covered by the DNS SANs (${dns.join(', ') || 'none'}); clients will see a name mismatch` };
}

// ---- trust bundles and mutual trust ----------------------------------------------------

/** A trust bundle: the roots Go would take from it. */
export function checkTrustBundle(run: Inspection, title: string, source: string, value: Value | undefined, object?: ScenarioView['object']): void {
  if (!value) return;
  run.covered.add(value);
  run.role(value, 'trust-bundle');
  const certs = run.certsOf(value);
  const goCount = (() => {
    const pool = new CertPool();
    return run.ctx.appendCertsFromPem(pool, value.bytes);
  })();
  const steps: CheckStep[] = [
    {
      name: 'roots',
      status: certs.length > 0 ? 'pass' : 'fail',
      detail: `${certs.length} certificate(s)${goCount.skipped ? `; ${goCount.skipped} block(s) ignored by Go` : ''}`,
    },
  ];
  for (const c of certs) {
    if (!c.facts.selfSigned)
      steps.push({
        name: `${c.facts.subjectCommonName ?? c.facts.subject}`,
        status: 'warn',
        detail: 'not self-signed: a partial trust anchor (Go accepts it; ROOT_NOT_SELF_SIGNED)',
      });
    if (run.ctx.now > c.notAfter)
      steps.push({ name: `${c.facts.subjectCommonName ?? c.facts.subject}`, status: 'fail', detail: `expired ${c.facts.notAfter}` });
  }
  run.scenario({
    kind: 'trust-bundle',
    title,
    source,
    object,
    verdict: { ok: certs.length > 0 && goCount.added > 0, text: `${goCount.added} root(s) Go would trust` },
    steps,
    chains: [],
  });
}

/** Whether each pair of workload certificates would accept the other as a peer (mTLS, clientAuth). */
export async function checkMutualTrust(run: Inspection, pairs: Array<[Certificate, Certificate]>): Promise<void> {
  const anchors = run.trustAnchors();
  const inter = run.allCerts();
  for (const [a, b] of pairs) {
    const name = (c: Certificate) => c.facts.spiffe[0]?.uri ?? c.facts.subject;
    const steps: CheckStep[] = [];
    let ok = true;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const r = await goVerify(y, {
        roots: new CertPool(anchors),
        intermediates: new CertPool(inter),
        now: run.ctx.now,
        keyUsages: ['clientAuth'],
        signatures: run.ctx.signatures,
      });
      ok &&= r.ok;
      steps.push({
        name: `${name(x)} accepts ${name(y)}`,
        status: r.ok ? 'pass' : 'fail',
        detail: r.ok ? `verifies to ${r.chains[0]![r.chains[0]!.length - 1]!.facts.subject} (clientAuth)` : 'Go verification of the peer (clientAuth) fails',
        error: r.error ?? undefined,
      });
    }
    const tds = [...new Set([a, b].flatMap((c) => c.facts.spiffe.map((s) => s.trustDomain)))];
    const foreign = tds.filter((t) => !trustDomainAccepted(t, run.opts.trustDomain, run.opts.aliases));
    steps.push(
      foreign.length === 0
        ? { name: 'trust domains', status: 'pass', detail: `${tds.join(', ')}: the mesh trust domain${run.opts.aliases.length ? ' or an alias' : ''}` }
        : {
            name: 'trust domains',
            status: 'warn',
            detail: `${foreign.join(', ')} is not ${[run.opts.trustDomain, ...run.opts.aliases].join(' or ')}: mTLS works, but authorization policies naming principals in the mesh trust domain won't match`,
          },
    );
    for (const c of [a, b]) {
      const eku = c.facts.extKeyUsage;
      const fine = !eku.present || (c.ekuOids.includes('1.3.6.1.5.5.7.3.1') && c.ekuOids.includes('1.3.6.1.5.5.7.3.2')) || c.ekuOids.includes('2.5.29.37.0');
      if (!fine) {
        ok = false;
        steps.push({ name: `${name(c)} usages`, status: 'fail', detail: 'a mesh certificate needs both serverAuth and clientAuth' });
      }
    }
    run.scenario({
      kind: 'mutual-trust',
      title: `Will ${name(a)} and ${name(b)} trust each other?`,
      source: 'input',
      verdict: { ok, text: ok ? 'yes: each verifies the other against the roots supplied' : 'no: see the failing step' },
      steps,
      chains: [],
    });
  }
}
