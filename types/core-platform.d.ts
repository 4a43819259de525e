// The few globals src/core may use: every place core runs (browser tab, Web Worker, Node 20)
// provides them. tsconfig.core.json compiles core against these alone, without DOM or Node.

declare function setTimeout(callback: (value?: unknown) => void, ms?: number): unknown;

declare const performance: { now(): number };

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}

interface CoreCryptoKey {
  readonly type: string;
}

interface CoreSubtleCrypto {
  importKey(format: string, keyData: ArrayBuffer, algorithm: object, extractable: boolean, usages: string[]): Promise<CoreCryptoKey>;
  sign(algorithm: object, key: CoreCryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: object, key: CoreCryptoKey, signature: ArrayBuffer, data: Uint8Array): Promise<boolean>;
}

declare var crypto: { readonly subtle?: CoreSubtleCrypto } | undefined;
