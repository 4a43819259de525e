// What collecting (src/core/pki/collect.ts) lists of an inspection's inputs: private keys,
// CRLs and CSRs numbered in input order, the keys Istio cannot read (an encrypted PKCS#8 key,
// an OpenSSH key: Istio's ParsePemEncodedKey reads only PKCS#1, SEC1 and PKCS#8) with their
// findings, Envoy's `[redacted]` and values a share link removed under a key's file name
// (tls.key and ca-key.pem as istiod and Kubernetes name them, client-key-data of a kubeconfig).
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { STRING_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { inspect } from '../../src/core/pki/inspect.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { NOW, keys, root } from './pkiBuilder.ts';
import { crlDer, keyPem, pem } from './istioFixtures.ts';

const block = (type: string, bytes: number[]) => encodePem(type, new Uint8Array(bytes));

async function csrPem(): Promise<string> {
  const k = await keys();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: 'CN=request',
    keys: { publicKey: k.publicKey, privateKey: k.privateKey },
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  return encodePem('CERTIFICATE REQUEST', new Uint8Array(csr.rawData));
}

describe('keys, CRLs and CSRs of the inputs', () => {
  it('are numbered in input order; unreadable keys get their state and an error finding about that key', async () => {
    const r0 = await root();
    const text = [
      pem(r0),
      await keyPem(r0.keys),
      block('ENCRYPTED PRIVATE KEY', [0x30, 0x03, 0x02, 0x01, 0x00]),
      block('OPENSSH PRIVATE KEY', [0x6f, 0x70, 0x65, 0x6e]),
      encodePem('X509 CRL', await crlDer(r0)),
      encodePem('X509 CRL', await crlDer(r0)),
      await csrPem(),
      // A block of a kind collecting does not list (not a CSR).
      block('SOMETHING ELSE', [1, 2, 3]),
      await csrPem(),
    ].join('');
    const r = await inspect([{ name: 'all.pem', text }], { now: NOW });
    expect(r.keys.map((k) => [k.id, k.state])).toEqual([
      ['key-1', null],
      ['key-2', 'encrypted'],
      ['key-3', 'unsupported'],
    ]);
    // The readable key is the root's.
    expect(r.keys[0]!.matches).toEqual([r0.cert.facts.sha256FingerprintHex]);
    expect(r.crls.map((c) => c.id)).toEqual(['crl-1', 'crl-2']);
    expect(r.csrs.map((c) => c.id)).toEqual(['csr-1', 'csr-2']);
    const enc = r.findings.find((f) => f.id === 'KEY_ENCRYPTED')!;
    expect(enc.severity).toBe('error');
    expect(enc.message).toMatch(/: encrypted private key; Istio cannot read it$/);
    expect(enc.subject).toMatchObject({ kind: 'key', id: 'key-2' });
    expect(enc.subject.label).toContain('all.pem');
    const ssh = r.findings.find((f) => f.id === 'KEY_UNSUPPORTED_PEM_TYPE')!;
    expect(ssh.severity).toBe('error');
    expect(ssh.message).toMatch(/: OpenSSH key format; Istio cannot read it$/);
    expect(ssh.subject).toMatchObject({ kind: 'key', id: 'key-3' });
    expect(r.findings.filter((f) => f.id === 'KEY_ENCRYPTED')).toHaveLength(1);
    // A certificate's own findings are findings (objects with an id), nothing else.
    for (const c of r.certificates) for (const f of c.findings) expect(typeof f.id).toBe('string');
  });

  it('a key Envoy redacted is listed after the keys before it', async () => {
    const r0 = await root();
    const r = await inspect(
      [
        { name: 'key.pem', text: await keyPem(r0.keys) },
        { name: 'tls.key', text: '[redacted]' },
      ],
      { now: NOW },
    );
    expect(r.keys.map((k) => [k.id, k.state])).toEqual([
      ['key-1', null],
      ['key-2', 'redacted'],
    ]);
  });
});

describe('a PKCS#8 key of an algorithm Go does not parse', () => {
  it('Ed448: listed as unsupported (pkcs8.go: "PKCS#8 wrapping contained private key with unknown algorithm")', async () => {
    const ed448 = nodeCrypto.generateKeyPairSync('ed448').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const r = await inspect([{ name: 'k.pem', text: ed448 }], { now: NOW });
    expect(r.keys.map((k) => [k.id, k.state, k.publicKey])).toEqual([['key-1', 'unsupported', null]]);
    expect(r.keys[0]!.istio).toContain('unknown algorithm: 1.3.101.113');
  });
});

describe('a value a share link removed is a key when its name says so', () => {
  const removed = async (name: string) => (await inspect([{ name, text: STRING_MARKER }], { now: NOW })).keys.map((k) => k.state);

  it.each(['tls.key', 'key', 'ca-key.pem', 'client-key-data', 'my-key', 'key.pem'])('%s: a key redacted in this link', async (name) => {
    expect(await removed(name)).toEqual(['redacted-in-link']);
  });

  it.each(['tls.crt', 'monkey', 'app.keywords', 'keyboard.txt', 'root-cert.pem'])('%s: not a key', async (name) => {
    expect(await removed(name)).toEqual([]);
  });
});
