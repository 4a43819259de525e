import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { generateMesh } from '../../bench/generateMesh.ts';

async function analyze(w: WorkspaceAnalyzer) {
  const r = await w.run(defaultAnalysisSettings());
  if (r === 'canceled') throw new Error('canceled');
  return r;
}

async function fresh(files: Map<string, string>) {
  const w = new WorkspaceAnalyzer();
  w.update(
    [...files].map(([path, text]) => ({ path, text })),
    [],
  );
  return analyze(w);
}

const gatewayFile = `apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: ns-1
spec:
  selector:
    istio: ingressgateway
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ["*.example.com"]
`;

describe('incremental analysis', () => {
  it('gives the same diagnostics as a fresh analysis after each edit, re-running only what changed', async () => {
    const files = new Map<string, string>([
      ['mesh.yaml', generateMesh(60).text],
      ['edge.yaml', gatewayFile],
    ]);
    const w = new WorkspaceAnalyzer();
    w.update(
      [...files].map(([path, text]) => ({ path, text })),
      [],
    );
    await analyze(w);

    const edits: Array<{ label: string; apply: () => { changed?: string; removed?: string }; expectModes?: Record<string, string> }> = [
      {
        label: 'a VirtualService routes to a missing host',
        apply: () => (files.set('mesh.yaml', files.get('mesh.yaml')!.replace('host: svc-7\n', 'host: svc-7-missing\n')), { changed: 'mesh.yaml' }),
        expectModes: {
          'virtualservice.DestinationHostAnalyzer': 'incremental',
          'virtualservice.GatewayAnalyzer': 'incremental',
          'gateway.IngressGatewayPortAnalyzer': 'cached',
        },
      },
      {
        label: 'the gateway moves to a port the ingress Service lacks',
        apply: () => (files.set('edge.yaml', gatewayFile.replace('number: 80', 'number: 8081')), { changed: 'edge.yaml' }),
        expectModes: { 'virtualservice.DestinationHostAnalyzer': 'cached', 'gateway.IngressGatewayPortAnalyzer': 'incremental' },
      },
      {
        label: 'a Service is removed (its VirtualService host disappears)',
        apply: () => {
          const text = files.get('mesh.yaml')!;
          const start = text.indexOf('kind: Service\nmetadata:\n  name: svc-3\n');
          const from = text.lastIndexOf('---\n', start);
          const to = text.indexOf('---\n', start);
          files.set('mesh.yaml', text.slice(0, from) + text.slice(to));
          return { changed: 'mesh.yaml' };
        },
        expectModes: { 'virtualservice.DestinationHostAnalyzer': 'full', 'virtualservice.GatewayAnalyzer': 'cached' },
      },
      {
        label: 'a VirtualService binds to a gateway that does not exist',
        apply: () => (files.set('mesh.yaml', files.get('mesh.yaml')!.replace('  - ns-0-gateway\n', '  - ns-0-gatewayz\n')), { changed: 'mesh.yaml' }),
      },
      {
        label: 'the gateway file is deleted',
        apply: () => (files.delete('edge.yaml'), { removed: 'edge.yaml' }),
      },
      {
        label: 'mesh config turns the placeholder ingress off',
        apply: () => (
          files.set(
            'mesh-config.yaml',
            'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\n  namespace: istio-system\ndata:\n  mesh: |\n    ingressControllerMode: "OFF"\n',
          ),
          { changed: 'mesh-config.yaml' }
        ),
        expectModes: { 'gateway.IngressGatewayPortAnalyzer': 'full' },
      },
    ];

    for (const edit of edits) {
      const { changed, removed } = edit.apply();
      w.update(changed ? [{ path: changed, text: files.get(changed)! }] : [], removed ? [removed] : []);
      const inc = await analyze(w);
      const full = await fresh(files);
      expect(inc.diagnostics, edit.label).toEqual(full.diagnostics);
      for (const [name, mode] of Object.entries(edit.expectModes ?? {})) expect(inc.modes[name], `${edit.label}: ${name}`).toBe(mode);
    }
  });

  it('after a canceled run the next run is incremental and gives the same diagnostics as a fresh analysis', async () => {
    const files = new Map<string, string>([['mesh.yaml', generateMesh(60).text]]);
    const w = new WorkspaceAnalyzer();
    w.update(
      [...files].map(([path, text]) => ({ path, text })),
      [],
    );
    await analyze(w);
    const editTo = (from: string, to: string) => {
      files.set('mesh.yaml', files.get('mesh.yaml')!.replace(from, to));
      w.update([{ path: 'mesh.yaml', text: files.get('mesh.yaml')! }], []);
    };
    for (const stopAfter of [1, 5, 20]) {
      // A VirtualService edit, whose run is canceled after `stopAfter` analyzers…
      editTo(`host: svc-${stopAfter}\n`, `host: svc-${stopAfter}-missing\n`);
      let asked = 0;
      expect(await w.run(defaultAnalysisSettings(), { canceled: () => ++asked > stopAfter })).toBe('canceled');
      // …then a DestinationRule edit: the next run must still see the VirtualService change.
      const before = files.get('mesh.yaml')!;
      editTo(`spec:\n  host: svc-${stopAfter + 1}\n  subsets:`, `spec:\n  host: svc-${stopAfter + 1}-gone\n  subsets:`);
      expect(files.get('mesh.yaml')).not.toBe(before);
      const after = await analyze(w);
      const expected = await fresh(files);
      const key = (d: { code: string; message: string; line?: number }) => `${d.code} ${d.line} ${d.message}`;
      expect(after.diagnostics.map(key)).toEqual(expected.diagnostics.map(key));
      expect(after.diagnostics.some((d) => d.message.includes(`svc-${stopAfter}-missing`))).toBe(true);
      expect(after.diagnostics.some((d) => d.message.includes(`svc-${stopAfter + 1}-gone`))).toBe(true);
      // Not started afresh: analyzers whose inputs did not change are reused.
      expect(Object.values(after.modes)).toContain('cached');
    }
  });
  it('keeps host conflicts, deprecations and message positions right through in-place and line-moving edits', async () => {
    const vs = (name: string, body: string) =>
      `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: ${name}\n  namespace: ns-1\nspec:\n${body}`;
    const route = '  http:\n  - route:\n    - destination:\n        host: reviews\n';
    let text = [
      vs('a', `  hosts: [reviews]\n${route}`),
      vs('b', `  hosts: [ratings]\n${route}`),
      vs('c', `  hosts: [details, details]\n${route}`),
      vs('d', `  exportTo: [ns-2]\n  hosts: [reviews]\n${route}`),
      vs('e', `  gateways: [edge]\n  hosts: [ratings]\n${route}`),
      vs('f', `  gateways: [edge]\n  hosts: [shop.example.com]\n${route}`),
      vs('g', `  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: reviews\n        subset: v0\n`),
      // Services, so that the analyzers that read them run (istioctl skips them otherwise).
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\n  namespace: ns-1\nspec:\n  ports: [{port: 80}]\n',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: ratings\n  namespace: ns-1\nspec:\n  ports: [{port: 80}]\n',
    ].join('---\n');
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'vs.yaml', text }], []);
    await analyze(w);
    const edits: Array<[string, (t: string) => string]> = [
      [
        "b claims a's host",
        (t) => t.replace('  name: b\n  namespace: ns-1\nspec:\n  hosts: [ratings]', '  name: b\n  namespace: ns-1\nspec:\n  hosts: [reviews]'),
      ],
      ['a gives it up', (t) => t.replace('  name: a\n  namespace: ns-1\nspec:\n  hosts: [reviews]', '  name: a\n  namespace: ns-1\nspec:\n  hosts: [reviewz]')],
      ['c no longer claims a host twice', (t) => t.replace('hosts: [details, details]', 'hosts: [details, detailz]')],
      ['e joins the mesh gateway', (t) => t.replace('gateways: [edge]', 'gateways: [mesh]')],
      [
        'a deprecated field on new lines',
        (t) =>
          t
            .replace(
              '  name: a\n  namespace: ns-1\nspec:\n',
              '  name: a\n  namespace: ns-1\nspec:\n  http:\n  - fault:\n      delay:\n        percent: 5\n        fixedDelay: 1s\n    route:\n    - destination:\n        host: reviews\n',
            )
            .replace('  hosts: [reviewz]\n  http:\n  - route:\n    - destination:\n        host: reviews\n', '  hosts: [reviewz]\n'),
      ],
      ['a comment line at the top moves every message', (t) => `# moved\n${t}`],
      ['d is exported everywhere', (t) => t.replace('exportTo: [ns-2]', 'exportTo: ["*"]')],
      ['g routes to another subset', (t) => t.replace('subset: v0', 'subset: v1')],
      [
        'g routes elsewhere, so the gateway route is unaffected',
        (t) => t.replace('        host: reviews\n        subset: v1', '        host: ratings\n        subset: v1'),
      ],
      ['and back', (t) => t.replace('        host: ratings\n        subset: v1', '        host: reviews\n        subset: v1')],
      [
        'b gives the host back',
        (t) => t.replace('  name: b\n  namespace: ns-1\nspec:\n  hosts: [reviews]', '  name: b\n  namespace: ns-1\nspec:\n  hosts: [ratings]'),
      ],
    ];
    for (const [label, edit] of edits) {
      const next = edit(text);
      expect(next, label).not.toBe(text);
      text = next;
      w.update([{ path: 'vs.yaml', text }], []);
      const inc = await analyze(w);
      const full = await fresh(new Map([['vs.yaml', text]]));
      expect(inc.diagnostics, label).toEqual(full.diagnostics);
    }
    // The script did produce the findings it is about.
    const codes = (await analyze(w)).diagnostics.map((d) => d.code);
    expect(codes).toContain('IST0109');
    expect(codes).toContain('IST0002');
    expect(codes).toContain('IST0140');
  });
});
