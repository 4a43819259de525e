import { describe, expect, it } from 'vitest';
import { envoyPatchAnalyzer } from '../../../../src/core/analysis/analyzers/envoyfilter/envoyPatch.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';

const ef = (name: string, patches: string, priority?: number) => `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata:
  name: ${name}
  namespace: mesh
spec:
${priority !== undefined ? `  priority: ${priority}\n` : ''}  configPatches:
${patches}`;

const patch = (applyTo: string, operation: string, value: string, extraMatch = '') => `  - applyTo: ${applyTo}
    match:
      context: SIDECAR_INBOUND
${extraMatch}    patch:
      operation: ${operation}
      value:
        ${value}
`;

const RELATIVE =
  'This EnvoyFilter does not have a priority and has a relative patch operation set which can cause the EnvoyFilter not to be applied. Using the INSERT_FIRST of ADD option or setting the priority may help in ensuring the EnvoyFilter is applied correctly.';

describe('envoyfilter.EnvoyPatchAnalyzer', () => {
  it('warns about relative operations without a priority, on the resource line', () => {
    const text = docs(ef('lua', patch('HTTP_FILTER', 'INSERT_BEFORE', 'name: envoy.lua')));
    const out = analyze(envoyPatchAnalyzer, { 'ef.yaml': text });
    expect(lines(out)).toEqual([`Warning [IST0151] (EnvoyFilter mesh/lua ef.yaml:1) ${RELATIVE}`]);
    expect(out[0]?.fieldPath).toBe('spec.configPatches[0].patch.value');
  });

  it('reads applyTo and operation given as enum numbers', () => {
    // applyTo 7 is HTTP_ROUTE, operation 2 is ADD
    const out = analyze(envoyPatchAnalyzer, { 'ef.yaml': ef('numeric', patch('7', '2', 'name: r'), 5) });
    expect(pairs(out)).toEqual(['IST0153 EnvoyFilter mesh/numeric']);
  });

  it('reports operations that do not fit their target', () => {
    const out = analyze(envoyPatchAnalyzer, {
      'ef.yaml': docs(
        ef('replace-cluster', patch('CLUSTER', 'REPLACE', 'name: c'), 5),
        ef('add-route', patch('HTTP_ROUTE', 'ADD', 'name: r'), 5),
        ef('remove-rc', patch('ROUTE_CONFIGURATION', 'REMOVE', 'name: rc'), 5),
      ),
    });
    expect(lines(out).map((l) => l.replace(/ ef\.yaml:\d+/, ''))).toEqual([
      'Error [IST0152] (EnvoyFilter mesh/replace-cluster) The REPLACE operation is only valid for HTTP_FILTER and NETWORK_FILTER.',
      'Error [IST0153] (EnvoyFilter mesh/add-route) The ADD operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
      'Error [IST0154] (EnvoyFilter mesh/remove-rc) The REMOVE operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
    ]);
  });

  it('prefers the proxy-version warning when an earlier patch with proxyVersion used the same name', () => {
    const versioned = patch('HTTP_FILTER', 'INSERT_AFTER', 'name: envoy.lua', '      proxy:\n        proxyVersion: ^1\\.20.*\n');
    const out = analyze(envoyPatchAnalyzer, {
      'ef.yaml': docs(
        ef('first', versioned),
        ef('second', patch('NETWORK_FILTER', 'REPLACE', 'name: envoy.lua')),
        ef('third', patch('NETWORK_FILTER', 'REMOVE', 'name: other')),
      ),
    });
    expect(pairs(out)).toEqual(['IST0151 EnvoyFilter mesh/first', 'IST0151 EnvoyFilter mesh/third', 'IST0155 EnvoyFilter mesh/second']);
  });

  it('accepts absolute operations, MERGE, a priority, and stops at a patch-less entry', () => {
    const out = analyze(envoyPatchAnalyzer, {
      'ef.yaml': docs(
        ef('first', patch('HTTP_FILTER', 'INSERT_FIRST', 'name: a') + patch('CLUSTER', 'ADD', 'name: b') + patch('FILTER_CHAIN', 'MERGE', 'name: c')),
        ef('prio', patch('HTTP_FILTER', 'INSERT_BEFORE', 'name: a'), 10),
        ef('virtual-host', patch('VIRTUAL_HOST', 'REPLACE', 'name: vh'), -1),
        ef('stops', `  - applyTo: HTTP_FILTER\n${patch('HTTP_FILTER', 'INSERT_BEFORE', 'name: a')}`),
      ),
    });
    expect(out).toEqual([]);
  });
});
