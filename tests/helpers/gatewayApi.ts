// Gateway API objects as YAML text, for tests that paste them, and read into the conversion's input.
import jsyaml from 'js-yaml';
import type { GwObject } from '../../src/core/config/gatewayApi/objects.ts';

/** The documents of a YAML text as the conversion's objects (cluster-scoped kinds without a namespace). */
export function gwObjects(text: string): GwObject[] {
  const out: GwObject[] = [];
  jsyaml.loadAll(
    text,
    (d) => {
      if (!d || typeof d !== 'object') return;
      const doc = d as Record<string, unknown>;
      const md = (doc.metadata ?? {}) as Record<string, unknown>;
      const kind = String(doc.kind);
      out.push({
        apiVersion: String(doc.apiVersion),
        kind,
        name: String(md.name),
        namespace: kind === 'GatewayClass' || kind === 'Namespace' ? '' : String(md.namespace ?? 'default'),
        labels: (md.labels ?? {}) as Record<string, string>,
        annotations: (md.annotations ?? {}) as Record<string, string>,
        body: doc,
        created: typeof md.creationTimestamp === 'string' ? Date.parse(md.creationTimestamp) : 0,
        generation: 0,
      });
    },
    { schema: jsyaml.CORE_SCHEMA },
  );
  return out;
}

/** A Kubernetes Gateway of class istio with HTTP listeners given as [name, port]. */
export function istioGateway(namespace: string, name: string, listeners: ReadonlyArray<readonly [string, number]>): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  gatewayClassName: istio
  listeners:
${listeners.map(([l, port]) => `  - {name: ${l}, port: ${port}, protocol: HTTP}\n`).join('')}`;
}
