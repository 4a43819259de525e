// Target `route-tests`: the route-test file reader on mutated sample files and on generated
// RouteTests documents whose fields have any type. Reading never throws; every problem has a
// line inside the file and a sane message; every test it accepts is runnable (hosts, a port
// in range, paths starting with "/"); running the accepted tests against Bookinfo never throws
// and counts every test once.
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
    w.update(FILES.map((f) => ({ path: f, text: readFileSync(`${SAMPLES}bookinfo/${f}`, 'utf8') })), []);
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
      fc.record({ host: maybe(value), authority: maybe(value), port: maybe(value), method: maybe(value), path: maybe(value), uri: maybe(value), headers: maybe(value), protocol: maybe(fc.oneof(fc.constantFrom('http', 'tcp', 'grpc', 'HTTP2'), value)) }),
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
    spec: maybe(fc.oneof({ weight: 1, arbitrary: value }, { weight: 5, arbitrary: fc.record({ source: maybe(value), tests: maybe(fc.oneof({ weight: 1, arbitrary: value }, { weight: 5, arbitrary: fc.array(testArb, { maxLength: 4 }) })) }) })),
  })
  .map((doc) => jsyaml.dump(JSON.parse(JSON.stringify(doc)) as unknown, { flowLevel: 4 }));

function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

export async function checkRouteTests(input: RouteTestsInput, options: CheckOptions): Promise<CheckOutcome> {
  const f = guarded('readRouteTests', options.timeLimitMs, () => readRouteTests('tests.yaml', input.text));
  const lines = lineCount(input.text);
  for (const p of f.problems) {
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1) throw new FuzzFailure('divergence', `problem at line ${p.line} of a ${lines}-line file: ${p.message}`);
    if (p.message.trim() === '' || /undefined|\[object|NaN/.test(p.message)) throw new FuzzFailure('divergence', `problem with an unreadable message: ${JSON.stringify(p.message)}`);
  }
  let combos = 0;
  for (const s of f.suites) {
    for (const t of s.tests) {
      const r = t.request;
      if (t.description === '' || r.hosts.length === 0 || r.methods.length === 0 || r.paths.length === 0) throw new FuzzFailure('divergence', `an accepted test without description, host, method or path: ${JSON.stringify(t)}`);
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
  if (report.results.length !== total || report.passed + report.failed !== total) throw new FuzzFailure('divergence', `${total} tests read, ${report.results.length} results, ${report.passed} passed + ${report.failed} failed`);
  for (const r of report.results) {
    if (!r.passed && !r.error && !r.cases.some((c) => !c.passed && c.reasons.length > 0)) throw new FuzzFailure('divergence', `a failed test without a reason: ${JSON.stringify(r)}`);
  }
  return 'ok';
}

export const routeTestsTarget: Target<RouteTestsInput> = {
  name: 'route-tests',
  description: 'route-test file reader: never throws, problems at lines in the file, accepted tests are runnable',
  arbitrary: () => fc.record({ text: fc.oneof({ weight: 1, arbitrary: mutatedSeed([SAMPLE_TESTS]) }, { weight: 2, arbitrary: generated }) }),
  check: checkRouteTests,
  async: true,
  smokeRuns: 300,
};
