// backendRefs → route destinations (conversion.go buildDestination, buildHTTPDestination,
// buildTCPDestination): Services, Hostnames, ServiceImports, XBackends and InferencePools, with
// ReferenceGrants for other namespaces.
import { type ConfigError, type Json, isObject, list, num, obj, optNum, optStr, spec, str } from './objects.ts';
import type { ConversionContext } from './context.ts';
import { type RouteKind, GK_INFERENCEPOOL, GK_SERVICE, GK_XBACKEND, GW_GROUP, ISTIO_NET_GROUP, MCS_GROUP, gkEq, normalizeRef } from './groupKinds.ts';
import { createHeadersFilter } from './httpFilters.ts';
import { grantAllows } from './referenceGrants.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function buildHTTPDestination(
  ctx: ConversionContext,
  forwardTo: Json[],
  ns: string,
  enforce: boolean,
  kind: RouteKind,
): { route?: Json[]; backendError?: ConfigError } | { error: ConfigError } {
  if (forwardTo.length === 0) return {};
  const action = forwardTo.filter((w) => (optNum(w.weight) ?? 1) !== 0);
  const weights = action.map((w) => optNum(w.weight) ?? 1);
  const single = weights.length === 1;
  let backendError: ConfigError | undefined;
  const res: Json[] = [];
  for (let i = 0; i < action.length; i++) {
    const fwd = action[i] as Json;
    const d = buildDestination(ctx, fwd, ns, enforce, kind);
    if (d.error) {
      if (isInvalidBackend(d.error)) backendError = d.error;
      else return { error: d.error };
    }
    const rd: Json = { destination: d.destination ?? {} };
    const w = single ? 0 : (weights[i] as number);
    if (w !== 0) rd.weight = w;
    for (const raw of list(fwd.filters)) {
      const f = obj(raw);
      const type = str(f.type);
      if (type === 'RequestHeaderModifier' || type === 'ResponseHeaderModifier') {
        const h = createHeadersFilter(type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
        if ('error' in h) return { error: h.error };
        if (!h.ops) continue;
        const headers = obj(rd.headers);
        headers[type === 'RequestHeaderModifier' ? 'request' : 'response'] = h.ops;
        rd.headers = headers;
      } else {
        return { error: { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` } };
      }
    }
    res.push(rd);
  }
  return { route: res, ...(backendError ? { backendError } : {}) };
}

export function buildTCPDestination(
  ctx: ConversionContext,
  forwardTo: Json[],
  ns: string,
  enforce: boolean,
  kind: RouteKind,
): { route?: Json[]; backendError?: ConfigError } | { error: ConfigError } {
  if (forwardTo.length === 0) return {};
  const action = forwardTo.filter((w) => (optNum(w.weight) ?? 1) !== 0);
  const weights = action.map((w) => optNum(w.weight) ?? 1);
  const single = weights.length === 1;
  let backendError: ConfigError | undefined;
  let hard: ConfigError | undefined;
  const res: Json[] = [];
  action.forEach((fwd, i) => {
    const d = buildDestination(ctx, fwd, ns, enforce, kind);
    if (d.error) {
      if (isInvalidBackend(d.error)) backendError = d.error;
      else hard ??= d.error;
    }
    const rd: Json = { destination: d.destination ?? {} };
    const w = single ? 0 : (weights[i] as number);
    if (w !== 0) rd.weight = w;
    res.push(rd);
  });
  if (hard) return { error: hard };
  return { route: res, ...(backendError ? { backendError } : {}) };
}

export function buildDestination(ctx: ConversionContext, to: Json, ns: string, enforce: boolean, kind: RouteKind): { destination?: Json; error?: ConfigError } {
  const ref = normalizeRef(optStr(to.group), optStr(to.kind), GK_SERVICE);
  const name = str(to.name);
  const toNs = optStr(to.namespace);
  if (enforce && toNs !== undefined && toNs !== ns) {
    if (!grantAllows(ctx, { group: GW_GROUP, kind }, ns, ref, toNs, name)) {
      return {
        destination: {},
        error: {
          reason: 'RefNotPermitted',
          message: `backendRef ${name}/${toNs} not accessible to a ${kind} in namespace ${JSON.stringify(ns)} (missing a ReferenceGrant?)`,
        },
      };
    }
  }
  const namespace = toNs ?? ns;
  const port = optNum(to.port);
  let hostname: string;
  let backendErr: ConfigError | undefined;
  const suffix = ctx.opts.domainSuffix;
  if (gkEq(ref, GK_XBACKEND)) {
    if (!ctx.opts.alpha) {
      return {
        destination: {},
        error: {
          reason: 'InvalidKind',
          message: 'The Alpha Gateway API is not enabled, XBackend is invalid. To enable, set PILOT_ENABLE_ALPHA_GATEWAY_API to true in istiod.',
        },
      };
    }
    const backend = ctx.find('XBackend', namespace, name);
    if (!backend) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) not found` } };
    const bs = spec(backend);
    if (str(bs.type) !== 'ExternalHostname' || !isObject(bs.externalHostname)) {
      return { destination: {}, error: { reason: 'InvalidKind', message: `backend(${name}) type: expected ExternalHostname, got ${str(bs.type)}` } };
    }
    hostname = str(bs.externalHostname.hostname);
    if (!ctx.lookupService(hostname, namespace)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
    const bport = num(obj(bs.port).port);
    if (port !== undefined && port !== bport) {
      return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) does not expose port ${port}, expected ${bport}` } };
    }
    return { destination: { host: hostname, port: { number: bport } }, ...(backendErr ? { error: backendErr } : {}) };
  } else if (gkEq(ref, GK_SERVICE)) {
    if (name.includes('.'))
      return { error: { reason: 'InvalidDestination', message: 'service name invalid; the name of the Service must be used, not the hostname.' } };
    hostname = `${name}.${namespace}.svc.${suffix}`;
    if (!ctx.find('Service', namespace, name)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (ref.group === ISTIO_NET_GROUP && ref.kind === 'Hostname') {
    if (toNs !== undefined) return { error: { reason: 'InvalidDestination', message: 'namespace may not be set with Hostname type' } };
    hostname = name;
    if (!ctx.lookupService(hostname, namespace)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (ref.group === MCS_GROUP && ref.kind === 'ServiceImport') {
    hostname = `${name}.${namespace}.svc.${suffix}`;
    if (!ctx.find('Service', namespace, name)) backendErr = { reason: 'BackendNotFound', message: `backend(${hostname}) not found` };
  } else if (gkEq(ref, GK_INFERENCEPOOL)) {
    if (!ctx.opts.inferenceExtension) {
      return {
        destination: {},
        error: { reason: 'InvalidKind', message: 'InferencePool is not enabled. To enable, set ENABLE_GATEWAY_API_INFERENCE_EXTENSION to true in istiod' },
      };
    }
    if (name.includes('.'))
      return { error: { reason: 'InvalidDestination', message: 'InferencePool.Name invalid; the name of the InferencePool must be used, not the hostname.' } };
    if (!ctx.find('InferencePool', namespace, name)) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${name}) not found` } };
    hostname = `${inferencePoolServiceName(name)}.${namespace}.svc.${suffix}`;
    const svc = ctx.lookupService(hostname, namespace);
    if (!svc) return { destination: {}, error: { reason: 'BackendNotFound', message: `backend(${hostname}) not found` } };
    const l = svc.labels;
    if (!l['istio.io/inferencepool-extension-service'] || !l['istio.io/inferencepool-extension-port'] || !l['istio.io/inferencepool-extension-failure-mode']) {
      backendErr = { reason: 'InvalidDestination', message: 'InferencePool service invalid, extensionRef labels not found' };
    }
    return { destination: { host: hostname, port: { number: svc.ports[0]?.port ?? 0 } }, ...(backendErr ? { error: backendErr } : {}) };
  } else {
    return {
      destination: {},
      error: {
        reason: 'InvalidKind',
        message: `referencing unsupported backendRef: group ${JSON.stringify(str(to.group))} kind ${JSON.stringify(str(to.kind))}`,
      },
    };
  }
  if (port === undefined) return { error: { reason: 'InvalidDestination', message: 'port is required in backendRef' } };
  return { destination: { host: hostname, port: { number: port } }, ...(backendErr ? { error: backendErr } : {}) };
}

function isInvalidBackend(e: ConfigError): boolean {
  return e.reason === 'RefNotPermitted' || e.reason === 'BackendNotFound' || e.reason === 'InvalidKind';
}

export function weightSum(refs: Json[]): number {
  return refs.reduce((s, r) => s + (optNum(r.weight) ?? 1), 0);
}

/** InferencePoolServiceName: the shadow Service istiod creates for a pool (`<pool>-ip-<sha256[:8]>`, at most 63 characters). */
export function inferencePoolServiceName(pool: string): string {
  const hash = bytesToHex(sha256(utf8ToBytes(pool))).slice(0, 8);
  const name = `${pool}-ip-${hash}`;
  return name.length > 63 ? `${pool.slice(0, 63 - 4 - 8)}-ip-${hash}` : name;
}
