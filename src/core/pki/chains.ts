// Chains as Go builds them (verify.ts goVerify, or a verdict Istio's own check already has), each
// link's checks (name, AKI/SKI, signature, whether the issuer may sign, validity, path length,
// name constraints, extended key usage), OpenSSL's verdict beside Go's, and the findings a
// chain raises. Used by the scenarios and by scenario detection for the chains they draw.
import type { Certificate } from './cert.ts';
import { nameKey, type Inspection } from './inspection.ts';
import { opensslVerify } from './openssl.ts';
import type { ChainLink, ChainView, LinkCheck } from './report.ts';
import { CertPool, chainAllowsUsages, goNameConstraintsError, goVerify, type GoVerifyResult, type KeyUsageRequest } from './verify.ts';

/**
 * The chain of `leaf` against `roots` (with `intermediates`) for `usages` (none: serverAuth, as
 * Go's default): Go's verdict (`go` when the caller already verified), the path it built or else
 * the best partial path through the inputs' issuers, each link checked, recorded on the
 * inspection with its findings.
 */
export async function buildChain(
  run: Inspection,
  leaf: Certificate,
  title: string,
  roots: Certificate[],
  intermediates: Certificate[],
  usages: KeyUsageRequest[],
  go?: GoVerifyResult,
): Promise<ChainView> {
  const rootPool = new CertPool(roots);
  const interPool = new CertPool(intermediates);
  const result =
    go ?? (await goVerify(leaf, { roots: rootPool, intermediates: interPool, now: run.ctx.now, keyUsages: usages, signatures: run.ctx.signatures }));
  await run.ctx.complete(result.chains);
  for (const c of result.chains.flat()) run.register(c);
  run.register(leaf);
  let path: Certificate[];
  if (result.chains.length > 0) path = result.chains[0]!;
  else {
    // The best partial path: follow verified issuers (then any same-name candidate).
    path = [leaf];
    for (let guard = 0; guard < 10; guard++) {
      const cur = path[path.length - 1]!;
      if (cur.facts.selfSigned) break;
      const e = run.certs.get(cur.facts.sha256FingerprintHex);
      const next = e?.issuers.find((i) => i.status === 'verified' && !path.includes(i.cert))?.cert ?? e?.issuers.find((i) => !path.includes(i.cert))?.cert;
      if (!next) break;
      path.push(next);
    }
  }
  const links: ChainLink[] = [];
  for (let i = 0; i + 1 < path.length; i++) links.push(await linkChecks(run, path[i]!, path[i + 1]!, path, i, usages, rootPool));
  const top = path[path.length - 1]!;
  const trusted = rootPool.contains(top);
  const openssl = await opensslVerify(leaf, roots, [...intermediates], run.ctx.now, run.ctx.signatures);
  const view: ChainView = {
    id: run.nextChainId(),
    title,
    path: path.map((c) => c.facts.sha256FingerprintHex),
    links,
    go: { ok: result.ok, error: result.error, usages: usages.length === 0 ? ['serverAuth'] : usages },
    openssl,
    anchor: { id: top.facts.sha256FingerprintHex, trusted, where: trusted ? run.entry(top).occurrences[0]?.label : undefined },
    roots: roots.map((r) => r.facts.sha256FingerprintHex),
  };
  if (openssl.ok !== result.ok) view.opensslNote = opensslNote(leaf, openssl.error?.code, result);
  run.chains.push(view);
  chainFindings(run, view, result, path, trusted);
  return view;
}

/** The checks of one link of `path` (child at `i`, parent at `i + 1`), the worst of them its status. */
async function linkChecks(
  run: Inspection,
  child: Certificate,
  parent: Certificate,
  path: Certificate[],
  i: number,
  usages: KeyUsageRequest[],
  roots: CertPool,
): Promise<ChainLink> {
  const checks: LinkCheck[] = [];
  const cf = child.facts;
  const pf = parent.facts;
  const nameOk = nameKey(child.issuerDer) === nameKey(parent.subjectDer);
  checks.push(
    nameOk
      ? { name: 'name', status: 'ok', detail: `issuer = subject (${pf.subject || '(empty)'})` }
      : cf.issuer === pf.subject
        ? { name: 'name', status: 'fail', detail: 'the names are equal as text but encoded differently: Go will not link them' }
        : { name: 'name', status: 'fail', detail: `issuer "${cf.issuer}" ≠ subject "${pf.subject}"` },
  );
  const aki = cf.authorityKeyIdentifier;
  const ski = pf.subjectKeyIdentifier;
  checks.push(
    !aki || !ski
      ? { name: 'AKI/SKI', status: 'info', detail: `${!aki ? 'no AKI on the child' : 'no SKI on the issuer'}` }
      : aki === ski
        ? { name: 'AKI/SKI', status: 'ok', detail: `AKI = SKI ${aki}` }
        : { name: 'AKI/SKI', status: 'warn', detail: `AKI ${aki} ≠ SKI ${ski} (Go still links them; AKI_SKI_MISMATCH)` },
  );
  const sig = await run.ctx.signatures.certificate(child, parent);
  const insecure = /sha1|md5|md2/i.test(cf.signatureAlgorithm) && !parent.facts.selfSigned ? true : /sha1|md5|md2/i.test(cf.signatureAlgorithm);
  checks.push(
    sig.status === 'verified'
      ? insecure
        ? { name: 'signature', status: 'fail', detail: `verifies, but ${cf.signatureAlgorithm} is insecure for Go (refused)` }
        : { name: 'signature', status: 'ok', detail: `${cf.signatureAlgorithm} verified with the issuer key` }
      : sig.status === 'unverifiable'
        ? { name: 'signature', status: 'warn', detail: sig.reason ?? 'not verifiable in the browser' }
        : { name: 'signature', status: 'fail', detail: sig.reason ?? 'does not verify' },
  );
  const isAnchor = i + 1 === path.length - 1 && roots.contains(parent);
  const mayProblems: string[] = [];
  if (pf.version === 3 && !pf.basicConstraints.present) mayProblems.push('v3 without BasicConstraints');
  if (pf.basicConstraints.present && !pf.basicConstraints.ca) mayProblems.push('BasicConstraints CA:FALSE');
  if (pf.keyUsage.present && pf.keyUsage.usages.length > 0 && !pf.keyUsage.usages.includes('keyCertSign')) mayProblems.push('KeyUsage without keyCertSign');
  if (!isAnchor && !pf.isCA) mayProblems.push(pf.version === 1 ? 'a v1 certificate used as an intermediate' : 'not a CA, used as an intermediate');
  checks.push(
    mayProblems.length === 0
      ? {
          name: 'issuer may sign',
          status: 'ok',
          detail:
            pf.version === 1 ? 'v1 trust anchor (accepted by Go as a root)' : 'CA:TRUE' + (pf.keyUsage.usages.includes('keyCertSign') ? ', keyCertSign' : ''),
        }
      : { name: 'issuer may sign', status: 'fail', detail: mayProblems.join('; ') },
  );
  const now = run.ctx.now.getTime();
  const inWindow = (c: Certificate) => now >= c.notBefore.getTime() && now <= c.notAfter.getTime();
  const validity: string[] = [];
  let vStatus: LinkCheck['status'] = 'ok';
  if (!inWindow(child)) {
    validity.push(`the child is ${now > child.notAfter.getTime() ? 'expired' : 'not yet valid'}`);
    vStatus = 'fail';
  }
  if (!inWindow(parent)) {
    validity.push(`the issuer is ${now > parent.notAfter.getTime() ? 'expired' : 'not yet valid'}`);
    vStatus = 'fail';
  }
  if (parent.notAfter.getTime() < child.notAfter.getTime()) {
    validity.push(`the issuer expires (${pf.notAfter}) before the child (${cf.notAfter})`);
    if (vStatus === 'ok') vStatus = 'warn';
  }
  if (child.notBefore.getTime() < parent.notBefore.getTime()) validity.push('the child is valid from before its issuer');
  checks.push({
    name: 'validity',
    status: vStatus,
    detail: validity.length ? validity.join('; ') : `both valid at ${run.opts.now.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
  });
  if (pf.basicConstraints.pathLen !== null) {
    const below = i; // intermediates between the leaf and this issuer
    checks.push(
      below > pf.basicConstraints.pathLen
        ? { name: 'path length', status: 'fail', detail: `${below} intermediate(s) below a CA with pathLen ${pf.basicConstraints.pathLen}` }
        : { name: 'path length', status: 'ok', detail: `${below} ≤ pathLen ${pf.basicConstraints.pathLen}` },
    );
  }
  if (pf.nameConstraints.present) {
    const err = goNameConstraintsError(parent, path.slice(0, i + 1));
    checks.push({ name: 'name constraints', status: err ? 'fail' : 'ok', detail: err ?? pf.nameConstraints.text.join('; ') });
  }
  const below = path.slice(0, i + 1);
  const wanted = (usages.includes('any') ? [] : usages.length === 0 ? ['serverAuth'] : usages) as Array<'serverAuth' | 'clientAuth'>;
  if (wanted.length > 0) {
    const ok = chainAllowsUsages([...below, parent], wanted);
    checks.push({
      name: 'extended key usage',
      status: ok ? 'ok' : 'fail',
      detail: ok ? `${wanted.join(' + ')} allowed through this link` : `the EKUs leave out ${wanted.join(' + ')}`,
    });
  }
  const worst = checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'ok';
  return { child: cf.sha256FingerprintHex, parent: pf.sha256FingerprintHex, status: worst, checks };
}

/** The findings a chain raises: failing or warning link checks, and why Go found no chain. */
function chainFindings(run: Inspection, view: ChainView, go: GoVerifyResult, path: Certificate[], trusted: boolean): void {
  const subject = { kind: 'chain' as const, id: view.id, label: view.title };
  for (const l of view.links) {
    for (const c of l.checks) {
      if (c.name === 'signature' && c.status === 'fail' && !/insecure/.test(c.detail))
        run.finding('SIGNATURE_INVALID', 'error', `${view.title}: ${c.detail}`, subject);
      if (c.name === 'issuer may sign' && c.status === 'fail') run.finding('ISSUER_NOT_CA', 'error', `${view.title}: ${c.detail}`, subject);
      if (c.name === 'path length' && c.status === 'fail') run.finding('PATHLEN_EXCEEDED', 'error', `${view.title}: ${c.detail}`, subject);
      if (c.name === 'name constraints' && c.status === 'fail') run.finding('NAME_CONSTRAINT_VIOLATION', 'error', `${view.title}: ${c.detail}`, subject);
      if (c.name === 'AKI/SKI' && c.status === 'warn') run.finding('AKI_SKI_MISMATCH', 'warning', `${view.title}: ${c.detail}`, subject);
      if (c.name === 'validity' && /expires .* before the child/.test(c.detail))
        run.finding('ISSUER_EXPIRES_BEFORE_CHILD', 'warning', `${view.title}: ${c.detail.split('; ').find((d) => d.includes('before the child'))}`, subject);
      if (c.name === 'validity' && /valid from before its issuer/.test(c.detail))
        run.finding('CHILD_STARTS_BEFORE_ISSUER', 'info', `${view.title}: the child is valid from before its issuer`, subject);
    }
  }
  if (!go.ok) {
    const top = path[path.length - 1]!;
    if (go.error?.includes('incompatible key usage')) run.finding('EKU_CHAIN_INCOMPATIBLE', 'error', `${view.title}: ${go.error}`, subject);
    else if (go.error?.includes('unknown authority')) {
      if (top.facts.selfSigned && !trusted)
        run.finding('CHAIN_ROOT_NOT_TRUSTED', 'error', `${view.title}: the path ends at ${top.facts.subject}, which is not in the trust bundle`, subject);
      else if (trusted) {
        // The path reaches a certificate of the trust bundle, which Go takes as an anchor whether
        // it is self-signed or not, so no issuer is missing: a link Go refuses (already a finding
        // above) is why; say Go's reason only when no link check did.
        if (!view.links.some((l) => l.checks.some((c) => c.status === 'fail')))
          run.finding('CHAIN_INCOMPLETE', 'error', `${view.title}: Go finds no path to a trusted root (${go.error})`, subject);
      } else
        run.finding(
          'CHAIN_INCOMPLETE',
          'error',
          `${view.title}: no path to a trusted root; missing the issuer "${top.facts.issuer}"${top.facts.authorityKeyIdentifier ? ` (AKI ${top.facts.authorityKeyIdentifier})` : ''}`,
          subject,
        );
    }
  }
}

/** Why OpenSSL's verdict differs from Go's (shown next to the chain). */
function opensslNote(leaf: Certificate, code: number | undefined, go: GoVerifyResult): string {
  if (code === 18 && go.ok)
    return leaf.facts.selfIssued
      ? 'OpenSSL treats a leaf whose subject equals its issuer as self-signed; Go verifies the signature and accepts it.'
      : 'OpenSSL stops at a certificate it takes for self-signed; Go goes on.';
  if (code === 10 || code === 9) return 'OpenSSL checks the validity of every certificate in the chain it built; Go reports the first invalid one it meets.';
  if (go.ok) return 'OpenSSL builds a different chain than Go here.';
  return `OpenSSL accepts a chain Go refuses: ${go.error}`;
}
