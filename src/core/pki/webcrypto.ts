// An asynchronous cross-check of a key pair with WebCrypto (globalThis.crypto.subtle, in
// Node 20 and browsers): sign with the private key, verify with the certificate's key.
// The analyzers use the synchronous structural check in keys.ts; this is for callers that
// can await and for tests that confirm both agree.
import type { CertificateInfo } from './x509.ts';
import type { PrivateKeyInfo } from './keys.ts';
import { OID_EC_PUBLIC_KEY, OID_RSA } from './keys.ts';

function tlv(tag: number, body: Uint8Array): Uint8Array {
  const len = body.length;
  const head = len < 0x80 ? [tag, len] : len < 0x100 ? [tag, 0x81, len] : len < 0x10000 ? [tag, 0x82, len >> 8, len & 0xff] : [tag, 0x83, len >> 16, (len >> 8) & 0xff, len & 0xff];
  const out = new Uint8Array(head.length + len);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function oid(dotted: string): Uint8Array {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, new Uint8Array(bytes));
}

/** Wraps PKCS#1 / SEC1 key bytes as PKCS#8 (what WebCrypto imports). */
export function toPkcs8(der: Uint8Array, key: PrivateKeyInfo): Uint8Array {
  if (key.format === 'pkcs8') return der;
  const version = tlv(0x02, new Uint8Array([0]));
  const alg = key.kind === 'rsa' ? tlv(0x30, concat(oid(OID_RSA), new Uint8Array([0x05, 0x00]))) : key.kind === 'ec' ? tlv(0x30, concat(oid(OID_EC_PUBLIC_KEY), oid(key.curve.oid))) : new Uint8Array();
  return tlv(0x30, concat(version, alg, tlv(0x04, der)));
}

function ab(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

/** Signs and verifies a probe message; 'unsupported' for algorithms other than RSA and EC. */
export async function keyPairMatchesWithWebCrypto(cert: CertificateInfo, keyDer: Uint8Array, key: PrivateKeyInfo): Promise<'match' | 'mismatch' | 'unsupported'> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || key.kind === 'unsupported' || cert.publicKey.kind === 'unsupported') return 'unsupported';
  if (cert.publicKey.kind !== key.kind) return 'mismatch';
  const importAlg = key.kind === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', namedCurve: key.curve.name };
  const signAlg = key.kind === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
  if (cert.publicKey.kind === 'ec' && key.kind === 'ec' && cert.publicKey.curve !== key.curve) return 'mismatch';
  const priv = await subtle.importKey('pkcs8', ab(toPkcs8(keyDer, key)), importAlg, false, ['sign']);
  const pub = await subtle.importKey('spki', ab(cert.spki), importAlg, false, ['verify']);
  const probe = new TextEncoder().encode('mesh-workbench key pair probe');
  const sig = await subtle.sign(signAlg, priv, probe);
  return (await subtle.verify(signAlg, pub, sig, probe)) ? 'match' : 'mismatch';
}
