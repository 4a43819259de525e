// The Kiali pack's framework: catalog, findings, Kiali's host rules and the context derived
// from a workspace. Expected values are Kiali's (models/istio_validation.go, kubernetes/host.go
// and host_test.go at d733a096), not our output.
import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../../../src/core/validation/kindProblems.ts';
import { KIALI_CATALOG, KialiContext, buildCheck, fullMessage, kialiDescriptor, runKialiPack } from '../../../../src/core/analysis/packs/kiali/index.ts';
import {
  filterByHost,
  getHost,
  hasMatchingVirtualServices,
  hostString,
  hostWithinWildcardHost,
  KubeServiceHosts,
} from '../../../../src/core/analysis/packs/kiali/hosts.ts';
import { gatewayMultiMatchChecker, hostnameMatcher } from '../../../../src/core/analysis/packs/kiali/gateways/multiMatch.ts';
import { gatewaySelectorChecker } from '../../../../src/core/analysis/packs/kiali/gateways/selector.ts';
import { matchPortNameWithValidProtocols } from '../../../../src/core/analysis/packs/kiali/services/portMapping.ts';

const ID = 'svc.cluster.local';

function viewOf(text: string, mesh: Record<string, unknown> = {}): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'm.yaml', text }], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: true,
      meshConfig: mergeMeshConfig(defaultMeshConfig(), mesh),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

describe('KIA catalog', () => {
  it('holds Kiali’s 72 codes, once each, with Kiali’s messages and severities', () => {
    expect(KIALI_CATALOG).toHaveLength(72);
    expect(new Set(KIALI_CATALOG.map((d) => d.code)).size).toBe(72);
    expect(kialiDescriptor('KIA0202')).toMatchObject({
      checkId: 'destinationrules.nodest.matchingregistry',
      severity: 'error',
      message: 'This host has no matching entry in the service registry (service, workload or service entries)',
    });
    expect(kialiDescriptor('KIA0601')?.message).toBe('Port name must follow <protocol>[-suffix] form');
    expect(kialiDescriptor('KIA1108')?.severity).toBe('unknown');
  });

  it('builds a finding with Kiali’s path and the dotted field path the editor uses', () => {
    const c = buildCheck('virtualservices.nohost.hostnotfound', 'spec/http[0]/route[1]/destination/host', 'warning');
    expect(c).toMatchObject({ code: 'KIA1101', severity: 'warning', path: 'spec/http[0]/route[1]/destination/host' });
    expect(c.fieldPath).toBe('spec.http[0].route[1].destination.host');
    expect(fullMessage(c)).toBe("KIA1101 DestinationWeight on route doesn't have a valid service (host not found)");
    expect(() => buildCheck('no.such.check', 'spec')).toThrow();
  });
});

describe('Kiali host rules', () => {
  it('GetHost: a short name gets the namespace; svc.ns only for a known namespace; svc.ns.svc always', () => {
    expect(hostString(getHost('reviews', 'bookinfo', null, ID))).toBe('reviews.bookinfo.svc.cluster.local');
    expect(hostString(getHost('reviews.bookinfo', 'test', ['bookinfo'], ID))).toBe('reviews.bookinfo.svc.cluster.local');
    // An unknown namespace makes it a ServiceEntry-like name, kept as written.
    expect(getHost('reviews.other', 'test', ['bookinfo'], ID)).toMatchObject({ service: 'reviews.other', completeInput: false });
    expect(hostString(getHost('reviews.bookinfo.svc', 'test', null, ID))).toBe('reviews.bookinfo.svc.cluster.local');
    // A truncated FQDN is not an FQDN for Kiali.
    expect(getHost('reviews.test.svc.cluster', 'test', null, ID).completeInput).toBe(false);
  });

  it('HostWithinWildcardHost honours DNS label boundaries (Kiali’s host_test.go table)', () => {
    expect(hostWithinWildcardHost('host1.test.svc.cluster.local', '*.test.svc.cluster.local')).toBe(true);
    expect(hostWithinWildcardHost('*.vault.svc.cluster.local', '*.local')).toBe(true);
    expect(hostWithinWildcardHost('anything', '*')).toBe(true);
    expect(hostWithinWildcardHost('svc.istio-test.svc.cluster.local', '*.test.svc.cluster.local')).toBe(false);
    expect(hostWithinWildcardHost('host1.test.svc.cluster.local', 'host1.test.svc.cluster.local')).toBe(false);
    expect(hostWithinWildcardHost('*.foo.com', '*.bar.com')).toBe(false);
  });

  it('HasMatchingVirtualServices (Kiali’s host_test.go)', () => {
    const reviews = { service: 'reviews', namespace: 'bookinfo', cluster: ID, completeInput: false };
    const vs = (namespace: string, hosts: string[]) => [{ namespace, hosts }];
    expect(hasMatchingVirtualServices(reviews, vs('bookinfo', ['reviews']), ID)).toBe(true);
    expect(hasMatchingVirtualServices(reviews, vs('bogus', ['reviews']), ID)).toBe(false);
    expect(hasMatchingVirtualServices(reviews, vs('bookinfo', ['*.bookinfo.svc.cluster.local']), ID)).toBe(true);
    expect(hasMatchingVirtualServices(reviews, vs('bookinfo', ['*.foo.example.com']), ID)).toBe(false);
    const external = { service: 'new.foo.example.com', namespace: '', cluster: '', completeInput: false };
    expect(hasMatchingVirtualServices(external, vs('bookinfo', ['*.foo.example.com']), ID)).toBe(true);
  });

  it('FilterByHost and KubeServiceHosts with exportTo', () => {
    expect(filterByHost('ratings', 'prod', 'ratings', 'prod', ID)).toBe(true);
    expect(filterByHost('ratings.prod.svc', 'x', 'ratings', 'prod', ID)).toBe(true);
    expect(filterByHost('ratings', 'x', 'ratings', 'prod', ID)).toBe(false);
    const hosts = new KubeServiceHosts([{ name: 'a', namespace: 'ns', annotations: { 'networking.istio.io/exportTo': '.' } }], ID);
    expect(hosts.isValidForNamespace('a.ns.svc.cluster.local', 'ns')).toBe(true);
    expect(hosts.isValidForNamespace('a.ns', 'other')).toBe(false);
  });

  it('Gateway hosts match as Kiali’s anchored expressions; port names as <protocol>[-suffix]', () => {
    expect(hostnameMatcher('api.dev.example.com')('api-dev.example.com')).toBe(false);
    // Go's `^*\.example\.com$` matches only `.example.com`.
    expect(hostnameMatcher('*.example.com')('www.example.com')).toBe(false);
    expect(hostnameMatcher('*.example.com')('.example.com')).toBe(true);
    expect(matchPortNameWithValidProtocols('http')).toBe(true);
    expect(matchPortNameWithValidProtocols('http-web')).toBe(true);
    expect(matchPortNameWithValidProtocols('http2foo')).toBe(false);
  });
});

const DR_UNKNOWN_HOST = `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: dr, namespace: shop}
spec:
  host: nowhere
`;

describe('Kiali context and pack run', () => {
  it('derives namespaces, ALLOW_ANY, auto-mTLS and the root namespace from the workspace', () => {
    const ctx = new KialiContext(viewOf(`${DR_UNKNOWN_HOST}---\napiVersion: v1\nkind: Namespace\nmetadata: {name: empty}\n`));
    expect(ctx.namespaces).toEqual(['empty', 'shop']);
    // Istio's default mesh config is ALLOW_ANY with auto-mTLS on.
    expect(ctx.policyAllowAny).toBe(true);
    expect(ctx.enableAutoMtls).toBe(true);
    expect(ctx.rootNamespace).toBe('istio-system');
    const strict = new KialiContext(viewOf(DR_UNKNOWN_HOST, { outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' }, rootNamespace: 'mesh-root' }), {
      namespaces: null,
    });
    expect(strict.policyAllowAny).toBe(false);
    expect(strict.rootNamespace).toBe('mesh-root');
    expect(strict.namespaces).toBeNull();
  });

  it('reports KIA0202 on spec/host: an error under REGISTRY_ONLY, a warning under ALLOW_ANY (valid=false both ways)', () => {
    const strict = runKialiPack(viewOf(DR_UNKNOWN_HOST, { outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' } }));
    const dr = strict.find((v) => v.object.kind === 'DestinationRule');
    expect(dr?.valid).toBe(false);
    expect(dr?.checks).toEqual([expect.objectContaining({ code: 'KIA0202', severity: 'error', path: 'spec/host', fieldPath: 'spec.host' })]);
    const allowAny = runKialiPack(viewOf(DR_UNKNOWN_HOST)).find((v) => v.object.kind === 'DestinationRule');
    expect(allowAny?.checks.map((c) => c.severity)).toEqual(['warning']);
    expect(allowAny?.valid).toBe(false);
  });

  it('merges checks per object across checkers', () => {
    const text = `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: a, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [shop.example.com]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: b, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [SHOP.example.com]
`;
    const gws = runKialiPack(viewOf(text), {}, [gatewayMultiMatchChecker, gatewaySelectorChecker]).filter((v) => v.object.kind === 'Gateway');
    expect(gws.map((v) => v.object.name).sort()).toEqual(['a', 'b']);
    for (const v of gws) {
      // KIA0301 leaves a Gateway valid; KIA0302 (no workload for the selector) does not.
      expect(v.valid).toBe(false);
      expect(v.checks).toEqual([
        expect.objectContaining({ code: 'KIA0301', severity: 'warning', path: 'spec/servers[0]/hosts[0]' }),
        expect.objectContaining({ code: 'KIA0302', severity: 'warning', path: 'spec/selector' }),
      ]);
    }
    expect(gws.find((v) => v.object.name === 'a')?.references).toEqual(['shop/b']);
  });
});
