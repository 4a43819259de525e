// The editor range of the telemetry group's messages lands on the offending field, while the
// line istioctl prints stays where Istio puts it.
import { describe, expect, it } from 'vitest';
import { serviceEntryProtocolAddressesAnalyzer } from '../../../../src/core/analysis/analyzers/serviceentry/protocolAddresses.ts';
import { conflictingServiceEntryProtocolAnalyzer } from '../../../../src/core/analysis/analyzers/serviceentry/conflictingProtocols.ts';
import { sidecarSelectorAnalyzer } from '../../../../src/core/analysis/analyzers/sidecar/selector.ts';
import { telemetryProviderAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/providers.ts';
import { telemetrySelectorAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/selector.ts';
import { telemetryDefaultSelectorAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/defaultSelector.ts';
import { telemetryLightstepAnalyzer } from '../../../../src/core/analysis/analyzers/telemetry/lightstep.ts';
import type { Diagnostic } from '../../../../src/core/document/types.ts';
import { docs } from '../helpers.ts';
import { lineOf, run } from './run.ts';

/** Line and column (1-based) of the `nth` occurrence of `needle` in `text`. */
function at(text: string, needle: string, nth = 0): { startLine: number; startCol: number } {
  const ls = text.split('\n');
  let seen = 0;
  for (let i = 0; i < ls.length; i++) {
    const col = (ls[i] as string).indexOf(needle);
    if (col < 0) continue;
    if (seen++ === nth) return { startLine: i + 1, startCol: col + 1 };
  }
  throw new Error(`not found: ${needle}`);
}

function expectAt(d: Diagnostic | undefined, text: string, needle: string, nth = 0): void {
  expect(d).toBeDefined();
  expect({ startLine: d!.range?.startLine, startCol: d!.range?.startCol }).toEqual(at(text, needle, nth));
}

const byOrigin = (out: Diagnostic[], code: string, origin: string) => out.filter((d) => d.code === code && d.origin === origin);

const resource = (apiVersion: string, kind: string, ns: string, name: string, body: string) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n${body}`;
const se = (ns: string, name: string, body: string) => resource('networking.istio.io/v1', 'ServiceEntry', ns, name, body);
const sidecar = (ns: string, name: string, body: string) => resource('networking.istio.io/v1', 'Sidecar', ns, name, body);
const telemetry = (ns: string, name: string, body: string) => resource('telemetry.istio.io/v1', 'Telemetry', ns, name, body);
const pod = (ns: string, name: string, labels: string, annotations = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n${labels}${annotations ? `  annotations:\n${annotations}` : ''}`;

describe('telemetry group highlight paths', () => {
  it('IST0134 points at the TCP protocol, or the number of a port without one', () => {
    const text = se('ext', 'db', '  hosts: [db.example.org]\n  ports:\n  - number: 5432\n    name: pg\n    protocol: TCP\n  - number: 9000\n    name: raw\n');
    const out = run(serviceEntryProtocolAddressesAnalyzer, { 'se.yaml': text });
    expect(out).toHaveLength(2);
    expectAt(out[0], text, 'protocol: TCP');
    expect(out[0]!.line).toBe(lineOf(text, 'name: pg'));
    expectAt(out[1], text, 'number: 9000');
    expect(out[1]!.line).toBe(lineOf(text, 'name: raw'));
  });

  it('IST0177 points at the protocol of the conflicting port', () => {
    const text = docs(
      se(
        'ext',
        'a',
        '  hosts: [api.example.org]\n  ports:\n  - number: 80\n    name: other\n    protocol: HTTP\n  - number: 443\n    name: tls\n    protocol: TLS\n',
      ),
      se('ext', 'b', '  hosts: [api.example.org]\n  ports:\n  - number: 443\n    name: https\n    protocol: HTTPS\n'),
    );
    const out = run(conflictingServiceEntryProtocolAnalyzer, { 'se.yaml': text });
    const a = byOrigin(out, 'IST0177', 'ServiceEntry ext/a')[0];
    expectAt(a, text, 'protocol: TLS');
    expect(a!.line).toBe(lineOf(text, 'name: a'));
    const b = byOrigin(out, 'IST0177', 'ServiceEntry ext/b')[0];
    expectAt(b, text, 'protocol: HTTPS');
    expect(b!.line).toBe(lineOf(text, 'name: b'));
  });

  describe('sidecar.SelectorAnalyzer', () => {
    it('IST0110 points at the workload selector', () => {
      const text = docs(
        pod('shop', 'web-1', '    app: web\n'),
        sidecar('shop', 'one', '  workloadSelector:\n    labels:\n      app: web\n'),
        sidecar('shop', 'two', '  workloadSelector:\n    labels:\n      app: web\n'),
      );
      const out = run(sidecarSelectorAnalyzer, { 's.yaml': text });
      const one = byOrigin(out, 'IST0110', 'Sidecar shop/one')[0];
      expectAt(one, text, 'workloadSelector:', 0);
      expect(one!.line).toBe(lineOf(text, 'name: one'));
      expectAt(byOrigin(out, 'IST0110', 'Sidecar shop/two')[0], text, 'workloadSelector:', 1);
    });

    it('IST0111 points at the name of each selector-less Sidecar', () => {
      const text = docs(sidecar('shop', 'one', '  egress:\n  - hosts: ["./*"]\n'), sidecar('shop', 'two', '  egress:\n  - hosts: ["./*"]\n'));
      const out = run(sidecarSelectorAnalyzer, { 's.yaml': text });
      const two = byOrigin(out, 'IST0111', 'Sidecar shop/two')[0];
      expectAt(two, text, 'name: two');
      expect(two!.line).toBe(lineOf(text, 'name: two') - 3);
    });

    it('IST0167 points at the selector of an ambient workload, or the namespace of an ambient one', () => {
      const text = docs(
        pod('mesh', 'zt-1', '    app: zt\n', '    ambient.istio.io/redirection: enabled\n'),
        sidecar('mesh', 'zt', '  workloadSelector:\n    labels:\n      app: zt\n'),
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: amb\n  labels:\n    istio.io/dataplane-mode: ambient\n',
        sidecar('amb', 'wide', '  egress:\n  - hosts: ["./*"]\n'),
      );
      const out = run(sidecarSelectorAnalyzer, { 's.yaml': text });
      const zt = byOrigin(out, 'IST0167', 'Sidecar mesh/zt')[0];
      expectAt(zt, text, 'workloadSelector:');
      expect(zt!.line).toBe(lineOf(text, 'name: zt', 1) - 3);
      const wide = byOrigin(out, 'IST0167', 'Sidecar amb/wide')[0];
      expectAt(wide, text, 'namespace: amb');
      expect(wide!.line).toBe(lineOf(text, 'name: wide') - 3);
    });
  });

  describe('telemetry analyzers', () => {
    it('IST0157 points at the empty providers list, or the access-logging entry without one', () => {
      const text = docs(
        telemetry('shop', 'empty', '  accessLogging:\n  - disabled: true\n  - providers: []\n'),
        telemetry('shop', 'bare', '  accessLogging:\n  - disabled: false\n'),
      );
      const out = run(telemetryProviderAnalyzer, { 't.yaml': text });
      const empty = byOrigin(out, 'IST0157', 'Telemetry shop/empty')[0];
      expectAt(empty, text, 'providers: []');
      expect(empty!.line).toBe(1);
      const bare = byOrigin(out, 'IST0157', 'Telemetry shop/bare')[0];
      expectAt(bare, text, 'disabled: false');
      expect(bare!.line).toBe(lineOf(text, 'name: bare') - 3);
    });

    it('IST0159 points at the matchLabels of each overlapping selector', () => {
      const text = docs(
        pod('shop', 'web-1', '    app: web\n'),
        telemetry('shop', 'a', '  selector:\n    matchLabels:\n      app: web\n'),
        telemetry('shop', 'b', '  selector:\n    matchLabels:\n      app: web\n'),
      );
      const out = run(telemetrySelectorAnalyzer, { 't.yaml': text });
      const b = byOrigin(out, 'IST0159', 'Telemetry shop/b')[0];
      expectAt(b, text, 'matchLabels:', 1);
      expect(b!.line).toBe(lineOf(text, 'name: b'));
    });

    it('IST0160 points at the name of each selector-less Telemetry', () => {
      const text = docs(
        telemetry('shop', 'a', '  tracing:\n  - randomSamplingPercentage: 1\n'),
        telemetry('shop', 'b', '  tracing:\n  - randomSamplingPercentage: 2\n'),
      );
      const out = run(telemetryDefaultSelectorAnalyzer, { 't.yaml': text });
      const b = byOrigin(out, 'IST0160', 'Telemetry shop/b')[0];
      expectAt(b, text, 'name: b');
      expect(b!.line).toBe(lineOf(text, 'name: b') - 3);
    });

    it('IST0002 points at the name of the Lightstep provider', () => {
      const text = telemetry('istio-system', 'tracing', '  tracing:\n  - providers:\n    - name: zipkin\n  - providers:\n    - name: zipkin\n    - name: ls\n');
      const mesh = {
        extensionProviders: [
          { name: 'ls', lightstep: { service: 'collector', port: 443, accessToken: 't' } },
          { name: 'zipkin', zipkin: { service: 'zipkin', port: 9411 } },
        ],
      };
      const out = run(telemetryLightstepAnalyzer, { 't.yaml': text }, mesh);
      expect(out).toHaveLength(1);
      expectAt(out[0], text, 'name: ls');
      expect(out[0]!.line).toBe(1);
    });
  });
});
