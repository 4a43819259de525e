// The effective mTLS mode of a workload and port (security/authn/policy_applier.go
// ComposePeerAuthentication; spec §3.3): workload port-level > workload > namespace > mesh
// (root namespace) > PERMISSIVE; UNSET inherits; the oldest policy wins at each level.
import { peerAuthentication } from '../config/api/security.ts';
import { selectorMatches, type LabelMap } from '../config/labels.ts';
import { isObj, str } from '../document/read.ts';
import { convertMtlsMode, type ConfigMeta, type MtlsMode, type PushContext } from './pushContext.ts';
import type { ProvenanceRef } from './types.ts';

export interface MergedPeerAuthentication {
  mode: MtlsMode;
  perPort: ReadonlyMap<number, MtlsMode>;
  /** The policies that decided it (for provenance). */
  from: ProvenanceRef[];
}

/** The PeerAuthentications that apply to a workload (root namespace and its own, selector matched). */
function policiesFor(push: PushContext, namespace: string, labels: LabelMap): ConfigMeta[] {
  const out: ConfigMeta[] = [];
  for (const ns of [...new Set([namespace, push.mesh.rootNamespace])]) {
    for (const pa of push.peerAuthentications.get(ns) ?? []) {
      const sel = peerAuthentication(pa.resource).selector?.matchLabels ?? {};
      if (selectorMatches(sel, labels)) out.push(pa);
    }
  }
  return out;
}

export function composePeerAuthentication(push: PushContext, namespace: string, labels: LabelMap): MergedPeerAuthentication {
  const root = push.mesh.rootNamespace;
  let mesh: ConfigMeta | undefined;
  let ns: ConfigMeta | undefined;
  let workload: ConfigMeta | undefined;
  for (const cfg of policiesFor(push, namespace, labels)) {
    const spec = peerAuthentication(cfg.resource);
    const sel = spec.selector?.matchLabels ?? {};
    if (Object.keys(sel).length === 0) {
      if (cfg.namespace === root) {
        if (!mesh || cfg.creationTime < mesh.creationTime) mesh = cfg;
      } else if (!ns || cfg.creationTime < ns.creationTime) ns = cfg;
    } else if (cfg.namespace !== root) {
      if (!workload || cfg.creationTime < workload.creationTime) workload = cfg;
    }
  }
  let mode: MtlsMode = 'PERMISSIVE';
  const from: ProvenanceRef[] = [];
  const modeOf = (c: ConfigMeta | undefined) => {
    const m = c ? (peerAuthentication(c.resource).mtls?.mode ?? '') : '';
    return m === '' || m === 'UNSET' ? undefined : convertMtlsMode(m);
  };
  for (const c of [mesh, ns, workload]) {
    const m = modeOf(c);
    if (m && c) {
      mode = m;
      from.push({ resourceKey: c.resource.key, fieldPath: 'spec.mtls.mode' });
    }
  }
  const perPort = new Map<number, MtlsMode>();
  if (workload) {
    const plm = peerAuthentication(workload.resource).portLevelMtls;
    if (isObj(plm)) {
      for (const k of Object.keys(plm)) {
        const port = Number(k);
        if (!Number.isInteger(port)) continue;
        const v = plm[k];
        const m = isObj(v) ? str(v.mode) : '';
        perPort.set(port, m === '' || m === 'UNSET' ? mode : convertMtlsMode(m));
      }
      if (perPort.size > 0) from.push({ resourceKey: workload.resource.key, fieldPath: 'spec.portLevelMtls' });
    }
  }
  return { mode, perPort, from };
}

export function mtlsModeForPort(m: MergedPeerAuthentication, port: number): MtlsMode {
  return m.perPort.get(port) ?? m.mode;
}

/** BestEffortInferServiceMTLSMode's namespace/mesh part: the namespace policy, else the mesh's, else unknown. */
export function namespaceMtlsMode(push: PushContext, namespace: string): MtlsMode {
  return push.namespaceMtlsMode.get(namespace) ?? push.globalMtlsMode;
}
