import { describe, expect, it } from 'vitest';
import { ALL_ANALYZERS, MULTICLUSTER_ANALYZERS, OPTIONAL_ANALYZERS } from '../../src/core/analysis/analyzers/index.ts';

describe('analyzer registry', () => {
  it('holds each analyzer once, with unique names', () => {
    const all = [...ALL_ANALYZERS, ...OPTIONAL_ANALYZERS];
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all.map((a) => a.metadata.name)).size).toBe(all.length);
    for (const a of MULTICLUSTER_ANALYZERS) expect(ALL_ANALYZERS).toContain(a);
  });

  it("follows Istio's All() order, with schema validation last", () => {
    const names = ALL_ANALYZERS.map((a) => a.metadata.name);
    const order = [
      'annotations.K8sAnalyzer',
      'authn.BlockedCIDRsAnalyzer',
      'auth.AuthorizationPoliciesAnalyzer',
      'conditions.ConditionAnalyzer',
      'deployment.MultiServiceAnalyzer',
      'applicationUID.Analyzer',
      'destinationrule.CaCertificateAnalyzer',
      'destinationrule.SubsetSelectPodAnalyzer',
      'deprecation.DeprecationAnalyzer',
      'envoyfilter.EnvoyPatchAnalyzer',
    ];
    expect(names.slice(0, order.length)).toEqual(order);
    expect(names.at(-1)).toMatch(/^schema\.ValidationAnalyzer\./);
    expect(names.indexOf('telemetry.LightstepAnalyzer')).toBeLessThan(names.indexOf('schema.ValidationAnalyzer.VirtualService'));
  });
});
