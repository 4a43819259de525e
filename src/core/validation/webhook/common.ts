// Rules shared by several kinds (pkg/config/validation/validation.go and agent/): durations,
// percentages, selectors and policy targets, protocols, headers, string matches, gateway
// names, destinations and client TLS settings.
import { goQuote } from '../../go/fmt.ts';
import { MS, readGoDuration } from '../../go/duration.ts';
import { formatFloatG } from '../../go/format.ts';
import { goRegexpError } from './goRegexp.ts';
import { isDNS1123Label, validateFQDN, validatePort, validateWildcardDomain, validateWorkloadSelector } from './names.ts';
import { at, enumv, get, has, list, msg, n, s, strEntries, strs, type Obj } from './read.ts';
import { one, V } from './result.ts';

/** What a rule sees of the object: istioctl analyze passes name and namespace only. */
export interface Cfg {
  name: string;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  spec: Obj;
}

export const SPEC = 'spec';

/**
 * agent.ValidateDuration on a written duration, read as Istio reads it (time.ParseDuration, so
 * `1m` is 60s); a malformed one is the schema's to report.
 */
export function validateDuration(o: Obj | undefined, k: string, path: string): V {
  const d = durationOf(o, k);
  if (d === undefined) return new V();
  if (d < MS) return one('duration must be greater than 1ms', path);
  if (d % MS !== 0n) return one('only durations to ms precision are supported', path);
  return new V();
}

/** A written duration's nanoseconds (undefined when absent or malformed). */
export function durationOf(o: Obj | undefined, k: string): bigint | undefined {
  return readGoDuration(get(o, k));
}

export function validatePercent(val: number, path?: string): V {
  return val < 0 || val > 100 ? one(`percentage ${val} is not in range 0..100`, path) : new V();
}

/** validatePercentage on a written networking.Percent. */
export function validatePercentage(o: Obj | undefined, k: string, path: string): V {
  const p = msg(o, k);
  if (!p) return new V();
  const value = numberOf(get(p, 'value'));
  if (value < 0 || value > 100 || (value > 0 && value < 0.0001))
    return one(`percentage ${formatFloatG(value)} is neither 0.0, nor in range [0.0001, 100.0]`, path);
  return new V();
}

export function numberOf(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return 0;
}

/** The matchLabels of a type.v1beta1.WorkloadSelector, undefined when the selector is nil. */
export function selectorLabels(spec: Obj, k = 'selector'): [string, string][] | undefined {
  const sel = msg(spec, k);
  if (!sel) return undefined;
  return strEntries(sel, 'matchLabels');
}

export function workloadSelector(spec: Obj, k = 'selector'): V {
  return validateWorkloadSelector(selectorLabels(spec, k), at(SPEC, spec, k));
}

/** validateOneOfSelectorType */
export function validateOneOfSelectorType(spec: Obj, withTargetRef = true): V {
  let set = 0;
  if (msg(spec, 'selector')) set++;
  if (withTargetRef && msg(spec, 'targetRef')) set++;
  if ((list(spec, 'targetRefs') ?? []).length > 0) set++;
  return set > 1 ? one('only one of targetRefs or workloadSelector can be set', SPEC) : new V();
}

const ALLOWED_TARGET_REFS: ReadonlyArray<readonly [string, string]> = [
  ['core', 'Service'],
  ['networking.istio.io', 'ServiceEntry'],
  ['gateway.networking.k8s.io', 'Gateway'],
  ['gateway.networking.k8s.io', 'GatewayClass'],
];

/** Go's %v of the allowed []GroupVersionKind (each printed as group/version/kind). */
const ALLOWED_TARGET_REFS_TEXT =
  '[core/v1/Service networking.istio.io/v1/ServiceEntry gateway.networking.k8s.io/v1/Gateway gateway.networking.k8s.io/v1/GatewayClass]';

export function validatePolicyTargetReference(ref: Obj | null | undefined, path: string): V {
  const v = new V();
  if (!ref) return v;
  if (s(ref, 'name') === '') v.err('targetRef name must be set', path);
  if (s(ref, 'namespace') !== '') v.err('targetRef namespace must not be set; cross namespace referencing is not supported', path);
  const group = s(ref, 'group');
  const kind = s(ref, 'kind');
  const canonical = group === '' ? 'core' : group;
  if (!ALLOWED_TARGET_REFS.some(([g, k]) => g === canonical && k === kind)) {
    v.err(`targetRef must be to one of ${ALLOWED_TARGET_REFS_TEXT} but was ${group}/${kind}`, path);
  }
  return v;
}

export function validatePolicyTargetReferences(spec: Obj): V {
  const v = new V();
  const refs = list(spec, 'targetRefs') ?? [];
  refs.forEach((r, i) => v.add(validatePolicyTargetReference(r === null ? null : (r as Obj), `${at(SPEC, spec, 'targetRefs')}[${i}]`)));
  return v;
}

/** The usual selector and target checks of a workload policy, in Istio's order. */
export function policyTargeting(spec: Obj, withTargetRef = true): V {
  const v = new V();
  v.add(validateOneOfSelectorType(spec, withTargetRef));
  v.add(workloadSelector(spec));
  if (withTargetRef) v.add(validatePolicyTargetReference(msg(spec, 'targetRef'), at(SPEC, spec, 'targetRef')));
  v.add(validatePolicyTargetReferences(spec));
  return v;
}

// ---- protocols --------------------------------------------------------------------------

export type Protocol =
  | 'TCP'
  | 'UDP'
  | 'GRPC'
  | 'GRPC-Web'
  | 'HTTP'
  | 'HTTP_PROXY'
  | 'HTTP2'
  | 'HTTPS'
  | 'TLS'
  | 'Mongo'
  | 'Redis'
  | 'MySQL'
  | 'UnsupportedProtocol';

const PROTOCOLS: Record<string, Protocol> = {
  tcp: 'TCP',
  udp: 'UDP',
  grpc: 'GRPC',
  'grpc-web': 'GRPC-Web',
  http: 'HTTP',
  http_proxy: 'HTTP_PROXY',
  http2: 'HTTP2',
  https: 'HTTPS',
  tls: 'TLS',
  mongo: 'Mongo',
  redis: 'Redis',
  mysql: 'MySQL',
};

/** protocol.Parse */
export function parseProtocol(p: string): Protocol {
  return PROTOCOLS[p.toLowerCase()] ?? 'UnsupportedProtocol';
}

export const isHTTP = (p: Protocol): boolean => p === 'HTTP' || p === 'HTTP2' || p === 'HTTP_PROXY' || p === 'GRPC' || p === 'GRPC-Web';
export const isTLS = (p: Protocol): boolean => p === 'HTTPS' || p === 'TLS';
export const isTCP = (p: Protocol): boolean => p === 'TCP' || p === 'HTTPS' || p === 'TLS' || p === 'Mongo' || p === 'Redis' || p === 'MySQL';

/** ValidateProtocol */
export function validateProtocol(p: string): string | undefined {
  return p !== '' && parseProtocol(p) === 'UnsupportedProtocol' ? `unsupported protocol: ${p}` : undefined;
}

// ---- headers ----------------------------------------------------------------------------

const TCHARS = /^[!#$%&'*+\-.^_`|~A-Za-z0-9]+$/;
const STRICT_HEADER = /^[-_A-Za-z0-9]+$/;
const PROBE_HEADER = /^[-A-Za-z0-9]+$/;

export function validateStrictHTTPHeaderName(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (!STRICT_HEADER.test(name)) return `header name ${name} is not a valid header name`;
  return undefined;
}

export function validateProbeHeaderName(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (!PROBE_HEADER.test(name)) return `header name ${name} is not a valid header name`;
  return undefined;
}

export function validateCORSHTTPHeaderName(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (name === '*') return undefined;
  if (!TCHARS.test(name)) return `header name ${name} is not a valid header name`;
  return undefined;
}

/** jwt.ToRoutingClaim(name).Match */
export function isRoutingClaim(name: string): boolean {
  if (!name.toLowerCase().startsWith('@request.auth.claims')) return false;
  const rest = name.slice('@request.auth.claims'.length);
  if (rest.startsWith('.') && rest.length > 1) return true;
  return rest.startsWith('[') && rest.endsWith(']') && rest.length > 2;
}

const PSEUDO_HEADERS = new Set([':method', ':scheme', ':authority', ':path', ':status']);

export function validateHTTPHeaderNameOrJwtClaimRoute(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (isRoutingClaim(name)) return undefined;
  if (PSEUDO_HEADERS.has(name)) return undefined;
  if (!TCHARS.test(name)) return `header name ${name} is not a valid header name`;
  return undefined;
}

export const isInternalHeader = (k: string): boolean => k.startsWith(':') || k.toLowerCase() === 'host';
export const isAuthorityHeader = (k: string): boolean => k.toLowerCase() === ':authority' || k.toLowerCase() === 'host';

export function validateHTTPHeaderWithAuthorityOperationName(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (isInternalHeader(name) && !isAuthorityHeader(name)) return `invalid header ${goQuote(name)}: header cannot have ":" prefix`;
  return undefined;
}

export function validateHTTPHeaderOperationName(name: string): string | undefined {
  if (name === '') return 'header name cannot be empty';
  if (name.toLowerCase() === 'host') return `invalid header ${goQuote(name)}: cannot set Host header`;
  if (isInternalHeader(name)) return `invalid header ${goQuote(name)}: header cannot have ":" prefix`;
  return undefined;
}

const St = { Literal: 0, VarName: 1, ExpectArray: 2, ExpectString: 3, String: 4, ExpectDelimOrEnd: 5, ExpectArgsEnd: 6, ExpectVarEnd: 7 } as const;

/** Envoy's header value parser (header_value_validator.go). */
function validateHeaderValueSyntax(value: string): string | undefined {
  if (value === '') return undefined;
  let state: number = St.Literal;
  const isSpace = (c: string) => c === ' ';
  // Go indexes bytes; the parser only looks at ASCII, so UTF-8 bytes and UTF-16 units act alike.
  for (let pos = 0; pos < value.length; pos++) {
    const ch = value[pos] as string;
    const hasNext = pos + 1 < value.length;
    switch (state) {
      case St.Literal:
        if (ch !== '%') break;
        if (!hasNext) return 'invalid header configuration. Un-escaped %';
        if (value[pos + 1] === '%') {
          pos++;
          break;
        }
        state = St.VarName;
        break;
      case St.VarName:
        if (ch === '%') state = St.Literal;
        else if (ch === '(') state = St.ExpectArray;
        break;
      case St.ExpectArray:
        if (ch === '[') state = St.ExpectString;
        else if (!isSpace(ch)) state = St.String;
        break;
      case St.ExpectDelimOrEnd:
        if (ch === ',') state = St.ExpectString;
        else if (ch === ']') state = St.ExpectArgsEnd;
        else if (!isSpace(ch)) return "invalid header configuration. Expecting ',', ']', or whitespace";
        break;
      case St.ExpectString:
        if (ch === '"') state = St.String;
        else if (!isSpace(ch)) return "invalid header configuration. Expecting '\"'";
        break;
      case St.String:
        if (ch === '\\') {
          if (!hasNext) return 'invalid header configuration. Un-terminated backslash in JSON string';
          pos++;
        } else if (ch === ')') state = St.ExpectVarEnd;
        else if (ch === '"') state = St.ExpectDelimOrEnd;
        break;
      case St.ExpectArgsEnd:
        if (ch === ')') state = St.ExpectVarEnd;
        else if (!isSpace(ch)) return "invalid header configuration. Expecting ')' or whitespace after '{}', but found '{}'";
        break;
      case St.ExpectVarEnd:
        if (ch === '%') state = St.Literal;
        else if (!isSpace(ch)) return "invalid header configuration. Expecting '%' or whitespace after";
        break;
    }
  }
  if (state !== St.Literal) return `invalid header configuration. Un-terminated variable expression '${value}'`;
  return undefined;
}

// eslint-disable-next-line no-control-regex
const HEADER_VALUE = /^[^\u0000-\u0008\u000A-\u001F\u007F]*$/;

export function validateHTTPHeaderValue(value: string): string | undefined {
  if (!HEADER_VALUE.test(value)) return `header value configuration ${value} is invalid`;
  const err = validateHeaderValueSyntax(value);
  if (err) return `header value configuration: ${err}`;
  return undefined;
}

/** The header operations of a networking.Headers message (route or destination level). */
export function validateHeaderOperations(headers: Obj | undefined, path: string, v: V): void {
  const req = msg(headers, 'request');
  const resp = msg(headers, 'response');
  const pushErr = (e: string | undefined, p: string) => {
    if (e) v.err(e, p);
  };
  for (const [name, val] of strEntries(req, 'add')) {
    pushErr(validateHTTPHeaderWithAuthorityOperationName(name), `${path}.request.add`);
    pushErr(validateHTTPHeaderValue(val), `${path}.request.add`);
  }
  for (const [name, val] of strEntries(req, 'set')) {
    pushErr(validateHTTPHeaderWithAuthorityOperationName(name), `${path}.request.set`);
    pushErr(validateHTTPHeaderValue(val), `${path}.request.set`);
  }
  for (const name of strs(req, 'remove')) pushErr(validateHTTPHeaderOperationName(name), `${path}.request.remove`);
  for (const [name, val] of strEntries(resp, 'add')) {
    pushErr(validateHTTPHeaderOperationName(name), `${path}.response.add`);
    pushErr(validateHTTPHeaderValue(val), `${path}.response.add`);
  }
  for (const [name, val] of strEntries(resp, 'set')) {
    pushErr(validateHTTPHeaderOperationName(name), `${path}.response.set`);
    pushErr(validateHTTPHeaderValue(val), `${path}.response.set`);
  }
  for (const name of strs(resp, 'remove')) pushErr(validateHTTPHeaderOperationName(name), `${path}.response.remove`);
}

// ---- string matches and regexes ---------------------------------------------------------

/** Which oneof of a StringMatch is written ('' for none) and its value. */
export function stringMatchOf(sm: Obj | undefined): { kind: '' | 'exact' | 'prefix' | 'regex'; value: string } {
  if (!sm) return { kind: '', value: '' };
  for (const kind of ['exact', 'prefix', 'regex'] as const) {
    if (has(sm, kind)) return { kind, value: s(sm, kind) };
  }
  return { kind: '', value: '' };
}

export function validateStringRegexp(re: string, where: string): string | undefined {
  if (Buffer_byteLength(re) > 1024) return `${goQuote(where)}: regex is too large, max length allowed is 1024`;
  const err = goRegexpError(re);
  if (err === undefined) return undefined;
  return `${goQuote(where)}: ${err}; Istio uses RE2 style regex-based match (https://github.com/google/re2/wiki/Syntax)`;
}

function Buffer_byteLength(x: string): number {
  let len = 0;
  for (const ch of x) {
    const c = ch.codePointAt(0) as number;
    len += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return len;
}

export function validateStringMatchRegexp(sm: Obj | undefined, where: string): string | undefined {
  const m = stringMatchOf(sm);
  if (m.kind !== 'regex') return undefined;
  if (m.value === '') return `${goQuote(where)}: regex string match should not be empty`;
  return validateStringRegexp(m.value, where);
}

export function validateStringMatch(sm: Obj | undefined, where: string): string | undefined {
  const m = stringMatchOf(sm);
  if (m.kind === 'prefix' && m.value === '') return `${goQuote(where)}: prefix string match should not be empty`;
  if (m.kind === 'regex') return validateStringMatchRegexp(sm, where);
  return undefined;
}

// ---- gateways, destinations -------------------------------------------------------------

export function validateGatewayNames(names: readonly string[], gatewaySemantics: boolean, path: string): V {
  const v = new V();
  for (const name of names) {
    const slash = name.indexOf('/');
    if (slash < 0) {
      if (name.includes('.')) {
        const parts = name.split('.');
        const recommended = `${parts[1]}/${parts[0]}`;
        v.warn(`using legacy gatewayName format ${goQuote(name)}; prefer the <namespace>/<name> format: ${goQuote(recommended)}`, path);
      }
      const e = validateFQDN(name);
      if (e) v.err(e, path);
      return v;
    }
    const ns = name.slice(0, slash);
    const gw = name.slice(slash + 1);
    if (ns.length === 0 || gw.length === 0) v.err('config namespace and gateway name cannot be empty', path);
    if (!isDNS1123Label(ns)) v.err(`invalid value for namespace: ${goQuote(ns)}`, path);
    if (!isDNS1123Label(gw) && !gatewaySemantics) v.err(`invalid value for gateway name: ${goQuote(gw)}`, path);
  }
  return v;
}

export function validateSubsetName(name: string): string | undefined {
  if (name.length === 0) return 'subset name cannot be empty';
  if (!isDNS1123Label(name)) return `subset name is invalid: ${name}`;
  return undefined;
}

/** validateDestination on a written destination. */
export function validateDestination(d: Obj | undefined, path: string): V {
  const v = new V();
  if (!d) return v;
  const host = s(d, 'host');
  if (host === '*') v.err(`invalid destination host ${host}`, `${path}.host`);
  else {
    const e = validateWildcardDomain(host);
    if (e) v.err(e, `${path}.host`);
  }
  const subset = s(d, 'subset');
  if (subset !== '') {
    const e = validateSubsetName(subset);
    if (e) v.err(e, `${path}.subset`);
  }
  const port = msg(d, 'port');
  if (port) {
    const e = validatePort(n(port, 'number'));
    if (e) v.err(e, `${path}.port`);
  }
  return v;
}

// ---- client TLS -------------------------------------------------------------------------

export const CLIENT_TLS_MODES = ['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL'] as const;

/** credentials.ParseResourceName for a configmap:// name: the namespace, or the error. */
function parseConfigMapName(name: string): { namespace: string } | string {
  const rest = name.slice('configmap://'.length);
  const split = rest.split('/');
  if (split.length <= 1) return `invalid resource name ${goQuote(name)}. Expected namespace and name`;
  if ((split[0] as string).length === 0) return `invalid resource name ${goQuote(name)}. Expected namespace`;
  if ((split[1] as string).length === 0) return `invalid resource name ${goQuote(name)}. Expected name`;
  return { namespace: split[0] as string };
}

/** agent.ValidateTLS */
export function validateClientTLS(configNamespace: string, tls: Obj | undefined, path: string): V {
  const v = new V();
  if (!tls) return v;
  const credentialName = s(tls, 'credentialName');
  if (credentialName !== '' && credentialName.startsWith('configmap://')) {
    const rn = parseConfigMapName(credentialName);
    if (typeof rn === 'string') v.err(`invalid configmap:// credentialName: ${rn}`, path);
    else if (rn.namespace !== configNamespace || configNamespace === '')
      v.err(`invalid configmap:// credentialName: namespace must match the configuration namespace ${goQuote(configNamespace)}`, path);
  }
  const mode = enumv(tls, 'mode', CLIENT_TLS_MODES);
  const caCertificates = s(tls, 'caCertificates');
  const sanSet = list(tls, 'subjectAltNames') !== undefined;
  const skip = get(tls, 'insecureSkipVerify');
  if (skip === true || (typeof skip === 'object' && skip !== null && (skip as Obj).value === true)) {
    if (mode === 'SIMPLE' && (caCertificates !== '' || credentialName !== '' || sanSet)) {
      v.err('cannot specify CaCertificates or CredentialName or SubjectAltNames when InsecureSkipVerify is set true', path);
    }
    if (mode === 'MUTUAL' && (caCertificates !== '' || sanSet)) {
      v.err('cannot specify CaCertificates or SubjectAltNames when InsecureSkipVerify is set true', path);
    }
  }
  if ((mode === 'SIMPLE' || mode === 'MUTUAL') && credentialName !== '') {
    if (s(tls, 'clientCertificate') !== '' || caCertificates !== '' || s(tls, 'privateKey') !== '' || s(tls, 'caCrl') !== '') {
      v.err('cannot specify client certificates or CA certificate or CA CRL If credentialName is set', path);
    }
    return v;
  }
  if (mode === 'MUTUAL') {
    if (s(tls, 'clientCertificate') === '') v.err('client certificate required for mutual tls', path);
    if (s(tls, 'privateKey') === '') v.err('private key required for mutual tls', path);
  }
  return v;
}
