// What each PEM block type becomes in src/core/pki/input.ts (certs spec §1.2 row E: the
// types listed there, TRUSTED CERTIFICATE read for its certificate prefix, a key block with
// `Proc-Type: 4,ENCRYPTED` or of type ENCRYPTED PRIVATE KEY flagged, any other type kept and
// reported as unknown). The rest follows the real readers: Go's x509.ParseCertificate,
// ParseRevocationList and ParseCertificateRequest refuse DER of another kind, its key parsers
// (ParsePKCS1/PKCS8/ECPrivateKey) read the block's bytes whatever its headers, and
// AppendCertsFromPEM skips a CERTIFICATE block that carries headers (`len(block.Headers) != 0`);
// OpenSSL writes a TRUSTED CERTIFICATE as the certificate followed by its X509_CERT_AUX,
// reads "NEW CERTIFICATE REQUEST" (PEM_STRING_X509_REQ_OLD), writes `openssl cms` output as
// "CMS", and `openssl ecparam -genkey` puts an "EC PARAMETERS" block before the key; an
// OpenSSH key is "OPENSSH PRIVATE KEY" around an `openssh-key-v1` body, which Istio's key
// reader (crypto.go: PKCS#1, SEC1, PKCS#8) does not take. Blocks, offsets and lines are
// those of the texts built here; certificates come from pkiBuilder.ts.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Problem, type Value } from '../../src/core/pki/input.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { keys, leaf, root } from './pkiBuilder.ts';
import { crlDer, keyPem, pem } from './istioFixtures.ts';

const ca = await root({ subject: 'CN=Blocks Root' });
const server = await leaf(ca);
const caPem = pem(ca);
const serverKeys = server.keys;
const hexOf = (b: Uint8Array | ArrayBuffer): string => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');

/** Two comment lines before the blocks, so the first block sits on line 3 at offset PREAMBLE.length. */
const PREAMBLE = '# copied from the cluster\n# on 2026-06-01\n';
const FIRST_LINE = 3;

function decodeText(text: string): Value {
  const d = decodeInputs([{ name: 'blocks.pem', text }]);
  expect(d.values).toHaveLength(1);
  return d.values[0]!;
}

/** [kind, block, offset, pemType] of every artefact. */
const located = (v: Value) => v.artefacts.map((a) => [a.kind, a.block, a.offset, a.pemType]);

/** [severity, block, offset] of every problem. */
const where = (problems: Problem[]) => problems.map((p) => [p.severity, p.block, p.offset]);

/** 1-based line of a character offset in a text (what an editor shows). */
const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/** The problem names the line as a number of its own. */
const namesLine = (p: Problem, line: number): boolean => new RegExp(`\\bline ${line}\\b`).test(p.message);

/** A PEM block with `Key: value` headers before its body (RFC 1421 layout, as Go's pem.Encode writes it). */
function pemWithHeaders(type: string, headers: Record<string, string>, der: Uint8Array): string {
  const [begin, ...rest] = encodePem(type, der).split('\n');
  return [begin, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ...rest].join('\n');
}

const spkiOf = async (k: CryptoKey): Promise<Uint8Array> => new Uint8Array(await globalThis.crypto.subtle.exportKey('spki', k));

describe('certificate blocks', () => {
  it('a TRUSTED CERTIFICATE gives the certificate before its trust settings, with a warning for its block', () => {
    // X509_CERT_AUX { trust: SEQUENCE OF OID { serverAuth } }, as `openssl x509 -addtrust serverAuth` appends.
    const aux = [0x30, 0x0c, 0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];
    const text = `${PREAMBLE}${encodePem('TRUSTED CERTIFICATE', new Uint8Array([...ca.der, ...aux]))}`;
    const v = decodeText(text);
    expect(located(v)).toEqual([['certificate', 0, PREAMBLE.length, 'TRUSTED CERTIFICATE']]);
    const cert = v.artefacts[0]!;
    expect(cert.kind === 'certificate' && hexOf(cert.cert.der)).toBe(hexOf(ca.der));
    expect(where(v.problems)).toEqual([['warning', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });

  it("an X509 CERTIFICATE (OpenSSL's old label) is read, with a warning: Go's AppendCertsFromPEM and tls.X509KeyPair skip any other label than CERTIFICATE", () => {
    const text = `${caPem}${PREAMBLE}${encodePem('X509 CERTIFICATE', server.der)}`;
    const offset = caPem.length + PREAMBLE.length;
    const v = decodeText(text);
    expect(located(v)).toEqual([
      ['certificate', 0, 0, 'CERTIFICATE'],
      ['certificate', 1, offset, 'X509 CERTIFICATE'],
    ]);
    expect(where(v.problems)).toEqual([['warning', 1, offset]]);
    expect(v.problems[0]!.message).toContain('AppendCertsFromPEM');
    expect(namesLine(v.problems[0]!, lineAt(text, offset))).toBe(true);
  });

  it('a CERTIFICATE block with a header is read (Istio parses the first block whatever its headers) and warned about: AppendCertsFromPEM skips it', () => {
    const text = `${caPem}${PREAMBLE}${pemWithHeaders('CERTIFICATE', { 'Proc-Type': '4,MIC-ONLY' }, server.der)}`;
    const offset = caPem.length + PREAMBLE.length;
    const v = decodeText(text);
    expect(located(v)).toEqual([
      ['certificate', 0, 0, 'CERTIFICATE'],
      ['certificate', 1, offset, 'CERTIFICATE'],
    ]);
    expect(where(v.problems)).toEqual([['warning', 1, offset]]);
    expect(namesLine(v.problems[0]!, lineAt(text, offset))).toBe(true);
  });

  it('a CERTIFICATE block holding a CRL is an error for that block, and no certificate', async () => {
    const text = `${PREAMBLE}${encodePem('CERTIFICATE', await crlDer(ca))}`;
    const v = decodeText(text);
    expect(v.artefacts).toEqual([]);
    expect(where(v.problems)).toEqual([['error', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });
});

describe('CRL and CSR blocks', () => {
  it('a CRL under the short label "CRL" is a CRL (spec: X509 CRL, also CRL)', async () => {
    const der = await crlDer(ca);
    const v = decodeText(`${PREAMBLE}${encodePem('CRL', der)}`);
    expect(located(v)).toEqual([['crl', 0, PREAMBLE.length, 'CRL']]);
    expect(v.problems).toEqual([]);
  });

  it('an X509 CRL block holding a certificate is an error naming its block and line', () => {
    const text = `${caPem}${PREAMBLE}${encodePem('X509 CRL', server.der)}`;
    const offset = caPem.length + PREAMBLE.length;
    const v = decodeText(text);
    expect(located(v)).toEqual([['certificate', 0, 0, 'CERTIFICATE']]);
    expect(where(v.problems)).toEqual([['error', 1, offset]]);
    expect(namesLine(v.problems[0]!, lineAt(text, offset))).toBe(true);
  });

  const csrDer = async (): Promise<Uint8Array> => {
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=workload',
      keys: { publicKey: serverKeys.publicKey, privateKey: serverKeys.privateKey },
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    });
    return new Uint8Array(csr.rawData);
  };

  it('a request under OpenSSL\'s old label "NEW CERTIFICATE REQUEST" is a CSR', async () => {
    const v = decodeText(`${PREAMBLE}${encodePem('NEW CERTIFICATE REQUEST', await csrDer())}`);
    expect(located(v)).toEqual([['csr', 0, PREAMBLE.length, 'NEW CERTIFICATE REQUEST']]);
    expect(v.problems).toEqual([]);
  });

  it('a CERTIFICATE REQUEST block holding a certificate is an error naming its block and line', () => {
    const text = `${PREAMBLE}${encodePem('CERTIFICATE REQUEST', ca.der)}`;
    const v = decodeText(text);
    expect(v.artefacts).toEqual([]);
    expect(where(v.problems)).toEqual([['error', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });
});

describe('public keys and certificate bags', () => {
  it('a PUBLIC KEY block is the SubjectPublicKeyInfo it holds, with no problem', async () => {
    const spki = await spkiOf(serverKeys.publicKey);
    const v = decodeText(`${PREAMBLE}${encodePem('PUBLIC KEY', spki)}`);
    expect(located(v)).toEqual([['public-key', 0, PREAMBLE.length, 'PUBLIC KEY']]);
    const a = v.artefacts[0]!;
    expect(a.kind === 'public-key' && hexOf(a.spki)).toBe(hexOf(spki));
    expect(v.problems).toEqual([]);
  });

  const bag = (): Uint8Array => new Uint8Array(new x509.X509Certificates([ca.x, server.x]).export('raw'));

  it.each(['PKCS7', 'CMS'])('a %s block gives the certificates of its SignedData, located at that block', (label) => {
    const v = decodeText(`${PREAMBLE}${encodePem(label, bag())}`);
    expect(located(v)).toEqual([
      ['certificate', 0, PREAMBLE.length, label],
      ['certificate', 0, PREAMBLE.length, label],
    ]);
    const ders = v.artefacts.map((a) => (a.kind === 'certificate' ? hexOf(a.cert.der) : ''));
    expect(ders.sort()).toEqual([hexOf(ca.der), hexOf(server.der)].sort());
    expect(v.problems).toEqual([]);
  });
});

describe('private keys', () => {
  it('a SEC1 key is a private key, not encrypted, with no problem', async () => {
    const v = decodeText(`${PREAMBLE}${await keyPem(serverKeys, 'sec1')}`);
    expect(located(v)).toEqual([['private-key', 0, PREAMBLE.length, 'EC PRIVATE KEY']]);
    const a = v.artefacts[0]!;
    expect(a.kind === 'private-key' && a.encrypted).toBe(false);
    expect(v.problems).toEqual([]);
  });

  it('a passphrase-protected PKCS#1 key (Proc-Type: 4,ENCRYPTED, as OpenSSL writes it) is an encrypted key and an error', async () => {
    const rsa = await keys('RSA-2048', 'inputDecodeBlocks');
    const pkcs8 = Buffer.from(await globalThis.crypto.subtle.exportKey('pkcs8', rsa.privateKey));
    const encrypted = nodeCrypto
      .createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
      .export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'secret' })
      .toString();
    expect(encrypted).toContain('Proc-Type: 4,ENCRYPTED');
    const text = `${PREAMBLE}${encrypted}`;
    const v = decodeText(text);
    expect(located(v)).toEqual([['encrypted-key', 0, PREAMBLE.length, 'RSA PRIVATE KEY']]);
    expect(where(v.problems)).toEqual([['error', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });

  it('a Proc-Type header that does not say ENCRYPTED leaves the key readable (Go reads the bytes whatever the headers)', async () => {
    const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', serverKeys.privateKey));
    const v = decodeText(`${PREAMBLE}${pemWithHeaders('PRIVATE KEY', { 'Proc-Type': '4,MIC-ONLY' }, pkcs8)}`);
    expect(located(v)).toEqual([['private-key', 0, PREAMBLE.length, 'PRIVATE KEY']]);
    expect(v.problems).toEqual([]);
  });

  it('an OpenSSH key is not a key Istio reads: an error for its block', () => {
    const body = new Uint8Array([...Buffer.from('openssh-key-v1\0'), 0, 0, 0, 4, ...Buffer.from('none')]);
    const text = `${caPem}${encodePem('OPENSSH PRIVATE KEY', body)}`;
    const v = decodeText(text);
    expect(located(v)).toEqual([
      ['certificate', 0, 0, 'CERTIFICATE'],
      ['encrypted-key', 1, caPem.length, 'OPENSSH PRIVATE KEY'],
    ]);
    expect(where(v.problems)).toEqual([['error', 1, caPem.length]]);
    expect(namesLine(v.problems[0]!, lineAt(text, caPem.length))).toBe(true);
  });

  it('an EC PRIVATE KEY block holding a certificate is an error naming its block and line, and no key', () => {
    const text = `${PREAMBLE}${encodePem('EC PRIVATE KEY', ca.der)}`;
    const v = decodeText(text);
    expect(v.artefacts).toEqual([]);
    expect(where(v.problems)).toEqual([['error', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });
});

describe('a type the spec does not list', () => {
  it('`openssl ecparam -genkey` output: the EC PARAMETERS block is kept as unknown with a warning, the key after it is read', async () => {
    // The named curve prime256v1, as ecparam writes it.
    const params = encodePem('EC PARAMETERS', new Uint8Array([0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]));
    const text = `${PREAMBLE}${params}${await keyPem(serverKeys, 'sec1')}`;
    const keyOffset = PREAMBLE.length + params.length;
    const v = decodeText(text);
    expect(located(v)).toEqual([
      ['opaque', 0, PREAMBLE.length, 'EC PARAMETERS'],
      ['private-key', 1, keyOffset, 'EC PRIVATE KEY'],
    ]);
    const opaque = v.artefacts[0]!;
    expect(opaque.kind === 'opaque' && opaque.what).toContain('EC PARAMETERS');
    expect(where(v.problems)).toEqual([['warning', 0, PREAMBLE.length]]);
    expect(v.problems[0]!.message).toContain('EC PARAMETERS');
    expect(namesLine(v.problems[0]!, FIRST_LINE)).toBe(true);
  });
});
