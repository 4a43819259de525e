// BackendTLSPolicy, XBackendTrafficPolicy and XBackend → DestinationRules, and their ancestor status
// (backend_policies.go).
import {
  configMapData,
  type CondSpec,
  type GwObject,
  type Json,
  extractRoot,
  humanJoin,
  isObject,
  list,
  num,
  obj,
  optNum,
  optStr,
  readConditions,
  setConditions,
  spec,
  str,
} from './objects.ts';
import { GATEWAY_CONTROLLER, KUBERNETES_GATEWAY_NAME, MESH_CONTROLLER } from './builtins.ts';
import type { ConversionContext } from './context.ts';
import { GK_NONE, GWX_GROUP, GW_GROUP, ISTIO_NET_GROUP, normalizeRef } from './groupKinds.ts';
import { ANNOTATION_PARENTS, clone, cmp, istioConfig, stableSortBy } from './istioConfig.ts';
import type { IstioConfig } from './types.ts';
import { parseGoDuration } from '../../go/duration.ts';
import { formatProtoDuration } from '../../go/protoDuration.ts';
import { listAt } from '../../document/maps.ts';

interface BackendPolicy {
  sourceKind: string;
  sourceNs: string;
  sourceName: string;
  targetKind: string;
  targetNs: string;
  targetName: string;
  host: string;
  sectionName?: string;
  port?: number;
  tls?: Json;
  loadBalancer?: Json;
  retryBudget?: Json;
  created: number;
}

/** DestinationRuleCollection: one DestinationRule per backend policy target and host (the oldest policy's settings first); the policies' status is written on the way. */
export function destinationRules(ctx: ConversionContext): IstioConfig[] {
  const all = [...backendTrafficPolicies(ctx), ...backendTLSPolicies(ctx), ...backendResources(ctx)];
  const groups = new Map<string, BackendPolicy[]>();
  for (const p of all) {
    const k = `${p.targetKind}/${p.targetNs}/${p.targetName}/${p.host}`;
    listAt(groups, k).push(p);
  }
  const out: IstioConfig[] = [];
  for (const pols of groups.values()) {
    pols.sort((a, b) => a.created - b.created || cmp(a.sourceNs, b.sourceNs) || cmp(a.sourceName, b.sourceName));
    const first = pols[0] as BackendPolicy;
    const tp: Json = {};
    let tlsSet = false;
    let lbSet = false;
    let rbSet = false;
    const portLevel = new Map<string, Json>();
    const numbered = new Map<number, Json>();
    const parents: string[] = [];
    for (const pol of pols) {
      if (pol.tls) {
        if (pol.port !== undefined) {
          if (!numbered.has(pol.port)) numbered.set(pol.port, { port: { number: pol.port }, tls: clone(pol.tls) });
        } else if (pol.sectionName !== undefined) {
          if (!portLevel.has(pol.sectionName)) portLevel.set(pol.sectionName, { port: {}, tls: clone(pol.tls) });
        } else {
          if (tlsSet) continue;
          tlsSet = true;
          tp.tls = clone(pol.tls);
        }
      }
      if (pol.loadBalancer) {
        if (lbSet) continue;
        lbSet = true;
        tp.loadBalancer = clone(pol.loadBalancer);
      }
      if (pol.retryBudget) {
        if (rbSet) continue;
        rbSet = true;
        tp.retryBudget = clone(pol.retryBudget);
      }
      const parentName = `${pol.sourceKind}/${pol.sourceNs}.${pol.sourceName}`;
      if (!parents.includes(parentName)) parents.push(parentName);
    }
    let servicePorts: { name: string; number: number }[] = [];
    if (first.targetKind === 'Service') {
      const svc = ctx.find('Service', first.targetNs, first.targetName);
      if (svc) servicePorts = list(spec(svc).ports).map((p) => ({ name: str(obj(p).name), number: num(obj(p).port) }));
    } else if (first.targetKind === 'ServiceEntry') {
      const se = ctx.find('ServiceEntry', first.targetNs, first.targetName);
      if (se) servicePorts = list(spec(se).ports).map((p) => ({ name: str(obj(p).name), number: num(obj(p).number) }));
    }
    const pls: Json[] = [];
    for (const [portName, pp] of portLevel) {
      const sp = servicePorts.find((p) => p.name === portName);
      if (sp) pp.port = sp.number ? { number: sp.number } : {};
      pls.push(pp);
    }
    for (const pp of numbered.values()) pls.push(pp);
    if (pls.length > 0) tp.portLevelSettings = stableSortBy(pls, (p) => num(obj(p.port).number));
    const name =
      first.targetKind === 'ServiceEntry' || first.targetKind === 'XBackend'
        ? `${first.targetName}~${first.host.replace(/\./g, '-')}~${KUBERNETES_GATEWAY_NAME}`
        : `${first.targetName}~${KUBERNETES_GATEWAY_NAME}`;
    out.push(istioConfig('DestinationRule', name, first.targetNs, { [ANNOTATION_PARENTS]: parents.join(',') }, { host: first.host, trafficPolicy: tp }, 0));
  }
  return out;
}

function backendTLSPolicies(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  const ignored = (p: GwObject) => (p.annotations['istio.io/ignore-policy-attachment'] ?? '').toLowerCase() === 'true';
  const active = ctx.all('BackendTLSPolicy').filter((p) => !ignored(p));
  for (const p of ctx.all('BackendTLSPolicy')) {
    const s = spec(p);
    const existing = obj(p.body.status);
    const targets = list(s.targetRefs).map(obj);
    if (ignored(p)) {
      const parents = targets.map((t) => pickDefined({ group: t.group, kind: t.kind, name: t.name, sectionName: t.sectionName }));
      ctx.writeStatus(p, { ...existing, ancestors: ignoredAncestors(ctx, existing, p.generation, parents) });
      continue;
    }
    const validation = obj(s.validation);
    let conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: 'Configuration is valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'Configuration is valid' },
    };
    const tls: Json = { mode: 'SIMPLE' };
    if (str(validation.hostname)) tls.sni = str(validation.hostname);
    const sans = subjectAltNames(validation.subjectAltNames);
    if (sans.length > 0) tls.subjectAltNames = sans;
    const cred = backendTLSCredentialName(ctx, validation, p.namespace, conds);
    if (cred) tls.credentialName = cred;
    const ancestors: Json[] = [];
    const gateways = new Set<string>();
    targets.forEach((t, idx) => {
      conds = { ...conds };
      const r = referenceLookup(ctx, str(t.group), str(t.kind), str(t.name), p.namespace);
      let err = r.error;
      let sectionName: string | undefined;
      if (r.obj) {
        const sn = optStr(t.sectionName);
        if (r.obj.kind === 'Service' || r.obj.kind === 'ServiceEntry') {
          if (sn) {
            sectionName = sn;
            const ports = r.obj.kind === 'Service' ? list(spec(r.obj).ports) : list(spec(r.obj).ports);
            if (!ports.some((x) => str(obj(x).name) === sn))
              err = `sectionName ${JSON.stringify(sn)} does not exist in ${r.obj.kind} ${r.obj.namespace}/${r.obj.name}`;
          }
        } else {
          err = `unsupported reference kind: ${str(t.kind)}`;
        }
      }
      if (err !== undefined) {
        (conds.Accepted as CondSpec).error = { reason: 'TargetNotFound', message: `targetRefs invalid: ${err}` };
      } else if (r.obj) {
        const targetKind = r.obj.kind;
        const hosts = targetKind === 'Service' ? [`${str(t.name)}.${p.namespace}.svc.${ctx.opts.domainSuffix}`] : list(spec(r.obj).hosts).map(str);
        const conflict = btlsConflict(p, t, active);
        if (conflict) {
          (conds.Accepted as CondSpec).error = {
            reason: 'Conflicted',
            message: `Conflicts with BackendTLSPolicy ${JSON.stringify(conflict)} targeting the same backend`,
          };
        } else {
          for (const host of hosts) {
            out.push({
              sourceKind: 'BackendTLSPolicy',
              sourceNs: p.namespace,
              sourceName: p.name,
              targetKind,
              targetNs: p.namespace,
              targetName: str(t.name),
              host,
              ...(sectionName !== undefined ? { sectionName } : {}),
              tls,
              created: p.created,
            });
          }
        }
        for (const g of ancestorsOf(ctx, targetKind, p.namespace, str(t.name))) gateways.add(g);
        void idx;
      }
      const meshPR = pickDefined({ group: t.group, kind: t.kind, name: t.name, sectionName: t.sectionName });
      ancestors.push(ancestorStatus(ctx, meshPR, existing, p.generation, conds, MESH_CONTROLLER));
    });
    for (const g of [...gateways].sort()) {
      const pr = { group: GW_GROUP, kind: 'Gateway', name: g.slice(g.indexOf('/') + 1) };
      ancestors.push(ancestorStatus(ctx, pr, existing, p.generation, conds, GATEWAY_CONTROLLER));
    }
    ctx.writeStatus(p, { ...existing, ancestors: mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16) });
  }
  return out;
}

function backendTrafficPolicies(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  if (!ctx.opts.alpha) return out;
  for (const p of ctx.all('XBackendTrafficPolicy')) {
    const s = spec(p);
    const existing = obj(p.body.status);
    const targets = list(s.targetRefs).map(obj);
    if ((p.annotations['istio.io/ignore-policy-attachment'] ?? '').toLowerCase() === 'true') {
      const parents = targets.map((t) => pickDefined({ group: t.group, kind: t.kind, name: t.name }));
      ctx.writeStatus(p, { ...existing, ancestors: ignoredAncestors(ctx, existing, p.generation, parents) });
      continue;
    }
    let conds: Record<string, CondSpec> = { Accepted: { reason: 'Accepted', message: 'Configuration is valid' } };
    const unsupported: string[] = [];
    if (isObject(s.sessionPersistence)) unsupported.push('sessionPersistence');
    let retryBudget: Json | undefined;
    if (isObject(s.retryConstraint)) {
      const rc = s.retryConstraint;
      const budget = obj(rc.budget);
      retryBudget = {};
      if (optNum(budget.percent) !== undefined) retryBudget.percent = num(budget.percent);
      retryBudget.budgetInterval = '10s';
      const iv = optStr(budget.interval);
      if (iv !== undefined) {
        const d = parseGoDuration(iv);
        if (d !== undefined) retryBudget.budgetInterval = formatProtoDuration(d);
      }
      retryBudget.minRetryConcurrency = 10;
      if (isObject(rc.minRetryRate)) retryBudget.minRetryConcurrency = num(rc.minRetryRate.count);
    }
    if (unsupported.length > 0)
      (conds.Accepted as CondSpec).message = `Configuration is valid, but Istio does not support the following fields: ${humanJoin(unsupported)}`;
    const ancestors: Json[] = [];
    targets.forEach((t) => {
      conds = { ...conds };
      const r = referenceLookup(ctx, str(t.group), str(t.kind), str(t.name), p.namespace);
      let err = r.error;
      if (r.obj && r.obj.kind !== 'Service') err = `unsupported reference kind: ${str(t.kind)}`;
      if (err !== undefined) {
        (conds.Accepted as CondSpec).error = { reason: 'TargetNotFound', message: `targetRefs invalid: ${err}` };
      } else {
        out.push({
          sourceKind: 'XBackendTrafficPolicy',
          sourceNs: p.namespace,
          sourceName: p.name,
          targetKind: 'Service',
          targetNs: p.namespace,
          targetName: str(t.name),
          host: `${str(t.name)}.${p.namespace}.svc.${ctx.opts.domainSuffix}`,
          loadBalancer: {},
          ...(retryBudget ? { retryBudget } : {}),
          created: p.created,
        });
      }
      ancestors.push(ancestorStatus(ctx, pickDefined({ group: t.group, kind: t.kind, name: t.name }), existing, p.generation, conds, MESH_CONTROLLER));
    });
    ctx.writeStatus(p, { ...existing, ancestors: mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16) });
  }
  return out;
}

function backendResources(ctx: ConversionContext): BackendPolicy[] {
  const out: BackendPolicy[] = [];
  if (!ctx.opts.alpha) return out;
  for (const b of ctx.all('XBackend')) {
    const s = spec(b);
    const existing = obj(b.body.status);
    const conds: Record<string, CondSpec> = {
      Accepted: { reason: 'Accepted', message: 'Configuration is valid' },
      ResolvedRefs: { reason: 'ResolvedRefs', message: 'Configuration is valid' },
    };
    if (str(s.type) !== 'ExternalHostname' || !isObject(s.externalHostname)) {
      (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `unsupported backend type: ${str(s.type)}` };
    } else {
      const tls = backendResourceTLS(ctx, b, conds);
      if (tls) {
        out.push({
          sourceKind: 'XBackend',
          sourceNs: b.namespace,
          sourceName: b.name,
          targetKind: 'XBackend',
          targetNs: b.namespace,
          targetName: b.name,
          host: str(s.externalHostname.hostname),
          port: num(obj(s.port).port),
          tls,
          created: b.created,
        });
      }
    }
    // XBackend's status names them parents (BackendAncestorStatus: parentRef, controllerName, conditions).
    const asParent = (a: Json): Json => ({ conditions: a.conditions, controllerName: a.controllerName, parentRef: a.ancestorRef });
    const prior = {
      ancestors: list(existing.parents)
        .map(obj)
        .map((p) => ({ ...p, ancestorRef: p.parentRef })),
    };
    const parents: Json[] = [asParent(ancestorStatus(ctx, { group: GWX_GROUP, kind: 'XBackend', name: b.name }, prior, b.generation, conds, MESH_CONTROLLER))];
    for (const g of ancestorsOf(ctx, 'XBackend', b.namespace, b.name)) {
      const [gns, gname] = [g.slice(0, g.indexOf('/')), g.slice(g.indexOf('/') + 1)];
      parents.push(
        asParent(ancestorStatus(ctx, { group: GW_GROUP, kind: 'Gateway', namespace: gns, name: gname }, prior, b.generation, conds, GATEWAY_CONTROLLER)),
      );
    }
    const merged = mergeAncestors(
      prior.ancestors,
      parents.map((p) => ({ ...p, ancestorRef: p.parentRef })),
      32,
    ).map(asParent);
    ctx.writeStatus(b, { ...existing, parents: merged });
  }
  return out;
}

function backendResourceTLS(ctx: ConversionContext, b: GwObject, conds: Record<string, CondSpec>): Json | undefined {
  const s = spec(b);
  if (!isObject(s.tls)) return undefined;
  const mode = str(s.tls.mode);
  if (mode === 'ClientAndServer') {
    (conds.Accepted as CondSpec).error = {
      reason: 'Invalid',
      message: 'unsupported ClientAndServer TLS mode: Istio does not support client certificates on backend',
    };
    return undefined;
  }
  if (mode === 'None') return undefined;
  if (mode !== 'ServerOnly') {
    (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `unsupported TLS mode: ${JSON.stringify(mode)}` };
    return undefined;
  }
  const validation = obj(s.tls.validation);
  const tls: Json = { mode: 'SIMPLE' };
  tls.sni = str(validation.hostname) || str(obj(s.externalHostname).hostname);
  if (tls.sni === '') delete tls.sni;
  const sans = subjectAltNames(validation.subjectAltNames);
  if (sans.length > 0) tls.subjectAltNames = sans;
  const cred = backendTLSCredentialName(ctx, validation, b.namespace, conds);
  if (cred) tls.credentialName = cred;
  return tls;
}

function backendTLSCredentialName(ctx: ConversionContext, validation: Json, ns: string, conds: Record<string, CondSpec>): string {
  if (validation.wellKnownCACertificates !== undefined && validation.wellKnownCACertificates !== null) {
    const wk = str(validation.wellKnownCACertificates);
    if (wk !== 'System') (conds.Accepted as CondSpec).error = { reason: 'Invalid', message: `Unknown wellKnownCACertificates: ${wk}` };
    return '';
  }
  const refs = list(validation.caCertificateRefs).map(obj);
  if (refs.length === 0) return '';
  const ref = refs[0] as Json;
  if (refs.length > 1)
    (conds.Accepted as CondSpec).message = `${(conds.Accepted as CondSpec).message ?? ''}; warning: only the first caCertificateRefs will be used`;
  const r = referenceLookup(ctx, str(ref.group), str(ref.kind), str(ref.name), ns);
  let err: string | undefined = r.error;
  if (r.obj) {
    if (r.obj.kind === 'ConfigMap') {
      const root = extractRoot(configMapData(r.obj));
      if ('error' in root) {
        err = root.error;
        (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidCACertificateRef', message: `Certificate invalid: ${err}` };
      } else {
        return `configmap://${ns}/${str(ref.name)}`;
      }
    } else {
      err = `unsupported reference kind: ${str(ref.kind)}`;
      (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidKind', message: `Certificate reference invalid: ${err}` };
    }
  } else if (err !== undefined) {
    if (err.includes('unsupported kind'))
      (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidKind', message: `Certificate reference not supported: ${err}` };
    else (conds.ResolvedRefs as CondSpec).error = { reason: 'InvalidCACertificateRef', message: `Certificate reference not found: ${err}` };
  }
  if (err !== undefined) {
    (conds.Accepted as CondSpec).error = { reason: 'NoValidCACertificate', message: `Certificate reference invalid: ${err}` };
    return 'invalid://';
  }
  return '';
}

function referenceLookup(ctx: ConversionContext, group: string, kind: string, name: string, ns: string): { obj?: GwObject; error?: string } {
  const gk = normalizeRef(group, kind, GK_NONE);
  const kinds: Record<string, string> = {
    '/Service': 'Service',
    [`${ISTIO_NET_GROUP}/ServiceEntry`]: 'ServiceEntry',
    '/ConfigMap': 'ConfigMap',
    '/Secret': 'Secret',
  };
  const k = kinds[`${gk.group}/${gk.kind}`];
  if (!k) return { error: `unsupported kind ${kind}` };
  const o = ctx.find(k, ns, name);
  if (!o) return { error: `reference ${ns}/${name} (of kind ${kind}) not found` };
  return { obj: o };
}

function ignoredAncestors(ctx: ConversionContext, existing: Json, generation: number, parents: Json[]): Json[] {
  const conds: Record<string, CondSpec> = {
    Accepted: {
      reason: 'Accepted',
      message: 'Configuration is valid',
      error: { reason: 'IgnoredByIstio', message: 'Ignored by Istio due to annotation istio.io/ignore-policy-attachment=true' },
    },
  };
  const ancestors = parents.map((pr) => ancestorStatus(ctx, pr, existing, generation, conds, MESH_CONTROLLER));
  return mergeAncestors(list(existing.ancestors).map(obj), ancestors, 16);
}

function ancestorsOf(ctx: ConversionContext, kind: string, ns: string, name: string): string[] {
  const key = `${kind}/${ns}/${name}`;
  return [...new Set(ctx.ancestorBackends.filter((a) => a.backend === key).map((a) => a.gateway))].sort();
}

function ancestorStatus(ctx: ConversionContext, pr: Json, existing: Json, generation: number, conds: Record<string, CondSpec>, controller: string): Json {
  const cur = list(existing.ancestors)
    .map(obj)
    .find((a) => parentRefEqual(obj(a.ancestorRef), pr));
  return {
    ancestorRef: pr,
    conditions: setConditions(generation, cur ? readConditions(cur.conditions) : [], conds, ctx.now),
    controllerName: controller,
  };
}

function mergeAncestors(existing: Json[], incoming: Json[], max: number): Json[] {
  const inc = incoming.slice();
  const out: Json[] = [];
  for (const x of existing) {
    const c = str(x.controllerName);
    if (c !== GATEWAY_CONTROLLER && c !== MESH_CONTROLLER) {
      out.push(x);
      continue;
    }
    const i = inc.findIndex((s) => parentRefEqual(obj(s.ancestorRef), obj(x.ancestorRef)));
    if (i !== -1) {
      out.push(inc[i] as Json);
      inc.splice(i, 1);
    }
  }
  return [...out, ...inc].slice(0, max);
}

function parentRefEqual(a: Json, b: Json): boolean {
  return ['group', 'kind', 'name', 'namespace', 'sectionName', 'port'].every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/**
 * btlsIsConflicted. istiod skips the policy itself by UID, so objects without one (as files
 * usually are; the API server gives every object its own) are never in conflict, as in
 * Istio's conversion goldens.
 */
function btlsConflict(p: GwObject, t: Json, all: GwObject[]): string | undefined {
  for (const other of all) {
    if (other === p || uidOf(other) === uidOf(p)) continue;
    const match = list(spec(other).targetRefs)
      .map(obj)
      .some(
        (o) =>
          str(o.group) === str(t.group) && str(o.kind) === str(t.kind) && str(o.name) === str(t.name) && (o.sectionName ?? null) === (t.sectionName ?? null),
      );
    if (!match || other.namespace !== p.namespace) continue;
    const higher = other.created !== p.created ? other.created < p.created : other.name < p.name;
    if (higher) return other.name;
  }
  return undefined;
}

/** metadata.uid ('' when the file has none). */
function uidOf(o: GwObject): string {
  return str(obj(o.body.metadata).uid);
}

function subjectAltNames(v: unknown): string[] {
  const out: string[] = [];
  for (const e of list(v).map(obj)) {
    if (str(e.type) === 'Hostname') out.push(str(e.hostname));
    else if (str(e.type) === 'URI') out.push(str(e.uri));
  }
  return out;
}

function pickDefined(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
