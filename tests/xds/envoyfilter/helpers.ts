// Building EnvoyFilter patch runs the way Istio's envoyfilter unit tests do
// (listener_patch_test.go buildEnvoyFilterConfigStore): each config patch in its own
// EnvoyFilter `test-envoyfilter-<i>` in namespace `not-default`, no mesh root namespace.
import { viewOf } from '../helpers.ts';
import { describeProxy } from '../../../src/core/xds/proxy.ts';
import { envoyFiltersForProxy } from '../../../src/core/xds/envoyfilter/select.ts';
import { newRun, type PatchRun } from '../../../src/core/xds/envoyfilter/run.ts';
import type { Proxy } from '../../../src/core/xds/types.ts';

export const UPSTREAM_TLS = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext';
export const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';

/** The EnvoyFilters of Istio's test store as one YAML stream (JSON documents). */
export function envoyFilterStore(patches: readonly unknown[], priorities?: readonly number[], namespace = 'not-default'): string {
  return patches
    .map((cp, i) =>
      JSON.stringify({
        apiVersion: 'networking.istio.io/v1alpha3',
        kind: 'EnvoyFilter',
        metadata: { name: `test-envoyfilter-${i}`, namespace },
        spec: { configPatches: [cp], ...(priorities ? { priority: priorities[i] } : {}) },
      }),
    )
    .join('\n---\n');
}

export function proxyOf(p: Partial<Omit<Proxy, 'locality'>> = {}): Proxy {
  return describeProxy({ configNamespace: 'not-default', ...p });
}

/** A patch run over Istio's test store for `proxy` (root namespace as given, '' by default like Istio's testMesh). */
export function runFor(patches: readonly unknown[], proxy: Proxy = proxyOf(), opts: { priorities?: readonly number[]; rootNamespace?: string } = {}): PatchRun {
  const view = viewOf(envoyFilterStore(patches, opts.priorities));
  return newRun(envoyFiltersForProxy(view, proxy, opts.rootNamespace ?? ''));
}

export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
