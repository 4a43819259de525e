// ReferenceGrants (gatewaycommon/references.go ReferenceGrants.SecretAllowed, BackendAllowed): whether
// a Gateway, ListenerSet or route in one namespace may refer to a Secret, ConfigMap or backend in another.
import { list, obj, optStr, spec, str } from './objects.ts';
import type { ConversionContext } from './context.ts';
import {
  type GK,
  GK_CONFIGMAP,
  GK_GATEWAY,
  GK_INFERENCEPOOL,
  GK_LISTENERSET,
  GK_NONE,
  GK_SECRET,
  GK_SERVICE,
  GK_XBACKEND,
  GW_GROUP,
  gkEq,
  normalizeRef,
} from './groupKinds.ts';

/** gatewaycommon.ReferenceGrants.SecretAllowed */
export function secretAllowed(ctx: ConversionContext, from: GK, resourceName: string, namespace: string): boolean {
  let kind: GK;
  let rest: string;
  if (resourceName.startsWith('kubernetes-gateway://')) {
    kind = GK_SECRET;
    rest = resourceName.slice('kubernetes-gateway://'.length);
  } else if (resourceName.startsWith('configmap://')) {
    kind = GK_CONFIGMAP;
    rest = resourceName.slice('configmap://'.length);
  } else {
    return false;
  }
  const parts = rest.split('/');
  if (parts.length < 2 || !parts[0] || !parts[1]) return false;
  return grantAllows(ctx, from, namespace, kind, parts[0], parts[1]);
}

export function grantAllows(ctx: ConversionContext, from: GK, fromNs: string, to: GK, toNs: string, name: string): boolean {
  for (const rg of ctx.all('ReferenceGrant')) {
    if (rg.namespace !== toNs) continue;
    const s = spec(rg);
    const fromOk = list(s.from)
      .map(obj)
      .some((f) => {
        const gk = normalizeRef(str(f.group), str(f.kind), GK_NONE);
        const allowed = [
          GK_GATEWAY,
          { group: GW_GROUP, kind: 'HTTPRoute' },
          { group: GW_GROUP, kind: 'GRPCRoute' },
          { group: GW_GROUP, kind: 'TLSRoute' },
          { group: GW_GROUP, kind: 'TCPRoute' },
          GK_LISTENERSET,
        ];
        return allowed.some((a) => gkEq(a, gk)) && gkEq(gk, from) && str(f.namespace) === fromNs;
      });
    if (!fromOk) continue;
    for (const t of list(s.to).map(obj)) {
      const gk = normalizeRef(str(t.group), str(t.kind), GK_NONE);
      if (![GK_CONFIGMAP, GK_SECRET, GK_SERVICE, GK_XBACKEND, GK_INFERENCEPOOL].some((a) => gkEq(a, gk))) continue;
      if (!gkEq(gk, to)) continue;
      const tn = optStr(t.name);
      if (tn === undefined || tn === name) return true;
    }
  }
  return false;
}
