// Our model of `openssl verify` (src/core/pki/openssl.ts, the note shown beside Go's verdict)
// against the real thing: each chain is verified by the openssl binary (OpenSSL 3.0, Debian's)
// at the same time, and the model must give its verdict: valid, or the first error it prints
// (code and depth). Expected values come from the binary, never from the model.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { opensslVerify } from '../../src/core/pki/openssl.ts';
import type { Certificate } from '../../src/core/pki/cert.ts';
import { DAY, issue, keys, KU, NOW, parse, resign, SIG_OIDS, signatures, type Issued } from './pkiBuilder.ts';
import { scratchDir } from '../helpers/scratch.ts';

const OPENSSL = process.env.OPENSSL ?? 'openssl';

function hasOpenssl(): boolean {
  return spawnSync(OPENSSL, ['version'], { encoding: 'utf8' }).status === 0;
}

interface Said {
  ok: boolean;
  code?: number;
  depth?: number;
}

const pem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${(
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  ).join('\n')}\n-----END CERTIFICATE-----\n`;

/** What `openssl verify -attime T -CAfile trusted -untrusted untrusted leaf` says: OK, or its first error. */
function opensslSays(leaf: Uint8Array, trusted: Uint8Array[], untrusted: Uint8Array[], at: Date): Said {
  const dir = scratchDir('mwb-openssl-');
  const file = (name: string, ders: Uint8Array[]) => {
    const p = join(dir, name);
    writeFileSync(p, ders.map(pem).join(''));
    return p;
  };
  const args = ['verify', '-attime', String(Math.floor(at.getTime() / 1000)), '-CAfile', file('trusted.pem', trusted)];
  if (untrusted.length > 0) args.push('-untrusted', file('untrusted.pem', untrusted));
  args.push(file('leaf.pem', [leaf]));
  const r = spawnSync(OPENSSL, args, { encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  const m = /error (\d+) at (\d+) depth lookup/.exec(out);
  if (r.status === 0 && /: OK$/m.test(out)) return { ok: true };
  if (!m) throw new Error(`openssl verify said neither OK nor an error:\n${out}`);
  return { ok: false, code: Number(m[1]), depth: Number(m[2]) };
}

async function modelSays(leaf: Certificate, trusted: Certificate[], untrusted: Certificate[], at: Date): Promise<Said> {
  const v = await opensslVerify(leaf, trusted, untrusted, at, signatures);
  return v.ok ? { ok: true } : { ok: false, code: v.error?.code, depth: v.error?.depth };
}

/** Both verdicts for a chain given as issued certificates. */
async function both(leaf: Issued, trusted: Issued[], untrusted: Issued[], at: Date = NOW): Promise<{ openssl: Said; model: Said }> {
  return {
    openssl: opensslSays(
      leaf.der,
      trusted.map((t) => t.der),
      untrusted.map((u) => u.der),
      at,
    ),
    model: await modelSays(
      leaf.cert,
      trusted.map((t) => t.cert),
      untrusted.map((u) => u.cert),
      at,
    ),
  };
}

const SECOND = 1000;

/** A certificate made directly with the generator: any issuer name, signed by any key. */
async function raw(o: { subject: string; issuerName: string; signer: Issued | { keys: Awaited<ReturnType<typeof keys>> }; ca?: boolean }): Promise<Issued> {
  const k = await keys('P-256');
  const x = await x509.X509CertificateGenerator.create({
    serialNumber: `7b${Math.floor(Math.random() * 1e12)
      .toString(16)
      .padStart(14, '0')}`,
    subject: o.subject,
    issuer: o.issuerName,
    notBefore: new Date(NOW.getTime() - DAY),
    notAfter: new Date(NOW.getTime() + DAY),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } as Algorithm,
    publicKey: k.publicKey,
    signingKey: o.signer.keys.privateKey,
    extensions: o.ca ? [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(KU.keyCertSign | KU.cRLSign, true)] : [],
  });
  const der = new Uint8Array(x.rawData);
  return { spec: { subject: o.subject }, x, der, keys: k, cert: await parse(der) };
}

describe.runIf(hasOpenssl())('the openssl verify model agrees with openssl verify', () => {
  it('accepts a good chain', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    const inter = await issue({ subject: 'CN=Inter', ca: true, issuer: root });
    const leaf = await issue({ subject: 'CN=leaf', issuer: inter });
    const r = await both(leaf, [root], [inter]);
    expect(r.openssl).toEqual({ ok: true });
    expect(r.model).toEqual(r.openssl);
  });

  it('judges validity at the second edges as OpenSSL does (NotAfter itself is expired)', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    for (const [notBefore, notAfter] of [
      [NOW, new Date(NOW.getTime() + DAY)],
      [new Date(NOW.getTime() + SECOND), new Date(NOW.getTime() + DAY)],
      [new Date(NOW.getTime() - DAY), NOW],
      [new Date(NOW.getTime() - DAY), new Date(NOW.getTime() + SECOND)],
      [new Date(NOW.getTime() - DAY), new Date(NOW.getTime() - SECOND)],
    ] as const) {
      const leaf = await issue({ subject: 'CN=leaf', issuer: root, notBefore, notAfter });
      const r = await both(leaf, [root], []);
      expect(r.model, `${notBefore.toISOString()}..${notAfter.toISOString()}`).toEqual(r.openssl);
    }
    // The same edges on an intermediate (depth 1).
    for (const [notBefore, notAfter] of [
      [new Date(NOW.getTime() + SECOND), new Date(NOW.getTime() + DAY)],
      [new Date(NOW.getTime() - DAY), NOW],
    ] as const) {
      const inter = await issue({ subject: 'CN=Inter', ca: true, issuer: root, notBefore, notAfter });
      const leaf = await issue({ subject: 'CN=leaf', issuer: inter });
      const r = await both(leaf, [root], [inter]);
      expect(r.openssl.ok).toBe(false);
      expect(r.model).toEqual(r.openssl);
    }
  });

  it('prefers the candidate issuer valid at the time, as OpenSSL does, with the NotAfter edge', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    const interKeys = await keys('P-256');
    const expired = await issue({
      subject: 'CN=Inter',
      ca: true,
      issuer: root,
      keys: interKeys,
      notBefore: new Date(NOW.getTime() - 10 * DAY),
      notAfter: NOW,
    });
    const notYet = await issue({ subject: 'CN=Inter', ca: true, issuer: root, keys: interKeys, notBefore: new Date(NOW.getTime() + SECOND) });
    const valid = await issue({ subject: 'CN=Inter', ca: true, issuer: root, keys: interKeys });
    const leaf = await issue({ subject: 'CN=leaf', issuer: valid });
    for (const untrusted of [
      [expired, valid],
      [valid, expired],
      [notYet, valid],
      [expired, notYet, valid],
    ]) {
      const r = await both(leaf, [root], untrusted);
      expect(r.openssl).toEqual({ ok: true });
      expect(r.model).toEqual(r.openssl);
    }
    // With no valid candidate the first one found is used, and its time is the error.
    const r = await both(leaf, [root], [expired]);
    expect(r.openssl.ok).toBe(false);
    expect(r.model).toEqual(r.openssl);
  });

  it('refuses an issuer that is not a CA, and one whose key usage lacks keyCertSign', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    for (const spec of [
      { ca: false, keyUsage: KU.keyCertSign },
      { ca: true, keyUsage: KU.digitalSignature },
      { ca: true, keyUsage: KU.digitalSignature | KU.keyCertSign },
      { ca: true, keyUsage: null },
      { ca: null, keyUsage: KU.keyCertSign },
    ]) {
      const inter = await issue({ subject: 'CN=Inter', issuer: root, ...spec });
      const leaf = await issue({ subject: 'CN=leaf', issuer: inter });
      const r = await both(leaf, [root], [inter]);
      expect(r.model, JSON.stringify(spec)).toEqual(r.openssl);
    }
  });

  it('names a self-signed certificate it does not trust, at the leaf or up the chain, and an issuer it cannot find', async () => {
    const other = await issue({ subject: 'CN=Other root', ca: true });
    const selfSigned = await issue({ subject: 'CN=self', ca: false });
    const root = await issue({ subject: 'CN=Root', ca: true });
    const inter = await issue({ subject: 'CN=Inter', ca: true, issuer: root });
    const leaf = await issue({ subject: 'CN=leaf', issuer: inter });
    for (const [l, untrusted] of [
      [selfSigned, []],
      [leaf, [inter, root]],
      [leaf, []],
      [leaf, [inter]],
    ] as const) {
      const r = await both(l, [other], [...untrusted]);
      expect(r.openssl.ok).toBe(false);
      expect(r.model).toEqual(r.openssl);
    }
  });

  it('checks each signature from the trust anchor down', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    const impostor = await issue({ subject: 'CN=Root', ca: true });
    // Named for the root, signed by another key, with no key identifier to tell them apart.
    const inter = await issue({ subject: 'CN=Inter', ca: true, issuer: impostor, noAki: true });
    const leaf = await issue({ subject: 'CN=leaf', issuer: inter });
    const r = await both(leaf, [root], [inter]);
    expect(r.openssl.ok).toBe(false);
    expect(r.model).toEqual(r.openssl);
  });

  it('takes a version 1 self-signed root as a CA, but not a version 1 intermediate', async () => {
    const rootKeys = await keys('RSA-2048', 'openssl-model-root');
    const v1 = (tbs: { version: number; extensions?: unknown }) => {
      tbs.version = 0;
      tbs.extensions = undefined;
    };
    const rootIssued = await issue({ subject: 'CN=V1 Root', ca: true, keys: rootKeys });
    const rootDer = await resign(rootIssued.der, rootKeys, SIG_OIDS.sha256WithRSA, 'sha256', v1);
    const root = { ...rootIssued, der: rootDer, cert: await parse(rootDer) };
    const interKeys = await keys('RSA-2048', 'openssl-model-inter');
    const interIssued = await issue({ subject: 'CN=V1 Inter', ca: true, issuer: root, keys: interKeys, noAki: true });
    const interDer = await resign(interIssued.der, rootKeys, SIG_OIDS.sha256WithRSA, 'sha256', v1);
    const inter = { ...interIssued, der: interDer, cert: await parse(interDer) };
    const leafUnderRoot = await issue({ subject: 'CN=leaf', issuer: root, noAki: true });
    const leafUnderInter = await issue({ subject: 'CN=leaf', issuer: inter, noAki: true });
    const a = await both(leafUnderRoot, [root], []);
    expect(a.openssl).toEqual({ ok: true });
    expect(a.model).toEqual(a.openssl);
    const b = await both(leafUnderInter, [root], [inter]);
    expect(b.openssl.ok).toBe(false);
    expect(b.model).toEqual(b.openssl);
  });

  it('matches issuer names as OpenSSL canonicalizes them (ASCII case and spaces only)', async () => {
    const root = await issue({ subject: 'CN=Root CA, O=Example', ca: true });
    for (const issuerName of [
      'CN=root ca, O=EXAMPLE',
      'CN=  Root   CA , O=Example',
      'CN=Root CA  , O=Example',
      'CN=Root\tCA, O=Example',
      'CN=Root\vCA, O=Example',
      'CN=\vRoot CA\v, O=Example',
      'CN=RootCA, O=Example',
      'CN=Root CA+O=Example',
    ]) {
      const leaf = await raw({ subject: 'CN=leaf', issuerName, signer: root });
      const r = await both(leaf, [root], []);
      expect(r.model, issuerName).toEqual(r.openssl);
    }
    // Case folding is ASCII's: OpenSSL leaves Ä and ä apart.
    const umlaut = await issue({ subject: 'CN=Ärzte CA', ca: true });
    const leaf = await raw({ subject: 'CN=leaf', issuerName: 'CN=ärzte ca', signer: umlaut });
    const r = await both(leaf, [umlaut], []);
    expect(r.openssl).toEqual({ ok: false, code: 20, depth: 0 });
    expect(r.model).toEqual(r.openssl);
  });

  it('keeps attribute and RDN boundaries apart when comparing names', async () => {
    // "CN=a+O=b" (one RDN of two values) and "CN=a, O=b" (two RDNs) are different names, as is a
    // single common name whose text spells the other's attributes.
    const split = await issue({ subject: 'CN=a, O=b', ca: true });
    const joined = await raw({ subject: 'CN=leaf', issuerName: 'CN=a+O=b', signer: split });
    const r1 = await both(joined, [split], []);
    expect(r1.model).toEqual(r1.openssl);
    const spelled = await issue({ subject: 'CN=a2.5.4.10=b', ca: true });
    for (const issuerName of ['CN=a+O=b', 'CN=a, O=b']) {
      const leaf = await raw({ subject: 'CN=leaf', issuerName, signer: spelled });
      const r = await both(leaf, [spelled], []);
      expect(r.openssl.ok, issuerName).toBe(false);
      expect(r.model, issuerName).toEqual(r.openssl);
    }
  });
});

/** Runs the openssl binary in `dir` (for certificates our builder cannot sign: RSASSA-PSS). */
function openssl(dir: string, ...args: string[]): void {
  const r = spawnSync(OPENSSL, args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

async function parsePemFile(path: string): Promise<Certificate> {
  const text = readFileSync(path, 'utf8');
  const b64 = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return parse(new Uint8Array(Buffer.from(b64, 'base64')));
}

describe.runIf(hasOpenssl())('the openssl verify model: the trust anchor and unknown algorithms', () => {
  it('requires the top of the chain to be a CA too (X509_check_ca): basicConstraints, a version 1 root, or a key usage with keyCertSign', async () => {
    for (const spec of [
      { ca: null, keyUsage: null },
      { ca: false, keyUsage: null },
      { ca: null, keyUsage: KU.keyCertSign },
      { ca: null, keyUsage: KU.digitalSignature },
    ]) {
      const root = await issue({ subject: 'CN=Anchor', ...spec });
      const leaf = await issue({ subject: 'CN=leaf', issuer: root });
      const r = await both(leaf, [root], []);
      expect(r.model, JSON.stringify(spec)).toEqual(r.openssl);
    }
  });

  it('finds no issuer for a signature algorithm OpenSSL does not know', async () => {
    const rootKeys = await keys('RSA-2048', 'openssl-model-root');
    const root = await issue({ subject: 'CN=Root', ca: true, keys: rootKeys });
    const leafIssued = await issue({ subject: 'CN=leaf', issuer: root });
    const der = await resign(leafIssued.der, rootKeys, '1.2.3.4.5.6', 'sha256');
    const leaf = { ...leafIssued, der, cert: await parse(der) };
    const r = await both(leaf, [root], []);
    expect(r.openssl.ok).toBe(false);
    expect(r.model).toEqual(r.openssl);
  });
});

describe.runIf(hasOpenssl())('the openssl verify model: issuer key and signature algorithm', () => {
  it('takes an RSA issuer for an RSASSA-PSS signature, and no issuer whose key type the signature cannot be made with', async () => {
    const dir = scratchDir('mwb-openssl-pss-');
    const ca = ['-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign'];
    openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rsa.key', '-out', 'rsa.pem', '-subj', '/CN=Shared Root', '-days', '30', ...ca);
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'ec.key',
      '-out',
      'ec.pem',
      '-subj',
      '/CN=Shared Root',
      '-days',
      '30',
      ...ca,
    );
    openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=leaf');
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'rsa.pem',
      '-CAkey',
      'rsa.key',
      '-set_serial',
      '1',
      '-out',
      'pss.pem',
      '-days',
      '5',
      '-sha256',
      '-sigopt',
      'rsa_padding_mode:pss',
    );
    // Named for the RSA root, signed by the EC root's key (ECDSA).
    openssl(dir, 'x509', '-req', '-in', 'leaf.csr', '-CA', 'ec.pem', '-CAkey', 'ec.key', '-set_serial', '2', '-out', 'ecdsa.pem', '-days', '5', '-sha256');
    const rsaRoot = await parsePemFile(join(dir, 'rsa.pem'));
    const now = new Date();
    for (const leafFile of ['pss.pem', 'ecdsa.pem']) {
      const leaf = await parsePemFile(join(dir, leafFile));
      const said = opensslSays(leaf.der, [rsaRoot.der], [], now);
      expect(await modelSays(leaf, [rsaRoot], [], now), leafFile).toEqual(said);
    }
    expect(opensslSays((await parsePemFile(join(dir, 'pss.pem'))).der, [rsaRoot.der], [], now)).toEqual({ ok: true });
    // An RSASSA-PSS signature under the EC root's name: no RSA key there to make it.
    const ecRoot = await parsePemFile(join(dir, 'ec.pem'));
    const pss = await parsePemFile(join(dir, 'pss.pem'));
    const said = opensslSays(pss.der, [ecRoot.der], [], now);
    expect(said.ok).toBe(false);
    expect(await modelSays(pss, [ecRoot], [], now)).toEqual(said);
  });
});

describe('the openssl binary for these tests', () => {
  it('is installed (Debian: apt-get install -y openssl), or this file tested nothing', () => {
    expect(hasOpenssl(), `no "${OPENSSL}" on PATH: install OpenSSL or set OPENSSL`).toBe(true);
  });
});
