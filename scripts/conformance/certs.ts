// The certificate suite: every fact of ../shared/conformance/certs/expected.json checked
// against our inspection at the pinned reference time. One case per file entry
// (`certs/<file>`), per chain check (`certs/<check id>`), per derived file
// (`certs/derived/<path>`), per key match (`certs/keyMatches/<key file>`) and per
// root-bundle entry (`certs/istioRootBundleParsing/<file>`).
//
// Signature checks go through WebCrypto, which is asynchronous, and the conformance runner
// is synchronous: `run` therefore runs this module in a child Node process (`--child`) and
// reads its results from stdout.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CaseResult } from './types.ts';
import { inspect, type CertsReport, type CertView } from '../../src/core/pki/index.ts';
import { PkiContext, keyCertBundleVerify, parseRootCerts, pluggedCaLoad, workloadVerify } from '../../src/core/pki/istio.ts';
import { SignatureChecker } from '../../src/core/pki/sig.ts';
import { CertPool, goVerify } from '../../src/core/pki/verify.ts';
import { opensslVerify } from '../../src/core/pki/openssl.ts';
import { concatBytes } from '../../src/core/pki/bytes.ts';
import { scanPem } from '../../src/core/pki/pem.ts';
import { completeCertificate } from '../../src/core/pki/digest.ts';
import type { Certificate } from '../../src/core/pki/cert.ts';

type Json = Record<string, unknown>;

interface Expected {
  meta: { referenceTime: string };
  files: Record<string, Json>;
  keyMatches: Array<{ key: string; spkiSha256: string; certificateFiles: string[] }>;
  chainChecks: Json[];
  istioRootBundleParsing: Array<{ file: string; istioValidCerts: number }>;
  derived: Record<string, Json>;
}

/** Cases the corpus under `root` holds (what the part counts). */
export function certCaseCount(root: string): number {
  const p = join(root, 'certs', 'expected.json');
  if (!existsSync(p)) return 0;
  const e = JSON.parse(readFileSync(p, 'utf8')) as Partial<Expected>;
  return (
    Object.keys(e.files ?? {}).length +
    (e.chainChecks?.length ?? 0) +
    Object.keys(e.derived ?? {}).length +
    (e.keyMatches?.length ?? 0) +
    (e.istioRootBundleParsing?.length ?? 0)
  );
}

/** A deterministic rendering for comparisons (object keys sorted). */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((v as Json)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

class Case {
  readonly missing: string[] = [];
  readonly extra: string[] = [];
  constructor(readonly id: string) {}

  eq(what: string, got: unknown, want: unknown): void {
    if (canon(got) !== canon(want)) {
      this.missing.push(`${what}: ${canon(want)}`);
      this.extra.push(`${what}: ${canon(got)}`);
    }
  }

  /** Equal as sets (order not significant). */
  set(what: string, got: readonly string[], want: readonly string[]): void {
    const g = [...new Set(got)].sort();
    const w = [...new Set(want)].sort();
    for (const x of w) if (!g.includes(x)) this.missing.push(`${what}: ${x}`);
    for (const x of g) if (!w.includes(x)) this.extra.push(`${what}: ${x}`);
  }

  result(analyzer: string, error?: string): CaseResult {
    return {
      suite: 'certs',
      id: this.id,
      analyzer,
      passed: this.missing.length === 0 && this.extra.length === 0 && !error,
      missing: this.missing,
      extra: this.extra,
      ...(error ? { error } : {}),
    };
  }
}

const CERT_FIELDS = [
  'subject',
  'subjectRFC2253',
  'issuer',
  'issuerRFC2253',
  'subjectEmpty',
  'selfIssued',
  'version',
  'serialHex',
  'serialNegative',
  'serialDerOctets',
  'serialIstioctl',
  'notBefore',
  'notAfter',
  'notBeforeEncoding',
  'notAfterEncoding',
  'validitySeconds',
  'signatureAlgorithm',
  'sha256Fingerprint',
  'sha256FingerprintHex',
  'sha1Fingerprint',
  'basicConstraints',
  'isCA',
  'pathLen',
  'keyUsage',
  'extKeyUsage',
  'subjectAltName',
  'spiffe',
  'subjectKeyIdentifier',
  'authorityKeyIdentifier',
  'nameConstraints',
  'extensionsPresent',
  'subjectCommonName',
  'timeEncodingRfc5280',
  'goParseExpectation',
  'selfSigned',
] as const;

interface Corpus {
  root: string;
  now: Date;
  expected: Expected;
  report: CertsReport;
  /** sha256 → files (corpus paths) holding that certificate. */
  filesOf: Map<string, string[]>;
  cert: Map<string, CertView>;
}

function fileFacts(c: Corpus, file: string, e: Json): CaseResult {
  const k = new Case(`certs/${file}`);
  const bytes = readFileSync(join(c.root, file));
  const text = new TextDecoder().decode(bytes);
  const scan = scanPem(text);
  const r = c.report;
  // PEM blocks as a lenient reader lists them.
  const blocks = scan.blocks.map((b) => {
    const out: Json = { index: b.index, type: b.type, base64Strict: b.base64Strict };
    if (b.endTypeMismatch !== undefined) out.endTypeMismatch = b.endTypeMismatch;
    return out;
  });
  const wantBlocks = (e.pemBlocks as Json[]).map((b) => {
    const out: Json = { index: b.index, type: b.type, base64Strict: b.base64Strict };
    if (b.endTypeMismatch !== undefined) out.endTypeMismatch = b.endTypeMismatch;
    return out;
  });
  k.eq('pemBlocks', blocks, wantBlocks);
  k.eq('beginMarkers', scan.blocks.length, e.beginMarkers);
  k.eq('textOutsidePemBlocks', scan.textOutside, e.textOutsidePemBlocks);
  // Per-block parse status: ok when the block yielded its artefact, not-a-known-type for other labels.
  const certsHere = r.certificates.flatMap((cv) => cv.occurrences.filter((o) => o.input === file).map((o) => ({ cv, block: o.block })));
  const keysHere = r.keys.filter((kv) => kv.origin.input === file);
  const crlsHere = r.crls.filter((cv) => cv.origin.input === file);
  const known = new Set(['CERTIFICATE', 'X509 CRL', 'PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);
  const status = scan.blocks.map((b) => {
    if (!known.has(b.type)) return 'not-a-known-type';
    const found =
      certsHere.some((x) => x.block === b.index) ||
      keysHere.some((x) => x.origin.block === b.index && x.publicKey) ||
      crlsHere.some((x) => x.origin.block === b.index);
    return found ? 'ok' : 'error';
  });
  k.eq(
    'pemBlocks[].parse',
    status,
    (e.pemBlocks as Json[]).map((b) => b.parse),
  );
  for (const [i, b] of (e.pemBlocks as Json[]).entries()) {
    if (b.error === 'base64 decode failed (strict)' && scan.blocks[i]?.base64Strict !== false) k.eq(`pemBlocks[${i}].error`, 'base64 ok', b.error);
  }
  const kind = (() => {
    if (bytes.length === 0 || scan.blocks.length === 0) return 'empty';
    if (status.some((s) => s !== 'ok'))
      return keysHere.length === 0 && scan.blocks.every((b) => b.type.endsWith('PRIVATE KEY')) ? 'invalid-private-key' : 'partially-invalid';
    if (certsHere.length === 1 && scan.blocks.length === 1) return 'certificate';
    if (certsHere.length > 1) return 'certificate-bundle';
    if (keysHere.length > 0 && certsHere.length === 0) return 'private-key';
    if (crlsHere.length === 1) return 'crl';
    if (crlsHere.length > 1) return 'crl-bundle';
    return 'unknown';
  })();
  k.eq('kind', kind, e.kind);
  // Certificates.
  const wantCerts = e.certificates as Json[];
  const ordered = [...certsHere].sort((a, b) => (a.block ?? 0) - (b.block ?? 0));
  k.eq('certificates.length', ordered.length, wantCerts.length);
  for (const [i, w] of wantCerts.entries()) {
    const got = ordered[i];
    if (!got) continue;
    const f = got.cv.facts as unknown as Json;
    const where = `certificates[${i}]`;
    k.eq(`${where}.index`, got.block, w.index);
    for (const field of CERT_FIELDS) k.eq(`${where}.${field}`, f[field], w[field]);
    const pk = got.cv.facts.publicKey;
    const gotPk: Json = { type: pk.type, bits: pk.bits, spkiSha256: pk.spkiSha256 };
    if (pk.exponent !== undefined) gotPk.exponent = pk.exponent;
    if (pk.curve !== undefined) gotPk.curve = pk.curve;
    if (pk.curveOid !== undefined) gotPk.curveOid = pk.curveOid;
    k.eq(`${where}.publicKey`, gotPk, w.publicKey);
    // The corpus rounds days to three decimals.
    k.eq(`${where}.validityDays`, Math.round((got.cv.facts.validitySeconds / 86400) * 1000) / 1000, w.validityDays);
    const valid = c.now >= new Date(got.cv.facts.notBefore) && c.now <= new Date(got.cv.facts.notAfter);
    k.eq(`${where}.validAtReferenceTime`, valid, w.validAtReferenceTime);
    // Issuers in the corpus (signature verified), the path up and its root.
    const issuedBy = got.cv.issuers.filter((x) => x.signature === 'verified').map((x) => ({ sha256: x.id, files: c.filesOf.get(x.id) ?? [] }));
    k.eq(`${where}.issuedBy`, sortBy(issuedBy), sortBy(w.issuedBy as Json[]));
    const path = pathToRoot(c, got.cv);
    k.eq(`${where}.pathToRoot`, path, w.pathToRoot);
    const top = path.length > 0 ? c.cert.get(path[path.length - 1]!) : got.cv.facts.selfSigned ? got.cv : undefined;
    const chainsToRoot = top?.facts.selfSigned ? { sha256: top.id, subject: top.facts.subject, files: c.filesOf.get(top.id) ?? [] } : null;
    k.eq(`${where}.chainsToRoot`, chainsToRoot, w.chainsToRoot);
    k.set(
      `${where}.alsoFoundIn`,
      (c.filesOf.get(got.cv.id) ?? []).filter((x) => x !== file),
      w.alsoFoundIn as string[],
    );
    // istioctl's row for it.
    const wantRow = w.istioctl as Json | null;
    const row = got.cv.istioctl;
    k.eq(
      `${where}.istioctl`,
      row
        ? {
            TYPE: row.TYPE,
            'SERIAL NUMBER': row['SERIAL NUMBER'],
            'NOT AFTER': row['NOT AFTER'],
            'NOT BEFORE': row['NOT BEFORE'],
            'VALID CERT (at referenceTime)': row['VALID CERT'],
            'TRUST DOMAIN (last spiffe URI SAN; shown only if every row has one)': row['TRUST DOMAIN'] ?? '',
          }
        : null,
      wantRow,
    );
    // Lints, role-free as the corpus lists them (roles change severities, not the ids).
    const lints = got.cv.findings.map((x) => x.id).filter((id) => (w.lintsAtReferenceTime as string[]).includes(id) || CORPUS_LINTS.has(id));
    k.set(`${where}.lintsAtReferenceTime`, lints, w.lintsAtReferenceTime as string[]);
  }
  // Private keys.
  const wantKeys = (e.privateKeys as Json[] | undefined) ?? [];
  for (const [i, w] of wantKeys.entries()) {
    const got = keysHere.find((x) => x.origin.block === w.index);
    const where = `privateKeys[${i}]`;
    if (w.parse !== 'ok') {
      k.eq(`${where}.parse`, got?.publicKey ? 'ok' : 'error', 'error');
      continue;
    }
    if (!got) {
      k.eq(`${where}`, null, 'a parsed key');
      continue;
    }
    k.eq(`${where}.encoding`, got.encoding, w.encoding);
    k.eq(`${where}.pemType`, got.pemType, w.pemType);
    k.eq(
      `${where}.publicKey`,
      got.publicKey
        ? {
            type: got.publicKey.type,
            bits: got.publicKey.bits,
            ...(got.publicKey.exponent !== undefined ? { exponent: got.publicKey.exponent } : {}),
            ...(got.publicKey.curve ? { curve: got.publicKey.curve } : {}),
            spkiSha256: got.publicKey.spkiSha256,
          }
        : null,
      stripCurveOid(w.publicKey as Json),
    );
    k.eq(`${where}.istioParsePemEncodedKey`, got.istio, w.istioParsePemEncodedKey);
    const files = [...new Set(got.matches.flatMap((id) => c.filesOf.get(id) ?? []))];
    k.set(`${where}.matchesCertificatesIn`, files, w.matchesCertificatesIn as string[]);
  }
  // CRLs.
  for (const [i, w] of ((e.crls as Json[] | undefined) ?? []).entries()) {
    const got = crlsHere.find((x) => x.origin.block === w.index);
    const where = `crls[${i}]`;
    if (!got) {
      k.eq(where, null, 'a parsed CRL');
      continue;
    }
    const f = got.facts;
    k.eq(
      `${where}`,
      {
        issuer: f.issuer,
        thisUpdate: f.thisUpdate,
        nextUpdate: f.nextUpdate,
        crlNumber: f.crlNumber,
        authorityKeyIdentifier: f.authorityKeyIdentifier,
        revokedSerials: f.revokedSerials,
        signatureAlgorithm: f.signatureAlgorithm,
      },
      {
        issuer: w.issuer,
        thisUpdate: w.thisUpdate,
        nextUpdate: w.nextUpdate,
        crlNumber: w.crlNumber,
        authorityKeyIdentifier: w.authorityKeyIdentifier,
        revokedSerials: w.revokedSerials,
        signatureAlgorithm: w.signatureAlgorithm,
      },
    );
    k.eq(
      `${where}.signedBy`,
      sortBy(got.signedBy.map((s) => ({ sha256: s.id, subject: s.subject, files: c.filesOf.get(s.id) ?? [] }))),
      sortBy(w.signedBy as Json[]),
    );
  }
  // Bundle order.
  if (e.bundle) {
    const b = r.bundles.find((x) => x.origin.input === file);
    const w = e.bundle as Json;
    k.eq(
      'bundle',
      b ? { adjacentLinks: b.order.adjacentLinks, order: b.order.order, duplicateFingerprints: b.order.duplicateFingerprints, lints: b.order.lints } : null,
      { adjacentLinks: w.adjacentLinks, order: w.order, duplicateFingerprints: w.duplicateFingerprints, lints: w.lints },
    );
  }
  return k.result('certs/files');
}

const CORPUS_LINTS = new Set<string>();

function stripCurveOid(pk: Json): Json {
  const out = { ...pk };
  delete out.curveOid;
  return out;
}

function sortBy(list: Json[]): Json[] {
  return [...list]
    .map((x) => ({ ...x, files: Array.isArray(x.files) ? [...(x.files as string[])].sort() : x.files }))
    .sort((a, b) => canon(a).localeCompare(canon(b)));
}

/** The first-found issuer path up to a self-signed certificate (verified signatures). */
function pathToRoot(c: Corpus, start: CertView): string[] {
  const out: string[] = [];
  let cur = start;
  const seen = new Set([start.id]);
  for (let guard = 0; guard < 10; guard++) {
    if (cur.facts.selfSigned) break;
    const next = cur.issuers.find((x) => x.signature === 'verified' && !seen.has(x.id));
    if (!next) return out.length > 0 && c.cert.get(out[out.length - 1]!)?.facts.selfSigned ? out : out;
    out.push(next.id);
    seen.add(next.id);
    cur = c.cert.get(next.id)!;
  }
  return out;
}

async function chainCheck(c: Corpus, e: Json, ctx: PkiContext): Promise<CaseResult> {
  const k = new Case(`certs/${e.id as string}`);
  const inputs = e.inputs as { cert: string; key?: string; intermediates: string[]; roots: string[]; crl?: string };
  const read = (f: string) => new Uint8Array(readFileSync(join(c.root, f)));
  const nl = new Uint8Array([10]);
  const chain = inputs.intermediates.length ? concatBytes(...inputs.intermediates.map(read)) : new Uint8Array();
  const roots = inputs.roots.length ? concatBytes(...inputs.roots.flatMap((r) => [read(r), nl])) : new Uint8Array();
  const go = e.goLikeVerify as Json;
  const usages = (go.requestedExtKeyUsage as string[]).includes('any') ? (['any'] as const) : ([] as const);
  // The Go verdict on its own.
  const rootPool = new CertPool();
  ctx.appendCertsFromPem(rootPool, roots);
  const interPool = new CertPool();
  ctx.appendCertsFromPem(interPool, usages.length ? concatBytes(read(inputs.cert), nl, chain) : chain);
  const leafParsed = ctx.parsePemEncodedCertificate(read(inputs.cert));
  if (!leafParsed.cert) return k.result('certs/chainChecks', `leaf does not parse: ${leafParsed.error}`);
  const leaf = leafParsed.cert;
  await completeCertificate(leaf, ctx.signatures);
  k.eq('leafSha256', leaf.facts.sha256FingerprintHex, e.leafSha256);
  const result = await goVerify(leaf, { roots: rootPool, intermediates: interPool, now: c.now, keyUsages: [...usages], signatures: ctx.signatures });
  await ctx.complete(result.chains);
  const firstChain = (result.chains[0] ?? []).map((x: Certificate) => ({ sha256: x.facts.sha256FingerprintHex, subject: x.facts.subject }));
  k.eq('goLikeVerify', { ok: result.ok, error: result.error, chain: firstChain }, { ok: go.ok, error: go.error, chain: go.chain });
  // OpenSSL's verdict (for the note next to Istio's).
  for (const c2 of [...rootPool.certs, ...interPool.certs]) await completeCertificate(c2, ctx.signatures);
  const o = e.opensslVerify as Json;
  const at = await opensslVerify(
    leaf,
    rootPool.certs,
    interPool.certs.filter((x) => x !== leaf),
    c.now,
    ctx.signatures,
  );
  const noTime = await opensslVerify(
    leaf,
    rootPool.certs,
    interPool.certs.filter((x) => x !== leaf),
    null,
    ctx.signatures,
  );
  const ov = (v: { ok: boolean; error: { code: number; depth: number; message: string } | null }) => ({ ok: v.ok, opensslError: v.error });
  k.eq('opensslVerify.atReferenceTime', ov(at), o.atReferenceTime);
  k.eq('opensslVerify.ignoringTime', ov(noTime), o.ignoringTime);
  k.eq('opensslAgreesWithGo', at.ok === result.ok, e.opensslAgreesWithGo);
  const verdict = (v: { ok: boolean; failingCheck: string | null; error: string | null }) => ({ ok: v.ok, failingCheck: v.failingCheck, error: v.error });
  const crlNote = (s: unknown) => (typeof s === 'string' ? s.replace(/ \(Go map order, not stable\)$/, '') : s);
  if (e.istioKeyCertBundleVerify) {
    const bundleInput = { cert: read(inputs.cert), key: read(inputs.key!), chain, root: roots, crl: inputs.crl ? read(inputs.crl) : undefined };
    const kcb = await keyCertBundleVerify(ctx, bundleInput);
    const want = e.istioKeyCertBundleVerify as Json;
    k.eq('istioKeyCertBundleVerify', verdict(kcb.verdict), { ...want, error: crlNote(want.error) });
    if (e.keyParses !== undefined)
      k.eq('keyParses', kcb.keyParses ?? (kcb.verdict.failingCheck === 'chain verification' ? keyParses(read(inputs.key!)) : undefined), e.keyParses);
    if (e.crlCoverage)
      k.set('crlCoverage.certsInCertChainWithoutCrl', kcb.certsWithoutCrl ?? [], (e.crlCoverage as Json).certsInCertChainWithoutCrl as string[]);
    if (e.istioPluggedCaLoad) {
      const load = await pluggedCaLoad(ctx, bundleInput);
      const w = e.istioPluggedCaLoad as Json;
      k.eq('istioPluggedCaLoad', verdict(load.load), { ...w, error: crlNote(w.error) });
    }
  }
  if (e.istioWorkloadStyleVerify) {
    const wv = await workloadVerify(ctx, {
      cert: read(inputs.cert),
      key: inputs.key ? read(inputs.key) : undefined,
      chain,
      root: inputs.roots.length ? roots : undefined,
    });
    k.eq('istioWorkloadStyleVerify', verdict(wv.verdict), e.istioWorkloadStyleVerify);
  }
  if (e.keyMatchesCert !== undefined && inputs.key) {
    const keyFacts = c.report.keys.find((x) => x.origin.input === inputs.key);
    k.eq('keyMatchesCert', keyFacts ? keyFacts.matches.includes(leaf.facts.sha256FingerprintHex) : null, e.keyMatchesCert);
  }
  if (e.keyParses !== undefined && inputs.key && !e.istioKeyCertBundleVerify) k.eq('keyParses', keyParses(read(inputs.key)), e.keyParses);
  return k.result('certs/chainChecks');
}

function keyParses(bytes: Uint8Array): boolean {
  return scanPem(new TextDecoder().decode(bytes)).blocks.some((b) => b.type.endsWith('PRIVATE KEY') && b.base64Strict);
}

async function derivedCase(c: Corpus, path: string, e: Json): Promise<CaseResult> {
  const k = new Case(`certs/derived/${path}`);
  const bytes = new Uint8Array(readFileSync(join(c.root, 'derived', path)));
  const r = await inspect([{ name: `derived/${path}`, bytes }], { now: c.now });
  const ids = new Set(r.certificates.filter((x) => x.occurrences.length > 0).map((x) => x.id));
  const sameAs = e.sameAs;
  const filesOfSame =
    typeof sameAs === 'string'
      ? [sameAs]
      : Array.isArray(sameAs)
        ? (sameAs as string[])
        : sameAs && typeof sameAs === 'object'
          ? Object.values(sameAs as Json).map(String)
          : [];
  const expectCerts = new Set<string>((e.certificates as string[] | undefined) ?? []);
  for (const f of filesOfSame) {
    if (f.startsWith('k8s/') || f.startsWith('envoy/')) {
      const other = await inspect([{ name: f, bytes: new Uint8Array(readFileSync(join(c.root, 'derived', f.replace(/ \(.*$/, '')))) }], { now: c.now });
      for (const x of other.certificates) if (x.occurrences.length > 0) expectCerts.add(x.id);
    } else {
      for (const [id, files] of c.filesOf) if (files.includes(f)) expectCerts.add(id);
    }
  }
  if (expectCerts.size > 0) k.set('certificates', [...ids], [...expectCerts]);
  if (r.problems.some((p) => p.severity === 'error'))
    k.eq(
      'problems',
      r.problems.filter((p) => p.severity === 'error').map((p) => p.message),
      [],
    );
  const verdicts = r.scenarios.map((s) => s.verdict.text).join(' | ');
  const expect = typeof e.expect === 'string' ? e.expect : '';
  if (/cert does not match the key/.test(expect))
    k.eq('verdict', /the cert does not match the key: tls: private key does not match public key/.test(verdicts), true);
  else if (/Istio Verify OK|Verify OK|chain verifies/.test(expect)) k.eq('verdict', r.scenarios.length > 0 && r.scenarios.every((s) => s.verdict.ok), true);
  const quoted = /Istio: (found .*?)(; analyzer|$)/.exec(expect)?.[1];
  if (quoted) k.eq('istio error', r.scenarios.flatMap((s) => s.steps.map((x) => x.error)).includes(quoted), true);
  if (/IST0161/.test(expect))
    k.eq(
      'IST0161 cause',
      r.scenarios.some((s) => s.kind === 'gateway-credential' && !s.verdict.ok),
      true,
    );
  if (/NOT signed by this CA/.test(expect))
    k.eq(
      'CRL_NOT_SIGNED_BY_CHAIN',
      r.findings.some((f) => f.id === 'CRL_NOT_SIGNED_BY_CHAIN'),
      true,
    );
  if (/key matches first certificate/.test(expect))
    k.eq('key matches first certificate', r.keys[0]?.matches.includes(r.certificates.find((x) => x.occurrences.some((o) => o.block === 1))?.id ?? ''), true);
  if (/two roots/.test(expect)) k.eq('roots in the bundle', r.certificates.filter((x) => x.roles.includes('trust-bundle')).length, 2);
  if (/two Secrets/.test(expect) || /cacerts Secret \+ istio-ca-root-cert ConfigMap/.test(expect)) k.eq('objects', r.scenarios.length, 2);
  if (/self-signed EC P-256 root/.test(expect)) {
    const s = r.scenarios.find((x) => x.kind === 'self-signed-ca');
    const root = r.certificates.find((x) => x.roles.includes('root'));
    k.eq(
      'self-signed CA',
      { scenario: s?.verdict.ok, key: root?.facts.publicKey.curve, selfSigned: root?.facts.selfSigned },
      { scenario: true, key: 'P-256', selfSigned: true },
    );
  }
  if (/generic keys take precedence/.test(expect))
    k.eq(
      'generic keys first',
      r.scenarios.some((s) => s.steps.some((x) => /certificate from "cert"/.test(x.detail))),
      true,
    );
  // The role the file plays: the Istio scenario we check it as.
  if (typeof e.role === 'string') {
    const role = e.role;
    const kind = /^plug-in CA/.test(role)
      ? 'plugin-ca'
      : /^self-signed Istio CA/.test(role)
        ? 'self-signed-ca'
        : /-cacert' secret/.test(role)
          ? 'gateway-ca'
          : /^gateway credential/.test(role)
            ? 'gateway-credential'
            : /^istio-ca-root-cert/.test(role)
              ? 'trust-bundle'
              : undefined;
    if (kind)
      k.eq(
        'role (scenario)',
        r.scenarios.some((s) => s.kind === kind),
        true,
      );
    else k.eq('role (known to the suite)', role, 'a role the suite maps to a scenario');
  }
  // The data keys the file's Secret carries certificates and keys under.
  if (Array.isArray(e.keys)) {
    const keys = [
      ...r.certificates.flatMap((x) => x.occurrences.filter((o) => o.input === `derived/${path}`).map((o) => o.key)),
      ...r.keys.map((x) => x.origin.key),
    ].filter((x): x is string => typeof x === 'string');
    k.set('keys', keys, e.keys as string[]);
  }
  const table = (e.istioctlProxyConfigSecret ?? e.istioctlZtunnelConfigCertificates) as Json | undefined;
  if (table) {
    const t = r.tables[0];
    k.eq('columns', t?.columns, table.columns);
    k.eq('rows', t?.rows, table.rows);
  }
  return k.result('certs/derived');
}

export async function runCertsAsync(rootDir: string): Promise<CaseResult[]> {
  const root = join(rootDir, 'certs');
  const expected = JSON.parse(readFileSync(join(root, 'expected.json'), 'utf8')) as Expected;
  const now = new Date(expected.meta.referenceTime);
  const files = Object.keys(expected.files);
  // A file missing from the corpus fails its own case (and the checks that read it), not the run.
  const present = files.filter((f) => existsSync(join(root, f)));
  const report = await inspect(
    present.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(root, f))) })),
    // The corpus is a heap of unrelated files: facts and relations only, no scenarios.
    { now, scenarios: false },
  );
  const filesOf = new Map<string, string[]>();
  const cert = new Map<string, CertView>();
  for (const cv of report.certificates) {
    cert.set(cv.id, cv);
    filesOf.set(cv.id, [...new Set(cv.occurrences.map((o) => o.input))].sort());
  }
  const c: Corpus = { root, now, expected, report, filesOf, cert };
  for (const f of Object.values(expected.files))
    for (const ce of (f.certificates as Json[]) ?? []) for (const l of ce.lintsAtReferenceTime as string[]) CORPUS_LINTS.add(l);
  const results: CaseResult[] = [];
  for (const f of files) {
    try {
      if (!present.includes(f)) throw new Error(`corpus file missing: certs/${f}`);
      results.push(fileFacts(c, f, expected.files[f]!));
    } catch (e) {
      results.push(new Case(`certs/${f}`).result('certs/files', `threw: ${(e as Error).stack ?? e}`));
    }
  }
  const ctx = new PkiContext(now, new SignatureChecker());
  for (const ch of expected.chainChecks) {
    try {
      results.push(await chainCheck(c, ch, ctx));
    } catch (e) {
      results.push(new Case(`certs/${ch.id as string}`).result('certs/chainChecks', `threw: ${(e as Error).stack ?? e}`));
    }
  }
  for (const [p, e] of Object.entries(expected.derived)) {
    try {
      results.push(await derivedCase(c, p, e));
    } catch (err) {
      results.push(new Case(`certs/derived/${p}`).result('certs/derived', `threw: ${(err as Error).stack ?? err}`));
    }
  }
  for (const m of expected.keyMatches) {
    const k = new Case(`certs/keyMatches/${m.key}`);
    const kv = report.keys.find((x) => x.origin.input === m.key && x.publicKey);
    k.eq('spkiSha256', kv?.publicKey?.spkiSha256 ?? null, m.spkiSha256);
    k.set('certificateFiles', kv ? [...new Set(kv.matches.flatMap((id) => filesOf.get(id) ?? []))] : [], m.certificateFiles);
    results.push(k.result('certs/keyMatches'));
  }
  for (const b of expected.istioRootBundleParsing) {
    const k = new Case(`certs/istioRootBundleParsing/${b.file}`);
    try {
      k.eq('istioValidCerts', parseRootCerts(ctx, new Uint8Array(readFileSync(join(root, b.file)))).kept.length, b.istioValidCerts);
      results.push(k.result('certs/istioRootBundleParsing'));
    } catch (e) {
      results.push(k.result('certs/istioRootBundleParsing', `threw: ${(e as Error).stack ?? e}`));
    }
  }
  return results;
}

const SELF = fileURLToPath(import.meta.url);

/** The synchronous entry for the runner: the suite in a child process (WebCrypto is async). */
export function runCerts(rootDir: string): CaseResult[] {
  if (!existsSync(join(rootDir, 'certs', 'expected.json'))) return [];
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', SELF, '--child', resolve(rootDir)], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      cwd: resolve(SELF, '..', '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out) as CaseResult[];
  } catch (e) {
    // The suite could not run at all: one failing result says why (its cases then show as not run).
    const stderr = (e as { stderr?: string }).stderr;
    return [
      {
        suite: 'certs',
        id: 'certs/(suite did not run)',
        analyzer: 'certs/expected',
        passed: false,
        missing: [],
        extra: [],
        error: `${(e as Error).message}${stderr ? `\n${stderr}` : ''}`,
      },
    ];
  }
}

const invoked = process.argv[1];
if (invoked && import.meta.url === pathToFileURL(resolve(invoked)).href && process.argv[2] === '--child') {
  const results = await runCertsAsync(process.argv[3] ?? '');
  process.stdout.write(JSON.stringify(results));
}
