// Shared pieces of the Gateway API conversion: the plain objects it reads and writes, Go-style
// accessors for untyped bodies, status conditions as istiod sets them, and proto3 JSON helpers.
import { isRedactionMarker } from '../../document/redactionMarkers.ts';
import { isObj } from '../../document/read.ts';
import type { Obj } from '../../document/read.ts';
import { decodePemBundle } from '../../pki/pem.ts';
import { bytesToLatin1 } from '../../pki/base64.ts';
import { secretBodyData } from '../secrets.ts';
import { extractCertInfo as extractCredential, extractRoot as extractCredentialRoot } from '../../pki/credential.ts';
import { x509KeyPairCertBlocks, x509KeyPairKeyBlock } from '../../pki/keyPairPem.ts';

/** A Kubernetes object as the conversion reads it (any kind). */
export interface GwObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  /** The whole object as parsed (spec, status, data, …). */
  body: Record<string, unknown>;
  /** metadata.creationTimestamp in ms since the epoch (0 when absent, as in Istio's tests). */
  created: number;
  generation: number;
}

/** An untyped JSON object: the one such type (document/read.ts Obj), under the name this module has always used. */
export type Json = Obj;

export function obj(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

/** A JSON object (not null, not an array). */
export const isObject: (v: unknown) => v is Json = isObj;

export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A string field, or undefined when absent (Go's nil pointer). */
export function optStr(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function str(v: unknown): string {
  return optStr(v) ?? '';
}

export function optNum(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function num(v: unknown): number {
  return optNum(v) ?? 0;
}

export function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'string') out[k] = x;
  return out;
}

export function spec(o: GwObject): Json {
  return obj(o.body.spec);
}

/** `namespace/name` */
export function nsName(ns: string, name: string): string {
  return `${ns}/${name}`;
}

// ---------------------------------------------------------------------------------------------
// Status conditions

export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface ConfigError {
  reason: string;
  message: string;
}

/** conversion.go joinErrors: the first error's reason, both messages. */
export function joinErrors(a: ConfigError | undefined, b: ConfigError | undefined): ConfigError | undefined {
  if (!b) return a;
  if (!a) return b;
  return { reason: a.reason, message: `${a.message}; ${b.message}` };
}

/** What istiod means to set for one condition type (gatewaycommon.ListenerStatusCondition). */
export interface CondSpec {
  reason?: string;
  message?: string;
  /** Status on success; 'True' when unset. An error inverts it. */
  status?: 'True' | 'False';
  error?: ConfigError;
}

function invert(s: string | undefined): string {
  return s === 'False' ? 'True' : 'False';
}

/** kstatus.UpdateConditionIfChanged. */
function updateCondition(conds: Condition[], c: Condition): Condition[] {
  const ret = conds.slice();
  const i = ret.findIndex((x) => x.type === c.type);
  if (i < 0) {
    ret.push(c);
    return ret;
  }
  const existing = ret[i] as Condition;
  if (existing.status === c.status) {
    if (existing.message === c.message && (existing.observedGeneration ?? 0) === (c.observedGeneration ?? 0)) return ret;
    c = { ...c, lastTransitionTime: existing.lastTransitionTime };
  }
  ret[i] = c;
  return ret;
}

/** gatewaycommon.SetListenerConditions: each type in sorted order, errors invert the status. */
export function setConditions(generation: number, existing: readonly Condition[], conds: Record<string, CondSpec>, now: string): Condition[] {
  let out = existing.slice();
  for (const k of Object.keys(conds).sort()) {
    const c = conds[k] as CondSpec;
    const base = { type: k, lastTransitionTime: now, ...(generation ? { observedGeneration: generation } : {}) };
    if (c.error) {
      out = updateCondition(out, { ...base, status: invert(c.status), reason: c.error.reason, message: c.error.message });
    } else {
      out = updateCondition(out, { ...base, status: c.status ?? 'True', reason: c.reason ?? '', message: c.message ?? '' });
    }
  }
  return out.map(orderCondition);
}

function orderCondition(c: Condition): Condition {
  const o: Condition = { lastTransitionTime: c.lastTransitionTime, message: c.message } as Condition;
  if (c.observedGeneration) o.observedGeneration = c.observedGeneration;
  o.reason = c.reason;
  o.status = c.status;
  o.type = c.type;
  return o;
}

/** Existing conditions read from an object's status (kept as written). */
export function readConditions(v: unknown): Condition[] {
  return list(v)
    .filter(isObject)
    .map((c) => ({
      type: str(c.type),
      status: str(c.status),
      ...(num(c.observedGeneration) ? { observedGeneration: num(c.observedGeneration) } : {}),
      lastTransitionTime: str(c.lastTransitionTime),
      reason: str(c.reason),
      message: str(c.message),
    }));
}

/** gatewaycommon.HumanReadableJoin */
export function humanJoin(ss: readonly string[]): string {
  if (ss.length === 0) return '';
  if (ss.length === 1) return ss[0] as string;
  if (ss.length === 2) return `${ss[0]} and ${ss[1]}`;
  return `${ss.slice(0, -1).join(', ')}, and ${ss[ss.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Secrets and ConfigMaps as istiod reads certificates from them

/**
 * A Secret's data as istiod's controller reads it in a cluster, values as text (bytes as
 * latin-1): `data` as the API server decodes it (config/secrets.ts), with `stringData` over it,
 * as the API server stores them. Undefined for a Secret the API server refuses (`data` not base64),
 * which a cluster never holds, and for none at all. (The analyzers read files as istioctl does, without `stringData`.)
 */
export function secretData(o: GwObject | undefined): Map<string, string> | undefined {
  if (!o) return undefined;
  const data = secretBodyData(o.body);
  if (!data) return undefined;
  const out = new Map<string, string>();
  for (const [k, v] of data) out.set(k, bytesToLatin1(v));
  for (const [k, v] of Object.entries(obj(o.body.stringData))) if (typeof v === 'string') out.set(k, v);
  return out;
}

/** A ConfigMap's `data` (text values as written). */
export function configMapData(o: GwObject): Map<string, string> {
  return new Map(Object.entries(stringRecord(o.body.data)));
}

/** kubecreds.ExtractCertInfo (pki/credential.ts) over text values: the certificate and key of a Secret, or Istio's error text. */
export function extractCertInfo(d: ReadonlyMap<string, string>): { cert: string; key: string } | { error: string } {
  const r = extractCredential(d);
  return r.ok ? { cert: r.value.cert, key: r.value.key ?? '' } : { error: r.error };
}

/** kubecreds.ExtractRoot (pki/credential.ts) over text values: the CA bundle of a Secret or ConfigMap, or Istio's error text. */
export function extractRoot(d: ReadonlyMap<string, string>): { cert: string } | { error: string } {
  const r = extractCredentialRoot(d);
  return r.ok ? { cert: r.value.cert } : { error: r.error };
}

/** Go's tls.X509KeyPair, as far as the PEM framing goes (pki/keyPairPem.ts): undefined when the pair parses. */
export function x509KeyPairError(cert: string, key: string): string | undefined {
  // A share link's redaction marker stands for a value that is not in the input: not checked.
  if (isRedactionMarker(cert)) return undefined;
  const certs = x509KeyPairCertBlocks(cert);
  if (!certs.ok) return certs.error;
  if (isRedactionMarker(key)) return undefined;
  const k = x509KeyPairKeyBlock(key);
  return k.ok ? undefined : k.error;
}

/**
 * x509.CertPool.AppendCertsFromPEM: true when the bundle holds at least one certificate (or
 * was redacted in a share link: then it is not in the input and not checked).
 */
export function bundleHasCertificate(pem: string): boolean {
  if (isRedactionMarker(pem)) return true;
  // Go skips a CERTIFICATE block with PEM headers; it also parses each block, which this
  // controller model leaves to the certificate checks.
  return decodePemBundle(pem).some((b) => b.type === 'CERTIFICATE' && Object.keys(b.headers).length === 0);
}
