// Istio's xDS unit-test harness (pilot/pkg/networking/core/fake.go, pilot/test/xds/fake.go) as
// far as the transcribed cases need it: Istio config objects land in `default`, all share one
// creation time unless they set one, and expand short hosts with an empty domain suffix;
// Kubernetes objects come from a cluster named `Kubernetes` with suffix `cluster.local`.
import jsyaml from 'js-yaml';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../src/core/config/mesh/meshconfig.ts';
import { describeProxy } from '../../src/core/xds/proxy.ts';
import type { Proxy } from '../../src/core/xds/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

/** The one creation time the harness gives config objects without one (it is `time.Now()` there). */
export const HARNESS_NOW = '2030-01-01T00:00:00Z';

function stampConfig(text: string): string {
  const docs: string[] = [];
  jsyaml.loadAll(text, (d) => {
    if (!d || typeof d !== 'object' || Array.isArray(d)) return;
    const o = d as Record<string, unknown>;
    const meta = (o.metadata && typeof o.metadata === 'object' ? o.metadata : (o.metadata = {})) as Record<string, unknown>;
    if (!meta.creationTimestamp) meta.creationTimestamp = HARNESS_NOW;
    docs.push(jsyaml.dump(o, { noRefs: true }));
  });
  return docs.join('---\n');
}

export interface HarnessInput {
  config?: string | null;
  kubeConfig?: string | null;
  meshConfig?: Record<string, unknown> | null;
}

/** The workspace view the harness would build from the case's YAML. */
export function harnessView(c: HarnessInput): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  const files = [];
  if (c.config) files.push({ path: 'config.yaml', text: stampConfig(c.config) });
  if (c.kubeConfig) files.push({ path: 'kube.yaml', text: c.kubeConfig });
  model.update(files, []);
  const meshConfig = mergeMeshConfig(defaultMeshConfig(), c.meshConfig ?? {});
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: false,
      meshConfig,
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

export interface HarnessProxy {
  type?: 'sidecar' | 'router' | 'waypoint';
  configNamespace?: string;
  namespace?: string;
  labels?: Record<string, string>;
  ips?: string[];
  istioVersion?: string;
  dnsDomain?: string;
  id?: string;
  clusterID?: string;
  metadata?: Record<string, unknown>;
}

/** The proxy the harness would set up (SetupProxy defaults). */
export function harnessProxy(p: HarnessProxy | undefined): Proxy {
  const d = p ?? {};
  return describeProxy({
    type: d.type ?? 'sidecar',
    configNamespace: d.configNamespace,
    namespace: d.namespace,
    labels: d.labels ?? {},
    ipAddresses: d.ips ?? ['1.1.1.1'],
    istioVersion: d.istioVersion,
    dnsDomain: d.dnsDomain,
    id: d.id,
    clusterId: d.clusterID ?? '',
  });
}
