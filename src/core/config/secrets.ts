// Kubernetes Secrets as the API server would load them: `data` values are base64 (Go's
// StdEncoding); a Secret whose data is not a mapping of base64 strings never loads.
import type { Resource } from '../document/types.ts';
import { isObj } from '../document/read.ts';
import { decodeBase64Std } from '../pki/base64.ts';
import type { SecretData } from '../pki/credential.ts';

const cache = new WeakMap<object, SecretData | null>();

/**
 * A Secret's `data` decoded to bytes (a null value is empty; no `data` is no keys), or
 * undefined when Kubernetes could not load it: `data` is not a mapping, or a value is not
 * base64 text. `stringData` is not merged (it is not when Secrets are read from files).
 */
export function secretData(secret: Resource): SecretData | undefined {
  return secretBodyData(secret.body);
}

/** secretData of a Secret's body (the Gateway API controller model keeps objects, not resources). */
export function secretBodyData(body: Record<string, unknown>): SecretData | undefined {
  let v = cache.get(body);
  if (v === undefined) {
    v = decode(Object.hasOwn(body, 'data') ? body.data : undefined);
    cache.set(body, v);
  }
  return v ?? undefined;
}

function decode(data: unknown): SecretData | null {
  const out = new Map<string, Uint8Array>();
  if (data === undefined || data === null) return out;
  if (!isObj(data)) return null;
  for (const k of Object.keys(data)) {
    const v = data[k];
    if (v === null) {
      out.set(k, new Uint8Array());
      continue;
    }
    if (typeof v !== 'string') return null;
    const bytes = decodeBase64Std(v);
    if (!bytes) return null;
    out.set(k, bytes);
  }
  return out;
}
