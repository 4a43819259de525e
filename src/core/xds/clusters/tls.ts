// Upstream TLS of a cluster (cluster_tls.go): the DestinationRule's TLS, auto mTLS, SNI and SANs.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { ClientTLSSettings, TrafficPolicy } from '../../config/api/networking.ts';
import type { Service } from '../pushContext.ts';
import { RAW_BUFFER_SOCKET, UPSTREAM_TLS_TYPE } from '../filters.ts';
import { sdsSecretConfig, credentialSdsConfig, credentialSdsConfigs, SDS_DEFAULT, SDS_ROOT, orderCommon } from '../tlsContext.ts';
import { namespaceMtlsMode } from '../peerAuthn.ts';
import { str } from '../../document/read.ts';
import type { MtlsMode } from '../pushContext.ts';
import { type ClusterWrapper, isH2Cluster } from './builder.ts';

interface TlsChoice {
  tls: ClientTLSSettings | undefined;
  auto: boolean;
}

function istioMutual(sans: readonly string[], sni: string, insecure?: boolean): ClientTLSSettings {
  return {
    mode: 'ISTIO_MUTUAL',
    clientCertificate: '',
    privateKey: '',
    caCertificates: '',
    credentialName: '',
    subjectAltNames: sans,
    sni,
    ...(insecure !== undefined ? { insecureSkipVerify: insecure } : { insecureSkipVerify: undefined }),
    caCrl: '',
  };
}

/** buildUpstreamTLSSettings: the DR's TLS, or auto-mTLS (ISTIO_MUTUAL) when the service accepts mTLS. */
export function upstreamTlsSettings(
  tls: ClientTLSSettings | undefined,
  serviceAccounts: readonly string[],
  sni: string,
  autoMtls: boolean,
  meshExternal: boolean,
  mode: MtlsMode,
): TlsChoice {
  if (tls) {
    if (tls.mode === 'DISABLE' || tls.mode === 'SIMPLE' || tls.mode !== 'ISTIO_MUTUAL') return { tls, auto: false };
    return { tls: istioMutual(tls.subjectAltNames.length > 0 ? tls.subjectAltNames : serviceAccounts, tls.sni || sni, tls.insecureSkipVerify), auto: false };
  }
  if (meshExternal || !autoMtls || mode === 'UNKNOWN' || mode === 'DISABLE') return { tls: undefined, auto: false };
  return { tls: istioMutual(serviceAccounts, sni), auto: true };
}

function setAutoSniAndSan(w: ClusterWrapper, tls: ClientTLSSettings): void {
  const insecure = tls.insecureSkipVerify === true;
  const autoSni = tls.sni === '';
  const autoSan = autoSni && tls.subjectAltNames.length === 0 && !insecure;
  if (autoSni || autoSan) {
    w.httpOptions ??= {};
    const u = (w.httpOptions.upstreamHttpProtocolOptions ??= {}) as Json;
    if (autoSni) u.autoSni = true;
    if (autoSan) u.autoSanValidation = true;
  }
}

/** buildUpstreamClusterTLSContext. */
export function upstreamTlsContext(
  ctx: GenContext,
  w: ClusterWrapper,
  tls: ClientTLSSettings,
  opts: { isDrWithSelector: boolean; registry: string; serviceAccounts: readonly string[] },
): Json | undefined {
  const privileged = tls.credentialName !== '' && !tls.credentialName.startsWith('configmap://');
  if (privileged && ctx.proxy.type === 'sidecar' && !opts.isDrWithSelector && (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL')) return undefined;
  if (tls.mode === 'DISABLE') return undefined;
  const common: Json = { tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_2', tlsMaximumProtocolVersion: 'TLSv1_3' } };
  const ctxJson: Json = { '@type': UPSTREAM_TLS_TYPE, commonTlsContext: common };
  if (tls.mode === 'ISTIO_MUTUAL') {
    common.tlsCertificateSdsSecretConfigs = [sdsSecretConfig(SDS_DEFAULT)];
    const dvc: Json = {};
    if (tls.subjectAltNames.length > 0) dvc.matchSubjectAltNames = tls.subjectAltNames.map((s) => ({ exact: s }));
    common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(SDS_ROOT) };
    ctxJson.sni = tls.sni || (w.c.name as string);
    const mx = ctx.features.PILOT_ENABLE_METADATA_EXCHANGE;
    common.alpnProtocols = isH2Cluster(w) ? (mx ? ['istio-peer-exchange', 'istio', 'h2'] : ['istio', 'h2']) : mx ? ['istio-peer-exchange', 'istio'] : ['istio'];
  } else {
    if (tls.sni !== '') ctxJson.sni = tls.sni;
    setAutoSniAndSan(w, tls);
    let sans = tls.subjectAltNames;
    if (opts.registry === 'External' && sans.length === 0) sans = opts.serviceAccounts;
    if (tls.credentialName !== '') {
      if (tls.mode === 'MUTUAL') common.tlsCertificateSdsSecretConfigs = credentialSdsConfigs([tls.credentialName], ctx.push.externalSds);
      if (tls.insecureSkipVerify !== true) {
        const dvc: Json = {};
        if (sans.length > 0) dvc.matchSubjectAltNames = sans.map((s) => ({ exact: s }));
        common.combinedValidationContext = {
          defaultValidationContext: dvc,
          validationContextSdsSecretConfig: credentialSdsConfig(`${tls.credentialName}-cacert`, ctx.push.externalSds),
        };
      }
    } else {
      const ca = tls.caCertificates || 'system';
      if (tls.mode === 'MUTUAL') {
        if (tls.clientCertificate === '' || tls.privateKey === '') return undefined;
        common.tlsCertificateSdsSecretConfigs = [sdsSecretConfig(`file-cert:${tls.clientCertificate}~${tls.privateKey}`)];
      }
      if (tls.insecureSkipVerify === true) common.validationContext = {};
      else {
        const dvc: Json = {};
        if (sans.length > 0) dvc.matchSubjectAltNames = sans.map((s) => ({ exact: s }));
        if (tls.caCrl !== '') dvc.crl = { filename: tls.caCrl };
        common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(`file-root:${ca}`) };
      }
    }
    if (isH2Cluster(w)) common.alpnProtocols = ['h2'];
  }
  ctxJson.commonTlsContext = orderCommon(common);
  return ctxJson;
}

export function applyUpstreamTls(
  ctx: GenContext,
  w: ClusterWrapper,
  choice: TlsChoice,
  opts: { isDrWithSelector: boolean; registry: string; serviceAccounts: readonly string[] },
): void {
  if (!choice.tls) return;
  const tlsCtx = upstreamTlsContext(ctx, w, choice.tls, opts);
  if (tlsCtx) w.c.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: tlsCtx };
  const autoDetected = choice.tls.mode === 'ISTIO_MUTUAL' && choice.auto;
  if (w.c.type !== 'ORIGINAL_DST' && autoDetected) {
    const ts = w.c.transportSocket;
    delete w.c.transportSocket;
    w.c.transportSocketMatches = [
      { name: 'tlsMode-istio', match: { tlsMode: 'istio' }, transportSocket: ts },
      { name: 'tlsMode-disabled', match: {}, transportSocket: RAW_BUFFER_SOCKET },
    ];
  }
}

/** BestEffortInferServiceMTLSMode. */
export function inferServiceMtlsMode(ctx: GenContext, tp: TrafficPolicy | undefined, svc: Service, port: number): MtlsMode {
  if (svc.meshExternal) return 'UNKNOWN';
  const lb = tp?.loadBalancer;
  if (svc.resolution === 'Passthrough' || (lb && str(lb.simple) === 'PASSTHROUGH')) {
    // push_context.go BestEffortInferServiceMTLSMode: ServiceEndpointsByPort.
    const eps = ctx.push.serviceEndpointsByPort(svc, port);
    if (eps.length === 0) return 'DISABLE';
    if (eps.some((e) => e.ep.tlsMode === 'disabled')) return 'DISABLE';
  }
  const m = namespaceMtlsMode(ctx.push, svc.namespace);
  return m !== 'UNKNOWN' ? m : 'PERMISSIVE';
}
