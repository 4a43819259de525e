// Target `pki-verify`: our port of Go's crypto/x509 Certificate.Verify (src/core/pki/verify.ts)
// against a second implementation, `openssl verify` (OpenSSL 3.0, as Debian ships it).
//
// Inputs are certificate chains described as data (so the corpus is JSON): a root, 0–3
// intermediates and a leaf, each with its key (EC P-256/P-384 or RSA-2048, from a pool made
// once per process), signature hash (SHA-256/384/512, SHA-1), validity window around the
// verification time (edges to the second), basicConstraints (CA, not CA, absent), a
// pathLenConstraint (0, 1, 2, none), keyUsage on CAs (with or without keyCertSign, absent),
// extended key usages (serverAuth, clientAuth, anyExtendedKeyUsage, none), DNS name
// constraints (permitted/excluded, with and without the leading dot), a signature by the
// wrong key or a corrupted one, an issuer name that matches no certificate or names the
// grandparent; the leaf has DNS SANs (any case) and a common name that may look like a host
// name; a decoy may sit beside an intermediate (same name, another key or the same key long
// expired). Most inputs carry one kind of fault (`keepOnly`), some none, some a mix. Each chain
// is verified at one to three (time, usage) pairs by goVerify and by `openssl verify
// -x509_strict`, all pairs of one input in one shell spawn.
//
// Property: the same verdict (valid or not) for every pair; when both refuse and the chain
// has exactly one kind of fault (by its description), the same coarse reason class.
//
// Go and OpenSSL differ on purpose in places. Each difference is written down in
// GO_OPENSSL_DIFFERENCES below, with where each side says so, and handled in one of three
// ways: the chain OpenSSL sees is the Go-equivalent rewrite of the one goVerify sees (a
// translation that makes OpenSSL judge it by Go's rule), an openssl option makes it apply
// Go's rule, or the generator does not make that shape (and the list says so). Nothing is
// skipped after the fact.
//
// Without an openssl binary (OPENSSL, else `openssl` on PATH) the target is reported as
// skipped by the runner (`unavailable`), never as passed.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { parseCertificateDer, type Certificate } from '../../src/core/pki/cert.ts';
import { completeCertificate } from '../../src/core/pki/digest.ts';
import { SignatureChecker } from '../../src/core/pki/sig.ts';
import { CertPool, goVerify, type GoVerifyResult, type KeyUsageRequest } from '../../src/core/pki/verify.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

/**
 * The known differences between Go's crypto/x509 (1.26, /usr/local/go/src/crypto/x509) and
 * OpenSSL 3.0's verifier (crypto/x509/x509_vfy.c, v3_purp.c, v3_ncons.c), and what this target
 * does about each. `translate`: the chain given to OpenSSL is rewritten so that OpenSSL's rule
 * gives Go's answer. `avoided`: the generator never makes the shape. `option`: an openssl
 * option makes OpenSSL apply Go's rule. `same`: no difference, though it is easy to think there
 * is one; generated, and both must agree.
 */
export const GO_OPENSSL_DIFFERENCES = [
  {
    id: 'not-after-inclusive',
    how: 'translate',
    rule: 'At exactly NotAfter, Go says valid (isValid: now.After(c.NotAfter), verify.go:465, so the last second counts); OpenSSL 3.0 says expired (x509_check_cert_time: X509_cmp_time(notAfter, t) < 0, and X509_cmp_time "returns -1 if asn1_time is earlier than, or equal to, cmp_time", X509_cmp_time(3); seen with 3.0.19). Times are whole seconds, so OpenSSL gets every certificate with NotAfter + 1 s: t < NotAfter + 1 is t <= NotAfter.',
  },
  {
    id: 'sha1',
    how: 'option',
    rule: 'Go refuses SHA-1 signatures on certificates (checkSignature with allowSHA1 false from CheckSignatureFrom, x509.go:947, 999-1002) but never checks the root\'s own signature; OpenSSL at its default auth level accepts them (check_auth_level returns early for auth_level <= 0). openssl runs with -auth_level 2, which refuses a SHA-1 signature (80 bits < 112) on every certificate but the trust anchor (check_auth_level: "except those of the trust anchor at index num-1"); every key in the pool is at or above 112 bits, so the level refuses nothing else.',
  },
  {
    id: 'trust-anchor',
    how: 'option',
    rule: 'Go takes every certificate of the root pool as a trust anchor, whatever its own signature (buildChains ends a chain at any root candidate, verify.go:725-806); OpenSSL without X509_V_FLAG_PARTIAL_CHAIN only at a self-signed one, and "self-signed" (EXFLAG_SS, v3_purp.c ossl_x509v3_cache_extensions) needs matching names, an AKID that fits and a signature algorithm that fits its own key (check_sig_alg_match): a root signed with a key of the other type (found by this target, seed 1) is then "unable to get issuer certificate". openssl runs with -partial_chain, so the root in -CAfile is the anchor as in Go (it is the only certificate there).',
  },
  {
    id: 'any-eku',
    how: 'translate',
    rule: 'Go lets a certificate with anyExtendedKeyUsage through for every requested usage (checkChainForKeyUsage, verify.go:1003-1008); OpenSSL does not count it for sslserver/sslclient (v3_purp.c check_purpose_ssl_server/client: xku_reject(x, XKU_SSL_SERVER|XKU_SGC), and anyExtendedKeyUsage sets only XKU_ANYEKU). OpenSSL gets an EKU list holding anyExtendedKeyUsage as serverAuth + clientAuth, which admits both purposes tested.',
  },
  {
    id: 'cn-name-constraints',
    how: 'translate',
    rule: 'OpenSSL 3.0 checks DNS name constraints against the leaf\'s subject CN when the leaf has no DNS SAN and the CN looks like a host name (check_name_constraints -> NAME_CONSTRAINTS_check_CN); Go never reads the CN (checkChainConstraints, constraints.go, SANs only). OpenSSL gets the leaf with CN "Fuzz Leaf" (not a host name).',
  },
  {
    id: 'ca-without-key-usage',
    how: 'translate',
    rule: 'With -x509_strict OpenSSL refuses a CA:TRUE certificate without a keyUsage extension (check_extensions: X509_V_ERR_CA_CERT_MISSING_KEY_USAGE); Go lets it sign (CheckSignatureFrom only refuses KeyUsage != 0 without keyCertSign, x509.go:939-941). OpenSSL gets such a CA with keyUsage keyCertSign|cRLSign.',
  },
  {
    id: 'key-cert-sign',
    how: 'same',
    rule: 'Both refuse a CA whose keyUsage lacks keyCertSign: Go in CheckSignatureFrom (x509.go:939-941; isValid ignores KeyUsage, verify.go:479-494, but the signature check does not), OpenSSL in check_extensions (X509_check_ca -> check_ca: ku_reject(x, KU_KEY_CERT_SIGN)).',
  },
  {
    id: 'self-issued-intermediates',
    how: 'avoided',
    rule: 'OpenSSL does not count self-issued intermediates against pathLenConstraint (check_extensions: plen++ only without EXFLAG_SI) and skips them for name constraints; Go counts every intermediate (isValid: len(currentChain) - 1, verify.go:500-505). Every certificate here has its own subject name.',
  },
  {
    id: 'self-signed-leaf',
    how: 'avoided',
    rule: 'A leaf that is itself in the root pool verifies alone in Go (verify.go:597-598); OpenSSL treats a self-signed leaf and a trusted leaf by its own rules (build_chain, check_trust). The leaf here is never self-signed nor a root.',
  },
  {
    id: 'leaf-key-usage-purpose',
    how: 'avoided',
    rule: "OpenSSL's sslserver/sslclient purposes check the leaf's keyUsage (v3_purp.c: ku_reject(x, KU_TLS)) and Netscape cert types; Go ignores KeyUsage on the leaf. The leaf here always has keyUsage digitalSignature and no Netscape extension.",
  },
  {
    id: 'path-len-on-non-ca',
    how: 'avoided',
    rule: 'With -x509_strict OpenSSL refuses a pathLenConstraint on a CA:FALSE certificate (X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA); Go ignores it. pathLen is only generated with CA:TRUE.',
  },
  {
    id: 'wildcard-excluded',
    how: 'avoided',
    rule: 'Go counts a wildcard SAN as excluded when it could stand for an excluded host (dnsConstraints.query with trimFirstLabel, constraints.go); OpenSSL compares the SAN text as written (nc_dns). Leaf SANs here are never wildcards.',
  },
  {
    id: 'root-signature',
    how: 'same',
    rule: "Neither checks the root's own signature: Go never calls CheckSignatureFrom on a root for itself (buildChains checks a child against a candidate), OpenSSL only with X509_V_FLAG_CHECK_SS_SIGNATURE (internal_verify), which openssl verify does not set. A corrupted or wrong-key root self-signature is generated and must pass on both sides.",
  },
  {
    id: 'sgc',
    how: 'avoided',
    rule: 'OpenSSL takes Netscape/Microsoft SGC for serverAuth (XKU_SGC); Go 1.26 does not. Never generated.',
  },
] as const;

// ---- input description --------------------------------------------------------------------

type Hash = 'SHA-256' | 'SHA-384' | 'SHA-512' | 'SHA-1';
type Eku = 'serverAuth' | 'clientAuth' | 'any';
export type Usage = 'default' | 'serverAuth' | 'clientAuth' | 'any';

export interface CertShape {
  /** Index in the key pool. */
  key: number;
  hash: Hash;
  /** Validity window, seconds from T0. */
  notBefore: number;
  notAfter: number;
  bc: 'ca' | 'noca' | 'absent';
  pathLen: number | null;
  /** keyUsage: CAs `certsign` (keyCertSign|cRLSign), `nocertsign` (digitalSignature|cRLSign) or absent; leaves always digitalSignature. */
  ku: 'certsign' | 'nocertsign' | 'absent';
  eku: Eku[] | null;
  sig: 'good' | 'wrongKey' | 'corrupt';
  /** The certificate's issuer name: its parent's subject, a name no certificate has, or its grandparent's subject (it is still signed by its parent). */
  issuer: 'parent' | 'elsewhere' | 'grandparent';
  nc: { permitted: string[]; excluded: string[] } | null;
}

export interface PkiVerifyInput {
  /** Root first, then intermediates, the leaf last. */
  certs: CertShape[];
  leafCn: string;
  leafSans: string[];
  checks: Array<{ at: number; usage: Usage }>;
  /**
   * A second certificate with an intermediate's subject (intermediate `of` modulo their
   * number), signed by the same parent: with another key, or with the same key and expired
   * long ago; before or after the real one in the pool. A verifier must still find the real one.
   */
  decoy: { of: number; kind: 'otherKey' | 'expired'; first: boolean } | null;
}

const T0 = Date.parse('2026-06-01T00:00:00Z') / 1000;
const DAY = 86400;
const KEY_KINDS = ['P-256', 'P-256', 'P-256', 'P-384', 'RSA-2048', 'RSA-2048'] as const;
const DOMAINS = ['example.com', '.example.com', 'a.example.com', '.a.example.com', 'other.org', '.other.org', 'xample.com', '.xample.com'];
const SANS = ['example.com', 'a.example.com', 'b.a.example.com', 'A.Example.COM', 'x.other.org', 'other.org', 'badexample.com', 'xample.com'];

const hashArb: fc.Arbitrary<Hash> = fc.oneof(
  { arbitrary: fc.constant('SHA-256' as const), weight: 6 },
  { arbitrary: fc.constantFrom<Hash>('SHA-384', 'SHA-512'), weight: 3 },
  { arbitrary: fc.constant('SHA-1' as const), weight: 1 },
);
const notBeforeArb = fc.oneof({ arbitrary: fc.constant(-40 * DAY), weight: 8 }, { arbitrary: fc.constantFrom(-DAY, -1, 0, 1, DAY, 60 * DAY), weight: 3 });
const notAfterArb = fc.oneof({ arbitrary: fc.constant(40 * DAY), weight: 8 }, { arbitrary: fc.constantFrom(DAY, 1, 0, -1, -DAY, -60 * DAY), weight: 3 });
const ekuArb: fc.Arbitrary<Eku[] | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.subarray<Eku>(['serverAuth', 'clientAuth', 'any'], { minLength: 1 }), weight: 2 },
);
const ncArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 1 },
  {
    arbitrary: fc
      .record({ permitted: fc.subarray(DOMAINS, { maxLength: 2 }), excluded: fc.subarray(DOMAINS, { maxLength: 2 }) })
      .filter((n) => n.permitted.length + n.excluded.length > 0),
    weight: 1,
  },
);

function shapeArb(role: 'root' | 'intermediate' | 'leaf'): fc.Arbitrary<CertShape> {
  const ca = role !== 'leaf';
  return fc
    .record({
      key: fc.integer({ min: 0, max: KEY_KINDS.length - 1 }),
      hash: hashArb,
      notBefore: notBeforeArb,
      notAfter: notAfterArb,
      bc: ca
        ? fc.oneof({ arbitrary: fc.constant('ca' as const), weight: 10 }, { arbitrary: fc.constantFrom('noca' as const, 'absent' as const), weight: 1 })
        : fc.oneof({ arbitrary: fc.constant('noca' as const), weight: 6 }, { arbitrary: fc.constantFrom('absent' as const, 'ca' as const), weight: 2 }),
      pathLen: ca ? fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.constantFrom(0, 1, 2), weight: 2 }) : fc.constant(null),
      ku: ca
        ? fc.oneof(
            { arbitrary: fc.constant('certsign' as const), weight: 10 },
            { arbitrary: fc.constantFrom('nocertsign' as const, 'absent' as const), weight: 1 },
          )
        : fc.constant('certsign' as const),
      eku: ekuArb,
      sig: fc.oneof(
        { arbitrary: fc.constant('good' as const), weight: 14 },
        { arbitrary: fc.constantFrom('wrongKey' as const, 'corrupt' as const), weight: 1 },
      ),
      issuer:
        role === 'root'
          ? fc.constant('parent' as const)
          : fc.oneof(
              { arbitrary: fc.constant('parent' as const), weight: 20 },
              { arbitrary: fc.constantFrom('elsewhere' as const, 'grandparent' as const), weight: 1 },
            ),
      nc: ca ? ncArb : fc.constant(null),
    })
    .map((s) => (s.bc === 'ca' ? s : { ...s, pathLen: null }));
}

const usageArb = fc.constantFrom<Usage>('default', 'serverAuth', 'clientAuth', 'any');
const atArb = fc.oneof(
  { arbitrary: fc.constant(0), weight: 4 },
  { arbitrary: fc.constantFrom(-1, 1, -DAY, DAY, 40 * DAY, 40 * DAY + 1, -40 * DAY, -40 * DAY - 1, 50 * DAY), weight: 3 },
);

/** Which kind of fault an input may carry: one (so reason classes can be compared), none, or any mix. */
type Focus = 'none' | 'time' | 'chain' | 'ca' | 'pathlen' | 'usage' | 'names' | 'mixed';
const focusArb = fc.oneof(
  { arbitrary: fc.constantFrom<Focus>('none', 'time', 'chain', 'usage', 'names', 'mixed'), weight: 2 },
  { arbitrary: fc.constantFrom<Focus>('ca', 'pathlen'), weight: 1 },
);

/** The description with every kind of fault but `focus` taken out (by Go's rules). */
function keepOnly(focus: Focus, input: PkiVerifyInput): PkiVerifyInput {
  if (focus === 'mixed') return input;
  const n = input.certs.length;
  const certs = input.certs.map((s, i): CertShape => {
    const c = { ...s };
    const leaf = i === n - 1;
    if (focus !== 'time') [c.notBefore, c.notAfter] = [-40 * DAY, 40 * DAY];
    if (focus !== 'chain') [c.sig, c.issuer, c.hash] = ['good', 'parent', c.hash === 'SHA-1' ? 'SHA-256' : c.hash];
    if (focus !== 'ca' && !leaf) [c.bc, c.ku] = ['ca', c.ku === 'nocertsign' ? 'certsign' : c.ku];
    if (focus !== 'pathlen' && c.pathLen !== null && c.pathLen < n - 2 - i) c.pathLen = null;
    if (focus !== 'usage' && c.eku && !c.eku.includes('any') && !(c.eku.includes('serverAuth') && c.eku.includes('clientAuth'))) c.eku = null;
    if (focus !== 'names') c.nc = null;
    return c;
  });
  const checks = focus === 'time' ? input.checks : input.checks.map((c) => ({ ...c, at: Math.max(-DAY, Math.min(DAY, c.at)) }));
  return { ...input, certs, checks };
}

export const pkiVerifyArb: fc.Arbitrary<PkiVerifyInput> = fc
  .integer({ min: 0, max: 3 })
  .chain((n) =>
    fc.record({
      focus: focusArb,
      input: fc.record({
        certs: fc
          .tuple(shapeArb('root'), fc.array(shapeArb('intermediate'), { minLength: n, maxLength: n }), shapeArb('leaf'))
          .map(([r, i, l]) => [r, ...i, l]),
        leafCn: fc.constantFrom('leaf', 'Fuzz Leaf', 'host.example.com', 'host.evil.net'),
        leafSans: fc.subarray(SANS, { maxLength: 2 }),
        checks: fc.array(fc.record({ at: atArb, usage: usageArb }), { minLength: 1, maxLength: 3 }),
        decoy: fc.oneof(
          { arbitrary: fc.constant(null), weight: 3 },
          { arbitrary: fc.record({ of: fc.nat(5), kind: fc.constantFrom('otherKey' as const, 'expired' as const), first: fc.boolean() }), weight: 1 },
        ),
      }),
    }),
  )
  .map(({ focus, input }) => keepOnly(focus, input));

// ---- keys and certificates ----------------------------------------------------------------

const subtle = globalThis.crypto.subtle;

interface PoolKey {
  kind: (typeof KEY_KINDS)[number];
  publicKey: CryptoKey;
  pkcs8: ArrayBuffer;
  signing: Map<Hash, CryptoKey>;
}

let pool: Promise<PoolKey[]> | undefined;

/** The key pool, made once per process (RSA generation is slow). */
function keyPool(): Promise<PoolKey[]> {
  pool ??= Promise.all(
    KEY_KINDS.map(async (kind) => {
      const alg = kind.startsWith('RSA')
        ? { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
        : { name: 'ECDSA', namedCurve: kind };
      const kp = (await subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
      return { kind, publicKey: kp.publicKey, pkcs8: await subtle.exportKey('pkcs8', kp.privateKey), signing: new Map() };
    }),
  );
  return pool;
}

/** The private key for one hash (a WebCrypto RSA key signs with the hash it was imported for). */
async function signingKey(k: PoolKey, hash: Hash): Promise<CryptoKey> {
  let key = k.signing.get(hash);
  if (!key) {
    const alg = k.kind.startsWith('RSA') ? { name: 'RSASSA-PKCS1-v1_5', hash } : { name: 'ECDSA', namedCurve: k.kind };
    key = await subtle.importKey('pkcs8', k.pkcs8, alg, false, ['sign']);
    k.signing.set(hash, key);
  }
  return key;
}

const EKU_OID: Record<Exclude<Eku, 'any'>, string> = { serverAuth: '1.3.6.1.5.5.7.3.1', clientAuth: '1.3.6.1.5.5.7.3.2' };
const ANY_EKU = '2.5.29.37.0';

const subjectOf = (i: number, n: number, leafCn: string) => (i === 0 ? 'CN=Fuzz Root' : i === n - 1 ? `CN=${leafCn}` : `CN=Fuzz Intermediate ${i}`);

let serial = 0;

/** The decoy's shape: intermediate `of`'s, with another key, or the same key and a window long past. */
function decoyShape(input: PkiVerifyInput): { index: number; shape: CertShape } | undefined {
  const d = input.decoy;
  const n = input.certs.length;
  if (!d || n < 3) return undefined;
  const index = 1 + (d.of % (n - 2));
  const real = input.certs[index]!;
  const shape: CertShape =
    d.kind === 'otherKey'
      ? { ...real, key: (real.key + 2) % KEY_KINDS.length, sig: 'good', issuer: 'parent' }
      : { ...real, notBefore: -90 * DAY, notAfter: -55 * DAY, sig: 'good', issuer: 'parent' };
  return { index, shape };
}

export interface BuiltChain {
  /** Root first, the leaf last. */
  chain: Uint8Array[];
  /** Extra intermediates (a decoy), and whether they come before the real ones in the pool. */
  extra: Uint8Array[];
  extraFirst: boolean;
}

/**
 * The chain's DER. `forOpenssl`: the Go-equivalent rewrite OpenSSL is given
 * (GO_OPENSSL_DIFFERENCES, `translate`).
 */
export async function buildChain(input: PkiVerifyInput, forOpenssl: boolean): Promise<BuiltChain> {
  const n = input.certs.length;
  const chain: Uint8Array[] = [];
  for (let i = 0; i < n; i++) chain.push(await buildOne(input, i, input.certs[i]!, forOpenssl));
  const decoy = decoyShape(input);
  const extra = decoy ? [await buildOne(input, decoy.index, decoy.shape, forOpenssl)] : [];
  return { chain, extra, extraFirst: input.decoy?.first ?? false };
}

async function buildOne(input: PkiVerifyInput, i: number, s: CertShape, forOpenssl: boolean): Promise<Uint8Array> {
  const keys = await keyPool();
  const n = input.certs.length;
  {
    const leaf = i === n - 1;
    const own = keys[s.key % keys.length]!;
    const parent = i === 0 ? own : keys[input.certs[i - 1]!.key % keys.length]!;
    const signer = s.sig === 'wrongKey' ? keys[(keys.indexOf(parent) + 1) % keys.length]! : parent;
    const subject = subjectOf(i, n, forOpenssl && leaf ? 'Fuzz Leaf' : input.leafCn);
    const issuer =
      i === 0
        ? subject
        : s.issuer === 'elsewhere' || (s.issuer === 'grandparent' && i < 2)
          ? 'CN=Fuzz Elsewhere'
          : subjectOf(s.issuer === 'grandparent' ? i - 2 : i - 1, n, input.leafCn);
    const ext: x509.Extension[] = [];
    if (s.bc !== 'absent') ext.push(new x509.BasicConstraintsExtension(s.bc === 'ca', s.pathLen ?? undefined, true));
    let ku: number | null = leaf
      ? x509.KeyUsageFlags.digitalSignature
      : s.ku === 'certsign'
        ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
        : s.ku === 'nocertsign'
          ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.cRLSign
          : null;
    if (ku === null && forOpenssl && s.bc === 'ca') ku = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
    if (ku !== null) ext.push(new x509.KeyUsagesExtension(ku, true));
    if (s.eku) {
      const any = s.eku.includes('any');
      const oids = forOpenssl && any ? [EKU_OID.serverAuth, EKU_OID.clientAuth] : s.eku.map((e) => (e === 'any' ? ANY_EKU : EKU_OID[e]));
      ext.push(new x509.ExtendedKeyUsageExtension(oids, false));
    }
    ext.push(await x509.SubjectKeyIdentifierExtension.create(own.publicKey));
    if (i > 0) ext.push(await x509.AuthorityKeyIdentifierExtension.create(parent.publicKey));
    if (leaf && input.leafSans.length > 0) {
      const san = new asnX509.SubjectAlternativeName(input.leafSans.map((d) => new asnX509.GeneralName({ dNSName: d })));
      ext.push(new x509.Extension('2.5.29.17', false, asn1.AsnConvert.serialize(san)));
    }
    if (s.nc) {
      const subtrees = (list: string[]) =>
        list.length ? new asnX509.GeneralSubtrees(list.map((d) => new asnX509.GeneralSubtree({ base: new asnX509.GeneralName({ dNSName: d }) }))) : undefined;
      const nc = new asnX509.NameConstraints({ permittedSubtrees: subtrees(s.nc.permitted), excludedSubtrees: subtrees(s.nc.excluded) });
      ext.push(new x509.Extension('2.5.29.30', true, asn1.AsnConvert.serialize(nc)));
    }
    const notAfter = T0 + s.notAfter + (forOpenssl ? 1 : 0);
    const hashAlg = signer.kind.startsWith('RSA') ? { name: 'RSASSA-PKCS1-v1_5', hash: s.hash } : { name: 'ECDSA', hash: s.hash };
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: `1${(++serial).toString(16).padStart(15, '0')}`,
      subject,
      issuer,
      notBefore: new Date((T0 + s.notBefore) * 1000),
      notAfter: new Date(notAfter * 1000),
      signingAlgorithm: hashAlg,
      publicKey: own.publicKey,
      signingKey: await signingKey(signer, s.hash),
      extensions: ext,
    });
    const der = new Uint8Array(cert.rawData);
    if (s.sig === 'corrupt') der[der.length - 1]! ^= 0x01;
    return der;
  }
}

// ---- the two verifiers ----------------------------------------------------------------------

const signatures = new SignatureChecker();

async function ours(built: BuiltChain, at: number, usage: Usage): Promise<GoVerifyResult> {
  const parse = async (ders: Uint8Array[]) => Promise.all(ders.map((d) => completeCertificate(parseCertificateDer(d), signatures)));
  const certs: Certificate[] = await parse(built.chain);
  const extra = await parse(built.extra);
  const keyUsages: KeyUsageRequest[] = usage === 'default' ? [] : [usage];
  const inters = certs.slice(1, -1);
  return goVerify(certs[certs.length - 1]!, {
    roots: new CertPool([certs[0]!]),
    intermediates: new CertPool(built.extraFirst ? [...extra, ...inters] : [...inters, ...extra]),
    now: new Date((T0 + at) * 1000),
    keyUsages,
    signatures,
  });
}

const OPENSSL = process.env.OPENSSL ?? 'openssl';
let opensslVersion: string | null | undefined;

/** Why the target cannot run here (no openssl), or undefined. */
export function opensslUnavailable(): string | undefined {
  if (opensslVersion === undefined) {
    const r = spawnSync(OPENSSL, ['version'], { encoding: 'utf8' });
    opensslVersion = r.status === 0 ? r.stdout.trim() : null;
  }
  return opensslVersion === null ? `no openssl binary (${OPENSSL}; set OPENSSL to its path): the Go/OpenSSL comparison cannot run` : undefined;
}

let workDir: string | undefined;

function dir(): string {
  if (!workDir) {
    workDir = mkdtempSync(join(tmpdir(), 'pki-verify-'));
    const d = workDir;
    process.once('exit', () => rmSync(d, { recursive: true, force: true }));
  }
  return workDir;
}

const pem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;

export interface OpensslVerdict {
  ok: boolean;
  /**
   * Every X509_V_ERR_* number reported, with its depth: openssl verify's callback goes on
   * after some errors (apps/verify.c cb: expired, invalid CA, path length, strict-conformance
   * errors…), so one run can name several.
   */
  errors: Array<{ code: number; depth: number }>;
  output: string;
}

const PURPOSE: Record<Usage, string | undefined> = { default: 'sslserver', serverAuth: 'sslserver', clientAuth: 'sslclient', any: undefined };

/** `openssl verify` of the chain at every check, in one shell spawn. */
function opensslVerify(built: BuiltChain, checks: PkiVerifyInput['checks']): OpensslVerdict[] {
  const d = dir();
  const ders = built.chain;
  writeFileSync(join(d, 'root.pem'), pem(ders[0]!));
  const inters = built.extraFirst ? [...built.extra, ...ders.slice(1, -1)] : [...ders.slice(1, -1), ...built.extra];
  writeFileSync(join(d, 'inters.pem'), inters.map(pem).join(''));
  writeFileSync(join(d, 'leaf.pem'), pem(ders[ders.length - 1]!));
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = checks
    .map((c) => {
      const purpose = PURPOSE[c.usage];
      const args = [
        'verify',
        '-x509_strict',
        '-auth_level',
        '2',
        '-partial_chain',
        '-attime',
        String(T0 + c.at),
        '-CAfile',
        'root.pem',
        ...(inters.length ? ['-untrusted', 'inters.pem'] : []),
        ...(purpose ? ['-purpose', purpose] : []),
        'leaf.pem',
      ];
      return `${q(OPENSSL)} ${args.join(' ')} 2>&1; echo "@@rc=$?"`;
    })
    .join('\n');
  const r = spawnSync('sh', ['-c', script], { cwd: d, encoding: 'utf8' });
  if (r.error) throw new Error(`openssl could not be run: ${r.error.message}`);
  const parts = r.stdout.split(/@@rc=(\d+)\n/);
  const out: OpensslVerdict[] = [];
  for (let i = 0; i < checks.length; i++) {
    const output = (parts[2 * i] ?? '').trim();
    const rc = Number(parts[2 * i + 1]);
    const errors = [...output.matchAll(/error (\d+) at (\d+) depth lookup/g)].map((m) => ({ code: Number(m[1]), depth: Number(m[2]) }));
    out.push({ ok: rc === 0 && errors.length === 0 && /: OK$/m.test(output), errors, output });
  }
  return out;
}

// ---- the oracle -------------------------------------------------------------------------

export type ReasonClass = 'time' | 'chain' | 'ca' | 'pathlen' | 'usage' | 'names' | 'other';

/** OpenSSL's X509_V_ERR_* numbers (include/openssl/x509_vfy.h) by reason class. */
const OPENSSL_CLASS: Record<number, ReasonClass> = {
  2: 'chain', // UNABLE_TO_GET_ISSUER_CERT
  7: 'chain', // CERT_SIGNATURE_FAILURE
  20: 'chain', // UNABLE_TO_GET_ISSUER_CERT_LOCALLY
  21: 'chain', // UNABLE_TO_VERIFY_LEAF_SIGNATURE
  24: 'chain', // NO_ISSUER_PUBLIC_KEY
  68: 'chain', // CA_MD_TOO_WEAK (SHA-1 at -auth_level 2)
  77: 'chain', // SIGNATURE_ALGORITHM_MISMATCH
  9: 'time', // CERT_NOT_YET_VALID
  10: 'time', // CERT_HAS_EXPIRED
  32: 'ca', // KEYUSAGE_NO_CERTSIGN
  37: 'ca', // INVALID_NON_CA
  79: 'ca', // INVALID_CA
  80: 'ca', // PATHLEN_INVALID_FOR_NON_CA
  81: 'ca', // PATHLEN_WITHOUT_KU_KEY_CERT_SIGN
  82: 'ca', // KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA
  92: 'ca', // CA_CERT_MISSING_KEY_USAGE
  25: 'pathlen', // PATH_LENGTH_EXCEEDED
  26: 'usage', // INVALID_PURPOSE
  47: 'names', // PERMITTED_VIOLATION
  48: 'names', // EXCLUDED_VIOLATION
};

/** The reason classes of every error openssl reported (numbers: /usr/include/openssl/x509_vfy.h). */
export function opensslClasses(v: OpensslVerdict): Set<ReasonClass> {
  return new Set(v.errors.map((e) => OPENSSL_CLASS[e.code] ?? 'other'));
}

export function goClass(error: string): ReasonClass {
  if (error.includes('expired or is not yet valid')) return 'time';
  if (error.includes('too many intermediates')) return 'pathlen';
  if (error.includes('not authorized to sign other certificates') || error.includes('parent certificate cannot sign')) return 'ca';
  if (error.includes('incompatible key usage')) return 'usage';
  if (error.includes('not authorized to sign for this name')) return 'names';
  if (error.includes('unknown authority')) return 'chain';
  return 'other';
}

/**
 * The kinds of fault the description puts in the chain for one check (by Go's rules, read
 * off the description, not from either verifier). Reason classes are compared only when
 * there is exactly one: with two, each verifier may name the one it meets first.
 */
export function faultKinds(input: PkiVerifyInput, check: { at: number; usage: Usage }): Set<ReasonClass> {
  const kinds = new Set<ReasonClass>();
  const n = input.certs.length;
  input.certs.forEach((s, i) => {
    const leaf = i === n - 1;
    if (check.at < s.notBefore || check.at > s.notAfter) kinds.add('time');
    if (i > 0 && (s.sig !== 'good' || s.issuer !== 'parent' || s.hash === 'SHA-1')) kinds.add('chain');
    if (!leaf && (s.bc !== 'ca' || s.ku === 'nocertsign')) kinds.add('ca');
    // Intermediates below certificate i: n - 2 - i (the leaf is not one).
    if (!leaf && s.pathLen !== null && s.pathLen < n - 2 - i) kinds.add('pathlen');
    const want = check.usage === 'default' ? 'serverAuth' : check.usage;
    if (want !== 'any' && s.eku && !s.eku.includes('any') && !s.eku.includes(want)) kinds.add('usage');
    if (s.nc && input.leafSans.length > 0) kinds.add('names');
  });
  // A decoy that fails can give its own reason when the real certificate fails too.
  const decoy = decoyShape(input);
  if (decoy) kinds.add(input.decoy!.kind === 'expired' ? 'time' : 'chain');
  return kinds;
}

function describe(input: PkiVerifyInput): string {
  return (
    input.certs
      .map((s, i) => {
        const role = i === 0 ? 'root' : i === input.certs.length - 1 ? 'leaf' : `int${i}`;
        const bits = [
          `${KEY_KINDS[s.key % KEY_KINDS.length]}/${s.hash}`,
          `[${s.notBefore},${s.notAfter}]`,
          `bc=${s.bc}${s.pathLen !== null ? `/${s.pathLen}` : ''}`,
        ];
        if (role !== 'leaf') bits.push(`ku=${s.ku}`);
        if (s.eku) bits.push(`eku=${s.eku.join('+')}`);
        if (s.sig !== 'good') bits.push(`sig=${s.sig}`);
        if (s.issuer !== 'parent') bits.push(`issuer=${s.issuer}`);
        if (s.nc) bits.push(`nc=+${s.nc.permitted.join('|')}-${s.nc.excluded.join('|')}`);
        return `${role}(${bits.join(' ')})`;
      })
      .join(' > ') +
    ` cn=${input.leafCn} san=${input.leafSans.join(',')}${input.decoy ? ` decoy=${input.decoy.kind}@${input.decoy.of}${input.decoy.first ? ' first' : ''}` : ''}`
  );
}

/** What the checks of this process compared (for the docs and a look at the generator's spread). */
export const pkiVerifyStats = { checks: 0, bothValid: 0, bothInvalid: 0, classCompared: 0, classes: {} as Record<string, number> };

export async function checkPkiVerify(input: PkiVerifyInput, options: CheckOptions): Promise<CheckOutcome> {
  if (opensslUnavailable()) return 'skipped';
  let goDers: BuiltChain;
  let sslDers: BuiltChain;
  try {
    goDers = await buildChain(input, false);
    sslDers = await buildChain(input, true);
  } catch (e) {
    // The generator's own failure, not the verifier's: say so plainly.
    throw new FuzzFailure('crash', `building the chain threw ${describeError(e)} (generator bug)`);
  }
  const ssl = opensslVerify(sslDers, input.checks);
  for (let i = 0; i < input.checks.length; i++) {
    const check = input.checks[i]!;
    const t0 = performance.now();
    let go: GoVerifyResult;
    try {
      go = await ours(goDers, check.at, check.usage);
    } catch (e) {
      throw new FuzzFailure('crash', `goVerify threw ${describeError(e)}`);
    }
    const ms = performance.now() - t0;
    if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `goVerify took ${ms.toFixed(0)} ms`);
    const o = ssl[i]!;
    const where = `at T0${check.at >= 0 ? '+' : ''}${check.at}s usage=${check.usage}: ${describe(input)}`;
    if (go.ok !== o.ok)
      throw new FuzzFailure(
        'divergence',
        `ours says ${go.ok ? 'valid' : `invalid (${go.error})`}, openssl says ${o.ok ? 'valid' : `invalid (${o.output.replace(/\s+/g, ' ')})`} ${where}`,
      );
    pkiVerifyStats.checks++;
    if (go.ok) pkiVerifyStats.bothValid++;
    else pkiVerifyStats.bothInvalid++;
    if (!go.ok && faultKinds(input, check).size === 1) {
      const a = goClass(go.error!);
      pkiVerifyStats.classCompared++;
      pkiVerifyStats.classes[a] = (pkiVerifyStats.classes[a] ?? 0) + 1;
      const b = opensslClasses(o);
      if (!b.has(a))
        throw new FuzzFailure(
          'divergence',
          `both refuse, for different reasons: ours ${a} (${go.error}), openssl ${[...b].join('+')} (${o.output.replace(/\s+/g, ' ')}) ${where}`,
        );
    }
  }
  return 'ok';
}

export const pkiVerifyTarget: Target<PkiVerifyInput> = {
  name: 'pki-verify',
  description:
    'Go Verify port vs openssl verify on generated chains (validity edges, CA flags, pathLen, key usages, EKU nesting, name constraints, bad signatures, SHA-1): same verdict and reason class, modulo the written Go/OpenSSL differences',
  arbitrary: () => pkiVerifyArb,
  check: checkPkiVerify,
  async: true,
  smokeRuns: 120,
  unavailable: opensslUnavailable,
  report: () => {
    const st = pkiVerifyStats;
    const classes = Object.entries(st.classes)
      .sort((a, b) => b[1] - a[1])
      .map(([c, k]) => `${c} ${k.toLocaleString('en-US')}`)
      .join(', ');
    return {
      lines: [
        `${st.checks.toLocaleString('en-US')} (time, usage) checks compared with openssl: ${st.bothValid.toLocaleString('en-US')} valid on both sides, ${st.bothInvalid.toLocaleString('en-US')} refused by both; reason compared on ${st.classCompared.toLocaleString('en-US')} (${classes || 'none'})`,
      ],
      ...(st.checks === 0 ? { failure: 'no check was compared with openssl' } : {}),
    };
  },
};
