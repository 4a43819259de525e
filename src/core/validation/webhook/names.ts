// Istio's name rules: DNS-1123 labels, FQDNs and wildcard domains (agent/validation.go),
// label maps (pkg/config/labels), exportTo (pkg/config/visibility) and namespace/host pairs.
import { goQuote } from '../../go/fmt.ts';
import { atoi } from '../../go/strconv.ts';
import { utf8Length } from '../../go/strings.ts';
import { isValidIP } from '../../go/netip.ts';
import { V } from './result.ts';

const DNS1123_LABEL = /^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$/;
const WILDCARD_PREFIX = /^(\*|(\*|\*-)?[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?)$/;
const LABEL_VALUE = /^((?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const TAG_KEY = /^([a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?)*\/)?((?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;

export function isDNS1123Label(v: string): boolean {
  return v.length <= 63 && DNS1123_LABEL.test(v);
}

export function isWildcardDNS1123Label(v: string): boolean {
  return v.length <= 63 && WILDCARD_PREFIX.test(v);
}

export function checkDNS1123Preconditions(name: string): string | undefined {
  if (utf8Length(name) > 255) return `domain name ${goQuote(name)} too long (max 255)`;
  if (name.length === 0) return 'empty domain name not allowed';
  return undefined;
}

export function validateDNS1123Labels(domain: string): string | undefined {
  const parts = domain.split('.');
  const tld = parts[parts.length - 1] as string;
  if (atoi(tld) !== undefined) return `domain name ${goQuote(domain)} invalid (top level domain ${goQuote(tld)} cannot be all-numeric)`;
  for (let i = 0; i < parts.length; i++) {
    const label = parts[i] as string;
    if (i === parts.length - 1 && label === '') return undefined;
    if (!isDNS1123Label(label)) return `domain name ${goQuote(domain)} invalid (label ${goQuote(label)} invalid)`;
  }
  return undefined;
}

/** agent.ValidateFQDN */
export function validateFQDN(fqdn: string): string | undefined {
  return checkDNS1123Preconditions(fqdn) ?? validateDNS1123Labels(fqdn);
}

/** agent.ValidateWildcardDomain: an FQDN whose first label may be a wildcard. */
export function validateWildcardDomain(domain: string): string | undefined {
  const pre = checkDNS1123Preconditions(domain);
  if (pre) return pre;
  const dot = domain.indexOf('.');
  const first = dot < 0 ? domain : domain.slice(0, dot);
  if (!isWildcardDNS1123Label(first)) return `domain name ${goQuote(domain)} invalid (label ${goQuote(first)} invalid)`;
  if (dot >= 0) return validateDNS1123Labels(domain.slice(dot + 1));
  return undefined;
}

const OUTBOUND_FORMAT = 'outbound_.<PORT>_._.<HOSTNAME>';

/** agent.ValidateWildcardDomainForVirtualServiceBoundToGateway */
export function validateWildcardDomainForGatewayVS(sni: boolean, domain: string): string | undefined {
  const pre = checkDNS1123Preconditions(domain);
  if (pre) return pre;
  if (sni && domain.startsWith('outbound_')) {
    const parts = domain.split('_');
    if (parts.length < 4) return `domain name ${domain} invalid, should follow '${OUTBOUND_FORMAT}' format`;
    const direction = parts[0] as string;
    const port = trimDots(parts[1] as string);
    const hostname = trimDots(parts[3] as string);
    if (direction !== 'outbound') return `domain name ${goQuote(domain)} invalid (label ${goQuote(direction)} invalid)`;
    if (!/[0-9]/.test(port)) return `domain name ${goQuote(domain)} invalid (label ${goQuote(port)} invalid). should follow ${OUTBOUND_FORMAT} format`;
    if (!/[a-zA-Z]/.test(hostname))
      return `domain name ${goQuote(domain)} invalid (label ${goQuote(hostname)} invalid). should follow ${OUTBOUND_FORMAT} format`;
    return undefined;
  }
  return validateWildcardDomain(domain);
}

function trimDots(s: string): string {
  return s.replace(/^\.+|\.+$/g, '');
}

/** agent.ValidatePartialWildCard */
export function validatePartialWildcard(host: string): string | undefined {
  if (host.includes('*') && host.length !== 1 && !host.startsWith('*.')) return `partial wildcard ${goQuote(host)} not allowed`;
  return undefined;
}

/** agent.ValidatePort */
export function validatePort(port: number): string | undefined {
  return port >= 1 && port <= 65535 ? undefined : `port number ${port} must be in the range 1..65535`;
}

/** ValidatePortName */
export function validatePortName(name: string): string | undefined {
  return isDNS1123Label(name) ? undefined : `invalid port name: ${name}`;
}

function validateTagKey(k: string): string | undefined {
  const m = TAG_KEY.exec(k);
  if (!m) return `invalid tag key: ${goQuote(k)}`;
  const prefix = m[1] ?? '';
  if (prefix.length > 0 && prefix.length - 1 > 253) return `invalid tag key: ${goQuote(k)} (DNS prefix is too long)`;
  if ((m[2] ?? '').length > 63) return `invalid tag key: ${goQuote(k)} (name is too long)`;
  return undefined;
}

/** labels.Instance.Validate: each bad key and value, in map order. */
export function validateLabels(entries: readonly (readonly [string, string])[], path?: string): V {
  const v = new V();
  for (const [k, val] of entries) {
    const kerr = validateTagKey(k);
    if (kerr) v.err(kerr, path);
    if (!LABEL_VALUE.test(val)) v.err(`invalid tag value: ${goQuote(val)}`, path);
  }
  return v;
}

/** visibility.Instance.Validate */
function validateVisibility(e: string): string | undefined {
  if (e === '.' || e === '*') return undefined;
  if (e === '~') return 'exportTo ~ (none) is not allowed for Istio configuration objects';
  if (!isDNS1123Label(e)) return 'only .,*, or a valid DNS 1123 label is allowed as exportTo entry';
  return undefined;
}

/** validateExportTo */
export function validateExportTo(
  namespace: string,
  exportTo: readonly string[],
  isServiceEntry: boolean,
  isDestinationRuleWithSelector: boolean,
  path?: string,
): V {
  const v = new V();
  if (exportTo.length === 0) return v;
  const set = new Set<string>();
  for (const e of exportTo) {
    const key = e === '.' ? namespace : e;
    if (set.has(key)) {
      if (key !== e) v.err(`duplicate entries in exportTo: . and current namespace ${namespace}`, path);
      else v.err(`duplicate entries in exportTo for entry ${e}`, path);
    } else if (isServiceEntry && e === '~') {
      set.add(key);
    } else {
      const err = validateVisibility(key);
      if (err) v.err(err, path);
      else set.add(key);
    }
  }
  if (isDestinationRuleWithSelector && set.size > 0) {
    if (set.has(namespace)) {
      if (set.size > 1) v.err('destination rule with workload selector cannot have multiple entries in exportTo', path);
    } else {
      v.err('destination rule with workload selector cannot have exportTo beyond current namespace', path);
    }
  }
  if (set.has('*') && exportTo.length > 1) v.err('cannot have both public (*) and non-public exportTo values for a resource', path);
  if (set.has('~') && exportTo.length > 1) v.err('cannot export service entry to no one (~) and someone', path);
  return v;
}

/** validateSidecarOrGatewayHostnamePart */
function validateHostnamePart(hostname: string, isGateway: boolean, v: V, path?: string): void {
  if (hostname !== '*' && !hostname.includes('.')) v.err('short names (non FQDN) are not allowed', path);
  const err = validateWildcardDomain(hostname);
  if (err) {
    if (!isGateway) v.err(err, path);
    if (!isValidIP(hostname)) v.err(err, path);
  }
  const pw = validatePartialWildcard(hostname);
  if (pw) v.err(pw, path);
}

/** agent.ValidateNamespaceSlashWildcardHostname */
export function validateNamespaceSlashWildcardHostname(hostname: string, isGateway: boolean, gatewaySemantics: boolean, path?: string): V {
  const v = new V();
  const slash = hostname.indexOf('/');
  if (slash < 0) {
    if (isGateway) {
      validateHostnamePart(hostname, true, v, path);
      return v;
    }
    return v.err('host must be of form namespace/dnsName', path);
  }
  const ns = hostname.slice(0, slash);
  const name = hostname.slice(slash + 1);
  if (ns.length === 0 || name.length === 0) v.err('config namespace and dnsName in host entry cannot be empty', path);
  if (!isGateway) {
    const trimmed = ns.startsWith('~') ? ns.slice(1) : ns;
    if (trimmed !== '' && trimmed !== '*' && trimmed !== '.' && !isDNS1123Label(trimmed)) v.err(`invalid namespace value ${goQuote(ns)} in sidecar`, path);
  } else if (ns !== '*' && ns !== '.' && (ns !== '~' || !gatewaySemantics)) {
    if (!isDNS1123Label(ns)) v.err(`invalid namespace value ${goQuote(ns)} in gateway`, path);
  }
  validateHostnamePart(name, isGateway, v, path);
  return v;
}

/** The workload selector rules shared by the policies (validateWorkloadSelector). */
export function validateWorkloadSelector(selector: readonly (readonly [string, string])[] | undefined, path?: string): V {
  const v = new V();
  if (selector === undefined) return v;
  for (const [k, val] of selector) {
    if (k === '') v.err(`empty key is not supported in selector: ${goQuote(`${k}=${val}`)}`, path);
    if (k.includes('*') || val.includes('*')) v.err(`wildcard is not supported in selector: ${goQuote(`${k}=${val}`)}`, path);
  }
  if (selector.length === 0) v.warn('workload selector specified without labels', path);
  return v;
}

/** ValidateAlphaWorkloadSelector: the errors, and the warning for a selector without labels. */
export function validateAlphaWorkloadSelector(labels: readonly (readonly [string, string])[] | undefined, path?: string): { errors: V; warning?: string } {
  const v = new V();
  if (labels === undefined) return { errors: v };
  for (const [k, val] of labels) {
    if (k === '') v.err(`empty key is not supported in selector: ${goQuote(`${k}=${val}`)}`, path);
    if (k.includes('*') || val.includes('*')) v.err(`wildcard is not supported in selector: ${goQuote(`${k}=${val}`)}`, path);
  }
  return { errors: v, warning: labels.length === 0 ? 'workload selector specified without labels' : undefined };
}
