// ROUTE_CONFIGURATION / VIRTUAL_HOST / HTTP_ROUTE patches, transcribed from Istio's
// pilot/pkg/networking/core/envoyfilter/rc_patch_test.go: Test_virtualHostMatch, Test_routeMatch,
// TestPatchHTTPRoute, Test_routeConfigurationMatch,
// TestApplyRouteConfigurationPatches (sidecar outbound, sidecar inbound, gateway, array insert),
// TestReplaceVhost and TestMergeAndReplaceListVhost. Go structs written as proto3 JSON; the
// tests' redirect codes 301/404 are enum numbers Go keeps as numbers.
import { describe, expect, it } from 'vitest';
import { applyRouteConfigurationPatches, routeConfigurationMatch, routeMatch, virtualHostMatch } from '../../../src/core/xds/envoyfilter/routes.ts';
import { envoyFilterWrapper } from '../../../src/core/xds/envoyfilter/wrapper.ts';
import type { Json } from '../../../src/core/xds/types.ts';
import type { Resource } from '../../../src/core/document/types.ts';
import { clone, proxyOf, runFor } from './helpers.ts';

function patchWithMatch(match: unknown) {
  const r = {
    key: 'k',
    name: 'f',
    namespace: 'ns',
    labels: {},
    annotations: {},
    body: { spec: { configPatches: [{ applyTo: 'ROUTE_CONFIGURATION', match, patch: { operation: 'MERGE' } }] } },
  } as unknown as Resource;
  return envoyFilterWrapper(r).patches[0]!;
}

describe('Test_routeConfigurationMatch', () => {
  const cases: { name: string; ctx: 'SIDECAR_OUTBOUND' | 'GATEWAY'; match: unknown; rc: string; portMap?: [number, number[]][]; want: boolean }[] = [
    { name: 'nil route match', ctx: 'SIDECAR_OUTBOUND', match: {}, rc: '', want: true },
    { name: 'rc name mismatch', ctx: 'SIDECAR_OUTBOUND', match: { routeConfiguration: { name: 'scooby.80' } }, rc: 'scooby.90', want: false },
    { name: 'sidecar port match', ctx: 'SIDECAR_OUTBOUND', match: { routeConfiguration: { portNumber: 80 } }, rc: '80', want: true },
    { name: 'sidecar port mismatch', ctx: 'SIDECAR_OUTBOUND', match: { routeConfiguration: { portNumber: 80 } }, rc: '90', want: false },
    {
      name: 'gateway fields match',
      ctx: 'GATEWAY',
      match: { routeConfiguration: { portNumber: 443, portName: 'app1', gateway: 'ns1/gw1' } },
      rc: 'https.443.app1.gw1.ns1',
      want: true,
    },
    {
      name: 'gateway fields mismatch',
      ctx: 'GATEWAY',
      match: { routeConfiguration: { portNumber: 443, portName: 'app1', gateway: 'ns1/gw1' } },
      rc: 'http.80',
      want: false,
    },
    {
      name: 'http target port match',
      ctx: 'GATEWAY',
      match: { routeConfiguration: { portNumber: 80 } },
      rc: 'http.8080',
      portMap: [[8080, [80, 81]]],
      want: true,
    },
    {
      name: 'http target port no match',
      ctx: 'GATEWAY',
      match: { routeConfiguration: { portNumber: 9090 } },
      rc: 'http.9090',
      portMap: [[8080, [80, 81]]],
      want: true,
    },
    {
      name: 'https.443.app1.gw1.ns1',
      ctx: 'GATEWAY',
      match: { routeConfiguration: { portNumber: 443 } },
      rc: 'http.8443',
      portMap: [[8443, [443]]],
      want: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pm = c.portMap ? new Map(c.portMap.map(([k, v]) => [k, new Set(v)])) : undefined;
      expect(routeConfigurationMatch(c.ctx, c.rc === '' ? {} : { name: c.rc }, patchWithMatch(c.match), pm)).toBe(c.want);
    });
  }
});

// TestApplyRouteConfigurationPatches: its config patches, each in its own EnvoyFilter.
const RC_PATCHES: unknown[] = [
  /* 0 */ {
    applyTo: 'ROUTE_CONFIGURATION',
    match: { context: 'SIDECAR_OUTBOUND', routeConfiguration: { portNumber: 80 } },
    patch: { operation: 'MERGE', value: { request_headers_to_remove: ['h3', 'h4'] } },
  },
  /* 1 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'SIDECAR_OUTBOUND', routeConfiguration: { portNumber: 80, vhost: { route: { action: 'ROUTE' } } } },
    patch: { operation: 'MERGE', value: { route: { prefix_rewrite: '/foo' } } },
  },
  /* 2 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'SIDECAR_OUTBOUND', routeConfiguration: { portNumber: 80, vhost: { route: { name: 'bar' } } } },
    patch: { operation: 'REMOVE' },
  },
  /* 3 */ {
    applyTo: 'VIRTUAL_HOST',
    match: { context: 'SIDECAR_OUTBOUND', routeConfiguration: { vhost: { name: 'allow_any' } } },
    patch: { operation: 'REMOVE' },
  },
  /* 4 */ { applyTo: 'VIRTUAL_HOST', patch: { operation: 'ADD', value: { name: 'new-vhost' } } },
  /* 5 */ { applyTo: 'VIRTUAL_HOST', match: { context: 'GATEWAY', routeConfiguration: { vhost: { name: 'vhost1' } } }, patch: { operation: 'REMOVE' } },
  /* 6 */ { applyTo: 'VIRTUAL_HOST', match: { context: 'SIDECAR_INBOUND', routeConfiguration: { vhost: { name: 'vhost2' } } }, patch: { operation: 'REMOVE' } },
  /* 7 */ { applyTo: 'VIRTUAL_HOST', match: { context: 'ANY' }, patch: { operation: 'MERGE', value: { domains: ['domain:80'] } } },
  /* 8 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'ANY', routeConfiguration: { portNumber: 9090, vhost: { name: 'test.com' } } },
    patch: { operation: 'ADD', value: { name: 'route4.0' } },
  },
  /* 9 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'ANY', routeConfiguration: { portNumber: 9090, vhost: { name: 'test.com' } } },
    patch: { operation: 'INSERT_FIRST', value: { name: 'route0.0' } },
  },
  /* 10 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'ANY', routeConfiguration: { portNumber: 9090, vhost: { name: 'test.com', route: { name: 'route2.0' } } } },
    patch: { operation: 'INSERT_AFTER', value: { name: 'route2.5' } },
  },
  /* 11 */ {
    applyTo: 'HTTP_ROUTE',
    match: { context: 'ANY', routeConfiguration: { portNumber: 9090, vhost: { name: 'test.com', route: { name: 'route2.0' } } } },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'route1.5' } },
  },
];

const routeTo = (name: string, prefixRewrite: string): Json => ({ name, route: { prefixRewrite } });
const redirect = (name: string, responseCode: number): Json => ({ name, redirect: { responseCode } });

describe('TestApplyRouteConfigurationPatches', () => {
  const cases = [
    {
      name: 'sidecar outbound rds patch',
      ctx: 'SIDECAR_OUTBOUND' as const,
      type: 'sidecar' as const,
      input: {
        name: '80',
        virtualHosts: [{ name: 'foo.com', domains: ['domain'], routes: [routeTo('foo', '/'), redirect('bar', 301)] }],
        requestHeadersToRemove: ['h1', 'h2'],
      },
      want: {
        name: '80',
        virtualHosts: [{ name: 'foo.com', domains: ['domain', 'domain:80'], routes: [routeTo('foo', '/foo')] }, { name: 'new-vhost' }],
        requestHeadersToRemove: ['h1', 'h2', 'h3', 'h4'],
      },
    },
    {
      name: 'sidecar inbound rc patch',
      ctx: 'SIDECAR_INBOUND' as const,
      type: 'sidecar' as const,
      input: { name: 'inbound|http|80', virtualHosts: [{ name: 'vhost2' }] },
      want: { name: 'inbound|http|80', virtualHosts: [{ name: 'new-vhost' }] },
    },
    {
      name: 'gateway rds patch',
      ctx: 'GATEWAY' as const,
      type: 'router' as const,
      input: {
        name: '80',
        virtualHosts: [
          { name: 'vhost1', domains: ['domain'] },
          { name: 'gateway', domains: ['gateway'] },
        ],
      },
      want: { name: '80', virtualHosts: [{ name: 'gateway', domains: ['gateway', 'domain:80'] }, { name: 'new-vhost' }] },
    },
    {
      name: 'array insert patch',
      ctx: 'SIDECAR_OUTBOUND' as const,
      type: 'sidecar' as const,
      input: {
        name: '9090',
        virtualHosts: [{ name: 'test.com', domains: ['domain'], routes: [routeTo('route1.0', '/'), redirect('route2.0', 301), redirect('route3.0', 404)] }],
      },
      want: {
        name: '9090',
        virtualHosts: [
          {
            name: 'test.com',
            domains: ['domain', 'domain:80'],
            routes: [
              { name: 'route0.0' },
              routeTo('route1.0', '/'),
              { name: 'route1.5' },
              redirect('route2.0', 301),
              { name: 'route2.5' },
              redirect('route3.0', 404),
              { name: 'route4.0' },
            ],
          },
          { name: 'new-vhost' },
        ],
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runFor(RC_PATCHES, proxyOf({ type: c.type }));
      expect(applyRouteConfigurationPatches(run, c.ctx, clone(c.input))).toEqual(c.want);
    });
  }
});

describe('TestReplaceVhost', () => {
  it('sidecar inbound vhost replace', () => {
    const run = runFor([
      {
        applyTo: 'VIRTUAL_HOST',
        match: { context: 'SIDECAR_INBOUND', routeConfiguration: { vhost: { name: 'to-be-replaced' } } },
        patch: {
          operation: 'REPLACE',
          value: {
            name: 'replaced',
            domains: ['replaced.com'],
            rate_limits: [{ actions: [{ request_headers: { header_name: ':path', descriptor_key: 'PATH' } }] }],
          },
        },
      },
    ]);
    const input = { name: 'inbound|http|80', virtualHosts: [{ name: 'to-be-replaced', domains: ['xxx'], routes: [routeTo('xxx', '/xxx')] }] };
    expect(applyRouteConfigurationPatches(run, 'SIDECAR_INBOUND', clone(input))).toEqual({
      name: 'inbound|http|80',
      virtualHosts: [
        { name: 'replaced', domains: ['replaced.com'], rateLimits: [{ actions: [{ requestHeaders: { headerName: ':path', descriptorKey: 'PATH' } }] }] },
      ],
    });
  });
});

describe('TestMergeAndReplaceListVhost', () => {
  const cases = [
    { name: 'MERGE appends to domains list', op: 'MERGE', want: ['original.com', 'patched.com'] },
    { name: 'MERGE_AND_REPLACE_LIST replaces domains list', op: 'MERGE_AND_REPLACE_LIST', want: ['patched.com'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runFor([
        {
          applyTo: 'VIRTUAL_HOST',
          match: { context: 'SIDECAR_INBOUND', routeConfiguration: { vhost: { name: 'vhost1' } } },
          patch: { operation: c.op, value: { domains: ['patched.com'] } },
        },
      ]);
      const rc = applyRouteConfigurationPatches(run, 'SIDECAR_INBOUND', {
        name: 'inbound|http|80',
        virtualHosts: [{ name: 'vhost1', domains: ['original.com'] }],
      });
      expect(rc).toEqual({ name: 'inbound|http|80', virtualHosts: [{ name: 'vhost1', domains: c.want }] });
    });
  }
});

describe('Test_virtualHostMatch', () => {
  const vh = { name: 'scoobydoo', domains: ['*.scooby', '*.com'] };
  const cases: { name: string; vhost: unknown; vh: Json | undefined; want: boolean }[] = [
    { name: 'vh is nil', vhost: {}, vh: undefined, want: false },
    { name: 'full match', vhost: { name: 'scooby' }, vh: { name: 'scooby' }, want: true },
    { name: 'mismatch', vhost: { name: 'scooby' }, vh: { name: 'scoobydoo' }, want: false },
    { name: 'domain name match', vhost: { domainName: '*.scooby' }, vh, want: true },
    { name: 'vhost name match and domain name match', vhost: { domainName: '*.scooby', name: 'scoobydoo' }, vh, want: true },
    { name: 'domain name mismatch', vhost: { domainName: '*.in' }, vh, want: false },
    { name: 'vhost name mismatch and domain name match', vhost: { domainName: '*.scooby', name: 'scooby' }, vh, want: false },
    { name: 'vhost name match but domain name mismatch', vhost: { domainName: '*.in', name: 'scoobydoo' }, vh, want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(virtualHostMatch(c.vh, patchWithMatch({ routeConfiguration: { vhost: c.vhost } }))).toBe(c.want);
    });
  }
});

describe('Test_routeMatch', () => {
  const cases: { name: string; route: unknown; r: Json | null; want: boolean }[] = [
    { name: 'route is nil', route: {}, r: null, want: false },
    { name: 'full match by name', route: { name: 'scooby' }, r: { name: 'scooby' }, want: true },
    { name: 'full match by action', route: { action: 'REDIRECT' }, r: { redirect: {} }, want: true },
    { name: 'mismatch by action', route: { action: 'ROUTE' }, r: { redirect: {} }, want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(routeMatch(c.r, patchWithMatch({ routeConfiguration: { vhost: { route: c.route } } }))).toBe(c.want);
    });
  }
});

describe('TestPatchHTTPRoute', () => {
  const patch = (vhost: string) => ({
    applyTo: 'HTTP_ROUTE',
    match: { routeConfiguration: { vhost: { name: vhost, route: { action: 'ROUTE' } } } },
    patch: { operation: 'MERGE', value: { route: { prefix_rewrite: '/foo' } } },
  });
  it('normal', () => {
    const run = runFor([patch('normal')], proxyOf({ type: 'router' }));
    const rc = applyRouteConfigurationPatches(run, 'GATEWAY', {
      name: 'normal',
      virtualHosts: [{ name: 'normal', domains: ['*'], routes: [routeTo('normal', '/normal')] }],
    });
    expect(rc.virtualHosts).toEqual([{ name: 'normal', domains: ['*'], routes: [routeTo('normal', '/foo')] }]);
  });
  it('shared: routes shared with another virtual host are not changed there', () => {
    const run = runFor([patch('shared')], proxyOf({ type: 'router' }));
    const shared = [routeTo('shared', '/shared')];
    const other = { name: 'foo', domains: ['bar'], routes: shared };
    const saved = clone(other);
    const rc = applyRouteConfigurationPatches(run, 'GATEWAY', { name: 'normal', virtualHosts: [{ name: 'shared', domains: ['*'], routes: shared }, other] });
    expect((rc.virtualHosts as Json[])[0]).toEqual({ name: 'shared', domains: ['*'], routes: [routeTo('shared', '/foo')] });
    expect(other).toEqual(saved);
  });
});
