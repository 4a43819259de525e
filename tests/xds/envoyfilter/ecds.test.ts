// EXTENSION_CONFIG patches as istiod serves them (pilot/pkg/xds/ecds.go: the ECDS generator
// answers the resource names the proxy asks for, which are the names of its filters with
// config_discovery; pilot/pkg/networking/core/envoyfilter/extension_configuration_patch.go
// InsertedExtensionConfigurations: the ADDed TypedExtensionConfigs of those names). A config
// no filter asks for is never sent, so it applies to no proxy.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../src/core/analysis/settings.ts';
import { findProxy, proxyForPod } from '../../../src/core/xds/proxy.ts';
import { generateForProxy } from '../../../src/core/xds/generate.ts';
import { configDump } from '../../../src/core/xds/dump.ts';
import { configDumpFromValue } from '../../../src/core/xds/configdump/dump.ts';
import { ecdsTable } from '../../../src/core/xds/configdump/ecds.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;

async function analyzed() {
  const index = JSON.parse(readFileSync(`${ROOT}public/samples/index.json`, 'utf8')) as { samples: Array<{ id: string; files: string[] }> };
  const files = index.samples
    .find((x) => x.id === 'bookinfo')!
    .files.map((f) => ({ path: f, text: readFileSync(`${ROOT}public/samples/bookinfo/${f}`, 'utf8') }));
  const a = new WorkspaceAnalyzer();
  a.update([...files, { path: 'ef.yaml', text: readFileSync(`${ROOT}tests/fixtures/xds/envoyfilter-ecds.yaml`, 'utf8') }], []);
  const r = await a.run(defaultAnalysisSettings());
  if (r === 'canceled') throw new Error('canceled');
  return { a, r };
}

describe('EXTENSION_CONFIG (ECDS)', () => {
  it("sends the config a filter asks for by name, in the dump's ECDS section, and not the others", async () => {
    const { a } = await analyzed();
    const view = a.analyzedState()!.view;
    const gen = generateForProxy(view, proxyForPod(view, findProxy(view, 'productpage-v1', 'bookinfo')!));
    expect(gen.extensionConfigs?.map((e) => e.name)).toEqual(['my-wasm']);
    const read = configDumpFromValue(JSON.parse(JSON.stringify(configDump(gen).dump)));
    if (!read.ok) throw new Error(read.error);
    const table = ecdsTable(read.dump);
    expect(table.rows.map((r) => [r.name, r.type])).toEqual([['my-wasm', 'envoy.extensions.filters.http.wasm.v3.Wasm']]);
    // Other proxies have no filter asking for it: no ECDS resources.
    const details = generateForProxy(view, proxyForPod(view, findProxy(view, 'details-v1', 'bookinfo')!));
    expect(details.extensionConfigs).toBeUndefined();
  });

  it('reports the config no filter asks for as applying to no proxy, at its patch', async () => {
    const { r } = await analyzed();
    const found = r.diagnostics.filter((d) => d.code === 'MWB-ENVOYFILTER-NO-PROXY');
    expect(found.map((d) => d.message.match(/configPatches\[(\d+)\]/)?.[1])).toEqual(['2']);
    expect(found[0]!.message).toMatch(/ECDS/);
  });
});
