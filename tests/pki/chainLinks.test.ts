// Each link's checks and the findings of a chain (src/core/pki/chains.ts buildChain), driven
// directly with the trust bundle, intermediates and key usages a scenario would pass. Expected
// values follow Go's crypto/x509 verify.go: isValid (validity is inclusive at both ends,
// now.Before(NotBefore) / now.After(NotAfter); only an intermediate needs BasicConstraints
// CA:TRUE; numIntermediates > MaxPathLen fails; name constraints apply to the certificates
// below the CA), checkChainForKeyUsage (every certificate up to the root, any one requested
// usage suffices, none requested means serverAuth); x509.go CheckSignatureFrom for KeyUsage; and
// OpenSSL 3's chain building (X509_self_signed and the AKID check take no signature, the
// trust store is searched first and a time-valid issuer preferred) for the OpenSSL note.
import { describe, expect, it } from 'vitest';
import * as asnX509 from '@peculiar/asn1-x509';
import { buildChain } from '../../src/core/pki/chains.ts';
import { collectInputs } from '../../src/core/pki/collect.ts';
import { decodeInputs } from '../../src/core/pki/input.ts';
import { Inspection } from '../../src/core/pki/inspection.ts';
import type { ChainView, LinkCheck } from '../../src/core/pki/report.ts';
import type { KeyUsageRequest } from '../../src/core/pki/verify.ts';
import { DAY, EKU, KU, NOW, SIG_OIDS, intermediate, keys, leaf, parse, resign, root, type Issued } from './pkiBuilder.ts';
import { pem } from './istioFixtures.ts';

const id = (i: Issued) => i.cert.facts.sha256FingerprintHex;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

interface Drawn {
  run: Inspection;
  view: ChainView;
}

/** The chain of `l` drawn over an inspection of `inputs` (one PEM file), titled "T". */
async function draw(inputs: Issued[], l: Issued, roots: Issued[], inters: Issued[], usages: KeyUsageRequest[] = ['any']): Promise<Drawn> {
  const run = new Inspection(decodeInputs([{ name: 'bundle.pem', text: pem(...inputs) }]), {
    now: NOW,
    trustDomain: 'cluster.local',
    aliases: [],
    profile: 'default',
    credentialUsers: [],
  });
  await collectInputs(run);
  // The inspection's own instance of each certificate it holds (paths compare by identity).
  const own = (i: Issued) => run.certs.get(id(i))?.cert ?? i.cert;
  const view = await buildChain(run, own(l), 'T', roots.map(own), inters.map(own), usages);
  return { run, view };
}

const check = (v: ChainView, child: Issued, name: string): LinkCheck | undefined =>
  v.links.find((l) => l.child === id(child))?.checks.find((x) => x.name === name);
const linkOf = (v: ChainView, child: Issued) => v.links.find((l) => l.child === id(child))!;
const chainFindings = (d: Drawn) => d.run.findings.filter((f) => f.subject.kind === 'chain');
const ids = (d: Drawn) => chainFindings(d).map((f) => f.id);
const finding = (d: Drawn, fid: string) => chainFindings(d).find((f) => f.id === fid);

/** The same certificate as X.509 v1 (no extensions), re-signed by `signer`. */
async function asV1(c: Issued, signer: Issued): Promise<Issued> {
  const der = await resign(c.der, signer.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.version = 0;
    tbs.extensions = undefined;
  });
  const cert = await parse(der);
  expect(cert.facts.version).toBe(1);
  return { ...c, der, cert };
}

describe('a clean chain leaf → intermediate → root', () => {
  it('every check passes and says what it checked; no finding; Go default usage is serverAuth', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const d = await draw([l, i, r0], l, [r0], [i], []);
    const v = d.view;
    expect(v.path).toEqual([id(l), id(i), id(r0)]);
    expect(v.go.ok).toBe(true);
    // verify.go: no KeyUsages requested means ExtKeyUsageServerAuth.
    expect(v.go.usages).toEqual(['serverAuth']);
    expect(v.links.map((x) => x.status)).toEqual(['ok', 'ok']);
    // Exactly these checks: no pathLen and no name constraints on the issuer, a usage to check.
    expect(linkOf(v, l).checks.map((c) => c.name)).toEqual(['name', 'AKI/SKI', 'signature', 'issuer may sign', 'validity', 'extended key usage']);
    // RawIssuer = RawSubject links them.
    expect(check(v, l, 'name')).toMatchObject({ status: 'ok', detail: expect.stringContaining('CN=Inter') });
    expect(check(v, i, 'name')).toMatchObject({ status: 'ok', detail: expect.stringContaining('CN=Test Root') });
    expect(check(v, l, 'AKI/SKI')).toMatchObject({ status: 'ok', detail: expect.stringContaining(i.cert.facts.subjectKeyIdentifier!) });
    expect(check(v, l, 'signature')).toMatchObject({ status: 'ok', detail: expect.stringContaining('verified') });
    expect(check(v, l, 'issuer may sign')).toEqual({ name: 'issuer may sign', status: 'ok', detail: 'CA:TRUE, keyCertSign' });
    // All certificates start at the same time: none is valid from before its issuer.
    expect(check(v, l, 'validity')).toEqual({ name: 'validity', status: 'ok', detail: 'both valid at 2026-06-01T12:00:00Z' });
    // No pathLen, no name constraints on either CA: no such checks.
    expect(check(v, i, 'path length')).toBeUndefined();
    expect(check(v, l, 'name constraints')).toBeUndefined();
    expect(check(v, i, 'name constraints')).toBeUndefined();
    expect(check(v, l, 'extended key usage')).toEqual({ name: 'extended key usage', status: 'ok', detail: 'serverAuth allowed through this link' });
    // OpenSSL with the same intermediates agrees: no note.
    expect(v.openssl?.ok).toBe(true);
    expect(v.opensslNote).toBeUndefined();
    expect(v.anchor).toMatchObject({ id: id(r0), trusted: true, where: expect.stringContaining('bundle.pem') });
    expect(chainFindings(d)).toEqual([]);
  });

  it('with "any" usage there is no extended key usage check', async () => {
    const r0 = await root();
    const l = await leaf(r0, { eku: [EKU.codeSigning] });
    const d = await draw([l, r0], l, [r0], [], ['any']);
    expect(d.view.go.ok).toBe(true);
    expect(check(d.view, l, 'extended key usage')).toBeUndefined();
  });

  it('a trust anchor that is not among the inputs: Go’s path is kept, the anchor has no input location', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const d = await draw([l, i], l, [r0], [i]);
    expect(d.view.go.ok).toBe(true);
    expect(d.view.path).toEqual([id(l), id(i), id(r0)]);
    expect(d.view.anchor).toEqual({ id: id(r0), trusted: true, where: undefined });
  });

  it('a name that reads like a validity remark raises no validity finding (they come from the dates)', async () => {
    const r0 = await root({ subject: 'CN=Root that expires soon before the child is valid from before its issuer' });
    const l = await leaf(r0);
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(chainFindings(d)).toEqual([]);
  });

  it('an issuer with an empty subject: Go links the empty names, the link says so', async () => {
    const r0 = await root({ subject: '' });
    const l = await leaf(r0);
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(check(d.view, l, 'name')).toMatchObject({ status: 'ok', detail: expect.stringContaining('(empty)') });
  });
});

describe('the best partial path when Go finds no chain', () => {
  it('follows the issuer whose signature verifies, not an earlier one of the same name', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const impostor = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    // The impostor comes first in the input; the root is not given.
    const d = await draw([l, impostor, i], l, [], [impostor, i]);
    expect(d.view.go.ok).toBe(false);
    expect(d.view.path).toEqual([id(l), id(i)]);
    expect(check(d.view, l, 'signature')?.status).toBe('ok');
    const f = finding(d, 'CHAIN_INCOMPLETE')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe(`T: no path to a trusted root; missing the issuer "CN=Test Root" (AKI ${r0.cert.facts.subjectKeyIdentifier})`);
    expect(f.subject).toEqual({ kind: 'chain', id: d.view.id, label: 'T' });
  });

  it('without an AKI the missing issuer is named alone', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter', { noAki: true });
    const l = await leaf(i);
    const d = await draw([l, i], l, [], [i]);
    expect(d.view.path).toEqual([id(l), id(i)]);
    expect(finding(d, 'CHAIN_INCOMPLETE')?.message).toBe('T: no path to a trusted root; missing the issuer "CN=Test Root"');
  });

  it('stops at a self-signed certificate (its own issuer), even when another of that name exists', async () => {
    const r0 = await root();
    const other = await root({ keys: await keys() });
    const l = await leaf(r0);
    const d = await draw([l, r0, other], l, [], []);
    expect(d.view.go.ok).toBe(false);
    expect(d.view.path).toEqual([id(l), id(r0)]);
    const f = finding(d, 'CHAIN_ROOT_NOT_TRUSTED')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe('T: the path ends at CN=Test Root, which is not in the trust bundle');
    expect(ids(d)).not.toContain('CHAIN_INCOMPLETE');
  });
});

// parser.go leaves an issuer's PublicKey nil when its SPKI says RSASSA-PSS, and verify.go's
// considerCandidate skips such a candidate without a hint: Go gives plain "unknown authority" even
// though every link we check passes (the signature does verify with that RSA key). The trust
// bundle holds the issuer, so no issuer is missing: the finding is Go's own reason.
describe('Go refuses a trusted issuer no link check faults', () => {
  /** `c` with its SPKI's algorithm rewritten to id-RSASSA-PSS (same key), re-signed by `signer`. */
  async function withPssSpki(c: Issued, signer: Issued): Promise<Issued> {
    const der = await resign(c.der, signer.keys, SIG_OIDS.sha256WithRSA, 'sha256', (tbs) => {
      tbs.subjectPublicKeyInfo.algorithm = new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.10' });
    });
    const cert = await parse(der);
    expect(cert.facts.publicKey.type).toBe('RSA-PSS');
    return { ...c, der, cert };
  }
  const goReason = 'T: Go finds no path to a trusted root (x509: certificate signed by unknown authority)';

  it('a trusted root', async () => {
    const rk = await keys('RSA-2048', 'pss-spki');
    const r0 = await root({ keys: rk });
    const pssRoot = await withPssSpki(r0, r0);
    const l = await leaf(r0);
    const d = await draw([l, pssRoot], l, [pssRoot], []);
    expect(d.view.go.error).toBe('x509: certificate signed by unknown authority');
    expect(linkOf(d.view, l).checks.map((c) => c.status)).not.toContain('fail');
    expect(chainFindings(d).map((f) => [f.id, f.severity, f.message])).toEqual([['CHAIN_INCOMPLETE', 'error', goReason]]);
  }, 60000);

  it('a trusted intermediate without its root: Go anchors there, so its issuer is not missing', async () => {
    const r0 = await root();
    const ik = await keys('RSA-2048', 'pss-spki');
    const i = await intermediate(r0, 'CN=PSS Inter', { keys: ik });
    const pssInter = await withPssSpki(i, r0);
    const l = await leaf(i);
    const d = await draw([l, pssInter], l, [pssInter], []);
    expect(d.view.go.error).toBe('x509: certificate signed by unknown authority');
    expect(d.view.path).toEqual([id(l), id(pssInter)]);
    expect(chainFindings(d).map((f) => [f.id, f.message])).toEqual([['CHAIN_INCOMPLETE', goReason]]);
  }, 60000);
});

describe('may the issuer sign', () => {
  it('a v1 root is accepted by Go as a trust anchor (only intermediates need CA:TRUE)', async () => {
    const r0 = await root();
    const v1 = await asV1(r0, r0);
    const l = await leaf(r0);
    const d = await draw([l, v1], l, [v1], []);
    expect(d.view.go.ok).toBe(true);
    expect(d.view.path).toEqual([id(l), id(v1)]);
    expect(check(d.view, l, 'issuer may sign')).toEqual({ name: 'issuer may sign', status: 'ok', detail: 'v1 trust anchor (accepted by Go as a root)' });
    // A v1 certificate has no extensions: the leaf's AKI has no SKI to meet.
    expect(check(d.view, l, 'AKI/SKI')).toEqual({ name: 'AKI/SKI', status: 'info', detail: 'no SKI on the issuer' });
    expect(ids(d)).toEqual([]);
  });

  it('a v1 certificate used as an intermediate may not sign, with or without the root', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=V1 Inter');
    const v1 = await asV1(i, r0);
    const l = await leaf(i);
    for (const [inputs, roots] of [
      [[l, v1], []],
      [[l, v1, r0], [r0]],
    ] as Array<[Issued[], Issued[]]>) {
      const d = await draw(inputs, l, roots, [v1]);
      expect(d.view.go.ok).toBe(false);
      expect(d.view.path.slice(0, 2)).toEqual([id(l), id(v1)]);
      expect(check(d.view, l, 'issuer may sign')?.status).toBe('fail');
      expect(check(d.view, l, 'issuer may sign')?.detail).toBe('a v1 certificate used as an intermediate');
      const f = finding(d, 'ISSUER_NOT_CA')!;
      expect(f.severity).toBe('error');
      expect(f.message).toBe('T: a v1 certificate used as an intermediate');
    }
  });

  it('a v3 intermediate without BasicConstraints is not a CA', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=NoBC', { ca: null, keyUsage: KU.keyCertSign });
    const l = await leaf(i);
    const d = await draw([l, i, r0], l, [r0], [i]);
    expect(d.view.go.ok).toBe(false);
    expect(check(d.view, l, 'issuer may sign')?.detail).toBe('v3 without BasicConstraints; not a CA, used as an intermediate');
    expect(linkOf(d.view, l).status).toBe('fail');
    // Go refuses the chain (unknown authority) because of that link; the path still reaches the
    // trusted root, whose own issuer is not missing: the failing link is the finding, not an
    // incomplete chain.
    expect(d.view.path[d.view.path.length - 1]).toBe(id(r0));
    expect(ids(d)).toContain('ISSUER_NOT_CA');
    expect(ids(d)).not.toContain('CHAIN_INCOMPLETE');
  });

  // x509.go CheckSignatureFrom: `parent.KeyUsage != 0 && parent.KeyUsage&KeyUsageCertSign == 0`
  // is a ConstraintViolationError: a KeyUsage without keyCertSign may not sign, but one with no bit
  // set (KeyUsage 0) restricts nothing, like none at all.
  it('a CA whose KeyUsage leaves out keyCertSign may not sign; an empty KeyUsage or none restricts nothing', async () => {
    const r0 = await root();
    const noSign = await intermediate(r0, 'CN=Inter', { keyUsage: KU.digitalSignature });
    const l = await leaf(noSign);
    const d = await draw([l, noSign, r0], l, [r0], [noSign]);
    expect(d.view.go.ok).toBe(false);
    expect(check(d.view, l, 'issuer may sign')).toEqual({ name: 'issuer may sign', status: 'fail', detail: 'KeyUsage without keyCertSign' });
    expect(finding(d, 'ISSUER_NOT_CA')?.message).toBe('T: KeyUsage without keyCertSign');
    const emptyKu = await intermediate(r0, 'CN=Inter', { keyUsage: 0 });
    expect(emptyKu.cert.facts.keyUsage).toMatchObject({ present: true, usages: [] });
    const l1 = await leaf(emptyKu);
    const d1 = await draw([l1, emptyKu, r0], l1, [r0], [emptyKu]);
    expect(d1.view.go.ok).toBe(true);
    // It is accepted as CA:TRUE; the detail does not claim a keyCertSign bit that is not there.
    expect(check(d1.view, l1, 'issuer may sign')).toEqual({ name: 'issuer may sign', status: 'ok', detail: 'CA:TRUE' });
    expect(ids(d1)).not.toContain('ISSUER_NOT_CA');
    const noKu = await intermediate(r0, 'CN=Inter', { keyUsage: null });
    const l2 = await leaf(noKu);
    const d2 = await draw([l2, noKu, r0], l2, [r0], [noKu]);
    expect(d2.view.go.ok).toBe(true);
    expect(check(d2.view, l2, 'issuer may sign')).toEqual({ name: 'issuer may sign', status: 'ok', detail: 'CA:TRUE' });
  });
});

describe('validity', () => {
  it('is inclusive at both ends (Go: now.Before(NotBefore), now.After(NotAfter))', async () => {
    const r0 = await root();
    for (const window of [
      { notBefore: NOW, notAfter: at(1) },
      { notBefore: at(-1), notAfter: NOW },
    ]) {
      const l = await leaf(r0, window);
      const d = await draw([l, r0], l, [r0], []);
      expect(d.view.go.ok).toBe(true);
      expect(check(d.view, l, 'validity')?.status).toBe('ok');
    }
  });

  it('a child not yet valid fails its link and raises no other link finding', async () => {
    const r0 = await root();
    const l = await leaf(r0, { notBefore: at(1), notAfter: at(10) });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(false);
    expect(check(d.view, l, 'validity')).toMatchObject({ status: 'fail', detail: 'the child is not yet valid' });
    expect(linkOf(d.view, l).status).toBe('fail');
    for (const fid of ['SIGNATURE_INVALID', 'ISSUER_NOT_CA', 'PATHLEN_EXCEEDED', 'NAME_CONSTRAINT_VIOLATION', 'AKI_SKI_MISMATCH'])
      expect(ids(d)).not.toContain(fid);
  });

  it('an expired issuer fails the link (not a warning), and it expires before its child', async () => {
    const r0 = await root({ notBefore: at(-20), notAfter: at(-1) });
    const l = await leaf(r0, { notBefore: at(-10), notAfter: at(10) });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(false);
    const v = check(d.view, l, 'validity')!;
    expect(v.status).toBe('fail');
    expect(v.detail).toMatch(/^the issuer is expired; the issuer expires \(.+\) before the child \(.+\)$/);
  });

  it('an issuer not yet valid, its child valid from before it', async () => {
    const r0 = await root({ notBefore: at(1), notAfter: at(60) });
    const l = await leaf(r0, { notBefore: at(-10), notAfter: at(10) });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(false);
    expect(check(d.view, l, 'validity')).toMatchObject({ status: 'fail', detail: 'the issuer is not yet valid; the child is valid from before its issuer' });
    const f = finding(d, 'CHILD_STARTS_BEFORE_ISSUER')!;
    expect(f.severity).toBe('info');
    expect(f.message).toBe('T: the child is valid from before its issuer');
  });

  it('both expired: the finding quotes only the "expires before the child" part', async () => {
    const r0 = await root({ notBefore: at(-30), notAfter: at(-5) });
    const l = await leaf(r0, { notBefore: at(-20), notAfter: at(-2) });
    const d = await draw([l, r0], l, [r0], []);
    expect(check(d.view, l, 'validity')?.detail).toMatch(/^the child is expired; the issuer is expired; the issuer expires/);
    const f = finding(d, 'ISSUER_EXPIRES_BEFORE_CHILD')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/^T: the issuer expires \([^;]+\) before the child \([^;]+\)$/);
  });

  it('an issuer that only expires before its child: the link warns, nothing else', async () => {
    const r0 = await root({ notAfter: at(10) });
    const l = await leaf(r0, { notAfter: at(20) });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(linkOf(d.view, l).status).toBe('warn');
    expect(ids(d)).toEqual(['ISSUER_EXPIRES_BEFORE_CHILD']);
  });
});

describe('path length and name constraints', () => {
  it('pathLen counts the intermediates below the CA', async () => {
    const r1 = await root({ pathLen: 1 });
    const i1 = await intermediate(r1, 'CN=Inter');
    const l1 = await leaf(i1);
    const ok = await draw([l1, i1, r1], l1, [r1], [i1]);
    expect(ok.view.go.ok).toBe(true);
    expect(check(ok.view, i1, 'path length')).toEqual({ name: 'path length', status: 'ok', detail: '1 ≤ pathLen 1' });
    const r0 = await root({ pathLen: 0 });
    const i0 = await intermediate(r0, 'CN=Inter');
    const l0 = await leaf(i0);
    const bad = await draw([l0, i0, r0], l0, [r0], [i0]);
    const f = finding(bad, 'PATHLEN_EXCEEDED')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe('T: 1 intermediate(s) below a CA with pathLen 0');
  });

  it('a root’s constraints apply to the leaf two links below', async () => {
    const r0 = await root({ nameConstraints: { permitted: [{ dns: 'example.com' }, { dns: 'example.net' }] } });
    const i = await intermediate(r0, 'CN=Inter');
    const good = await leaf(i);
    const d = await draw([good, i, r0], good, [r0], [i]);
    expect(d.view.go.ok).toBe(true);
    const nc = check(d.view, i, 'name constraints')!;
    expect(nc.status).toBe('ok');
    // Both permitted subtrees are listed, one after the other.
    expect(nc.detail).toMatch(/example\.com.*; .*example\.net/);
    expect(ids(d)).not.toContain('NAME_CONSTRAINT_VIOLATION');
    const bad = await leaf(i, { san: [{ dns: 'leaf.other.org' }] });
    const d2 = await draw([bad, i, r0], bad, [r0], [i]);
    expect(d2.view.go.ok).toBe(false);
    expect(check(d2.view, i, 'name constraints')?.status).toBe('fail');
    const f = finding(d2, 'NAME_CONSTRAINT_VIOLATION')!;
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/^T: .*leaf\.other\.org/);
  });

  it('an intermediate’s constraints do not apply to the root above it', async () => {
    const r0 = await root({ san: [{ dns: 'root.other.org' }] });
    const i = await intermediate(r0, 'CN=Inter', { nameConstraints: { permitted: [{ dns: 'example.com' }] } });
    const l = await leaf(i);
    const d = await draw([l, i, r0], l, [r0], [i]);
    expect(d.view.go.ok).toBe(true);
    expect(check(d.view, l, 'name constraints')?.status).toBe('ok');
  });
});

describe('extended key usage', () => {
  it('a clientAuth-only leaf asked for serverAuth: Go refuses, OpenSSL (no -purpose) accepts', async () => {
    const r0 = await root();
    const l = await leaf(r0, { eku: [EKU.clientAuth] });
    const d = await draw([l, r0], l, [r0], [], ['serverAuth']);
    expect(d.view.go).toEqual({ ok: false, error: 'x509: certificate specifies an incompatible key usage', usages: ['serverAuth'] });
    expect(check(d.view, l, 'extended key usage')).toEqual({ name: 'extended key usage', status: 'fail', detail: 'the EKUs leave out serverAuth' });
    const f = finding(d, 'EKU_CHAIN_INCOMPATIBLE')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe('T: x509: certificate specifies an incompatible key usage');
    expect(d.view.openssl?.ok).toBe(true);
    expect(d.view.opensslNote).toBe('OpenSSL accepts a chain Go refuses: x509: certificate specifies an incompatible key usage');
  });

  it('a root restricted to codeSigning: the link to the root fails, the one below it does not', async () => {
    const r0 = await root({ eku: [EKU.codeSigning] });
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const d = await draw([l, i, r0], l, [r0], [i], ['serverAuth', 'clientAuth']);
    expect(d.view.go.ok).toBe(false);
    expect(d.view.go.usages).toEqual(['serverAuth', 'clientAuth']);
    expect(check(d.view, l, 'extended key usage')?.detail).toBe('serverAuth + clientAuth allowed through this link');
    expect(check(d.view, i, 'extended key usage')).toMatchObject({ status: 'fail', detail: 'the EKUs leave out serverAuth + clientAuth' });
  });

  it('an intermediate restricted to codeSigning: the links from it upwards all leave serverAuth out', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter', { eku: [EKU.codeSigning] });
    const l = await leaf(i);
    const d = await draw([l, i, r0], l, [r0], [i], ['serverAuth']);
    expect(d.view.go.ok).toBe(false);
    expect(check(d.view, l, 'extended key usage')?.status).toBe('fail');
    // The link to the root still carries the intermediate's restriction below it.
    expect(check(d.view, i, 'extended key usage')?.status).toBe('fail');
    expect(ids(d)).toContain('EKU_CHAIN_INCOMPATIBLE');
  });
});

describe('signatures and AKI/SKI', () => {
  it('SHA-1 under an intermediate verifies but Go refuses it as insecure; no SIGNATURE_INVALID', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i, { hash: 'SHA-1' });
    const d = await draw([l, i, r0], l, [r0], [i]);
    expect(d.view.go.ok).toBe(false);
    const s = check(d.view, l, 'signature')!;
    expect(s.status).toBe('fail');
    expect(s.detail).toContain('insecure');
    expect(ids(d)).not.toContain('SIGNATURE_INVALID');
  });

  it('a signature that does not verify gives its reason', async () => {
    const r0 = await root();
    const impostor = await root({ keys: await keys() });
    const l = await leaf(impostor);
    const d = await draw([l, r0], l, [r0], []);
    const s = check(d.view, l, 'signature')!;
    expect(s.status).toBe('fail');
    expect(s.detail).toContain('issuer key');
    const f = finding(d, 'SIGNATURE_INVALID')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe(`T: ${s.detail}`);
  });

  it('an MD5 signature cannot be checked here: the link warns, it is not called invalid', async () => {
    const rk = await keys('RSA-2048', 'md5-root');
    const r0 = await root({ keys: rk });
    const l0 = await leaf(r0);
    const der = await resign(l0.der, rk, SIG_OIDS.md5WithRSA, 'md5');
    const l: Issued = { ...l0, der, cert: await parse(der) };
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(false);
    const s = check(d.view, l, 'signature')!;
    expect(s.status).toBe('warn');
    // The checker's own reason (it names the algorithm), not a generic text.
    expect(s.detail).toMatch(/MD5/i);
    expect(s.detail).toContain('not verifiable');
    expect(linkOf(d.view, l).status).toBe('warn');
    expect(ids(d)).not.toContain('SIGNATURE_INVALID');
  });

  it('a child without AKI: only information', async () => {
    const r0 = await root();
    const l = await leaf(r0, { noAki: true });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(check(d.view, l, 'AKI/SKI')).toEqual({ name: 'AKI/SKI', status: 'info', detail: 'no AKI on the child' });
    expect(linkOf(d.view, l).status).toBe('ok');
    expect(ids(d)).toEqual([]);
  });

  it('AKI ≠ SKI: Go links anyway, OpenSSL finds no issuer (AKID mismatch)', async () => {
    const r0 = await root();
    const other = await root({ keys: await keys() });
    const l = await leaf({ ...r0, x: other.x });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    const c = check(d.view, l, 'AKI/SKI')!;
    expect(c.status).toBe('warn');
    expect(c.detail).toContain(r0.cert.facts.subjectKeyIdentifier!);
    expect(c.detail).toContain(l.cert.facts.authorityKeyIdentifier!);
    expect(linkOf(d.view, l).status).toBe('warn');
    expect(finding(d, 'AKI_SKI_MISMATCH')?.message).toBe(`T: ${c.detail}`);
    expect(d.view.openssl?.error?.code).toBe(20);
    expect(d.view.opensslNote).toBe('OpenSSL builds a different chain than Go here.');
  });
});

describe('OpenSSL beside Go', () => {
  it('a leaf named like its issuer, without AKI: OpenSSL takes it for self-signed (18), Go verifies it', async () => {
    const r0 = await root();
    const l = await leaf(r0, { subject: 'CN=Test Root', noAki: true });
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(d.view.openssl?.error?.code).toBe(18);
    expect(d.view.opensslNote).toBe('OpenSSL treats a leaf whose subject equals its issuer as self-signed; Go verifies the signature and accepts it.');
  });

  it('names equal only after OpenSSL’s case folding: OpenSSL stops, Go goes on', async () => {
    const r0 = await root();
    const l = await leaf(r0, { subject: 'CN=test root', noAki: true });
    expect(l.cert.facts.selfIssued).toBe(false);
    const d = await draw([l, r0], l, [r0], []);
    expect(d.view.go.ok).toBe(true);
    expect(d.view.openssl?.error?.code).toBe(18);
    expect(d.view.opensslNote).toBe('OpenSSL stops at a certificate it takes for self-signed; Go goes on.');
  });

  it('an out-of-time anchor in the store: OpenSSL takes it (10 or 9), Go goes round it through a cross-signed copy', async () => {
    const k = await keys();
    const other = await root({ subject: 'CN=Other Root' });
    const cross = await intermediate(other, 'CN=Root', { keys: k });
    for (const [window, code] of [
      [{ notBefore: at(-20), notAfter: at(-1) }, 10],
      [{ notBefore: at(1), notAfter: at(60) }, 9],
    ] as Array<[{ notBefore: Date; notAfter: Date }, number]>) {
      const stale = await root({ subject: 'CN=Root', keys: k, ...window });
      const l = await leaf(stale);
      const d = await draw([l, cross, stale, other], l, [stale, other], [cross]);
      expect(d.view.go.ok).toBe(true);
      expect(d.view.path).toEqual([id(l), id(cross), id(other)]);
      expect(d.view.openssl?.error?.code).toBe(code);
      expect(d.view.opensslNote).toBe('OpenSSL checks the validity of every certificate in the chain it built; Go reports the first invalid one it meets.');
    }
  });
});
