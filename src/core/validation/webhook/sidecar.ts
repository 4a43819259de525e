// ValidateSidecar: workload selector, ingress and egress listeners (ports, binds, capture
// modes, default endpoints, TLS, connection pools), egress hosts and the outbound policy.
import { goQuote } from '../../go/fmt.ts';
import { atoi, atoiError } from '../../go/strconv.ts';
import { validateAlphaWorkloadSelector, validateNamespaceSlashWildcardHostname, validatePort, validatePortName, validateFQDN } from './names.ts';
import { splitHostPort } from '../../go/netip.ts';
import { validateIPAddress } from './addresses.ts';
import { at, enumv, get, idx, items, msg, n, s, strEntries, strs, type Obj } from './read.ts';
import { V } from './result.ts';
import { isHTTP, isTLS, parseProtocol, SPEC, validateDestination, validateProtocol, type Cfg } from './common.ts';
import { SERVER_TLS_MODES, validateServerTLS, validateUnixAddress } from './gateway.ts';
import { validateConnectionPool } from './destinationRule.ts';
import { mapAt } from '../../document/maps.ts';

const CAPTURE_MODES = ['DEFAULT', 'IPTABLES', 'NONE'] as const;
const OUTBOUND_MODES = ['REGISTRY_ONLY', 'ALLOW_ANY', 'ALLOW_ANY_DYNAMIC_DNS'] as const;

function push(v: V, e: string | undefined, path: string): void {
  if (e) v.err(e, path);
}

function ingressPortAndBind(port: Obj, bind: string, path: string, v: V): void {
  const name = s(port, 'name');
  if (name.length > 0) push(v, validatePortName(name), path);
  push(v, validateProtocol(s(port, 'protocol')), path);
  push(v, validatePort(n(port, 'number')), path);
  if (bind.length !== 0) push(v, validateIPAddress(bind), path);
}

function egressPortBindAndCaptureMode(port: Obj, bind: string, captureMode: string, path: string, v: V): void {
  const name = s(port, 'name');
  if (name.length > 0) push(v, validatePortName(name), path);
  if (n(port, 'number') === 0) {
    push(v, validateProtocol(s(port, 'protocol')), path);
    if (!bind.startsWith('unix://')) v.err('sidecar: ports with 0 value must have a unix domain socket bind address', path);
    else push(v, validateUnixAddress(bind.slice('unix://'.length)), path);
    if (captureMode !== 'DEFAULT' && captureMode !== 'NONE') v.err('sidecar: captureMode must be DEFAULT/NONE for unix domain socket listeners', path);
  } else {
    push(v, validateProtocol(s(port, 'protocol')), path);
    push(v, validatePort(n(port, 'number')), path);
    if (bind.length !== 0) push(v, validateIPAddress(bind), path);
  }
}

function validateOutboundTrafficPolicy(tp: Obj | undefined, path: string): V {
  const v = new V();
  if (!tp) return v;
  const mode = enumv(tp, 'mode', OUTBOUND_MODES);
  if (mode === 'ALLOW_ANY_DYNAMIC_DNS') return v.err('sidecar: ALLOW_ANY_DYNAMIC_DNS mode is only supported in MeshConfig, not in Sidecar resource', path);
  const proxy = msg(tp, 'egressProxy');
  if (proxy) {
    if (mode !== 'ALLOW_ANY') return v.err('sidecar: egress_proxy must be set only with ALLOW_ANY outbound_traffic_policy mode', path);
    const pp = at(path, tp, 'egressProxy');
    push(v, validateFQDN(s(proxy, 'host')), pp);
    if (!msg(proxy, 'port')) return v.err('sidecar: egress_proxy port must be non-nil', pp);
    v.addErrors(validateDestination(proxy, pp));
  }
  return v;
}

export function validateSidecar(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const selector = msg(spec, 'workloadSelector');
  const sel = validateAlphaWorkloadSelector(selector ? strEntries(selector, 'labels') : undefined, at(SPEC, spec, 'workloadSelector'));
  if (!sel.errors.ok) return new V().addErrors(sel.errors);
  if (sel.warning) v.warn(`sidecar: ${sel.warning}, will be applied to all services in namespace`, at(SPEC, spec, 'workloadSelector'));
  const ingress = items(spec, 'ingress');
  const egress = items(spec, 'egress');
  if (egress.length === 0 && ingress.length === 0 && !msg(spec, 'outboundTrafficPolicy') && !msg(spec, 'inboundConnectionPool')) {
    return new V().err('sidecar: empty configuration provided', SPEC);
  }
  let ports = new Set<number>();
  const ingressPath = at(SPEC, spec, 'ingress');
  ingress.forEach((l, i) => {
    const p = idx(ingressPath, i);
    if (l === null) {
      v.err('sidecar: ingress may not be null', p);
      return;
    }
    const port = msg(l, 'port');
    if (!port) {
      v.err('sidecar: port is required for ingress listeners', p);
      return;
    }
    const pp = at(p, l, 'port');
    if (n(port, 'targetPort') > 0) v.err('targetPort has no impact on Sidecars', pp);
    ingressPortAndBind(port, s(l, 'bind'), pp, v);
    const number = n(port, 'number');
    if (ports.has(number)) v.err('sidecar: ports on IP bound listeners must be unique', pp);
    ports.add(number);
    const def = s(l, 'defaultEndpoint');
    const dp = at(p, l, 'defaultEndpoint');
    if (def.length !== 0) {
      if (def.startsWith('unix://')) push(v, validateUnixAddress(def.slice('unix://'.length)), dp);
      else {
        const hp = splitHostPort(def);
        let host = '';
        let portStr = '';
        if (typeof hp === 'string') v.err(hp, dp);
        else ({ host, port: portStr } = hp);
        if (host !== '' && host !== '127.0.0.1' && host !== '0.0.0.0' && host !== '::1' && host !== '::') {
          v.err('sidecar: defaultEndpoint must be of form 127.0.0.1:<port>,0.0.0.0:<port>,[::1]:port,[::]:port,unix://filepath or unset', dp);
        }
        const num = atoi(portStr);
        if (num === undefined) v.err(`sidecar: defaultEndpoint port (${portStr}) is not a number: ${atoiError(portStr)}`, dp);
        else push(v, validatePort(num), dp);
      }
    }
    const tls = msg(l, 'tls');
    if (tls) {
      const tp = at(p, l, 'tls');
      if (strs(tls, 'subjectAltNames').length > 0) v.err('sidecar: subjectAltNames is not supported in ingress tls', tp);
      if (get(tls, 'httpsRedirect') === true) v.err('sidecar: httpsRedirect is not supported', tp);
      if (s(tls, 'credentialName') !== '') v.err('sidecar: credentialName is not currently supported', tp);
      if (strs(tls, 'credentialNames').length > 0) v.err('sidecar: credentialNames is not currently supported', tp);
      if (items(tls, 'tlsCertificates').length > 0) v.err('sidecar: tls_certificates is not currently supported', tp);
      const mode = enumv(tls, 'mode', SERVER_TLS_MODES);
      if (mode === 'ISTIO_MUTUAL' || mode === 'AUTO_PASSTHROUGH') v.err(`configuration is invalid: cannot set mode to ${mode} in sidecar ingress tls`, tp);
      if (!isTLS(parseProtocol(s(port, 'protocol')))) v.err('server cannot have TLS settings for non HTTPS/TLS ports', tp);
      v.add(validateServerTLS(tls, tp));
    }
    const cp = msg(l, 'connectionPool');
    v.add(validateConnectionPool(cp, at(p, l, 'connectionPool')));
    if (cp && msg(cp, 'http') && !isHTTP(parseProtocol(s(port, 'protocol')))) {
      v.warn(
        `sidecar: HTTP connection pool settings are configured for port ${number} (${goQuote(s(port, 'name'))}) but its protocol is not HTTP (${s(port, 'protocol')}); only TCP settings will apply`,
        at(p, l, 'connectionPool'),
      );
    }
  });
  v.add(validateConnectionPool(msg(spec, 'inboundConnectionPool'), at(SPEC, spec, 'inboundConnectionPool')));
  ports = new Set<number>();
  const uds = new Set<string>();
  let catchAll = false;
  const egressPath = at(SPEC, spec, 'egress');
  for (let index = 0; index < egress.length; index++) {
    const e = egress[index] as Obj | null;
    const p = idx(egressPath, index);
    if (e === null) {
      v.err('egress listener may not be null', p);
      continue;
    }
    const port = msg(e, 'port');
    if (!port) {
      if (!catchAll) {
        if (index === egress.length - 1) catchAll = true;
        else v.err('sidecar: the egress listener with empty port should be the last listener in the list', p);
      } else {
        v.err('sidecar: egress can have only one listener with empty port', p);
        continue;
      }
    } else {
      const pp = at(p, e, 'port');
      if (n(port, 'targetPort') > 0) v.err('targetPort has no impact on Sidecars', pp);
      const bind = s(e, 'bind');
      egressPortBindAndCaptureMode(port, bind, enumv(e, 'captureMode', CAPTURE_MODES), pp, v);
      const number = n(port, 'number');
      if (number === 0) {
        if (uds.has(bind)) v.err('sidecar: unix domain socket values for listeners must be unique', pp);
        uds.add(bind);
      } else {
        if (ports.has(number)) v.err('sidecar: ports on IP bound listeners must be unique', pp);
        ports.add(number);
      }
    }
    const hosts = strs(e, 'hosts');
    const hp = at(p, e, 'hosts');
    if (hosts.length === 0) v.err('sidecar: egress listener must contain at least one host', p);
    else {
      const nss = new Map<string, Map<string, boolean>>();
      hosts.forEach((hostname, j) => {
        const slash = hostname.indexOf('/');
        if (slash >= 0 && !hostname.slice(0, slash).startsWith('~')) {
          let ns = hostname.slice(0, slash);
          const svc = hostname.slice(slash + 1);
          if (ns === '.') ns = cfg.namespace;
          const m = mapAt(nss, ns);
          if (svc !== '*') {
            if (m.has(svc) || m.get('*')) v.warn(`duplicated egress host: ${hostname}`, idx(hp, j));
          } else if (m.size !== 0) {
            v.warn(`duplicated egress host: ${hostname}`, idx(hp, j));
          }
          m.set(svc, true);
        }
        v.add(validateNamespaceSlashWildcardHostname(hostname, false, false, idx(hp, j)));
      });
      if (nss.get('*')?.get('*') && nss.size !== 1) v.warn('`*/*` host select all resources, no other hosts can be added', hp);
    }
  }
  v.add(validateOutboundTrafficPolicy(msg(spec, 'outboundTrafficPolicy'), at(SPEC, spec, 'outboundTrafficPolicy')));
  return v;
}
