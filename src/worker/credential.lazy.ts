// The analyzers' view of core/pki/credential.ts in the browser worker (vite.config.ts swaps
// it in for their imports): the same functions, calling the real module once
// `loadCredentials()` has imported it. Certificate parsing (src/core/pki, @peculiar/x509,
// asn1js, reflect-metadata: about 90 KB gzip) then stays out of the worker's first chunk.
// Only gateway.SecretAnalyzer calls these, for a Secret a Gateway names, so the host loads the
// module before a run whose resources hold a Secret (libGates.ts). Called before that they
// throw, which the analyzer would take for an unusable certificate: the gate must not miss.
import type * as Credential from '../core/pki/credential.ts';

let real: typeof Credential | undefined;
let loading: Promise<void> | undefined;

function loaded(): typeof Credential {
  if (!real) throw new Error('The certificate libraries are not loaded');
  return real;
}

export const extractCertInfo: typeof Credential.extractCertInfo = (...args) => loaded().extractCertInfo(...args);
export const validateGatewayCredential: typeof Credential.validateGatewayCredential = (...args) => loaded().validateGatewayCredential(...args);

/** Whether the real module is there. */
export function credentialsLoaded(): boolean {
  return real !== undefined;
}

/** Imports the real module once; a failed import (a chunk that did not arrive) is tried again next call. */
export function loadCredentials(): Promise<void> {
  loading ??= import('../core/pki/credential.ts').then(
    (m) => {
      real = m;
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}
