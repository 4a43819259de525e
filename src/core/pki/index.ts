// Certificate and key handling shared by the analyzers and the UI: pure TypeScript (no DOM,
// no Node APIs), so it runs the same in Node and in a Web Worker.
export { decodeBase64Std, encodeBase64Std } from './base64.ts';
export { decodePem, decodePemBundle, encodePem, type PemBlock } from './pem.ts';
export { parseCertificate, parseCertificates, validityProblem, CertificateParseError, type CertificateInfo } from './x509.ts';
export { parsePrivateKey, parseSubjectPublicKeyInfo, publicKeyOf, keyMatchesPublicKey, type PrivateKeyInfo, type PublicKeyInfo, type KeyMatch } from './keys.ts';
export { CURVES, publicPoint, type Curve } from './ec.ts';
export { extractCertAndKey, validateCertificateChain, validateGatewayCredential, checkKeyPair, type SecretData, type Result } from './credential.ts';
export { keyPairMatchesWithWebCrypto, toPkcs8 } from './webcrypto.ts';
