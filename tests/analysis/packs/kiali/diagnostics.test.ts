// The Kiali pack as the workbench shows it. Expected values come from Kiali: its ignore rules
// (models/istio_validation.go ParseIgnoreValidationsAnnotation, shouldIgnoreCheck, StripIgnoredChecks;
// config/config.go's default validations.ignore of KIA1301), its catalog (message and severity
// per code) and kiali.io's validations page, whose headings `KIA0301 - <message>` become anchors
// `#kia0301---<words>` (as linked from Kiali's docs and users' notes).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadMesh } from '../../../../src/core/meshLoader.ts';
import { WorkspaceAnalyzer } from '../../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../../src/core/analysis/settings.ts';
import { ignoreRuleOf, ignoredCode, KIALI_DEFAULT_IGNORE, stripIgnoredChecks } from '../../../../src/core/analysis/packs/kiali/ignore.ts';
import { kialiDiagnostics, kialiDocUrl, kialiLevel, REPORTED_BY_ISTIO } from '../../../../src/core/analysis/packs/kiali/diagnostics.ts';
import { KIALI_CATALOG, runKialiPack } from '../../../../src/core/analysis/packs/kiali/index.ts';
import { filterByHost } from '../../../../src/core/analysis/packs/kiali/hosts.ts';

const ann = (v?: string): { annotations: Record<string, string> } => ({ annotations: v === undefined ? {} : { 'kiali.io/ignore-validations': v } });

describe("Kiali's ignores", () => {
  it('reads the annotation as Kiali does: empty or blank is every code, else trimmed comma-separated codes', () => {
    expect(ignoreRuleOf(ann())).toBeUndefined();
    expect(ignoreRuleOf(ann(''))).toEqual({ all: true, codes: [] });
    expect(ignoreRuleOf(ann('   '))).toEqual({ all: true, codes: [] });
    expect(ignoreRuleOf(ann(' KIA0201 , KIA0202'))).toEqual({ all: false, codes: ['KIA0201', 'KIA0202'] });
  });

  it('drops a code that is ignored globally or by the object, and nothing else', () => {
    expect(KIALI_DEFAULT_IGNORE).toEqual(['KIA1301']);
    expect(ignoredCode('KIA1301', KIALI_DEFAULT_IGNORE, undefined)).toBe(true);
    expect(ignoredCode('KIA0201', KIALI_DEFAULT_IGNORE, undefined)).toBe(false);
    expect(ignoredCode('KIA0201', [], { all: false, codes: ['KIA0201'] })).toBe(true);
    expect(ignoredCode('KIA0202', [], { all: false, codes: ['KIA0201'] })).toBe(false);
    expect(ignoredCode('KIA0202', [], { all: true, codes: [] })).toBe(true);
    // Codes compare exactly (no case folding, no prefix).
    expect(ignoredCode('KIA0201', [], { all: false, codes: ['kia0201', 'KIA020'] })).toBe(false);
  });

  it('keeps an object whose checks are all ignored, with its valid flag', () => {
    const v = { object: { group: '', kind: 'X', namespace: 'n', name: 'a' }, resource: { annotations: { 'kiali.io/ignore-validations': '' } }, valid: false };
    const c = { code: 'KIA0201', checkId: 'x', severity: 'warning' as const, message: 'm', path: 'spec', fieldPath: 'spec' };
    const [out] = stripIgnoredChecks([{ ...v, checks: [c] } as never]);
    expect(out?.checks).toEqual([]);
    expect(out?.valid).toBe(false);
  });
});

describe('Kiali diagnostics', () => {
  it('maps severities: error and warning as ours, unknown as Info', () => {
    expect([kialiLevel('error'), kialiLevel('warning'), kialiLevel('unknown')]).toEqual(['Error', 'Warning', 'Info']);
  });

  it("links each code to its heading on kiali.io's validations page", () => {
    expect(kialiDocUrl('KIA0301')).toBe('https://kiali.io/docs/features/validations/#kia0301---more-than-one-gateway-for-the-same-host-port-combination');
    expect(kialiDocUrl('KIA0601')).toBe('https://kiali.io/docs/features/validations/#kia0601---port-name-must-follow-protocol-suffix-form');
    for (const d of KIALI_CATALOG) expect(kialiDocUrl(d.code)).toMatch(/^https:\/\/kiali\.io\/docs\/features\/validations\/#kia\d{4}---[a-z0-9_-]+$/);
  });

  it('only pairs KIA codes with IST codes of the catalog', () => {
    for (const [kia, ist] of Object.entries(REPORTED_BY_ISTIO)) {
      expect(KIALI_CATALOG.some((d) => d.code === kia)).toBe(true);
      expect(ist).toMatch(/^IST\d{4}$/);
    }
  });

  const MESH = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: vs, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [missing-gw]
  http:
  - route:
    - destination: {host: nowhere}
`;

  it('points each finding at the field Kiali names, with its message and level', () => {
    const { view } = loadMesh([{ path: 'vs.yaml', text: MESH }]);
    const { kiali } = kialiDiagnostics(view, () => undefined, []);
    const gw = kiali.find((d) => d.code === 'KIA1102');
    expect(gw?.level).toBe('Error');
    expect(gw?.message).toBe('VirtualService is pointing to a non-existent gateway');
    expect(gw?.fieldPath).toBe('spec.gateways[0]');
    expect(gw?.origin).toBe('VirtualService shop/vs');
    expect(gw?.analyzer).toBe(`kiali ${KIALI_CATALOG.find((d) => d.code === 'KIA1102')?.checkId}`);
    expect(gw?.docUrl).toBe(kialiDocUrl('KIA1102'));
  });

  it('reports a problem once when an IST message stands on the same field, and names the KIA code there', async () => {
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'vs.yaml', text: MESH }], []);
    const off = await w.run(defaultAnalysisSettings());
    const on = await w.run({ ...defaultAnalysisSettings(), kiali: true });
    if (off === 'canceled' || on === 'canceled') throw new Error('canceled');
    const gatewayNotFound = (l: typeof on.diagnostics) => l.find((d) => d.code === 'IST0101' && d.fieldPath === 'spec.gateways[0]');
    expect(gatewayNotFound(off.diagnostics)?.alsoReportedAs).toBeUndefined();
    expect(gatewayNotFound(on.diagnostics)?.alsoReportedAs).toEqual(['KIA1102']);
    expect(on.diagnostics.some((d) => d.code === 'KIA1102')).toBe(false);
    // Without the pack no KIA code at all; the IST messages are the same either way.
    expect(off.diagnostics.some((d) => d.code.startsWith('KIA'))).toBe(false);
    expect(on.diagnostics.filter((d) => d.code.startsWith('IST')).map((d) => d.code)).toEqual(
      off.diagnostics.filter((d) => d.code.startsWith('IST')).map((d) => d.code),
    );
    // The raw pack does find KIA1102: it is the IST message that stands for it.
    const { view } = loadMesh([{ path: 'vs.yaml', text: MESH }]);
    expect(runKialiPack(view).flatMap((v) => v.checks.map((c) => c.code))).toContain('KIA1102');
  });

  it('is never run in istioctl mode', async () => {
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'vs.yaml', text: MESH }], []);
    const r = await w.run({ ...defaultAnalysisSettings(), mode: 'istioctl', schemaFindings: false, kiali: true });
    if (r === 'canceled') throw new Error('canceled');
    expect(r.diagnostics.some((d) => d.code.startsWith('KIA'))).toBe(false);
  });
});

describe('filterByHost (compared in place, no names built)', () => {
  const id = 'svc.cluster.local';
  const part = fc.stringMatching(/^[abs.vc]{0,5}$/);
  // Kiali's kubernetes.FilterByHost (kubernetes/filters.go), which builds each name to compare.
  const kiali = (host: string, hostNs: string, svc: string, ns: string, domain: string) =>
    (host === svc && hostNs === ns) || host === `${svc}.${ns}` || host === `${svc}.${ns}.svc` || host === `${svc}.${ns}.${domain}`;
  it('accepts exactly the hosts Kiali accepts', () => {
    fc.assert(
      fc.property(part, part, part, part, fc.constantFrom(0, 1, 2, 3, 4), fc.constantFrom(id, '', 'svc', 'c'), (svc, ns, hostNs, noise, form, domain) => {
        // Hosts built in each form FilterByHost accepts, and unrelated ones.
        const host = [svc, `${svc}.${ns}`, `${svc}.${ns}.svc`, `${svc}.${ns}.${domain}`, noise][form] as string;
        expect(filterByHost(host, hostNs, svc, ns, domain)).toBe(kiali(host, hostNs, svc, ns, domain));
      }),
      { numRuns: 3000, seed: 20261207 },
    );
  });
});

describe('an IST message that stands for a KIA code keeps its quick fixes', () => {
  it('offers the same fixes with the pack on as off', async () => {
    const files = [
      {
        path: 'svc.yaml',
        text: 'apiVersion: v1\nkind: Service\nmetadata: {name: cart, namespace: shop}\nspec:\n  selector: {app: cart}\n  ports:\n  - {name: http, port: 80}\n',
      },
      {
        path: 'vs.yaml',
        text: 'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: vs, namespace: shop}\nspec:\n  hosts: [cart]\n  http:\n  - route:\n    - destination: {host: cart-v2}\n',
      },
    ];
    const fixesOf = async (kiali: boolean) => {
      const w = new WorkspaceAnalyzer();
      w.update(files, []);
      const r = await w.run({ ...defaultAnalysisSettings(), kiali }, { fixes: true });
      if (r === 'canceled') throw new Error('canceled');
      const d = r.diagnostics.find((x) => x.code === 'IST0101' && x.message.includes('cart-v2'));
      return { also: d?.alsoReportedAs, fixes: d?.fixes?.map((f) => f.title) };
    };
    const off = await fixesOf(false);
    const on = await fixesOf(true);
    expect(off.fixes?.length).toBeGreaterThan(0);
    expect(on.also).toEqual(['KIA1101']);
    expect(on.fixes).toEqual(off.fixes);
  });
});
