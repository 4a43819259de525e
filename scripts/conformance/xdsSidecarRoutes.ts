// xds/sidecar-routes: TestSidecarRoutes (sidecar_simulation_test.go), transcribed in
// ../shared/conformance/xds/sidecar-routes-cases.json. The sidecar route configuration named
// `routeConfig` must map each listed domain to the sorted clusters of its virtual host's routes
// (xdstest.ExtractVirtualHosts: single-cluster routes only, a later virtual host wins a domain).
// Entries upstream skips (`skipped`: the Go test calls t.Skipf, sidecar_simulation_test.go:1950
// and :1953, because an HTTPRoute with a Service parent cannot express a wildcard or non-service
// host) carry no config, so nothing can produce their expectation: they are reported as not run.
import { join } from 'node:path';
import { casesIn } from './parts.ts';
import type { CaseResult } from './types.ts';
import { harnessProxy, harnessView, type HarnessProxy } from './xdsHarness.ts';
import { generateForProxy } from '../../src/core/xds/generate.ts';
import type { Json } from '../../src/core/xds/types.ts';

interface RoutesCase {
  name: string;
  variant: 'virtualservice' | 'httproute';
  skipped?: string;
  kubeConfig: string;
  config: string | null;
  proxy: HarnessProxy;
  routeConfig: string;
  expectedDomainClusters: Record<string, string[] | null> | null;
  notes?: string;
}

/** ExtractVirtualHosts. */
export function domainClusters(rc: Json): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  for (const vh of Array.isArray(rc.virtualHosts) ? (rc.virtualHosts as Json[]) : []) {
    const dests: string[] = [];
    for (const r of Array.isArray(vh.routes) ? (vh.routes as Json[]) : []) {
      const act = r.route as Json | undefined;
      if (act && typeof act.cluster === 'string' && act.cluster !== '') dests.push(act.cluster);
    }
    dests.sort();
    for (const d of Array.isArray(vh.domains) ? (vh.domains as string[]) : []) out.set(d, dests.length > 0 ? dests : null);
  }
  return out;
}

export function runSidecarRoutesCase(c: RoutesCase): CaseResult {
  const id = `xds/sidecar-routes/${c.name}`;
  const base = { suite: 'xds', id, analyzer: 'xds/sidecar-routes', missing: [], extra: [] };
  if (c.skipped) {
    return {
      ...base,
      passed: false,
      error: `not runnable: upstream skips this entry (t.Skipf in vsArgs.Config, sidecar_simulation_test.go:1950/1953: ${c.skipped}); it has no config, so its expectation was never produced by Istio and cannot be checked here`,
    };
  }
  try {
    // Upstream passes the whole text both as Istio config and as Kubernetes objects.
    const view = harnessView({ config: c.config, kubeConfig: c.kubeConfig });
    const gen = generateForProxy(view, harnessProxy(c.proxy), { configDomainSuffix: '', assumeClusterIps: false });
    const exp = c.expectedDomainClusters;
    if (exp === null) return { ...base, passed: true };
    const rc = gen.routes.find((r) => r.name === c.routeConfig);
    if (!rc) return { ...base, passed: false, error: `route ${c.routeConfig} not found, have ${gen.routes.map((r) => r.name).join(', ')}` };
    const got = domainClusters(rc);
    const problems: string[] = [];
    for (const [domain, want] of Object.entries(exp)) {
      const g = got.get(domain) ?? null;
      if (JSON.stringify(g) !== JSON.stringify(want)) problems.push(`${JSON.stringify(domain)}: wanted ${JSON.stringify(want)}, got ${JSON.stringify(g)}`);
    }
    if (problems.length === 0) return { ...base, passed: true };
    return { ...base, passed: false, error: `${problems.join('; ')}\nvirtual hosts: ${[...got.keys()].join(', ')}` };
  } catch (e) {
    return { ...base, passed: false, error: `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
  }
}

export function runSidecarRoutes(root: string): CaseResult[] {
  return (casesIn(join(root, 'xds', 'sidecar-routes-cases.json')) as RoutesCase[]).map(runSidecarRoutesCase);
}
