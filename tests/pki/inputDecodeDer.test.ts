// Binary DER as src/core/pki/input.ts reads it (certs spec §1.2 row D): each kind tried in
// the spec's order (Certificate, CRL, PKCS#8 key, PKCS#7 certificate bag, CSR), "unrecognised
// DER" otherwise, and bytes after the outer element reported (Go's x509.ParseCertificate
// refuses them: "x509: trailing data", x509.go). Inputs are built here with @peculiar/x509
// (certificates from pkiBuilder.ts, the CRL from istioFixtures.ts); a DER artefact has no PEM
// block, offset or label (the `Located` contract: null for DER).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type Value } from '../../src/core/pki/input.ts';
import { keys, leaf, root } from './pkiBuilder.ts';
import { crlDer } from './istioFixtures.ts';

const ca = await root({ subject: 'CN=DER Root' });
const server = await leaf(ca);
const hexOf = (b: Uint8Array | ArrayBuffer): string => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');

const decodeBytes = (bytes: Uint8Array, name = 'in.der'): Decoded => decodeInputs([{ name, bytes }]);

function onlyValue(d: Decoded): Value {
  expect(d.values).toHaveLength(1);
  return d.values[0]!;
}

/** [kind, block, offset, pemType] of every artefact: for DER the last three are null. */
const located = (v: Value) => v.artefacts.map((a) => [a.kind, a.block, a.offset, a.pemType]);

describe('each DER kind (spec §1.2 D)', () => {
  it('a certificate', () => {
    const v = onlyValue(decodeBytes(ca.der, 'ca.der'));
    expect(v.encoding).toBe('der');
    expect(located(v)).toEqual([['certificate', null, null, null]]);
    expect(v.problems).toEqual([]);
  });

  it('a CRL', async () => {
    const v = onlyValue(decodeBytes(await crlDer(ca), 'ca.crl'));
    expect(located(v)).toEqual([['crl', null, null, null]]);
    expect(v.problems).toEqual([]);
  });

  it('a PKCS#8 private key, not encrypted', async () => {
    const k = await keys('P-256');
    const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', k.privateKey));
    const v = onlyValue(decodeBytes(pkcs8, 'key.der'));
    expect(located(v)).toEqual([['private-key', null, null, null]]);
    const key = v.artefacts[0]!;
    expect(key.kind === 'private-key' && key.encrypted).toBe(false);
    expect(v.problems).toEqual([]);
  });

  it('a PKCS#10 certificate request', async () => {
    const k = await keys('P-256');
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=workload',
      keys: { publicKey: k.publicKey, privateKey: k.privateKey },
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    });
    const v = onlyValue(decodeBytes(new Uint8Array(csr.rawData), 'req.der'));
    expect(located(v)).toEqual([['csr', null, null, null]]);
    expect(v.problems).toEqual([]);
  });

  it('a PKCS#7 certificate bag gives its certificates, and nothing else', () => {
    const p7 = new Uint8Array(new x509.X509Certificates([ca.x, server.x]).export('raw'));
    const v = onlyValue(decodeBytes(p7, 'bundle.p7b'));
    expect(located(v)).toEqual([
      ['certificate', null, null, null],
      ['certificate', null, null, null],
    ]);
    const ders = v.artefacts.map((a) => (a.kind === 'certificate' ? hexOf(a.cert.der) : ''));
    expect(ders.sort()).toEqual([hexOf(ca.der), hexOf(server.der)].sort());
    expect(v.problems).toEqual([]);
  });
});

describe('DER that is not one of them', () => {
  it('a well-formed SEQUENCE of two INTEGERs is unrecognised DER, an error naming its size', () => {
    const bytes = new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
    const d = decodeBytes(bytes);
    const v = onlyValue(d);
    expect(v.encoding).toBe('der');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => [p.severity, p.block, p.offset])).toEqual([['error', null, null]]);
    expect(v.problems[0]!.message).toContain(`${bytes.length} bytes`);
    expect(d.problems).toEqual(v.problems);
  });

  it('a length DER cannot have (five length octets) is an error at offset 0', () => {
    const v = onlyValue(decodeBytes(new Uint8Array([0x30, 0x85, 0x01, 0x02, 0x03, 0x04, 0x05])));
    expect(v.encoding).toBe('der');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
    expect(v.problems[0]!.message).toContain('offset 0');
  });
});

describe('bytes after the DER element', () => {
  it('a certificate followed by three bytes is read, and the three bytes are reported', () => {
    const v = onlyValue(decodeBytes(new Uint8Array([...ca.der, 0x00, 0x01, 0x02])));
    expect(located(v)).toEqual([['certificate', null, null, null]]);
    expect(v.problems).toHaveLength(1);
    const p = v.problems[0]!;
    expect(['warning', 'error']).toContain(p.severity);
    expect(p.message).toContain('3 bytes');
    expect([p.block, p.offset]).toEqual([null, null]);
  });

  it('a CRL followed by two bytes likewise', async () => {
    const v = onlyValue(decodeBytes(new Uint8Array([...(await crlDer(ca)), 0x09, 0x09])));
    expect(located(v)).toEqual([['crl', null, null, null]]);
    expect(v.problems.map((p) => p.message.includes('2 bytes'))).toEqual([true]);
  });
});
