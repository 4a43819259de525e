// The editor range of workload messages lands on the offending field, while the line
// istioctl prints stays where Istio puts it.
import { describe, expect, it } from 'vitest';
import { pos, expectAt } from '../../../helpers/position.ts';
import { deprecationAnalyzer } from '../../../../src/core/analysis/analyzers/deprecation/deprecation.ts';
import { applicationUIDAnalyzer } from '../../../../src/core/analysis/analyzers/deployment/pod.ts';
import { portNameAnalyzer } from '../../../../src/core/analysis/analyzers/service/portName.ts';
import { conditionAnalyzer } from '../../../../src/core/analysis/analyzers/conditions/conditions.ts';
import { analyze } from '../helpers.ts';

describe('workload messages highlight the offending field', () => {
  it('IST0002: the deprecated VirtualService, Sidecar and CRD fields', () => {
    const vs = [
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      '  name: vs',
      '  namespace: shop',
      'spec:',
      '  hosts: [a]',
      '  http:',
      '  - route:',
      '    - destination: {host: a}',
      '  - fault:',
      '      delay:',
      '        percent: 10',
      '        fixedDelay: 1s',
      '    route:',
      '    - destination: {host: a}',
      '',
    ].join('\n');
    const sc = [
      'apiVersion: networking.istio.io/v1',
      'kind: Sidecar',
      'metadata:',
      '  name: sc',
      '  namespace: shop',
      'spec:',
      '  outboundTrafficPolicy:',
      '    mode: REGISTRY_ONLY',
      '    egressProxy:',
      '      host: egress',
      '',
    ].join('\n');
    const crd = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata:',
      '  name: rbacconfigs.rbac.istio.io',
      'spec:',
      '  group: rbac.istio.io',
      '  names:',
      '    plural: rbacconfigs',
      '    kind: RbacConfig',
      '',
    ].join('\n');
    const out = analyze(deprecationAnalyzer, { 'vs.yaml': vs, 'sc.yaml': sc, 'crd.yaml': crd });
    const of = (file: string) => out.find((d) => d.file === file);
    expect(out.map((d) => d.code)).toEqual(['IST0002', 'IST0002', 'IST0002']);
    expectAt(of('vs.yaml'), vs, 'percent: 10');
    expectAt(of('sc.yaml'), sc, 'egressProxy');
    expectAt(of('crd.yaml'), crd, 'kind: RbacConfig');
    for (const d of out) expect(d.line).toBe(1);
  });

  it('IST0144: the runAsUser of the pod or of the container', () => {
    const pod = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: p',
      '  namespace: shop',
      'spec:',
      '  securityContext:',
      '    runAsUser: 1337',
      '  containers:',
      '  - name: app',
      '    image: app',
      '',
    ].join('\n');
    const deployment = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: d',
      '  namespace: shop',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: ok',
      '        image: ok',
      '      - name: app',
      '        image: app',
      '        securityContext:',
      '          runAsUser: 1337',
      '',
    ].join('\n');
    const out = analyze(applicationUIDAnalyzer, { 'pod.yaml': pod, 'd.yaml': deployment });
    expect(out.map((d) => d.code)).toEqual(['IST0144', 'IST0144']);
    expectAt(
      out.find((d) => d.file === 'pod.yaml'),
      pod,
      'runAsUser',
    );
    expectAt(
      out.find((d) => d.file === 'd.yaml'),
      deployment,
      'runAsUser',
    );
    for (const d of out) expect(d.line).toBe(1);
  });

  it('IST0118 / IST0150: the port name, or the appProtocol Istio reads instead', () => {
    const svc = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
      '  namespace: shop',
      'spec:',
      '  ports:',
      '  - name: web',
      '    port: 8080',
      '  - name: http',
      '    appProtocol: custom',
      '    port: 8081',
      '  - port: 8082',
      '',
    ].join('\n');
    const ext = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: ext',
      '  namespace: shop',
      'spec:',
      '  type: ExternalName',
      '  externalName: db.example.com',
      '  ports:',
      '  - port: 443',
      '    name: tcp',
      '',
    ].join('\n');
    const out = analyze(portNameAnalyzer, { 'svc.yaml': svc, 'ext.yaml': ext });
    const byLine = (file: string, line: number) => out.find((d) => d.file === file && d.line === line);
    // istioctl keeps pointing at the port number.
    const named = byLine('svc.yaml', pos(svc, 'port: 8080').line);
    const app = byLine('svc.yaml', pos(svc, 'port: 8081').line);
    const unnamed = byLine('svc.yaml', pos(svc, 'port: 8082').line);
    const external = byLine('ext.yaml', pos(ext, 'port: 443').line);
    expect([named?.code, app?.code, unnamed?.code, external?.code]).toEqual(['IST0118', 'IST0118', 'IST0118', 'IST0150']);
    expectAt(named, svc, 'name: web', 'ports:');
    expectAt(app, svc, 'appProtocol: custom');
    // No name to point at: the port stays highlighted.
    expectAt(unnamed, svc, 'port: 8082');
    expectAt(external, ext, 'name: tcp');
  });

  it('IST0171: the negative status, or the PartiallyInvalid reason', () => {
    const svc = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: s',
      '  namespace: shop',
      'spec:',
      '  ports: [{port: 80, name: http}]',
      'status:',
      '  conditions:',
      '  - type: Other',
      '    status: "False"',
      '  - type: istio.io/WaypointBound',
      '    status: "False"',
      '    reason: NoWaypoint',
      '    message: none',
      '',
    ].join('\n');
    const route = [
      'apiVersion: gateway.networking.k8s.io/v1',
      'kind: HTTPRoute',
      'metadata:',
      '  name: r',
      '  namespace: shop',
      'spec:',
      '  parentRefs: [{name: gw}]',
      'status:',
      '  parents:',
      '  - parentRef: {name: a}',
      '    conditions:',
      '    - type: Accepted',
      '      status: "True"',
      '  - parentRef: {name: b}',
      '    conditions:',
      '    - type: ResolvedRefs',
      '      status: "False"',
      '      reason: BackendNotFound',
      '',
    ].join('\n');
    const policy = [
      'apiVersion: security.istio.io/v1',
      'kind: AuthorizationPolicy',
      'metadata:',
      '  name: ap',
      '  namespace: shop',
      'spec: {}',
      'status:',
      '  conditions:',
      '  - type: WaypointAccepted',
      '    status: "True"',
      '    reason: PartiallyInvalid',
      '    message: some rules dropped',
      '',
    ].join('\n');
    const out = analyze(conditionAnalyzer, { 'svc.yaml': svc, 'route.yaml': route, 'ap.yaml': policy });
    const of = (file: string) => out.find((d) => d.file === file);
    expect(out.map((d) => d.code)).toEqual(['IST0171', 'IST0171', 'IST0171']);
    expectAt(of('svc.yaml'), svc, 'status: "False"', 'istio.io/WaypointBound');
    expectAt(of('route.yaml'), route, 'status: "False"', 'ResolvedRefs');
    expectAt(of('ap.yaml'), policy, 'reason: PartiallyInvalid');
    for (const d of out) expect(d.line).toBe(1);
  });
});
