import { describe, expect, it } from 'vitest';
import { portNameAnalyzer } from '../../../../src/core/analysis/analyzers/service/portName.ts';
import { kubePortProtocol, protocolUnsupported } from '../../../../src/core/config/protocol.ts';
import { conditionAnalyzer } from '../../../../src/core/analysis/analyzers/conditions/conditions.ts';
import { deprecationAnalyzer } from '../../../../src/core/analysis/analyzers/deprecation/deprecation.ts';
import { analyze, docs, pairs } from '../helpers.ts';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

const service = (name: string, ports: string, extra = '', meta = '') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: shop
${meta}spec:
${extra}  ports:
${ports}`;

describe('service.PortNameAnalyzer', () => {
  it('decides protocols like Istio', () => {
    expect(protocolUnsupported(80, 'http-web', 'TCP', undefined)).toBe(false);
    expect(protocolUnsupported(80, 'GRPC-Web-x', 'TCP', undefined)).toBe(false);
    expect(protocolUnsupported(80, 'web', 'TCP', 'HTTP')).toBe(false);
    expect(protocolUnsupported(80, 'http', 'TCP', 'custom')).toBe(true);
    expect(protocolUnsupported(53, '', 'TCP', undefined)).toBe(false);
    expect(protocolUnsupported(9000, '', 'UDP', undefined)).toBe(false);
    expect(protocolUnsupported(9000, 'web', 'TCP', undefined)).toBe(true);
  });

  it("knows Kubernetes' standard appProtocol names, as Istio's ConvertProtocol does", () => {
    expect(kubePortProtocol(8080, 'web', 'TCP', 'kubernetes.io/h2c')).toBe('HTTP2');
    expect(kubePortProtocol(8080, 'web', 'TCP', 'kubernetes.io/ws')).toBe('HTTP');
    expect(kubePortProtocol(8443, 'web', 'TCP', 'kubernetes.io/wss')).toBe('HTTPS');
    // Only as an appProtocol: a port name cannot hold them.
    expect(protocolUnsupported(8080, 'kubernetes.io/h2c', 'TCP', undefined)).toBe(true);
    const text = service('h2c', '  - name: web\n    port: 8080\n    appProtocol: kubernetes.io/h2c\n');
    expect(pairs(analyze(portNameAnalyzer, { 's.yaml': text }))).toEqual([]);
  });

  it('reports ports Istio cannot classify (IST0118) on the port line', () => {
    const text = service('web', '  - name: web\n    port: 8080\n    targetPort: 9090\n  - name: http-ok\n    port: 80\n  - port: 81\n');
    const out = analyze(portNameAnalyzer, { 's.yaml': text });
    expect(pairs(out)).toEqual(['IST0118 Service shop/web', 'IST0118 Service shop/web']);
    expect(out.map((d) => d.message).sort()).toEqual([
      "Port name  (port: 81, targetPort: 0) doesn't follow the naming convention of Istio port.",
      "Port name web (port: 8080, targetPort: 9090) doesn't follow the naming convention of Istio port.",
    ]);
    expect(out.map((d) => d.line).sort()).toEqual([lineOf(text, 'port: 8080'), lineOf(text, 'port: 81')].sort());
    expect(out[0]?.level).toBe('Info');
  });

  it('reports ExternalName services with unnamed or plain tcp ports (IST0150)', () => {
    const text = docs(
      service('ext', '  - name: tcp\n    port: 443\n', '  type: ExternalName\n  externalName: db.example.com\n'),
      service('ext-ok', '  - name: https\n    port: 443\n', '  type: ExternalName\n  externalName: db.example.com\n'),
    );
    const out = analyze(portNameAnalyzer, { 's.yaml': text });
    expect(pairs(out)).toEqual(['IST0150 Service shop/ext']);
    expect(out[0]?.message).toMatch(/^Port name for ExternalName service is invalid\./);
    expect(out[0]?.line).toBe(lineOf(text, 'port: 443'));
  });

  it('skips control-plane and gateway-controller services', () => {
    const out = analyze(portNameAnalyzer, {
      's.yaml': docs(
        service('istiod', '  - name: grpc-xds\n    port: 15010\n  - name: webhook\n    port: 443\n', '', '  labels:\n    istio: pilot\n'),
        service('gw', '  - name: default\n    port: 80\n', '', '  labels:\n    gateway.istio.io/managed: istio.io-gateway-controller\n'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });
});

describe('conditions.ConditionAnalyzer', () => {
  it('reports negative conditions of the kinds Istio watches', () => {
    const text = docs(
      `
apiVersion: networking.istio.io/v1
kind: WorkloadEntry
metadata:
  name: vm
  namespace: shop
spec:
  address: 10.0.0.5
status:
  conditions:
  - type: istio.io/WaypointBound
    status: "False"
    reason: WaypointIsNotReady
    message: waypoint not ready
`,
      `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: r
  namespace: shop
status:
  parents:
  - conditions:
    - {type: Accepted, status: "True", reason: Accepted, message: ok}
    - {type: ResolvedRefs, status: "False", reason: BackendNotFound, message: "backend shop/x not found"}
`,
    );
    const out = analyze(conditionAnalyzer, { 'c.yaml': text });
    expect(pairs(out)).toEqual(['IST0171 HTTPRoute shop/r', 'IST0171 WorkloadEntry shop/vm']);
    expect(out.find((d) => d.origin === 'HTTPRoute shop/r')?.message).toBe(
      'A condition with a negative status is present: type=ResolvedRefs, reason=BackendNotFound, message=backend shop/x not found.',
    );
  });

  it('ignores positive conditions and condition types it does not know', () => {
    const out = analyze(conditionAnalyzer, {
      'c.yaml': `
apiVersion: v1
kind: Service
metadata:
  name: s
  namespace: shop
status:
  conditions:
  - {type: argocd.argoproj.io/Synced, status: "False", reason: OutOfSync, message: x}
  - {type: istio.io/WaypointBound, status: "True", reason: WaypointAccepted, message: bound}
`,
    });
    expect(pairs(out)).toEqual([]);
  });
});

describe('deprecation.DeprecationAnalyzer', () => {
  it('reports removed Istio CRDs and deprecated fields', () => {
    const text = docs(
      `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: serviceroles.rbac.istio.io
spec:
  group: rbac.istio.io
  names:
    kind: ServiceRole
`,
      `
apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: slow
  namespace: shop
spec:
  hosts: [slow]
  http:
  - fault:
      delay:
        percent: 10
        fixedDelay: 5s
`,
    );
    const out = analyze(deprecationAnalyzer, { 'd.yaml': text });
    expect(pairs(out)).toEqual(['IST0002 CustomResourceDefinition serviceroles.rbac.istio.io', 'IST0002 VirtualService shop/slow']);
    expect(out.map((d) => d.message).sort()).toEqual([
      'Deprecated: Custom resource type rbac.istio.io ServiceRole is removed',
      'Deprecated: HTTPRoute.fault.delay.percent is deprecated; use HTTPRoute.fault.delay.percentage',
    ]);
    expect(out.find((d) => d.origin === 'VirtualService shop/slow')?.line).toBe(lineOf(text, 'networking.istio.io/v1beta1'));
  });

  it('accepts the replacement fields', () => {
    const out = analyze(deprecationAnalyzer, {
      'd.yaml': docs(
        `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: slow
  namespace: shop
spec:
  hosts: [slow]
  http:
  - fault:
      delay:
        percentage: {value: 10}
        fixedDelay: 5s
`,
        `
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
  namespace: shop
spec:
  outboundTrafficPolicy:
    mode: REGISTRY_ONLY
`,
      ),
    });
    expect(pairs(out)).toEqual([]);
  });
});
