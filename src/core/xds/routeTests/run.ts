// Runs route tests: each request goes through the request simulator (request.ts) over the
// config generated for its source proxy, and the outcome — clusters with weights, redirect,
// rewrite, fault, timeout, status (RBAC included) — is compared with the expectation. Nothing
// here matches routes itself.
import type { ConfigView } from '../../config/configView.ts';
import { isObj } from '../../document/read.ts';
import { parseGoDuration } from '../../go/duration.ts';
import { listProxies, findProxy, type ProxyRef } from '../proxy.ts';
import { generatedFor } from '../rbacVerdict.ts';
import { simulateRequest, type RequestResult } from '../request.ts';
import type { GeneratedConfig } from '../generate.ts';
import type { Json } from '../types.ts';
import type { ExpectedDestination, RouteTest, RouteTestFile, RouteTestProblem } from './format.ts';

export interface RouteCaseResult {
  source: string;
  method: string;
  host: string;
  port: number;
  path: string;
  passed: boolean;
  /** Each expectation not met (or, with wantMatch: false, why it should not have matched). */
  reasons: string[];
  /** What happened, in one line. */
  actual: string;
}

export interface RouteTestResult {
  suite: string;
  description: string;
  file: string;
  line: number;
  passed: boolean;
  /** The test could not run (no such source proxy). */
  error?: string;
  cases: RouteCaseResult[];
}

export interface RouteTestsReport {
  file: string;
  results: RouteTestResult[];
  /** Problems of the file itself (each with its line); the tests they concern did not run. */
  problems: RouteTestProblem[];
  passed: number;
  failed: number;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `outbound|9080|v1|reviews.default.svc.cluster.local` → its parts; other clusters are named as they are. */
export function clusterParts(name: string): { host: string; port?: number; subset?: string } {
  const p = name.split('|');
  if (p.length === 4) return { host: p[3] as string, port: Number(p[1]), ...(p[2] ? { subset: p[2] } : {}) };
  return { host: name };
}

function expandHost(host: string, namespace: string, suffix: string): string {
  if (host.includes('*')) return host;
  const labels = host.split('.').length;
  if (labels === 1) return `${host}.${namespace}.svc.${suffix}`;
  if (labels === 2) return `${host}.svc.${suffix}`;
  return host;
}

function destinationMatches(want: ExpectedDestination, cluster: string, namespace: string, suffix: string): boolean {
  const got = clusterParts(cluster);
  if (got.host !== want.host && got.host !== expandHost(want.host, namespace, suffix)) return false;
  if (want.port !== undefined && got.port !== want.port) return false;
  if (want.subset !== undefined && (got.subset ?? '') !== want.subset) return false;
  return true;
}

function describeDestination(d: ExpectedDestination): string {
  return `${d.host}${d.port !== undefined ? `:${d.port}` : ''}${d.subset ? ` subset ${d.subset}` : ''}${d.weight !== undefined ? ` ${d.weight}%` : ''}`;
}

/**
 * Whether two durations are the same length: Envoy's (`0.500s`) or as Istio config writes them
 * (`500ms`, `1m30s`), both of which time.ParseDuration reads.
 */
export function sameDuration(a: string, b: string): boolean {
  const x = parseGoDuration(a);
  return x !== undefined && x === parseGoDuration(b);
}

function matchedRoute(gen: GeneratedConfig, res: RequestResult): Json | undefined {
  if (!res.routeKey) return undefined;
  const index = Number(res.routeKey.slice(res.routeKey.lastIndexOf('/') + 1));
  const rc = gen.routes.find((r) => r.name === res.routeConfig);
  const vh = arr(rc?.virtualHosts).find((v) => isObj(v) && v.name === res.virtualHost);
  const route = isObj(vh) ? arr(vh.routes)[index] : undefined;
  return isObj(route) ? route : undefined;
}

const REDIRECT_CODES: Record<string, number> = { MOVED_PERMANENTLY: 301, FOUND: 302, SEE_OTHER: 303, TEMPORARY_REDIRECT: 307, PERMANENT_REDIRECT: 308 };

/** One line for people: where the request went. */
export function describeOutcome(res: RequestResult): string {
  if (res.redirect !== undefined) return `redirect ${res.redirect} (${res.status ?? 301})`;
  if (res.directResponse !== undefined) return `direct response ${res.directResponse}`;
  if (!res.ok)
    return `fails: ${res.failure ?? 'unknown'}${res.status !== undefined && !(res.failure ?? '').includes(String(res.status)) ? ` (${res.status})` : ''}`;
  const cl = res.clusters.map((c) => `${c.name}${res.clusters.length > 1 ? ` ${c.weight}%` : ''}`).join(', ');
  return `${cl || 'no cluster'}${res.rewrite ? ` (rewritten to ${res.rewrite.authority}${res.rewrite.path})` : ''}`;
}

/** The expectations of `t` not met by `res` (empty: all met). */
function unmet(t: RouteTest, gen: GeneratedConfig, res: RequestResult, namespace: string): string[] {
  const e = t.expect;
  const out: string[] = [];
  const dns = gen.proxy.dnsDomain;
  const suffix = dns.includes('.svc.') ? dns.slice(dns.indexOf('.svc.') + 5) : 'cluster.local';
  if (e.route) {
    if (!res.ok && res.clusters.length === 0)
      out.push(`expected route to ${e.route.map(describeDestination).join(', ')}, but the request ${describeOutcome(res)}`);
    else {
      const left = [...res.clusters];
      const missing: ExpectedDestination[] = [];
      for (const want of e.route) {
        const i = left.findIndex(
          (c) => destinationMatches(want, c.name, namespace, suffix) && (want.weight === undefined || Math.abs(c.weight - want.weight) < 0.01),
        );
        if (i < 0) missing.push(want);
        else left.splice(i, 1);
      }
      if (missing.length > 0 || left.length > 0) {
        out.push(
          `expected route to ${e.route.map(describeDestination).join(', ')}; got ${res.clusters.map((c) => `${c.name} ${c.weight}%`).join(', ') || 'no cluster'}`,
        );
      }
    }
  }
  if (e.cluster) {
    const got = res.clusters.map((c) => c.name).sort();
    const want = [...e.cluster].sort();
    if (got.join('\n') !== want.join('\n')) out.push(`expected cluster ${want.join(', ')}; got ${got.join(', ') || 'none'}`);
  }
  const route = matchedRoute(gen, res);
  if (e.redirect) {
    const r = route && isObj(route.redirect) ? route.redirect : undefined;
    if (!r) out.push(`expected a redirect; the request ${describeOutcome(res)}`);
    else {
      const got = {
        scheme: typeof r.schemeRedirect === 'string' ? r.schemeRedirect : r.httpsRedirect === true ? 'https' : undefined,
        host: str(r.hostRedirect) || undefined,
        path: typeof r.pathRedirect === 'string' ? r.pathRedirect : typeof r.prefixRewrite === 'string' ? r.prefixRewrite : undefined,
        port: typeof r.portRedirect === 'number' ? r.portRedirect : undefined,
        code: REDIRECT_CODES[str(r.responseCode)] ?? 301,
      };
      for (const k of ['scheme', 'host', 'path', 'port', 'code'] as const) {
        const want = e.redirect[k];
        if (want !== undefined && got[k] !== want) out.push(`expected redirect ${k} ${want}; got ${got[k] ?? '(unchanged)'}`);
      }
    }
  }
  if (e.rewrite) {
    const seen = res.rewrite ?? { path: '', authority: '' };
    if (!res.rewrite) out.push(`expected a rewrite; the route does not rewrite (${describeOutcome(res)})`);
    else {
      if (e.rewrite.path !== undefined && seen.path !== e.rewrite.path) out.push(`expected the upstream path ${e.rewrite.path}; got ${seen.path}`);
      if (e.rewrite.authority !== undefined && seen.authority !== e.rewrite.authority)
        out.push(`expected the upstream authority ${e.rewrite.authority}; got ${seen.authority}`);
    }
  }
  if (e.fault) {
    const per = route && isObj(route.typedPerFilterConfig) ? route.typedPerFilterConfig : {};
    const f = per['envoy.filters.http.fault'];
    if (!isObj(f)) out.push(`expected a fault; the route injects none`);
    else {
      const abort = isObj(f.abort) && typeof f.abort.httpStatus === 'number' ? f.abort.httpStatus : undefined;
      const delay = isObj(f.delay) ? str(f.delay.fixedDelay) : undefined;
      if (e.fault.abort !== undefined && abort !== e.fault.abort) out.push(`expected a fault abort ${e.fault.abort}; got ${abort ?? 'none'}`);
      if (e.fault.delay !== undefined && (delay === undefined || !sameDuration(delay, e.fault.delay)))
        out.push(`expected a fault delay ${e.fault.delay}; got ${delay ?? 'none'}`);
    }
  }
  if (e.timeout !== undefined) {
    const got = res.timeout;
    if (got === undefined || !sameDuration(got, e.timeout))
      out.push(`expected timeout ${e.timeout}; got ${got === undefined ? 'none' : got === '0s' ? '0s (disabled)' : got}`);
  }
  if (e.status !== undefined) {
    const got = res.status ?? (res.ok ? 200 : undefined);
    if (got !== e.status) out.push(`expected status ${e.status}; got ${got ?? `no response (${res.failure ?? 'fails'})`}`);
  }
  return out;
}

function pickSource(view: ConfigView, t: RouteTest): ProxyRef | string {
  if (t.source) {
    const found = findProxy(view, t.source, t.namespace);
    if (found) return found;
    // A workload name (`istio-ingressgateway.istio-system`): the one proxy whose pod name starts with it.
    const dot = t.source.lastIndexOf('.');
    const [name, ns] = dot > 0 ? [t.source.slice(0, dot), t.source.slice(dot + 1)] : [t.source, t.namespace];
    const named = listProxies(view).filter((p) => p.pod.namespace === ns && p.pod.name.startsWith(`${name}-`));
    if (named.length === 1 && named[0]) return named[0];
    return `no proxy "${t.source}" in the workspace (a pod or controller name, as <name>.<namespace>)`;
  }
  const candidates = listProxies(view)
    .filter((p) => p.type === 'sidecar' && p.pod.namespace === t.namespace)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return candidates[0] ?? `no sidecar in namespace ${t.namespace}: name a source proxy (source: <pod>.<namespace>)`;
}

/** Runs every test of a read file against the workspace. */
export function runRouteTests(view: ConfigView, file: RouteTestFile): RouteTestsReport {
  const report: RouteTestsReport = { file: file.file, results: [], problems: [...file.problems], passed: 0, failed: 0 };
  for (const suite of file.suites) {
    for (const t of suite.tests) {
      const result: RouteTestResult = { suite: suite.name, description: t.description, file: file.file, line: t.line, passed: true, cases: [] };
      const src = pickSource(view, t);
      if (typeof src === 'string') {
        result.passed = false;
        result.error = src;
      } else {
        const gen = generatedFor(view, src);
        const r = t.request;
        for (const host of r.hosts)
          for (const method of r.methods)
            for (const path of r.paths) {
              const res = simulateRequest(view, gen, { host, port: r.port, method, path, headers: r.headers, protocol: r.protocol });
              const reasons = unmet(t, gen, res, src.pod.namespace);
              const passed = t.wantMatch ? reasons.length === 0 : reasons.length > 0;
              const c: RouteCaseResult = {
                source: src.id,
                method,
                host,
                port: r.port,
                path,
                passed,
                reasons: t.wantMatch ? reasons : passed ? [] : ['expected the request NOT to match the expectation (wantMatch: false), but it does'],
                actual: describeOutcome(res),
              };
              result.cases.push(c);
              if (!passed) result.passed = false;
            }
      }
      if (result.passed) report.passed++;
      else report.failed++;
      report.results.push(result);
    }
  }
  return report;
}
