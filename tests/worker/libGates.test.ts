// The modules the browser worker loads on demand, as the worker build arranges them
// (vite.config.ts): cel.ts reads the CEL library from celLib.lazy.ts, empty until loaded;
// the analyzers' certificate parsing, WorkspaceAnalyzer's quick fixes and istioctl mode refuse
// to run until loaded. The host must load each before it is used (CEL and certificates before
// a run that could need them, src/worker/libGates.ts), so that the diagnostics are the ones
// of eagerly loaded modules; and it must not load them for a workspace that does not need
// them. The tests run in order: the first ones need nothing loaded yet.
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { AnalysisHost, type LazyLib } from '../../src/worker/host.ts';
import { resourceNeedsCel, resourcesNeedPki, resourcesNeedXds } from '../../src/worker/libGates.ts';
import { celLibLoaded, loadCelLib } from '../../src/worker/celLib.lazy.ts';
import { schemaFindings } from '../../src/core/validation/schema.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { Diagnostic, WorkspaceFile } from '../../src/core/document/types.ts';
import type { FromWorker } from '../../src/worker/protocol.ts';
import { yamlFiles } from '../helpers/files.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

// The worker build's celLib.ts.
vi.mock('../../src/core/validation/schema/celLib.ts', () => import('../../src/worker/celLib.lazy.ts'));

// The worker build gives the analyzers a credential.ts, and WorkspaceAnalyzer a quick-fix
// module and an istioctl mode, that throw until loaded (src/worker/*.lazy.ts); these do the
// same, loaded through the host options below.
const on = vi.hoisted(() => {
  const loaded = { pki: false, fixes: false, istioctl: false, xds: false };
  const loads = { pki: 0, fixes: 0, istioctl: 0, xds: 0 };
  const guard =
    <A extends unknown[], R>(which: keyof typeof loaded, f: (...a: A) => R) =>
    (...a: A): R => {
      if (!loaded[which]) throw new Error(`${which} is not loaded`);
      return f(...a);
    };
  return { loaded, loads, guard };
});
vi.mock('../../src/core/pki/credential.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/pki/credential.ts')>();
  return { ...real, extractCertInfo: on.guard('pki', real.extractCertInfo), validateGatewayCredential: on.guard('pki', real.validateGatewayCredential) };
});
vi.mock('../../src/core/analysis/fixes/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/analysis/fixes/index.ts')>();
  return { ...real, attachFixes: on.guard('fixes', real.attachFixes), fixContext: on.guard('fixes', real.fixContext) };
});
vi.mock('../../src/core/analysis/istioctlMode.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/analysis/istioctlMode.ts')>();
  return { ...real, istioctlRun: on.guard('istioctl', real.istioctlRun), isIstioCode: on.guard('istioctl', real.isIstioCode) };
});
vi.mock('../../src/core/xds/envoyFilterReach.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/xds/envoyFilterReach.ts')>();
  return { ...real, envoyFilterReach: on.guard('xds', real.envoyFilterReach) };
});
const lib = (which: keyof typeof on.loaded): LazyLib => ({
  loaded: () => on.loaded[which],
  load: async () => {
    on.loads[which]++;
    on.loaded[which] = true;
  },
});
const modules = { pki: lib('pki'), fixes: lib('fixes'), istioctl: lib('istioctl'), xds: lib('xds') };

const ROOT = new URL('../../', import.meta.url).pathname;

function sample(id: string): WorkspaceFile[] {
  const index = JSON.parse(readFileSync(`${ROOT}public/samples/index.json`, 'utf8')) as { samples: Array<{ id: string; files: string[] }> };
  const s = index.samples.find((x) => x.id === id);
  if (!s) throw new Error(`no sample ${id}`);
  return s.files.map((f) => ({ path: f, text: readFileSync(`${ROOT}public/samples/${id}/${f}`, 'utf8') }));
}

/** Every document we have: the samples, the fixtures and the fuzzers' saved pipeline inputs. */
function corpus(): WorkspaceFile[] {
  const files = [...yamlFiles(`${ROOT}public/samples`), ...yamlFiles(`${ROOT}tests/fixtures`)].map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));
  for (const name of ['pipeline.json', 'metamorphic.json']) {
    try {
      const saved = JSON.parse(readFileSync(`${ROOT}tests/fuzz-corpus/${name}`, 'utf8')) as { entries?: Array<{ input?: { files?: WorkspaceFile[] } }> };
      (saved.entries ?? []).forEach((e, i) => {
        for (const f of e.input?.files ?? []) if (typeof f.text === 'string') files.push({ path: `${name}/${i}/${f.path}`, text: f.text });
      });
    } catch {
      // A corpus file that is not there is no input.
    }
  }
  return files;
}

/** A RequestAuthentication whose jwksUri rule only CEL judges (url()), next to a plain VirtualService. */
const NEEDS_CEL = `apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata:
  name: jwt
  namespace: shop
spec:
  jwtRules:
  - issuer: https://issuer.example.com
    jwksUri: ftp://keys.example.com/jwks.json
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata:
  name: ports
  namespace: shop
spec:
  selector:
    matchLabels: {app: cart}
  portLevelMtls:
    "8080": {mode: DISABLE}
    "70000": {mode: STRICT}
`;

const PLAIN = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
  namespace: shop
spec:
  hosts: [reviews]
  http:
  - route:
    - destination: {host: reviews}
`;

/** A Lua filter for productpage's inbound HTTP, on a listener name no sidecar has. */
const MISTYPED_ENVOYFILTER = `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata:
  name: lua-on-productpage
  namespace: default
spec:
  workloadSelector:
    labels: {app: productpage}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener:
        name: virtualInbond
        filterChain:
          filter:
            name: envoy.filters.network.http_connection_manager
            subFilter: {name: envoy.filters.http.router}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.lua
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua
          default_source_code: {inline_string: "function envoy_on_request(h) end"}
`;

interface Run {
  diagnostics: Diagnostic[];
  /** Whether CEL / certificate parsing / quick fixes / istioctl mode were loaded when the result was posted. */
  celAtResult: boolean;
  pkiAtResult: boolean;
  fixesAtResult: boolean;
  istioctlAtResult: boolean;
  xdsAtResult: boolean;
  /** How many diagnostics got quick fixes (the `fixes` message). */
  fixed: number;
}

/** The host's first result for the files (nothing loaded after it: no preload). */
async function hostRun(files: WorkspaceFile[], settings: AnalysisSettings = defaultAnalysisSettings()): Promise<Run> {
  let run: Run | undefined;
  let failure: string | undefined;
  const host = new AnalysisHost(
    (m: FromWorker) => {
      if (m.type === 'result')
        run = {
          diagnostics: structuredClone(m.diagnostics),
          celAtResult: celLibLoaded(),
          pkiAtResult: on.loaded.pki,
          fixesAtResult: on.loaded.fixes,
          istioctlAtResult: on.loaded.istioctl,
          xdsAtResult: on.loaded.xds,
          fixed: 0,
        };
      if (m.type === 'fixes' && run) {
        expect(on.loaded.fixes).toBe(true);
        run.fixed = m.fixes.length;
      }
      if (m.type === 'failed') failure = m.message;
    },
    { yieldEveryMs: 0, preload: false, ...modules },
  );
  host.handle({ type: 'sync', version: 1, full: true, changed: files, edits: [], removed: [], settings });
  for (let i = 0; i < 10_000 && host.busy; i++) await new Promise((r) => setTimeout(r, 1));
  await host.settled();
  if (failure) throw new Error(failure);
  if (!run) throw new Error('no result');
  return run;
}

/** The same workspace analyzed directly (with whatever is loaded by now). */
async function directRun(files: WorkspaceFile[], settings: AnalysisSettings = defaultAnalysisSettings()): Promise<Diagnostic[]> {
  const a = new WorkspaceAnalyzer();
  a.update(files, []);
  const r = await a.run(settings);
  if (r === 'canceled') throw new Error('canceled');
  return r.diagnostics;
}

const key = (d: Diagnostic) => `${d.file}:${d.line} ${d.code} ${d.message}`;

describe('libraries loaded on demand by the worker', () => {
  it('the CEL gate says no only where validation runs no rule through CEL (every document we have)', () => {
    expect(celLibLoaded()).toBe(false);
    const model = new WorkspaceModel(kindProblems);
    model.update(corpus(), []);
    let unneeded = 0;
    for (const r of model.resources()) {
      if (resourceNeedsCel(r)) continue;
      unneeded++;
      // With the library absent, a rule that needs it throws.
      expect(() => schemaFindings(r), `${r.source?.file ?? ''} ${r.kindId} ${r.name}`).not.toThrow();
    }
    expect(unneeded).toBeGreaterThan(100);
    expect(celLibLoaded()).toBe(false);
  });

  it('without CEL, a rule only CEL judges throws rather than passes', () => {
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'ra.yaml', text: NEEDS_CEL }], []);
    const ra = model.resources().find((r) => r.name === 'jwt')!;
    expect(resourceNeedsCel(ra)).toBe(true);
    expect(() => schemaFindings(ra)).toThrow(/CEL library is not loaded/);
  });

  it('analyzes the samples without loading CEL, istioctl mode, certificate parsing unless a Secret is there, or the xDS generator unless an EnvoyFilter is there; quick fixes load after the first result', async () => {
    for (const id of ['many-mistakes', 'bookinfo-mistakes', 'bookinfo', 'ambient']) {
      const run = await hostRun(sample(id));
      if (id === 'many-mistakes') {
        expect(run.fixesAtResult).toBe(false);
        expect(run.fixed).toBeGreaterThan(0);
      }
      expect(run.celAtResult, id).toBe(false);
      expect(run.pkiAtResult, id).toBe(false);
      expect(run.istioctlAtResult, id).toBe(false);
      // many-mistakes (the first) holds an EnvoyFilter, for which envoyfilter.PatchReachAnalyzer
      // generates config; the others hold none (the module, once loaded, stays: loads counts below).
      if (id === 'many-mistakes') expect(run.xdsAtResult, id).toBe(true);
      expect(
        run.diagnostics.filter((d) => d.code === 'IST0001'),
        id,
      ).toEqual([]);
      if (id !== 'bookinfo') expect(run.diagnostics.length, id).toBeGreaterThan(0);
    }
    expect(celLibLoaded()).toBe(false);
    expect(on.loads).toEqual({ pki: 0, fixes: 1, istioctl: 0, xds: 1 });
  });

  it('loads certificate parsing before analyzing a workspace with Secrets; the verdicts are those of a direct analysis', async () => {
    const files = sample('certificates');
    const run = await hostRun(files);
    expect(run.pkiAtResult).toBe(true);
    expect(run.celAtResult).toBe(false);
    expect(run.diagnostics.filter((d) => d.code === 'IST0001')).toEqual([]);
    expect(run.diagnostics.map(key)).toEqual((await directRun(files)).map(key));
  });

  it('loads CEL before validating a document with a rule only CEL judges; the diagnostics are those of a direct analysis', async () => {
    expect(celLibLoaded()).toBe(false);
    const files = [...sample('bookinfo-mistakes'), { path: 'auth.yaml', text: NEEDS_CEL }, { path: 'vs.yaml', text: PLAIN }];
    const run = await hostRun(files);
    expect(run.celAtResult).toBe(true);
    expect(run.diagnostics.filter((d) => d.code === 'IST0001')).toEqual([]);
    // The rules CEL judged (the webhook's findings on the same fields are what the analysis shows).
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'auth.yaml', text: NEEDS_CEL }], []);
    const messages = model.resources().flatMap((r) => schemaFindings(r).map((f) => f.message));
    expect(messages.some((m) => /url must have scheme/.test(m))).toBe(true);
    expect(messages.some((m) => /port must be between 1-65535/.test(m))).toBe(true);
    expect(run.diagnostics.map(key)).toEqual((await directRun(files)).map(key));
    // The same in istioctl mode, which reads the files itself.
    const istioctl: AnalysisSettings = { ...defaultAnalysisSettings(), mode: 'istioctl', schemaFindings: false };
    const inIstioctlMode = await hostRun(files, istioctl);
    expect(inIstioctlMode.istioctlAtResult).toBe(true);
    expect(inIstioctlMode.diagnostics.map(key)).toEqual((await directRun(files, istioctl)).map(key));
  });

  it('loads the xDS generator before analyzing a workspace with an EnvoyFilter; the findings are those of a direct analysis', async () => {
    const files = [...sample('bookinfo'), { path: 'lua.yaml', text: MISTYPED_ENVOYFILTER }];
    const run = await hostRun(files);
    expect(run.xdsAtResult).toBe(true);
    expect(run.diagnostics.filter((d) => d.code === 'IST0001')).toEqual([]);
    expect(run.diagnostics.filter((d) => d.code === 'MWB-ENVOYFILTER-NO-PROXY')).toHaveLength(1);
    expect(run.diagnostics.map(key)).toEqual((await directRun(files)).map(key));
    const model = new WorkspaceModel(kindProblems);
    model.update(files, []);
    expect(resourcesNeedXds(model.resources())).toBe(true);
    expect(resourcesNeedXds(model.resources().filter((r) => r.name !== 'lua-on-productpage'))).toBe(false);
  });

  it('the PKI gate answers yes for any Secret', () => {
    const model = new WorkspaceModel(kindProblems);
    model.update(
      [
        { path: 's.yaml', text: 'apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: a}\n' },
        { path: 'vs.yaml', text: PLAIN },
      ],
      [],
    );
    expect(resourcesNeedPki(model.resources())).toBe(true);
    expect(resourcesNeedPki(model.resources().filter((r) => r.kindId !== model.resources()[0]!.kindId))).toBe(false);
  });

  it('the lazy CEL module loads once', async () => {
    await loadCelLib();
    await loadCelLib();
    expect(celLibLoaded()).toBe(true);
  });
});
