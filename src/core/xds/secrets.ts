// SDS secrets of a generated proxy: the resource names its listeners and clusters ask for
// (`default`, `ROOTCA`, `kubernetes://<credentialName>`, `…-cacert`, `file-cert:`/`file-root:`),
// and what istiod would answer for each (pilot/pkg/xds/sds.go SecretGen.generate with
// credentials.ParseResourceName and the credentials controller's GetCertInfo / GetCaCert).
// A credential whose Secret (or ConfigMap) is in the workspace becomes the Envoy Secret istiod
// would send, certificate bytes inline (as a real /config_dump shows them) and the private key
// replaced by Envoy's `[redacted]` marker; Istio's own certificates are issued at run time and
// appear by name only. A credential istiod cannot serve stays warming, as in Envoy.
import type { ConfigView } from '../config/configView.ts';
import { secretData } from '../config/secrets.ts';
import { KINDS } from '../document/kinds.ts';
import type { Resource } from '../document/types.ts';
import { isObj } from '../document/read.ts';
import { encodeBase64Std } from '../pki/base64.ts';
import { extractCertInfo, extractRoot, type SecretData } from '../pki/credential.ts';
import type { Json, Proxy } from './types.ts';
import { SDS_DEFAULT, SDS_ROOT } from './tlsContext.ts';

const SECRET_TYPE = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret';
/** What Envoy's admin writes in place of private key bytes (base64 of `[redacted]`). */
export const REDACTED_BYTES = 'W3JlZGFjdGVkXQ==';
const CA_SUFFIX = '-cacert';

export type SecretSource = 'istiod' | 'credential' | 'file' | 'external' | 'invalid' | 'unknown';

/** One SDS resource of a proxy and where its content comes from. */
export interface ProxySecret {
  /** SDS resource name, as Envoy asks for it. */
  name: string;
  source: SecretSource;
  /** `cert` (key and certificate chain) or `root` (a trusted CA). */
  role: 'cert' | 'root';
  /** Credentials: the object istiod reads (resolved namespace). */
  ref?: { kind: 'Secret' | 'ConfigMap'; namespace: string; name: string };
  /** The workspace resource read (its store key), when found. */
  resourceKey?: string;
  /** Whether istiod could serve it from the workspace (credentials only). */
  served: boolean;
  /** One sentence: where the certificate comes from, or why istiod would not send it. */
  note: string;
  /** The Envoy Secret (proto JSON with `@type`): certificates inline when known, else the name only. */
  secret: Json;
}

function textBytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function configMapData(cm: Resource): SecretData {
  const out = new Map<string, Uint8Array>();
  const data = cm.body.data;
  if (isObj(data)) for (const k of Object.keys(data)) if (typeof data[k] === 'string') out.set(k, textBytes(data[k] as string));
  return out;
}

interface Parsed {
  type: 'kubernetes' | 'kubernetes-gateway' | 'configmap';
  namespace: string;
  name: string;
}

/** credentials.ParseResourceName for the types istiod resolves from the cluster. */
function parseCredential(resourceName: string, proxyNamespace: string): Parsed | { error: string } | undefined {
  const cut = (p: string) => (resourceName.startsWith(p) ? resourceName.slice(p.length) : undefined);
  const k = cut('kubernetes://');
  if (k !== undefined) {
    const parts = k.split('/');
    return parts.length > 1
      ? { type: 'kubernetes', namespace: parts[0]!, name: parts[1]! }
      : { type: 'kubernetes', namespace: proxyNamespace, name: parts[0]! };
  }
  for (const [prefix, type] of [
    ['configmap://', 'configmap'],
    ['kubernetes-gateway://', 'kubernetes-gateway'],
  ] as const) {
    const rest = cut(prefix);
    if (rest === undefined) continue;
    const parts = rest.split('/');
    if (parts.length <= 1) return { error: `invalid resource name "${resourceName}": expected namespace and name` };
    if (parts[0] === '') return { error: `invalid resource name "${resourceName}": expected namespace` };
    if (parts[1] === '') return { error: `invalid resource name "${resourceName}": expected name` };
    return { type, namespace: parts[0]!, name: parts[1]! };
  }
  return undefined;
}

function b64(bytes: Uint8Array): string {
  return encodeBase64Std(bytes);
}

function credentialSecret(view: ConfigView, name: string, p: Parsed): ProxySecret {
  const caOnly = p.name.endsWith(CA_SUFFIX);
  const role = p.type === 'configmap' || caOnly ? 'root' : 'cert';
  const base = { name, source: 'credential' as const, role: role as 'cert' | 'root' };
  const nameOnly = { '@type': SECRET_TYPE, name };
  if (p.type === 'configmap') {
    const stripped = p.name.endsWith(CA_SUFFIX) ? p.name.slice(0, -CA_SUFFIX.length) : p.name;
    const cm = view.find(KINDS.ConfigMap, p.namespace, stripped);
    const ref = { kind: 'ConfigMap' as const, namespace: p.namespace, name: stripped };
    if (!cm)
      return {
        ...base,
        ref,
        served: false,
        note: `ConfigMap ${p.namespace}/${stripped} is not in the workspace: istiod would not send this secret, so it stays warming.`,
        secret: nameOnly,
      };
    const root = extractRoot(configMapData(cm));
    if (!root.ok)
      return {
        ...base,
        ref,
        resourceKey: cm.key,
        served: false,
        note: `istiod cannot read a CA from ConfigMap ${p.namespace}/${stripped} (${root.error}), so it stays warming.`,
        secret: nameOnly,
      };
    return {
      ...base,
      ref,
      resourceKey: cm.key,
      served: true,
      note: `CA certificate from ConfigMap ${p.namespace}/${stripped} (key ${root.value.keys.cert}).`,
      secret: { ...nameOnly, validationContext: { trustedCa: { inlineBytes: b64(root.value.cert) } } },
    };
  }
  if (caOnly) {
    // GetCaCert: the `-cacert` Secret itself, else the Secret without the suffix.
    let secret = view.find(KINDS.Secret, p.namespace, p.name);
    if (!secret || secretData(secret) === undefined) secret = view.find(KINDS.Secret, p.namespace, p.name.slice(0, -CA_SUFFIX.length));
    const shown = secret?.name ?? p.name.slice(0, -CA_SUFFIX.length);
    const ref = { kind: 'Secret' as const, namespace: p.namespace, name: shown };
    const data = secret ? secretData(secret) : undefined;
    if (!secret || !data)
      return {
        ...base,
        ref,
        served: false,
        note: `Secret ${p.namespace}/${shown} is not in the workspace: istiod would not send this secret, so it stays warming.`,
        secret: nameOnly,
      };
    const root = extractRoot(data);
    if (!root.ok)
      return {
        ...base,
        ref,
        resourceKey: secret.key,
        served: false,
        note: `istiod cannot read a CA from Secret ${p.namespace}/${shown} (${root.error}), so it stays warming.`,
        secret: nameOnly,
      };
    const vc: Json = { trustedCa: { inlineBytes: b64(root.value.cert) } };
    if (root.value.crl) vc.crl = { inlineBytes: b64(root.value.crl) };
    return {
      ...base,
      ref,
      resourceKey: secret.key,
      served: true,
      note: `CA certificate from Secret ${p.namespace}/${shown} (key ${root.value.keys.cert}).`,
      secret: { ...nameOnly, validationContext: vc },
    };
  }
  const secret = view.find(KINDS.Secret, p.namespace, p.name);
  const ref = { kind: 'Secret' as const, namespace: p.namespace, name: p.name };
  const data = secret ? secretData(secret) : undefined;
  if (!secret || !data)
    return {
      ...base,
      ref,
      served: false,
      note: `Secret ${p.namespace}/${p.name} is not in the workspace: istiod would not send this secret, so it stays warming.`,
      secret: nameOnly,
    };
  const info = extractCertInfo(data);
  if (!info.ok)
    return {
      ...base,
      ref,
      resourceKey: secret.key,
      served: false,
      note: `istiod cannot read a key and certificate from Secret ${p.namespace}/${p.name} (${info.error}), so it stays warming.`,
      secret: nameOnly,
    };
  const tls: Json = { certificateChain: { inlineBytes: b64(info.value.cert) }, privateKey: { inlineBytes: REDACTED_BYTES } };
  if (info.value.staple) tls.ocspStaple = { inlineBytes: b64(info.value.staple) };
  return {
    ...base,
    ref,
    resourceKey: secret.key,
    served: true,
    note: `Certificate chain and key from Secret ${p.namespace}/${p.name} (keys ${info.value.keys.cert}, ${info.value.keys.key}); the key is shown redacted, as Envoy does.`,
    secret: { ...nameOnly, tlsCertificate: tls },
  };
}

/**
 * What istiod would send for one SDS resource name requested by `proxy`. `external`: the
 * resources the proxy fetches from an SDS extension provider (externalSdsResources), by the
 * cluster of that server; istiod sends none of those.
 */
export function resolveProxySecret(view: ConfigView, proxy: Pick<Proxy, 'namespace'>, name: string, external?: ReadonlyMap<string, string>): ProxySecret {
  const nameOnly = { '@type': SECRET_TYPE, name };
  const server = external?.get(name);
  if (server !== undefined) {
    return {
      name,
      source: 'external',
      role: name.endsWith('-cacert') ? 'root' : 'cert',
      served: true,
      note: `Fetched by the proxy from the SDS extension provider's server (cluster ${server}) at run time, not from istiod (not in the workspace).`,
      secret: nameOnly,
    };
  }
  if (name === SDS_DEFAULT) {
    return {
      name,
      source: 'istiod',
      role: 'cert',
      served: true,
      note: "The workload certificate: the proxy's key and a certificate istiod's CA signs at run time (not in the workspace).",
      secret: nameOnly,
    };
  }
  if (name === SDS_ROOT) {
    return {
      name,
      source: 'istiod',
      role: 'root',
      served: true,
      note: "The mesh's root certificate, sent by istiod at run time (not in the workspace).",
      secret: nameOnly,
    };
  }
  if (name.startsWith('file-cert:')) {
    const [cert, key] = name.slice('file-cert:'.length).split('~');
    return {
      name,
      source: 'file',
      role: 'cert',
      served: true,
      note: `Read from files mounted in the proxy (${cert ?? ''}${key ? `, ${key}` : ''}) by its SDS server at run time (not in the workspace).`,
      secret: nameOnly,
    };
  }
  if (name.startsWith('file-root:')) {
    return {
      name,
      source: 'file',
      role: 'root',
      served: true,
      note: `Read from a file mounted in the proxy (${name.slice('file-root:'.length)}) by its SDS server at run time (not in the workspace).`,
      secret: nameOnly,
    };
  }
  if (name.startsWith('invalid://')) {
    return {
      name,
      source: 'invalid',
      role: 'cert',
      served: false,
      note: 'A certificate that is never valid: the credential was refused when the config was built.',
      secret: nameOnly,
    };
  }
  const parsed = parseCredential(name, proxy.namespace);
  if (!parsed) return { name, source: 'unknown', role: 'cert', served: false, note: 'Not a resource name istiod resolves from the cluster.', secret: nameOnly };
  if ('error' in parsed) return { name, source: 'credential', role: 'cert', served: false, note: `istiod refuses it: ${parsed.error}.`, secret: nameOnly };
  return credentialSecret(view, name, parsed);
}

/** Every SDS secret config the listeners' chains and the clusters' transport sockets hold, in order. */
function forEachSdsConfig(listeners: readonly Json[], clusters: readonly Json[], visit: (config: Json) => void): void {
  const fromSocket = (socket: unknown) => {
    if (!isObj(socket) || !isObj(socket.typedConfig)) return;
    const common = socket.typedConfig.commonTlsContext;
    if (!isObj(common)) return;
    for (const c of Array.isArray(common.tlsCertificateSdsSecretConfigs) ? common.tlsCertificateSdsSecretConfigs : []) if (isObj(c)) visit(c);
    if (isObj(common.validationContextSdsSecretConfig)) visit(common.validationContextSdsSecretConfig);
    if (isObj(common.combinedValidationContext) && isObj(common.combinedValidationContext.validationContextSdsSecretConfig))
      visit(common.combinedValidationContext.validationContextSdsSecretConfig);
  };
  for (const l of listeners) {
    for (const c of Array.isArray(l.filterChains) ? l.filterChains : []) if (isObj(c)) fromSocket(c.transportSocket);
    if (isObj(l.defaultFilterChain)) fromSocket(l.defaultFilterChain.transportSocket);
  }
  for (const c of clusters) {
    fromSocket(c.transportSocket);
    for (const m of Array.isArray(c.transportSocketMatches) ? c.transportSocketMatches : []) if (isObj(m)) fromSocket(m.transportSocket);
  }
}

/** The SDS resources asked for over gRPC from a server other than istio-agent's (sds-grpc): an SDS extension provider's, by its cluster. */
export function externalSdsResources(listeners: readonly Json[], clusters: readonly Json[]): Map<string, string> {
  const out = new Map<string, string>();
  forEachSdsConfig(listeners, clusters, (c) => {
    const api = isObj(c.sdsConfig) && isObj(c.sdsConfig.apiConfigSource) ? c.sdsConfig.apiConfigSource : undefined;
    const grpc =
      api && Array.isArray(api.grpcServices) && isObj(api.grpcServices[0]) && isObj(api.grpcServices[0].envoyGrpc) ? api.grpcServices[0].envoyGrpc : undefined;
    if (typeof c.name === 'string' && grpc && typeof grpc.clusterName === 'string' && grpc.clusterName !== 'sds-grpc') out.set(c.name, grpc.clusterName);
  });
  return out;
}

/** SDS resource names the listeners' chains and the clusters' transport sockets ask for, in first-seen order. */
export function sdsResourceNames(listeners: readonly Json[], clusters: readonly Json[]): string[] {
  const out = new Set<string>();
  forEachSdsConfig(listeners, clusters, (c) => {
    if (typeof c.name === 'string') out.add(c.name);
  });
  return [...out];
}
