// Facts each hop of the request trace (src/core/ambient/trace.ts) must carry, and the name, endpoint
// and policy look-ups behind them. Expected values come from ztunnel (src/proxy/outbound.rs: a VIP is
// a Service, a pod IP a workload, the endpoint's port map gives the target port; src/proxy/inbound.rs:
// HBONE on :15008, plaintext on :15006; src/dns/server.rs: the DNS proxy answers Service and
// ServiceEntry hosts, wildcards by suffix, and forwards what it does not know), istiod
// (pilot/pkg/model/policyattachment.go for waypoint policies; a ServiceEntry host is looked up in the
// client's namespace first), and the trace's contract (trace.ts header comment and TraceHop docs):
// every hop names who acts, the port, the identities, the policies and the verdict. Hop texts are our
// own prose: tests assert the facts a text must carry (names, ports, verdicts), never whole sentences.
import { describe, expect, it } from 'vitest';
import type { TraceResult } from '../../src/core/ambient/trace.ts';
import {
  ap,
  ns,
  one,
  pod,
  svc,
  trace,
  waypoint,
  se,
  peerAuthn,
  decided,
  AMB_LABELS,
  WP_LABELS,
  CLIENT_ID,
  SERVER_ID,
  WP_ID,
  base,
  withWaypoint,
  wpPolicy,
} from './traceHelpers.ts';

describe('where a request was denied (deniedAt)', () => {
  it('names the point and layer; the policy only when one denied; the scope only when it is not WorkloadSelector', () => {
    const byDefault = trace([...base(), ap('allow-none', 'a', { rules: [{ from: [{ source: { namespaces: ['x'] } }] }] })], {
      from: 'a/client',
      to: 'server:80',
    });
    expect(byDefault.deniedAt?.text).toContain('ztunnel@n2 inbound');
    expect(byDefault.deniedAt?.text).toContain('L4');
    expect(byDefault.deniedAt?.text).not.toContain('policy');
    const selector = trace([...base(), ap('deny-sel', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{}] })], {
      from: 'a/client',
      to: 'server:80',
    });
    expect(selector.deniedAt?.text).toContain('a/deny-sel');
    expect(selector.deniedAt?.text).not.toContain('scope');
    expect(selector.deniedAt?.text).not.toContain('WorkloadSelector');
    const nsWide = trace([...base(), ap('deny-ns', 'a', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'server:80' });
    expect(nsWide.deniedAt?.text).toContain('a/deny-ns');
    expect(nsWide.deniedAt?.text).toContain('scope Namespace');
  });

  it('a waypoint deny has no listener and no scope key at all', () => {
    const r = trace([...withWaypoint(), wpPolicy('deny', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'server:80' });
    expect(r.deniedAt && 'listener' in r.deniedAt).toBe(false);
    expect(r.deniedAt && 'scope' in r.deniedAt).toBe(false);
    expect(r.deniedAt?.text).toContain('waypoint a/waypoint');
    expect(r.deniedAt?.text).toContain('L7');
    expect(r.deniedAt?.text).toContain('a/deny');
  });

  it('a plain ALLOW trace has no notes, and the client sees the application response', () => {
    const r = trace(base(), { from: 'a/client', to: 'server:80' });
    expect(r.notes).toEqual([]);
    expect(r.clientSees).toContain('application response');
    expect(r.clientSees).toContain('200');
    expect(trace(base(), { from: 'a/client', to: 'server:80', request: 'TCP' }).clientSees).toBe('an open connection');
  });
});

describe('name resolution (kubeServiceFor, serviceEntryFor)', () => {
  it('only svc, svc.ns, svc.ns.svc and the FQDN name a Service: three labels are an external name', () => {
    const r = trace(base(), { from: 'a/client', to: 'server.a.example:80' });
    expect(r.hops.some((h) => h.pod === 'a/server')).toBe(false);
    expect(r.hops.at(-1)?.component).toBe('external');
    expect(r.hops[0]?.text).toContain('server.a.example');
    expect(r.hops[0]?.text).not.toContain('10.96.0.2');
  });

  it('a ServiceEntry is not a Service: its name alone does not resolve (NXDOMAIN)', () => {
    const r = trace(
      [
        ...base(),
        se('api', 'a', {
          hosts: ['api.example.com'],
          addresses: ['240.1.0.1'],
          ports: [{ number: 80, name: 'http', protocol: 'HTTP' }],
          resolution: 'STATIC',
          endpoints: [{ address: '203.0.113.1' }],
        }),
      ],
      { from: 'a/client', to: 'api:80' },
    );
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('NXDOMAIN');
    expect(r.error).toContain('api');
    expect(r.hops[0]?.text).toContain('NXDOMAIN');
    expect(r.hops[0]?.text).toContain('ztunnel@n1 :15053');
  });

  it('the host picks its own ServiceEntry among several; the source namespace wins for a shared host', () => {
    const objs = [
      ...base(),
      ns('b', AMB_LABELS),
      pod('b', 'client', '10.0.1.1'),
      se('first', 'b', {
        hosts: ['one.example.com'],
        addresses: ['240.1.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
      se('shared-b', 'b', {
        hosts: ['shared.example.com'],
        addresses: ['240.1.0.2'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.2' }],
      }),
      se('shared-a', 'a', {
        hosts: ['shared.example.com'],
        addresses: ['240.1.0.3'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.3' }],
      }),
      se('second', 'a', {
        hosts: ['two.example.com'],
        addresses: ['240.1.0.4'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.4' }],
      }),
    ];
    const two = trace(objs, { from: 'a/client', to: 'two.example.com:80' });
    expect(two.hops[0]?.text).toContain('240.1.0.4');
    const fromA = trace(objs, { from: 'a/client', to: 'shared.example.com:80' });
    expect(fromA.hops[0]?.text).toContain('240.1.0.3');
    expect(fromA.hops[0]?.text).not.toContain('240.1.0.2');
    const fromB = trace(objs, { from: 'b/client', to: 'shared.example.com:80' });
    expect(fromB.hops[0]?.text).toContain('240.1.0.2');
    // A host only another namespace defines is still answered (exportTo defaults to all).
    const onlyB = trace(objs, { from: 'a/client', to: 'one.example.com:80' });
    expect(onlyB.hops[0]?.text).toContain('240.1.0.1');
    expect(one(onlyB, (h) => h.component === 'ztunnel-outbound' && h.text.includes('picks')).text).toContain('b/first');
  });

  it('a wildcard host matches names under its suffix (case-insensitive), and only those', () => {
    const objs = [
      ...base(),
      se('wild', 'a', { hosts: ['*.Example.org'], addresses: ['240.1.0.3'], ports: [{ number: 443, name: 'tls', protocol: 'TLS' }] }),
      se('api', 'a', {
        hosts: ['api.example.com'],
        addresses: ['240.1.0.9'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
    ];
    const hit = trace(objs, { from: 'a/client', to: 'www.example.org:443' });
    expect(hit.hops[0]).toMatchObject({ component: 'dns', port: 15053 });
    expect(hit.hops[0]?.text).toContain('240.1.0.3');
    expect(hit.hops.at(-1)?.text).toContain('PASSTHROUGH');
    expect(hit.hops.at(-1)?.text).toContain('a/wild');
    const miss = trace(objs, { from: 'a/client', to: 'www.example.net:443' });
    expect(miss.hops[0]?.text).not.toContain('240.1.0.3');
    // A plain host is not a suffix pattern: 'xpi.example.com' is not api.example.com.
    const notSuffix = trace(objs, { from: 'a/client', to: 'xpi.example.com:80' });
    expect(notSuffix.hops[0]?.text).not.toContain('240.1.0.9');
    expect(notSuffix.hops.some((h) => h.text.includes('203.0.113.1'))).toBe(false);
  });
});

describe('endpoints (pickEndpoint) and workload names', () => {
  it('only healthy endpoints; the first by namespace/name whatever the file order; named by pod name', () => {
    const objs = [
      ns('a', AMB_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'srv-c', '10.0.0.5', { labels: { app: 'server' } }),
      pod('a', 'srv-a', '10.0.0.6', { labels: { app: 'server' }, ready: false }),
      pod('a', 'srv-b', '10.0.0.4', { labels: { app: 'server' } }),
      pod('a', 'srv-d', '10.0.0.3', { labels: { app: 'server' } }),
      svc('a', 'server', '10.96.0.2'),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' });
    expect(r.hops.at(-1)?.pod).toBe('a/srv-b');
    const pick = one(r, (h) => h.component === 'ztunnel-outbound' && h.text.includes('10.0.0.4') && h.protocol === undefined);
    expect(pick.text).toContain('srv-b');
    expect(pick.text).toContain('a/server');
    expect(pick.text).toContain('8080');
    expect(pick.text).toContain('HBONE');
    expect(pick.text).not.toContain('(Pod)');
    const onlyUnready = [
      ns('a', AMB_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'srv-a', '10.0.0.6', { labels: { app: 'server' }, ready: false }),
      svc('a', 'server', '10.96.0.2'),
    ];
    expect(trace(onlyUnready, { from: 'a/client', to: 'server:80' }).result).toBe('ERROR');
  });

  it('a non-pod endpoint is named with its kind', () => {
    const objs = [
      ...base(),
      se('api', 'a', {
        hosts: ['api.example.com'],
        addresses: ['240.1.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'api.example.com:80' });
    const pick = one(r, (h) => h.component === 'ztunnel-outbound' && h.text.includes('picks'));
    expect(pick.text).toContain('api (ServiceEntry)');
    const ext = one(r, (h) => h.component === 'external');
    expect(ext.text).toContain('api (ServiceEntry)');
    expect(ext.text).toContain('not a pod');
    expect(r.clientSees).toBe('the upstream response');
    expect(trace(objs, { from: 'a/client', to: 'api.example.com:80', request: 'TCP' }).clientSees).toBe('the connection');
  });
});

describe('waypoint policy attachment (policyattachment.go)', () => {
  const denyAll = (name: string, namespace: string, ref: object) => ap(name, namespace, { targetRefs: [ref], action: 'DENY', rules: [{}] });
  const seBound = () =>
    se(
      'ext',
      'a',
      {
        hosts: ['ext.example.com'],
        addresses: ['240.2.0.1'],
        ports: [{ number: 80, name: 'http', protocol: 'HTTP' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.9' }],
      },
      { 'istio.io/use-waypoint': 'waypoint' },
    );

  it("a Gateway or Service reference attaches only from the referent's namespace", () => {
    const objs = [...withWaypoint(), ns('b')];
    expect(
      trace([...objs, denyAll('d', 'b', { kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' })], { from: 'a/client', to: 'server:80' })
        .result,
    ).toBe('ALLOW');
    expect(trace([...objs, denyAll('d', 'b', { kind: 'Service', group: '', name: 'server' })], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    expect(trace([...objs, denyAll('d', 'a', { kind: 'Service', group: '', name: 'server' })], { from: 'a/client', to: 'server:80' }).deniedAt?.policy).toBe(
      'a/d',
    );
  });

  it("a GatewayClass reference attaches from the root namespace and only for the waypoint's class", () => {
    const objs = [...withWaypoint(), ns('istio-system')];
    expect(
      trace([...objs, denyAll('d', 'istio-system', { kind: 'GatewayClass', group: 'gateway.networking.k8s.io', name: 'other-class' })], {
        from: 'a/client',
        to: 'server:80',
      }).result,
    ).toBe('ALLOW');
    // A root-namespace reference of another kind named like the class is no GatewayClass reference.
    expect(
      trace([...objs, denyAll('d', 'istio-system', { kind: 'Service', group: '', name: 'istio-waypoint' })], { from: 'a/client', to: 'server:80' }).result,
    ).toBe('ALLOW');
    expect(
      trace([...objs, denyAll('d', 'istio-system', { kind: 'GatewayClass', group: 'gateway.networking.k8s.io', name: 'istio-waypoint' })], {
        from: 'a/client',
        to: 'server:80',
      }).result,
    ).toBe('DENY');
  });

  it('a Service reference needs kind Service and the core group; other kinds with the core group do not attach', () => {
    const objs = withWaypoint();
    expect(trace([...objs, denyAll('d', 'a', { kind: 'Service', group: 'example.com', name: 'server' })], { from: 'a/client', to: 'server:80' }).result).toBe(
      'ALLOW',
    );
    expect(trace([...objs, denyAll('d', 'a', { kind: 'Pod', group: '', name: 'server' })], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it("a ServiceEntry reference needs kind ServiceEntry, the networking.istio.io group and the entry's namespace", () => {
    const objs = [...withWaypoint(), seBound(), ns('b')];
    const to = { from: 'a/client', to: 'ext.example.com:80' };
    expect(trace([...objs, denyAll('d', 'a', { kind: 'ServiceEntry', group: 'networking.istio.io', name: 'ext' })], to).deniedAt?.policy).toBe('a/d');
    expect(trace([...objs, denyAll('d', 'a', { kind: 'ServiceEntry', group: 'example.com', name: 'ext' })], to).result).toBe('ALLOW');
    expect(trace([...objs, denyAll('d', 'a', { kind: 'Pod', group: 'networking.istio.io', name: 'ext' })], to).result).toBe('ALLOW');
    expect(trace([...objs, denyAll('d', 'b', { kind: 'ServiceEntry', group: 'networking.istio.io', name: 'ext' })], to).result).toBe('ALLOW');
    // kind Service does not name a ServiceEntry.
    expect(trace([...objs, denyAll('d', 'a', { kind: 'Service', group: '', name: 'ext' })], to).result).toBe('ALLOW');
  });

  it('through a workload waypoint (no Service), Service references never attach', () => {
    const objs = [
      ns('a', WP_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a', 'waypoint', 'all'),
    ];
    const r = trace([...objs, denyAll('d', 'a', { kind: 'Service', group: '', name: 'server' })], { from: 'a/client', to: '10.0.0.2:8080' });
    expect(r.waypointUsed).toBe('a/waypoint');
    expect(r.result).toBe('ALLOW');
    const atWp = one(r, (h) => h.component === 'waypoint' && h.text.includes('terminates HBONE'));
    expect(atWp.text).toContain('workload server');
    expect(atWp.text).toContain('10.0.0.2:8080');
    const toWp = one(r, (h) => h.component === 'ztunnel-outbound' && h.text.includes('workload waypoint'));
    expect(toWp.text).toContain('a/waypoint');
    expect(toWp.text).toContain('10.0.0.2');
    expect(toWp).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(r.notes.some((n) => n.includes('a/waypoint') && n.includes('workload'))).toBe(true);
  });
});

describe('sidecar inbound policies (selector, namespace and root)', () => {
  const SC = () => [
    ns('a', AMB_LABELS),
    pod('a', 'client', '10.0.0.1'),
    ns('s', { 'istio-injection': 'enabled' }),
    pod('s', 'web', '10.0.3.2', { node: 'n3' }),
    svc('s', 'web', '10.96.3.2'),
  ];

  it('an empty selector selects every pod of the namespace', () => {
    const r = trace([...SC(), ap('deny-empty', 's', { selector: {}, action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'web.s:80' });
    expect(r.deniedAt).toMatchObject({ point: 'sidecar s/web', policy: 's/deny-empty' });
  });

  it('the authorization hop lists the policies, the principal, the request and the verdict', () => {
    const r = trace(
      [...SC(), ap('deny-post', 's', { action: 'DENY', rules: [{ to: [{ operation: { methods: ['POST'] } }] }] }), ap('allow-all', 's', { rules: [{}] })],
      { from: 'a/client', to: 'web.s:80', request: 'POST /orders' },
    );
    const h = decided(r);
    expect(h).toMatchObject({ component: 'sidecar-inbound', actor: 'sidecar s/web', node: 'n3', pod: 's/web', decision: 'DENY' });
    expect(h.text).toContain('s/deny-post');
    expect(h.text).toContain('s/allow-all');
    expect(h.text).toContain('principal cluster.local/ns/a/sa/client');
    expect(h.text).not.toContain('spiffe://');
    expect(h.text).toContain('method POST');
    expect(h.text).toContain('path /orders');
    expect(h.text).toContain('DENY');
    expect(h.policies?.map((p) => [p.key, p.action, p.matched])).toEqual(expect.arrayContaining([['s/deny-post', 'DENY', true]]));
    expect(h.policies?.find((p) => p.key === 's/deny-post')?.resourceKey).toContain('s/deny-post');
    expect(r.enforcement).toEqual([
      {
        point: 'sidecar s/web',
        layer: 'L7',
        sourceIdentity: CLIENT_ID,
        policies: expect.arrayContaining(['s/deny-post', 's/allow-all']),
        decision: 'DENY',
        why: expect.any(String),
      },
    ]);
    expect(r.clientSees).toContain('403');
    expect(r.clientSees).toContain('sidecar');
    const none = trace(SC(), { from: 'a/client', to: 'web.s:80', request: 'TCP' });
    const nh = decided(none);
    expect(nh.text).toContain('no policies');
    expect(nh.text).toContain('TCP');
    expect(nh.text).toContain('ALLOW');
    expect(one(none, (h) => h.component === 'app').text).toContain('127.0.0.1:8080');
    expect(none.clientSees).toBe('an open connection');
    expect(trace(SC(), { from: 'a/client', to: 'web.s:80' }).clientSees).toContain('200');
  });
});

describe('destination ztunnel (inbound.rs): what each hop says', () => {
  it('HBONE arrival: the listener, both identities, the source IP and the CONNECT target', () => {
    const r = trace(base(), { from: 'a/client', to: 'server:80' });
    const arrive = one(r, (h) => h.component === 'ztunnel-inbound' && h.protocol === 'HBONE mTLS');
    expect(arrive.text).toContain(':15008');
    expect(arrive.text).toContain(SERVER_ID);
    expect(arrive.text).toContain(CLIENT_ID);
    expect(arrive.text).toContain('10.0.0.1');
    expect(arrive.text).toContain('10.0.0.2:8080');
    const authz = decided(r);
    expect(authz).toMatchObject({
      component: 'ztunnel-inbound',
      actor: 'ztunnel@n2',
      node: 'n2',
      pod: 'a/server',
      port: 15008,
      peerIdentity: CLIENT_ID,
      decision: 'ALLOW',
      policies: [],
    });
    expect(authz.text).toContain('a/server');
    expect(authz.text).toContain(CLIENT_ID);
    expect(authz.text).toContain('10.0.0.1');
    expect(authz.text).toContain('8080');
    expect(authz.text).toContain('[]');
    expect(authz.text).toContain('ALLOW');
    const app = r.hops.at(-1)!;
    expect(app).toMatchObject({ component: 'app', actor: 'a/server', node: 'n2', pod: 'a/server', port: 8080 });
    expect(app.text).toContain('10.0.0.2:8080');
    expect(app.text).toContain('10.0.0.1');
    expect(app.text).toContain('200');
  });

  it('the L4 hop lists each policy with its action, its scope unless WorkloadSelector, and whether it matched', () => {
    const objs = [
      ...base(),
      ap('deny-sel', 'a', {
        selector: { matchLabels: { app: 'server' } },
        action: 'DENY',
        rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }] }],
      }),
      ap('deny-ns', 'a', { action: 'DENY', rules: [{ from: [{ source: { namespaces: ['zzz'] } }] }] }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' });
    const h = decided(r);
    expect(h.decision).toBe('DENY');
    expect(h.text).toContain('a/deny-sel (DENY): matches');
    expect(h.text).toContain('a/deny-ns (DENY, Namespace): no match');
    expect(h.text).toContain('-> DENY (');
    // One entry per policy, separated.
    expect(h.text).toMatch(/(matches|no match); a\/deny-/);
    expect(h.text).not.toContain('WorkloadSelector');
    expect(r.enforcement[0]?.policies).toEqual(expect.arrayContaining(['a/deny-sel', 'a/deny-ns']));
    expect(r.clientSees).toContain('401');
    expect(r.clientSees).toContain('56');
    const allowed = trace([...base(), ap('allow-client', 'a', { rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }] }] })], {
      from: 'a/client',
      to: 'server:80',
    });
    expect(decided(allowed).text).toContain('a/allow-client (ALLOW, Namespace): matches');
    expect(decided(allowed).text).toMatch(/-> ALLOW$/);
  });

  it('plaintext arrival on :15006: no identity, and a deny closes the connection', () => {
    const objs = [
      ...base(),
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
      ap('deny-p', 'a', { action: 'DENY', rules: [{ from: [{ source: { ipBlocks: ['10.0.5.5'] } }] }] }),
    ];
    const r = trace(objs, { from: 'p/legacy', to: 'server.a:80' });
    const arrive = one(r, (h) => h.component === 'ztunnel-inbound' && h.protocol === 'plaintext');
    expect(arrive).toMatchObject({ actor: 'ztunnel@n2', node: 'n2', pod: 'a/server', port: 15006, peerIdentity: null });
    expect(arrive.text).toContain(':15006');
    expect(arrive.text).toContain('10.0.0.2:8080');
    expect(arrive.text).toContain('10.0.5.5');
    const h = decided(r);
    expect(h.text).toContain('no identity');
    expect(h.text).toContain('10.0.5.5');
    expect(r.deniedAt).toMatchObject({ point: 'ztunnel@n2 inbound plaintext :15006', listener: 15006, policy: 'a/deny-p' });
    expect(r.clientSees).toContain('closed');
    expect(r.clientSees).toContain('56');
    const ok = trace(objs.slice(0, -1), { from: 'p/legacy', to: 'server.a:80' });
    expect(ok.hops.at(-1)?.text).not.toContain('CONNECT');
    const kp = one(ok, (h) => h.component === 'kube-proxy');
    expect(kp).toMatchObject({ actor: 'p/legacy', pod: 'p/legacy' });
    expect(kp.text).toContain('10.96.0.2:80');
    expect(kp.text).toContain('10.0.0.2:8080');
  });

  it('bypass-inbound-capture: the hop says so and the client sees the application', () => {
    const objs = [
      ns('a', AMB_LABELS),
      pod('a', 'server', '10.0.0.2', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } }),
      svc('a', 'server', '10.96.0.2'),
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
    ];
    const r = trace(objs, { from: 'p/legacy', to: 'server.a:80' });
    const app = r.hops.at(-1)!;
    expect(app).toMatchObject({ component: 'app', actor: 'a/server', pod: 'a/server', port: 8080 });
    expect(app.text).toContain('bypass-inbound-capture');
    expect(app.text).toContain('10.0.0.2:8080');
    expect(r.clientSees).toContain('application response');
    expect(trace(objs, { from: 'p/legacy', to: 'server.a:80', request: 'TCP' }).clientSees).toBe('an open connection');
  });

  it("through a waypoint, a TCP deny at the destination ztunnel resets the client's connection", () => {
    const r = trace([...withWaypoint(), ap('d', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{}] })], {
      from: 'a/client',
      to: 'server:80',
      request: 'TCP',
    });
    expect(r.deniedAt).toMatchObject({ point: 'ztunnel@n2 inbound', policy: 'a/d' });
    expect(r.clientSees).toBe('the connection is reset');
    const http = trace([...withWaypoint(), ap('d', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{}] })], {
      from: 'a/client',
      to: 'server:80',
    });
    expect(http.clientSees).toContain('a/waypoint');
    expect(http.clientSees).toContain('401');
  });
});

describe('destination sidecar: what each hop says', () => {
  const INJ = () => [
    ns('a', AMB_LABELS),
    pod('a', 'client', '10.0.0.1'),
    ns('s', { 'istio-injection': 'enabled' }),
    pod('s', 'sc', '10.0.3.1'),
    pod('s', 'web', '10.0.3.2', { node: 'n3' }),
    svc('s', 'web', '10.96.3.2'),
    ns('p'),
    pod('p', 'legacy', '10.0.5.5'),
  ];

  it('names how the connection arrives: HBONE on :15008, Istio mTLS or plaintext on the target port', () => {
    const hb = one(trace(INJ(), { from: 's/sc', to: 'web:80' }), (h) => h.component === 'sidecar-inbound' && h.protocol !== undefined);
    expect(hb).toMatchObject({ actor: 'sidecar s/web', node: 'n3', pod: 's/web', identity: 'spiffe://cluster.local/ns/s/sa/web' });
    expect(hb.text).toContain('HBONE');
    expect(hb.text).toContain('10.0.3.2:15008');
    expect(hb.text).toContain('spiffe://cluster.local/ns/s/sa/sc');
    const mtls = one(
      trace(INJ(), { from: 's/sc', to: 'web:80' }, { sidecarHbone: false }),
      (h) => h.component === 'sidecar-inbound' && h.protocol !== undefined,
    );
    expect(mtls.text).toContain('Istio mTLS');
    expect(mtls.text).toContain('10.0.3.2:8080');
    const plain = one(trace(INJ(), { from: 'p/legacy', to: 'web.s:80' }), (h) => h.component === 'sidecar-inbound' && h.protocol !== undefined);
    expect(plain.text).toContain('plaintext');
    expect(plain.text).toContain('10.0.3.2:8080');
    expect(plain.text).toContain('none');
    expect(one(trace(INJ(), { from: 'p/legacy', to: 'web.s:80' }), (h) => h.decision !== undefined).text).toContain('no principal');
  });

  it('STRICT rejects plaintext: the check, the hop, the enforcement and what the client sees', () => {
    const r = trace([...INJ(), peerAuthn('strict', 's', 'STRICT')], { from: 'p/legacy', to: 'web.s:80' });
    const h = decided(r);
    expect(h).toMatchObject({ component: 'sidecar-inbound', actor: 'sidecar s/web', node: 'n3', pod: 's/web', decision: 'DENY' });
    expect(h.policies).toEqual([
      {
        key: 's/strict',
        resourceKey: expect.stringMatching(/PeerAuthentication\/s\/strict$/),
        action: 'STRICT',
        matched: true,
        why: expect.stringContaining('STRICT'),
      },
    ]);
    expect(h.text).toContain('s/strict');
    expect(h.text).toContain('s/web');
    expect(h.text).toContain('STRICT');
    expect(r.enforcement).toEqual([
      { point: 'sidecar s/web', layer: 'L4', sourceIdentity: null, policies: ['s/strict'], decision: 'DENY', why: expect.stringContaining('STRICT') },
    ]);
    expect(r.clientSees).toContain('TLS required');
  });

  it('a TCP deny closes the connection; the chain follows the port: TCP ports give L4', () => {
    const objs = [...INJ(), ap('deny-all', 's', { action: 'DENY', rules: [{}] })];
    const r = trace(objs, { from: 's/sc', to: 'web:80', request: 'TCP' });
    expect(r.deniedAt).toMatchObject({ point: 'sidecar s/web', layer: 'L4', policy: 's/deny-all' });
    expect(r.clientSees).toBe('connection closed');
    expect(decided(r).text).toContain('s/deny-all');
  });

  it('an uncaptured destination: the app gets the connection unchecked', () => {
    const r = trace([...INJ(), pod('p', 'db', '10.0.5.6', { node: 'n4' }), svc('p', 'db', '10.96.5.6')], { from: 'p/legacy', to: 'db:80' });
    const app = r.hops.at(-1)!;
    expect(app).toMatchObject({ component: 'app', actor: 'p/db', node: 'n4', pod: 'p/db', port: 8080, protocol: 'plaintext' });
    expect(app.text).toContain('10.0.5.6:8080');
    expect(app.text).toContain('10.0.5.5');
    expect(app.text).toContain('not captured');
    expect(r.clientSees).toContain('application response');
    expect(trace([...INJ(), pod('p', 'db', '10.0.5.6'), svc('p', 'db', '10.96.5.6')], { from: 'p/legacy', to: 'db:80', request: 'TCP' }).clientSees).toBe(
      'an open connection',
    );
  });
});

describe('through a waypoint: what each hop says', () => {
  it("the client's HBONE to the waypoint: its address, its host name, both identities, the CONNECT authority", () => {
    const r = trace(withWaypoint(), { from: 'a/client', to: 'server:80' });
    const bound = one(r, (h) => h.component === 'ztunnel-outbound' && h.text.includes('has waypoint'));
    expect(bound).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(bound.text).toContain('a/server');
    expect(bound.text).toContain('a/waypoint');
    expect(bound.text).toContain('waypoint.a.svc.cluster.local:15008');
    const toWp = one(r, (h) => h.component === 'waypoint' && h.actor === 'ztunnel@n1');
    const wpPod = one(r, (h) => h.component === 'waypoint' && h.text.includes('terminates HBONE'));
    expect(toWp.text).toMatch(/-> 10\.\d+\.\d+\.\d+:15008/);
    expect(toWp.text).toContain('(waypoint waypoint.a.svc.cluster.local)');
    expect(toWp.text).toContain(CLIENT_ID);
    expect(toWp.text).toContain(WP_ID);
    expect(toWp.text).toContain(':authority 10.96.0.2:80');
    expect(toWp.text).toContain('service VIP');
    expect(wpPod).toMatchObject({ actor: 'waypoint a/waypoint', waypoint: 'a/waypoint', port: 15008, protocol: 'HBONE mTLS' });
    expect(wpPod.pod).toMatch(/^a\/waypoint/);
    expect(wpPod.text).toContain('10.96.0.2:80');
    expect(wpPod.text).toContain("service server port 'http' (HTTP)");
    expect(wpPod.text).toContain('HTTP chain');
    const authz = decided(r, 'waypoint');
    expect(authz).toMatchObject({ component: 'waypoint', actor: 'waypoint a/waypoint', waypoint: 'a/waypoint', decision: 'ALLOW', policies: [] });
    expect(authz.node).toBe(wpPod.node);
    expect(authz.text).toContain('L7');
    expect(authz.text).toContain('no policy attached');
    expect(authz.text).toContain('principal cluster.local/ns/a/sa/client');
    expect(authz.text).not.toContain('spiffe://');
    expect(authz.text).toContain('method GET, path /');
    expect(authz.text).toMatch(/-> ALLOW$/);
    const route = one(r, (h) => h.component === 'waypoint' && h.text.includes('routes to'));
    expect(route).toMatchObject({ actor: 'waypoint a/waypoint', port: 15008, protocol: 'HBONE mTLS', identity: WP_ID, peerIdentity: SERVER_ID });
    expect(route.text).toContain('server');
    expect(route.text).toContain('10.0.0.2:15008');
    expect(route.text).toContain(WP_ID);
    expect(route.text).toContain(':authority 10.0.0.2:8080');
    expect(r.notes.some((n) => n.includes('a/waypoint') && n.includes("service's endpoints"))).toBe(true);
  });

  it('the authorization hop names the policies, the namespace of the source and the verdict with its reason', () => {
    const objs = [
      ...withWaypoint(),
      ns('web', AMB_LABELS),
      pod('web', 'shop', '10.0.7.1'),
      wpPolicy('deny-shop', { action: 'DENY', rules: [{ from: [{ source: { namespaces: ['web'] } }] }] }),
      wpPolicy('allow-any', { rules: [{}] }),
    ];
    const r = trace(objs, { from: 'web/shop', to: 'server.a:80', request: 'POST /cart' });
    const h = decided(r, 'waypoint');
    expect(h.decision).toBe('DENY');
    expect(h.text).toContain('a/deny-shop');
    expect(h.text).toContain('a/allow-any');
    expect(h.text).toContain('namespace web');
    expect(h.text).toContain('principal cluster.local/ns/web/sa/shop');
    expect(h.text).toContain('method POST, path /cart');
    expect(h.text).toContain('-> DENY (');
    expect(h.policies?.find((p) => p.key === 'a/deny-shop')).toMatchObject({ action: 'DENY', matched: true });
    expect(r.enforcement[0]).toMatchObject({
      point: 'waypoint a/waypoint',
      layer: 'L7',
      policies: expect.arrayContaining(['a/deny-shop', 'a/allow-any']),
      decision: 'DENY',
    });
    expect(r.clientSees).toContain('403');
    expect(r.clientSees).toContain('waypoint');
    const tcp = trace(objs, { from: 'web/shop', to: 'server.a:80', request: 'TCP' });
    expect(decided(tcp, 'waypoint').text).toContain('L4');
    expect(decided(tcp, 'waypoint').text).toContain('TCP');
    expect(tcp.clientSees).toBe('connection closed by the waypoint');
  });

  it('the chain: explicit TCP, sniffed HTTP, sniffed TCP', () => {
    const wpHop = (r: TraceResult) => one(r, (h) => h.component === 'waypoint' && h.text.includes('terminates HBONE')).text;
    const tcpPort = trace(withWaypoint([{ name: 'tcp-db', port: 80, targetPort: 8080 }]), { from: 'a/client', to: 'server:80' });
    expect(wpHop(tcpPort)).toContain("port 'tcp-db' (TCP)");
    expect(wpHop(tcpPort)).toContain('TCP chain');
    expect(decided(tcpPort, 'waypoint').text).toContain('TCP');
    expect(decided(tcpPort, 'waypoint').text).not.toContain('method');
    const sniffed = withWaypoint([{ port: 80, targetPort: 8080 }]);
    expect(wpHop(trace(sniffed, { from: 'a/client', to: 'server:80' }))).toMatch(/sniffing.*HTTP chain/);
    expect(wpHop(trace(sniffed, { from: 'a/client', to: 'server:80', request: 'TCP' }))).toMatch(/sniffing.*TCP chain/);
  });

  it('a port the Service does not declare: the waypoint still gets it, names it by number, and finds no endpoint (503)', () => {
    const r = trace(withWaypoint(), { from: 'a/client', to: 'server:81' });
    expect(r.waypointUsed).toBe('a/waypoint');
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('503');
    expect(one(r, (h) => h.component === 'waypoint' && h.text.includes('terminates HBONE')).text).toContain("port '81' (unknown)");
    const last = r.hops.at(-1)!;
    expect(last).toMatchObject({ component: 'waypoint', actor: 'waypoint a/waypoint', waypoint: 'a/waypoint' });
    expect(last.text).toContain('a/waypoint');
    expect(last.text).toContain('server:81');
  });

  it('to a ServiceEntry: a host endpoint is resolved by the waypoint; an IP endpoint gets plain TCP', () => {
    const dns = se(
      'ext',
      'a',
      { hosts: ['ext.example.com'], addresses: ['240.2.0.1'], ports: [{ number: 80, name: 'http', protocol: 'HTTP' }], resolution: 'DNS' },
      { 'istio.io/use-waypoint': 'waypoint' },
    );
    const r = trace([...withWaypoint(), dns], { from: 'a/client', to: 'ext.example.com:80' });
    expect(r.result).toBe('ALLOW');
    const out = r.hops.at(-1)!;
    expect(out).toMatchObject({ component: 'external', actor: 'waypoint a/waypoint', waypoint: 'a/waypoint', port: 80 });
    expect(out.text).toContain('ext.example.com');
    expect(out.text).toContain('HTTP');
    expect(out.text).toContain(':80');
    expect(r.clientSees).toBe('the external response');
    const tcp = trace([...withWaypoint(), dns], { from: 'a/client', to: 'ext.example.com:80', request: 'TCP' });
    expect(tcp.clientSees).toBe('an open connection');
    expect(tcp.hops.at(-1)?.text).toContain('plain TCP');
    const byIp = se(
      'ext',
      'a',
      {
        hosts: ['ext.example.com'],
        addresses: ['240.2.0.1'],
        ports: [{ number: 80, name: 'http', protocol: 'HTTP' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.9' }],
      },
      { 'istio.io/use-waypoint': 'waypoint' },
    );
    const ip = trace([...withWaypoint(), byIp], { from: 'a/client', to: 'ext.example.com:80' });
    const route = one(ip, (h) => h.component === 'waypoint' && h.text.includes('routes to'));
    expect(route).toMatchObject({ actor: 'waypoint a/waypoint', waypoint: 'a/waypoint', port: 80, protocol: 'plaintext' });
    expect(route.node).toBeDefined();
    expect(route.text).toContain('ext (ServiceEntry)');
    expect(route.text).toContain('203.0.113.9:80');
    expect(ip.hops.at(-1)).toMatchObject({ component: 'external' });
    expect(ip.hops.at(-1)?.text).toContain('ext (ServiceEntry)');
  });
});
