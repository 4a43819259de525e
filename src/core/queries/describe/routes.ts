// The DestinationRule and VirtualService facts of `istioctl x describe` (describe.go:
// printDestinationRule, getDestRuleSubsets, httpRouteMatchSvc, tcpRouteMatchSvc,
// printVirtualService), read from the objects as written so that each fact keeps its field.
import type { Resource } from '../../document/types.ts';
import { arr, isObj, num, str, type Obj } from '../../document/read.ts';
import { selectorMatches, toLabelMap, type LabelMap } from '../../config/labels.ts';
import { resolveShortname } from '../../xds/hostname.ts';
import { extendFqdn } from './envoy.ts';
import { protoText } from './protoText.ts';
import type { DescribeRef, DestinationRuleFacts, RouteFact, RouteFacts, SubsetFact, TrafficPolicyFacts, VirtualServiceFacts } from './types.ts';

export function refOf(r: Resource, fieldPath?: string): DescribeRef {
  return { kind: r.gvk.kind, namespace: r.namespace, name: r.name, resourceKey: r.key, ...(fieldPath ? { fieldPath } : {}) };
}

/** istioctl's kname: the bare name in the describe namespace, else `name.namespace`. */
export function kname(namespace: string, name: string, describeNamespace: string): string {
  return namespace === describeNamespace ? name : `${name}.${namespace}`;
}

function spec(r: Resource): Obj {
  return isObj(r.body.spec) ? r.body.spec : {};
}

/** A field that Go decodes into a non-nil message pointer: present and an object. */
function present(o: Obj, key: string): boolean {
  return isObj(o[key]);
}

/** getDestRuleSubsets: which subsets select any of the pods' label sets. */
export function subsetFacts(dr: Resource, podsLabels: readonly LabelMap[]): SubsetFact[] {
  return arr(spec(dr).subsets).map((s, i) => {
    const o = isObj(s) ? s : {};
    const labels = toLabelMap(o.labels);
    return { name: str(o.name), matches: podsLabels.some((l) => selectorMatches(labels, l)), source: refOf(dr, `spec.subsets[${i}]`) };
  });
}

export function matchingSubsets(subsets: readonly SubsetFact[]): { matching: string[]; nonMatching: string[] } {
  return { matching: subsets.filter((s) => s.matches).map((s) => s.name), nonMatching: subsets.filter((s) => !s.matches).map((s) => s.name) };
}

const TLS_MODES = ['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL'];

/** ClientTLSSettings.Mode.String(): the enum name (absent is DISABLE; an unknown number prints as the number). */
function tlsModeName(tls: Obj): string {
  const m = tls.mode;
  if (m === undefined || m === null) return 'DISABLE';
  if (typeof m === 'number') return TLS_MODES[m] ?? String(m);
  return str(m);
}

/** recordShortPolicies. */
function shortPolicies(o: Obj): string[] {
  const out: string[] = [];
  if (present(o, 'loadBalancer')) out.push('load balancer');
  if (present(o, 'connectionPool')) out.push('connection pool');
  if (present(o, 'outlierDetection')) out.push('outlier detection');
  return out;
}

function trafficPolicyFacts(dr: Resource): TrafficPolicyFacts | undefined {
  const tp = spec(dr).trafficPolicy;
  if (!isObj(tp)) return undefined;
  const out: TrafficPolicyFacts = { policies: shortPolicies(tp), source: refOf(dr, 'spec.trafficPolicy') };
  if (isObj(tp.tls)) out.tlsMode = tlsModeName(tp.tls);
  // Go checks the slice for nil: an empty list written in YAML still prints the header.
  if (Array.isArray(tp.portLevelSettings)) {
    out.portLevel = tp.portLevelSettings.map((p, i) => {
      const o = isObj(p) ? p : {};
      const port = isObj(o.port) ? num(o.port.number) : 0;
      return {
        port,
        ...(isObj(o.tls) ? { tlsMode: tlsModeName(o.tls) } : {}),
        policies: shortPolicies(o),
        source: refOf(dr, `spec.trafficPolicy.portLevelSettings[${i}]`),
      };
    });
  }
  return out;
}

export function destinationRuleFacts(dr: Resource, podsLabels: readonly LabelMap[], describeNamespace: string): DestinationRuleFacts {
  const tp = trafficPolicyFacts(dr);
  return {
    ref: refOf(dr),
    kname: kname(dr.namespace, dr.name, describeNamespace),
    host: str(spec(dr).host),
    subsets: subsetFacts(dr, podsLabels),
    ...(tp ? { trafficPolicy: tp } : {}),
  };
}

/** renderStringMatch: exact as is, prefix with `*`, anything else as the message's text. */
function renderStringMatch(sm: unknown): string {
  if (!isObj(sm)) return '';
  if (typeof sm.exact === 'string') return sm.exact;
  if (typeof sm.prefix === 'string') return `${sm.prefix}*`;
  return protoText(sm, 'StringMatch');
}

/** renderMatch (header conditions sorted: Go ranges over the map in random order). */
export function renderMatch(m: unknown): string {
  const o = isObj(m) ? m : {};
  let out = 'Match: ';
  if (isObj(o.uri)) {
    out += renderStringMatch(o.uri);
    if (o.ignoreUriCase === true) out += ' uncased';
  }
  if (isObj(o.headers) && Object.keys(o.headers).length > 0) {
    const h = o.headers;
    out += ` when headers are ${Object.keys(h)
      .sort()
      .map((k) => `${k}=${renderStringMatch(h[k])}`)
      .join('; ')}`;
  }
  return out.trim();
}

function renderMatches(matches: readonly unknown[]): string {
  return matches.length === 0 ? 'everything' : matches.map(renderMatch).join(', ');
}

interface SubsetView {
  matching: readonly string[];
  nonMatching: readonly string[];
  /** kname of the DestinationRule, when there is one. */
  destinationRule?: string;
}

function destinationHost(d: unknown): { host: string; subset: string } {
  const dest = isObj(d) && isObj(d.destination) ? d.destination : {};
  return { host: str(dest.host), subset: str(dest.subset) };
}

/** Whether a destination host, resolved in the VirtualService's namespace, is the Service's FQDN. */
function reachesService(host: string, vsNamespace: string, svcHost: string): boolean {
  if (host === '') return false;
  return extendFqdn(resolveShortname(host, vsNamespace, 'cluster.local')) === svcHost;
}

/** httpRouteMatchSvc. */
function httpRouteFacts(vs: Resource, route: Obj, i: number, svcHost: string, subsets: SubsetView): RouteFacts {
  const facts: RouteFact[] = [];
  const mismatch: RouteFact[] = [];
  let reaches = false;
  const matches = arr(route.match);
  arr(route.route).forEach((d, j) => {
    const source = refOf(vs, `spec.http[${i}].route[${j}]`);
    const { host, subset } = destinationHost(d);
    const weight = isObj(d) ? num(d.weight) : 0;
    if (reachesService(host, vs.namespace, svcHost)) {
      if (subset !== '') {
        if (subsets.nonMatching.includes(subset)) {
          mismatch.push({ type: 'nonMatchingSubset', subset, matches: renderMatches(matches), source });
          return;
        }
        if (!subsets.matching.includes(subset)) {
          mismatch.push(
            subsets.destinationRule === undefined
              ? { type: 'noDestinationRule', subset, source }
              : { type: 'unknownSubset', subset, destinationRule: subsets.destinationRule, source },
          );
          return;
        }
      }
      reaches = true;
      if (weight > 0) facts.push({ type: 'destination', host, subset, weight, source });
    } else if (subset === '') facts.push({ type: 'otherHost', host, weight, source });
    else facts.push({ type: 'invalidConfig', host, source });
  });
  if (reaches) {
    const fault = isObj(route.fault) ? protoText(route.fault, 'HTTPFaultInjection') : undefined;
    const rendered = matches.map(renderMatch);
    if (fault !== undefined || rendered.length > 0) {
      facts.push({ type: 'conditions', ...(fault !== undefined ? { fault } : {}), matches: rendered, source: refOf(vs, `spec.http[${i}]`) });
    }
  } else facts.push(...mismatch);
  return { protocol: 'http', index: i, reaches, facts };
}

/** tcpRouteMatchSvc. */
function tcpRouteFacts(vs: Resource, route: Obj, i: number, svcHost: string): RouteFacts {
  const reaches = arr(route.route).some((d) => reachesService(destinationHost(d).host, vs.namespace, svcHost));
  const facts: RouteFact[] = reaches
    ? arr(route.match).map((m, k) => ({ type: 'tcpMatch', text: protoText(m, 'L4MatchAttributes'), source: refOf(vs, `spec.tcp[${i}].match[${k}]`) }))
    : [];
  return { protocol: 'tcp', index: i, reaches, facts };
}

/** The facts printVirtualService prints for one Service (its FQDN built from name and namespace). */
export function virtualServiceFacts(
  vs: Resource,
  serviceName: string,
  serviceNamespace: string,
  subsets: SubsetView,
  describeNamespace: string,
): VirtualServiceFacts {
  const s = spec(vs);
  const svcHost = extendFqdn(`${serviceName}.${serviceNamespace}`);
  const http = arr(s.http);
  const tcp = arr(s.tcp);
  const routes: RouteFacts[] = [
    ...http.map((r, i) => httpRouteFacts(vs, isObj(r) ? r : {}, i, svcHost, subsets)),
    ...tcp.map((r, i) => tcpRouteFacts(vs, isObj(r) ? r : {}, i, svcHost)),
  ];
  const reached = routes.filter((r) => r.reaches).length;
  const possible = http.length + arr(s.tls).length + tcp.length;
  return {
    ref: refOf(vs),
    kname: kname(vs.namespace, vs.name, describeNamespace),
    routes,
    httpRoutes: http.length,
    tcpRoutes: tcp.length,
    tlsRoutes: arr(s.tls).length,
    verdict: reached === 0 ? 'none' : reached < possible ? 'some' : 'all',
  };
}
