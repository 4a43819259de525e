// Building workspaces and proxies for generator tests.
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../src/core/config/mesh/meshconfig.ts';
import { findProxy, proxyForPod } from '../../src/core/xds/proxy.ts';
import { generateForProxy, type GeneratedConfig } from '../../src/core/xds/generate.ts';
import type { GenerateOptions, Json } from '../../src/core/xds/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

export function viewOf(text: string, mesh: Record<string, unknown> = {}, placeholders = false): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'mesh.yaml', text }], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: placeholders,
      deriveWorkloads: true,
      meshConfig: mergeMeshConfig(defaultMeshConfig(), mesh),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

/** Generates for the pod named `pod` (or the first whose name starts with it). */
export function generateFor(view: ConfigView, pod: string, namespace = 'default', opts: GenerateOptions = {}): GeneratedConfig {
  const ref = findProxy(view, pod, namespace);
  if (!ref) throw new Error(`no proxy ${namespace}/${pod}`);
  return generateForProxy(view, proxyForPod(view, ref), opts);
}

export function byName(list: readonly Json[], name: string): Json {
  const found = list.find((x) => x.name === name);
  if (!found) throw new Error(`no ${name} among ${list.map((x) => x.name).join(', ')}`);
  return found;
}

export function at(v: unknown, ...path: (string | number)[]): unknown {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

export function obj(v: unknown): Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`not an object: ${JSON.stringify(v)}`);
  return v as Json;
}

export function list(v: unknown): Json[] {
  if (!Array.isArray(v)) throw new Error(`not a list: ${JSON.stringify(v)}`);
  return v as Json[];
}

/** Namespace `app` (injected): Service web:8080 (10.96.1.10) with pod web-1 (10.1.1.2), and a client pod client-1 (10.1.1.1). */
export const CLIENT_WEB_MESH = `apiVersion: v1
kind: Namespace
metadata: {name: app, labels: {istio-injection: enabled}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: app}
spec:
  clusterIP: 10.96.1.10
  selector: {app: web}
  ports: [{name: http, port: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: client-1, namespace: app, labels: {app: client}}
spec:
  containers: [{name: c, image: c}]
status: {podIP: 10.1.1.1}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: app, labels: {app: web}}
spec:
  containers: [{name: w, image: w, ports: [{containerPort: 8080}]}]
status: {podIP: 10.1.1.2}
`;
