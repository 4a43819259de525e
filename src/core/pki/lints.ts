// Lint checks beyond Istio's own (spec §3): each has an id, a severity (some depend on the
// role the certificate plays, and the "production" profile raises the best-practice ones),
// a one-line reason, the Istio impact and the zlint rule that says the same, if any.
import type { Certificate } from './cert.ts';
import type { Severity } from './input.ts';
import { OID } from './oids.ts';
import { trustDomainAccepted } from './spiffe.ts';

export type Profile = 'default' | 'production';

/** What a certificate is used as, for role-dependent severities. */
export type CertRole =
  | 'root'
  | 'intermediate'
  | 'signing-cert'
  | 'plugin-ca-path'
  | 'workload'
  | 'gateway-server'
  | 'gateway-client-ca'
  | 'trust-bundle'
  | 'leaf'
  | 'unknown';

export interface LintInfo {
  title: string;
  impact: string;
  zlint?: string;
}

export const LINTS: Record<string, LintInfo> = {
  CERT_EXPIRED: { title: 'expired', impact: 'Go rejects it; a gateway credential gets IST0161; istiod reports "cert chain has expired"' },
  CERT_NOT_YET_VALID: { title: 'not yet valid', impact: 'Go rejects it until notBefore (Istio backdates its own certificates by 2 minutes; clock skew?)' },
  VALIDITY_NOT_POSITIVE: { title: 'notAfter is not after notBefore', impact: 'never valid', zlint: 'e_validity_time_not_positive' },
  TIME_ENCODING_WRONG: {
    title: 'UTCTime/GeneralizedTime used on the wrong side of 2050',
    impact: 'strict parsers reject it',
    zlint: 'e_wrong_time_format_pre2050',
  },
  SERIAL_NOT_POSITIVE: {
    title: 'serial number is zero or negative',
    impact: 'Go 1.23+ refuses negative serials: the certificate silently drops out of root bundles',
    zlint: 'e_serial_number_not_positive',
  },
  SERIAL_TOO_LONG: { title: 'serial number longer than 20 octets', impact: 'some parsers refuse it', zlint: 'e_serial_number_longer_than_20_octets' },
  SERIAL_LOW_ENTROPY: { title: 'serial number with fewer than 8 significant bytes', impact: 'hints at a hand-made CA (serial 0 or 1)' },
  NOT_V3: {
    title: 'not an X.509 v3 certificate',
    impact: 'Go sets IsCA=false for v1, so istiod refuses it as a signing cert',
    zlint: 'e_invalid_certificate_version',
  },
  GO_PARSE_REJECTS: { title: "Go's x509.ParseCertificate refuses it", impact: 'the certificate is invisible to Istio', zlint: 'e_ext_duplicate_extension' },
  SIG_SHA1: { title: 'signed with SHA-1', impact: 'Go refuses to verify it', zlint: 'e_sub_cert_or_sub_ca_using_sha1' },
  SIG_MD5: { title: 'signed with MD5', impact: 'Go refuses to verify it' },
  SIG_SHA1_SELF_SIGNED: { title: 'SHA-1 self-signature on a root', impact: 'never checked by Go; harmless for a trust anchor' },
  RSA_KEY_LT_2048: {
    title: 'RSA key under 2048 bits',
    impact: "Istio won't generate these; Go refuses keys under 1024 bits",
    zlint: 'e_rsa_mod_less_than_2048_bits',
  },
  EC_CURVE_NOT_P256_P384: {
    title: 'EC curve other than P-256/P-384',
    impact: 'Istio only generates P-256/P-384; istiod downgrades other CA curves to P-256',
    zlint: 'e_ec_improper_curves',
  },
  KEY_TYPE_NOT_RSA_OR_EC: {
    title: 'key type other than RSA or ECDSA',
    impact: "Istio never generates these; an Ed25519 plug-in CA loads but istiod's own cert falls back to RSA-2048",
  },
  CA_BC_NOT_CRITICAL: { title: 'CA with non-critical BasicConstraints', impact: 'RFC 5280 requires it critical', zlint: 'e_basic_constraints_not_critical' },
  CA_KU_MISSING: { title: 'CA without KeyUsage', impact: 'RFC/CABF profile', zlint: 'e_ca_key_usage_missing' },
  CA_KU_NO_CERTSIGN: {
    title: 'CA KeyUsage without keyCertSign',
    impact: "Go's CheckSignatureFrom refuses it as an issuer",
    zlint: 'e_ca_key_cert_sign_not_set',
  },
  CA_KU_NO_CRLSIGN: {
    title: 'CA KeyUsage without cRLSign',
    impact: 'Go refuses CRLs from it: a plug-in CA with a CRL fails with "missing CRL signed by certificates"',
    zlint: 'e_ca_crl_sign_not_set',
  },
  CA_KU_NOT_CRITICAL: { title: 'CA KeyUsage not critical', impact: 'profile', zlint: 'e_ca_key_usage_not_critical' },
  CA_KU_ENCIPHERMENT: {
    title: 'CA with key/dataEncipherment',
    impact: "Istio's tools/certs Makefiles produce exactly this",
    zlint: 'e_rsa_allowed_ku_no_encipherment_ca',
  },
  CA_SKI_MISSING: {
    title: 'CA without Subject Key Identifier',
    impact: 'path builders and AKI matching need it',
    zlint: 'e_ext_subject_key_identifier_missing_ca',
  },
  CA_SUBJECT_EMPTY: { title: 'CA with an empty subject', impact: 'RFC 5280 MUST; Go still links it', zlint: 'e_ca_subject_field_empty' },
  CA_EKU_PRESENT: { title: 'CA carries ExtendedKeyUsage', impact: 'constrains everything below it', zlint: 'n_sub_ca_eku_missing' },
  CA_EKU_EXCLUDES_SERVERAUTH: {
    title: 'CA EKU without serverAuth',
    impact: "keycertbundle.Verify checks for serverAuth: istiod won't start with it in the plug-in CA path",
  },
  ROOT_PATHLEN_PRESENT: { title: 'self-signed root with pathLen', impact: 'profile', zlint: 'w_root_ca_basic_constraints_path_len_constraint_field_present' },
  PATHLEN_WITHOUT_CA: { title: 'pathLen on a non-CA', impact: 'RFC 5280', zlint: 'e_path_len_constraint_improperly_included' },
  SELF_SIGNED_WITHOUT_BC: { title: 'v3 self-signed without BasicConstraints', impact: 'Go cannot use it to verify anything' },
  LEAF_KU_CERTSIGN: { title: 'non-CA with keyCertSign or cRLSign', impact: 'RFC 5280', zlint: 'e_sub_cert_key_usage_cert_sign_bit_set' },
  LEAF_SAN_MISSING: {
    title: 'leaf without Subject Alternative Name',
    impact: "Envoy and Go ignore CN for names; Istio's identity lives in the SAN",
    zlint: 'e_ext_san_missing',
  },
  LEAF_EKU_MISSING: {
    title: 'leaf without ExtendedKeyUsage',
    impact: 'accepted by Go and Envoy; Istio-issued certs always have serverAuth and clientAuth',
    zlint: 'e_sub_cert_eku_missing',
  },
  LEAF_EKU_NO_SERVERAUTH: { title: 'leaf EKU without serverAuth', impact: 'a mesh certificate is used as a TLS server' },
  LEAF_EKU_NO_CLIENTAUTH: { title: 'leaf EKU without clientAuth', impact: 'mesh mTLS clients present this certificate' },
  LEAF_EC_KEYENCIPHERMENT: {
    title: 'EC leaf with keyEncipherment',
    impact: "meaningless for EC (RFC 8813), but Istio's CA sets it on every ECDSA workload cert",
    zlint: 'e_ecdsa_allowed_ku',
  },
  LEAF_SKI_MISSING: {
    title: 'leaf without Subject Key Identifier',
    impact: 'expected for Istio-issued certs',
    zlint: 'w_ext_subject_key_identifier_missing_sub_cert',
  },
  LEAF_VALIDITY_GT_90D: {
    title: 'leaf valid for more than 90 days',
    impact: "above Istio's MAX_WORKLOAD_CERT_TTL: Istio's CA would refuse it; file-mounted certs are never rotated",
  },
  SAN_NOT_CRITICAL_WITH_EMPTY_SUBJECT: {
    title: 'empty subject and non-critical SAN',
    impact: 'RFC 5280 MUST; Istio marks it critical',
    zlint: 'e_ext_san_not_critical_without_subject',
  },
  SUBJECT_AND_SAN_EMPTY: { title: 'no subject and no SAN', impact: 'an identity-less certificate', zlint: 'e_subject_empty_without_san' },
  AKI_MISSING: {
    title: 'no Authority Key Identifier',
    impact: 'slower, ambiguous path building; re-issued CAs become indistinguishable',
    zlint: 'e_ext_authority_key_identifier_no_key_identifier',
  },
  MULTIPLE_URI_SANS: {
    title: 'more than one URI SAN',
    impact: "istiod's secure gRPC server rejects such client certs; istioctl shows the last spiffe:// URI's trust domain",
  },
  SPIFFE_NOT_ISTIO_FORMAT: {
    title: 'spiffe:// URI not of the form /ns/<ns>/sa/<sa>',
    impact: 'Istio cannot parse the identity; authorization cannot match it',
  },
  URI_SAN_NOT_SPIFFE: { title: 'URI SAN with another scheme', impact: 'legacy istio: identities, for example' },
  DNS_SAN_INVALID: {
    title: 'DNS SAN with characters outside letters, digits, -, _ and a leading *.',
    impact: 'Envoy SAN matching fails',
    zlint: 'e_dnsname_bad_character_in_label',
  },
  CN_NOT_IN_SAN: { title: 'CN not among the SANs', impact: 'clients ignore CN', zlint: 'e_subject_common_name_not_from_san' },
  SELF_ISSUED_NOT_SELF_SIGNED: { title: 'subject equals issuer, but signed by another key', impact: 'OpenSSL-based tools misreport it as self-signed' },
  TRUST_DOMAIN_MISMATCH: { title: "SPIFFE trust domain is not the mesh's trust domain or an alias", impact: "authorization policies won't match" },
  CERT_EXPIRES_SOON: { title: 'expires soon', impact: 'lead time: a CA with less than 30 days left, a leaf past its rotation point (50% of its lifetime)' },
  NAME_CONSTRAINTS_NOT_CRITICAL: { title: 'Name Constraints not critical', impact: 'RFC 5280 MUST', zlint: 'e_ext_name_constraints_not_critical' },
  UNKNOWN_CRITICAL_EXTENSION: { title: "critical extension Go doesn't handle", impact: 'Go rejects every chain through it' },
  // Chain and bundle checks.
  SIGNATURE_INVALID: { title: 'signature does not verify', impact: 'the name matches but the issuer key did not sign this certificate' },
  CHAIN_INCOMPLETE: { title: 'no path to a trusted root', impact: 'peers cannot build the chain' },
  CHAIN_ROOT_NOT_TRUSTED: { title: 'chain ends at a root that is not in the trust bundle', impact: 'cert-chain.pem root differs from root-cert.pem' },
  ISSUER_NOT_CA: { title: 'issuer is not a CA', impact: 'Go: "certificate is not authorized to sign other certificates"' },
  PATHLEN_EXCEEDED: { title: 'path length constraint exceeded', impact: 'Go: "too many intermediates for path length constraint"' },
  NAME_CONSTRAINT_VIOLATION: { title: "a name is outside a CA's name constraints", impact: 'Go rejects the chain' },
  EKU_CHAIN_INCOMPATIBLE: {
    title: 'EKUs along the chain leave no usable purpose',
    impact: 'keycertbundle.Verify needs serverAuth; mesh leaves need clientAuth and serverAuth',
  },
  AKI_SKI_MISMATCH: { title: "AKI differs from the issuer's SKI", impact: 'Go still links them; many other path builders do not' },
  ISSUER_EXPIRES_BEFORE_CHILD: {
    title: 'issuer expires before the certificate it signed',
    impact: 'for a plug-in CA, workload certificates are clamped to the CA end',
  },
  CHILD_STARTS_BEFORE_ISSUER: { title: 'certificate valid from before its issuer', impact: 'worth knowing' },
  BUNDLE_DUPLICATE_CERT: { title: 'the same certificate twice in one file', impact: 'harmless for Go, confusing for people' },
  BUNDLE_REVERSE_ORDER: {
    title: 'root-first chain file',
    impact: 'Istio takes the first cert of cert-chain.pem as the CA cert for expiry and TTL clamping, and sends the chain in file order',
  },
  BUNDLE_UNORDERED_OR_UNRELATED: { title: 'certificates neither leaf-first nor root-first, or unrelated', impact: 'peers receive the chain in file order' },
  ROOT_NOT_SELF_SIGNED: { title: 'trust anchor that is not self-signed', impact: 'Go accepts a partial trust anchor' },
  CHAIN_CONTAINS_ROOT: { title: 'cert-chain.pem includes the root', impact: 'normal for Istio; it is sent on the wire' },
  CHAIN_MISSING_SIGNING_CERT: {
    title: 'cert-chain.pem does not contain ca-cert.pem',
    impact: 'workloads receive leaf + cert-chain.pem + root without their issuer',
  },
  CHAIN_FIRST_NOT_SIGNING_CERT: { title: 'ca-cert.pem is in cert-chain.pem but not first', impact: 'the metrics and TTL clamp track the wrong certificate' },
  TLS_CRT_NO_TRAILING_NEWLINE: {
    title: 'tls.crt does not end with a newline',
    impact: 'istiod concatenates tls.crt and ca.crt and then finds no PEM block (TTL step fails)',
  },
  PEM_BLOCK_SKIPPED_BY_GO: { title: "a PEM block Go's decoder skips", impact: 'Istio silently uses the next block or ignores it' },
  // Keys.
  KEY_MISMATCH: { title: 'private key does not match the certificate', impact: 'Istio: "the cert does not match the key"' },
  KEY_UNSUPPORTED_PEM_TYPE: { title: "a key block type Istio can't read", impact: 'Istio reads EC, RSA and PKCS#8 keys only' },
  KEY_ENCRYPTED: { title: 'encrypted private key', impact: 'Istio cannot read encrypted keys' },
  KEY_REDACTED: { title: 'key redacted by Envoy', impact: 'key checks skipped' },
  KEY_REDACTED_IN_LINK: { title: 'key redacted in this link', impact: 'the share link left the key out: key checks skipped' },
  KEY_WEAK: { title: 'weak key', impact: 'same thresholds as the certificate key lints' },
  // CRLs.
  CRL_NOT_SIGNED_BY_CHAIN: { title: 'CRL not signed by the CA next to it', impact: 'Istio fails to load a plug-in CA whose chain certificates signed no CRL' },
  CRL_ISSUER_NO_CRLSIGN: { title: 'CRL issuer may not sign CRLs', impact: "Go's RevocationList.CheckSignatureFrom refuses it" },
  CRL_EXPIRED: { title: 'CRL past its nextUpdate', impact: 'Istio does not check this; Envoy may reject stale CRLs' },
  CRL_REVOKES_INPUT: { title: 'a certificate of the input is revoked', impact: 'Envoy rejects it when the CRL is configured' },
};

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  /** What it is about: a certificate (sha256), a value (origin label), a chain, a key, a CRL. */
  subject: { kind: 'certificate' | 'value' | 'chain' | 'key' | 'crl' | 'scenario'; id: string; label?: string };
}

export interface LintContext {
  now: Date;
  roles: ReadonlySet<CertRole>;
  profile: Profile;
  trustDomain?: string;
  aliases?: readonly string[];
}

const DAY = 86400000;

function bump(sev: Severity, profile: Profile): Severity {
  return profile === 'production' && sev === 'info' ? 'warning' : sev;
}

/** A DNS SAN Envoy can match: LDH labels (underscore tolerated), an optional leading `*.`. */
function validDnsName(name: string): boolean {
  const n = name.startsWith('*.') ? name.slice(2) : name;
  if (n === '' || n.length > 253) return false;
  return n.split('.').every((l, i, all) => (l.length > 0 || (i === all.length - 1 && all.length > 1)) && l.length <= 63 && /^[A-Za-z0-9_-]*$/.test(l));
}

/** The per-certificate lints (spec §3.1) of one certificate in the roles it plays. */
export function lintCertificate(c: Certificate, ctx: LintContext): Array<{ id: string; severity: Severity; detail?: string }> {
  const f = c.facts;
  const out: Array<{ id: string; severity: Severity; detail?: string }> = [];
  const add = (id: string, severity: Severity, detail?: string) => out.push({ id, severity: bump(severity, ctx.profile), detail });
  const now = ctx.now.getTime();
  const isCA = f.isCA;
  const leaf = !isCA && f.version === 3;
  const workload = ctx.roles.has('workload');
  const gateway = ctx.roles.has('gateway-server');
  const pluginPath = ctx.roles.has('signing-cert') || ctx.roles.has('plugin-ca-path');
  const lifetime = c.notAfter.getTime() - c.notBefore.getTime();

  if (now > c.notAfter.getTime()) add('CERT_EXPIRED', 'error', `expired ${f.notAfter}`);
  if (now < c.notBefore.getTime())
    add('CERT_NOT_YET_VALID', 'error', c.notBefore.getTime() - now <= 5 * 60000 ? `valid from ${f.notBefore} (clock skew?)` : `valid from ${f.notBefore}`);
  if (lifetime <= 0) add('VALIDITY_NOT_POSITIVE', 'error');
  if (!f.timeEncodingRfc5280) add('TIME_ENCODING_WRONG', 'error');
  if (f.serialNegative) add('SERIAL_NOT_POSITIVE', 'error', `negative serial ${f.serialHex}`);
  else if (/^0+$/.test(f.serialHex)) add('SERIAL_NOT_POSITIVE', 'warning', 'serial 0');
  if (f.serialDerOctets > 20) add('SERIAL_TOO_LONG', 'error', `${f.serialDerOctets} octets`);
  const significant = f.serialHex.replace(/^-/, '').replace(/^(00)+/, '').length / 2;
  if (significant < 8) add('SERIAL_LOW_ENTROPY', 'info', `${Math.ceil(significant)} significant byte(s)`);
  if (f.version !== 3) add('NOT_V3', pluginPath && ctx.roles.has('signing-cert') ? 'error' : 'warning', `version ${f.version}`);
  if (f.goParseExpectation !== 'ok') add('GO_PARSE_REJECTS', 'error', f.goParseExpectation);
  const sha1 = /sha1|SHA1/.test(f.signatureAlgorithm);
  const md5 = /md5|md2/i.test(f.signatureAlgorithm);
  if (f.selfSigned) {
    if (sha1) add('SIG_SHA1_SELF_SIGNED', 'info');
  } else {
    if (sha1) add('SIG_SHA1', 'error');
    if (md5) add('SIG_MD5', 'error');
  }
  const pk = f.publicKey;
  if ((pk.type === 'RSA' || pk.type === 'RSA-PSS') && pk.bits < 2048) add('RSA_KEY_LT_2048', pk.bits < 1024 ? 'error' : 'warning', `${pk.bits} bits`);
  if (pk.type === 'EC' && pk.curve !== 'P-256' && pk.curve !== 'P-384') add('EC_CURVE_NOT_P256_P384', 'warning', pk.curve);
  if (pk.type !== 'RSA' && pk.type !== 'EC') add('KEY_TYPE_NOT_RSA_OR_EC', 'warning', pk.type);

  const ku = f.keyUsage;
  const eku = f.extKeyUsage;
  if (isCA) {
    if (!f.basicConstraints.critical) add('CA_BC_NOT_CRITICAL', 'warning');
    if (!ku.present) add('CA_KU_MISSING', 'warning');
    else {
      if (!ku.usages.includes('keyCertSign')) add('CA_KU_NO_CERTSIGN', 'error');
      if (!ku.critical) add('CA_KU_NOT_CRITICAL', 'warning');
      if (ku.usages.includes('keyEncipherment') || ku.usages.includes('dataEncipherment')) add('CA_KU_ENCIPHERMENT', 'info');
      // Raised to an error by the inspection when a CRL this CA signed is supplied.
      if (!ku.usages.includes('cRLSign')) add('CA_KU_NO_CRLSIGN', 'info');
    }
    if (!f.subjectKeyIdentifier) add('CA_SKI_MISSING', 'warning');
    if (f.subjectEmpty) add('CA_SUBJECT_EMPTY', 'warning');
    if (eku.present) {
      add('CA_EKU_PRESENT', 'info', eku.usages.join(', '));
      // Go's checkChainForKeyUsage: serverAuth itself or anyExtendedKeyUsage (SGC no longer counts).
      const serverOk = c.ekuOids.some((o) => o === OID.serverAuth || o === OID.anyExtendedKeyUsage);
      if (!serverOk) add('CA_EKU_EXCLUDES_SERVERAUTH', pluginPath ? 'error' : 'info');
    }
    if (f.selfSigned && f.basicConstraints.pathLen !== null) add('ROOT_PATHLEN_PRESENT', 'info', `pathLen ${f.basicConstraints.pathLen}`);
  } else if (f.basicConstraints.present && f.basicConstraints.pathLen !== null) add('PATHLEN_WITHOUT_CA', 'error');
  if (f.version === 3 && f.selfSigned && !f.basicConstraints.present) add('SELF_SIGNED_WITHOUT_BC', 'warning');

  const san = f.subjectAltName;
  const sanCount = san.dns.length + san.uri.length + san.ip.length + san.email.length + san.other.length;
  if (leaf) {
    if (ku.usages.includes('keyCertSign') || ku.usages.includes('cRLSign')) add('LEAF_KU_CERTSIGN', 'error');
    if (!san.present) add('LEAF_SAN_MISSING', workload || gateway ? 'error' : 'warning');
    if (!eku.present) add('LEAF_EKU_MISSING', 'info');
    else {
      const has = (o: string) => c.ekuOids.includes(o) || c.ekuOids.includes(OID.anyExtendedKeyUsage);
      if (!has(OID.serverAuth)) add('LEAF_EKU_NO_SERVERAUTH', workload || gateway ? 'error' : 'info');
      if (!has(OID.clientAuth)) add('LEAF_EKU_NO_CLIENTAUTH', workload ? 'error' : 'info');
    }
    if (pk.type === 'EC' && ku.usages.includes('keyEncipherment')) add('LEAF_EC_KEYENCIPHERMENT', 'info');
    if (!f.subjectKeyIdentifier) add('LEAF_SKI_MISSING', 'info');
    if (lifetime > 90 * DAY) add('LEAF_VALIDITY_GT_90D', workload ? 'warning' : 'info', `${Math.round(lifetime / DAY)} days`);
    if (f.subjectCommonName !== null && sanCount > 0) {
      const cn = f.subjectCommonName.toLowerCase();
      const all = [...san.dns, ...san.ip, ...san.email, ...san.uri].map((s) => s.toLowerCase());
      if (!all.includes(cn)) add('CN_NOT_IN_SAN', 'info', `CN=${f.subjectCommonName}`);
    }
  }
  if (f.subjectEmpty && san.present && !san.critical) add('SAN_NOT_CRITICAL_WITH_EMPTY_SUBJECT', 'error');
  if (f.subjectEmpty && sanCount === 0) add('SUBJECT_AND_SAN_EMPTY', 'error');
  if (!f.selfIssued && !f.authorityKeyIdentifier) add('AKI_MISSING', 'warning');
  if (san.uri.length > 1) add('MULTIPLE_URI_SANS', 'warning', `${san.uri.length} URI SANs`);
  for (const id of f.spiffe) {
    if (!id.istioIdentityFormat) add('SPIFFE_NOT_ISTIO_FORMAT', 'warning', id.uri);
    else if (ctx.trustDomain !== undefined && !trustDomainAccepted(id.trustDomain, ctx.trustDomain, ctx.aliases ?? [])) {
      add('TRUST_DOMAIN_MISMATCH', 'error', `${id.trustDomain} is not ${[ctx.trustDomain, ...(ctx.aliases ?? [])].join(' or ')}`);
    }
  }
  const otherUri = san.uri.filter((u) => !u.startsWith('spiffe://'));
  if (otherUri.length > 0) add('URI_SAN_NOT_SPIFFE', 'info', otherUri.join(', '));
  const badDns = san.dns.filter((d) => !validDnsName(d));
  if (badDns.length > 0) add('DNS_SAN_INVALID', 'error', badDns.join(', '));
  if (f.selfIssued && !f.selfSigned) add('SELF_ISSUED_NOT_SELF_SIGNED', 'info');
  if (now <= c.notAfter.getTime() && now >= c.notBefore.getTime()) {
    const left = c.notAfter.getTime() - now;
    if (isCA && left < 30 * DAY) add('CERT_EXPIRES_SOON', 'warning', `${Math.ceil(left / DAY)} days left`);
    else if (!isCA && workload && now > c.notBefore.getTime() + lifetime / 2)
      add('CERT_EXPIRES_SOON', 'warning', 'past its rotation point (50% of the lifetime)');
  }
  if (f.nameConstraints.present && !f.nameConstraints.critical) add('NAME_CONSTRAINTS_NOT_CRITICAL', 'error');
  if (f.unhandledCriticalExtensions.length > 0) add('UNKNOWN_CRITICAL_EXTENSION', 'error', f.unhandledCriticalExtensions.join(', '));
  return out;
}

/** The lint ids of §3.1 marked † (what the corpus lists per certificate, role-free). */
export const CORPUS_CERT_LINTS: ReadonlySet<string> = new Set([
  'CERT_EXPIRED',
  'CERT_NOT_YET_VALID',
  'VALIDITY_NOT_POSITIVE',
  'TIME_ENCODING_WRONG',
  'SERIAL_NOT_POSITIVE',
  'SERIAL_TOO_LONG',
  'SERIAL_LOW_ENTROPY',
  'NOT_V3',
  'GO_PARSE_REJECTS',
  'SIG_SHA1',
  'SIG_MD5',
  'SIG_SHA1_SELF_SIGNED',
  'RSA_KEY_LT_2048',
  'EC_CURVE_NOT_P256_P384',
  'KEY_TYPE_NOT_RSA_OR_EC',
  'CA_BC_NOT_CRITICAL',
  'CA_KU_MISSING',
  'CA_KU_NO_CERTSIGN',
  'CA_KU_NO_CRLSIGN',
  'CA_KU_NOT_CRITICAL',
  'CA_KU_ENCIPHERMENT',
  'CA_SKI_MISSING',
  'CA_SUBJECT_EMPTY',
  'CA_EKU_PRESENT',
  'CA_EKU_EXCLUDES_SERVERAUTH',
  'ROOT_PATHLEN_PRESENT',
  'PATHLEN_WITHOUT_CA',
  'SELF_SIGNED_WITHOUT_BC',
  'LEAF_KU_CERTSIGN',
  'LEAF_SAN_MISSING',
  'LEAF_EKU_MISSING',
  'LEAF_EKU_NO_SERVERAUTH',
  'LEAF_EKU_NO_CLIENTAUTH',
  'LEAF_EC_KEYENCIPHERMENT',
  'LEAF_SKI_MISSING',
  'LEAF_VALIDITY_GT_90D',
  'SAN_NOT_CRITICAL_WITH_EMPTY_SUBJECT',
  'SUBJECT_AND_SAN_EMPTY',
  'AKI_MISSING',
  'MULTIPLE_URI_SANS',
  'SPIFFE_NOT_ISTIO_FORMAT',
  'URI_SAN_NOT_SPIFFE',
  'DNS_SAN_INVALID',
  'CN_NOT_IN_SAN',
  'SELF_ISSUED_NOT_SELF_SIGNED',
]);

export type BundleLink = 'next-issues-this' | 'this-issues-next' | 'unrelated' | 'duplicate';

export interface BundleOrder {
  adjacentLinks: BundleLink[];
  order: string;
  duplicateFingerprints: string[];
  lints: string[];
}

/**
 * The order of the certificates of one file: each adjacent pair is "the next one issued
 * this" (leaf-first), "this one issued the next" (root-first), a duplicate, or unrelated.
 * `issued(a, b)` says whether a's key signed b (names match and the signature verifies).
 */
export function bundleOrder(certs: Certificate[], issued: (issuer: Certificate, child: Certificate) => boolean): BundleOrder {
  const links: BundleLink[] = [];
  for (let i = 0; i + 1 < certs.length; i++) {
    const a = certs[i]!;
    const b = certs[i + 1]!;
    if (a.facts.sha256FingerprintHex === b.facts.sha256FingerprintHex) links.push('duplicate');
    else if (issued(b, a)) links.push('next-issues-this');
    else if (issued(a, b)) links.push('this-issues-next');
    else links.push('unrelated');
  }
  const seen = new Map<string, number>();
  for (const c of certs) seen.set(c.facts.sha256FingerprintHex, (seen.get(c.facts.sha256FingerprintHex) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([h]) => h);
  const lints: string[] = [];
  if (duplicates.length > 0) lints.push('BUNDLE_DUPLICATE_CERT');
  const real = links.filter((l) => l !== 'duplicate');
  let order: string;
  if (certs.every((c) => c.facts.selfSigned)) order = 'set of self-signed roots (order irrelevant)';
  else if (real.length > 0 && real.every((l) => l === 'next-issues-this')) order = 'leaf-first (each certificate is followed by its issuer)';
  else if (real.length > 0 && real.every((l) => l === 'this-issues-next')) {
    order = 'root-first (reverse order)';
    lints.push('BUNDLE_REVERSE_ORDER');
  } else {
    order = 'unordered or unrelated certificates';
    lints.push('BUNDLE_UNORDERED_OR_UNRELATED');
  }
  return { adjacentLinks: links, order, duplicateFingerprints: duplicates, lints };
}
