// Scenario detection: which decoded inputs form which of Istio's scenarios. Kubernetes objects by
// their names, types and keys (ConfigMaps as trust bundles; Secrets as istiod's self-signed CA,
// a plug-in CA, a gateway client CA, a gateway credential, workload certificates, or a generic
// Secret), then remote secrets, Envoy and ztunnel dumps, loose files named like Istio's mounts
// (grouped by directory), and what is left as PEM bundles with their chains and mutual trust.
import type { Certificate } from './cert.ts';
import { buildChain } from './chains.ts';
import { originLabel, type KubeObject, type Value } from './input.ts';
import type { Inspection } from './inspection.ts';
import type { CheckStep } from './istio.ts';
import type { ScenarioView } from './report.ts';
import {
  checkGatewayCa,
  checkGatewayCredential,
  checkMutualTrust,
  checkPluginCa,
  checkSelfSignedCa,
  checkTrustBundle,
  checkWorkload,
  credentialSecretName,
} from './scenarios.ts';
import { mapAt } from '../document/maps.ts';

/** The keys of istiod's cacerts Secret (named in a generic Secret's hint). */
const CACERTS_KEYS = ['ca-cert.pem', 'ca-key.pem', 'cert-chain.pem', 'root-cert.pem'];

/** A scenario header for a Kubernetes object (each scenario sets its title). */
function objTitle(o: KubeObject): { title: string; source: string; object: ScenarioView['object'] } {
  return {
    title: '',
    source: o.origin.input,
    object: { kind: o.ref.kind, namespace: o.ref.namespace, name: o.ref.name, line: o.origin.line, input: o.origin.input },
  };
}

/** Finds the scenarios of the inputs and runs each one's checklist (objects, remote secrets, dumps, loose files, then the rest as PEM bundles). */
export async function detectScenarios(run: Inspection): Promise<void> {
  const d = run.decoded;
  for (const o of d.objects) {
    const keys = new Set(o.values.keys());
    const v = (k: string) => o.values.get(k);
    const base = objTitle(o);
    if (o.kind === 'ConfigMap') {
      if (keys.has('root-cert.pem'))
        checkTrustBundle(run, `Trust bundle (ConfigMap ${o.ref.namespace}/${o.ref.name})`, o.origin.input, v('root-cert.pem'), base.object);
      else if (keys.has('cacert') || keys.has('ca.crt'))
        checkTrustBundle(run, `CA bundle (ConfigMap ${o.ref.namespace}/${o.ref.name})`, o.origin.input, v('cacert') ?? v('ca.crt'), base.object);
      continue;
    }
    const selfSigned = o.ref.name === 'istio-ca-secret' || o.type === 'istio.io/ca-root' || keys.has('istio-generated');
    if (selfSigned) {
      await checkSelfSignedCa(
        run,
        { ...base, title: `Self-signed CA (Secret ${o.ref.namespace}/${o.ref.name})` },
        { cert: v('ca-cert.pem'), key: v('ca-key.pem'), root: v('root-cert.pem') },
      );
      continue;
    }
    if (o.ref.name === 'cacerts' || (keys.has('ca-cert.pem') && keys.has('ca-key.pem'))) {
      if (keys.has('tls.crt')) {
        await checkPluginCa(
          run,
          { ...base, title: `Plug-in CA (Secret ${o.ref.namespace}/${o.ref.name}, kubernetes.io/tls layout)` },
          { cert: v('tls.crt'), key: v('tls.key'), chain: [v('tls.crt'), v('ca.crt')].filter((x): x is Value => !!x), root: v('ca.crt') },
          'tls',
        );
      } else {
        await checkPluginCa(
          run,
          { ...base, title: `Plug-in CA (Secret ${o.ref.namespace}/${o.ref.name}, istiod file layout)` },
          {
            cert: v('ca-cert.pem'),
            key: v('ca-key.pem'),
            chain: [v('cert-chain.pem')].filter((x): x is Value => !!x),
            root: v('root-cert.pem'),
            crl: v('ca-crl.pem'),
          },
          'istiod',
        );
      }
      continue;
    }
    if (
      o.ref.name.endsWith('-cacert') ||
      ((keys.has('cacert') || keys.has('ca.crt')) &&
        !keys.has('cert') &&
        !keys.has('tls.crt') &&
        !keys.has('key') &&
        !keys.has('tls.key') &&
        o.values.size <= 3)
    ) {
      await checkGatewayCa(run, o);
      continue;
    }
    if (
      keys.has('cert') ||
      keys.has('key') ||
      keys.has('tls.crt') ||
      keys.has('tls.key') ||
      o.type === 'kubernetes.io/tls' ||
      run.opts.credentialUsers.some(
        (u) => u.secretNamespace === o.ref.namespace && u.servers.some((s) => credentialSecretName(s.credentialName) === o.ref.name),
      )
    ) {
      await checkGatewayCredential(run, o);
      continue;
    }
    if (keys.has('cert-chain.pem') && keys.has('key.pem')) {
      await checkWorkload(
        run,
        { ...base, title: `Workload certificates (Secret ${o.ref.namespace}/${o.ref.name})` },
        { cert: v('cert-chain.pem'), key: v('key.pem'), chain: [v('cert-chain.pem')!], root: v('root-cert.pem') },
      );
      continue;
    }
    if (o.labels['istio/multiCluster'] === 'true') continue;
    run.scenario({
      kind: 'generic-secret',
      title: `Secret ${o.ref.namespace}/${o.ref.name}`,
      source: o.origin.input,
      object: base.object,
      verdict: { ok: true, text: 'no Istio key layout recognised' },
      steps: [
        {
          name: 'key names',
          status: 'info',
          detail: `found: ${[...keys].sort().join(', ') || 'none'}. Istio reads cacerts (${CACERTS_KEYS.join(', ')} or tls.crt, tls.key, ca.crt), gateway credentials (cert/key or tls.crt/tls.key, and cacert or ca.crt), istio-ca-secret (ca-cert.pem, ca-key.pem)`,
        },
      ],
      chains: [],
    });
  }
  // Remote secrets.
  const remoteSecrets = new Map<string, number>();
  for (const r of d.remotes)
    remoteSecrets.set(`${r.secret.namespace}/${r.secret.name}`, (remoteSecrets.get(`${r.secret.namespace}/${r.secret.name}`) ?? 0) + 1);
  for (const [name, n] of remoteSecrets) {
    const rs = d.remotes.filter((r) => `${r.secret.namespace}/${r.secret.name}` === name);
    const steps: CheckStep[] = rs.map((r) => ({
      name: `cluster ${r.clusterId}`,
      status: r.error ? 'fail' : 'pass',
      detail: r.error ? r.error : `${r.server} (${r.auth})`,
      error: r.error,
    }));
    run.scenario({
      kind: 'remote-secret',
      title: `Remote secret ${name} (${n} cluster${n === 1 ? '' : 's'})`,
      source: rs[0]!.origin.input,
      verdict: { ok: rs.every((r) => !r.error), text: rs.every((r) => !r.error) ? 'every kubeconfig is readable' : 'a kubeconfig is malformed' },
      steps,
      chains: [],
      object: { kind: 'Secret', namespace: rs[0]!.secret.namespace, name: rs[0]!.secret.name, line: rs[0]!.origin.line, input: rs[0]!.origin.input },
    });
  }
  // Dumps.
  for (const dump of d.dumps) {
    for (const s of dump.secrets) {
      for (const v of [s.certificateChain, s.trustedCa, s.crl, ...s.spiffe.map((x) => x.bundle)]) if (v) run.covered.add(v);
      run.role(s.certificateChain, 'workload', 'first');
      run.role(s.trustedCa, 'trust-bundle');
      for (const b of s.spiffe) run.role(b.bundle, 'trust-bundle');
    }
    // Every trust bundle of the dump (ROOTCA, SPIFFE bundles, `-cacert` secrets) and the input's own roots.
    const rootCerts = [
      ...new Set([...dump.secrets.flatMap((s) => [...run.certsOf(s.trustedCa), ...s.spiffe.flatMap((b) => run.certsOf(b.bundle))]), ...run.trustAnchors()]),
    ];
    const chains: string[] = [];
    for (const s of dump.secrets) {
      const certs = run.certsOf(s.certificateChain);
      if (certs.length === 0) continue;
      chains.push((await buildChain(run, certs[0]!, `${s.name} (${s.status})`, rootCerts, certs, ['any'])).id);
    }
    run.scenario({
      kind: 'envoy-dump',
      title: dump.style === 'config_dump' ? 'Envoy config dump (secrets)' : 'istioctl proxy-config secret -o json',
      source: dump.origin.input,
      verdict: { ok: true, text: `${dump.secrets.length} secret(s)` },
      steps: dump.secrets.map((s) => ({
        name: `${s.name} (${s.status}${s.versionInfo === 'uninitialized' ? ', uninitialized' : ''})`,
        status: s.status === 'WARMING' ? 'warn' : 'info',
        detail: s.certificateChain
          ? `certificate chain: ${run.certsOf(s.certificateChain).length} certificate(s); key ${s.privateKey === 'redacted-in-link' ? 'redacted in this link' : (s.privateKey ?? 'absent')}`
          : s.trustedCa
            ? `trusted CA: ${run.certsOf(s.trustedCa).length} certificate(s)`
            : s.spiffe.length
              ? `SPIFFE bundles: ${s.spiffe.map((b) => b.trustDomain).join(', ')}`
              : s.certificateChainFile
                ? `certificate file ${s.certificateChainFile}`
                : 'no certificate (not yet delivered)',
      })),
      chains,
    });
  }
  for (const z of d.ztunnel) {
    const chains: string[] = [];
    for (const id of z.identities) {
      const chainCerts = id.certChain.flatMap((c) => run.certsOf(c.value));
      const roots = id.rootCerts.flatMap((c) => run.certsOf(c.value));
      for (const c of [...id.certChain, ...id.rootCerts]) run.covered.add(c.value);
      if (chainCerts[0]) {
        run.role(id.certChain[0]!.value, 'workload', 'first');
        const r = roots.length > 0 ? roots : chainCerts.slice(-1);
        chains.push((await buildChain(run, chainCerts[0], id.identity, r, chainCerts, ['any'])).id);
      }
    }
    run.scenario({
      kind: 'ztunnel',
      title: 'ztunnel certificates',
      source: z.origin.input,
      verdict: { ok: z.identities.every((i) => i.state === 'Available'), text: `${z.identities.length} identit${z.identities.length === 1 ? 'y' : 'ies'}` },
      steps: z.identities.map((i) => ({
        name: i.identity,
        status: i.state === 'Available' ? 'pass' : i.state === 'Initializing' ? 'info' : 'fail',
        detail: `${i.state}: ${i.certChain.length} chain certificate(s), ${i.rootCerts.length} root(s)`,
      })),
      chains,
    });
  }
  // Loose files named like Istio's mounts.
  const files = d.values.filter((v) => !run.covered.has(v) && v.origin.path.length <= 2 && !v.origin.object);
  // Grouped by directory: `cluster1/ca-cert.pem` and `cluster2/ca-cert.pem` are two CAs, and a
  // workload's `…/cert-chain.pem` is not the CA's.
  const byDir = new Map<string, Map<string, Value>>();
  for (const f of files) {
    const dir = dirName(f.origin.input);
    const m = mapAt(byDir, dir);
    m.set(baseName(f.origin.input), f);
  }
  for (const [dir, byName] of byDir) {
    const at = dir ? ` in ${dir}/` : '';
    if (byName.has('ca-cert.pem') && byName.has('ca-key.pem')) {
      await checkPluginCa(
        run,
        { title: `Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem${at})`, source: byName.get('ca-cert.pem')!.origin.input },
        {
          cert: byName.get('ca-cert.pem'),
          key: byName.get('ca-key.pem'),
          chain: [byName.get('cert-chain.pem')].filter((x): x is Value => !!x),
          root: byName.get('root-cert.pem'),
          crl: byName.get('ca-crl.pem'),
        },
        'istiod',
      );
    }
    if (byName.has('cert-chain.pem') && byName.has('key.pem')) {
      await checkWorkload(
        run,
        { title: `Workload certificates (files cert-chain.pem, key.pem, root-cert.pem${at})`, source: byName.get('cert-chain.pem')!.origin.input },
        { cert: byName.get('cert-chain.pem'), key: byName.get('key.pem'), chain: [byName.get('cert-chain.pem')!], root: byName.get('root-cert.pem') },
      );
    }
  }
  // Everything else: PEM bundles. A key with the certificates it belongs to, roots as anchors.
  const rest = d.values.filter((v) => !run.covered.has(v) && v.artefacts.some((a) => a.kind === 'certificate'));
  if (rest.length > 0) {
    const anchors = run.trustAnchors();
    const all = run.allCerts();
    const issuers = new Set<string>();
    for (const c of all) for (const i of run.certsOfIssuers(c)) issuers.add(i.facts.sha256FingerprintHex);
    const leaves: Certificate[] = [];
    for (const v of rest) {
      const certs = run.certsOf(v);
      certs.forEach((c, i) => {
        const e = run.entry(c);
        if (!c.facts.isCA && !(c.facts.version === 1 && c.facts.selfSigned)) {
          e.roles.add(c.facts.spiffe.length > 0 ? 'workload' : 'leaf');
          leaves.push(c);
        } else if (c.facts.selfSigned) e.roles.add('root');
        else if (i === 0 && run.keys.some((k) => k.facts?.publicKey?.spkiSha256 === c.facts.publicKey.spkiSha256)) e.roles.add('signing-cert');
        else e.roles.add('intermediate');
      });
    }
    const bottoms =
      leaves.length > 0 ? leaves : rest.flatMap((v) => run.certsOf(v)).filter((c) => !issuers.has(c.facts.sha256FingerprintHex) && !c.facts.selfSigned);
    const seen = new Set<string>();
    const chains: string[] = [];
    for (const leaf of bottoms) {
      if (seen.has(leaf.facts.sha256FingerprintHex) || seen.size >= 50) continue;
      seen.add(leaf.facts.sha256FingerprintHex);
      const view = await buildChain(
        run,
        leaf,
        leaf.facts.spiffe[0]?.uri ?? leaf.facts.subjectCommonName ?? (leaf.facts.subject || 'certificate'),
        anchors,
        all,
        ['any'],
      );
      chains.push(view.id);
    }
    const onlyRoots = rest.every((v) => run.certsOf(v).every((c) => c.facts.selfSigned));
    if (onlyRoots) for (const v of rest) checkTrustBundle(run, `Trust bundle (${originLabel(v.origin)})`, v.origin.input, v);
    else {
      const steps: CheckStep[] = [];
      for (const id of chains) {
        const ch = run.chains.find((c) => c.id === id)!;
        steps.push({
          name: ch.title,
          status: ch.go.ok ? 'pass' : 'fail',
          detail: ch.go.ok
            ? `verifies to a root of the input (${ch.path.length} certificate${ch.path.length === 1 ? '' : 's'})`
            : (ch.go.error ?? 'does not verify'),
          error: ch.go.error ?? undefined,
        });
      }
      const keyless = run.keys.filter((k) => k.facts?.publicKey);
      for (const k of keyless) {
        const m = [...run.certs.values()].filter((e) => e.cert.facts.publicKey.spkiSha256 === k.facts!.publicKey!.spkiSha256);
        steps.push({
          name: `key ${k.origin.label}`,
          status: m.length > 0 ? 'pass' : 'fail',
          detail:
            m.length > 0
              ? `belongs to ${m.map((e) => e.cert.facts.subjectCommonName ?? e.cert.facts.spiffe[0]?.uri ?? e.cert.facts.subject).join(', ')}`
              : 'matches no certificate of the input (KEY_MISMATCH)',
        });
      }
      run.scenario({
        kind: 'pem-bundle',
        title: 'PEM bundle',
        source: rest
          .map((v) => v.origin.input)
          .filter((x, i, a) => a.indexOf(x) === i)
          .join(', '),
        verdict: {
          ok: steps.every((s) => s.status !== 'fail'),
          text: steps.every((s) => s.status !== 'fail') ? 'every chain verifies to a root of the input' : 'a chain or key check fails',
        },
        steps,
        chains,
      });
      // Workload pairs: will they trust each other?
      const spiffeLeaves = [...new Map(leaves.filter((l) => l.facts.spiffe.length > 0).map((l) => [l.facts.sha256FingerprintHex, l])).values()];
      const pairs: Array<[Certificate, Certificate]> = [];
      for (let i = 0; i < spiffeLeaves.length && pairs.length < 3; i++)
        for (let j = i + 1; j < spiffeLeaves.length && pairs.length < 3; j++) pairs.push([spiffeLeaves[i]!, spiffeLeaves[j]!]);
      await checkMutualTrust(run, pairs);
    }
  }
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function dirName(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}
