// Boundary rules of the ambient simulation (issue #28): expected values come from Istio's and
// ztunnel's sources, not from running our code.
//  - ztunnel src/rbac.rs Authorization::matches: ip fields are ipnet::IpNet and matched with
//    `IpNet::contains`, so a /0 prefix holds every address of its family; istiod's stringToIP
//    (pilot/pkg/serviceregistry/ambient/authorization.go) keeps `0.0.0.0/0` as Length 0.
//    IpNet::contains is false when the families differ, and an IPv6 prefix masks 128 bits.
//  - Envoy's CidrRange::isInRange (source/common/network/cidr_range.cc): a range of length 0
//    holds every address (`ipBlocks` / `remoteIpBlocks` at a sidecar).
//  - istiod convertAuthorizationPolicy (authorization.go): an `istio.io/dry-run` policy is not
//    sent to ztunnel unless AMBIENT_ENABLE_DRY_RUN_AUTHORIZATION_POLICY (default false,
//    pilot/pkg/features/ambient.go); strconv.ParseBool decides the value. ztunnel src/state.rs
//    assert_rbac partitions policies on `dry_run` and only logs the dry-run ones.
//  - pilot/pkg/networking/core/filterchain_options.go getFilterChainMatchOptions: a STRICT port
//    gets only TLS filter chains (inboundStrict*FilterChainMatchOptions), so plaintext to a
//    STRICT sidecar matches no chain and is refused.
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { traceRequest } from '../../src/core/ambient/trace.ts';
import { cidrContains, convertAuthorizationPolicy, evaluateL4, type ZtunnelAuthorization } from '../../src/core/ambient/authz.ts';
import { makeResource } from '../../src/core/document/resources.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (namespace: string, name: string, ip: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...labels } },
  spec: { nodeName: 'n1', serviceAccountName: name, containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const svc = (namespace: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector: { app: name }, ports: [{ name: 'tcp', port: 80, targetPort: 8080 }] },
});
const authz = (name: string, namespace: string, spec: object, annotations: Record<string, string> = {}) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace, annotations },
  spec,
});
const peerAuthn = (name: string, namespace: string, mode: string, selector?: Record<string, string>) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'PeerAuthentication',
  metadata: { name, namespace },
  spec: { ...(selector ? { selector: { matchLabels: selector } } : {}), mtls: { mode } },
});

function trace(objects: object[], from: string, to: string) {
  const text = objects.map((o) => JSON.stringify(o)).join('\n---\n');
  const { view, problems } = loadMesh([{ path: 'm.yaml', text }]);
  expect(problems).toEqual([]);
  return traceRequest(view, buildAmbientModel(view, {}), { from, to, request: 'TCP' });
}

/** An ambient namespace `a`: client 10.0.0.1 and server 10.0.0.2 behind Service server:80 → 8080. */
const AMBIENT = [ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'client', '10.0.0.1'), pod('a', 'server', '10.0.0.2'), svc('a', 'server')];
const TO_SERVER = 'server.a.svc.cluster.local:80';
const onServer = { selector: { matchLabels: { app: 'server' } } };

describe('CIDR /0 (ztunnel rbac.rs IpNet::contains; istiod stringToIP keeps the prefix length)', () => {
  it('a DENY on ipBlocks 0.0.0.0/0 denies every IPv4 source at ztunnel', () => {
    const r = trace(
      [...AMBIENT, authz('deny-all-v4', 'a', { ...onServer, action: 'DENY', rules: [{ from: [{ source: { ipBlocks: ['0.0.0.0/0'] } }] }] })],
      'a/client',
      TO_SERVER,
    );
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.policy).toBe('a/deny-all-v4');
  });

  it('an ALLOW on notIpBlocks 0.0.0.0/0 matches no IPv4 source, so ztunnel denies (NotAllowed)', () => {
    const r = trace(
      [...AMBIENT, authz('allow-none', 'a', { ...onServer, action: 'ALLOW', rules: [{ from: [{ source: { notIpBlocks: ['0.0.0.0/0'] } }] }] })],
      'a/client',
      TO_SERVER,
    );
    expect(r.result).toBe('DENY');
    expect(r.enforcement.at(-1)?.why).toContain('none matches');
  });

  it('an ALLOW on ipBlocks 0.0.0.0/0 admits a source far from 0.0.0.0, and a when destination.ip 0.0.0.0/0 matches any destination', () => {
    const objs = [
      ...AMBIENT,
      pod('a', 'far', '203.0.113.9'),
      authz('allow-any', 'a', { ...onServer, action: 'ALLOW', rules: [{ from: [{ source: { ipBlocks: ['0.0.0.0/0'] } }] }] }),
    ];
    expect(trace(objs, 'a/far', TO_SERVER).result).toBe('ALLOW');
    const dst = [...AMBIENT, authz('deny-dst', 'a', { ...onServer, action: 'DENY', rules: [{ when: [{ key: 'destination.ip', values: ['0.0.0.0/0'] }] }] })];
    expect(trace(dst, 'a/client', TO_SERVER).result).toBe('DENY');
  });

  it('cidrContains: /0 holds everything, /32 exactly one address, /31 its pair (IpNet::contains)', () => {
    for (const ip of ['0.0.0.0', '10.0.0.2', '128.0.0.1', '255.255.255.255']) expect(cidrContains('0.0.0.0/0', ip)).toBe(true);
    // The network address of a /0 is irrelevant: IpNet::new keeps 10.1.2.3/0, and contains() masks it.
    expect(cidrContains('10.1.2.3/0', '192.168.1.1')).toBe(true);
    expect(cidrContains('10.0.0.2/32', '10.0.0.2')).toBe(true);
    expect(cidrContains('10.0.0.2/32', '10.0.0.3')).toBe(false);
    expect(cidrContains('10.0.0.2/31', '10.0.0.3')).toBe(true);
    expect(cidrContains('10.0.0.2/31', '10.0.0.4')).toBe(false);
    expect(cidrContains('128.0.0.0/1', '127.255.255.255')).toBe(false);
    expect(cidrContains('128.0.0.0/1', '128.0.0.0')).toBe(true);
  });
});

describe('IPv6 CIDRs (ztunnel rbac.rs: IpNet is Ipv4Net | Ipv6Net; IpNet::contains is false across families)', () => {
  it('::/0 holds every IPv6 address and no IPv4 one; 0.0.0.0/0 holds no IPv6 address', () => {
    for (const ip of ['::', '::1', 'fd00::2', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']) expect(cidrContains('::/0', ip)).toBe(true);
    expect(cidrContains('::/0', '10.0.0.1')).toBe(false);
    expect(cidrContains('0.0.0.0/0', 'fd00::2')).toBe(false);
  });

  it('masks IPv6 prefixes bit by bit, and a bare IPv6 address is a /128', () => {
    expect(cidrContains('fd00::/64', 'fd00::ffff:1')).toBe(true);
    expect(cidrContains('fd00::/64', 'fd00:0:0:1::1')).toBe(false);
    expect(cidrContains('2001:db8::/33', '2001:db8:7fff::1')).toBe(true);
    expect(cidrContains('2001:db8::/33', '2001:db8:8000::1')).toBe(false);
    expect(cidrContains('2001:db8::1', '2001:db8::1')).toBe(true);
    expect(cidrContains('2001:db8::1', '2001:db8::2')).toBe(false);
    expect(cidrContains('2001:DB8:0:0:0:0:0:1/128', '2001:db8::1')).toBe(true);
    expect(cidrContains('::ffff:10.0.0.0/120', '::ffff:10.0.0.7')).toBe(true);
  });

  it('a DENY on ipBlocks ::/0 denies an IPv6 client at ztunnel, and does not touch an IPv4 one', () => {
    const deny = authz('deny-all-v6', 'a', { ...onServer, action: 'DENY', rules: [{ from: [{ source: { ipBlocks: ['::/0'] } }] }] });
    const v6 = [ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'client', 'fd00::1'), pod('a', 'server', 'fd00::2'), deny];
    const r = trace(v6, 'a/client', '[fd00::2]:8080');
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.policy).toBe('a/deny-all-v6');
    expect(trace([...AMBIENT, deny], 'a/client', TO_SERVER).result).toBe('ALLOW');
  });
});

describe('CIDR /0 at a sidecar (Envoy CidrRange::isInRange: length 0 holds every address)', () => {
  // Sidecar server in `s`; an uncaptured client in `plain`. Envoy's RBAC source_ip/remote_ip
  // principals (istio pilot/pkg/security/authz/model/generator.go srcIPGenerator/remoteIPGenerator).
  const SIDECAR = [
    ns('s'),
    ns('plain'),
    pod('s', 'server', '10.0.1.2', { 'sidecar.istio.io/inject': 'true' }),
    svc('s', 'server'),
    pod('plain', 'client', '10.0.2.1'),
  ];
  for (const field of ['ipBlocks', 'remoteIpBlocks']) {
    it(`a DENY on ${field} 0.0.0.0/0 denies any source`, () => {
      const r = trace(
        [...SIDECAR, authz('deny', 's', { ...onServer, action: 'DENY', rules: [{ from: [{ source: { [field]: ['0.0.0.0/0'] } }] }] })],
        'plain/client',
        'server.s.svc.cluster.local:80',
      );
      expect(r.result).toBe('DENY');
      expect(r.deniedAt?.policy).toBe('s/deny');
    });
  }
});

describe('IPv6 at a sidecar (Envoy CidrRange; istio util.AddrStrToCidrRange makes a bare address a /128)', () => {
  const V6 = [
    ns('s'),
    ns('plain'),
    pod('s', 'server', 'fd00:1::2', { 'sidecar.istio.io/inject': 'true' }),
    svc('s', 'server'),
    pod('plain', 'near', 'fd00:1::1'),
    pod('plain', 'mid', 'fd00:1::9'),
    pod('plain', 'far', 'fd00:2::1'),
  ];
  it('a bare IPv6 ipBlocks entry matches only that address; a /32 matches its prefix; ::/0 everything', () => {
    const deny = (blocks: string[]) => authz('deny', 's', { ...onServer, action: 'DENY', rules: [{ from: [{ source: { ipBlocks: blocks } }] }] });
    expect(trace([...V6, deny(['fd00:1::1'])], 'plain/near', '[fd00:1::2]:8080').result).toBe('DENY');
    expect(trace([...V6, deny(['fd00:1::1'])], 'plain/mid', '[fd00:1::2]:8080').result).toBe('ALLOW');
    expect(trace([...V6, deny(['fd00:1::/32'])], 'plain/mid', '[fd00:1::2]:8080').result).toBe('DENY');
    expect(trace([...V6, deny(['fd00:1::/32'])], 'plain/far', '[fd00:1::2]:8080').result).toBe('ALLOW');
    expect(trace([...V6, deny(['fd00::/16'])], 'plain/far', '[fd00:1::2]:8080').result).toBe('DENY');
    expect(trace([...V6, deny(['::/0'])], 'plain/far', '[fd00:1::2]:8080').result).toBe('DENY');
  });
});

describe('dry-run AuthorizationPolicies (istiod convertAuthorizationPolicy; ztunnel state.rs assert_rbac)', () => {
  const denyAll = (annotations: Record<string, string>) =>
    authz('deny-all', 'a', { ...onServer, action: 'DENY', rules: [{ from: [{ source: { ipBlocks: ['0.0.0.0/0'] } }] }] }, annotations);

  it('a dry-run DENY that matches does not deny at ztunnel; the same policy enforced does', () => {
    expect(trace([...AMBIENT, denyAll({ 'istio.io/dry-run': 'true' })], 'a/client', TO_SERVER).result).toBe('ALLOW');
    expect(trace([...AMBIENT, denyAll({})], 'a/client', TO_SERVER).result).toBe('DENY');
  });

  it('a dry-run ALLOW that matches nothing does not turn on default deny', () => {
    const allowNobody = (annotations: Record<string, string>) =>
      authz('allow-nobody', 'a', { ...onServer, action: 'ALLOW', rules: [{ from: [{ source: { namespaces: ['nowhere'] } }] }] }, annotations);
    expect(trace([...AMBIENT, allowNobody({ 'istio.io/dry-run': 'true' })], 'a/client', TO_SERVER).result).toBe('ALLOW');
    expect(trace([...AMBIENT, allowNobody({})], 'a/client', TO_SERVER).result).toBe('DENY');
  });

  it('reads the annotation with strconv.ParseBool: 1, t, T, TRUE, true, True are dry-run; anything else is enforced', () => {
    const res = (v: string) => makeResource(denyAll({ 'istio.io/dry-run': v }) as unknown as Record<string, unknown>, undefined);
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
      const c = convertAuthorizationPolicy(res(v), 'istio-system');
      expect(c.authorization).toBeUndefined();
      expect(c.condition).toEqual({
        type: 'ZtunnelAccepted',
        status: 'False',
        reason: 'UnsupportedValue',
        message: 'found policy "a/deny-all" using dry-run annotation, but support for ambient dry-run authorizationPolicies isn\'t enabled',
      });
    }
    // ParseBool fails on these (or returns false): dryRun stays false and the policy is sent.
    for (const v of ['yes', 'on', 'tRUE', '0', 'false', 'F']) {
      const c = convertAuthorizationPolicy(res(v), 'istio-system');
      expect(c.authorization?.dryRun).toBe(false);
      expect(c.authorization?.action).toBe('Deny');
    }
  });

  it('ztunnel (when istiod sends dry-run policies) never enforces them: a matching dry-run DENY allows, a dry-run-only ALLOW set allows', () => {
    const conn = { srcIp: '10.0.0.1', dstIp: '10.0.0.2', dstPort: 8080, srcIdentity: 'spiffe://cluster.local/ns/a/sa/client' };
    const pol = (action: 'Allow' | 'Deny', dryRun: boolean, ns: string): ZtunnelAuthorization => ({
      name: `${action}-${dryRun}`,
      namespace: 'a',
      scope: 'WorkloadSelector',
      action,
      dryRun,
      rules: [[[{ namespaces: [{ type: 'exact', value: ns }] }]]],
    });
    expect(evaluateL4([pol('Deny', true, 'a')], conn).decision).toBe('ALLOW');
    expect(evaluateL4([pol('Deny', false, 'a')], conn).decision).toBe('DENY');
    // Only dry-run ALLOWs: `allow.is_empty()` → allow, even though none matches.
    expect(evaluateL4([pol('Allow', true, 'other')], conn)).toMatchObject({ decision: 'ALLOW', code: 'NoAllowPolicies' });
    // A dry-run ALLOW that matches does not rescue a connection an enforced ALLOW rejects.
    expect(evaluateL4([pol('Allow', true, 'a'), pol('Allow', false, 'other')], conn)).toMatchObject({ decision: 'DENY', code: 'NotAllowed' });
  });
});

describe('STRICT PeerAuthentication at a sidecar (filterchain_options.go: STRICT has only TLS filter chains)', () => {
  const MESH = [
    ns('istio-system'),
    ns('s'),
    ns('plain'),
    pod('s', 'server', '10.0.1.2', { 'sidecar.istio.io/inject': 'true' }),
    svc('s', 'server'),
    pod('plain', 'client', '10.0.2.1'),
  ];
  const TO = 'server.s.svc.cluster.local:80';

  it('refuses a plaintext client when the namespace is STRICT', () => {
    const r = trace([...MESH, peerAuthn('default', 's', 'STRICT')], 'plain/client', TO);
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.point).toBe('sidecar s/server');
    expect(r.deniedAt?.policy).toBe('s/default');
  });

  it('refuses a plaintext client when the mesh (root namespace) is STRICT and nothing overrides it', () => {
    expect(trace([...MESH, peerAuthn('default', 'istio-system', 'STRICT')], 'plain/client', TO).result).toBe('DENY');
  });

  it('refuses it when a workload policy makes the server STRICT inside a PERMISSIVE namespace', () => {
    expect(trace([...MESH, peerAuthn('default', 's', 'PERMISSIVE'), peerAuthn('server', 's', 'STRICT', { app: 'server' })], 'plain/client', TO).result).toBe(
      'DENY',
    );
  });

  it('accepts plaintext under PERMISSIVE, DISABLE, or a workload PERMISSIVE that overrides a STRICT namespace', () => {
    expect(trace([...MESH, peerAuthn('default', 's', 'PERMISSIVE')], 'plain/client', TO).result).toBe('ALLOW');
    expect(trace([...MESH, peerAuthn('default', 's', 'DISABLE')], 'plain/client', TO).result).toBe('ALLOW');
    expect(trace([...MESH, peerAuthn('default', 's', 'STRICT'), peerAuthn('server', 's', 'PERMISSIVE', { app: 'server' })], 'plain/client', TO).result).toBe(
      'ALLOW',
    );
  });
});
