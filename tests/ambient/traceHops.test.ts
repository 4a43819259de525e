// Facts of each hop of the request trace, hop by hop: the source, name resolution, the client side
// (ztunnel, a sidecar or a gateway, an uncaptured pod, an ingress gateway), and the policy links.
// Expected values come from ztunnel, istiod and the trace's contract, as traceFacts.test.ts says.
import { describe, expect, it } from 'vitest';
import { istioGateway } from '../helpers/gatewayApi.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { traceRequest } from '../../src/core/ambient/trace.ts';
import { ap, ns, one, pod, svc, trace, waypoint, se, decided, AMB_LABELS, WP_LABELS, CLIENT_ID, SERVER_ID, WP_ID, base, withWaypoint } from './traceHelpers.ts';

describe('the source (resolveSourcePod) and its state', () => {
  const dep = (name: string, replicas: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'a' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app' }] } },
    },
  });

  it('a controller is traced from its own first pod by name, whatever order the pods were made in', () => {
    const r = trace([...base(), dep('aaa', 1), dep('api', 3)], { from: 'a/api', to: 'server:80' });
    const src = r.source?.pod ?? '';
    expect(src.startsWith('a/api-')).toBe(true);
    expect(r.notes.some((n) => n.includes('a/api') && n.includes(src))).toBe(true);
    // Every pod of the Deployment sorts after the one picked.
    const hop = r.hops.find((h) => h.pod === src);
    expect(hop).toBeDefined();
    const again = trace([...base(), dep('api', 3), dep('aaa', 1)], { from: 'a/api', to: 'server:80' });
    expect(again.source?.pod).toBe(src);
    const { view } = loadMesh([{ path: 'm.yaml', text: [...base(), dep('api', 3)].map((o) => JSON.stringify(o)).join('\n---\n') }]);
    const pods = buildAmbientModel(view, {})
      .cluster.pods.filter((p) => p.name.startsWith('api-'))
      .map((p) => p.key);
    expect(pods.length).toBe(3);
    // Pods are made in another order than by name (their first is not the smallest).
    expect(pods[0]).not.toBe([...pods].sort()[0]);
    expect(src).toBe([...pods].sort()[0]);
  });

  it('a source that has ended is terminated, not pending', () => {
    const done = { ...pod('a', 'job', '10.0.0.9'), status: { phase: 'Succeeded', podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.9' }] } };
    const r = trace([...base(), done], { from: 'a/job', to: 'server:80' });
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('a/job');
    expect(r.error).toContain('terminated');
    expect(r.error).not.toContain('pending');
  });

  it('errors name what is wrong', () => {
    expect(trace(base(), { from: 'a/nobody', to: 'server:80' }).error).toContain('a/nobody');
    expect(trace(base(), { from: 'a/client', to: 'server' }).error).toContain('"server"');
  });
});

describe('name resolution hops', () => {
  it("NXDOMAIN: through ztunnel's DNS proxy, or straight from cluster DNS without capture", () => {
    const captured = trace(base(), { from: 'a/client', to: 'nope:80' });
    expect(captured.hops).toHaveLength(1);
    expect(captured.hops[0]).toMatchObject({ component: 'dns', actor: 'ztunnel@n1', node: 'n1', pod: 'a/client', port: 15053, protocol: 'DNS' });
    expect(captured.hops[0]?.text).toContain('nope');
    expect(captured.hops[0]?.text).toContain('cluster DNS');
    expect(captured.error).toContain('nope');
    expect(captured.error).toContain('curl exits 6');
    const plain = trace([...base(), ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'p/legacy', to: 'nope:80' });
    expect(plain.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS', node: 'n1', pod: 'p/legacy', protocol: 'DNS' });
    expect(plain.hops[0] && 'port' in plain.hops[0]).toBe(false);
    expect(plain.hops[0]?.text).toContain('NXDOMAIN');
    expect(plain.hops[0]?.text).not.toContain('15053');
  });

  it('the DNS proxy says what it answered: a Service VIP, a ServiceEntry VIP (given or auto-allocated), pod IPs', () => {
    const objs = [
      ...base(),
      se('given', 'a', {
        hosts: ['given.example.com'],
        addresses: ['240.1.0.7'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.7' }],
      }),
      se('auto', 'a', { hosts: ['auto.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' }),
      svc('a', 'hl', 'None', { selector: { app: 'server' } }),
    ];
    const vip = trace(objs, { from: 'a/client', to: 'server:80' }).hops[0]!;
    expect(vip).toMatchObject({ component: 'dns', actor: 'ztunnel@n1', node: 'n1', pod: 'a/client', port: 15053, protocol: 'DNS' });
    expect(vip.text).toContain('10.96.0.2');
    expect(vip.text).toContain('Service VIP');
    const given = trace(objs, { from: 'a/client', to: 'given.example.com:80' }).hops[0]!.text;
    expect(given).toContain("ServiceEntry's VIP");
    expect(given).not.toContain('auto-allocated');
    const auto = trace(objs, { from: 'a/client', to: 'auto.example.com:80' });
    expect(auto.hops[0]?.text).toContain('auto-allocated');
    const headless = trace(objs, { from: 'a/client', to: 'hl:8080' }).hops[0]!.text;
    expect(headless).toContain('10.0.0.2');
    expect(headless).toContain('pod IPs');
    // The name resolves to pod IPs, so the connection is addressed to the pod (no Service port mapping).
    expect(trace(objs, { from: 'a/client', to: 'hl:8080' }).hops.at(-1)).toMatchObject({ component: 'app', pod: 'a/server', port: 8080 });
  });

  it('a DNS ServiceEntry without endpoints: ztunnel resolves the host itself and sends plain TCP out', () => {
    const auto = trace([...base(), se('auto', 'a', { hosts: ['auto.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' })], {
      from: 'a/client',
      to: 'auto.example.com:80',
    });
    const implicit = one(auto, (h) => h.component === 'ztunnel-outbound' && h.text.includes('implicit'));
    expect(implicit).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(implicit.text).toContain('a/auto');
    expect(implicit.text).toContain('auto.example.com');
    const out = auto.hops.filter((h) => h.component === 'external');
    expect(out[0]).toMatchObject({ actor: 'ztunnel@n1', node: 'n1', port: 80, protocol: 'plaintext' });
    expect(out[0]?.text).toContain('auto.example.com');
    expect(out[0]?.text).toContain('10.0.0.1');
    expect(out[1]).toMatchObject({ actor: 'a/client' });
    expect(out[1]?.text).toContain('no policy');
    expect(auto.clientSees).toBe('the external response');
    expect(
      trace([...base(), se('auto', 'a', { hosts: ['auto.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' })], {
        from: 'a/client',
        to: 'auto.example.com:80',
        request: 'TCP',
      }).clientSees,
    ).toBe('an open connection');
  });

  it('bug fix: a ServiceEntry without an address is forwarded upstream and passed through (dns/server.rs drops services without a VIP)', () => {
    const objs = [...base(), se('wild', 'a', { hosts: ['*.example.org'], ports: [{ number: 443, name: 'tls', protocol: 'TLS' }] })];
    const r = trace(objs, { from: 'a/client', to: 'www.example.org:443' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops[0]).toMatchObject({ component: 'dns', actor: 'ztunnel@n1', port: 15053 });
    expect(r.hops[0]?.text).toContain('a/wild');
    expect(r.hops[0]?.text).toContain('upstream');
    expect(r.hops.at(-1)).toMatchObject({ component: 'external', actor: 'a/client' });
    expect(r.hops.at(-1)?.text).toContain('www.example.org');
    expect(r.clientSees).toBe('whatever the external host answers');
    expect(r.enforcement).toEqual([]);
    // A headless Service without ready endpoints is in the cluster domain: ztunnel answers no records.
    const hl = trace([...base(), svc('a', 'hl', 'None', { selector: { app: 'nothing' } })], { from: 'a/client', to: 'hl:80' });
    expect(hl.result).toBe('ERROR');
    expect(hl.hops).toHaveLength(1);
    expect(hl.hops[0]?.text).toContain('a/hl');
    expect(hl.hops[0]?.text).toContain('no records');
    expect(hl.error).toContain('hl');
  });

  it('without DNS capture: cluster DNS answers Services; a headless one without endpoints is an error; a ServiceEntry host gets no record', () => {
    const noCapture = { annotations: { 'ambient.istio.io/dns-capture': 'false' } };
    const objs = [
      ns('a', AMB_LABELS),
      pod('a', 'client', '10.0.0.1', noCapture),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2'),
      svc('a', 'hl', 'None', { selector: { app: 'nothing' } }),
      se('api', 'a', {
        hosts: ['api.example.com'],
        addresses: ['240.1.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
    ];
    const ok = trace(objs, { from: 'a/client', to: 'server:80' });
    expect(ok.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS', node: 'n1', pod: 'a/client', protocol: 'DNS' });
    expect(ok.hops[0]?.text).toContain('10.96.0.2');
    expect(ok.hops[0]?.text).toContain('DNS capture is off');
    const hl = trace(objs, { from: 'a/client', to: 'hl:80' });
    expect(hl.result).toBe('ERROR');
    expect(hl.error).toContain('a/hl');
    const hlOk = trace([...objs, svc('a', 'hl2', 'None', { selector: { app: 'server' } })], { from: 'a/client', to: 'hl2:8080' });
    expect(hlOk.hops[0]?.text).toContain('10.0.0.2');
    expect(hlOk.hops.at(-1)).toMatchObject({ component: 'app', pod: 'a/server', port: 8080 });
    expect(hl.hops).toEqual([]);
    const ext = trace(objs, { from: 'a/client', to: 'api.example.com:80' });
    expect(ext.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS', pod: 'a/client', node: 'n1', protocol: 'DNS' });
    expect(ext.hops[0]?.text).toContain('a/api');
    expect(ext.hops.at(-1)).toMatchObject({ component: 'external', actor: 'a/client' });
    expect(ext.hops.at(-1)?.text).toContain('api.example.com:80');
    expect(ext.hops.some((h) => h.text.includes('240.1.0.1'))).toBe(false);
    expect(ext.clientSees).toBe('whatever the external host answers');
    // An uncaptured client's cluster DNS lookup does not mention DNS capture.
    const legacy = trace([...objs, ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'p/legacy', to: 'server.a:80' });
    expect(legacy.hops[0]?.text).not.toContain('capture');
    expect(legacy.hops[0]?.text).toContain('10.96.0.2');
  });
});

describe('client side: the source ztunnel (outbound.rs)', () => {
  it('the redirect to :15001 and the HBONE leg name the addresses, the identities and the CONNECT authority', () => {
    const r = trace(base(), { from: 'a/client', to: 'server:80' });
    const redirect = one(r, (h) => h.port === 15001);
    expect(redirect).toMatchObject({ component: 'ztunnel-outbound', actor: 'ztunnel@n1', node: 'n1', pod: 'a/client' });
    expect(redirect.text).toContain('10.96.0.2:80');
    expect(redirect.text).toContain('client');
    const hbone = one(r, (h) => h.component === 'ztunnel-outbound' && h.port === 15008);
    expect(hbone).toMatchObject({ actor: 'ztunnel@n1', node: 'n1', protocol: 'HBONE mTLS' });
    expect(hbone.text).toContain('10.0.0.2:15008');
    expect(hbone.text).toContain(CLIENT_ID);
    expect(hbone.text).toContain(SERVER_ID);
    expect(hbone.text).toContain(':authority 10.0.0.2:8080');
  });

  it('no endpoint: the hop names the Service and says whether the port is undeclared or unserved', () => {
    const undeclared = trace(base(), { from: 'a/client', to: 'server:81' });
    const h = undeclared.hops.at(-1)!;
    expect(h).toMatchObject({ component: 'ztunnel-outbound', actor: 'ztunnel@n1', node: 'n1' });
    expect(h.text).toContain('a/server');
    expect(h.text).toContain('declares no port 81');
    expect(undeclared.error).toContain('server:81');
    expect(undeclared.error).toContain('ztunnel@n1');
    const empty = trace([ns('a', AMB_LABELS), pod('a', 'client', '10.0.0.1'), svc('a', 'empty', '10.96.0.9')], { from: 'a/client', to: 'empty:80' });
    expect(empty.hops.at(-1)?.text).toContain('no healthy endpoint serves port 80');
  });

  it('PASSTHROUGH (resolution NONE): plain TCP to the original address, named', () => {
    const r = trace(
      [...base(), se('pt', 'a', { hosts: ['pt.example.com'], addresses: ['240.1.0.2'], ports: [{ number: 443, name: 'tls', protocol: 'TLS' }] })],
      { from: 'a/client', to: 'pt.example.com:443' },
    );
    const h = r.hops.at(-1)!;
    expect(h).toMatchObject({ component: 'external', actor: 'ztunnel@n1', node: 'n1', port: 443, protocol: 'plaintext' });
    expect(h.text).toContain('a/pt');
    expect(h.text).toContain('240.1.0.2:443');
    expect(h.text).toContain('10.0.0.1');
    expect(r.clientSees).toBe('whatever the destination answers');
  });

  it('a plain-TCP endpoint: ztunnel opens TCP with the source IP', () => {
    const objs = [...base(), ns('p'), pod('p', 'legacy', '10.0.5.5', { node: 'n5' }), svc('p', 'legacy', '10.96.5.5')];
    const r = trace(objs, { from: 'a/client', to: 'legacy.p:80' });
    const h = one(r, (x) => x.component === 'ztunnel-outbound' && x.protocol === 'plaintext');
    expect(h).toMatchObject({ actor: 'ztunnel@n1', node: 'n1', port: 8080 });
    expect(h.text).toContain('10.0.5.5:8080');
    expect(h.text).toContain('10.0.0.1');
    expect(r.hops.at(-1)).toMatchObject({ component: 'app', pod: 'p/legacy', node: 'n5' });
  });

  it('addressed by pod IP: the hop says so, with the workload and its protocol', () => {
    const r = trace([...base(), ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'a/client', to: '10.0.0.2:8080' });
    const lookup = one(r, (h) => h.component === 'ztunnel-outbound' && h.text.includes('workload'));
    expect(lookup).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(lookup.text).toContain('server');
    expect(lookup.text).toContain('HBONE');
    const hbone = one(r, (h) => h.component === 'ztunnel-outbound' && h.port === 15008);
    expect(hbone).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(hbone.text).toContain('10.0.0.2:15008');
    expect(hbone.text).toContain(CLIENT_ID);
    expect(hbone.text).toContain(SERVER_ID);
    expect(hbone.text).toContain(':authority 10.0.0.2:8080');
    const plain = trace([...base(), ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'a/client', to: '10.0.5.5:8080' });
    const ph = one(plain, (h) => h.component === 'ztunnel-outbound' && h.protocol === 'plaintext');
    expect(ph).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(ph.text).toContain('10.0.5.5:8080');
    expect(ph.text).toContain('10.0.0.1');
    const unknown = trace(base(), { from: 'a/client', to: '192.0.2.1:443' }).hops.at(-1)!;
    expect(unknown).toMatchObject({ actor: 'ztunnel@n1', node: 'n1' });
    expect(unknown.text).toContain('192.0.2.1:443');
    expect(unknown.text).toContain('10.0.0.1');
    expect(trace(base(), { from: 'a/client', to: '192.0.2.1:443' }).clientSees).toBe('whatever the destination answers');
  });

  it('a waypoint pod addressed by its IP is not sent to its own waypoint', () => {
    const objs = [
      ns('a', WP_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a', 'waypoint', 'all'),
    ];
    const { view } = loadMesh([{ path: 'm.yaml', text: objs.map((o) => JSON.stringify(o)).join('\n---\n') }]);
    const model = buildAmbientModel(view, {});
    const wp = model.cluster.pods.find((p) => p.waypointOf === 'a/waypoint')!;
    const r = traceRequest(view, model, { from: 'a/client', to: `${wp.ips[0]}:15008` });
    expect(r.waypointUsed).toBeNull();
  });

  it('bug fix: a waypoint whose only pod is not ready is no upstream (ztunnel load-balances over healthy endpoints)', () => {
    const wpPod = pod('a', 'waypoint-abc', '10.0.0.9', { ready: false, sa: 'waypoint', labels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' } });
    const r = trace([...withWaypoint(), wpPod], { from: 'a/client', to: 'server:80' });
    expect(r.waypointUsed).toBe('a/waypoint');
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('a/waypoint');
    const h = r.hops.at(-1)!;
    expect(h).toMatchObject({ component: 'waypoint', actor: 'waypoint a/waypoint', waypoint: 'a/waypoint' });
    expect(h.text).toContain('ztunnel@n1');
    expect(r.enforcement).toEqual([]);
    // Ready, it is used.
    const ready = trace(
      [...withWaypoint(), pod('a', 'waypoint-abc', '10.0.0.9', { sa: 'waypoint', labels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' } })],
      { from: 'a/client', to: 'server:80' },
    );
    expect(ready.result).toBe('ALLOW');
    expect(one(ready, (x) => x.component === 'waypoint' && x.actor === 'ztunnel@n1').text).toContain('10.0.0.9:15008');
  });
});

describe('client side: a sidecar or a gateway', () => {
  const SC = () => [
    ...base(),
    ns('s', { 'istio-injection': 'enabled' }),
    pod('s', 'sc', '10.0.3.1'),
    pod('s', 'web', '10.0.3.2', { node: 'n3' }),
    svc('s', 'web', '10.96.3.2'),
  ];
  const SC_ID = 'spiffe://cluster.local/ns/s/sa/sc';

  it('the sidecar picks the endpoint from its own EDS and tunnels HBONE to an ambient pod', () => {
    const r = trace(SC(), { from: 's/sc', to: 'server.a:80' });
    const pick = one(r, (h) => h.component === 'sidecar-outbound' && h.text.includes('picks'));
    expect(pick).toMatchObject({ actor: 'sidecar s/sc', node: 'n1', pod: 's/sc' });
    expect(pick.text).toContain('sc');
    expect(pick.text).toContain('server');
    expect(pick.text).not.toContain('waypoint');
    const tunnel = one(r, (h) => h.component === 'sidecar-outbound' && h.port === 15008);
    expect(tunnel).toMatchObject({ actor: 'sidecar s/sc', node: 'n1', pod: 's/sc' });
    expect(tunnel.text).toContain('ambient');
    expect(tunnel.text).toContain('10.0.0.2:15008');
    expect(tunnel.text).toContain(SC_ID);
    expect(tunnel.text).toContain('sidecar');
    expect(r.notes.some((n) => n.includes('sidecar') && n.includes('not simulated'))).toBe(true);
    expect(r.notes.some((n) => n.includes('gateway'))).toBe(false);
  });

  it('to a sidecar: HBONE names a sidecar with HBONE; Istio mTLS and plaintext legs name the address and the identity', () => {
    const hb = one(trace(SC(), { from: 's/sc', to: 'web:80' }), (h) => h.component === 'sidecar-outbound' && h.port === 15008);
    expect(hb.text).toContain('a sidecar with HBONE');
    const mtls = one(
      trace(SC(), { from: 's/sc', to: 'web:80' }, { sidecarHbone: false }),
      (h) => h.protocol === 'Istio mTLS' && h.component === 'sidecar-outbound',
    );
    expect(mtls).toMatchObject({
      actor: 'sidecar s/sc',
      node: 'n1',
      pod: 's/sc',
      port: 8080,
      identity: SC_ID,
      peerIdentity: 'spiffe://cluster.local/ns/s/sa/web',
    });
    expect(mtls.text).toContain('10.0.3.2:8080');
    expect(mtls.text).toContain(SC_ID);
    const toAmbient = one(
      trace(SC(), { from: 's/sc', to: 'server.a:80' }, { sidecarHbone: false }),
      (h) => h.protocol === 'plaintext' && h.component === 'sidecar-outbound',
    );
    expect(toAmbient).toMatchObject({ actor: 'sidecar s/sc', node: 'n1', pod: 's/sc' });
    expect(toAmbient.text).toContain('ambient but this proxy has no HBONE');
    expect(toAmbient.text).toContain('10.0.0.2:8080');
    const toPlain = one(
      trace([...SC(), ns('p'), pod('p', 'legacy', '10.0.5.5'), svc('p', 'legacy', '10.96.5.5')], { from: 's/sc', to: 'legacy.p:80' }),
      (h) => h.protocol === 'plaintext' && h.component === 'sidecar-outbound',
    );
    expect(toPlain.text).toContain('not in the mesh');
    expect(toPlain.text).toContain('legacy');
  });

  it('the destination sidecar sees the Service (host attribute) on HBONE and on Istio mTLS legs', () => {
    const deny = ap('deny-host', 's', {
      selector: { matchLabels: { app: 'web' } },
      action: 'DENY',
      rules: [{ to: [{ operation: { hosts: ['web.s.svc.cluster.local'] } }] }],
    });
    expect(trace([...SC(), deny], { from: 's/sc', to: 'web:80' }).deniedAt?.policy).toBe('s/deny-host');
    expect(trace([...SC(), deny], { from: 's/sc', to: 'web:80' }, { sidecarHbone: false }).deniedAt?.policy).toBe('s/deny-host');
  });

  it('istio.io/ingress-use-waypoint is for gateways: a sidecar still skips the waypoint', () => {
    const objs = [
      ns('a', WP_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2', { labels: { 'istio.io/ingress-use-waypoint': 'true' } }),
      waypoint('a'),
      ns('s', { 'istio-injection': 'enabled' }),
      pod('s', 'sc', '10.0.3.1'),
    ];
    expect(trace(objs, { from: 's/sc', to: 'server.a:80' }).waypointUsed).toBeNull();
  });

  it('a Service waypoint is skipped, and the hop says why', () => {
    const objs = [
      ns('a', WP_LABELS),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
      ns('s', { 'istio-injection': 'enabled' }),
      pod('s', 'sc', '10.0.3.1'),
    ];
    const pick = one(trace(objs, { from: 's/sc', to: 'server.a:80' }), (h) => h.component === 'sidecar-outbound' && h.text.includes('picks'));
    expect(pick.text).toContain('a/waypoint');
    expect(pick.text).toContain('sidecars never use waypoints');
  });

  it('no endpoint is an HTTP 503 from the sidecar; an IP is sent to directly; an unknown one passes through', () => {
    const err = trace(SC(), { from: 's/sc', to: 'web:81' });
    expect(err.error).toContain('sidecar s/sc');
    expect(err.error).toContain('web:81');
    expect(err.error).toContain('503');
    const byIp = trace(SC(), { from: 's/sc', to: '10.0.0.2:8080' });
    const h = one(byIp, (x) => x.component === 'sidecar-outbound' && x.protocol === undefined);
    expect(h).toMatchObject({ actor: 'sidecar s/sc', node: 'n1', pod: 's/sc' });
    expect(h.text).toContain('10.0.0.2:8080');
    expect(h.text).toContain('server');
    const unknown = trace(SC(), { from: 's/sc', to: '192.0.2.1:80' });
    expect(unknown.hops.at(-1)).toMatchObject({ component: 'external', actor: 'sidecar s/sc', node: 'n1' });
    expect(unknown.hops.at(-1)?.text).toContain('192.0.2.1:80');
    expect(unknown.clientSees).toBe('whatever the destination answers');
    const ext = trace(SC(), { from: 's/sc', to: 'unknown.example.net:443' });
    expect(ext.hops.at(-1)).toMatchObject({ component: 'external', actor: 's/sc' });
    expect(ext.hops.at(-1)?.text).toContain('unknown.example.net');
    expect(ext.clientSees).toBe('whatever the external host answers');
  });

  it("a ServiceEntry host: the sidecar uses the entry's VIP and endpoints", () => {
    const objs = [
      ...SC(),
      se('api', 's', {
        hosts: ['api.example.com'],
        addresses: ['240.3.0.1'],
        ports: [{ number: 80, name: 'http', protocol: 'HTTP' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.7' }],
      }),
    ];
    const r = trace(objs, { from: 's/sc', to: 'api.example.com:80' });
    expect(one(r, (h) => h.component === 'sidecar-outbound' && h.text.includes('picks')).text).toContain('api (ServiceEntry)');
    expect(one(r, (h) => h.component === 'sidecar-outbound' && h.protocol === 'plaintext').text).toContain('203.0.113.7:80');
  });

  it('bug fix: a DNS ServiceEntry endpoint named by host is resolved by the sidecar and reached outside the mesh', () => {
    const objs = [
      ...SC(),
      se('api', 's', { hosts: ['api.example.com'], addresses: ['240.3.0.1'], ports: [{ number: 80, name: 'http', protocol: 'HTTP' }], resolution: 'DNS' }),
    ];
    const r = trace(objs, { from: 's/sc', to: 'api.example.com:80' });
    expect(r.result).toBe('ALLOW');
    const out = r.hops.at(-1)!;
    expect(out).toMatchObject({ component: 'external', actor: 'sidecar s/sc', node: 'n1', pod: 's/sc', port: 80, protocol: 'plaintext' });
    expect(out.text).toContain('api.example.com');
    expect(out.text).toContain(':80');
    expect(r.clientSees).toBe('the external response');
    expect(r.enforcement).toEqual([]);
    expect(trace(objs, { from: 's/sc', to: 'api.example.com:80', request: 'TCP' }).clientSees).toBe('an open connection');
  });
});

describe('client side: an uncaptured pod', () => {
  const PLAIN = () => [...base(), ns('p'), pod('p', 'legacy', '10.0.5.5')];

  it('a ServiceEntry address goes out as plain egress, named', () => {
    const objs = [
      ...PLAIN(),
      se('api', 'a', {
        hosts: ['api.example.com'],
        addresses: ['240.1.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
    ];
    const r = trace(objs, { from: 'p/legacy', to: '240.1.0.1:80' });
    expect(r.hops).toHaveLength(1);
    expect(r.hops[0]).toMatchObject({ component: 'external', actor: 'p/legacy' });
    expect(r.hops[0]?.text).toContain('240.1.0.1:80');
    expect(r.hops[0]?.text).toContain('api.example.com');
    expect(r.clientSees).toBe('whatever the destination answers');
  });

  it('no endpoint: kube-proxy refuses; the Service waypoint is named as skipped; a pod IP and an outside IP are named', () => {
    expect(trace(PLAIN(), { from: 'p/legacy', to: 'server.a:81' }).error).toContain('server:81');
    const objs = [
      ns('a', WP_LABELS),
      pod('a', 'server', '10.0.0.2', { node: 'n2' }),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
    ];
    const kp = one(trace(objs, { from: 'p/legacy', to: 'server.a:80' }), (h) => h.component === 'kube-proxy');
    expect(kp).toMatchObject({ node: 'n1', pod: 'p/legacy', port: 8080, protocol: 'plaintext' });
    expect(kp.text).toContain('a/waypoint');
    const byIp = trace(PLAIN(), { from: 'p/legacy', to: '10.0.0.2:8080' });
    expect(byIp.hops[0]).toMatchObject({ component: 'client', actor: 'p/legacy', node: 'n1', pod: 'p/legacy' });
    expect(byIp.hops[0]?.text).toContain('10.0.0.2:8080');
    const out = trace(PLAIN(), { from: 'p/legacy', to: '192.0.2.1:80' });
    expect(out.hops.at(-1)).toMatchObject({ component: 'external', actor: 'p/legacy' });
    expect(out.hops.at(-1)?.text).toContain('192.0.2.1:80');
    expect(out.clientSees).toBe('whatever the destination answers');
  });
});

describe('the kube-proxy hop names its Service (the diagram draws the path through the Service box by it)', () => {
  it('bug fix: the hop text carries namespace/name of the Service it DNATs for', () => {
    const r = trace([...base(), ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'p/legacy', to: 'server.a:80' });
    expect(one(r, (h) => h.component === 'kube-proxy').text).toContain('a/server');
  });
});

describe('client side: an ingress gateway', () => {
  const gwObjs = (svcLabels: Record<string, string>) => [
    ns('a', WP_LABELS),
    pod('a', 'server', '10.0.0.2', { node: 'n2' }),
    svc('a', 'server', '10.96.0.2', { labels: svcLabels }),
    waypoint('a'),
  ];
  const run = (svcLabels: Record<string, string>, to = 'server.a:80', extra: object[] = []) => {
    const text = [...gwObjs(svcLabels), ...extra].map((o) => JSON.stringify(o)).join('\n---\n') + `\n---\n${istioGateway('a', 'web', [['http', 80]])}`;
    const { view } = loadMesh([{ path: 'm.yaml', text }]);
    const model = buildAmbientModel(view, {});
    const gw = model.cluster.pods.find((p) => p.role === 'gateway' && p.namespace === 'a')!;
    return { gw, r: traceRequest(view, model, { from: gw.key, to }) };
  };

  it('a ServiceEntry host: the gateway uses the entry (its own DNS view), not plain egress', () => {
    const { r } = run({}, 'api.example.com:80', [
      se('api', 'a', {
        hosts: ['api.example.com'],
        addresses: ['240.1.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.1' }],
      }),
    ]);
    expect(one(r, (h) => h.component === 'gateway' && h.text.includes('picks')).text).toContain('api (ServiceEntry)');
  });

  it('without istio.io/ingress-use-waypoint the waypoint is skipped, and the hops say gateway, never sidecar', () => {
    const { gw, r } = run({});
    const pick = one(r, (h) => h.component === 'gateway' && h.text.includes('picks'));
    expect(pick).toMatchObject({ actor: `gateway ${gw.key}`, node: gw.node, pod: gw.key });
    expect(pick.text).toContain('gateway Envoy');
    expect(pick.text).toContain('a/waypoint');
    expect(pick.text).toContain('no istio.io/ingress-use-waypoint=true');
    expect(pick.text).not.toContain('sidecar');
    const tunnel = one(r, (h) => h.component === 'gateway' && h.port === 15008);
    expect(tunnel.text).toContain('gateway tunnels');
    expect(tunnel.text).toContain('10.0.0.2:15008');
    expect(tunnel.text).toContain(gw.identity);
    expect(r.notes.some((n) => n.includes('The gateway'))).toBe(true);
    expect(r.notes.some((n) => n.includes('sidecar'))).toBe(false);
  });

  it('with istio.io/ingress-use-waypoint=true the gateway sends to the waypoint with its own identity', () => {
    const { gw, r } = run({ 'istio.io/ingress-use-waypoint': 'true' });
    const h = one(r, (x) => x.component === 'gateway' && x.text.includes('ingress-use-waypoint'));
    expect(h).toMatchObject({ actor: `gateway ${gw.key}`, node: gw.node, pod: gw.key });
    expect(h.text).toContain('a/server');
    expect(h.text).toContain('a/waypoint');
    const toWp = one(r, (x) => x.component === 'waypoint' && x.actor === `gateway ${gw.key}`);
    expect(toWp).toMatchObject({ identity: gw.identity, peerIdentity: WP_ID });
    expect(toWp.text).toContain(':authority 10.96.0.2:80');
    expect(r.enforcement[0]).toMatchObject({ point: 'waypoint a/waypoint', sourceIdentity: gw.identity });
  });
});

describe('policy checks link to their own resource (l4Checks)', () => {
  it('same-named policies of two namespaces, and converted PeerAuthentications, each link to their own', () => {
    const paPorts = {
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'server-ports', namespace: 'a' },
      spec: { selector: { matchLabels: { app: 'server' } }, mtls: { mode: 'STRICT' }, portLevelMtls: { '9090': { mode: 'PERMISSIVE' } } },
    };
    const paOther = {
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'zz-other', namespace: 'a' },
      spec: { selector: { matchLabels: { app: 'server' } }, mtls: { mode: 'STRICT' }, portLevelMtls: { '9191': { mode: 'PERMISSIVE' } } },
    };
    const objs = [
      ...base(),
      ns('istio-system'),
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
      ap('p', 'istio-system', { action: 'DENY', rules: [{ from: [{ source: { namespaces: ['nowhere'] } }] }] }),
      ap('p', 'a', { action: 'DENY', rules: [{ from: [{ source: { namespaces: ['nowhere'] } }] }] }),
      paPorts,
      paOther,
    ];
    const r = trace(objs, { from: 'p/legacy', to: 'server.a:80' });
    const checks = decided(r).policies ?? [];
    const byKey = new Map(checks.map((c) => [c.key, c.resourceKey]));
    expect(byKey.get('a/p')).toMatch(/AuthorizationPolicy\/a\/p$/);
    expect(byKey.get('istio-system/p')).toMatch(/AuthorizationPolicy\/istio-system\/p$/);
    const converted = checks.filter((c) => c.key.includes('converted_peer_authentication'));
    expect(converted.length).toBeGreaterThan(0);
    for (const c of converted) expect(c.resourceKey).toMatch(new RegExp(`PeerAuthentication/a/${c.key.split('converted_peer_authentication_')[1]}$`));
  });
});

describe('a name resolves to its own Service even when its VIP is shared', () => {
  it('server.b from namespace a reaches b/server although a/server has the same ClusterIP (with and without DNS capture)', () => {
    const objs = (clientAnnotations: Record<string, string>) => [
      ns('a', AMB_LABELS),
      ns('b', AMB_LABELS),
      pod('a', 'client', '10.0.0.1', { annotations: clientAnnotations }),
      pod('a', 'server', '10.0.0.2'),
      pod('b', 'server', '10.0.1.2'),
      svc('a', 'server', '10.96.0.2'),
      svc('b', 'server', '10.96.0.2'),
    ];
    expect(trace(objs({}), { from: 'a/client', to: 'server.b:80' }).hops.at(-1)?.pod).toBe('b/server');
    expect(trace(objs({ 'ambient.istio.io/dns-capture': 'false' }), { from: 'a/client', to: 'server.b:80' }).hops.at(-1)?.pod).toBe('b/server');
  });
});
