// Certificates, keys, CRLs and the checks Istio runs on them: pure TypeScript over
// @peculiar/x509 and WebCrypto (no DOM, no Node APIs), so it runs the same in the worker,
// the CLI and the tests. `inspect` is the entry point of the certificate views; the gateway
// analyzer uses the synchronous credential checks.
export { decodeBase64Std, encodeBase64Std } from './base64.ts';
export { decodePem, decodePemBundle, encodePem, scanPem, type PemBlock, type ScannedBlock } from './pem.ts';
export { parseCertificateDer, parseCertificatesDer, CertParseError, type Certificate, type CertificateFacts, type PublicKeyFacts } from './cert.ts';
export { parsePrivateKeyDer, privateKeyFacts, publicKeyOf, KeyParseError, type PrivateKey, type PrivateKeyFacts } from './keys.ts';
export { parseCrlDer, parseCsrDer, type Crl, type Csr } from './crl.ts';
export {
  extractCertInfo,
  extractCertAndKey,
  extractRoot,
  validateCertificateChain,
  validateGatewayCredential,
  type SecretData,
  type Result,
} from './credential.ts';
export { SignatureChecker } from './sig.ts';
export { CertPool, goVerify, type GoVerifyResult, type KeyUsageRequest } from './verify.ts';
export { PkiContext, checkKeyPair, keyCertBundleVerify, pluggedCaLoad, workloadVerify, parseRootCerts, type IstioVerdict, type CheckStep } from './istio.ts';
export { opensslVerify, type OpensslVerdict } from './openssl.ts';
export { decodeInputs, decodeValue, decodeKubeObject, type InputFile, type Decoded, type Value } from './input.ts';
export { inspect, inspectDecoded, humanSpan, type InspectOptions, type CredentialUser } from './inspect.ts';
export { LINTS, lintCertificate, bundleOrder, type Finding, type Profile, type CertRole } from './lints.ts';
export { completeCertificate } from './digest.ts';
export type * from './report.ts';
