// TLS of a listener and of a Gateway's backend connections: certificate and CA references → credential
// names, with ReferenceGrants across namespaces; the modes and cipher suites read from options
// (conversion.go buildTLS, buildSecretReference, buildCaCertificateReference, resolveGatewayTLS,
// validateBackendClientCertificateRef).
import {
  type ConfigError,
  type GwObject,
  type Json,
  bundleHasCertificate,
  configMapData,
  extractCertInfo,
  extractRoot,
  isObject,
  joinErrors,
  list,
  num,
  obj,
  optStr,
  secretData,
  spec,
  str,
  stringRecord,
  x509KeyPairError,
} from './objects.ts';
import type { ConversionContext } from './context.ts';
import { GK_CONFIGMAP, GK_GATEWAY, GK_LISTENERSET, GK_NONE, GK_SECRET, gkEq, normalizeRef } from './groupKinds.ts';
import { secretAllowed } from './referenceGrants.ts';
import { VALID_CIPHER_SUITES } from '../cipherSuites.ts';

export function buildTLS(
  ctx: ConversionContext,
  gatewayTLS: Json | undefined,
  tls: Json | undefined,
  gw: GwObject,
  autoPassthrough: boolean,
): { tls?: Json; error?: ConfigError } {
  if (!tls) return {};
  const out: Json = {};
  const mode = optStr(tls.mode) ?? 'Terminate';
  const namespace = gw.namespace;
  const options = stringRecord(tls.options);
  const ownKind = gw.kind === 'ListenerSet' ? GK_LISTENERSET : GK_GATEWAY;
  if (mode === 'Terminate') {
    out.mode = 'SIMPLE';
    const tm = options['gateway.istio.io/tls-terminate-mode'];
    if (tm === 'MUTUAL') out.mode = 'MUTUAL';
    else if (tm === 'OPTIONAL_MUTUAL') out.mode = 'OPTIONAL_MUTUAL';
    else if (tm === 'ISTIO_SIMPLE') return { tls: { mode: 'SIMPLE', credentialName: 'builtin://' } };
    else if (tm === 'ISTIO_MUTUAL') return { tls: { mode: 'ISTIO_MUTUAL' } };
    const refs = list(tls.certificateRefs).map(obj);
    if (refs.length > 2) return { tls: out, error: { reason: 'InvalidCertificateRef', message: 'TLS mode can only support up to 2 server certificates' } };
    const names: string[] = refs.map(() => '');
    let valid = 0;
    let combined: ConfigError | undefined;
    refs.forEach((ref, i) => {
      const credNs = optStr(ref.namespace) ?? namespace;
      if (credNs !== namespace && !secretAllowed(ctx, ownKind, `kubernetes-gateway://${credNs}/${str(ref.name)}`, namespace)) {
        combined = joinErrors(combined, {
          reason: 'RefNotPermitted',
          message: `certificateRef ${str(ref.name)}/${credNs} not accessible to a Gateway in namespace ${JSON.stringify(namespace)} (missing a ReferenceGrant?)`,
        });
        return;
      }
      const r = buildSecretReference(ctx, ref, gw);
      if ('error' in r) {
        combined = joinErrors(combined, r.error);
        return;
      }
      names[i] = r.name;
      valid++;
    });
    if (valid === 0) return { tls: out, error: combined };
    if (valid === 1) out.credentialName = names[0];
    else out.credentialNames = names;
    const validation = gatewayTLS ? obj(gatewayTLS.validation) : {};
    const caRefs = list(validation.caCertificateRefs).map(obj);
    if (gatewayTLS && isObject(gatewayTLS.validation) && caRefs.length > 0) {
      if (caRefs.length > 1) return { tls: out, error: { reason: 'InvalidCACertificateRef', message: 'only one caCertificateRef is supported' } };
      const ca = caRefs[0] as Json;
      const caNs = optStr(ca.namespace) ?? namespace;
      const caType = gkEq(normalizeRef(optStr(ca.group) ?? '', optStr(ca.kind) ?? '', GK_NONE), GK_SECRET) ? 'kubernetes-gateway' : 'configmap';
      const caResource = `${caType}://${caNs}/${str(ca.name)}-cacert`;
      if (caNs !== namespace && !secretAllowed(ctx, ownKind, caResource, namespace)) {
        return {
          tls: out,
          error: {
            reason: 'RefNotPermitted',
            message: `caCertificateRef ${caNs}/${str(ca.name)} not accessible to a Gateway in namespace ${JSON.stringify(namespace)} (missing a ReferenceGrant?)`,
          },
        };
      }
      const cred = buildCaCertificateReference(ctx, ca, gw);
      if ('error' in cred) return { tls: out, error: cred.error };
      out.mode = 'MUTUAL';
      out.insecureSkipVerify = false;
      if (str(validation.mode) === 'AllowInsecureFallback') {
        out.mode = 'OPTIONAL_MUTUAL';
        out.insecureSkipVerify = true;
      }
      out.caCertCredentialName = cred.name;
      if (tm === 'MUTUAL') {
        out.mode = 'MUTUAL';
        out.insecureSkipVerify = false;
      } else if (tm === 'OPTIONAL_MUTUAL') {
        out.mode = 'OPTIONAL_MUTUAL';
        out.insecureSkipVerify = false;
      }
    }
  } else if (mode === 'Passthrough') {
    // PASSTHROUGH is the enum's zero value: proto3 JSON leaves it out.
    if (autoPassthrough) out.mode = 'AUTO_PASSTHROUGH';
  }
  const ciphers = options['gateway.istio.io/tls-cipher-suites'];
  if (ciphers) {
    const filtered = filterCipherSuites(ciphers.split(',').map((c) => c.trim()));
    if (filtered.length > 0) out.cipherSuites = filtered;
  }
  return { tls: out };
}

function buildSecretReference(ctx: ConversionContext, ref: Json, gw: GwObject): { name: string } | { error: ConfigError } {
  const refStr = secretRefString(ref);
  if (!gkEq(normalizeRef(optStr(ref.group), optStr(ref.kind), GK_SECRET), GK_SECRET)) {
    return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, only secret is allowed` } };
  }
  const ns = optStr(ref.namespace) ?? gw.namespace;
  const key = `${ns}/${str(ref.name)}`;
  const data = secretData(ctx.find('Secret', ns, str(ref.name)));
  if (!data) return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, secret ${key} not found` } };
  const ci = extractCertInfo(data);
  if ('error' in ci) return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, ${ci.error}` } };
  const pairErr = x509KeyPairError(ci.cert, ci.key);
  if (pairErr)
    return { error: { reason: 'InvalidCertificateRef', message: `invalid certificate reference ${refStr}, the certificate is malformed: ${pairErr}` } };
  return { name: `kubernetes-gateway://${ns}/${str(ref.name)}` };
}

function buildCaCertificateReference(ctx: ConversionContext, ref: Json, gw: GwObject): { name: string } | { error: ConfigError } {
  const ns = optStr(ref.namespace) ?? gw.namespace;
  const name = str(ref.name);
  const refStr = `${str(ref.group)}/${str(ref.kind)}/${name}.${str(ref.namespace)}`;
  const gk = normalizeRef(optStr(ref.group) ?? '', optStr(ref.kind) ?? '', GK_NONE);
  let type: string;
  let root: { cert: string } | { error: string };
  if (gkEq(gk, GK_CONFIGMAP)) {
    type = 'configmap';
    const cm = ctx.find('ConfigMap', ns, name);
    if (!cm) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, configmap ${ns}/${name} not found` } };
    root = extractRoot(configMapData(cm));
  } else if (gkEq(gk, GK_SECRET)) {
    type = 'kubernetes-gateway';
    const data = secretData(ctx.find('Secret', ns, name));
    if (!data) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, secret ${ns}/${name} not found` } };
    root = extractRoot(data);
  } else {
    return { error: { reason: 'InvalidCACertificateKind', message: `invalid CA certificate reference ${refStr}, only secret and configmap are allowed` } };
  }
  if ('error' in root) return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, ${root.error}` } };
  if (!bundleHasCertificate(root.cert))
    return { error: { reason: 'InvalidCACertificateRef', message: `invalid CA certificate reference ${refStr}, the bundle is malformed` } };
  return { name: `${type}://${ns}/${name}-cacert` };
}

export function validateBackendClientCertificateRef(ctx: ConversionContext, gw: GwObject): ConfigError | undefined {
  const backend = obj(obj(spec(gw).tls).backend);
  if (!isObject(backend.clientCertificateRef)) return undefined;
  const ref = obj(backend.clientCertificateRef);
  const ns = gw.namespace;
  const refStr = secretRefString(ref);
  if (!gkEq(normalizeRef(optStr(ref.group), optStr(ref.kind), GK_SECRET), GK_SECRET)) {
    return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, only secret is allowed` };
  }
  const credNs = optStr(ref.namespace) ?? ns;
  const key = `${credNs}/${str(ref.name)}`;
  const data = secretData(ctx.find('Secret', credNs, str(ref.name)));
  if (!data) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, secret ${key} not found` };
  const ci = extractCertInfo(data);
  if ('error' in ci) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, ${ci.error}` };
  const pairErr = x509KeyPairError(ci.cert, ci.key);
  if (pairErr) return { reason: 'InvalidClientCertificateRef', message: `invalid clientCertificateRef ${refStr}, the certificate is malformed: ${pairErr}` };
  if (credNs !== ns && !secretAllowed(ctx, GK_GATEWAY, `kubernetes-gateway://${credNs}/${str(ref.name)}`, ns)) {
    return {
      reason: 'RefNotPermitted',
      message: `clientCertificateRef ${str(ref.name)}/${credNs} not accessible to a Gateway in namespace ${JSON.stringify(ns)} (missing a ReferenceGrant?)`,
    };
  }
  return undefined;
}

export function resolveGatewayTLS(port: number, gwSpec: Json): Json | undefined {
  const tls = obj(gwSpec.tls);
  if (!isObject(tls.frontend)) return undefined;
  const f = tls.frontend;
  const pp = list(f.perPort)
    .map(obj)
    .find((x) => num(x.port) === port);
  if (pp) return obj(pp.tls);
  return obj(f.default);
}

/** security.FilterCipherSuites: known names, first occurrence kept. */
function filterCipherSuites(xs: string[]): string[] {
  const out: string[] = [];
  for (const c of xs) if (VALID_CIPHER_SUITES.has(c) && !out.includes(c)) out.push(c);
  return out;
}

function secretRefString(ref: Json): string {
  return `${str(ref.group)}/${str(ref.kind)}/${str(ref.name)}.${str(ref.namespace)}`;
}
