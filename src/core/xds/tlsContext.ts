// TLS contexts and SDS secret configs (pilot/pkg/security/model/authentication.go,
// authn/utils BuildInboundTLS, listener.go BuildListenerTLSContext, cluster_tls.go).
import type { Json, Proxy } from './types.ts';
import type { MeshSettings } from './mesh.ts';
import type { ServerTLSSettings } from '../config/api/networking.ts';
import { DOWNSTREAM_TLS_TYPE, TLS_TRANSPORT_SOCKET } from './filters.ts';
import type { ExternalSds } from './externalSds.ts';

export const SDS_DEFAULT = 'default';
export const SDS_ROOT = 'ROOTCA';

/** An SDS config source over gRPC to a cluster (istio-agent's sds-grpc, or an SDS extension provider's, with its host as the authority). */
function grpcSdsSource(clusterName: string, authority?: string): Json {
  return {
    apiConfigSource: {
      apiType: 'GRPC',
      transportApiVersion: 'V3',
      grpcServices: [{ envoyGrpc: { clusterName, ...(authority !== undefined ? { authority } : {}) } }],
      setNodeOnFirstMessageOnly: true,
    },
    resourceApiVersion: 'V3',
  };
}

const SDS_GRPC_SOURCE: Json = grpcSdsSource('sds-grpc');

/** model.ConstructSdsSecretConfig: `default`/`ROOTCA` (with a 0s initial fetch timeout) or a file resource via sds-grpc. */
export function sdsSecretConfig(name: string): Json | undefined {
  if (name === '') return undefined;
  // Shared between the resources that use it: generated config is never mutated once built.
  let c = SDS_CONFIGS.get(name);
  if (!c) {
    c =
      name === SDS_DEFAULT || name === SDS_ROOT ? { name, sdsConfig: { ...SDS_GRPC_SOURCE, initialFetchTimeout: '0s' } } : { name, sdsConfig: SDS_GRPC_SOURCE };
    if (SDS_CONFIGS.size < 1024) SDS_CONFIGS.set(name, c);
  }
  return c;
}

const SDS_CONFIGS = new Map<string, Json>();

/** credentials.ToResourceName. */
export function credentialResourceName(name: string): string {
  if (name.startsWith('builtin://')) return 'default';
  if (name.startsWith('invalid://')) return 'invalid://';
  if (name.startsWith('configmap://') || name.startsWith('kubernetes://') || name.startsWith('kubernetes-gateway://')) return name;
  return `kubernetes://${name}`;
}

/**
 * ConstructSdsSecretConfigForCredential: credentials are fetched over ADS, but `sds://<resource>`
 * from the mesh's SDS extension provider when it has one (see externalSds.ts).
 */
export function credentialSdsConfig(name: string, externalSds?: ExternalSds): Json | undefined {
  if (name === '') return undefined;
  if (name === 'builtin://') return sdsSecretConfig(SDS_DEFAULT);
  if (name === 'builtin://-cacert') return sdsSecretConfig(SDS_ROOT);
  if (name.startsWith('sds://')) {
    name = name.slice('sds://'.length);
    if (externalSds) {
      if ('error' in externalSds) return undefined;
      return { name, sdsConfig: grpcSdsSource(externalSds.cluster, externalSds.hostname) };
    }
  }
  return { name: credentialResourceName(name), sdsConfig: { ads: {}, resourceApiVersion: 'V3' } };
}

/** The SDS configs of credentials; one istiod makes none for is a nil entry, which protojson prints as `{}`. */
export function credentialSdsConfigs(names: readonly string[], externalSds: ExternalSds | undefined): Json[] {
  return names.map((n) => credentialSdsConfig(n, externalSds) ?? {});
}

function exactMatchers(sans: readonly string[]): Json[] {
  return sans.map((s) => ({ exact: s }));
}

/** ApplyToCommonTLSContext for Istio's own certificates (or file certificates named in proxy metadata). */
function applyToCommonTlsContext(
  ctx: Json,
  certResource: string,
  rootResource: string,
  sans: readonly string[],
  trustDomains: readonly string[],
  validateClient: boolean,
  crl = '',
  allowInsecure = false,
): void {
  ctx.tlsCertificateSdsSecretConfigs = [sdsSecretConfig(certResource || SDS_DEFAULT)];
  const matchers = [...exactMatchers(sans), ...trustDomains.map((td) => ({ prefix: `spiffe://${td}/` }))];
  if (validateClient) {
    const dvc: Json = {};
    if (matchers.length > 0) dvc.matchSubjectAltNames = matchers;
    if (crl !== '') dvc.crl = { filename: crl };
    if (allowInsecure) dvc.trustChainVerification = 'ACCEPT_UNTRUSTED';
    ctx.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(rootResource || SDS_ROOT) };
  }
}

const SUPPORTED_CIPHERS = [
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'AES256-GCM-SHA384',
  'AES128-GCM-SHA256',
];

/** authn_utils.BuildInboundTLS: the mTLS context of an inbound chain (undefined for DISABLE). */
export function inboundMtlsContext(
  mode: string,
  tcp: boolean,
  mesh: MeshSettings,
  trustDomains: readonly string[],
  metadataExchange: boolean,
): Json | undefined {
  if (mode === 'DISABLE' || mode === 'UNKNOWN') return undefined;
  const common: Json = { alpnProtocols: tcp && metadataExchange ? ['istio-peer-exchange', 'h2', 'http/1.1'] : ['h2', 'http/1.1'] };
  common.tlsParams = {
    tlsMinimumProtocolVersion: mesh.meshMtlsMinProtocolVersion === 'TLSV1_3' ? 'TLSv1_3' : 'TLSv1_2',
    tlsMaximumProtocolVersion: 'TLSv1_3',
    cipherSuites: mesh.meshMtlsCipherSuites ?? SUPPORTED_CIPHERS,
  };
  applyToCommonTlsContext(common, SDS_DEFAULT, SDS_ROOT, [], trustDomains, true);
  return { '@type': DOWNSTREAM_TLS_TYPE, commonTlsContext: orderCommon(common), requireClientCertificate: true };
}

/** CommonTlsContext fields in proto order (tls_params 1, tls_certificate_sds 6, combined 8, alpn 4 …). */
function orderCommon(c: Json): Json {
  const order = ['tlsParams', 'tlsCertificates', 'tlsCertificateSdsSecretConfigs', 'validationContext', 'combinedValidationContext', 'alpnProtocols'];
  const out: Json = {};
  for (const k of order) if (c[k] !== undefined) out[k] = c[k];
  for (const k of Object.keys(c)) if (!(k in out)) out[k] = c[k];
  return out;
}

function tlsVersion(v: string): string | undefined {
  switch (v) {
    case 'TLSV1_0':
      return 'TLSv1_0';
    case 'TLSV1_1':
      return 'TLSv1_1';
    case 'TLSV1_2':
      return 'TLSv1_2';
    case 'TLSV1_3':
      return 'TLSv1_3';
    default:
      return undefined;
  }
}

/** BuildListenerTLSContext: a gateway server's (or Sidecar ingress) DownstreamTlsContext. */
export function listenerTlsContext(
  tls: ServerTLSSettings,
  proxy: Proxy,
  mesh: MeshSettings,
  gatewayTcpServerWithTermination: boolean,
  metadataExchange: boolean,
  externalSds?: ExternalSds,
): Json {
  let alpn = ['h2', 'http/1.1'];
  if (tls.mode === 'ISTIO_MUTUAL' && gatewayTcpServerWithTermination) alpn = metadataExchange ? ['istio-peer-exchange', 'h2', 'http/1.1'] : ['h2', 'http/1.1'];
  const common: Json = { alpnProtocols: alpn };
  const requireClient = tls.mode === 'MUTUAL' || tls.mode === 'ISTIO_MUTUAL';
  const validateClient = requireClient || tls.mode === 'OPTIONAL_MUTUAL';
  if (tls.mode === 'ISTIO_MUTUAL') {
    applyToCommonTlsContext(common, SDS_DEFAULT, SDS_ROOT, tls.subjectAltNames, [], validateClient, tls.caCrl, tls.insecureSkipVerify === true);
  } else if (tls.credentialNames.length > 0 || tls.credentialName !== '') {
    let caCert = `${tls.credentialName}-cacert`;
    if (tls.credentialNames.length > 0) {
      common.tlsCertificateSdsSecretConfigs = credentialSdsConfigs(tls.credentialNames, externalSds);
      caCert = `${tls.credentialNames[0]}-cacert`;
    } else common.tlsCertificateSdsSecretConfigs = credentialSdsConfigs([tls.credentialName], externalSds);
    if (tls.caCertCredentialName !== '') caCert = tls.caCertCredentialName;
    if (tls.mode === 'MUTUAL' || tls.mode === 'OPTIONAL_MUTUAL') {
      const dvc: Json = {};
      if (tls.subjectAltNames.length > 0) dvc.matchSubjectAltNames = exactMatchers(tls.subjectAltNames);
      if (tls.verifyCertificateSpki.length > 0) dvc.verifyCertificateSpki = tls.verifyCertificateSpki;
      if (tls.verifyCertificateHash.length > 0) dvc.verifyCertificateHash = tls.verifyCertificateHash;
      if (tls.insecureSkipVerify === true) dvc.trustChainVerification = 'ACCEPT_UNTRUSTED';
      common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: credentialSdsConfig(caCert, externalSds) };
    } else if (tls.subjectAltNames.length > 0) {
      common.validationContext = { matchSubjectAltNames: exactMatchers(tls.subjectAltNames) };
    }
  } else {
    const cert = tls.serverCertificate !== '' && tls.privateKey !== '' ? `file-cert:${tls.serverCertificate}~${tls.privateKey}` : '';
    const root = tls.caCertificates !== '' ? `file-root:${tls.caCertificates}` : '';
    applyToCommonTlsContext(common, cert, root, tls.subjectAltNames, [], validateClient, tls.caCrl, tls.insecureSkipVerify === true);
  }
  if (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL' || tls.mode === 'OPTIONAL_MUTUAL') {
    const params: Json = {};
    const min = tlsVersion(tls.minProtocolVersion);
    if (min) params.tlsMinimumProtocolVersion = min;
    const max = tlsVersion(tls.maxProtocolVersion);
    if (max) params.tlsMaximumProtocolVersion = max;
    if (tls.cipherSuites.length > 0) params.cipherSuites = tls.cipherSuites;
    if (tls.ecdhCurves.length > 0) params.ecdhCurves = tls.ecdhCurves;
    if (Object.keys(params).length > 0) common.tlsParams = params;
  }
  void proxy;
  void mesh;
  return { '@type': DOWNSTREAM_TLS_TYPE, commonTlsContext: orderCommon(common), requireClientCertificate: requireClient };
}

/** A downstream TLS transport socket around a context. */
export function downstreamTlsSocket(ctx: Json | undefined): Json | undefined {
  return ctx ? { name: TLS_TRANSPORT_SOCKET, typedConfig: ctx } : undefined;
}

export { orderCommon };
