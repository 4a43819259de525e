// Runs a Kiali checker over objects given as data, the way the conformance harness does: the
// objects as the files, no placeholders or derived pods, Istio's default mesh config, and no
// control plane unless the overrides name one.
import { WorkspaceModel } from '../../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../../src/core/config/store.ts';
import { configView } from '../../../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../../../src/core/validation/kindProblems.ts';
import { KialiContext, type KialiChecker, type KialiContextOverrides, type KialiValidation } from '../../../../src/core/analysis/packs/kiali/index.ts';

type Labels = Record<string, string>;

/** A context over the objects (JSON is YAML). */
export function kialiContext(objects: readonly object[], overrides: KialiContextOverrides = {}, deriveWorkloads = false): KialiContext {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'objects.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }], []);
  const store = new ResourceStore(model.resources(), {
    mode: 'harness',
    defaultNamespace: '',
    includePlaceholders: false,
    deriveWorkloads,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  });
  return new KialiContext(configView(store), { controlPlaneNamespaces: [], ...overrides });
}

export function runChecker(checker: KialiChecker, objects: readonly object[], overrides: KialiContextOverrides = {}): KialiValidation[] {
  return checker.run(kialiContext(objects, overrides));
}

/** The validation of one object: its codes in order, its paths and its valid flag (undefined when absent). */
export function validationOf(vals: readonly KialiValidation[], kind: string, namespace: string, name: string) {
  const v = vals.find((x) => x.object.kind === kind && x.object.namespace === namespace && x.object.name === name);
  return v && { codes: v.checks.map((c) => c.code), paths: v.checks.map((c) => c.path), valid: v.valid };
}

export const namespace = (name: string, labels: Labels = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** data.CreateWorkload as a Deployment whose pod template carries the labels. */
export const deployment = (ns: string, name: string, labels: Labels = {}, template: { annotations?: Labels } = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    selector: { matchLabels: labels },
    template: {
      metadata: { labels, ...(template.annotations ? { annotations: template.annotations } : {}) },
      spec: { containers: [{ name, image: `example/${name}` }] },
    },
  },
});

/** data.CreatePod: a bare pod, redirected by istio-cni when `ambient`, with an istio-proxy container when `sidecar`. */
export const pod = (ns: string, name: string, labels: Labels, o: { ambient?: boolean; sidecar?: boolean; annotations?: Labels } = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: ns,
    labels,
    annotations: { ...(o.ambient ? { 'ambient.istio.io/redirection': 'enabled' } : {}), ...(o.annotations ?? {}) },
  },
  spec: { containers: [{ name: 'app', image: 'example/app' }, ...(o.sidecar ? [{ name: 'istio-proxy', image: 'istio/proxyv2' }] : [])] },
});

export const service = (ns: string, name: string, labels: Labels = {}, selector?: Labels) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: ns, labels },
  spec: { ...(selector ? { selector } : {}), ports: [{ name: 'http', port: 9080 }] },
});

/** data.CreateAuthorizationPolicy(["bookinfo"], ["GET"], ["reviews"], selector): L7 (methods, hosts, a request.headers condition). */
export const l7Policy = (ns: string, selector: Labels, name = 'auth-policy') => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace: ns },
  spec: {
    selector: { matchLabels: selector },
    rules: [
      {
        from: [{ source: { namespaces: ['bookinfo'] } }],
        to: [{ operation: { methods: ['GET'], hosts: ['reviews'] } }],
        when: [{ key: 'request.headers', values: ['HTTP'] }],
      },
    ],
  },
});

/** data.CreateAuthorizationPolicyWithTargetRefs: an L7 DENY policy attached to a Service. */
export const l7PolicyWithTargetRefs = (ns: string, name: string, svc: string) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace: ns },
  spec: { targetRefs: [{ group: '', kind: 'Service', name: svc }], action: 'DENY', rules: [{ to: [{ operation: { methods: ['GET'] } }] }] },
});

/** data.CreateAuthorizationPolicyWithPrincipals: L4 only. */
export const l4Policy = (ns: string, name: string) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace: ns },
  spec: { rules: [{ from: [{ source: { principals: ['cluster.local/ns/default/sa/app'] } }] }] },
});
