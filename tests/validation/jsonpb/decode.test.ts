// istioctlDecodeError against the real istioctl: every expected string below was printed by
// `istioctl analyze --use-kube=false FILE` (the text after `error processing FILE[0]: `),
// istio.io/istio@v0.0.0-20260827124520-eed52ebb66ad built with go1.26.8
// (~/.cache/mesh-workbench-oracle/bin/istioctl); `undefined` means istioctl parsed the file.
// Each case names the Go source that produces its text. Documents are read with the
// project's YAML reader (go-yaml v2's scalars), as the CLI reads them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { istioctlDecodeError } from '../../../src/core/validation/jsonpb/decode.ts';
import { MESSAGES } from '../../../src/core/validation/jsonpb/istioProtos.gen.ts';
import { loadYaml } from '../../../src/core/document/yamlSchema.ts';
import { type Case, GROUP, doc } from './decodeCases.ts';
import { SCALARS } from './decodeCasesScalars.ts';
import { STRUCTURE } from './decodeCasesStructure.ts';

const CASES: Case[] = [...SCALARS, ...STRUCTURE];

describe('istioctlDecodeError matches istioctl analyze --use-kube=false', () => {
  for (const c of CASES) {
    it(`${c.kind} ${c.id} (${c.go})`, () => {
      expect(istioctlDecodeError(c.kind, GROUP[c.kind] as string, loadYaml(doc(c)))).toBe(c.want);
    });
  }

  it('covers every rule class with accepted and rejected documents', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.filter((c) => c.want === undefined).length).toBeGreaterThan(20);
    expect(CASES.filter((c) => c.want !== undefined).length).toBeGreaterThan(20);
    expect(new Set(CASES.map((c) => c.kind)).size).toBe(15);
  });

  it('gives undefined for kinds whose spec is not an istio.io/api message', () => {
    expect(istioctlDecodeError('Service', '', { spec: 5 })).toBeUndefined();
    expect(istioctlDecodeError('HTTPRoute', 'gateway.networking.k8s.io', { spec: 5 })).toBeUndefined();
  });
});

// ---------------------------------------------------------------- property

/** The objects of a document that are messages or ObjectMeta: where an unknown key is ignored. */
function messageNodes(docObj: Record<string, unknown>, specMessage: string, statusMessage: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [docObj];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(docObj.metadata)) out.push(docObj.metadata);
  const visit = (name: string, v: unknown) => {
    const fields = MESSAGES[name];
    if (!fields || !isObj(v)) return;
    out.push(v);
    for (const f of fields) {
      const value = v[f[1] === 0 ? f[0] : f[1]] ?? v[f[0]];
      const type = f[2] === 'map' ? (f[4] as string) : f[3];
      if (f[2] === 'repeated' && Array.isArray(value)) for (const e of value) visit(type, e);
      else if (f[2] === 'map' && isObj(value)) for (const e of Object.values(value)) visit(type, e);
      else visit(type, value);
    }
  };
  visit(specMessage, docObj.spec);
  visit(statusMessage, docObj.status);
  return out;
}

const SPEC_OF: Record<string, [string, string]> = {
  VirtualService: ['istio.networking.v1alpha3.VirtualService', 'istio.meta.v1alpha1.IstioStatus'],
  DestinationRule: ['istio.networking.v1alpha3.DestinationRule', 'istio.meta.v1alpha1.IstioStatus'],
  Gateway: ['istio.networking.v1alpha3.Gateway', 'istio.meta.v1alpha1.IstioStatus'],
  ServiceEntry: ['istio.networking.v1alpha3.ServiceEntry', 'istio.networking.v1alpha3.ServiceEntryStatus'],
  Sidecar: ['istio.networking.v1alpha3.Sidecar', 'istio.meta.v1alpha1.IstioStatus'],
  EnvoyFilter: ['istio.networking.v1alpha3.EnvoyFilter', 'istio.meta.v1alpha1.IstioStatus'],
  WorkloadEntry: ['istio.networking.v1alpha3.WorkloadEntry', 'istio.meta.v1alpha1.IstioStatus'],
  WorkloadGroup: ['istio.networking.v1alpha3.WorkloadGroup', 'istio.meta.v1alpha1.IstioStatus'],
  ProxyConfig: ['istio.networking.v1beta1.ProxyConfig', 'istio.meta.v1alpha1.IstioStatus'],
  AuthorizationPolicy: ['istio.security.v1beta1.AuthorizationPolicy', 'istio.meta.v1alpha1.IstioStatus'],
  PeerAuthentication: ['istio.security.v1beta1.PeerAuthentication', 'istio.meta.v1alpha1.IstioStatus'],
  RequestAuthentication: ['istio.security.v1beta1.RequestAuthentication', 'istio.meta.v1alpha1.IstioStatus'],
  Telemetry: ['istio.telemetry.v1alpha1.Telemetry', 'istio.meta.v1alpha1.IstioStatus'],
  WasmPlugin: ['istio.extensions.v1alpha1.WasmPlugin', 'istio.meta.v1alpha1.IstioStatus'],
  TrafficExtension: ['istio.extensions.v1alpha1.TrafficExtension', 'istio.meta.v1alpha1.IstioStatus'],
};

describe('istioctlDecodeError properties', () => {
  const accepted = CASES.filter((c) => c.want === undefined);
  // Keys no proto field, ObjectMeta field or top-level field is named: they hold a '-'.
  const unknownKey = fc.string({ maxLength: 8 }).map((s) => `x-${s}`);
  const value = fc.jsonValue({ maxDepth: 3 });

  it('a document istioctl decodes stays decoded when unknown fields are added to any of its messages', () => {
    fc.assert(
      fc.property(fc.constantFrom(...accepted), fc.array(fc.tuple(fc.nat(), unknownKey, value), { minLength: 1, maxLength: 6 }), (c, additions) => {
        const d = loadYaml(doc(c)) as Record<string, unknown>;
        const [spec, status] = SPEC_OF[c.kind] as [string, string];
        const nodes = messageNodes(d, spec, status);
        for (const [at, key, v] of additions) (nodes[at % nodes.length] as Record<string, unknown>)[key] = v;
        expect(istioctlDecodeError(c.kind, GROUP[c.kind] as string, d)).toBeUndefined();
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});
