// Presence checks on parsed resources, pod template shapes and Istio's injection webhooks.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import type { Resource } from '../../src/core/document/types.ts';
import { isMappingAt, isWritten } from '../../src/core/config/views.ts';
import { templateShape } from '../../src/core/config/workloads.ts';
import { workloadControllerSpec } from '../../src/core/config/api/kube.ts';
import { istioWebhookSelects } from '../../src/core/config/webhooks.ts';
import { isIstioControlPlane } from '../../src/core/config/workloadState.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function resourcesOf(docs: unknown[]): Resource[] {
  const m = new WorkspaceModel(kindProblems);
  m.update([{ path: 'a.yaml', text: docs.map((d) => jsyaml.dump(d)).join('---\n') }], []);
  return m.resources();
}

function viewOf(docs: unknown[]) {
  const store = new ResourceStore(resourcesOf(docs), {
    mode: 'cli',
    defaultNamespace: 'default',
    includePlaceholders: false,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  });
  return configView(store);
}

describe('isWritten and isMappingAt', () => {
  const [pod] = resourcesOf([
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a', image: '' }, { name: 'b', image: null }, 'odd', { name: 'c' }], toString: { x: 1 } },
    },
  ]) as [Resource];

  it('tells written fields (even empty ones) from absent and null ones', () => {
    expect(isWritten(pod, ['spec', 'containers', 0, 'image'])).toBe(true);
    expect(isWritten(pod, ['spec', 'containers', 1, 'image'])).toBe(false);
    expect(isWritten(pod, ['spec', 'containers', 3, 'image'])).toBe(false);
    expect(isWritten(pod, ['spec', 'containers', 9, 'image'])).toBe(false);
    expect(isWritten(pod, ['spec', 'containers', 2, 'name'])).toBe(false);
  });

  it('tells mappings from list items of another type, and never follows inherited keys', () => {
    expect(isMappingAt(pod, ['spec', 'containers', 0])).toBe(true);
    expect(isMappingAt(pod, ['spec', 'containers', 2])).toBe(false);
    expect(isMappingAt(pod, ['spec', 'containers'])).toBe(false);
    expect(isMappingAt(pod, ['spec', 'toString'])).toBe(true);
    expect(isWritten(pod, ['spec', 'constructor'])).toBe(false);
    expect(isWritten(pod, ['spec', '__proto__'])).toBe(false);
  });
});

describe('templateShape', () => {
  it("reads a controller's pod template, or an empty shape without one", () => {
    const [d, bare] = resourcesOf([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'shop' },
        spec: {
          template: {
            metadata: { labels: { app: 'd' }, annotations: { 'sidecar.istio.io/inject': 'true' } },
            spec: { hostNetwork: true, containers: [{ name: 'app' }] },
          },
        },
      },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bare', namespace: 'shop' }, spec: { template: 'odd' } },
    ]) as [Resource, Resource];
    const shape = templateShape(d.namespace, workloadControllerSpec(d).template);
    expect({ ...shape.labels }).toEqual({ app: 'd' });
    expect(shape.annotations['sidecar.istio.io/inject']).toBe('true');
    expect(shape.containers.map((c) => c.name)).toEqual(['app']);
    expect(shape.hostNetwork).toBe(true);
    const empty = templateShape(bare.namespace, workloadControllerSpec(bare).template);
    expect(empty).toMatchObject({ namespace: 'shop', containers: [], initContainers: [], hostNetwork: false });
    expect(Object.keys(empty.labels)).toEqual([]);
  });
});

describe("Istio's injection webhooks", () => {
  const webhooks = (selector: unknown) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'istio-sidecar-injector' },
    webhooks: [
      { name: 'rev.namespace.sidecar-injector.istio.io', namespaceSelector: selector },
      // Not Istio's: its name does not end in istio.io.
      { name: 'other.example.com' },
    ],
  });

  it("selects by Istio's webhooks only, with Kubernetes' selector rules", () => {
    const view = viewOf([webhooks({ matchLabels: { 'istio-injection': 'enabled' } })]);
    expect(istioWebhookSelects(view, { 'istio-injection': 'enabled' }, {})).toBe(true);
    expect(istioWebhookSelects(view, undefined, undefined)).toBe(false);
    // An invalid selector selects nothing; an absent one everything.
    expect(istioWebhookSelects(viewOf([webhooks({ matchLabels: { 'bad key!': 'x' } })]), { 'bad key!': 'x' }, {})).toBe(false);
    expect(istioWebhookSelects(viewOf([webhooks(null)]), undefined, undefined)).toBe(true);
    expect(istioWebhookSelects(viewOf([]), undefined, undefined)).toBe(false);
  });

  it('is a lookup that depends on the webhook configurations', () => {
    const view = viewOf([webhooks(null)]);
    istioWebhookSelects(view, undefined, undefined);
    let rebuilt = false;
    view.lookups.cached('config.istioMutatingWebhooks', () => ((rebuilt = true), []));
    expect(rebuilt).toBe(false);
    view.lookups.invalidate(new Set([KINDS.MutatingWebhookConfiguration.id]));
    view.lookups.cached('config.istioMutatingWebhooks', () => ((rebuilt = true), []));
    expect(rebuilt).toBe(true);
  });
});

describe('isIstioControlPlane', () => {
  it('is an `istio` label of any value, or release=istio', () => {
    const labels = (l: Record<string, string>) => ({ labels: Object.assign(Object.create(null) as Record<string, string>, l) });
    expect(isIstioControlPlane(labels({ istio: '' }))).toBe(true);
    expect(isIstioControlPlane(labels({ release: 'istio' }))).toBe(true);
    expect(isIstioControlPlane(labels({ app: 'istiod' }))).toBe(false);
    expect(isIstioControlPlane(labels({}))).toBe(false);
  });
});
