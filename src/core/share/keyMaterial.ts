// What counts as secret material in a value, wherever the value sits: private keys in any
// encoding (PEM, PGP armour, base64 of either, wrapped or with text before BEGIN, DER and
// PKCS#12 in base64), and kubeconfigs that carry credentials. And the one thing that counts
// as public: a value that is nothing but certificates.
import { bytesToLatin1, decodeBase64Std } from '../pki/base64.ts';
import { readTlv } from '../pki/der.ts';

/**
 * A private-key armour line, read with every space removed so that a header folded across
 * lines (`-----BEGIN RSA PRIVATE\n  KEY-----`) or written in another case still counts:
 * PEM (`PRIVATE KEY`, `RSA PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE KEY`…)
 * and PGP (`PGP PRIVATE KEY BLOCK`), with three or more dashes.
 */
const PRIVATE_ARMOUR = /-{3,}BEGIN[A-Z0-9]*PRIVATEKEY/i;
/** Quick filter before the work: a value shorter than this cannot hold a key. */
const MIN_KEY_CHARS = 40;
/**
 * Runs of base64 (standard or URL alphabet), possibly wrapped: a run goes on to the next
 * line only when the line it ends is done and the next line is nothing but base64 (after
 * indentation, or a `#` for a commented-out block).
 */
export const BASE64_RUN = /[A-Za-z0-9+/_-]{4,}={0,2}(?:[ \t]*(?:\r\n|\r|\n)[ \t]*#?[ \t]*[A-Za-z0-9+/_-]{4,}={0,2}(?=[ \t]*(?:\r|\n|$)))*/g;

function withoutSpace(s: string): string {
  return s.replace(/\s+/g, '');
}

/** True for text holding a private-key armour line (PEM or PGP), however it is spaced. */
export function hasPrivateKeyArmour(text: string): boolean {
  if (text.length < 20) return false;
  // The armour test reads the text without spaces: so must this quick look (a fold may fall inside BEGIN).
  if (!/b\s*e\s*g\s*i\s*n/i.test(text)) return false;
  return PRIVATE_ARMOUR.test(withoutSpace(text));
}

/**
 * Decodes base64 leniently: spaces and line breaks dropped, either alphabet, missing padding
 * added, and a last partial quantum dropped. Undefined when the run is not base64 at all.
 */
export function decodeBase64Loose(text: string): Uint8Array | undefined {
  let s = withoutSpace(text);
  if (/[^A-Za-z0-9+/_=-]/.test(s)) return undefined;
  s = s.replace(/-/g, '+').replace(/_/g, '/');
  // Padding can only end a quantum: keep what comes before the first one.
  const pad = s.indexOf('=');
  if (pad >= 0) s = s.slice(0, pad);
  s = s.slice(0, s.length - (s.length % 4 === 1 ? 1 : 0));
  return decodeBase64Std(s + '='.repeat((4 - (s.length % 4)) % 4));
}

/** The length of a DER element at `at`, or -1 when the bytes there are not one. */
function derElementEnd(bytes: Uint8Array, at: number): number {
  try {
    return readTlv(bytes, at).next;
  } catch {
    return -1;
  }
}

/** PBES2, PKCS#12 PBE and the PKCS#5 v1.5 schemes: what an EncryptedPrivateKeyInfo starts with. */
const ENCRYPTED_KEY_OIDS = [
  [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05], // 1.2.840.113549.1.5 (PKCS#5)
  [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01], // 1.2.840.113549.1.12.1 (PKCS#12 PBE)
];

function startsWithAt(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * True for binary private-key structures: PKCS#1 RSA, DSA and PKCS#8 (a SEQUENCE opening
 * with INTEGER 0), SEC1 EC and PKCS#8 v2 (INTEGER 1, then an OCTET STRING or SEQUENCE), a
 * PKCS#12 store (INTEGER 3, then a SEQUENCE), an EncryptedPrivateKeyInfo, OpenSSH's own
 * key format, and an OpenPGP secret-key packet.
 */
export function isPrivateKeyDer(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  if (bytesToLatin1(bytes.subarray(0, 15)) === 'openssh-key-v1\u0000') return true;
  const b0 = bytes[0]!;
  // OpenPGP secret key (tag 5) or secret subkey (tag 7), old or new packet format, version 3 to 6.
  const pgpVersionAt = b0 === 0x94 || b0 === 0x9c ? 2 : b0 === 0x95 || b0 === 0x9d ? 3 : b0 === 0xc5 || b0 === 0xc7 ? 2 + (bytes[1]! >= 192 ? 1 : 0) : -1;
  if (pgpVersionAt > 0 && bytes[pgpVersionAt]! >= 3 && bytes[pgpVersionAt]! <= 6) return true;
  if (b0 !== 0x30) return false;
  let inner: number;
  try {
    inner = readTlv(bytes, 0, bytes.length).start;
  } catch {
    // A truncated key still gives itself away by its first elements.
    const len = bytes[1]!;
    inner = len & 0x80 ? 2 + (len & 0x7f) : 2;
  }
  if (bytes[inner] === 0x02 && bytes[inner + 1] === 0x01) {
    const version = bytes[inner + 2];
    const next = bytes[inner + 3];
    if (version === 0) return next === 0x02 || next === 0x30;
    if (version === 1) return next === 0x04 || next === 0x30;
    if (version === 3) return next === 0x30;
    return false;
  }
  // EncryptedPrivateKeyInfo: SEQUENCE { SEQUENCE { OID scheme, … }, OCTET STRING }.
  if (bytes[inner] === 0x30) {
    const alg = derElementEnd(bytes, inner) > 0 ? readTlv(bytes, inner).start : inner + 2;
    if (bytes[alg] === 0x06) return ENCRYPTED_KEY_OIDS.some((oid) => startsWithAt(bytes, alg + 2, oid));
  }
  return false;
}

/** One character per byte (windows-1252 for 0x80–0x9F, which no armour or base64 uses). */
const LATIN1 = new TextDecoder('latin1');

/** Decoded bytes that hold a key: as binary, as text (armour), or base64 once more when they are text. */
function bytesHoldKey(bytes: Uint8Array, depth: number): boolean {
  if (isPrivateKeyDer(bytes)) return true;
  const text = LATIN1.decode(bytes);
  if (hasPrivateKeyArmour(text)) return true;
  return depth < 2 && mostlyText(bytes) && base64RunsHoldKey(text, depth + 1);
}

/** True when nearly every byte is printable ASCII or a line break (binary DER is not base64 again). */
function mostlyText(bytes: Uint8Array): boolean {
  let text = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 10 || b === 13 || b === 9) text++;
  return text >= bytes.length * 0.9;
}

function base64RunsHoldKey(text: string, depth: number): boolean {
  for (const m of text.matchAll(BASE64_RUN)) if (keyStartInRun(m[0], depth) >= 0) return true;
  return false;
}

/** Lines of other words a run may open with before a key (see keyStartInRun). */
const LEADING_LINES = 4;
/**
 * Lines further down that are tried too: where the width of the run's lines changes. A
 * wrapped key keeps one width, so it starts at such a change below any number of short
 * words (host names one per line, each long enough to read as base64). Bounded, and each
 * read only as far as KEY_WINDOW, so that a long run costs little more than before.
 */
const WIDTH_CHANGES = 64;
/**
 * How much of a run a line further down is read for (base64 characters, white space
 * included): a key gives itself away by its first elements (isPrivateKeyDer reads a
 * truncated one), its armour line or its first line of base64 once more.
 */
const KEY_WINDOW = 1024;

/**
 * Where a key starts in a run of base64: 0 when the run holds one; else the start of one of
 * its lines, when the words above the key joined the run (`kind: ConfigMap` on the line
 * above a commented-out key: `ConfigMap` reads as base64 too and puts the key out of step):
 * one of its first lines, or a line where the width of its lines changes; -1 for none.
 */
export function keyStartInRun(run: string, depth = 0): number {
  const lineBreak = /\r\n|\r|\n/g;
  let at = 0;
  let lastWidth = -1;
  let changes = 0;
  for (let line = 0; run.length - at >= MIN_KEY_CHARS; line++) {
    lineBreak.lastIndex = at;
    const next = lineBreak.exec(run);
    const end = next ? next.index : run.length;
    const width = run.slice(at, end).replace(/[\s#]/g, '').length;
    const changed = line > 0 && width !== lastWidth;
    if (line > LEADING_LINES && changed) changes++;
    if (line <= LEADING_LINES || (changed && changes <= WIDTH_CHANGES)) {
      const bytes = decodeBase64Loose(line <= LEADING_LINES ? run.slice(at) : run.slice(at, at + KEY_WINDOW));
      if (bytes && bytesHoldKey(bytes, depth)) return at;
    } else if (changes > WIDTH_CHANGES) return -1;
    lastWidth = width;
    if (!next) return -1;
    at = end + next[0].length;
  }
  return -1;
}

/**
 * True when a value holds private-key material in any encoding: armour in the text itself,
 * or a run of base64 (wrapped or not, anywhere in the value, such as a kubeconfig's
 * `client-key-data`) whose bytes are a key, armour, or base64 of those once more.
 */
export function holdsPrivateKey(value: string): boolean {
  if (value.length < MIN_KEY_CHARS) return false;
  return remembered(keyVerdicts, value, () => hasPrivateKeyArmour(value) || base64RunsHoldKey(value, 0) || mostlyBase64HoldsKey(value));
}

/**
 * A value that is base64 but for a stray character or two (a quote typed into a wrapped
 * key, a comma) or spaces within its lines (groups too short for a run to hold a key): those
 * split its runs out of step, so it is read once more with all of them dropped.
 */
function mostlyBase64HoldsKey(value: string): boolean {
  const compact = withoutSpace(value);
  const alphabet = compact.replace(/[^A-Za-z0-9+/=_-]/g, '');
  // No fast path for values that are all base64: padding typed inside one splits its runs too.
  if (alphabet.length < compact.length * 0.9) return false;
  const bytes = decodeBase64Loose(alphabet.replace(/=+(?=.)/g, ''));
  return !!bytes && bytesHoldKey(bytes, 1);
}

/**
 * Verdicts on long values, remembered: redaction asks about the same values while it reads,
 * cuts and checks its result. Bounded, and only values worth the work are kept.
 */
const keyVerdicts = new Map<string, boolean>();
const certificateVerdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 2048;

function remembered(cache: Map<string, boolean>, value: string, decide: () => boolean): boolean {
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  const verdict = decide();
  if (cache.size >= VERDICTS_KEPT) cache.clear();
  cache.set(value, verdict);
  return verdict;
}

/** Fields of a kubeconfig's `user` that are credentials. */
const KUBECONFIG_CREDENTIAL =
  /^[ \t]*"?(?:token|password|client-key-data|client-key|id-token|refresh-token|client-secret|access-token|tokenFile|username)"?[ \t]*:[ \t]*\S/m;

/** True for a value that is a kubeconfig (YAML or JSON) carrying a user's credentials. */
export function isKubeconfigWithCredentials(value: string): boolean {
  if (value.length < 20 || !/\busers"?\s*:/.test(value)) return false;
  return KUBECONFIG_CREDENTIAL.test(value) || /"(?:token|password|client-key-data|id-token|refresh-token|client-secret)"\s*:/.test(value);
}

/**
 * True for text that holds a Secret manifest: a Secret kept as text in a ConfigMap, or the
 * lines a quote left open swallowed (`kind: "List` read on to the end of the document).
 */
export function holdsSecretManifest(value: string): boolean {
  return value.length >= 20 && /kind["']?\s*:\s*["']?secret(?![A-Za-z])/i.test(value);
}

/** True when a value is secret material wherever it appears (outside Secrets too). */
export function isSecretMaterial(value: string): boolean {
  return holdsPrivateKey(value) || isKubeconfigWithCredentials(value) || holdsSecretManifest(value);
}

const CERT_BLOCK = /-----BEGIN (?:TRUSTED )?CERTIFICATE-----\r?\n([A-Za-z0-9+/=\s]*?)-----END (?:TRUSTED )?CERTIFICATE-----/g;

/**
 * One or more whole DER elements back to back, each shaped as a certificate: a SEQUENCE
 * opening with the TBSCertificate SEQUENCE, which opens with its [0] version or the serial
 * INTEGER (an EncryptedPrivateKeyInfo opens with an algorithm OID there).
 */
function isDerCertificates(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] !== 0x30) return false;
    const end = derElementEnd(bytes, at);
    if (end < 0) return false;
    const tbs = readTlv(bytes, at).start;
    if (bytes[tbs] !== 0x30 || derElementEnd(bytes, tbs) < 0) return false;
    const first = readTlv(bytes, tbs).start;
    if (bytes[first] !== 0xa0 && bytes[first] !== 0x02) return false;
    at = end;
  }
  return true;
}

/**
 * True when text is nothing but certificates: one or more PEM CERTIFICATE blocks, each a
 * well-formed DER certificate, with nothing but white space around them. Anything else
 * in the value (a password line, a key, a header, text before BEGIN) makes it not public.
 */
export function isCertificatesOnly(text: string): boolean {
  if (!text.includes('-----BEGIN')) return false;
  return remembered(certificateVerdicts, text, () => certificatesOnlyText(text));
}

function certificatesOnlyText(text: string): boolean {
  let rest = '';
  let last = 0;
  let blocks = 0;
  for (const m of text.matchAll(CERT_BLOCK)) {
    rest += text.slice(last, m.index);
    last = m.index + m[0].length;
    const der = decodeBase64Std(withoutSpace(m[1]!));
    if (!der || !isDerCertificates(der) || derElementEnd(der, 0) !== der.length) return false;
    blocks++;
  }
  rest += text.slice(last);
  return blocks > 0 && rest.trim() === '';
}

/** A Secret `data` value (base64) that decodes to nothing but certificates (PEM or DER). */
export function isCertificatesOnlyBase64(value: string): boolean {
  if (value.length < 40) return false;
  return remembered(certificateVerdicts, `base64:${value}`, () => certificatesOnlyBase64(value));
}

function certificatesOnlyBase64(value: string): boolean {
  const bytes = decodeBase64Std(withoutSpace(value));
  if (!bytes || bytes.length === 0) return false;
  if (bytes[0] === 0x30) return isDerCertificates(bytes);
  return isCertificatesOnly(bytesToLatin1(bytes));
}
