// The description printed as `istioctl x describe pod|service` prints it (describe.go's
// printPod, printService, printDestinationRule, printVirtualService, printPeerAuthentication,
// printIngressInfo), from the structured description alone.
import { goQuote } from '../../go/fmt.ts';
import { DEFAULT_ISTIO_VERSION } from '../../xds/proxy.ts';
import type {
  DestinationRuleFacts,
  IngressFacts,
  PodDescription,
  RouteFact,
  ServiceDescription,
  ServiceOnlyDescription,
  StaleWarning,
  VirtualServiceFacts,
} from './types.ts';

const SEPARATOR = '--------------------';
const L1 = 3;
const L2 = 6;

/** istio.io's deployment requirements page for the istioctl version we follow (url.DeploymentRequirements). */
export const DEPLOYMENT_REQUIREMENTS = `https://istio.io/v${DEFAULT_ISTIO_VERSION.split('.').slice(0, 2).join('.')}/docs/ops/deployment/requirements/`;

function sp(n: number): string {
  return ' '.repeat(n);
}

function staleLine(s: StaleWarning): string {
  return s.kind === 'gateway'
    ? `WARNING: Proxy is stale; it references to non-existent gateway ${s.namespace}/${s.name}`
    : `WARNING: Proxy is stale; it references to non-existent ${s.kind} ${s.name}.${s.namespace}`;
}

function destinationRuleLines(dr: DestinationRuleFacts, init: number): string[] {
  const out = [`${sp(init)}DestinationRule: ${dr.kname} for ${goQuote(dr.host)}`];
  const matching = dr.subsets.filter((s) => s.matches).map((s) => s.name);
  const nonMatching = dr.subsets.filter((s) => !s.matches).map((s) => s.name);
  if (dr.subsets.length > 0) {
    if (matching.length === 0) out.push(`${sp(init + L1)}WARNING POD DOES NOT MATCH ANY SUBSETS.  (Non matching subsets ${nonMatching.join(',')})`);
    out.push(`${sp(init + L1)}Matching subsets: ${matching.join(',')}`);
    if (nonMatching.length > 0) out.push(`${sp(init + L2)}(Non-matching subsets ${nonMatching.join(',')})`);
  }
  const tp = dr.trafficPolicy;
  if (!tp) {
    out.push(`${sp(init + L1)}No Traffic Policy`);
    return out;
  }
  if (tp.tlsMode !== undefined) out.push(`${sp(init + L1)}Traffic Policy TLS Mode: ${tp.tlsMode}`);
  if (tp.policies.length > 0) out.push(`${sp(init + L1)}Policies: ${tp.policies.join('/')}`);
  if (tp.portLevel) {
    out.push(`${sp(init + L1)}Port Level Settings:`);
    for (const p of tp.portLevel) {
      // istioctl indents the port by four spaces whatever the level.
      out.push(`${sp(4)}${p.port}:`);
      if (p.tlsMode !== undefined) out.push(`${sp(init + L2)}TLS Mode: ${p.tlsMode}`);
      if (p.policies.length > 0) out.push(`${sp(init + L2)}Policies: ${p.policies.join('/')}`);
    }
  }
  return out;
}

export function routeFactText(f: RouteFact): string {
  switch (f.type) {
    case 'destination':
      return `Route to host "${f.host}"${f.subset !== '' ? ` subset "${f.subset}"` : ''} with weight ${f.weight}%`;
    case 'otherHost':
      return `Route to host "${f.host}" with weight ${f.weight}%`;
    case 'invalidConfig':
      return `Route to ${f.host} with invalid config`;
    case 'conditions':
      return [...(f.fault !== undefined ? [`Fault injection ${f.fault}`] : []), ...f.matches].join(', ');
    case 'tcpMatch':
      return f.text;
    case 'nonMatchingSubset':
      return `Route to non-matching subset ${f.subset} for (${f.matches})`;
    case 'noDestinationRule':
      return `Warning: Route to subset ${f.subset} but NO DESTINATION RULE defining subsets!`;
    case 'unknownSubset':
      return `Warning: Route to UNKNOWN subset ${f.subset}; check DestinationRule ${f.destinationRule}`;
  }
}

function virtualServiceLines(vs: VirtualServiceFacts, init: number): string[] {
  const out = [`${sp(init)}VirtualService: ${vs.kname}`];
  let printed = 0;
  const mismatch: string[] = [];
  for (const r of vs.routes) {
    if (r.reaches) {
      for (const f of r.facts) out.push(`${sp(init + L1)}${routeFactText(f)}`);
      printed += r.facts.length;
    } else mismatch.push(...r.facts.map(routeFactText));
  }
  const notes = () => mismatch.map((m) => `${sp(init + L2)}${m}`);
  if (vs.verdict === 'none') {
    if (vs.httpRoutes > 0) out.push(`${sp(init + L1)}WARNING: No destinations match pod subsets (checked ${vs.httpRoutes} HTTP routes)`);
    if (vs.tcpRoutes > 0) out.push(`${sp(init + L1)}WARNING: No destinations match pod subsets (checked ${vs.tcpRoutes} TCP routes)`);
    out.push(...notes());
    return out;
  }
  if (vs.verdict === 'some') {
    const reached = vs.routes.filter((r) => r.reaches).length;
    out.push(`${sp(init + L1)}${vs.httpRoutes + vs.tlsRoutes + vs.tcpRoutes - reached} additional destination(s) that will not reach this pod`);
    if (printed === 0) out.push(...notes());
    return out;
  }
  if (printed === 0) {
    if (vs.httpRoutes > 0) out.push(`${sp(init + L1)}${vs.httpRoutes} HTTP route(s)`);
    if (vs.tcpRoutes > 0) out.push(`${sp(init + L1)}${vs.tcpRoutes} TCP route(s)`);
  }
  return out;
}

/** describePodServices' lines for the Services (separated as istioctl separates them). */
function servicesLines(services: readonly ServiceDescription[]): string[] {
  const out: string[] = [];
  services.forEach((svc, row) => {
    if (row !== 0) out.push(SEPARATOR);
    out.push(`Service: ${svc.kname}`);
    for (const p of svc.ports) {
      if (p.skipped) continue;
      out.push(p.targetPort !== undefined ? `   Port: ${p.name} ${p.port}/${p.istioProtocol} targets pod port ${p.targetPort}` : `   ${p.error}`);
    }
    const multi = svc.byPort.length > 1;
    const init = multi ? L1 : 0;
    for (const port of svc.byPort) {
      if (multi) out.push(`${port.port}:`);
      const staleDr = port.stale.filter((s) => s.kind === 'destination rule');
      const staleVs = port.stale.filter((s) => s.kind === 'virtual service');
      if (port.destinationRule) out.push(...destinationRuleLines(port.destinationRule, init));
      out.push(...staleDr.map(staleLine));
      if (port.virtualService) out.push(...virtualServiceLines(port.virtualService, init));
      out.push(...staleVs.map(staleLine));
      if (port.rbacPolicies.length > 0) out.push(`${multi ? `${port.port} ` : ''}RBAC policies: ${port.rbacPolicies.join(', ')}`);
    }
  });
  return out;
}

/** printIngressInfo's text (the selectorless-Gateway note has no newline in istioctl). */
function ingressText(ing: IngressFacts): string {
  if (ing.skipped === 'no ingress gateway pods') return 'Skipping Gateway information (no ingress gateway pods)\n';
  let s = ing.skipped === 'no ingress gateway service' ? 'Skipping Gateway information (no ingress gateway service)\n' : '';
  for (const e of ing.events) {
    if (e.type === 'stale') s += `${staleLine(e.stale)}\n`;
    else if (e.type === 'selectorless') s += `Ingress Gateway ${e.gateway.namespace}/${e.gateway.name} be applied all workloads`;
    else {
      s += `${SEPARATOR}\n`;
      for (const i of e.ingresses) for (const u of i.urls) s += `Exposed on Ingress Gateway ${u}\n`;
      s += virtualServiceLines(e.virtualService, 0)
        .map((l) => `${l}\n`)
        .join('');
    }
  }
  return s;
}

function lines(l: readonly string[]): string {
  return l.map((x) => `${x}\n`).join('');
}

/**
 * `describe pod` as istioctl prints it to stdout. When istioctl would fail (no Envoy to read),
 * `error` is the message it would exit with, after the text printed so far.
 */
export function describePodText(d: PodDescription): { text: string; error?: string } {
  const p = d.pod;
  const out: string[] = [];
  for (const w of p.warnings) if (w.type === 'uid1337Container') out.push('WARNING: User ID (UID) 1337 is reserved for the sidecar proxy.');
  out.push(`Pod: ${p.kname}`, `   Pod Revision: ${p.revision}`);
  const ports = p.ports.map((x) => `${x.port}${x.protocol !== 'TCP' ? `/${x.protocol}` : ''} (${x.container})`);
  out.push(ports.length > 0 ? `   Pod Ports: ${ports.join(', ')}` : '   Pod does not expose ports');
  if (p.phase !== '' && p.phase !== 'Running') out.push(`   Pod is not Running (${p.phase})`);
  for (const w of p.warnings) {
    if (w.type === 'containerNotReady') out.push(`WARNING: Pod ${p.kname} Container ${w.container} NOT READY`);
    else if (w.type === 'initContainerNotReady') out.push(`WARNING: Pod ${p.kname} Init Container ${w.container} NOT READY`);
    else if (w.type === 'notMeshed') out.push(`WARNING: ${p.kname} is not part of mesh; no Istio sidecar`);
    else if (w.type === 'uid1337Pod') out.push('   WARNING: User ID (UID) 1337 is reserved for the sidecar proxy.');
    else if (w.type === 'noCanonicalName') out.push(`Suggestion: add required service name label for Istio telemetry. See ${DEPLOYMENT_REQUIREMENTS}.`);
    else if (w.type === 'noCanonicalRevision') out.push(`Suggestion: add required service revision label for Istio telemetry. See ${DEPLOYMENT_REQUIREMENTS}.`);
  }
  if (d.noServices) {
    out.push(`Warning: No Kubernetes Services select pod ${p.kname} (see https://istio.io/docs/setup/kubernetes/additional-setup/requirements/ )`);
  }
  out.push(SEPARATOR);
  if (d.proxyError !== undefined) return { text: lines(out), error: d.proxyError };
  out.push(...servicesLines(d.services));
  const pa = d.peerAuthentication;
  if (pa) {
    out.push(SEPARATOR, 'Effective PeerAuthentication:', `   Workload mTLS mode: ${pa.mode}`);
    if (pa.perPort.length > 0) {
      out.push('   Port Level mTLS mode:');
      for (const pp of pa.perPort) out.push(`      ${pp.port}: ${pp.mode}`);
    }
    if (pa.applied.length > 0) out.push('Applied PeerAuthentication:', `   ${pa.applied.map((r) => `${r.name}.${r.namespace}`).join(', ')}`);
  }
  const text = lines(out) + (d.ingress ? ingressText(d.ingress) : '');
  return d.ingress?.error !== undefined ? { text, error: d.ingress.error } : { text };
}

/** `describe service` as istioctl prints it. */
export function describeServiceText(d: ServiceOnlyDescription): { text: string; error?: string } {
  const out = [...d.podLines];
  if (d.outcome === 'noPods') return { text: lines([...out, `Service ${goQuote(d.kname)} has no pods.`]) };
  if (d.outcome === 'noIstioPods') {
    return {
      text: lines([
        ...out,
        `Service ${goQuote(d.kname)} has no Istio pods.  (${d.selectedPods} pods in service).`,
        'Use `istioctl kube-inject` or redeploy with Istio automatic sidecar injection.',
      ]),
    };
  }
  if (d.proxyError !== undefined) return { text: lines(out), error: d.proxyError };
  out.push(...servicesLines(d.services));
  const text = lines(out) + (d.ingress ? ingressText(d.ingress) : '');
  return d.ingress?.error !== undefined ? { text, error: d.ingress.error } : { text };
}
