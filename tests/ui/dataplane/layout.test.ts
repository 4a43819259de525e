// The data-plane diagram's layout (src/ui/dataplane/layout.ts): names wrap instead of being
// cut, boxes grow to hold them, and the nodes are packed for the width the diagram has.
import { describe, expect, it } from 'vitest';
import { labelLines, layoutDiagram, podId, wrapText, POD_W, type TextMeasure } from '../../../src/ui/dataplane/layout.ts';
import type { DataPlaneOverview, DataPlanePod } from '../../../src/core/queries/dataplaneViews.ts';

// A monospace stand-in for the font: 6px a character at 11px.
const measure: TextMeasure = (t, px) => t.length * px * (6 / 11);

describe('wrapText', () => {
  it('keeps a short name on one line', () => {
    expect(wrapText('shop/cart-7d9f', 138, 11, measure)).toEqual(['shop/cart-7d9f']);
  });

  it("breaks after '/', '.' and '-' and loses no character", () => {
    const name = 'bookinfo/productpage-v1-6b746f74dc-9stvs';
    const lines = wrapText(name, 90, 11, measure);
    expect(lines.join('')).toBe(name);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(measure(l, 11)).toBeLessThanOrEqual(90);
    // Each line but the last ends at a joint of the name.
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/[/.-]$/);
  });

  it('cuts a part too long for a line inside it, still losing nothing', () => {
    const name = 'x'.repeat(70);
    const lines = wrapText(name, 60, 11, measure);
    expect(lines.join('')).toBe(name);
    for (const l of lines) expect(measure(l, 11)).toBeLessThanOrEqual(60);
  });
});

function pod(ns: string, name: string, node: string): DataPlanePod {
  return {
    key: `${ns}/${name}`,
    namespace: ns,
    name,
    node,
    role: 'app',
    mode: 'ambient',
    code: 'X',
    reason: '',
    ips: [],
    identity: '',
  } as unknown as DataPlanePod;
}

function overview(pods: DataPlanePod[]): DataPlaneOverview {
  const nodes = [...new Set(pods.map((p) => p.node))].map((n) => ({ name: n, source: 'assumed', pods: pods.filter((p) => p.node === n).map((p) => p.key) }));
  return {
    nodes,
    namespaces: [],
    pods,
    waypoints: [],
    services: [],
    counts: { pods: pods.length, ambient: pods.length, sidecar: 0, none: 0, pending: 0 },
    assumptions: [],
    policies: [],
  };
}

describe('layoutDiagram', () => {
  const many = overview(Array.from({ length: 24 }, (_, i) => pod('shop', `web-${i}`, i % 2 ? 'node-a' : 'node-b')));

  it('a pod whose name takes three lines gets a taller box than one on one line', async () => {
    const long = pod('shop', 'a-deployment-with-a-really-long-name-for-the-diagram', 'node-a');
    const o = overview([pod('shop', 'web', 'node-a'), long]);
    const labels = labelLines(o, measure);
    expect(labels.get(podId(long.key))!.label.length).toBeGreaterThanOrEqual(3);
    const l = await layoutDiagram(o, { labels, availableWidth: 1200 });
    const h = (k: string) => l.pods.find((b) => b.id === podId(k))!.height;
    expect(h(long.key)).toBeGreaterThan(h('shop/web'));
    expect(l.pods.every((b) => b.width === POD_W)).toBe(true);
  });

  it('packs the nodes wider for a wider diagram', async () => {
    const narrow = await layoutDiagram(many, { availableWidth: 800 });
    const wide = await layoutDiagram(many, { availableWidth: 2400 });
    expect(wide.width).toBeGreaterThan(narrow.width);
    expect(wide.height).toBeLessThan(narrow.height);
  });
});
