// envoyfilter.PatchReachAnalyzer: an EnvoyFilter patch that changes no proxy's config is
// reported at its match. What "changes" means is istiod's: a patch takes effect where its
// match finds the listener, chain, filter, route or cluster it names in the config istiod
// generates (pilot/pkg/networking/core/envoyfilter/listener_patch.go patchListeners and
// friends skip every element the match rejects, with no error), after the filter selects the
// proxy (push_context.go EnvoyFilters: root namespace or the proxy's, workloadSelector) and the
// patch's match.proxy fits it (envoyfilter.go proxyMatch).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../src/core/analysis/settings.ts';
import type { Diagnostic, WorkspaceFile } from '../../../src/core/document/types.ts';
import { envoyFilterReach } from '../../../src/core/xds/envoyFilterReach.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CODE = 'MWB-ENVOYFILTER-NO-PROXY';

function bookinfo(): WorkspaceFile[] {
  const index = JSON.parse(readFileSync(`${ROOT}public/samples/index.json`, 'utf8')) as { samples: Array<{ id: string; files: string[] }> };
  const s = index.samples.find((x) => x.id === 'bookinfo')!;
  return s.files.map((f) => ({ path: f, text: readFileSync(`${ROOT}public/samples/bookinfo/${f}`, 'utf8') }));
}

/** An EnvoyFilter on productpage (or as given) with these config patches (YAML, indented for `configPatches:`). */
function envoyFilter(patches: string, { name = 'ef', namespace = 'bookinfo', selector = '    labels: {app: productpage}\n' } = {}): string {
  return `apiVersion: networking.istio.io/v1alpha3\nkind: EnvoyFilter\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\nspec:\n${selector ? `  workloadSelector:\n${selector}` : ''}  configPatches:\n${patches}`;
}

const LUA = `      value:
        name: envoy.filters.http.lua
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua
          default_source_code: {inline_string: "function envoy_on_request(h) end"}
`;

/** The Lua filter before the router of productpage's inbound HTTP, matched by `listener`. */
function luaBeforeRouter(listener: string, context = 'SIDECAR_INBOUND'): string {
  return `  - applyTo: HTTP_FILTER
    match:
      context: ${context}
      listener:
${listener}        filterChain:
          filter:
            name: envoy.filters.network.http_connection_manager
            subFilter: {name: envoy.filters.http.router}
    patch:
      operation: INSERT_BEFORE
${LUA}`;
}

async function findings(extra: string): Promise<{ diagnostics: Diagnostic[]; text: string }> {
  const a = new WorkspaceAnalyzer();
  a.update([...bookinfo(), { path: 'ef.yaml', text: extra }], []);
  const r = await a.run(defaultAnalysisSettings());
  if (r === 'canceled') throw new Error('canceled');
  return { diagnostics: r.diagnostics.filter((d) => d.code === CODE), text: extra };
}

const lineOf = (text: string, needle: string, from = 0) => text.split('\n').findIndex((l, i) => i >= from && l.includes(needle)) + 1;

describe('EnvoyFilter patches that apply to no proxy', () => {
  it('says nothing of a Lua filter inserted before the router of the inbound HTTP listener (virtualInbound, or port 9080)', async () => {
    expect((await findings(envoyFilter(luaBeforeRouter('        name: virtualInbound\n')))).diagnostics).toEqual([]);
    expect((await findings(envoyFilter(luaBeforeRouter('        portNumber: 9080\n')))).diagnostics).toEqual([]);
  });

  it('reports a mistyped listener name at the patch match, naming the proxy count', async () => {
    const { diagnostics, text } = await findings(envoyFilter(luaBeforeRouter('        name: virtualInbond\n')));
    expect(diagnostics).toHaveLength(1);
    const d = diagnostics[0]!;
    expect(d.file).toBe('ef.yaml');
    // The finding's range is the match (its line is the resource's, as istioctl prints it).
    expect(d.range?.startLine).toBe(lineOf(text, 'match:'));
    expect(d.level).toBe('Warning');
    expect(d.message).toContain('configPatches[0]');
    expect(d.message).toContain('"virtualInbond"');
    expect(d.message).toMatch(/for the proxy it reaches/);
  });

  it('matches outbound listeners by port too, and reports a port no listener has', async () => {
    // Port 9080 outbound exists on productpage (every bookinfo service listens on 9080), so the
    // outbound router is matched there: applied. Port 9999 is no listener's.
    expect((await findings(envoyFilter(luaBeforeRouter('        portNumber: 9080\n', 'SIDECAR_OUTBOUND')))).diagnostics).toEqual([]);
    expect((await findings(envoyFilter(luaBeforeRouter('        portNumber: 9999\n')))).diagnostics).toHaveLength(1);
  });

  it('reports a filter whose workloadSelector selects no proxy, and a patch whose match.proxy fits none', async () => {
    const none = await findings(envoyFilter(luaBeforeRouter('        name: virtualInbound\n'), { selector: '    labels: {app: productpage-v2}\n' }));
    expect(none.diagnostics).toHaveLength(1);
    expect(none.diagnostics[0]!.message).toMatch(/selects no proxy/);
    // A proxy version no proxy of the files runs (they run the version istiod assumes, 1.x).
    const versioned = luaBeforeRouter('        name: virtualInbound\n').replace(
      '      context: SIDECAR_INBOUND\n',
      '      context: SIDECAR_INBOUND\n      proxy: {proxyVersion: "^0\\\\.9.*"}\n',
    );
    const old = await findings(envoyFilter(versioned));
    expect(old.diagnostics).toHaveLength(1);
    expect(old.diagnostics[0]!.message).toMatch(/match\.proxy/);
  });

  it('reports only the patch that missed, of two', async () => {
    const text = envoyFilter(luaBeforeRouter('        name: virtualInbound\n') + luaBeforeRouter('        name: no-such-listener\n'));
    const { diagnostics } = await findings(text);
    expect(diagnostics.map((d) => d.range?.startLine)).toEqual([lineOf(text, 'match:', lineOf(text, 'no-such-listener') - 6)]);
    expect(diagnostics[0]!.message).toContain('configPatches[1]');
  });

  it('reports a BOOTSTRAP patch, which istiod no longer applies (Istio commit f6337a9d "agent: remove BDS"), and leaves undecided what lies past the proxy limit', async () => {
    const bootstrap = `  - applyTo: BOOTSTRAP\n    patch:\n      operation: MERGE\n      value: {stats_flush_interval: 10s}\n`;
    const boot = (await findings(envoyFilter(bootstrap))).diagnostics;
    expect(boot).toHaveLength(1);
    expect(boot[0]!.message).toMatch(/no longer applies BOOTSTRAP/);
    // A root-namespace filter reaches every sidecar; with room for one generated proxy, a patch
    // that fits none is not decided, so not reported.
    const a = new WorkspaceAnalyzer();
    a.update(
      [...bookinfo(), { path: 'ef.yaml', text: envoyFilter(luaBeforeRouter('        name: nowhere\n'), { namespace: 'istio-system', selector: '' }) }],
      [],
    );
    const r = await a.run(defaultAnalysisSettings());
    if (r === 'canceled') throw new Error('canceled');
    expect(r.diagnostics.filter((d) => d.code === CODE)).toHaveLength(1);
    const view = a.analyzedState()!.view;
    const [limited] = [...envoyFilterReach(view, 1).values()];
    expect(limited!.map((p) => p.reach)).toEqual(['unknown']);
    const [full] = [...envoyFilterReach(view).values()];
    expect(full!.map((p) => p.reach)).toEqual(['no-match']);
    expect(full![0]!.proxies).toBeGreaterThan(1);
  });

  it('checks each patch value against the Envoy message its applyTo names (pkg/config/xds BuildXDSObjectFromStruct: a value that does not decode is refused, an unknown field warned about)', async () => {
    const cluster = `  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND}
    patch:
      operation: MERGE
      value:
        connect_timeout: 5
        no_such_field: true
`;
    const a = new WorkspaceAnalyzer();
    const text = envoyFilter(cluster);
    a.update([...bookinfo(), { path: 'ef.yaml', text }], []);
    const r = await a.run(defaultAnalysisSettings());
    if (r === 'canceled') throw new Error('canceled');
    const invalid = r.diagnostics.filter((d) => d.code === 'MWB-ENVOYFILTER-VALUE');
    const unknown = r.diagnostics.filter((d) => d.code === 'MWB-ENVOYFILTER-UNKNOWN-FIELD');
    // google.protobuf.Duration's JSON form is a string ("5s"); a number does not decode.
    expect(invalid.map((d) => [d.level, d.range?.startLine])).toEqual([['Error', lineOf(text, 'connect_timeout: 5')]]);
    expect(invalid[0]!.message).toContain('envoy.config.cluster.v3.Cluster');
    expect(unknown.map((d) => [d.level, d.range?.startLine])).toEqual([['Warning', lineOf(text, 'no_such_field')]]);
    // A value that fits says nothing.
    expect((await findings(envoyFilter(luaBeforeRouter('        name: virtualInbound\n')))).diagnostics).toEqual([]);
    const clean = new WorkspaceAnalyzer();
    clean.update([...bookinfo(), { path: 'ef.yaml', text: envoyFilter(luaBeforeRouter('        name: virtualInbound\n')) }], []);
    const cr = await clean.run(defaultAnalysisSettings());
    if (cr === 'canceled') throw new Error('canceled');
    expect(cr.diagnostics.filter((d) => d.code.startsWith('MWB-ENVOYFILTER-'))).toEqual([]);
  });
});
