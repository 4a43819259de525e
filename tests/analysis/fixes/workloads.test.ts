// Quick fixes for Services, Namespaces and annotations, applied and re-analyzed.
import { describe, expect, it } from 'vitest';
import { analyzeFiles, applyFix, expectFixResolves, yaml } from './helpers.ts';
import { suppressionForText } from '../../../src/core/analysis/fixes/suppression.ts';
import type { Diagnostic } from '../../../src/core/document/types.ts';

const service = (...portLines: string[]) =>
  yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', '  namespace: shop', 'spec:', '  selector:', '    app: web', '  ports:', ...portLines);

describe('IST0118 port name without protocol', () => {
  it('prefixes the name with the protocol guessed from the port', async () => {
    const files = { 'svc.yaml': service('    - name: web', '      port: 8080', '      targetPort: 8080', '    - name: db', '      port: 3306') };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0118' && d.message.includes('web') });
    expect(fix.title).toBe('Rename port "web" to "http-web"');
    expect(fixed['svc.yaml']).toContain('    - name: http-web\n      port: 8080\n');
  });

  it('offers TCP as an alternative', async () => {
    const files = { 'svc.yaml': service('    - name: stream', '      port: 7000') };
    const before = await analyzeFiles(files);
    const d = before.find((x) => x.code === 'IST0118');
    expect(d?.fixes?.map((f) => f.title)).toEqual(['Rename port "stream" to "tcp-stream"', 'Rename port "stream" to "http-stream"']);
    await expectFixResolves({ files, find: (x) => x.code === 'IST0118', title: /http-stream/ });
  });

  it('corrects an appProtocol Istio does not know (it wins over the name)', async () => {
    const files = { 'svc.yaml': service('    - name: api', '      port: 7000', '      appProtocol: grpcx') };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (x) => x.code === 'IST0118' });
    expect(fix.title).toBe('Set appProtocol to "http"');
    expect(fixed['svc.yaml']).toContain('      appProtocol: http\n');
  });

  it('names an unnamed port', async () => {
    const files = { 'svc.yaml': service('    - port: 443', '      targetPort: 8443') };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0118' });
    expect(fix.title).toBe('Name port 443 "https-443"');
    expect(fixed['svc.yaml']).toContain('    - port: 443\n      targetPort: 8443\n      name: https-443\n');
  });
});

describe('IST0150 ExternalName port name', () => {
  it('renames the port to an HTTP-family name', async () => {
    const files = {
      'ext.yaml': yaml(
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: ext',
        '  namespace: shop',
        'spec:',
        '  type: ExternalName',
        '  externalName: api.example.com',
        '  ports:',
        '    - name: tcp',
        '      port: 8080',
      ),
    };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0150' });
    expect(fix.title).toBe('Rename port "tcp" to "http-8080"');
    expect(fixed['ext.yaml']).toContain('    - name: http-8080\n');
  });
});

const namespace = (...labelLines: string[]) =>
  yaml('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: shop', ...(labelLines.length ? ['  labels:', ...labelLines] : []));

describe('IST0102 namespace not injected', () => {
  it('adds istio-injection: enabled, creating labels', async () => {
    const files = { 'ns.yaml': namespace() };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0102' });
    expect(fix.title).toBe('Label namespace shop istio-injection=enabled');
    expect(fixed['ns.yaml']).toBe(namespace('    istio-injection: enabled'));
  });

  it('can opt out explicitly, next to existing labels', async () => {
    const files = { 'ns.yaml': namespace('    team: a') };
    const { files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0102', title: /disabled/ });
    expect(fixed['ns.yaml']).toBe(namespace('    team: a', '    istio-injection: disabled'));
  });
});

describe('IST0123 several injection labels', () => {
  it('removes one of the labels', async () => {
    const files = { 'ns.yaml': namespace('    istio-injection: enabled', '    istio.io/rev: canary', '    team: a') };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0123');
    expect(d?.fixes?.map((f) => f.title)).toEqual(['Remove label istio-injection', 'Remove label istio.io/rev']);
    const { files: fixed } = await expectFixResolves({ files, find: (x) => x.code === 'IST0123', title: 'Remove label istio.io/rev' });
    expect(fixed['ns.yaml']).toBe(namespace('    istio-injection: enabled', '    team: a'));
  });
});

const pod = (...annotationLines: string[]) =>
  yaml(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: p',
    '  namespace: shop',
    '  labels:',
    '    app: p',
    '  annotations:',
    ...annotationLines,
    'spec:',
    '  containers:',
    '    - name: app',
    '      image: app:1',
  );

describe('IST0108 unknown annotation', () => {
  it('renames to the closest known annotation', async () => {
    const files = { 'ns.yaml': namespace('    istio-injection: enabled'), 'pod.yaml': pod('    sidecar.istio.io/proxyCPUu: 100m') };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0108' });
    expect(fix.title).toBe('Change annotation to "sidecar.istio.io/proxyCPU"');
    expect(fixed['pod.yaml']).toContain('    sidecar.istio.io/proxyCPU: 100m\n');
  });
});

describe('IST0135 deprecated annotation', () => {
  it('replaces sidecar.istio.io/inject with the label of the same name', async () => {
    const files = { 'ns.yaml': namespace('    istio-injection: enabled'), 'pod.yaml': pod('    sidecar.istio.io/inject: "false"', '    team: a') };
    const { fix, files: fixed } = await expectFixResolves({ files, find: (d) => d.code === 'IST0135' });
    expect(fix.title).toBe('Replace annotation sidecar.istio.io/inject with the label sidecar.istio.io/inject');
    expect(fixed['pod.yaml']).toContain('  labels:\n    app: p\n    sidecar.istio.io/inject: "false"\n  annotations:\n    team: a\nspec:');
  });
});

describe('suppression with the analyze-suppress annotation', () => {
  const suppress = async (files: Record<string, string>, file: string, pick: (d: Diagnostic) => boolean) => {
    const d = (await analyzeFiles(files)).find(pick);
    expect(d).toBeDefined();
    return suppressionForText(file, files[file]!, d!);
  };

  it('creates the annotation, then extends it with a bare comma', async () => {
    const files = { 'svc.yaml': service('    - name: web', '      port: 8080', '    - name: db', '      port: 7000') };
    const first = await suppress(files, 'svc.yaml', (d) => d.code === 'IST0118');
    expect(first?.title).toBe('Suppress IST0118 on Service shop/web with an annotation');
    const once = applyFix(files, first!);
    expect(once['svc.yaml']).toContain('  namespace: shop\n  annotations:\n    galley.istio.io/analyze-suppress: "IST0118"\nspec:');
    expect((await analyzeFiles(once)).filter((d) => d.code === 'IST0118')).toEqual([]);

    // Another code on the same resource joins the list.
    const withOther = { 'svc.yaml': once['svc.yaml']!.replace('"IST0118"', '"IST0102"') };
    const again = await suppress(withOther, 'svc.yaml', (d) => d.code === 'IST0118');
    const twice = applyFix(withOther, again!);
    expect(twice['svc.yaml']).toContain('    galley.istio.io/analyze-suppress: "IST0102,IST0118"\n');
    expect((await analyzeFiles(twice)).filter((d) => d.code === 'IST0118')).toEqual([]);
  });

  it('finds the resource among several documents and inside a List', async () => {
    const files = {
      'all.yaml':
        yaml('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: shop', '  labels:', '    istio-injection: enabled') +
        '---\n' +
        yaml(
          'apiVersion: v1',
          'kind: List',
          'items:',
          '  - apiVersion: v1',
          '    kind: Service',
          '    metadata:',
          '      name: a',
          '      namespace: shop',
          '    spec:',
          '      ports:',
          '        - name: web',
          '          port: 8080',
          '  - apiVersion: v1',
          '    kind: Service',
          '    metadata:',
          '      name: b',
          '      namespace: shop',
          '      annotations: {team: x}',
          '    spec:',
          '      ports:',
          '        - name: web',
          '          port: 8080',
        ),
    };
    const fix = await suppress(files, 'all.yaml', (d) => d.code === 'IST0118' && d.origin === 'Service shop/b');
    const fixed = applyFix(files, fix!);
    expect(fixed['all.yaml']).toContain('      annotations: {team: x, galley.istio.io/analyze-suppress: "IST0118"}\n');
    const after = await analyzeFiles(fixed);
    expect(after.filter((d) => d.code === 'IST0118').map((d) => d.origin)).toEqual(['Service shop/a']);
  });

  it('is not offered for parser problems or codes already suppressed', async () => {
    const ds = await analyzeFiles({ 'bad.yaml': 'a: [\n' });
    expect(ds.every((d) => d.fixes === undefined && suppressionForText('bad.yaml', 'a: [\n', d) === undefined)).toBe(true);
    const files = { 'svc.yaml': service('    - name: web', '      port: 8080') };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0118')!;
    const text = files['svc.yaml'].replace('  namespace: shop\n', '  namespace: shop\n  annotations:\n    galley.istio.io/analyze-suppress: "IST0118"\n');
    expect(suppressionForText('svc.yaml', text, d)).toBeUndefined();
  });
});

describe("suppressing a Kiali finding uses Kiali's annotation", () => {
  // Kiali reads kiali.io/ignore-validations (models/istio_validation.go): codes split on commas and trimmed, empty = all.
  const dr = (annotations = '') =>
    yaml(
      'apiVersion: networking.istio.io/v1',
      'kind: DestinationRule',
      'metadata:',
      '  name: dr',
      '  namespace: shop',
      ...(annotations ? [annotations] : []),
      'spec:',
      '  host: nowhere',
    );
  const kiali = async (text: string) => {
    const { WorkspaceAnalyzer } = await import('../../../src/core/workspace.ts');
    const { defaultAnalysisSettings } = await import('../../../src/core/analysis/settings.ts');
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'dr.yaml', text }], []);
    const r = await w.run({ ...defaultAnalysisSettings(), kiali: true });
    if (r === 'canceled') throw new Error('canceled');
    return r.diagnostics;
  };

  it('adds the code to kiali.io/ignore-validations, and the finding goes', async () => {
    const text = dr();
    const d = (await kiali(text)).find((x) => x.code === 'KIA0202');
    expect(d).toBeDefined();
    const fix = suppressionForText('dr.yaml', text, d!);
    const fixed = applyFix({ 'dr.yaml': text }, fix!)['dr.yaml']!;
    expect(fixed).toContain('    kiali.io/ignore-validations: "KIA0202"\n');
    expect(fixed).not.toContain('galley.istio.io');
    expect((await kiali(fixed)).some((x) => x.code === 'KIA0202')).toBe(false);
  });

  it('is not offered when the annotation already ignores the code or every code', async () => {
    const d = (await kiali(dr())).find((x) => x.code === 'KIA0202')!;
    expect(suppressionForText('dr.yaml', dr('  annotations:\n    kiali.io/ignore-validations: " KIA0101 , KIA0202"'), d)).toBeUndefined();
    expect(suppressionForText('dr.yaml', dr('  annotations:\n    kiali.io/ignore-validations: ""'), d)).toBeUndefined();
  });
});
