// Envoy RBAC as a waypoint or sidecar enforces AuthorizationPolicies (src/core/ambient/envoyAuthz.ts).
// Expected values come from Istio's documented semantics and its RBAC generator, not from our output:
//  - https://istio.io/latest/docs/reference/config/security/authorization-policy/ : CUSTOM, then DENY,
//    then ALLOW; "If there are any ALLOW policies ... and none match, deny"; a rule matches when from,
//    to and when all match; `*` matches any non-empty value, `abc*` prefix, `*abc` suffix; serviceAccounts
//    `ns/sa` or a bare `sa` in the policy's namespace; hosts are case-insensitive.
//  - pilot/pkg/security/authz/builder/builder.go (build for TCP): an ALLOW policy's rules with HTTP-only
//    fields are skipped on a TCP filter chain ("ignored on TCP"), a DENY policy's HTTP fields are removed
//    so the rule is broader (generator.go `forTCP`).
//  - pilot/pkg/security/authz/model/generator.go: srcIPGenerator/remoteIPGenerator (CIDR ranges),
//    destPortGenerator (exact port), requestHeaderGenerator (header names case-insensitive, HTTP only),
//    principal/namespace from the peer certificate's SPIFFE URI.
//  - istio.io/dry-run annotation: the policy is evaluated in shadow mode and never enforces.
import { describe, expect, it } from 'vitest';
import { evaluateEnvoy, type EnvoyRequest } from '../../src/core/ambient/envoyAuthz.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import type { Resource } from '../../src/core/document/types.ts';

const ap = (name: string, spec: object, opts: { ns?: string; annotations?: Record<string, string> } = {}): Resource =>
  makeResource(
    {
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name, namespace: opts.ns ?? 'shop', annotations: opts.annotations ?? {} },
      spec,
    },
    undefined,
  );

const ID = 'spiffe://cluster.local/ns/front/sa/web';
const http = (o: Partial<EnvoyRequest> = {}): EnvoyRequest => ({
  http: true,
  method: 'GET',
  path: '/api/items',
  host: 'cart.shop.svc.cluster.local:8080',
  headers: { 'X-Team': 'blue' },
  sourceIdentity: ID,
  sourceIp: '10.0.0.5',
  destinationIp: '10.0.1.7',
  destinationPort: 8080,
  ...o,
});
const tcp = (o: Partial<EnvoyRequest> = {}): EnvoyRequest => ({
  http: false,
  sourceIdentity: ID,
  sourceIp: '10.0.0.5',
  destinationIp: '10.0.1.7',
  destinationPort: 8080,
  ...o,
});

const allowIf = (rule: object) => ap('allow', { action: 'ALLOW', rules: [rule] });
const denyIf = (rule: object) => ap('deny', { action: 'DENY', rules: [rule] });
const allowed = (rule: object, r: EnvoyRequest) => evaluateEnvoy([allowIf(rule)], r).decision;

describe('evaluation order (Istio AuthorizationPolicy: CUSTOM, DENY, ALLOW; default allow without ALLOW policies)', () => {
  it('no policy attached: ALLOW with no deciding policy', () => {
    const d = evaluateEnvoy([], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.policy).toBeUndefined();
    expect(d.evaluated).toEqual([]);
  });

  it('a matching DENY wins over a matching ALLOW and names the DENY policy', () => {
    const d = evaluateEnvoy([ap('allow-all', { rules: [{}] }), ap('deny-all', { action: 'DENY', rules: [{}] })], http());
    expect(d.decision).toBe('DENY');
    expect(d.policy).toBe('shop/deny-all');
  });

  it('a DENY that does not match leaves the request allowed when no ALLOW applies', () => {
    const d = evaluateEnvoy([denyIf({ from: [{ source: { namespaces: ['other'] } }] })], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.policy).toBeUndefined();
    expect(d.evaluated).toEqual([{ key: 'shop/deny', resourceKey: expect.any(String), action: 'DENY', matched: false, why: expect.any(String) }]);
  });

  it('ALLOW policies present: the first matching one allows; none matching denies (a single ALLOW is named)', () => {
    const a = ap('a', { rules: [{ from: [{ source: { namespaces: ['nope'] } }] }] });
    const b = ap('b', { rules: [{ from: [{ source: { namespaces: ['front'] } }] }] });
    expect(evaluateEnvoy([a, b], http())).toMatchObject({ decision: 'ALLOW', policy: 'shop/b' });
    expect(evaluateEnvoy([a], http())).toMatchObject({ decision: 'DENY', policy: 'shop/a' });
    const two = evaluateEnvoy([a, ap('c', { rules: [{ from: [{ source: { namespaces: ['x'] } }] }] })], http());
    expect(two.decision).toBe('DENY');
    expect(two.policy).toBeUndefined();
  });

  it('the action defaults to ALLOW, and a policy without rules matches nothing (an ALLOW-nothing denies all)', () => {
    const d = evaluateEnvoy([ap('allow-nothing', {})], http());
    expect(d.decision).toBe('DENY');
    expect(d.evaluated[0]).toMatchObject({ action: 'ALLOW', matched: false });
    // A DENY without rules never matches either.
    expect(evaluateEnvoy([ap('deny-nothing', { action: 'DENY' })], http()).decision).toBe('ALLOW');
  });

  it('an empty rule matches every request (rules: [{}])', () => {
    expect(evaluateEnvoy([ap('allow-all', { rules: [{}] })], tcp({ sourceIdentity: null }))).toMatchObject({ decision: 'ALLOW', policy: 'shop/allow-all' });
  });

  it('CUSTOM policies are listed, do not decide, and a matching one is noted with its provider', () => {
    const custom = ap('ext', { action: 'CUSTOM', provider: { name: 'my-authz' }, rules: [{}] });
    const d = evaluateEnvoy([custom], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.evaluated[0]).toMatchObject({ key: 'shop/ext', action: 'CUSTOM', matched: true });
    expect(d.notes).toHaveLength(1);
    expect(d.notes[0]).toContain('shop/ext');
    expect(d.notes[0]).toContain('my-authz');
    const idle = ap('ext2', { action: 'CUSTOM', provider: { name: 'p' }, rules: [{ to: [{ operation: { paths: ['/admin'] } }] }] });
    expect(evaluateEnvoy([idle], http()).notes).toEqual([]);
    // CUSTOM is not an ALLOW: it does not turn on default deny.
    expect(evaluateEnvoy([idle, ap('deny-x', { action: 'DENY', rules: [{ to: [{ operation: { paths: ['/x'] } }] }] })], http()).decision).toBe('ALLOW');
  });

  it('a CUSTOM policy without a provider is still only noted', () => {
    const d = evaluateEnvoy([ap('ext', { action: 'CUSTOM', rules: [{}] })], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.notes).toHaveLength(1);
  });

  it('AUDIT policies neither allow nor deny', () => {
    expect(evaluateEnvoy([ap('audit', { action: 'AUDIT', rules: [{}] })], http()).decision).toBe('ALLOW');
  });
});

describe('dry-run (istio.io/dry-run: shadow policies never enforce; the value is parsed as a Go bool)', () => {
  it('a dry-run DENY that matches does not deny, but is evaluated', () => {
    const d = evaluateEnvoy([ap('deny-all', { action: 'DENY', rules: [{}] }, { annotations: { 'istio.io/dry-run': 'true' } })], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.evaluated[0]?.matched).toBe(true);
    expect(d.evaluated[0]?.why).toContain('dry-run');
  });

  it('a dry-run ALLOW that matches nothing does not turn on default deny; a real one does', () => {
    const rule = { from: [{ source: { namespaces: ['nope'] } }] };
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
      expect(evaluateEnvoy([ap('a', { rules: [rule] }, { annotations: { 'istio.io/dry-run': v } })], http()).decision).toBe('ALLOW');
    }
    for (const v of ['false', 'yes', '']) {
      expect(evaluateEnvoy([ap('a', { rules: [rule] }, { annotations: { 'istio.io/dry-run': v } })], http()).decision).toBe('DENY');
    }
  });
});

describe('source fields (generator.go principal/namespace/serviceAccount/srcIP/remoteIP generators)', () => {
  it('principals compare the SPIFFE URI without spiffe://, with *, prefix and suffix forms', () => {
    expect(allowed({ from: [{ source: { principals: ['cluster.local/ns/front/sa/web'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { principals: ['spiffe://cluster.local/ns/front/sa/web'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { principals: ['*'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { principals: ['*'] } }] }, http({ sourceIdentity: null }))).toBe('DENY');
    expect(allowed({ from: [{ source: { principals: ['cluster.local/ns/front/*'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { principals: ['cluster.local/ns/back/*'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { principals: ['*/sa/web'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { principals: ['*/sa/api'] } }] }, http())).toBe('DENY');
    // A principal without the spiffe:// scheme is not a SPIFFE identity: no principal.
    expect(allowed({ from: [{ source: { principals: ['*'] } }] }, http({ sourceIdentity: 'cluster.local/ns/front/sa/web' }))).toBe('DENY');
  });

  it('notPrincipals: ["*"] matches only a peer without identity (plaintext)', () => {
    const d = (id: string | null) => evaluateEnvoy([denyIf({ from: [{ source: { notPrincipals: ['*'] } }] })], tcp({ sourceIdentity: id })).decision;
    expect(d(null)).toBe('DENY');
    expect(d(ID)).toBe('ALLOW');
  });

  it('a not* field excludes when ANY of its values matches', () => {
    expect(allowed({ from: [{ source: { notNamespaces: ['other', 'front'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notPorts: ['1', '8080'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notPorts: ['1', '2'] } }] }, http())).toBe('ALLOW');
  });

  it('namespaces come from the /ns/<ns>/sa/ segment of the identity', () => {
    expect(allowed({ from: [{ source: { namespaces: ['front'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { namespaces: ['fr*'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { namespaces: ['*nt'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { namespaces: ['back'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { namespaces: ['*'] } }] }, http({ sourceIdentity: null }))).toBe('DENY');
    expect(allowed({ from: [{ source: { notNamespaces: ['front'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { notNamespaces: ['back'] } }] }, http())).toBe('ALLOW');
  });

  it('serviceAccounts: ns/sa, or a bare name in the policy namespace; a plaintext peer has none', () => {
    expect(allowed({ from: [{ source: { serviceAccounts: ['front/web'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { serviceAccounts: ['front/api'] } }] }, http())).toBe('DENY');
    // Bare `web` means shop/web (the policy's namespace), not front/web.
    expect(allowed({ from: [{ source: { serviceAccounts: ['web'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { serviceAccounts: ['web'] } }] }, http({ sourceIdentity: 'spiffe://cluster.local/ns/shop/sa/web' }))).toBe('ALLOW');
    expect(allowed({ from: [{ source: { serviceAccounts: ['front/web'] } }] }, http({ sourceIdentity: null }))).toBe('DENY');
    expect(allowed({ from: [{ source: { notServiceAccounts: ['front/web'] } }] }, http())).toBe('DENY');
  });

  it('ipBlocks and remoteIpBlocks are CIDR ranges over the source address; notIpBlocks excludes', () => {
    expect(allowed({ from: [{ source: { ipBlocks: ['10.0.0.0/24'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { ipBlocks: ['10.0.1.0/24'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { ipBlocks: ['10.0.0.5'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { notIpBlocks: ['10.0.0.0/24'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { remoteIpBlocks: ['10.0.0.0/16'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { remoteIpBlocks: ['192.168.0.0/16'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { notRemoteIpBlocks: ['10.0.0.0/16'] } }] }, http())).toBe('DENY');
  });

  it('requestPrincipals need a JWT (none in a simulated request): positive never matches, notRequestPrincipals ["*"] does', () => {
    expect(allowed({ from: [{ source: { requestPrincipals: ['*'] } }] }, http())).toBe('DENY');
    expect(allowed({ from: [{ source: { notRequestPrincipals: ['*'] } }] }, http())).toBe('ALLOW');
  });

  it('several sources are OR-ed; fields within one source are AND-ed', () => {
    expect(allowed({ from: [{ source: { namespaces: ['x'] } }, { source: { principals: ['cluster.local/ns/front/sa/web'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{ source: { namespaces: ['front'], ipBlocks: ['192.168.0.0/16'] } }] }, http())).toBe('DENY');
  });
});

describe('operation fields (generator.go host/method/path/port generators; hosts are case-insensitive)', () => {
  it('ports and notPorts compare the destination port', () => {
    expect(allowed({ to: [{ operation: { ports: ['8080'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { ports: ['9090'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notPorts: ['8080'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { ports: ['8080'] } }] }, tcp())).toBe('ALLOW');
  });

  it('methods and paths use exact, prefix and suffix forms', () => {
    expect(allowed({ to: [{ operation: { methods: ['GET'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { methods: ['POST'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notMethods: ['GET'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { paths: ['/api/*'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { paths: ['*/items'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { paths: ['/api'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { paths: ['/admin*'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notPaths: ['/api/*'] } }] }, http())).toBe('DENY');
  });

  it('hosts match case-insensitively, with or without the port', () => {
    expect(allowed({ to: [{ operation: { hosts: ['cart.shop.svc.cluster.local'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { hosts: ['CART.shop.svc.cluster.local'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { hosts: ['cart.shop.svc.cluster.local:8080'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { hosts: ['*.shop.svc.cluster.local'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { hosts: ['cart.other.svc.cluster.local'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { notHosts: ['cart.shop.svc.cluster.local'] } }] }, http())).toBe('DENY');
    expect(allowed({ to: [{ operation: { hosts: ['cart'] } }] }, http({ host: 'cart' }))).toBe('ALLOW');
    expect(allowed({ to: [{ operation: { hosts: ['cart'] } }] }, http({ host: undefined }))).toBe('DENY');
  });

  it('a request without method or path matches no positive method/path value', () => {
    expect(allowed({ to: [{ operation: { methods: ['*'] } }] }, http({ method: undefined }))).toBe('DENY');
    expect(allowed({ to: [{ operation: { paths: ['*'] } }] }, http({ path: undefined }))).toBe('DENY');
  });

  it('operations are OR-ed; an operation-less `to` entry matches', () => {
    expect(allowed({ to: [{ operation: { methods: ['POST'] } }, { operation: { ports: ['8080'] } }] }, http())).toBe('ALLOW');
    expect(allowed({ to: [{}] }, http())).toBe('ALLOW');
    expect(allowed({ from: [{}] }, http())).toBe('ALLOW');
  });
});

describe('conditions (generator.go: request.headers HTTP only; source.ip, remote.ip, destination.ip/port, source.namespace/principal)', () => {
  it('request.headers[...] names are case-insensitive and need HTTP', () => {
    expect(allowed({ when: [{ key: 'request.headers[x-team]', values: ['blue'] }] }, http())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'request.headers[X-TEAM]', values: ['bl*'] }] }, http())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'request.headers[x-team]', values: ['red'] }] }, http())).toBe('DENY');
    expect(allowed({ when: [{ key: 'request.headers[x-team]', notValues: ['blue'] }] }, http())).toBe('DENY');
    expect(allowed({ when: [{ key: 'request.headers[x-missing]', values: ['*'] }] }, http())).toBe('DENY');
    expect(allowed({ when: [{ key: 'request.headers[x-team]', values: ['blue'] }] }, http({ headers: undefined }))).toBe('DENY');
  });

  it('source.ip and remote.ip are CIDRs of the source; destination.ip of the destination', () => {
    expect(allowed({ when: [{ key: 'source.ip', values: ['10.0.0.0/24'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'source.ip', values: ['10.9.0.0/24'] }] }, tcp())).toBe('DENY');
    expect(allowed({ when: [{ key: 'remote.ip', values: ['10.0.0.5'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'source.ip', notValues: ['10.0.0.5'] }] }, tcp())).toBe('DENY');
    expect(allowed({ when: [{ key: 'destination.ip', values: ['10.0.1.0/24'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'destination.ip', values: ['10.0.0.0/24'] }] }, tcp())).toBe('DENY');
  });

  it('destination.port, source.namespace and source.principal', () => {
    expect(allowed({ when: [{ key: 'destination.port', values: ['8080'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'destination.port', values: ['80'] }] }, tcp())).toBe('DENY');
    expect(allowed({ when: [{ key: 'destination.port', notValues: ['8080'] }] }, tcp())).toBe('DENY');
    expect(allowed({ when: [{ key: 'source.namespace', values: ['front'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'source.namespace', values: ['back'] }] }, tcp())).toBe('DENY');
    expect(allowed({ when: [{ key: 'source.principal', values: ['cluster.local/ns/front/sa/web'] }] }, tcp())).toBe('ALLOW');
    expect(allowed({ when: [{ key: 'source.principal', values: ['cluster.local/ns/front/sa/api'] }] }, tcp())).toBe('DENY');
  });

  it('request.auth.* needs a JWT: a value never matches on HTTP; only notValues can', () => {
    expect(allowed({ when: [{ key: 'request.auth.claims[iss]', values: ['x'] }] }, http())).toBe('DENY');
    expect(allowed({ when: [{ key: 'request.auth.claims[iss]', notValues: ['x'] }] }, http())).toBe('ALLOW');
  });

  it('every condition must hold (AND)', () => {
    expect(
      allowed(
        {
          when: [
            { key: 'source.namespace', values: ['front'] },
            { key: 'destination.port', values: ['80'] },
          ],
        },
        tcp(),
      ),
    ).toBe('DENY');
  });
});

describe('TCP filter chains (builder.go: ALLOW rules with HTTP fields are ignored; DENY rules lose their HTTP fields)', () => {
  it('an ALLOW rule with a method, host, path, requestPrincipal or request.* condition never matches on TCP', () => {
    for (const rule of [
      { to: [{ operation: { methods: ['GET'] } }] },
      { to: [{ operation: { paths: ['/'] } }] },
      { to: [{ operation: { hosts: ['cart'] } }] },
      { to: [{ operation: { notMethods: ['POST'] } }] },
      { from: [{ source: { requestPrincipals: ['*'] } }] },
      { from: [{ source: { notRequestPrincipals: ['*'] } }] },
      { when: [{ key: 'request.headers[x-team]', values: ['blue'] }] },
      { when: [{ key: 'request.auth.claims[iss]', notValues: ['x'] }] },
    ]) {
      const d = evaluateEnvoy([allowIf(rule)], tcp());
      expect(d.decision).toBe('DENY');
      expect(d.evaluated[0]?.matched).toBe(false);
    }
    // The same rule on HTTP is evaluated normally.
    expect(allowed({ to: [{ operation: { methods: ['GET'] } }] }, http())).toBe('ALLOW');
  });

  it('a DENY rule with HTTP fields is applied on TCP without them (broader)', () => {
    const deny = (rule: object) => evaluateEnvoy([denyIf(rule)], tcp()).decision;
    expect(deny({ to: [{ operation: { methods: ['POST'], ports: ['8080'] } }] })).toBe('DENY');
    expect(deny({ to: [{ operation: { methods: ['POST'], ports: ['9090'] } }] })).toBe('ALLOW');
    expect(deny({ from: [{ source: { namespaces: ['front'], requestPrincipals: ['*'] } }] })).toBe('DENY');
    expect(deny({ when: [{ key: 'request.headers[x-team]', values: ['red'] }] })).toBe('DENY');
    expect(
      deny({
        when: [
          { key: 'request.headers[x-team]', values: ['red'] },
          { key: 'destination.port', values: ['9090'] },
        ],
      }),
    ).toBe('ALLOW');
    // On HTTP the same DENY keeps its HTTP fields and does not match a GET.
    expect(evaluateEnvoy([denyIf({ to: [{ operation: { methods: ['POST'], ports: ['8080'] } }] })], http()).decision).toBe('ALLOW');
  });
});

describe('several rules (a policy matches when any rule does)', () => {
  it('the second rule can match after the first fails', () => {
    const p = ap('two', { rules: [{ from: [{ source: { namespaces: ['x'] } }] }, { to: [{ operation: { ports: ['8080'] } }] }] });
    expect(evaluateEnvoy([p], tcp())).toMatchObject({ decision: 'ALLOW', policy: 'shop/two' });
    const q = ap('none', { rules: [{ from: [{ source: { namespaces: ['x'] } }] }, { to: [{ operation: { ports: ['1'] } }] }] });
    const d = evaluateEnvoy([q], tcp());
    expect(d.decision).toBe('DENY');
    expect(d.evaluated[0]?.matched).toBe(false);
  });
});
