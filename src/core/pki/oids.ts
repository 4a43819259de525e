// Object identifiers the certificate views name, with the spellings openssl prints (the
// corpus facts use them) and the sets Go's crypto/x509 treats specially.

export const OID = {
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
  ed448: '1.3.101.113',
  x25519: '1.3.101.110',
  x448: '1.3.101.111',
  dsa: '1.2.840.10040.4.1',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  issuerAltName: '2.5.29.18',
  basicConstraints: '2.5.29.19',
  crlNumber: '2.5.29.20',
  crlReason: '2.5.29.21',
  nameConstraints: '2.5.29.30',
  crlDistributionPoints: '2.5.29.31',
  certificatePolicies: '2.5.29.32',
  policyMappings: '2.5.29.33',
  authorityKeyIdentifier: '2.5.29.35',
  policyConstraints: '2.5.29.36',
  extKeyUsage: '2.5.29.37',
  inhibitAnyPolicy: '2.5.29.54',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  anyExtendedKeyUsage: '2.5.29.37.0',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  netscapeSGC: '2.16.840.1.113730.4.1',
  microsoftSGC: '1.3.6.1.4.1.311.10.3.3',
  emailAddress: '1.2.840.113549.1.9.1',
  commonName: '2.5.4.3',
} as const;

export interface SignatureAlgorithmInfo {
  /** openssl's name (`sha256WithRSAEncryption`, `ecdsa-with-SHA256`). */
  name: string;
  /** Key type the algorithm needs. */
  key: 'RSA' | 'EC' | 'Ed25519' | 'Ed448' | 'DSA' | 'RSA-PSS';
  hash?: 'MD2' | 'MD5' | 'SHA-1' | 'SHA-224' | 'SHA-256' | 'SHA-384' | 'SHA-512';
  /** Go's name in its errors (`SHA1-RSA`, `ECDSA-SHA256`). */
  go: string;
}

export const SIGNATURE_ALGORITHMS: Readonly<Record<string, SignatureAlgorithmInfo>> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', key: 'RSA', hash: 'MD2', go: 'MD2-RSA' },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', key: 'RSA', hash: 'MD5', go: 'MD5-RSA' },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', key: 'RSA', hash: 'SHA-1', go: 'SHA1-RSA' },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', key: 'RSA', hash: 'SHA-224', go: 'SHA224-RSA' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', key: 'RSA', hash: 'SHA-256', go: 'SHA256-RSA' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', key: 'RSA', hash: 'SHA-384', go: 'SHA384-RSA' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', key: 'RSA', hash: 'SHA-512', go: 'SHA512-RSA' },
  '1.2.840.113549.1.1.10': { name: 'rsassaPss', key: 'RSA-PSS', go: 'RSASSA-PSS' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', key: 'EC', hash: 'SHA-1', go: 'ECDSA-SHA1' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', key: 'EC', hash: 'SHA-224', go: 'ECDSA-SHA224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', key: 'EC', hash: 'SHA-256', go: 'ECDSA-SHA256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', key: 'EC', hash: 'SHA-384', go: 'ECDSA-SHA384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', key: 'EC', hash: 'SHA-512', go: 'ECDSA-SHA512' },
  '1.3.101.112': { name: 'ED25519', key: 'Ed25519', go: 'Ed25519' },
  '1.3.101.113': { name: 'ED448', key: 'Ed448', go: 'Ed448' },
  '1.2.840.10040.4.3': { name: 'dsaWithSHA1', key: 'DSA', hash: 'SHA-1', go: 'DSA-SHA1' },
  '2.16.840.1.101.3.4.3.2': { name: 'dsa_with_SHA256', key: 'DSA', hash: 'SHA-256', go: 'DSA-SHA256' },
};

export interface CurveInfo {
  /** WebCrypto / NIST name where there is one. */
  name: string;
  /** openssl's short name (what the corpus calls `curveOid`). */
  openssl: string;
  bits: number;
}

export const CURVES: Readonly<Record<string, CurveInfo>> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', openssl: 'prime256v1', bits: 256 },
  '1.3.132.0.34': { name: 'P-384', openssl: 'secp384r1', bits: 384 },
  '1.3.132.0.35': { name: 'P-521', openssl: 'secp521r1', bits: 521 },
  '1.3.132.0.33': { name: 'P-224', openssl: 'secp224r1', bits: 224 },
  '1.3.132.0.10': { name: 'secp256k1', openssl: 'secp256k1', bits: 256 },
  '1.3.36.3.3.2.8.1.1.7': { name: 'brainpoolP256r1', openssl: 'brainpoolP256r1', bits: 256 },
  '1.3.36.3.3.2.8.1.1.11': { name: 'brainpoolP384r1', openssl: 'brainpoolP384r1', bits: 384 },
  '1.3.36.3.3.2.8.1.1.13': { name: 'brainpoolP512r1', openssl: 'brainpoolP512r1', bits: 512 },
};

/** Key usage bits in order (RFC 5280 §4.2.1.3), as openssl and zlint name them. */
export const KEY_USAGE_BITS = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;
export type KeyUsageName = (typeof KEY_USAGE_BITS)[number];

export const EXT_KEY_USAGES: Readonly<Record<string, string>> = {
  '2.5.29.37.0': 'anyExtendedKeyUsage',
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.5': 'ipsecEndSystem',
  '1.3.6.1.5.5.7.3.6': 'ipsecTunnel',
  '1.3.6.1.5.5.7.3.7': 'ipsecUser',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
  '2.16.840.1.113730.4.1': 'nsSGC',
  '1.3.6.1.4.1.311.10.3.3': 'msSGC',
};

/** Extension names as openssl's `-text` prints them. */
export const EXTENSION_NAMES: Readonly<Record<string, string>> = {
  '2.5.29.9': 'X509v3 Subject Directory Attributes',
  '2.5.29.14': 'X509v3 Subject Key Identifier',
  '2.5.29.15': 'X509v3 Key Usage',
  '2.5.29.16': 'X509v3 Private Key Usage Period',
  '2.5.29.17': 'X509v3 Subject Alternative Name',
  '2.5.29.18': 'X509v3 Issuer Alternative Name',
  '2.5.29.19': 'X509v3 Basic Constraints',
  '2.5.29.20': 'X509v3 CRL Number',
  '2.5.29.21': 'X509v3 CRL Reason Code',
  '2.5.29.24': 'Invalidity Date',
  '2.5.29.27': 'X509v3 Delta CRL Indicator',
  '2.5.29.28': 'X509v3 Issuing Distribution Point',
  '2.5.29.29': 'X509v3 Certificate Issuer',
  '2.5.29.30': 'X509v3 Name Constraints',
  '2.5.29.31': 'X509v3 CRL Distribution Points',
  '2.5.29.32': 'X509v3 Certificate Policies',
  '2.5.29.33': 'X509v3 Policy Mappings',
  '2.5.29.35': 'X509v3 Authority Key Identifier',
  '2.5.29.36': 'X509v3 Policy Constraints',
  '2.5.29.37': 'X509v3 Extended Key Usage',
  '2.5.29.46': 'X509v3 Freshest CRL',
  '2.5.29.54': 'X509v3 Inhibit Any Policy',
  '1.3.6.1.5.5.7.1.1': 'Authority Information Access',
  '1.3.6.1.5.5.7.1.11': 'Subject Information Access',
  '1.3.6.1.5.5.7.1.24': 'TLS Feature',
  '1.3.6.1.4.1.11129.2.4.2': 'CT Precertificate SCTs',
  '1.3.6.1.4.1.11129.2.4.3': 'CT Precertificate Poison',
  '2.16.840.1.113730.1.1': 'Netscape Cert Type',
  '2.16.840.1.113730.1.13': 'Netscape Comment',
  '1.3.6.1.4.1.311.20.2': 'Microsoft Certificate Template Name',
  '1.3.6.1.4.1.311.21.1': 'Microsoft CA Version',
};

/**
 * Extensions Go's crypto/x509 understands; any other extension marked critical ends up in
 * UnhandledCriticalExtensions, and Verify then fails ("unhandled critical extension").
 */
export const GO_HANDLED_EXTENSIONS: ReadonlySet<string> = new Set([
  '2.5.29.14',
  '2.5.29.15',
  '2.5.29.17',
  '2.5.29.19',
  '2.5.29.30',
  '2.5.29.31',
  '2.5.29.32',
  '2.5.29.33',
  '2.5.29.35',
  '2.5.29.36',
  '2.5.29.37',
  '2.5.29.54',
  '1.3.6.1.5.5.7.1.1',
]);

/** DN attribute short names (openssl `-nameopt sname`). */
export const DN_SHORT_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.13': 'description',
  '2.5.4.15': 'businessCategory',
  '2.5.4.17': 'postalCode',
  '2.5.4.41': 'name',
  '2.5.4.42': 'GN',
  '2.5.4.43': 'initials',
  '2.5.4.44': 'generationQualifier',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.65': 'pseudonym',
  '2.5.4.97': 'organizationIdentifier',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '1.3.6.1.4.1.311.60.2.1.1': 'jurisdictionL',
  '1.3.6.1.4.1.311.60.2.1.2': 'jurisdictionST',
  '1.3.6.1.4.1.311.60.2.1.3': 'jurisdictionC',
};

/** The attribute names Go's pkix RDNSequence.String knows (others print as `oid=#hex`). */
export const GO_DN_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.6': 'C',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.3': 'CN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.17': 'POSTALCODE',
};
