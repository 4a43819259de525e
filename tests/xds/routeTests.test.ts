// Route tests: the file reader (problems at their lines), the runner over the request
// simulator, the queries and the CLI.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { viewOf } from './helpers.ts';
import { readRouteTests, runRouteTests, clusterParts, sameDuration } from '../../src/core/xds/routeTests/index.ts';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery } from '../../src/core/queries/index.ts';
import { cli, REPO } from '../cli/helpers.ts';
import { AnalysisHost } from '../../src/worker/host.ts';
import type { FromWorker } from '../../src/worker/protocol.ts';

const HEAD = `apiVersion: mesh-workbench.dev/v1alpha1
kind: RouteTests
metadata: {name: t, namespace: shop}
spec:
  tests:
`;

describe('route-test file reader', () => {
  it('reads tests, defaults and lists of hosts, methods and paths', () => {
    const f = readRouteTests(
      't.yaml',
      `${HEAD}    - description: one
      request: {host: [a, b], port: 80, method: [GET, POST], uri: /x, headers: {x-user: 1}}
      expect:
        route: {destination: {host: a, port: {number: 80}}}
        status: 200
`,
    );
    expect(f.problems).toEqual([]);
    const t = f.suites[0]!.tests[0]!;
    expect(t).toMatchObject({ description: 'one', line: 6, namespace: 'shop', wantMatch: true });
    expect(t.request).toEqual({ hosts: ['a', 'b'], port: 80, methods: ['GET', 'POST'], paths: ['/x'], headers: { 'x-user': '1' }, protocol: 'http' });
    expect(t.expect).toEqual({ route: [{ host: 'a', port: 80 }], status: 200 });
  });

  it('points every problem at its line', () => {
    const text = `${HEAD}    - description: bad port
      request: {host: a, port: eighty}
      expect: {status: 200}
    - description: no host
      request:
        port: 80
      expect: {status: 200}
    - description: unknown field
      request: {host: a, port: 80}
      expect: {status: 200, sttus: 404}
    - request: {host: a, port: 80, path: nope}
      expect: {status: 2000}
`;
    const f = readRouteTests('t.yaml', text);
    const byLine = f.problems.map((p) => `${p.line}: ${p.message}`);
    expect(byLine).toContain('7: spec.tests[0].request.port: must be a port number (1–65535), not string "eighty"');
    expect(byLine.some((l) => l.startsWith('10: spec.tests[1].request: needs a host'))).toBe(true);
    expect(byLine.some((l) => l.startsWith('15: spec.tests[2].expect.sttus: unknown field'))).toBe(true);
    expect(byLine.some((l) => l.startsWith('16: spec.tests[3]: needs a description'))).toBe(true);
    expect(byLine.some((l) => l.startsWith('16: spec.tests[3].request.path: must start with "/"'))).toBe(true);
    expect(byLine.some((l) => l.startsWith('17: spec.tests[3].expect.status: must be an HTTP status'))).toBe(true);
    // Tests with problems do not run; the others do.
    expect(f.suites[0]!.tests).toEqual([]);
  });

  it('reports YAML errors, a wrong apiVersion and a file without RouteTests', () => {
    expect(readRouteTests('t.yaml', `${HEAD}    - description: [unclosed\n`).problems[0]).toMatchObject({ file: 't.yaml', line: 6 });
    expect(readRouteTests('t.yaml', HEAD.replace('v1alpha1', 'v9')).problems[0]).toMatchObject({
      line: 1,
      message: expect.stringContaining('apiVersion: must be mesh-workbench.dev/v1alpha1'),
    });
    expect(readRouteTests('t.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: x}\n').problems[0]?.message).toContain('no RouteTests document');
    expect(readRouteTests('t.yaml', `${HEAD.replace('  tests:\n', '')}  tests: 3\n`).problems[0]).toMatchObject({
      line: 5,
      message: 'spec.tests: tests must be a list, not number 3',
    });
    // Fuzz counterexample: a missing apiVersion is named as missing.
    expect(readRouteTests('t.yaml', '#apiVersion: mesh-workbench.dev/v1alpha1\nkind: RouteTests\n').problems[0]?.message).toBe(
      'apiVersion: must be mesh-workbench.dev/v1alpha1, not nothing',
    );
    for (const junk of ['', '- a\n- b\n', 'kind: RouteTests\n', 'kind: RouteTests\nspec: []\n', '\u0000\u0001'])
      expect(() => readRouteTests('t.yaml', junk)).not.toThrow();
  });

  it('names a field or header whose name is a mapping (a "?" key) as such, at the line of its mapping', () => {
    // Fuzz counterexample (route-tests, seed 20261207): js-yaml names such a key "[object Object]".
    const text = `${HEAD}    - description: one
      request: {host: a, port: 80}
      expect: {status: 200}
      ? weight: 25
    - description: two
      request:
        host: a
        port: 80
        headers: {? {x: 1} : y, x-user: jason}
      expect: {status: 200}
`;
    const f = readRouteTests('t.yaml', text);
    expect(f.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '6: spec.tests[0]: has a field whose name is a mapping (a "?" key); field names are words (known: description, source, namespace, request, expect, wantMatch)',
      '14: spec.tests[1].request.headers: has a header whose name is a mapping (a "?" key); a header name is text',
    ]);
    expect(f.suites[0]!.tests).toEqual([]);
  });

  it('refuses empty items in a list of hosts, methods, paths or clusters (a test that checks nothing must not pass)', () => {
    // Fuzz counterexample (route-tests, seed 99): `path: [null]` gave an accepted test without paths.
    const text = `${HEAD}    - description: one
      request: {host: a, port: 80, path: [null]}
      expect: {status: 200}
    - description: two
      request:
        host:
          -
        port: 80
        method: [GET, ~]
      expect: {cluster: [~]}
`;
    const f = readRouteTests('t.yaml', text);
    expect(f.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '7: spec.tests[0].request.path[0]: must be a string, not null',
      '12: spec.tests[1].request.host[0]: must be a string, not null',
      '14: spec.tests[1].request.method[1]: must be a string, not null',
      '15: spec.tests[1].expect.cluster[0]: must be a string, not null',
    ]);
    expect(f.suites[0]!.tests).toEqual([]);
  });

  it('reads cluster names and durations', () => {
    expect(clusterParts('outbound|9080|v1|reviews.default.svc.cluster.local')).toEqual({ host: 'reviews.default.svc.cluster.local', port: 9080, subset: 'v1' });
    expect(clusterParts('outbound|80||a.b')).toEqual({ host: 'a.b', port: 80 });
    expect(clusterParts('PassthroughCluster')).toEqual({ host: 'PassthroughCluster' });
    // Envoy writes 90s and 0.500s; a test may write them as Istio config does.
    expect(sameDuration('90s', '1m30s')).toBe(true);
    expect(sameDuration('0.500s', '500ms')).toBe(true);
    expect(sameDuration('0.250s', '250ms')).toBe(true);
    expect(sameDuration('3s', '4s')).toBe(false);
    expect(sameDuration('banana', 'banana')).toBe(false);
  });
});

const SHOP = `apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {istio-injection: enabled}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web:1, ports: [{containerPort: 8080}]}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: client, namespace: shop}
spec:
  selector: {matchLabels: {app: client}}
  template:
    metadata: {labels: {app: client}}
    spec: {containers: [{name: c, image: c:1}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: web, namespace: shop}
spec:
  hosts: [web]
  http:
    - match: [{uri: {prefix: /old}}]
      redirect: {uri: /new, authority: web.example.com, redirectCode: 302}
    - match: [{uri: {prefix: /api/}}]
      rewrite: {uri: /v2/}
      route: [{destination: {host: web}}]
    - match: [{uri: {prefix: /slow}}]
      fault: {delay: {fixedDelay: 2s, percentage: {value: 100}}, abort: {httpStatus: 503, percentage: {value: 10}}}
      route: [{destination: {host: web}}]
    - match: [{uri: {prefix: /admin}}]
      route: [{destination: {host: web}}]
    - route: [{destination: {host: web}}]
      timeout: 3s
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: no-admin, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  action: DENY
  rules: [{to: [{operation: {paths: [/admin*]}}]}]
`;

function runTests(mesh: string, tests: string) {
  return runRouteTests(viewOf(mesh), readRouteTests('tests.yaml', `${HEAD}${tests}`));
}

describe('route tests run through the simulator', () => {
  it('checks redirects, rewrites, faults, timeouts and RBAC status', () => {
    const r = runTests(
      SHOP,
      `    - description: redirect
      request: {host: web, port: 80, path: /old/page}
      expect: {redirect: {host: web.example.com, path: /new, code: 302}, status: 302}
    - description: rewrite
      request: {host: web, port: 80, path: "/api/items?q=1"}
      expect: {rewrite: {path: "/v2/items?q=1"}, route: {destination: {host: web.shop.svc.cluster.local, port: 80}}}
    - description: fault
      request: {host: web, port: 80, path: /slow}
      expect: {fault: {delay: 2000ms, abort: {httpStatus: 503}}}
    - description: timeout
      request: {host: web, port: 80, path: /}
      expect: {timeout: 3s, status: 200, cluster: outbound|80||web.shop.svc.cluster.local}
    - description: admin is denied by RBAC
      request: {host: web, port: 80, path: /admin/x}
      expect: {status: 403}
`,
    );
    expect(r.problems).toEqual([]);
    expect(r.results.map((x) => [x.description, x.passed, x.cases.flatMap((c) => c.reasons)])).toEqual([
      ['redirect', true, []],
      ['rewrite', true, []],
      ['fault', true, []],
      ['timeout', true, []],
      ['admin is denied by RBAC', true, []],
    ]);
    expect(r.results[0]!.cases[0]!.source).toMatch(/^client-.*\.shop$/);
  });

  it('reads expected durations as Istio config writes them, and names one that is not a duration', () => {
    const r = runTests(
      SHOP,
      `    - description: Go forms
      request: {host: web, port: 80, path: /slow}
      expect: {fault: {delay: 0h0m2s}}
    - description: minutes
      request: {host: web, port: 80, path: /}
      expect: {timeout: 0.05m}
    - description: no unit
      request: {host: web, port: 80, path: /}
      expect: {timeout: 3}
`,
    );
    expect(r.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '14: spec.tests[2].expect.timeout: must be a duration such as 5s, 250ms or 1m30s, not number 3',
    ]);
    expect(r.results.map((x) => [x.description, x.passed, x.cases.flatMap((c) => c.reasons)])).toEqual([
      ['Go forms', true, []],
      ['minutes', true, []],
    ]);
  });

  it('fails with the reason when the expectation is wrong, and honours wantMatch: false', () => {
    const r = runTests(
      SHOP,
      `    - description: wrong subset
      request: {host: web, port: 80, path: [/, /x]}
      expect: {route: {destination: {host: web, subset: v2}}}
    - description: not to admin
      wantMatch: false
      request: {host: web, port: 80, path: /admin}
      expect: {status: 200}
    - description: wrongly negated
      wantMatch: false
      request: {host: web, port: 80, path: /}
      expect: {status: 200}
    - description: unknown source
      source: nobody.shop
      request: {host: web, port: 80}
      expect: {status: 200}
`,
    );
    const [wrong, notAdmin, negated, unknown] = r.results;
    expect(wrong!.passed).toBe(false);
    expect(wrong!.cases).toHaveLength(2);
    expect(wrong!.cases[0]!.reasons[0]).toBe('expected route to web subset v2; got outbound|80||web.shop.svc.cluster.local 100%');
    expect(notAdmin!.passed).toBe(true);
    expect(negated!.passed).toBe(false);
    expect(negated!.cases[0]!.reasons[0]).toContain('wantMatch: false');
    expect(unknown!.error).toContain('no proxy "nobody.shop"');
    expect([r.passed, r.failed]).toEqual([1, 3]);
  });

  it('the Bookinfo sample passes, and an edited weight makes its split test fail', () => {
    const dir = join(REPO, 'public/samples/bookinfo');
    const files = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'].map((f) => readFileSync(join(dir, f), 'utf8'));
    const tests = readRouteTests('route-tests.yaml', readFileSync(join(dir, 'route-tests.yaml'), 'utf8'));
    expect(tests.problems).toEqual([]);
    const ok = runRouteTests(viewOf(files.join('\n---\n'), {}, true), tests);
    expect(ok.results.filter((x) => !x.passed).map((x) => [x.description, x.error, x.cases.flatMap((c) => c.reasons)])).toEqual([]);
    expect(ok.passed).toBeGreaterThanOrEqual(5);
    const edited = files.map((t) => t.replace('weight: 75', 'weight: 50').replace('weight: 25', 'weight: 50'));
    const bad = runRouteTests(viewOf(edited.join('\n---\n'), {}, true), tests);
    const split = bad.results.find((x) => x.description.includes('75/25'))!;
    expect(split.passed).toBe(false);
    expect(split.cases[0]!.reasons[0]).toContain('outbound|9080|v1|reviews.bookinfo.svc.cluster.local 50%');
  });
});

describe('route tests from the workspace and the CLI', () => {
  it('lists the workspace files with route tests and runs one by name', async () => {
    const w = new WorkspaceAnalyzer();
    w.update(
      [
        { path: 'mesh.yaml', text: SHOP },
        { path: 'tests.yaml', text: `${HEAD}    - description: root\n      request: {host: web, port: 80}\n      expect: {timeout: 3s}\n` },
      ],
      [],
    );
    await w.run(defaultAnalysisSettings());
    const state = w.analyzedState()!;
    expect(answerQuery('routeTestFiles', {}, state)).toEqual({ files: [{ file: 'tests.yaml', tests: 1, problems: 0 }] });
    const report = answerQuery('routeTests', { file: 'tests.yaml' }, state);
    expect(report.results.map((x) => x.passed)).toEqual([true]);
    expect(() => answerQuery('routeTests', { file: 'missing.yaml' }, state)).toThrow(/No file/);
  });

  it('the analysis worker answers routeTestFiles and routeTests after an edit of the tests', async () => {
    const out: FromWorker[] = [];
    const host = new AnalysisHost((m) => out.push(structuredClone(m)), { yieldEveryMs: 0 });
    const idle = async () => {
      for (let i = 0; i < 2000 && host.busy; i++) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, 0));
    };
    const tests = `${HEAD}    - description: root\n      request: {host: web, port: 80}\n      expect: {timeout: 3s}\n`;
    host.handle({
      type: 'sync',
      version: 1,
      changed: [
        { path: 'mesh.yaml', text: SHOP },
        { path: 'tests.yaml', text: tests },
      ],
      edits: [],
      removed: [],
      settings: defaultAnalysisSettings(),
    });
    await idle();
    host.handle({ type: 'query', id: 1, view: 'routeTestFiles', args: {} });
    host.handle({ type: 'query', id: 2, view: 'routeTests', args: { file: 'tests.yaml' } });
    const answer = (id: number) => out.find((m): m is Extract<FromWorker, { type: 'queryResult' }> => m.type === 'queryResult' && m.id === id)?.result;
    expect(answer(1)).toEqual({ files: [{ file: 'tests.yaml', tests: 1, problems: 0 }] });
    expect((answer(2) as { passed: number }).passed).toBe(1);
    const at = tests.indexOf('3s');
    host.handle({
      type: 'sync',
      version: 2,
      changed: [],
      edits: [{ path: 'tests.yaml', changes: [{ offset: at, length: 1, text: '4' }], length: tests.length }],
      removed: [],
      settings: defaultAnalysisSettings(),
    });
    await idle();
    host.handle({ type: 'query', id: 3, view: 'routeTests', args: { file: 'tests.yaml' } });
    const r = answer(3) as { failed: number; results: Array<{ cases: Array<{ reasons: string[] }> }> };
    expect(r.failed).toBe(1);
    expect(r.results[0]!.cases[0]!.reasons).toEqual(['expected timeout 4s; got 3s']);
  });

  it('route-test prints results like a test runner, with exit codes 0, 1 and 64', async () => {
    const sample = join(REPO, 'public/samples/bookinfo');
    const ok = await cli(['route-test', join(sample, 'route-tests.yaml'), sample]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('  ✓ reviews is split 75/25 between v1 and v2\n');
    expect(ok.stdout).toMatch(/Tests: \d+ passed, \d+ total\n$/);
    const json = await cli(['route-test', '-o', 'json', join(sample, 'route-tests.yaml'), sample]);
    expect(JSON.parse(json.stdout)).toMatchObject({ failed: 0, problems: [] });
    const failing = await cli(['route-test', '-', sample], {
      stdin: `${HEAD.replace('shop', 'bookinfo')}    - description: reviews only v3\n      request: {host: reviews, port: 9080}\n      expect: {route: {destination: {host: reviews, subset: v3}}}\n`,
    });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('  ✗ reviews only v3\n      at -:6\n');
    expect(failing.stdout).toContain('Tests: 1 failed, 0 passed, 1 total');
    const broken = await cli(['route-test', '-', sample], {
      stdin: `${HEAD}    - description: x\n      request: {host: a, port: 0}\n      expect: {status: 200}\n`,
    });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('-:7: spec.tests[0].request.port: must be a port number');
    expect((await cli(['route-test', join(sample, 'route-tests.yaml')])).code).toBe(64);
    expect((await cli(['route-test', '-o', 'xml', 'a', 'b'])).code).toBe(64);
  });
});
