// Value checks Istio's injector applies to a few pod annotations (pkg/kube/inject's
// AnnotationValidation). Each returns the error text Go would produce, or undefined when the
// value is valid; the text ends up in IST0125 InvalidAnnotation.
import { parse as parseYaml } from 'yaml';
import { goQuote } from '../../../go/fmt.ts';
import { numError, parseBool, parseUint10 } from '../../../go/strconv.ts';
import { goTrimSpace, utf8Length } from '../../../go/strings.ts';
import { quantityError } from '../../../config/quantity.ts';

type Validator = (value: string) => string | undefined;

/** strconv.ParseUint(s, 10, bits)'s error text, or undefined. */
function parseUintError(s: string, bits: number): string | undefined {
  const v = parseUint10(s, bits);
  return typeof v === 'string' ? numError('ParseUint', s, v) : undefined;
}

function parsePortError(port: string): string | undefined {
  const err = parseUintError(goTrimSpace(port), 16);
  return err ? `failed parsing port '${port}': ${err}` : undefined;
}

/** Comma-separated port list (after trimming the whole string); empty means none. */
function portListError(parameter: string, ports: string): string | undefined {
  const trimmed = goTrimSpace(ports);
  if (trimmed.length === 0) return undefined;
  for (const p of trimmed.split(',')) {
    const err = parsePortError(p);
    if (err) return `${parameter} invalid: failed parsing port '${p}': ${err}`;
  }
  return undefined;
}

/** Go's netip.ParseAddr error text (the common cases). */
function parseAddrError(s: string): string | undefined {
  const q = goQuote(s);
  if (s === '') return `ParseAddr(${q}): unable to parse IP`;
  if (s.includes(':')) {
    if (s.includes('%')) return undefined; // zones are rejected by the prefix parser below
    return isIPv6(s) ? undefined : `ParseAddr(${q}): unable to parse IP`;
  }
  if (!s.includes('.')) return `ParseAddr(${q}): unable to parse IP`;
  const fields = s.split('.');
  for (const f of fields) {
    if (f === '') return `ParseAddr(${q}): IPv4 field must have at least one digit`;
    if (!/^[0-9]+$/.test(f)) return `ParseAddr(${q}): unexpected character`;
    if (f.length > 1 && f.startsWith('0')) return `ParseAddr(${q}): IPv4 field has octet with leading zero`;
    if (Number(f) > 255) return `ParseAddr(${q}): IPv4 field has value >255`;
  }
  if (fields.length !== 4) return `ParseAddr(${q}): IPv4 address too short`;
  return undefined;
}

function isIPv6(s: string): boolean {
  // Accepts the textual forms Go accepts: groups of up to 4 hex digits, one `::`, and an
  // optional trailing dotted IPv4 part.
  let rest = s;
  const groups = 8;
  const lastColon = rest.lastIndexOf(':');
  const tail = rest.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (parseAddrError(tail) !== undefined) return false;
    rest = rest.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = rest.indexOf('::');
  if (dbl >= 0 && rest.indexOf('::', dbl + 1) >= 0) return false;
  const parts = dbl >= 0 ? [rest.slice(0, dbl), rest.slice(dbl + 2)] : [rest];
  let count = 0;
  for (const part of parts) {
    if (part === '') continue;
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return false;
      count++;
    }
  }
  return dbl >= 0 ? count < groups : count === groups;
}

/** Go's netip.ParsePrefix error text, or undefined. */
function parsePrefixError(s: string): string | undefined {
  const q = goQuote(s);
  const slash = s.lastIndexOf('/');
  if (slash < 0) return `netip.ParsePrefix(${q}): no '/'`;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const addrErr = parseAddrError(addr);
  if (addrErr) return `netip.ParsePrefix(${q}): ${addrErr}`;
  if (addr.includes('%')) return `netip.ParsePrefix(${q}): IPv6 zones cannot be present in a prefix`;
  if (!/^[0-9]+$/.test(bits) || (bits.length > 1 && bits.startsWith('0'))) return `netip.ParsePrefix(${q}): bad bits after slash: ${goQuote(bits)}`;
  const max = addr.includes(':') ? 128 : 32;
  if (Number(bits) > max) return `netip.ParsePrefix(${q}): prefix length out of range`;
  return undefined;
}

function cidrListError(cidrs: string): string | undefined {
  if (cidrs.length === 0) return undefined;
  for (const c of cidrs.split(',')) {
    const err = parsePrefixError(c);
    if (err) return `failed parsing cidr '${c}': ${err}`;
  }
  return undefined;
}

const interceptionMode: Validator = (v) =>
  v === 'REDIRECT' || v === 'TPROXY' || v === 'NONE' ? undefined : `interceptionMode invalid, use REDIRECT,TPROXY,NONE: ${v}`;

const statusPort: Validator = (v) => {
  const err = parsePortError(v);
  return err ? `excludeInboundPorts invalid: ${err}` : undefined;
};

const uint32: Validator = (v) => parseUintError(v, 32);

const bool: Validator = (v) => (parseBool(v) === undefined ? numError('ParseBool', v, 'invalid syntax') : undefined);

const includeIPRanges: Validator = (v) => {
  if (v === '*') return undefined;
  const err = cidrListError(v);
  return err ? `includeIPRanges invalid: ${err}` : undefined;
};

const excludeIPRanges: Validator = (v) => {
  const err = cidrListError(v);
  return err ? `excludeIPRanges invalid: ${err}` : undefined;
};

/**
 * proxy.istio.io/config must be a YAML (or JSON) ProxyConfig object. Only its shape is
 * checked here; Istio also validates individual ProxyConfig fields.
 */
const proxyConfig: Validator = (v) => {
  let parsed: unknown;
  try {
    parsed = parseYaml(v);
  } catch (e) {
    return `failed to convert to apply proxy config: ${(e as Error).message.split('\n')[0]}`;
  }
  if (parsed === null || parsed === undefined) return undefined;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return 'failed to convert to apply proxy config: the value is not a ProxyConfig object';
  return undefined;
};

const INTERFACE_NAME = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;

/**
 * netutil.ValidateInterfaceNames: a comma-separated list of network interface names, each
 * (trimmed) 1–15 bytes, a letter then letters, digits, `_`, `.` or `-`. The injector writes
 * them into iptables rules, so anything else is refused.
 */
const interfaceNames: Validator = (v) => {
  if (v.length === 0) return undefined;
  for (const item of v.split(',')) {
    const name = goTrimSpace(item);
    if (name.length === 0) return 'empty interface name';
    if (utf8Length(name) > 15) return `interface name ${goQuote(name)} too long (max 15 chars)`;
    if (!INTERFACE_NAME.test(name)) return `interface name ${goQuote(name)} contains invalid characters`;
  }
  return undefined;
};

/** A Kubernetes resource quantity without control characters (the injector's validateResourceQuantity). */
const resourceQuantity: Validator = (v) => (/[\u0000-\u001f\u007f-\u009f]/.test(v) ? 'value contains control characters' : quantityError(v));

export const ANNOTATION_VALIDATION: Readonly<Record<string, Validator>> = {
  'sidecar.istio.io/interceptionMode': interceptionMode,
  'status.sidecar.istio.io/port': statusPort,
  'readiness.status.sidecar.istio.io/initialDelaySeconds': uint32,
  'readiness.status.sidecar.istio.io/periodSeconds': uint32,
  'readiness.status.sidecar.istio.io/failureThreshold': uint32,
  'traffic.sidecar.istio.io/includeOutboundIPRanges': includeIPRanges,
  'traffic.sidecar.istio.io/excludeOutboundIPRanges': excludeIPRanges,
  'traffic.sidecar.istio.io/includeInboundPorts': (v) => (v === '*' ? undefined : portListError('includeInboundPorts', v)),
  'traffic.sidecar.istio.io/excludeInboundPorts': (v) => portListError('excludeInboundPorts', v),
  'traffic.sidecar.istio.io/excludeOutboundPorts': (v) => portListError('excludeOutboundPorts', v),
  'traffic.sidecar.istio.io/excludeInterfaces': interfaceNames,
  'traffic.sidecar.istio.io/kubevirtInterfaces': interfaceNames,
  'istio.io/reroute-virtual-interfaces': interfaceNames,
  'prometheus.istio.io/merge-metrics': bool,
  'proxy.istio.io/config': proxyConfig,
  'sidecar.istio.io/proxyCPU': resourceQuantity,
  'sidecar.istio.io/proxyMemory': resourceQuantity,
  'sidecar.istio.io/proxyCPULimit': resourceQuantity,
  'sidecar.istio.io/proxyMemoryLimit': resourceQuantity,
};

/** The validation error for an annotation value, or undefined (also for unvalidated keys). */
export function annotationValueError(key: string, value: string): string | undefined {
  const v = Object.hasOwn(ANNOTATION_VALIDATION, key) ? ANNOTATION_VALIDATION[key] : undefined;
  return v ? v(value) : undefined;
}
