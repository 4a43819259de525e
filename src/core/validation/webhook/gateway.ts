// ValidateGateway and the server TLS rules it shares with Sidecar ingress listeners.
import { goQuote } from '../../go/fmt.ts';
import { isDNS1123Label, validateNamespaceSlashWildcardHostname, validatePort } from './names.ts';
import { validateIPAddress } from './addresses.ts';
import { at, b, enumv, idx, items, list, msg, n, s, strs, type Obj } from './read.ts';
import { one, V } from './result.ts';
import { isHTTP, isTLS, parseProtocol, SPEC, type Cfg } from './common.ts';
import { VALID_CIPHER_SUITES } from '../../config/cipherSuites.ts';

export const SERVER_TLS_MODES = ['PASSTHROUGH', 'SIMPLE', 'MUTUAL', 'AUTO_PASSTHROUGH', 'ISTIO_MUTUAL', 'OPTIONAL_MUTUAL'] as const;
const TLS_PROTOCOLS = ['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3'] as const;

function isValidCipherSuite(cs: string): boolean {
  if (cs === '' || cs === 'ALL') return true;
  if (!/^[\p{L}\p{N}]/u.test(cs)) return true;
  return VALID_CIPHER_SUITES.has(cs);
}

/** Go's %v of a sorted []string. */
const goList = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

/** validateTLSOptions (server side). */
export function validateServerTLS(tls: Obj | undefined, path: string): V {
  const v = new V();
  if (!tls) return v;
  const minVersion = enumv(tls, 'minProtocolVersion', TLS_PROTOCOLS);
  const ciphers = strs(tls, 'cipherSuites');
  if ((minVersion === 'TLSV1_0' || minVersion === 'TLSV1_1') && ciphers.length === 0) {
    v.warn('TLS version below TLSV1_2 require setting compatible ciphers as by default they no longer include compatible ciphers.', path);
  }
  const invalid = new Set<string>();
  const valid = new Set<string>();
  const dup = new Set<string>();
  for (const cs of ciphers) {
    if (!isValidCipherSuite(cs)) invalid.add(cs);
    else if (valid.has(cs)) dup.add(cs);
    else valid.add(cs);
  }
  if (invalid.size > 0) v.warn(`ignoring invalid cipher suites: ${goList([...invalid].sort())}`, `${path}.cipherSuites`);
  if (dup.size > 0) v.warn(`ignoring duplicate cipher suites: ${goList([...dup].sort())}`, `${path}.cipherSuites`);

  const mode = enumv(tls, 'mode', SERVER_TLS_MODES);
  const serverCertificate = s(tls, 'serverCertificate');
  const privateKey = s(tls, 'privateKey');
  const caCertificates = s(tls, 'caCertificates');
  const credentialName = s(tls, 'credentialName');
  const credentialNames = list(tls, 'credentialNames') ?? [];
  const tlsCertificates = items(tls, 'tlsCertificates');
  const caCrl = s(tls, 'caCrl');
  if (mode === 'ISTIO_MUTUAL') {
    if (serverCertificate !== '') v.err('ISTIO_MUTUAL TLS cannot have associated server certificate', path);
    if (privateKey !== '') v.err('ISTIO_MUTUAL TLS cannot have associated private key', path);
    if (caCertificates !== '') v.err('ISTIO_MUTUAL TLS cannot have associated CA bundle', path);
    if (tlsCertificates.length > 0) v.err('ISTIO_MUTUAL TLS cannot have associated tlsCertificates', path);
    if (credentialName !== '') v.err('ISTIO_MUTUAL TLS cannot have associated credentialName', path);
    if (credentialNames.length > 0) v.err('ISTIO_MUTUAL TLS cannot have associated credentialNames', path);
    return v;
  }
  if (mode === 'PASSTHROUGH' || mode === 'AUTO_PASSTHROUGH') {
    if (
      caCrl !== '' ||
      serverCertificate !== '' ||
      privateKey !== '' ||
      caCertificates !== '' ||
      tlsCertificates.length > 0 ||
      credentialName !== '' ||
      credentialNames.length > 0
    ) {
      v.warn(`${mode} mode does not use certificates, they will be ignored`, path);
    }
  }
  let sources = 0;
  if (serverCertificate !== '' && privateKey !== '') sources++;
  if (credentialName !== '') sources++;
  if (credentialNames.length > 0) sources++;
  if (tlsCertificates.length > 0) sources++;
  if (sources > 1) v.err('only one of credential_name, credential_names, server_certificate/private_key, tls_certificates should be specified', path);
  const simpleOrMutual = mode === 'SIMPLE' || mode === 'MUTUAL' || mode === 'OPTIONAL_MUTUAL';
  if (simpleOrMutual && (credentialName !== '' || credentialNames.length > 0)) return v;
  const certs =
    tlsCertificates.length > 0
      ? tlsCertificates.map((c) => ({ serverCertificate: s(c ?? undefined, 'serverCertificate'), privateKey: s(c ?? undefined, 'privateKey') }))
      : [{ serverCertificate, privateKey }];
  if (simpleOrMutual) {
    let prefix = 'SIMPLE TLS';
    if (mode === 'MUTUAL' || mode === 'OPTIONAL_MUTUAL') {
      prefix = 'MUTUAL TLS';
      if (caCertificates === '') v.err(`${prefix} requires a client CA bundle`, path);
    }
    if (tlsCertificates.length > 2) v.warn(`${prefix} can support up to 2 server certificates`, path);
    for (const c of certs) {
      if (c.serverCertificate === '') v.err(`${prefix} requires a server certificate`, path);
      if (c.privateKey === '') v.err(`${prefix} requires a private key`, path);
    }
  }
  if (caCrl !== '') {
    if (credentialName !== '') v.err('CRL is not supported with credentialName. CRL has to be specified in the credential', path);
    if (mode === 'SIMPLE') v.err('CRL is not supported with SIMPLE TLS', path);
  }
  return v;
}

/** Go's %v of a *networking.Port: its text-format fields (prototext, single spaces). */
export function portText(port: Obj): string {
  const parts: string[] = [];
  const number = n(port, 'number');
  if (number !== 0) parts.push(`number:${number}`);
  const protocol = s(port, 'protocol');
  if (protocol !== '') parts.push(`protocol:${goQuote(protocol)}`);
  const name = s(port, 'name');
  if (name !== '') parts.push(`name:${goQuote(name)}`);
  const target = n(port, 'targetPort');
  if (target !== 0) parts.push(`target_port:${target}`);
  return parts.join(' ');
}

function validateServerPort(port: Obj | undefined, bind: string, path: string): V {
  const v = new V();
  if (!port) return v.err('port is required', path);
  const protocol = s(port, 'protocol');
  if (parseProtocol(protocol) === 'UnsupportedProtocol')
    v.err(`invalid protocol ${goQuote(protocol)}, supported protocols are HTTP, HTTP2, GRPC, GRPC-WEB, MONGO, REDIS, MYSQL, TCP`, `${path}.protocol`);
  const number = n(port, 'number');
  if (number > 0 || !bind.startsWith('unix://')) {
    const e = validatePort(number);
    if (e) v.err(e, `${path}.number`);
  }
  if (n(port, 'targetPort') > 0) v.err('targetPort has no impact on Gateways', `${path}.targetPort`);
  if (s(port, 'name') === '') v.err(`port name must be set: ${portText(port)}`, path);
  return v;
}

/** ValidateUnixAddress */
export function validateUnixAddress(addr: string): string | undefined {
  if (addr.length === 0) return 'unix address must not be empty';
  if (addr.startsWith('@')) return undefined;
  if (!addr.startsWith('/') || addr.endsWith('/')) return `${addr} is not an absolute path to a file`;
  return undefined;
}

function validateServerBind(port: Obj | undefined, bind: string, path: string): V {
  const v = new V();
  if (bind.startsWith('unix://')) {
    const e = validateUnixAddress(bind.slice('unix://'.length));
    if (e) v.err(e, path);
    if (port && n(port, 'number') !== 0) v.err(`port number must be 0 for unix domain socket: ${portText(port)}`, path);
  } else if (bind.length !== 0) {
    const e = validateIPAddress(bind);
    if (e) v.err(e, path);
  }
  return v;
}

/** gateway.IsPassThroughServer */
function isPassThroughServer(server: Obj): boolean {
  const tls = msg(server, 'tls');
  if (!tls) return false;
  const mode = enumv(tls, 'mode', SERVER_TLS_MODES);
  return mode === 'PASSTHROUGH' || mode === 'AUTO_PASSTHROUGH';
}

function validateServer(server: Obj | null, gatewaySemantics: boolean, path: string): V {
  const v = new V();
  if (server === null) return v.err('cannot have nil server', path);
  const hosts = strs(server, 'hosts');
  if (hosts.length === 0) v.err('server config must contain at least one host', path);
  else hosts.forEach((h, i) => v.add(validateNamespaceSlashWildcardHostname(h, true, gatewaySemantics, idx(at(path, server, 'hosts'), i))));
  const port = msg(server, 'port');
  const bind = s(server, 'bind');
  const portV = validateServerPort(port, bind, at(path, server, 'port'));
  v.add(portV);
  v.add(validateServerBind(port, bind, at(path, server, 'bind')));
  const tls = msg(server, 'tls');
  v.add(validateServerTLS(tls, at(path, server, 'tls')));
  if (portV.ok && port) {
    const p = parseProtocol(s(port, 'protocol'));
    if (isTLS(p) && !tls) v.err('server must have TLS settings for HTTPS/TLS protocols', path);
    else if (!isTLS(p) && tls) {
      if (isHTTP(p)) {
        if (!isPassThroughServer(server) || s(tls, 'caCertificates') !== '' || s(tls, 'privateKey') !== '' || s(tls, 'serverCertificate') !== '') {
          v.err('server cannot have TLS settings for plain text HTTP ports', at(path, server, 'tls'));
        }
      } else {
        v.err('server cannot have TLS settings for non HTTPS/TLS ports', at(path, server, 'tls'));
      }
    }
  }
  return v;
}

export function validateGateway(cfg: Cfg): V {
  const v = new V();
  const gatewaySemantics = cfg.annotations['internal.istio.io/gateway-semantics'] === 'gateway';
  if (!isDNS1123Label(cfg.name) && !gatewaySemantics) v.err(`invalid gateway name: ${goQuote(cfg.name)}`, 'metadata.name');
  const spec = cfg.spec;
  const serversPath = at(SPEC, spec, 'servers');
  const servers = items(spec, 'servers');
  if (servers.length === 0) v.err('gateway must have at least one server', SPEC);
  else servers.forEach((srv, i) => v.add(validateServer(srv, gatewaySemantics, idx(serversPath, i))));
  const portNames = new Set<string>();
  servers.forEach((srv, i) => {
    const path = idx(serversPath, i);
    if (srv === null) {
      v.err('server may not be nil', path);
      return;
    }
    const port = msg(srv, 'port');
    if (port) {
      const name = s(port, 'name');
      if (portNames.has(name)) v.err(`port names in servers must be unique: duplicate name ${name}`, at(at(path, srv, 'port'), port, 'name'));
      portNames.add(name);
      if (!isHTTP(parseProtocol(s(port, 'protocol'))) && b(msg(srv, 'tls'), 'httpsRedirect'))
        v.warn('tls.httpsRedirect should only be used with http servers', at(path, srv, 'tls'));
    }
  });
  return v;
}

export { one };
