// The few globals src/core may use: every place core runs (browser tab, Web Worker, Node 20)
// provides them. tsconfig.core.json compiles core against these alone, without DOM or Node.

declare function setTimeout(callback: (value?: unknown) => void, ms?: number): unknown;

declare const performance: { now(): number };

/** Two connected ports: a message posted on one arrives at the other in a new task (core/nextTask.ts). */
declare class MessageChannel {
  readonly port1: CoreMessagePort;
  readonly port2: CoreMessagePort;
}

interface CoreMessagePort {
  onmessage: ((event: unknown) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

interface CoreCryptoKey {
  readonly type: string;
}

interface CoreJsonWebKey {
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

interface CoreSubtleCrypto {
  importKey(format: string, keyData: ArrayBuffer | CoreJsonWebKey, algorithm: object, extractable: boolean, usages: string[]): Promise<CoreCryptoKey>;
  exportKey(format: 'jwk', key: CoreCryptoKey): Promise<CoreJsonWebKey>;
  exportKey(format: 'pkcs8' | 'spki' | 'raw', key: CoreCryptoKey): Promise<ArrayBuffer>;
  generateKey(algorithm: object, extractable: boolean, usages: string[]): Promise<{ publicKey: CoreCryptoKey; privateKey: CoreCryptoKey }>;
  digest(algorithm: string, data: ArrayBuffer | Uint8Array): Promise<ArrayBuffer>;
  sign(algorithm: object, key: CoreCryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: object, key: CoreCryptoKey, signature: ArrayBuffer, data: Uint8Array): Promise<boolean>;
}

declare var crypto: { readonly subtle?: CoreSubtleCrypto; getRandomValues?(array: Uint8Array): Uint8Array } | undefined;
