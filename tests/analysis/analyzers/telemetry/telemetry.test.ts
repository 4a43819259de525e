import { describe, expect, it } from 'vitest';
import { telemetryProviderAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/providers.ts';
import { telemetrySelectorAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/selector.ts';
import { telemetryDefaultSelectorAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/defaultSelector.ts';
import { telemetryLightstepAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/lightstep.ts';
import { docs, lines, pairs } from '../helpers.ts';
import { lineOf, run } from './run.ts';

const telemetry = (ns: string, name: string, body: string) => `
apiVersion: telemetry.istio.io/v1
kind: Telemetry
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${body}`;

const selector = (labels: Record<string, string>) =>
  `  selector:\n    matchLabels:\n${Object.entries(labels)
    .map(([k, v]) => `      ${k}: "${v}"`)
    .join('\n')}\n`;

const metrics = `  metrics:\n  - providers:\n    - name: prometheus\n`;

const pod = (ns: string, name: string, labels: Record<string, string>) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: "${v}"`)
  .join('\n')}
`;

describe('telemetry.ProviderAnalyzer', () => {
  const text = docs(
    telemetry('istio-system', 'logs', `  accessLogging:\n  - providers:\n    - name: envoy\n  - filter:\n      expression: "response.code >= 500"\n`),
    telemetry('shop', 'off', `  accessLogging:\n  - disabled: true\n`),
    telemetry('shop', 'named', `  accessLogging:\n  - providers:\n    - name: envoy\n`),
  );

  it('reports access logging without providers when the mesh has no default provider', () => {
    const out = run(telemetryProviderAnalyzer, { 't.yaml': text });
    expect(lines(out)).toEqual([
      `Warning [IST0157] (Telemetry istio-system/logs t.yaml:1) The Telemetry logs in namespace "istio-system" with empty providers will be ignored.`,
    ]);
  });

  it('is silent when the mesh config has a default access-log provider', () => {
    const out = run(telemetryProviderAnalyzer, { 't.yaml': text }, { defaultProviders: { accessLogging: ['envoy'] } });
    expect(pairs(out)).toEqual([]);
  });
});

describe('telemetry.SelectorAnalyzer', () => {
  it('reports selectors matching no pod, and Telemetries selecting the same pod', () => {
    const text = docs(
      pod('shop', 'cart-1', { app: 'cart', tier: 'web' }),
      pod('shop', 'pay-1', { app: 'pay' }),
      pod('other', 'ghost-1', { app: 'ghost' }),
      telemetry('shop', 'zeta', selector({ app: 'cart' }) + metrics),
      telemetry('shop', 'alpha', selector({ tier: 'web' }) + metrics),
      telemetry('shop', 'pay', selector({ app: 'pay' }) + metrics),
      telemetry('shop', 'ghost', selector({ app: 'ghost' }) + metrics),
      telemetry('shop', 'namespace-wide', metrics),
    );
    const out = run(telemetrySelectorAnalyzer, { 's.yaml': text });
    expect(pairs(out)).toEqual(['IST0101 Telemetry shop/ghost', 'IST0159 Telemetry shop/alpha', 'IST0159 Telemetry shop/zeta']);
    expect(lines(out)).toEqual([
      `Error [IST0101] (Telemetry shop/ghost s.yaml:${lineOf(text, 'app: "ghost"', 1)}) Referenced selector not found: "app=ghost"`,
      `Error [IST0159] (Telemetry shop/alpha s.yaml:${lineOf(text, 'name: alpha')}) The Telemetries [alpha zeta] in namespace "shop" select the same workload pod "cart-1", which can lead to undefined behavior.`,
      `Error [IST0159] (Telemetry shop/zeta s.yaml:${lineOf(text, 'name: zeta')}) The Telemetries [alpha zeta] in namespace "shop" select the same workload pod "cart-1", which can lead to undefined behavior.`,
    ]);
    expect(out[0]?.fieldPath).toBe('spec.selector.matchLabels.app');
  });
});

describe('telemetry.DefaultSelectorAnalyzer', () => {
  it('reports several selector-less Telemetries in one namespace, and accepts one per namespace', () => {
    const out = run(telemetryDefaultSelectorAnalyzer, {
      'd.yaml': docs(
        telemetry('ns1', 'only-default', metrics),
        telemetry('ns1', 'scoped', selector({ app: 'x' }) + metrics),
        telemetry('ns2', 'b-default', metrics),
        telemetry('ns2', 'a-default', metrics),
      ),
    });
    expect(pairs(out)).toEqual(['IST0160 Telemetry ns2/a-default', 'IST0160 Telemetry ns2/b-default']);
    expect(out[0]?.message).toBe('The Telemetries [a-default b-default] in namespace "ns2" have no workload selector, which can lead to undefined behavior.');
    expect(out.map((d) => d.fieldPath)).toEqual([undefined, undefined]);
  });
});

describe('telemetry.LightstepAnalyzer', () => {
  const text = docs(
    telemetry('istio-system', 'tracing', `  tracing:\n  - providers:\n    - name: ls\n    - name: zipkin\n`),
    telemetry('shop', 'zipkin-only', `  tracing:\n  - providers:\n    - name: zipkin\n`),
  );
  const mesh = {
    extensionProviders: [
      { name: 'ls', lightstep: { service: 'collector.lightstep.svc', port: 443, accessToken: 't' } },
      { name: 'zipkin', zipkin: { service: 'zipkin.istio-system.svc', port: 9411 } },
    ],
  };

  it('reports tracing providers of the Lightstep type', () => {
    const out = run(telemetryLightstepAnalyzer, { 'l.yaml': text }, mesh);
    expect(lines(out)).toEqual([
      'Warning [IST0002] (Telemetry istio-system/tracing l.yaml:1) Deprecated: The Lightstep provider ls is deprecated, please migrate to OpenTelemetry provider.',
    ]);
  });

  it('is silent when no mesh provider is of the Lightstep type', () => {
    expect(pairs(run(telemetryLightstepAnalyzer, { 'l.yaml': text }))).toEqual([]);
  });
});
