// The sidecar injector's configuration: which ConfigMap a revision uses, and reading its
// `values` JSON the way Go does (the proxy image, namespaces enabled by default).
import type { Resource } from '../document/types.ts';
import { isObj, str, type Obj } from '../document/read.ts';
import { INJECTOR_CONFIGMAP } from './wellKnown.ts';
import { KINDS } from '../document/kinds.ts';
import type { ResourceReader } from './resourceReader.ts';
import type { InjectorSettings } from './workloadState.ts';

/** The injector ConfigMap of a revision: `istio-sidecar-injector[-<rev>]` (none or `default` → base name). */
export function injectorConfigMapName(revision: string): string {
  return revision === '' || revision === 'default' ? INJECTOR_CONFIGMAP : `${INJECTOR_CONFIGMAP}-${revision}`;
}

/** The `values` entry of an injector ConfigMap, parsed as JSON (undefined when it does not parse). */
export function injectorValues(cm: Resource): unknown {
  const data = isObj(cm.body.data) ? cm.body.data : {};
  const text = str(data.values);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Go's encoding/json decoding of one struct field from an object: keys match the field
 * name case-insensitively and the last matching key wins. Returns `undefined` when absent.
 */
export function goJsonField(o: Obj, field: string): unknown {
  let found: unknown;
  const lower = field.toLowerCase();
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === lower) found = v;
  return found;
}

/** A string struct field as Go decodes it: absent/null → '', a non-string → decoding error. */
function goString(o: Obj, field: string): { ok: boolean; value: string } {
  const v = goJsonField(o, field);
  if (v === undefined || v === null) return { ok: true, value: '' };
  return typeof v === 'string' ? { ok: true, value: v } : { ok: false, value: '' };
}

/** A struct field as Go decodes it: absent/null → {}, a non-object → decoding error. */
function goStruct(o: Obj, field: string): { ok: boolean; value: Obj } {
  const v = goJsonField(o, field);
  if (v === undefined || v === null) return { ok: true, value: {} };
  return isObj(v) ? { ok: true, value: v } : { ok: false, value: {} };
}

/**
 * The proxy image the injector ConfigMap configures (Istio's GetIstioProxyImage): the
 * `global.proxy.image` when it holds a `/`, else `<global.hub>/<global.proxy.image>:<global.tag>`;
 * '' when `values` does not decode.
 */
export function injectorProxyImage(cm: Resource): string {
  const values = injectorValues(cm);
  // JSON `null` decodes without error into the zero struct.
  if (values === null) return '/:';
  if (!isObj(values)) return '';
  const global = goStruct(values, 'global');
  const hub = goString(global.value, 'hub');
  const tag = goString(global.value, 'tag');
  const proxy = goStruct(global.value, 'proxy');
  const image = goString(proxy.value, 'image');
  if (!global.ok || !hub.ok || !tag.ok || !proxy.ok || !image.ok) return '';
  if (image.value.includes('/')) return image.value;
  return `${hub.value}/${image.value}:${tag.value}`;
}

/**
 * A string under `global` of an injector ConfigMap's values (`meshID`, `trustDomain`): '' when
 * unset or when `values` does not decode.
 */
export function injectorGlobalString(cm: Resource, field: string): string {
  const values = injectorValues(cm);
  if (!isObj(values)) return '';
  const global = goStruct(values, 'global');
  const v = goString(global.value, field);
  return global.ok && v.ok ? v.value : '';
}

/**
 * `sidecarInjectorWebhook.enableNamespacesByDefault` of an injector ConfigMap. Istio panics
 * when the key is missing or not a boolean; we treat that as false.
 */
export function enableNamespacesByDefault(cm: Resource): boolean {
  const values = injectorValues(cm);
  if (!isObj(values)) return false;
  const hook = values.sidecarInjectorWebhook;
  if (!isObj(hook)) return false;
  return hook.enableNamespacesByDefault === true;
}

/**
 * The injector installation the workspace describes: the revisions whose injector ConfigMap
 * (`istio-sidecar-injector[-<rev>]`) it holds, plus `default`, which an ambient or default
 * install always has; and the default revision's `enableNamespacesByDefault`.
 */
export function injectorSettings(view: Pick<ResourceReader, 'list'>): InjectorSettings {
  const revisions = new Set<string>(['default']);
  let byDefault = false;
  for (const cm of view.list(KINDS.ConfigMap)) {
    if (cm.name === INJECTOR_CONFIGMAP) byDefault = byDefault || enableNamespacesByDefault(cm);
    else if (cm.name.startsWith(`${INJECTOR_CONFIGMAP}-`)) revisions.add(cm.name.slice(INJECTOR_CONFIGMAP.length + 1));
  }
  return { installedRevisions: [...revisions], enableNamespacesByDefault: byDefault };
}
