// The chains an inspection draws for pasted certificates (src/core/pki/inspect.ts and the
// modules behind it): the path Go's Certificate.Verify builds, each link's checks and the
// findings they raise. Expected verdicts follow Go's crypto/x509 (verify.go buildChains and
// isValid, x509.go CheckSignatureFrom): a chain is linked by name and signature, AKI/SKI only
// orders the candidates; a CA's pathLen counts the intermediates below it; name constraints
// apply to roots and intermediates; a parent without CA:TRUE cannot sign; only the current
// time is checked against each certificate's window, never one certificate's against another's.
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/core/pki/inspect.ts';
import type { CertsReport, ChainView, LinkCheck } from '../../src/core/pki/report.ts';
import { DAY, NOW, intermediate, issue, keys, leaf, root, type Issued } from './pkiBuilder.ts';
import { pem } from './istioFixtures.ts';

const paste = (...certs: Issued[]): Promise<CertsReport> => inspect([{ name: 'bundle.pem', text: pem(...certs) }], { now: NOW });
const id = (i: Issued) => i.cert.facts.sha256FingerprintHex;
const chainOf = (r: CertsReport, l: Issued): ChainView => {
  const c = r.chains.find((x) => x.path[0] === id(l));
  if (!c) throw new Error(`no chain for ${l.spec.subject}`);
  return c;
};
const check = (c: ChainView, child: Issued, name: string): LinkCheck | undefined =>
  c.links.find((l) => l.child === id(child))?.checks.find((x) => x.name === name);
const findingIds = (r: CertsReport) => r.findings.map((f) => f.id);

describe('a complete chain in one paste', () => {
  it('is built leaf → intermediate → root as Go builds it, every link clean, the root trusted', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const r = await paste(l, i, r0);
    const c = chainOf(r, l);
    expect(c.path).toEqual([id(l), id(i), id(r0)]);
    expect(c.go.ok).toBe(true);
    expect(c.go.error).toBeNull();
    expect(c.links.map((x) => [x.child, x.parent, x.status])).toEqual([
      [id(l), id(i), 'ok'],
      [id(i), id(r0), 'ok'],
    ]);
    expect(c.anchor).toMatchObject({ id: id(r0), trusted: true });
    const roles = (x: Issued) => r.certificates.find((v) => v.id === id(x))!.roles;
    expect([roles(l), roles(i), roles(r0)]).toEqual([['leaf'], ['intermediate'], ['root']]);
    const bundle = r.scenarios.find((s) => s.kind === 'pem-bundle')!;
    expect(bundle.verdict.ok).toBe(true);
    expect(bundle.chains).toEqual([c.id]);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('a chain Go cannot complete', () => {
  it('without its intermediate: unknown authority, the missing issuer named with the AKI', async () => {
    const r0 = await root();
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toMatch(/^x509: certificate signed by unknown authority/);
    expect(c.path).toEqual([id(l)]);
    expect(c.anchor?.trusted).toBe(false);
    const f = r.findings.find((x) => x.id === 'CHAIN_INCOMPLETE')!;
    expect(f.severity).toBe('error');
    expect(f.message).toContain('Inter');
    expect(f.message).toContain(i.cert.facts.subjectKeyIdentifier!);
    expect(r.scenarios.find((s) => s.kind === 'pem-bundle')!.verdict.ok).toBe(false);
  });

  it('signed by another key under the same name: the signature fails, Go says why it rejected the candidate', async () => {
    const r0 = await root();
    const impostor = await root({ keys: await keys() });
    const l = await leaf(impostor);
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toMatch(/^x509: certificate signed by unknown authority/);
    expect(c.go.error).toContain('ECDSA verification failure');
    expect(check(c, l, 'signature')?.status).toBe('fail');
    expect(findingIds(r)).toContain('SIGNATURE_INVALID');
  });

  it('through a CA:FALSE "intermediate": Go refuses it as a parent, the link says it may not sign', async () => {
    const r0 = await root();
    const notCa = await issue({ subject: 'CN=NotCA', issuer: r0, ca: false });
    const l = await leaf(notCa);
    const r = await paste(l, notCa, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toContain('parent certificate cannot sign this kind of certificate');
    expect(c.path.slice(0, 2)).toEqual([id(l), id(notCa)]);
    const may = check(c, l, 'issuer may sign')!;
    expect(may.status).toBe('fail');
    expect(may.detail).toContain('BasicConstraints CA:FALSE');
    expect(findingIds(r)).toContain('ISSUER_NOT_CA');
  });

  it('below a root with pathLen 0: too many intermediates', async () => {
    const r0 = await root({ pathLen: 0 });
    const i = await intermediate(r0, 'CN=Inter');
    const l = await leaf(i);
    const r = await paste(l, i, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toBe('x509: too many intermediates for path length constraint');
    expect(c.path).toEqual([id(l), id(i), id(r0)]);
    expect(check(c, l, 'path length')).toBeUndefined();
    expect(check(c, i, 'path length')?.status).toBe('fail');
    expect(findingIds(r)).toContain('PATHLEN_EXCEEDED');
    // Not an unknown authority: no finding about a missing or untrusted root.
    expect(findingIds(r)).not.toContain('CHAIN_INCOMPLETE');
    expect(findingIds(r)).not.toContain('CHAIN_ROOT_NOT_TRUSTED');
  });

  it('a root whose name constraints leave the leaf out: the root may not sign for that name', async () => {
    const r0 = await root({ nameConstraints: { permitted: [{ dns: 'example.com' }] } });
    const l = await leaf(r0, { san: [{ dns: 'leaf.other.org' }] });
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toContain('DNS name "leaf.other.org" is not permitted by any constraint');
    expect(check(c, l, 'name constraints')?.status).toBe('fail');
    expect(findingIds(r)).toContain('NAME_CONSTRAINT_VIOLATION');
  });

  it('a leaf expired at the inspection time: the link fails on validity', async () => {
    const r0 = await root();
    const l = await leaf(r0, { notBefore: new Date(NOW.getTime() - 20 * DAY), notAfter: new Date(NOW.getTime() - DAY) });
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(false);
    expect(c.go.error).toMatch(/^x509: certificate has expired or is not yet valid: current time .* is after /);
    const v = check(c, l, 'validity')!;
    expect(v.status).toBe('fail');
    expect(v.detail).toContain('the child is expired');
  });
});

describe('chains Go accepts with a remark', () => {
  it('AKI ≠ the issuer SKI: Go links by name and signature, the link warns', async () => {
    const r0 = await root();
    // A certificate named as the root's issuer but keyed otherwise: its SKI goes into the leaf's AKI.
    const other = await root({ keys: await keys() });
    const l = await leaf({ ...r0, x: other.x });
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(true);
    expect(c.path).toEqual([id(l), id(r0)]);
    expect(check(c, l, 'AKI/SKI')?.status).toBe('warn');
    expect(check(c, l, 'signature')?.status).toBe('ok');
    expect(r.findings.find((f) => f.id === 'AKI_SKI_MISMATCH')?.severity).toBe('warning');
  });

  it('an issuer that expires before its child, and a child valid from before its issuer: Go checks only the current time', async () => {
    const r0 = await root({ notBefore: new Date(NOW.getTime() - 10 * DAY), notAfter: new Date(NOW.getTime() + 10 * DAY) });
    const l = await leaf(r0, { notBefore: new Date(NOW.getTime() - 20 * DAY), notAfter: new Date(NOW.getTime() + 30 * DAY) });
    const r = await paste(l, r0);
    const c = chainOf(r, l);
    expect(c.go.ok).toBe(true);
    expect(check(c, l, 'validity')?.status).toBe('warn');
    expect(r.findings.find((f) => f.id === 'ISSUER_EXPIRES_BEFORE_CHILD')?.severity).toBe('warning');
    expect(r.findings.find((f) => f.id === 'CHILD_STARTS_BEFORE_ISSUER')?.severity).toBe('info');
  });
});
