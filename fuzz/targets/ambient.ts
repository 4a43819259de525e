// Target `ambient`: the ambient data-plane simulation (src/core/ambient) on manifests from
// the ambient sample and the shared ambient scenarios, with values replaced by wrong types,
// odd keys and tricky label values, then the views the CLI and the Data plane tab ask for:
// the cluster model, every ztunnel-config table, each node's view, redirection rules, and
// traces with odd `from`/`to`/request strings and settings bags as another thread sends them.
// The property: no exception escapes, a trace's result is ALLOW, DENY or ERROR, and nothing
// takes over the time limit.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { certificatesTable, nodeView, policiesTable, servicesTable, tabwrite, workloadsTable } from '../../src/core/ambient/ztunnel.ts';
import { redirectionRules } from '../../src/core/ambient/cni.ts';
import { traceRequest } from '../../src/core/ambient/trace.ts';
import { readSettings } from '../../src/core/queries/dataplane.ts';
import { word } from '../gen/yamlText.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

export interface AmbientInput {
  text: string;
  settings: unknown;
  traces: Array<{ from: string; to: string; request: string }>;
}

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

let seedDocs: unknown[][] | undefined;
function seeds(): unknown[][] {
  if (!seedDocs) {
    const texts: string[] = [];
    const sample = join(ROOT, 'public', 'samples', 'ambient');
    texts.push(
      readdirSync(sample)
        .sort()
        .map((f) => readFileSync(join(sample, f), 'utf8'))
        .join('\n---\n'),
    );
    const scenarios = resolve(ROOT, '../shared/conformance/ambient/scenarios.json');
    if (existsSync(scenarios))
      for (const s of JSON.parse(readFileSync(scenarios, 'utf8')) as Array<{ manifests?: string }>)
        if (typeof s.manifests === 'string') texts.push(s.manifests);
    seedDocs = texts.map((t) => jsyaml.loadAll(t).filter((d) => d && typeof d === 'object'));
  }
  return seedDocs;
}

const WRONG: unknown[] = [
  0,
  -1,
  1.5,
  65536,
  true,
  null,
  '',
  'x',
  '*',
  'none',
  'ambient',
  'enabled',
  'false',
  'true',
  'http',
  'default',
  '10.0.0.1',
  '::1',
  '240.240.0.1',
  'a/b',
  '__proto__',
  'toString',
  [],
  {},
  ['x'],
  [{}],
  { a: 'b' },
  'a'.repeat(300),
  'istio-waypoint',
  'service',
  'workload',
  'all',
  15008,
];
const ODD_KEYS = [
  'toString',
  '__proto__',
  'constructor',
  'istio.io/dataplane-mode',
  'istio.io/use-waypoint',
  'istio.io/use-waypoint-namespace',
  'istio.io/waypoint-for',
  'istio.io/ingress-use-waypoint',
  'sidecar.istio.io/inject',
  'istio-injection',
  'istio.io/rev',
  'hostNetwork',
  'nodeName',
  'podIP',
  'replicas',
  'targetRefs',
  'selector',
  'ports',
];

type Container = Record<string, unknown> | unknown[];

function slots(value: unknown): Array<[Container, string | number]> {
  const out: Array<[Container, string | number]> = [];
  const stack: unknown[] = [value];
  while (stack.length && out.length < 2000) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    const c = v as Container;
    if (Array.isArray(c)) c.forEach((x, i) => (out.push([c, i]), stack.push(x)));
    else for (const k of Object.keys(c)) out.push([c, k]), stack.push(c[k]);
  }
  return out;
}

const mutationArb = fc.record({ op: fc.constantFrom('replace', 'replace', 'delete', 'add'), at: fc.nat(), pick: fc.nat(), w: word });

const stringish = fc.oneof(
  word,
  fc.constantFrom(
    '',
    '/',
    'a/',
    '/b',
    'ns/pod',
    ':80',
    'host:',
    'host:0',
    'host:99999',
    '[::1]:80',
    '10.0.0.1:8080',
    'x.y.svc.cluster.local:80',
    'GET',
    'POST /a b',
    'TCP',
    'tcp',
    ' GET  / ',
  ),
);

const inputArb: fc.Arbitrary<AmbientInput> = fc
  .record({
    seed: fc.nat(),
    mutations: fc.array(mutationArb, { maxLength: 6 }),
    settings: fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({
        settings: fc.record(
          {
            cluster: fc.record({ nodes: fc.array(word, { maxLength: 4 }) }),
            cni: fc.record({ excludeNamespaces: fc.array(word, { maxLength: 3 }), ambientEnabled: fc.boolean() }),
            overrides: fc.record({
              namespaceLabels: fc.dictionary(
                word,
                fc.dictionary(fc.constantFrom('istio.io/dataplane-mode', 'istio.io/use-waypoint', 'x'), fc.oneof(word, fc.constant(null))),
              ),
            }),
          },
          { requiredKeys: [] },
        ),
      }),
    ),
    traces: fc.array(fc.record({ from: stringish, to: stringish, request: stringish }), { maxLength: 3 }),
    pickPods: fc.array(fc.nat(), { maxLength: 2 }),
  })
  .map(({ seed, mutations, settings, traces, pickPods }) => {
    const all = seeds();
    const docs = structuredClone(all[seed % all.length]!);
    for (const m of mutations) {
      const s = slots(docs);
      if (s.length === 0) break;
      const [c, k] = s[m.at % s.length]!;
      const wrong = m.pick % 5 === 0 ? m.w : structuredClone(WRONG[m.pick % WRONG.length]);
      if (Array.isArray(c)) {
        if (m.op === 'delete') c.splice(k as number, 1);
        else if (m.op === 'add') c.push(wrong);
        else c[k as number] = wrong;
      } else if (m.op === 'delete') delete c[k as string];
      else
        Object.defineProperty(c, m.op === 'add' ? ODD_KEYS[m.pick % ODD_KEYS.length]! : (k as string), {
          value: wrong,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    const text = docs.map((d) => JSON.stringify(d) ?? 'null').join('\n---\n');
    // Traces from real pods too (named by index; resolved in the check), so the deep paths run.
    return { text, settings, traces: [...traces, ...pickPods.map((p) => ({ from: `#${p}`, to: `#${p}`, request: p % 2 ? 'POST /x' : 'GET /' }))] };
  });

export function checkAmbient(input: AmbientInput, options: CheckOptions): CheckOutcome {
  const t0 = performance.now();
  const { view } = guarded('loadMesh', options.timeLimitMs, () => loadMesh([{ path: 'mesh.yaml', text: input.text }]));
  const settings = guarded('readSettings', options.timeLimitMs, () => readSettings(input.settings));
  const model = guarded('buildAmbientModel', options.timeLimitMs, () => buildAmbientModel(view, settings));
  guarded('tables', options.timeLimitMs, () => {
    tabwrite(workloadsTable(model.ztunnel));
    tabwrite(servicesTable(model.ztunnel));
    tabwrite(policiesTable(model.ztunnel));
    for (const n of model.cluster.nodes) tabwrite(certificatesTable(nodeView(model.cluster, model.ztunnel, n.name)), 5);
    for (const p of model.cluster.pods) redirectionRules(p);
  });
  const pods = model.cluster.pods;
  const services = model.ztunnel.services;
  for (const t of input.traces) {
    let { from, to } = t;
    if (/^#\d+$/.test(from) && pods.length > 0) from = pods[Number(from.slice(1)) % pods.length]!.key;
    if (/^#\d+$/.test(to) && services.length > 0) {
      const s = services[Number(to.slice(1)) % services.length]!;
      to = `${s.hostname}:${s.ports[0]?.servicePort ?? 80}`;
    }
    const r = guarded(`trace ${from} -> ${to}`, options.timeLimitMs, () => traceRequest(view, model, { from, to, request: t.request }));
    if (r.result !== 'ALLOW' && r.result !== 'DENY' && r.result !== 'ERROR') throw new FuzzFailure('divergence', `trace result ${String(r.result)}`);
    if (r.result === 'DENY' && !r.deniedAt) throw new FuzzFailure('divergence', 'a denied trace says not where');
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs * 4) throw new FuzzFailure('hang', `the simulation took ${ms.toFixed(0)} ms`);
  return 'ok';
}

export const ambientTarget: Target<AmbientInput> = {
  name: 'ambient',
  description:
    'ambient simulation: cluster model, ztunnel-config tables, node views, redirection rules and traces never throw; a trace is ALLOW, DENY (with where) or ERROR',
  arbitrary: () => inputArb,
  check: checkAmbient,
  async: false,
  smokeRuns: 200,
};
