// Surviving mutants of src/core/ambient/envoyAuthz.ts (Envoy RBAC as a waypoint or sidecar enforces
// AuthorizationPolicies). Expected values from Envoy's RBAC filter and Istio's generator:
//  - Envoy route header matching for :authority (Istio's hosts): case-insensitive; methods (`:method`
//    exact) and paths (url_path, exact/prefix/suffix) are case-sensitive (pilot/pkg/security/authz/model
//    generator.go hostGenerator sets IgnoreCase, methodGenerator and pathGenerator do not).
//  - Istio strips a `:port` suffix from the Host header only when it is a port (numbers after the last
//    colon, not at the start): hostGenerator matches both `host` and `host:*`.
//  - `when` keys: `request.headers[<name>]` (the whole key) is an HTTP header; other `request.*` keys
//    are HTTP-only (removed from DENY rules on a TCP chain, ALLOW rules with them skipped); any other key
//    without a simulated value matches only when it lists no values.
//  - builder.go: a TCP chain keeps ALLOW rules whose from/to have only L4 fields.
//  - The explanations (`why`, notes) are what the view and the CLI print for each policy.
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
  host: 'cart.shop',
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
const allow = (rules: object[], name = 'allow') => ap(name, { action: 'ALLOW', rules });
const deny = (rules: object[], name = 'deny') => ap(name, { action: 'DENY', rules });
const decide = (p: Resource, r: EnvoyRequest) => evaluateEnvoy([p], r);
const whyOf = (p: Resource, r: EnvoyRequest) => decide(p, r).evaluated[0]?.why;

describe('case sensitivity: methods and paths exact, hosts case-insensitive', () => {
  it('a lower-case method or path does not match an upper-case pattern', () => {
    expect(decide(allow([{ to: [{ operation: { methods: ['GET'] } }] }]), http({ method: 'get' })).decision).toBe('DENY');
    expect(decide(allow([{ to: [{ operation: { paths: ['/API/items'] } }] }]), http()).decision).toBe('DENY');
    expect(decide(allow([{ from: [{ source: { principals: ['CLUSTER.local/ns/front/sa/web'] } }] }]), http()).decision).toBe('DENY');
    expect(decide(allow([{ to: [{ operation: { hosts: ['CART.SHOP'] } }] }]), http()).decision).toBe('ALLOW');
  });
});

describe('host without port (hostWithoutPort)', () => {
  const hostRule = (h: string) => allow([{ to: [{ operation: { hosts: [h] } }] }]);
  it('a host without a colon is compared whole (no character is cut)', () => {
    expect(decide(hostRule('cart.sho'), http({ host: 'cart.shop' })).decision).toBe('DENY');
  });
  it('only a numeric port is stripped', () => {
    expect(decide(hostRule('cart'), http({ host: 'cart:8080' })).decision).toBe('ALLOW');
    expect(decide(hostRule('a'), http({ host: 'a:b' })).decision).toBe('DENY');
    expect(decide(hostRule('a'), http({ host: 'a:x8080' })).decision).toBe('DENY');
    expect(decide(hostRule('a'), http({ host: 'a:8080x' })).decision).toBe('DENY');
  });
  it('a colon at the start is not a port separator', () => {
    expect(decide(hostRule(''), http({ host: ':8080' })).decision).toBe('DENY');
    expect(decide(hostRule(':8080'), http({ host: ':8080' })).decision).toBe('ALLOW');
  });
});

describe('when keys', () => {
  it('request.headers[...] must be the whole key', () => {
    expect(decide(allow([{ when: [{ key: 'xrequest.headers[X-Team]', values: ['blue'] }] }]), http()).decision).toBe('DENY');
    expect(decide(allow([{ when: [{ key: 'request.headers[X-Team]x', values: ['blue'] }] }]), http()).decision).toBe('DENY');
    expect(decide(allow([{ when: [{ key: 'request.headers[X-Team]', values: ['blue'] }] }]), http()).decision).toBe('ALLOW');
  });
  it('a key that is not request.* matches on TCP only without values', () => {
    expect(decide(allow([{ when: [{ key: 'connection.sni', notValues: ['x'] }] }]), tcp()).decision).toBe('ALLOW');
    expect(decide(allow([{ when: [{ key: 'connection.sni', values: ['x'] }] }]), tcp()).decision).toBe('DENY');
    expect(whyOf(allow([{ when: [{ key: 'connection.sni', values: ['x'] }] }]), tcp())).toBe('`when` connection.sni does not match');
  });
  it('request.auth.* on a TCP chain: dropped from a DENY rule (the rule matches), an ALLOW rule is skipped', () => {
    expect(decide(deny([{ when: [{ key: 'request.auth.claims[iss]', values: ['x'] }] }]), tcp()).decision).toBe('DENY');
    const a = allow([{ when: [{ key: 'request.headers[X-Team]', values: ['blue'] }] }]);
    expect(decide(a, tcp()).decision).toBe('DENY');
    expect(whyOf(a, tcp())).toBe('has HTTP-only conditions, which never match on a TCP chain');
    // On an HTTP chain, request.auth.* never matches (no JWT) when it lists values.
    expect(decide(allow([{ when: [{ key: 'request.auth.claims[iss]', values: ['x'] }] }]), http()).decision).toBe('DENY');
  });
});

describe('TCP chain: ALLOW rules with only L4 from/to fields are kept', () => {
  it('a principal, an empty from and a port match on TCP', () => {
    expect(decide(allow([{ from: [{ source: { principals: ['cluster.local/ns/front/sa/web'] } }] }]), tcp()).decision).toBe('ALLOW');
    expect(decide(allow([{ from: [{}] }]), tcp()).decision).toBe('ALLOW');
    expect(decide(allow([{ from: [{}], to: [{}] }]), http()).decision).toBe('ALLOW');
  });
  it('a requestPrincipals ALLOW rule never matches on TCP', () => {
    const a = allow([{ from: [{ source: { requestPrincipals: ['*'] } }] }]);
    const d = decide(a, tcp());
    expect(d.decision).toBe('DENY');
    expect(d.evaluated[0]).toEqual({
      key: 'shop/allow',
      resourceKey: a.key,
      action: 'ALLOW',
      matched: false,
      why: 'has HTTP-only conditions, which never match on a TCP chain',
    });
  });
});

describe('explanations', () => {
  it('each failing part names itself', () => {
    expect(whyOf(allow([{ from: [{ source: { namespaces: ['other'] } }] }]), http())).toBe('no `from` source matches');
    const toFail = decide(allow([{ to: [{ operation: { ports: ['9090'] } }] }]), http());
    expect(toFail.evaluated[0]?.matched).toBe(false);
    expect(toFail.evaluated[0]?.why).toBe('no `to` operation matches');
    const whenFail = decide(allow([{ when: [{ key: 'source.ip', values: ['10.9.0.0/16'] }] }]), http());
    expect(whenFail.evaluated[0]?.matched).toBe(false);
    expect(whenFail.evaluated[0]?.why).toBe('`when` source.ip does not match');
    expect(whyOf(allow([{}]), http())).toBe('a rule matches');
  });
  it('no rules, one rule, several rules', () => {
    expect(whyOf(allow([]), http())).toBe('no rules: matches nothing');
    expect(decide(allow([]), http()).evaluated[0]?.matched).toBe(false);
    expect(whyOf(allow([{ to: [{ operation: { ports: ['1'] } }] }]), http())).toBe('no `to` operation matches');
    expect(whyOf(allow([{ to: [{ operation: { ports: ['1'] } }] }, { from: [{ source: { namespaces: ['x'] } }] }]), http())).toBe(
      'no rule matches (no `from` source matches)',
    );
  });
  it('the decision explains itself', () => {
    expect(evaluateEnvoy([], http()).why).toBe('no policy attached');
    expect(evaluateEnvoy([deny([{ from: [{ source: { namespaces: ['x'] } }] }])], http()).why).toBe('no DENY matched and no ALLOW policy applies');
    expect(evaluateEnvoy([deny([{}], 'd1')], http()).why).toBe('DENY policy shop/d1 matches');
    expect(evaluateEnvoy([allow([{}], 'a1')], http()).why).toBe('ALLOW policy shop/a1 matches');
    const none = evaluateEnvoy([allow([], 'a1'), allow([], 'a2')], http());
    expect(none).toMatchObject({ decision: 'DENY', policy: undefined, why: 'no ALLOW policy matches (shop/a1, shop/a2): denied by default' });
    expect(evaluateEnvoy([allow([], 'a1')], http())).toMatchObject({
      decision: 'DENY',
      policy: 'shop/a1',
      why: 'no ALLOW policy matches (shop/a1): denied by default',
    });
  });
  it('a dry-run policy is only logged', () => {
    const d = evaluateEnvoy([ap('dry', { action: 'DENY', rules: [{}] }, { annotations: { 'istio.io/dry-run': 'true' } })], http());
    expect(d.decision).toBe('ALLOW');
    expect(d.why).toBe('no DENY matched and no ALLOW policy applies');
    expect(d.evaluated[0]?.why).toBe('dry-run (only logged): a rule matches');
  });
  it('a matching CUSTOM policy without a provider names an empty provider', () => {
    const d = evaluateEnvoy([ap('ext', { action: 'CUSTOM', rules: [{}] })], http());
    expect(d.notes).toEqual(['CUSTOM policy shop/ext sends the request to ext-authz provider ""; its answer is not simulated (taken as allow).']);
  });
});
