// The destination side of a trace: the arriving connection at the chosen workload (ztunnel inbound.rs, a sidecar's inbound, or the bare app).
import { KINDS } from '../../document/kinds.ts';
import { applicablePolicies, effectiveMtls, evaluateL4 } from '../authz.ts';
import { evaluateEnvoy } from '../envoyAuthz.ts';
import type { PolicyCheck } from './request.ts';
import {
  type Tracer,
  type Delivery,
  ztunnelAt,
  podOfWorkload,
  portOf,
  wlName,
  sidecarPolicies,
  envoyChecks,
  l4Checks,
  chainFor,
  requestWords,
} from './tracer.ts';

/** The destination side: the arriving connection at the chosen workload. */
export function deliver(t: Tracer, d: Delivery): void {
  const { model, view, req } = t;
  const pod = podOfWorkload(d.workload);
  const port = d.service ? portOf(d.service, d.servicePort) : undefined;
  if (!pod) {
    t.hop({ component: 'external', actor: wlName(d.workload), text: `${wlName(d.workload)} is not a pod of the cluster: no destination ztunnel, no policy.` });
    t.clientSees = req.http ? 'the upstream response' : 'the connection';
    return;
  }
  const node = pod.node;
  if (pod.mode === 'ambient') {
    const zt = ztunnelAt(node);
    if (d.transport === 'plaintext' && pod.bypassInboundCapture) {
      t.hop({
        component: 'app',
        actor: pod.key,
        pod: pod.key,
        node,
        port: d.targetPort,
        protocol: 'plaintext',
        text: `${pod.name} has ambient.istio.io/bypass-inbound-capture=true: inbound plaintext to ${d.targetIp}:${d.targetPort} is not redirected, so it reaches the app unchecked (no ztunnel, no policy).`,
      });
      t.clientSees = req.http ? 'the application response' : 'an open connection';
      return;
    }
    const hbone = d.transport === 'hbone' || d.transport === 'istio-mtls';
    const listener = hbone ? 15008 : 15006;
    const point = hbone ? `${zt} inbound` : `${zt} inbound plaintext :15006`;
    if (hbone) {
      t.hop({
        component: 'ztunnel-inbound',
        actor: zt,
        node,
        pod: pod.key,
        port: 15008,
        protocol: 'HBONE mTLS',
        identity: pod.identity,
        peerIdentity: d.peerIdentity,
        text: `${zt} inbound :15008 (listener inside ${pod.name} netns) presents ${pod.identity}; peer ${d.peerIdentity ?? 'none'} from ${d.srcIp}; CONNECT target ${d.targetIp}:${d.targetPort}`,
      });
    } else {
      t.hop({
        component: 'ztunnel-inbound',
        actor: zt,
        node,
        pod: pod.key,
        port: 15006,
        protocol: 'plaintext',
        peerIdentity: null,
        text: `in ${pod.name}'s netns, inbound TCP to a port other than 15008 is redirected to ${zt} :15006 (inbound plaintext); ${d.targetIp}:${d.targetPort} from ${d.srcIp}, no peer identity`,
      });
    }
    const keys = d.workload.json.authorizationPolicies ?? [];
    const policies = applicablePolicies(model.ztunnel.policies, pod.namespace, keys);
    const dec = evaluateL4(policies, { srcIp: d.srcIp, dstIp: d.targetIp, dstPort: d.targetPort, srcIdentity: d.peerIdentity });
    const names = policies.map((p) => `${p.namespace}/${p.name}`);
    const checks = l4Checks(model, dec);
    const describe =
      names.length === 0
        ? '[]'
        : checks
            .map(
              (c) =>
                `${c.key} (${c.action.toUpperCase()}${c.scope && c.scope !== 'WorkloadSelector' ? `, ${c.scope}` : ''}): ${c.matched ? 'matches' : 'no match'}`,
            )
            .join('; ');
    t.hop({
      component: 'ztunnel-inbound',
      actor: zt,
      node,
      pod: pod.key,
      port: listener,
      peerIdentity: d.peerIdentity,
      policies: checks,
      decision: dec.decision,
      text: `${zt} L4 authorization for ${pod.key}: src ${d.peerIdentity ?? 'no identity'}, src IP ${d.srcIp}, dst port ${d.targetPort} (the target port); policies ${describe} -> ${dec.decision}${dec.decision === 'DENY' ? ` (${dec.why})` : ''}`,
    });
    t.enforcement.push({ point, listener, layer: 'L4', sourceIdentity: d.peerIdentity, policies: names, decision: dec.decision, why: dec.why });
    if (dec.decision === 'DENY') {
      const seen = d.viaWaypoint
        ? req.http
          ? `HTTP 503 from waypoint ${d.viaWaypoint} (its upstream CONNECT is refused with 401)`
          : 'the connection is reset'
        : hbone
          ? 'connection reset (ztunnel answers 401 to the CONNECT; curl exit 56)'
          : 'connection closed (curl exit 56)';
      t.deny(point, 'L4', seen, {
        listener,
        ...(dec.policy ? { policy: dec.policy } : {}),
        ...(dec.policyScope && dec.policy ? { scope: dec.policyScope } : {}),
      });
      return;
    }
    t.hop({
      component: 'app',
      actor: pod.key,
      node,
      pod: pod.key,
      port: d.targetPort,
      text: `${zt} connects ${d.targetIp}:${d.targetPort} from source IP ${d.srcIp} (original source preserved)${hbone ? ' and returns 200 to the CONNECT' : ''}`,
    });
    t.clientSees = req.http ? 'the application response (e.g. HTTP 200)' : 'an open connection';
    return;
  }
  if (pod.mode === 'sidecar') {
    const point = `sidecar ${pod.key}`;
    const how =
      d.transport === 'hbone'
        ? `terminates HBONE on ${d.targetIp}:15008`
        : d.transport === 'istio-mtls'
          ? `terminates Istio mTLS on ${d.targetIp}:${d.targetPort}`
          : `receives plaintext on ${d.targetIp}:${d.targetPort}`;
    t.hop({
      component: 'sidecar-inbound',
      actor: point,
      node,
      pod: pod.key,
      port: d.transport === 'hbone' ? 15008 : d.targetPort,
      protocol: d.transport === 'plaintext' ? 'plaintext' : d.transport === 'hbone' ? 'HBONE mTLS' : 'Istio mTLS',
      identity: pod.identity,
      peerIdentity: d.peerIdentity,
      text: `${pod.name}'s sidecar Envoy ${how}; peer ${d.peerIdentity ?? 'none'}`,
    });
    const mtls = effectiveMtls(model.ztunnel.policies, pod.namespace, pod.labels);
    if (d.transport === 'plaintext' && mtls.mode === 'STRICT') {
      const check: PolicyCheck = {
        key: mtls.from ?? '',
        resourceKey: `${KINDS.PeerAuthentication.id}/${mtls.from ?? ''}`,
        action: 'STRICT',
        matched: true,
        why: 'plaintext is rejected under STRICT mTLS',
      };
      t.hop({
        component: 'sidecar-inbound',
        actor: point,
        node,
        pod: pod.key,
        policies: [check],
        decision: 'DENY',
        text: `PeerAuthentication ${mtls.from} makes ${pod.key} STRICT: the sidecar rejects the plaintext connection`,
      });
      t.enforcement.push({ point, layer: 'L4', sourceIdentity: null, policies: [mtls.from ?? ''], decision: 'DENY', why: 'STRICT mTLS rejects plaintext' });
      t.deny(point, 'L4', 'connection reset (TLS required)', { ...(mtls.from ? { policy: mtls.from } : {}) });
      return;
    }
    const chain = chainFor(port?.protocol, req);
    const policies = sidecarPolicies(view, model, pod);
    const dec = evaluateEnvoy(policies, {
      http: chain.http,
      method: req.method,
      path: req.path,
      host: d.service ? `${d.service.hostname}:${d.servicePort}` : `${d.targetIp}:${d.targetPort}`,
      headers: req.headers,
      sourceIdentity: d.peerIdentity,
      sourceIp: d.srcIp,
      destinationIp: d.targetIp,
      destinationPort: d.targetPort,
    });
    t.notes.push(...dec.notes);
    const layer = chain.http ? 'L7' : 'L4';
    t.hop({
      component: 'sidecar-inbound',
      actor: point,
      node,
      pod: pod.key,
      policies: envoyChecks(dec),
      decision: dec.decision,
      text: `${pod.name}'s sidecar authorization (${policies.length === 0 ? 'no policies' : policies.map((p) => `${p.namespace}/${p.name}`).join(', ')}): ${d.peerIdentity ? `principal ${d.peerIdentity.slice('spiffe://'.length)}` : 'no principal'}, ${requestWords(req, chain.http)} -> ${dec.decision}`,
    });
    t.enforcement.push({
      point,
      layer,
      sourceIdentity: d.peerIdentity,
      policies: policies.map((p) => `${p.namespace}/${p.name}`),
      decision: dec.decision,
      why: dec.why,
    });
    if (dec.decision === 'DENY') {
      t.deny(point, layer, chain.http ? "HTTP 403 'RBAC: access denied' from the sidecar" : 'connection closed', dec.policy ? { policy: dec.policy } : {});
      return;
    }
    t.hop({ component: 'app', actor: pod.key, node, pod: pod.key, port: d.targetPort, text: `the sidecar forwards to the app on 127.0.0.1:${d.targetPort}` });
    t.clientSees = req.http ? 'the application response (e.g. HTTP 200)' : 'an open connection';
    return;
  }
  t.hop({
    component: 'app',
    actor: pod.key,
    node,
    pod: pod.key,
    port: d.targetPort,
    protocol: 'plaintext',
    text: `${pod.name} is not captured: no inbound ztunnel, no Istio policy; the app gets ${d.targetIp}:${d.targetPort} from ${d.srcIp}`,
  });
  t.clientSees = req.http ? 'the application response' : 'an open connection';
}
