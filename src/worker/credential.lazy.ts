// The analyzers' view of core/pki/credential.ts in the browser worker (vite.config.ts swaps
// it in for their imports): the same functions, calling the real module once loaded.
// Certificate parsing (src/core/pki, @peculiar/x509, asn1js, reflect-metadata: about 65 KB
// gzip) then stays out of the worker's first chunk. Only gateway.SecretAnalyzer calls these,
// for a Secret a Gateway names, so the host loads the module before a run whose resources
// hold a Secret (libGates.ts). Called before that they throw, which the analyzer would take
// for an unusable certificate: the gate must not miss.
import type * as Credential from '../core/pki/credential.ts';
import { onDemand } from './onDemand.ts';

export const credentials = onDemand('Certificate parsing', () => import('../core/pki/credential.ts'));

export const extractCertInfo: typeof Credential.extractCertInfo = (...args) => credentials.get().extractCertInfo(...args);
export const validateGatewayCredential: typeof Credential.validateGatewayCredential = (...args) => credentials.get().validateGatewayCredential(...args);
