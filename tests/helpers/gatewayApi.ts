// Gateway API objects as YAML text, for tests that paste them.

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
