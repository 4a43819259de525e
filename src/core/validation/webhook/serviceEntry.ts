// ValidateServiceEntry, ValidateWorkloadEntry and ValidateWorkloadGroup.
import { goQuote } from '../../go/fmt.ts';
import {
  validateAlphaWorkloadSelector,
  validateExportTo,
  validateFQDN,
  validateLabels,
  validatePartialWildcard,
  validatePort,
  validatePortName,
  validateWildcardDomain,
} from './names.ts';
import { isWildcardHost } from '../../config/hosts.ts';
import { isValidIP } from '../../go/netip.ts';
import { validateIPSubnet } from './addresses.ts';
import { at, enumv, idx, items, list, msg, n, s, strEntries, strs, type Obj } from './read.ts';
import { V } from './result.ts';
import { isHTTP, isTCP, isTLS, parseProtocol, SPEC, validateProbeHeaderName, validateProtocol, type Cfg } from './common.ts';
import { validateUnixAddress } from './gateway.ts';

const RESOLUTIONS = ['NONE', 'STATIC', 'DNS', 'DNS_ROUND_ROBIN', 'DYNAMIC_DNS'] as const;
const LOCATIONS = ['MESH_EXTERNAL', 'MESH_INTERNAL'] as const;

/** The ports of a WorkloadEntry (map name → number) as entries. */
function portEntries(we: Obj): [string, number][] {
  return strEntries(we, 'ports').map(([k, val]) => [k, Number(val) || 0]);
}

function validateWorkloadEntry(we: Obj, servicePorts: Set<string> | undefined, allowFQDN: boolean, path: string): V {
  const v = new V();
  const addr = s(we, 'address');
  const network = s(we, 'network');
  if (addr === '') {
    if (network === '') return v.err('address is required', path);
    v.warn(`address is unset with network ${goQuote(network)}`, path);
  }
  let unix = false;
  const ports = portEntries(we);
  if (addr.startsWith('unix://')) {
    unix = true;
    const e = validateUnixAddress(addr.slice('unix://'.length));
    if (e) v.err(e, at(path, we, 'address'));
    if (ports.length !== 0) v.err(`unix endpoint ${addr} must not include ports`, at(path, we, 'ports'));
  } else if (addr !== '' && !isValidIP(addr)) {
    if (!allowFQDN) v.err(`endpoint address ${goQuote(addr)} is not a valid IP address`, at(path, we, 'address'));
    else if (validateFQDN(addr)) v.err(`endpoint address ${goQuote(addr)} is not a valid FQDN or an IP address`, at(path, we, 'address'));
  }
  for (const [name, port] of ports) {
    if (servicePorts && !servicePorts.has(name)) v.err(`endpoint port ${port} is not defined by the service entry`, at(path, we, 'ports'));
    const e1 = validatePortName(name);
    if (e1) v.err(e1, at(path, we, 'ports'));
    const e2 = validatePort(port);
    if (e2) v.err(e2, at(path, we, 'ports'));
  }
  v.add(validateLabels(strEntries(we, 'labels'), at(path, we, 'labels')));
  if (unix && servicePorts && servicePorts.size !== 1) v.err('exactly 1 service port required for unix endpoints', path);
  return v;
}

export function validateWorkloadEntrySpec(cfg: Cfg): V {
  return validateWorkloadEntry(cfg.spec, undefined, true, SPEC);
}

export function validateWorkloadGroup(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  if (!msg(spec, 'template')) return v.err('template is required', SPEC);
  const meta = msg(spec, 'metadata');
  if (meta) {
    const lv = validateLabels(strEntries(meta, 'labels'), at(at(SPEC, spec, 'metadata'), meta, 'labels'));
    // fmt.Errorf("invalid labels: %v", err) of a multierror prints go-multierror's list format.
    if (!lv.ok) return v.err(`invalid labels: ${multierrorText(lv.errors.map((e) => e.message))}`, at(SPEC, spec, 'metadata'));
  }
  const probe = msg(spec, 'probe');
  if (probe) validateProbe(probe, at(SPEC, spec, 'probe'), v);
  return v;
}

/** go-multierror's Error() text. */
export function multierrorText(messages: readonly string[]): string {
  if (messages.length === 1) return `1 error occurred:\n\t* ${messages[0]}\n\n`;
  return `${messages.length} errors occurred:\n${messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
}

function validateProbe(probe: Obj, path: string, v: V): void {
  for (const [field, text] of [
    ['periodSeconds', 'periodSeconds'],
    ['initialDelaySeconds', 'initialDelaySeconds'],
    ['timeoutSeconds', 'timeoutSeconds'],
    ['successThreshold', 'successThreshold'],
    ['failureThreshold', 'failureThreshold'],
  ] as const) {
    if (n(probe, field) < 0) v.err(`${text} must be non-negative`, at(path, probe, field));
  }
  const httpGet = msg(probe, 'httpGet');
  const tcpSocket = msg(probe, 'tcpSocket');
  const exec = msg(probe, 'exec');
  if (httpGet) {
    const p = at(path, probe, 'httpGet');
    const e = validatePort(n(httpGet, 'port'));
    if (e) v.err(e, p);
    const scheme = s(httpGet, 'scheme');
    if (scheme !== '' && scheme !== 'HTTPS' && scheme !== 'HTTP') v.err('httpGet.scheme must be one of "HTTPS", "HTTP"', p);
    for (const h of items(httpGet, 'httpHeaders')) {
      if (h === null) {
        v.err('invalid nil header', p);
        continue;
      }
      const he = validateProbeHeaderName(s(h, 'name'));
      if (he) v.err(he, p);
    }
  } else if (tcpSocket) {
    const e = validatePort(n(tcpSocket, 'port'));
    if (e) v.err(e, at(path, probe, 'tcpSocket'));
  } else if (exec) {
    if (strs(exec, 'command').length === 0) v.err('exec.command is required', at(path, probe, 'exec'));
  } else {
    v.err('unknown health check method <nil>', path);
  }
}

export function validateServiceEntry(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const selector = msg(spec, 'workloadSelector');
  const sel = validateAlphaWorkloadSelector(selector ? strEntries(selector, 'labels') : undefined, at(SPEC, spec, 'workloadSelector'));
  if (!sel.errors.ok) return new V().addErrors(sel.errors);
  if (sel.warning) v.warn(`service entry: ${sel.warning}, will be applied to all services in namespace`, at(SPEC, spec, 'workloadSelector'));
  const endpointsList = list(spec, 'endpoints');
  if (selector && endpointsList !== undefined) v.err('only one of WorkloadSelector or Endpoints is allowed in Service Entry', SPEC);
  const hosts = strs(spec, 'hosts');
  const resolution = enumv(spec, 'resolution', RESOLUTIONS);
  const hostsPath = at(SPEC, spec, 'hosts');
  if (hosts.length === 0) v.err('service entry must have at least one host', SPEC);
  hosts.forEach((h, i) => {
    const p = idx(hostsPath, i);
    if (h === '*') v.err(`invalid host ${h}`, p);
    else {
      const e = validateWildcardDomain(h);
      if (e) v.err(e, p);
      if (resolution !== 'DYNAMIC_DNS') {
        const w = validatePartialWildcard(h);
        if (w) v.warn(w, p);
      }
    }
  });
  const addresses = strs(spec, 'addresses');
  let cidr = false;
  addresses.forEach((a, i) => {
    cidr = cidr || a.includes('/');
    const e = validateIPSubnet(a);
    if (e) v.err(e, idx(at(SPEC, spec, 'addresses'), i));
  });
  if (cidr && resolution !== 'NONE' && resolution !== 'STATIC')
    v.err('CIDR addresses are allowed only for NONE/STATIC resolution types', at(SPEC, spec, 'addresses'));
  // istioctl passes no labels, so only the mesh-wide switch (on by default) and the spec decide.
  const autoAllocation =
    resolution !== 'NONE' && (cfg.labels['networking.istio.io/enable-autoallocate-ip'] ?? '').toLowerCase() !== 'false' && addresses.length === 0;
  const portNumbers = new Set<number>();
  const servicePorts = new Set<string>();
  const ports = items(spec, 'ports');
  const portsPath = at(SPEC, spec, 'ports');
  ports.forEach((port, i) => {
    const p = idx(portsPath, i);
    if (port === null) {
      v.err('service entry port may not be null', p);
      return;
    }
    const name = s(port, 'name');
    const number = n(port, 'number');
    if (servicePorts.has(name)) v.err(`service entry port name ${goQuote(name)} already defined`, at(p, port, 'name'));
    servicePorts.add(name);
    if (portNumbers.has(number)) v.err(`service entry port ${number} already defined`, at(p, port, 'number'));
    portNumbers.add(number);
    const target = n(port, 'targetPort');
    if (target !== 0) {
      const e = validatePort(target);
      if (e) v.err(e, at(p, port, 'targetPort'));
    }
    const protocol = s(port, 'protocol');
    if (addresses.length === 0 && !autoAllocation && (protocol === '' || protocol === 'TCP')) {
      v.warn('addresses are required for ports serving TCP (or unset) protocol when IP Autoallocation is not enabled', p);
    }
    const e1 = validatePortName(name);
    if (e1) v.err(e1, at(p, port, 'name'));
    const e2 = validateProtocol(protocol);
    if (e2) v.err(e2, at(p, port, 'protocol'));
    const e3 = validatePort(number);
    if (e3) v.err(e3, at(p, port, 'number'));
  });
  const endpoints = items(spec, 'endpoints');
  const endpointsPath = at(SPEC, spec, 'endpoints');
  switch (resolution) {
    case 'NONE':
      if (endpoints.length !== 0) v.err('no endpoints should be provided for resolution type none', endpointsPath);
      if (selector) v.warn('workloadSelector should not be set when resolution mode is NONE', at(SPEC, spec, 'workloadSelector'));
      break;
    case 'STATIC':
      endpoints.forEach((ep, i) => {
        if (ep === null) v.err('endpoint cannot be nil', idx(endpointsPath, i));
        else v.add(validateWorkloadEntry(ep, servicePorts, false, idx(endpointsPath, i)));
      });
      break;
    case 'DNS':
    case 'DNS_ROUND_ROBIN':
      if (endpoints.length === 0) {
        for (const h of hosts) {
          const e = validateFQDN(h);
          if (e) {
            v.err(`hosts must be FQDN or contain only prefix wildcards if no endpoints are provided for resolution mode ${resolution}, ${e}`, hostsPath);
            break;
          }
        }
      }
      if (resolution === 'DNS_ROUND_ROBIN' && endpoints.length > 1)
        v.err(`there must only be 0 or 1 endpoint for resolution mode ${resolution}`, endpointsPath);
      endpoints.forEach((ep, i) => {
        const p = idx(endpointsPath, i);
        if (ep === null) {
          v.err('endpoint cannot be nil', p);
          return;
        }
        const addr = s(ep, 'address');
        if (!isValidIP(addr) && validateFQDN(addr)) v.err(`endpoint address ${goQuote(addr)} is not a valid FQDN or an IP address`, at(p, ep, 'address'));
        v.add(validateLabels(strEntries(ep, 'labels'), at(p, ep, 'labels')));
        for (const [name, port] of portEntries(ep)) {
          if (!servicePorts.has(name)) v.err(`endpoint port ${port} is not defined by the service entry`, at(p, ep, 'ports'));
          const e1 = validatePortName(name);
          if (e1) v.err(e1, at(p, ep, 'ports'));
          const e2 = validatePort(port);
          if (e2) v.err(e2, at(p, ep, 'ports'));
        }
      });
      if (addresses.length > 0) {
        for (let i = 0; i < ports.length; i++) {
          const port = ports[i] as Obj | null;
          if (port === null) {
            v.err('ports cannot be nil', idx(portsPath, i));
            continue;
          }
          if (isTCP(parseProtocol(s(port, 'protocol')))) {
            if (hosts.length > 1) v.warn('service entry can not have more than one host specified simultaneously with address and tcp port', SPEC);
            break;
          }
        }
      }
      break;
    case 'DYNAMIC_DNS':
      if (hosts.length === 0) v.err(`at least one wildcard host must be provided for resolution type ${resolution}`, SPEC);
      hosts.forEach((h, i) => {
        if (!isWildcardHost(h)) v.err(`host must be wildcarded for resolution mode ${resolution}`, idx(hostsPath, i));
      });
      if (addresses.length !== 0)
        v.err(
          `addresses cannot be set for resolution type ${resolution}. HTTP route domains will only be generatedfrom the hosts field values`,
          at(SPEC, spec, 'addresses'),
        );
      if (endpoints.length !== 0)
        v.err(`endpoints cannot be set for resolution type ${resolution}. Destination IP address determined from hostsfield values`, endpointsPath);
      ports.forEach((port, i) => {
        if (port === null) {
          v.err('port cannot be nil', idx(portsPath, i));
          return;
        }
        const proto = parseProtocol(s(port, 'protocol'));
        if (proto !== 'HTTP' && proto !== 'TLS' && proto !== 'GRPC' && proto !== 'HTTP2')
          v.err(`only HTTP, TLS, GRPC, and HTTP2 protocols are supported for resolution type ${resolution}`, idx(portsPath, i));
      });
      {
        const location = enumv(spec, 'location', LOCATIONS);
        if (location !== 'MESH_EXTERNAL' && location !== 'MESH_INTERNAL')
          v.err(`location must be MESH_EXTERNAL or MESH_INTERNAL for resolution type ${resolution}`, at(SPEC, spec, 'location'));
        const waypoint = cfg.labels['istio.io/use-waypoint'];
        if (location === 'MESH_INTERNAL' && waypoint !== undefined && waypoint !== '' && waypoint.toLowerCase() !== 'none') {
          v.err(`location MESH_INTERNAL with resolution type ${resolution} is not supported when using waypoints`, at(SPEC, spec, 'location'));
        }
      }
      break;
    default:
      // An enum number Istio does not name prints as '' (ServiceEntry_Resolution_name lookup).
      v.err(`unsupported resolution type ${/^\d+$/.test(resolution) ? '' : resolution}`, at(SPEC, spec, 'resolution'));
  }
  if (resolution !== 'NONE' && hosts.length > 1) {
    for (let i = 0; i < ports.length; i++) {
      const port = ports[i] as Obj | null;
      if (port === null) {
        v.err('ports cannot be nil', idx(portsPath, i));
        continue;
      }
      const p = parseProtocol(s(port, 'protocol'));
      if (!isHTTP(p) && !isTLS(p)) {
        v.err('multiple hosts provided with non-HTTP, non-TLS ports', idx(portsPath, i));
        break;
      }
    }
  }
  v.add(validateExportTo(cfg.namespace, strs(spec, 'exportTo'), true, false, at(SPEC, spec, 'exportTo')));
  return v;
}
