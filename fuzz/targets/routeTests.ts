// Target `route-tests`: the route-test file reader on mutated sample files, on the sample
// with a few fields replaced, removed or added (Bookinfo's hosts, ports, paths and sources, or
// values of any type), and on generated RouteTests documents whose fields have any type.
// Reading never throws; every problem has a line inside the file and a sane message; every
// test it accepts is runnable (hosts, a port in range, paths starting with "/"); running the
// accepted tests against Bookinfo never throws and counts every test once.
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readRouteTests, runRouteTests } from '../../src/core/xds/routeTests/index.ts';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { QueryState } from '../../src/core/queries/index.ts';
import { mutatedSeed } from '../gen/yamlText.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface RouteTestsInput {
  text: string;
}

const SAMPLES = fileURLToPath(new URL('../../public/samples/', import.meta.url));
const SAMPLE_TESTS = readFileSync(`${SAMPLES}bookinfo/route-tests.yaml`, 'utf8');
const FILES = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];
let state: Promise<QueryState> | undefined;

function bookinfo(): Promise<QueryState> {
  state ??= (async () => {
    const w = new WorkspaceAnalyzer();
    w.update(
      FILES.map((f) => ({ path: f, text: readFileSync(`${SAMPLES}bookinfo/${f}`, 'utf8') })),
      [],
    );
    await w.run(defaultAnalysisSettings());
    return w.analyzedState()!;
  })();
  return state;
}

const scalar = fc.oneof(
  fc.constantFrom('reviews', 'reviews.bookinfo', 'ratings:9080', '*', '', '/', '/reviews/1', 'GET', 'v1', '5s', 'x', 'https', '0'),
  fc.integer({ min: -2, max: 70000 }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('number', 'host', 'subset', 'httpStatus', 'fixedDelay', 'x'), scalar, { maxKeys: 2 }) },
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });

const destination = fc.record({ destination: maybe(fc.record({ host: maybe(value), port: maybe(value), subset: maybe(value) })), weight: maybe(value) });
const testArb = fc.record({
  description: maybe(value),
  source: maybe(fc.oneof(fc.constantFrom('productpage-v1.bookinfo', 'reviews-v2.bookinfo', 'istio-ingressgateway.istio-system', 'nobody.x'), value)),
  namespace: maybe(value),
  wantMatch: maybe(value),
  request: maybe(
    fc.oneof(
      value,
      fc.record({
        host: maybe(value),
        authority: maybe(value),
        port: maybe(value),
        method: maybe(value),
        path: maybe(value),
        uri: maybe(value),
        headers: maybe(value),
        protocol: maybe(fc.oneof(fc.constantFrom('http', 'tcp', 'grpc', 'HTTP2'), value)),
      }),
    ),
  ),
  expect: maybe(
    fc.oneof(
      value,
      fc.record({
        route: maybe(fc.oneof(value, destination, fc.array(destination, { maxLength: 3 }))),
        cluster: maybe(value),
        redirect: maybe(value),
        rewrite: maybe(value),
        fault: maybe(value),
        timeout: maybe(value),
        status: maybe(value),
        statu: maybe(value),
      }),
    ),
  ),
});

const generated = fc
  .record({
    apiVersion: fc.constantFrom('mesh-workbench.dev/v1alpha1', 'mesh-workbench.dev/v1alpha1', 'v1', ''),
    kind: fc.constantFrom('RouteTests', 'RouteTests', 'RouteTests', 'Service'),
    metadata: maybe(fc.record({ name: maybe(value), namespace: maybe(value) })),
    spec: maybe(
      fc.oneof(
        { weight: 1, arbitrary: value },
        {
          weight: 5,
          arbitrary: fc.record({
            source: maybe(value),
            tests: maybe(fc.oneof({ weight: 1, arbitrary: value }, { weight: 5, arbitrary: fc.array(testArb, { maxLength: 4 }) })),
          }),
        },
      ),
    ),
  })
  .map((doc) => jsyaml.dump(JSON.parse(JSON.stringify(doc)) as unknown, { flowLevel: 4 }));

/** Values a route test means: Bookinfo's hosts, ports, paths, sources, subsets, statuses. */
const plausible: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'reviews',
    'reviews.bookinfo',
    'ratings.bookinfo.svc.cluster.local',
    'details',
    'productpage',
    'bookinfo.example.com',
    '*.example.com',
    'nope.bookinfo',
    '10.0.0.1',
  ),
  fc.constantFrom(9080, 80, 443, 15021, 8080),
  fc.constantFrom('/', '/reviews/1', '/productpage', '/admin', '/ratings/0?x=1', 'reviews'),
  fc.constantFrom('GET', 'POST', 'DELETE', 'get'),
  fc.constantFrom('productpage-v1.bookinfo', 'reviews-v2.bookinfo', 'ratings-v1.bookinfo', 'istio-ingressgateway.istio-system', 'bookinfo', 'istio-system'),
  fc.constantFrom('v1', 'v2', 'v3', '5s', '0s', '1m', 'http', 'grpc', 'tcp'),
  fc.constantFrom(200, 301, 404, 503, 0, 50, 75, 100, true, false),
  fc.constantFrom<unknown>(
    { abort: 503 },
    { delay: '5s' },
    { abort: { httpStatus: 500 } },
    { scheme: 'https', code: 301 },
    { path: '/' },
    { 'end-user': 'jason' },
    { number: 9080 },
  ),
  fc.constantFrom<unknown>(
    [{ destination: { host: 'reviews', subset: 'v1' }, weight: 100 }],
    { destination: { host: 'details' } },
    ['GET', 'POST'],
    ['/a', '/b'],
  ),
);

type Edit = { at: number; op: 'set' | 'delete' | 'add'; key: string; value: unknown };

/** Every entry of every mapping and list inside `v`, with the key or index to edit, in document order. */
function slots(v: unknown, out: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = []) {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push({ parent: v, key: i });
      slots(x, out);
    });
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push({ parent: v as Record<string, unknown>, key: k });
      slots(x, out);
    }
  return out;
}

/**
 * The sample file with one to three edits: a field (or list item) set to a Bookinfo value or a
 * value of any type, removed, or a field added next to it. Most edited tests still read, so the
 * runner gets them (mutated windows of the file rarely keep its head).
 */
function editedSample(sample: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const base = JSON.stringify(jsyaml.load(sample));
  const edit: fc.Arbitrary<Edit> = fc.record({
    at: fc.nat(),
    op: fc.constantFrom('set', 'set', 'delete', 'add'),
    key: fc.constantFrom(
      'host',
      'port',
      'path',
      'method',
      'headers',
      'protocol',
      'source',
      'namespace',
      'wantMatch',
      'subset',
      'weight',
      'route',
      'cluster',
      'redirect',
      'rewrite',
      'fault',
      'timeout',
      'status',
      'uri',
      'authority',
      'statu',
    ),
    value: fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: value }),
  });
  return fc.tuple(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.constantFrom(-1, 2, 4, 5)).map(([edits, flowLevel]) => {
    const doc = JSON.parse(base) as unknown;
    for (const e of edits) {
      const all = slots(doc);
      if (all.length === 0) break;
      const s = all[e.at % all.length]!;
      const target = s.parent as Record<string | number, unknown>;
      // A copy: the constants are shared between inputs, and a later edit may add to this one.
      const v = structuredClone(e.value);
      if (e.op === 'set') target[s.key] = v;
      else if (e.op === 'delete') {
        if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
        else delete target[s.key];
      } else {
        const holder = target[s.key];
        if (holder && typeof holder === 'object' && !Array.isArray(holder)) (holder as Record<string, unknown>)[e.key] = v;
        else if (!Array.isArray(s.parent)) target[e.key] = v;
      }
    }
    return jsyaml.dump(doc, { flowLevel });
  });
}

function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

export async function checkRouteTests(input: RouteTestsInput, options: CheckOptions): Promise<CheckOutcome> {
  const f = guarded('readRouteTests', options.timeLimitMs, () => readRouteTests('tests.yaml', input.text));
  const lines = lineCount(input.text);
  for (const p of f.problems) {
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1)
      throw new FuzzFailure('divergence', `problem at line ${p.line} of a ${lines}-line file: ${p.message}`);
    if (p.message.trim() === '' || /undefined|\[object|NaN/.test(p.message))
      throw new FuzzFailure('divergence', `problem with an unreadable message: ${JSON.stringify(p.message)}`);
  }
  let combos = 0;
  for (const s of f.suites) {
    for (const t of s.tests) {
      const r = t.request;
      if (t.description === '' || r.hosts.length === 0 || r.methods.length === 0 || r.paths.length === 0)
        throw new FuzzFailure('divergence', `an accepted test without description, host, method or path: ${JSON.stringify(t)}`);
      if (!Number.isInteger(r.port) || r.port < 1 || r.port > 65535) throw new FuzzFailure('divergence', `an accepted test with port ${r.port}`);
      if (r.paths.some((p) => !p.startsWith('/'))) throw new FuzzFailure('divergence', `an accepted test with path ${JSON.stringify(r.paths)}`);
      if (!Number.isInteger(t.line) || t.line < 1 || t.line > lines + 1) throw new FuzzFailure('divergence', `test at line ${t.line} of a ${lines}-line file`);
      combos += r.hosts.length * r.methods.length * r.paths.length;
    }
  }
  if (combos === 0 || combos > 24) return 'ok';
  const view = (await bookinfo()).view;
  const report = guarded('runRouteTests', options.timeLimitMs, () => runRouteTests(view, f));
  const total = f.suites.reduce((n, s) => n + s.tests.length, 0);
  if (report.results.length !== total || report.passed + report.failed !== total)
    throw new FuzzFailure('divergence', `${total} tests read, ${report.results.length} results, ${report.passed} passed + ${report.failed} failed`);
  for (const r of report.results) {
    if (!r.passed && !r.error && !r.cases.some((c) => !c.passed && c.reasons.length > 0))
      throw new FuzzFailure('divergence', `a failed test without a reason: ${JSON.stringify(r)}`);
  }
  return 'ok';
}

export const routeTestsTarget: Target<RouteTestsInput> = {
  name: 'route-tests',
  description: 'route-test file reader: never throws, problems at lines in the file, accepted tests are runnable',
  arbitrary: () =>
    fc.record({
      text: fc.oneof(
        { weight: 1, arbitrary: mutatedSeed([SAMPLE_TESTS]) },
        { weight: 2, arbitrary: generated },
        { weight: 1, arbitrary: editedSample(SAMPLE_TESTS, value) },
      ),
    }),
  check: checkRouteTests,
  async: true,
  smokeRuns: 300,
  // Broken YAML makes js-yaml and the `yaml` package build many errors: with V8's 10 frames each, ~15% of the time.
  stackFrames: 3,
};
