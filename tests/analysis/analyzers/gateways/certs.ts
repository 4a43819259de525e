// Test certificates generated on the fly (never checked in): WebCrypto keys, certificates
// from @peculiar/x509's generator, and the PKCS#1 / SEC1 encodings from node:crypto.
import 'reflect-metadata';
import { createPrivateKey, webcrypto } from 'node:crypto';
import { X509CertificateGenerator, cryptoProvider } from '@peculiar/x509';

cryptoProvider.set(webcrypto as unknown as Crypto);

export type KeyAlg = 'rsa' | 'P-256' | 'P-384' | 'P-521';

export interface TestCredential {
  certPem: string;
  /** PKCS#8 `PRIVATE KEY`. */
  keyPem: string;
  /** PKCS#1 `RSA PRIVATE KEY` or SEC1 `EC PRIVATE KEY`. */
  legacyKeyPem: string;
}

const DAY = 24 * 3600 * 1000;

function algorithms(alg: KeyAlg): { gen: RsaHashedKeyGenParams | EcKeyGenParams; sign: Algorithm | EcdsaParams } {
  if (alg === 'rsa') {
    return {
      gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      sign: { name: 'RSASSA-PKCS1-v1_5' },
    };
  }
  return { gen: { name: 'ECDSA', namedCurve: alg }, sign: { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams };
}

function pem(type: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${type}-----\n${b64}\n-----END ${type}-----\n`;
}

export async function makeCredential(opts: { alg?: KeyAlg; notBefore?: Date; notAfter?: Date; cn?: string } = {}): Promise<TestCredential> {
  const alg = opts.alg ?? 'P-256';
  const { gen, sign } = algorithms(alg);
  const keys = (await webcrypto.subtle.generateKey(gen, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    name: `CN=${opts.cn ?? 'test.example.com'}`,
    notBefore: opts.notBefore ?? new Date(now - DAY),
    notAfter: opts.notAfter ?? new Date(now + 30 * DAY),
    signingAlgorithm: { ...sign, hash: 'SHA-256' },
    keys,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const keyPem = pem('PRIVATE KEY', pkcs8);
  const legacy = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' }).export({
    type: alg === 'rsa' ? 'pkcs1' : 'sec1',
    format: 'pem',
  }) as string;
  return { certPem: cert.toString('pem') + '\n', keyPem, legacyKeyPem: legacy };
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');
export const DAY_MS = DAY;
