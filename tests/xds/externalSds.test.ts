// External SDS: a credentialName `sds://<resource>` as istiod resolves it
// (pilot/pkg/security/model/authentication.go ConstructSdsSecretConfigForCredential): with an
// SDS extension provider in mesh config, the resource (prefix stripped) over gRPC from the
// provider's cluster (model.LookupCluster: outbound|port||host, the host as the authority);
// without one, the resource as a Kubernetes Secret over ADS; with a provider whose service is
// not in the registry, no SDS config at all. istiod's own output for such a workspace agrees
// (npm run oracle -- xds, workspace bookinfo+external-sds).
import { describe, expect, it } from 'vitest';
import { at, generateFor, list, viewOf } from './helpers.ts';
import type { Json } from '../../src/core/xds/types.ts';
import { externalSdsResources, resolveProxySecret } from '../../src/core/xds/secrets.ts';

const GATEWAY = `apiVersion: v1
kind: Service
metadata: {name: sds-server, namespace: istio-system}
spec:
  clusterIP: 10.96.77.7
  selector: {app: sds-server}
  ports: [{name: grpc, port: 8443}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: secure, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 443, name: https, protocol: HTTPS}
    hosts: ["secure.example.com"]
    tls: {mode: MUTUAL, credentialName: "sds://bookinfo-cert"}
`;

const provider = (service: string) => ({ extensionProviders: [{ name: 'vault-sds', sds: { service, port: 8443 } }] });

function serverTls(mesh: Record<string, unknown>): Json {
  const gen = generateFor(viewOf(GATEWAY, mesh, true), 'istio-ingressgateway-dummypod', 'istio-system');
  const l = gen.listeners.find((x) => String(x.name).endsWith('_8443'));
  if (!l) throw new Error(`no 8443 listener among ${gen.listeners.map((x) => x.name).join(', ')}`);
  return at(list(l.filterChains)[0], 'transportSocket', 'typedConfig', 'commonTlsContext') as Json;
}

describe('credentialName sds://', () => {
  it("is fetched from the SDS extension provider's cluster, the resource name without the prefix", () => {
    const common = serverTls(provider('sds-server.istio-system.svc.cluster.local'));
    const grpc = {
      apiType: 'GRPC',
      transportApiVersion: 'V3',
      grpcServices: [
        { envoyGrpc: { clusterName: 'outbound|8443||sds-server.istio-system.svc.cluster.local', authority: 'sds-server.istio-system.svc.cluster.local' } },
      ],
      setNodeOnFirstMessageOnly: true,
    };
    expect(common.tlsCertificateSdsSecretConfigs).toEqual([{ name: 'bookinfo-cert', sdsConfig: { apiConfigSource: grpc, resourceApiVersion: 'V3' } }]);
    // The client CA of MUTUAL: the same provider, `<resource>-cacert`.
    expect(at(common, 'combinedValidationContext', 'validationContextSdsSecretConfig')).toEqual({
      name: 'bookinfo-cert-cacert',
      sdsConfig: { apiConfigSource: grpc, resourceApiVersion: 'V3' },
    });
  });

  it('is a Kubernetes Secret over ADS without a provider', () => {
    const common = serverTls({});
    expect(common.tlsCertificateSdsSecretConfigs).toEqual([{ name: 'kubernetes://bookinfo-cert', sdsConfig: { ads: {}, resourceApiVersion: 'V3' } }]);
  });

  it("gets no SDS config when the provider's service is not in the registry (istiod's nil entry, printed {})", () => {
    const common = serverTls(provider('nowhere.example.com'));
    expect(common.tlsCertificateSdsSecretConfigs).toEqual([{}]);
    expect(at(common, 'combinedValidationContext', 'validationContextSdsSecretConfig')).toBeUndefined();
  });

  it("lists such resources as the provider's, never as Secrets istiod lacks", () => {
    const view = viewOf(GATEWAY, provider('sds-server.istio-system.svc.cluster.local'), true);
    const gen = generateFor(view, 'istio-ingressgateway-dummypod', 'istio-system');
    const external = externalSdsResources(gen.listeners, gen.clusters);
    expect([...external]).toEqual([
      ['bookinfo-cert', 'outbound|8443||sds-server.istio-system.svc.cluster.local'],
      ['bookinfo-cert-cacert', 'outbound|8443||sds-server.istio-system.svc.cluster.local'],
    ]);
    const cert = resolveProxySecret(view, gen.proxy, 'bookinfo-cert', external);
    expect([cert.source, cert.role, cert.served]).toEqual(['external', 'cert', true]);
    expect(resolveProxySecret(view, gen.proxy, 'bookinfo-cert-cacert', external).role).toBe('root');
    // Without the provider the same name is a Secret of the gateway's namespace, which the files lack.
    expect(resolveProxySecret(view, gen.proxy, 'kubernetes://bookinfo-cert').served).toBe(false);
  });
});
