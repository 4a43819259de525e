// The `ambient` suite: every scenario of ambient/scenarios.json (manifests, a question, the
// answer derived from Istio's and ztunnel's source) asked of our simulation.
//
// How answers compare (the corpus README's rules, made precise here):
// - scalar and list fields compare exactly; objects compare field by field the same way;
// - `workloadJson` and the ztunnel-workload-json answer compare as subsets (ztunnel's dump
//   carries more fields);
// - prose is not compared as text: `reason`, `explanation`, `note`, `traceConsequence`,
//   `clientSees` and an enforcement's `why`. Facts inside prose are: a `reason` that starts
//   with a status reason code (`UnsupportedTrafficType: …`) must name our binding error, and
//   every address, `:port`, SPIFFE identity and `ztunnel@<node>` a trace's `hops` mention must
//   appear in our hops;
// - an enforcement point may name the ztunnel listener (`ztunnel@node-b inbound :15008`);
//   `deniedAt` is `<point> (<layer>)[, policy <ns/name>[ (scope <Scope>)]]`;
// - `notIncluded` compares its keys (the policies not sent to ztunnel), not the prose values;
// - a field we cannot answer fails the scenario, by name: nothing is skipped silently.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult } from './types.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel, type AmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { nodeView, policiesTable, servicesTable, workloadsTable, type Table } from '../../src/core/ambient/ztunnel.ts';
import { matchText, type RbacMatch } from '../../src/core/ambient/authz.ts';
import { traceRequest, type TraceResult } from '../../src/core/ambient/trace.ts';

export interface Scenario {
  name: string;
  manifests: string;
  query: Record<string, unknown>;
  expected: Record<string, unknown>;
  source?: string;
}

const PROSE = new Set(['reason', 'explanation', 'note', 'traceConsequence', 'clientSees', 'why']);
const REASON_CODES = [
  'WaypointIsNotReady',
  'AttachmentDenied',
  'UnsupportedTrafficType',
  'CrossNamespaceWaypointForbidden',
  'ExcludedNamespace',
  'CniAgent',
  'HostNetwork',
  'SidecarPresent',
  'PodLabelAmbient',
  'NamespaceLabelAmbient',
  'PodOptOut',
  'NotSelected',
  'Terminated',
  'NoPodIP',
];

const show = (v: unknown) => JSON.stringify(v);

function deepEqual(a: unknown, b: unknown): boolean {
  return show(normalize(a)) === show(normalize(b));
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, normalize((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** Every field of `expected` equal in `actual` (objects recursively, lists exactly). */
function subsetDiff(expected: unknown, actual: unknown, path: string, out: string[]): void {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) {
      out.push(`${path}: expected ${show(expected)}, got ${show(actual)}`);
      return;
    }
    for (const [k, v] of Object.entries(expected)) subsetDiff(v, (actual as Record<string, unknown>)[k], `${path}.${k}`, out);
    return;
  }
  if (!deepEqual(expected, actual)) out.push(`${path}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Facts a hop line states: IPv4 addresses, `:port`s, SPIFFE identities, `ztunnel@node`. */
export function hopFacts(line: string): string[] {
  const facts = new Set<string>();
  for (const m of line.matchAll(/spiffe:\/\/[^\s,;()]+/g)) facts.add(m[0]);
  for (const m of line.matchAll(/ztunnel@[A-Za-z0-9._-]+/g)) facts.add(m[0]);
  const noSpiffe = line.replace(/spiffe:\/\/[^\s,;()]+/g, ' ');
  for (const m of noSpiffe.matchAll(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g)) facts.add(m[0]);
  for (const m of noSpiffe.matchAll(/(?<![\w.]):(\d{1,5})\b|(?<=[\w>\]]):(\d{1,5})\b/g)) facts.add(`:${m[1] ?? m[2]}`);
  return [...facts];
}

function pointMatches(expected: string, point: string, listener: number | undefined): boolean {
  return expected === point || (listener !== undefined && expected === `${point} :${listener}`);
}

function parseCommand(cmd: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = cmd.split(/\s+/);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (!p.startsWith('--')) continue;
    const eq = p.indexOf('=');
    if (eq > 0) out.set(p.slice(2, eq), p.slice(eq + 1));
    else out.set(p.slice(2), parts[++i] ?? '');
  }
  return out;
}

function tableOf(t: Table): { header: string[]; rows: string[][] } {
  return { header: t.header, rows: t.rows };
}

function workloadJsonOf(model: AmbientModel, key: string): Record<string, unknown> | undefined {
  const w = model.ztunnel.workloads.find((x) => `${x.json.namespace}/${x.json.name}` === key);
  return w ? { ...w.json, ...(w.identity ? { identity: w.identity } : {}) } : undefined;
}

function policyGroupsText(rules: RbacMatch[][][]): string[][][] {
  return rules.map((g) => g.map((clause) => clause.map(matchText)));
}

function ztunnelPolicyAnswer(model: AmbientModel, name: string, namespace?: string): Record<string, unknown> | undefined {
  const p = [...model.ztunnel.policies.byKey.values()].find((x) => x.name === name && (namespace === undefined || x.namespace === namespace));
  if (!p) return undefined;
  const groups = policyGroupsText(p.rules);
  return { name: p.name, namespace: p.namespace, scope: p.scope, action: p.action, rules: groups, groups };
}

/** The answer to a scenario's query, in the expected answer's terms. */
function answer(model: AmbientModel, view: Parameters<typeof traceRequest>[0], s: Scenario): Record<string, unknown> {
  const q = s.query;
  const type = String(q.type);
  const st = model.ztunnel;
  switch (type) {
    case 'enrollment': {
      const pod = model.cluster.podsByKey.get(String(q.pod));
      if (!pod) throw new Error(`no pod ${String(q.pod)}`);
      const w = st.workloads.find((x) => x.pod === pod);
      return {
        mode: pod.mode,
        reasonCode: pod.stateCode ?? pod.enrollment.code,
        reasonText: pod.enrollment.reason,
        ...(w ? { ztunnelProtocol: w.protocol } : {}),
      };
    }
    case 'ztunnel-workloads': {
      const f = parseCommand(String(q.command ?? ''));
      const t = workloadsTable(st, { namespace: f.get('workload-namespace'), node: f.get('workload-node'), address: f.get('address') });
      const out: Record<string, unknown> = tableOf(t);
      const json: Record<string, unknown> = {};
      for (const r of t.records) json[`${r.json.namespace}/${r.json.name}`] = { ...r.json, ...(r.identity ? { identity: r.identity } : {}) };
      out.workloadJson = json;
      if (t.records.length === 1 && t.records[0]?.pod) out.enrollment = t.records[0].pod.mode;
      return out;
    }
    case 'ztunnel-workload-json': {
      const j = workloadJsonOf(model, String(q.workload));
      if (!j) throw new Error(`no workload ${String(q.workload)}`);
      return j;
    }
    case 'ztunnel-node-view': {
      const v = nodeView(model.cluster, st, String(q.node));
      return {
        capturedPods: v.capturedPods,
        inPodListeners: v.inPodListeners,
        certificates: v.certificates.map((c) => c.identity),
        workloadsKnown: v.workloadsKnown,
        servicesKnown: v.servicesKnown,
      };
    }
    case 'ztunnel-policies': {
      const f = parseCommand(String(q.command ?? ''));
      const t = policiesTable(st, { namespace: f.get('policy-namespace') });
      const workloadPolicies: Record<string, string[]> = {};
      for (const w of st.workloads) workloadPolicies[`${w.json.namespace}/${w.json.name}`] = w.json.authorizationPolicies ?? [];
      const notIncluded: Record<string, string> = {};
      for (const c of st.policies.conversions) if (!c.authorization) notIncluded[`${c.resource.namespace}/${c.resource.name}`] = c.excluded ?? '';
      return { ...tableOf(t), workloadPolicies, notIncluded };
    }
    case 'ztunnel-services': {
      const f = parseCommand(String(q.command ?? ''));
      const t = servicesTable(st, { namespace: f.get('service-namespace') });
      const out: Record<string, unknown> = tableOf(t);
      const only = t.records.length === 1 ? t.records[0] : undefined;
      if (only) {
        const w = only.binding.waypoint;
        out.wdsWaypoint = w
          ? {
              ...(w.address.hostname ? { hostname: w.address.hostname } : { address: { network: '', address: w.address.ip } }),
              hboneMtlsPort: w.address.hboneMtlsPort,
            }
          : null;
        out.condition = only.condition;
      }
      return out;
    }
    case 'ztunnel-services+workloads': {
      const ns = q.namespace === undefined ? undefined : String(q.namespace);
      const serviceCondition: Record<string, unknown> = {};
      for (const r of st.services) serviceCondition[`${r.namespace}/${r.name}`] = r.condition;
      return { services: tableOf(servicesTable(st, { namespace: ns })), workloads: tableOf(workloadsTable(st, { namespace: ns })), serviceCondition };
    }
    case 'waypoint-binding': {
      const [kind, key] = String(q.target).split(/\s+/, 2) as [string, string];
      const [ns, name] = key.split('/') as [string, string];
      if (kind === 'Pod') {
        const pod = model.cluster.podsByKey.get(key);
        if (!pod) throw new Error(`no pod ${key}`);
        const b = pod.waypoint;
        return { waypoint: b.waypoint ? `${b.waypoint.namespace}/${b.waypoint.name}` : null, condition: null, reasonCode: b.error?.reason ?? null };
      }
      const svc = st.services.find((x) => x.namespace === ns && x.name === name && x.kind === (kind === 'ServiceEntry' ? 'ServiceEntry' : 'Service'));
      if (!svc) throw new Error(`no ${kind} ${key}`);
      const b = svc.binding;
      return {
        waypoint: b.waypoint ? `${b.waypoint.namespace}/${b.waypoint.name}` : null,
        condition: svc.condition,
        wdsIngressUseWaypoint: svc.ingress.value,
        reasonCode: b.error?.reason ?? null,
      };
    }
    case 'trace': {
      const r = traceRequest(view, model, { from: String(q.from), to: String(q.to), request: q.request === undefined ? undefined : String(q.request) });
      return { trace: r };
    }
    default:
      throw new Error(`unknown query type ${type}`);
  }
}

function compareTrace(model: AmbientModel, s: Scenario, r: TraceResult, diffs: string[]): void {
  const e = s.expected;
  for (const [k, v] of Object.entries(e)) {
    if (PROSE.has(k)) continue;
    switch (k) {
      case 'result':
        if (r.result !== v) diffs.push(`result: expected ${show(v)}, got ${show(r.result)}${r.error ? ` (${r.error})` : ''}`);
        break;
      case 'hops': {
        const ours = r.hops.map((h) => h.text).join('\n');
        const ourFacts = new Set(hopFacts(ours));
        for (const line of v as string[]) for (const f of hopFacts(line)) if (!ourFacts.has(f)) diffs.push(`hops: ${f} (from "${line}") is in no hop of ours`);
        break;
      }
      case 'enforcement': {
        const list = v as Array<Record<string, unknown>>;
        if (list.length !== r.enforcement.length)
          diffs.push(`enforcement: expected ${list.length} points, got ${r.enforcement.length}: ${show(r.enforcement.map((x) => x.point))}`);
        list.forEach((ex, i) => {
          const ours = r.enforcement[i];
          if (!ours) return;
          for (const [fk, fv] of Object.entries(ex)) {
            if (PROSE.has(fk)) continue;
            if (fk === 'point') {
              if (!pointMatches(String(fv), ours.point, ours.listener))
                diffs.push(`enforcement[${i}].point: expected ${show(fv)}, got ${show(ours.point)} (listener ${ours.listener ?? '-'})`);
            } else if (!deepEqual(fv, (ours as unknown as Record<string, unknown>)[fk]))
              diffs.push(`enforcement[${i}].${fk}: expected ${show(fv)}, got ${show((ours as unknown as Record<string, unknown>)[fk])}`);
          }
        });
        break;
      }
      case 'deniedAt': {
        const m = /^(.*?) \((L4|L7)\)(?:, policy (\S+)(?: \(scope (\w+)\))?)?$/.exec(String(v));
        const d = r.deniedAt;
        if (!m || !d) {
          diffs.push(`deniedAt: expected ${show(v)}, got ${show(d?.text)}`);
          break;
        }
        const ok =
          pointMatches(m[1] as string, d.point, d.listener) &&
          d.layer === m[2] &&
          (m[3] === undefined || d.policy === m[3]) &&
          (m[4] === undefined || d.scope === m[4]);
        if (!ok) diffs.push(`deniedAt: expected ${show(v)}, got ${show(d.text)}`);
        break;
      }
      case 'ztunnelPolicy': {
        const ex = v as Record<string, unknown>;
        const ours = ztunnelPolicyAnswer(model, String(ex.name), ex.namespace === undefined ? undefined : String(ex.namespace));
        if (!ours) diffs.push(`ztunnelPolicy: no policy ${String(ex.namespace)}/${String(ex.name)} is sent to ztunnel`);
        else subsetDiff(ex, ours, 'ztunnelPolicy', diffs);
        break;
      }
      case 'status': {
        const exName = (e.ztunnelPolicy as Record<string, unknown> | undefined)?.name;
        const candidates = model.ztunnel.policies.conversions.filter((c) => exName === undefined || c.resource.name === exName);
        const conds = candidates.map((c) => c.condition ?? null);
        if (!conds.some((c) => deepEqual(c, v))) diffs.push(`status: expected ${show(v)}, got ${show(conds)}`);
        break;
      }
      case 'servicesRow':
      case 'workloadsRow': {
        const row = v as string[];
        const t = k === 'servicesRow' ? servicesTable(model.ztunnel) : workloadsTable(model.ztunnel);
        const ours = t.rows.find((x) => x[0] === row[0] && x[1] === row[1]);
        if (!deepEqual(row, ours)) diffs.push(`${k}: expected ${show(row)}, got ${show(ours)}`);
        break;
      }
      case 'waypointUsed':
        if (r.waypointUsed !== v) diffs.push(`waypointUsed: expected ${show(v)}, got ${show(r.waypointUsed)}`);
        break;
      default:
        diffs.push(`${k}: not answered by the trace (field not checked)`);
    }
  }
}

export function runScenario(s: Scenario): CaseResult {
  const id = `ambient/${s.name}`;
  const base = { suite: 'ambient', id, analyzer: 'ambient/scenarios' };
  try {
    const { view } = loadMesh([{ path: `${s.name}.yaml`, text: s.manifests }]);
    const model = buildAmbientModel(view);
    const actual = answer(model, view, s);
    const diffs: string[] = [];
    if (s.query.type === 'trace') {
      compareTrace(model, s, actual.trace as TraceResult, diffs);
    } else if (s.query.type === 'ztunnel-workload-json') {
      subsetDiff(s.expected, actual, 'workload', diffs);
    } else {
      for (const [k, v] of Object.entries(s.expected)) {
        if (k === 'reason') {
          const code = REASON_CODES.find((c) => String(v).startsWith(`${c}:`));
          if (code && actual.reasonCode !== code) diffs.push(`reason: expected ${code}, got ${show(actual.reasonCode)}`);
          continue;
        }
        if (PROSE.has(k)) continue;
        if (!(k in actual)) {
          diffs.push(`${k}: not answered (field not checked)`);
          continue;
        }
        if (k === 'workloadJson' || k === 'notIncluded') {
          if (k === 'notIncluded') {
            const ex = Object.keys(v as object).sort();
            const ours = Object.keys(actual[k] as object).sort();
            if (!deepEqual(ex, ours)) diffs.push(`notIncluded: expected ${show(ex)}, got ${show(ours)}`);
          } else subsetDiff(v, actual[k], k, diffs);
          continue;
        }
        if (k === 'workloadPolicies' || k === 'serviceCondition') {
          for (const [wk, wv] of Object.entries(v as object))
            if (!deepEqual(wv, (actual[k] as Record<string, unknown>)[wk]))
              diffs.push(`${k}.${wk}: expected ${show(wv)}, got ${show((actual[k] as Record<string, unknown>)[wk])}`);
          continue;
        }
        if (!deepEqual(v, actual[k])) diffs.push(`${k}: expected ${show(v)}, got ${show(actual[k])}`);
      }
    }
    return { ...base, passed: diffs.length === 0, missing: diffs, extra: [] };
  } catch (e) {
    return { ...base, passed: false, missing: [], extra: [], error: (e as Error).stack ?? String(e) };
  }
}

export function loadScenarios(root: string): Scenario[] {
  const p = join(root, 'ambient', 'scenarios.json');
  if (!existsSync(p)) return [];
  const v = JSON.parse(readFileSync(p, 'utf8')) as unknown;
  return Array.isArray(v) ? (v as Scenario[]) : [];
}

export function run(root: string): CaseResult[] {
  return loadScenarios(root).map(runScenario);
}
