// The security.istio.io kinds: ValidateAuthorizationPolicy (with pkg/config/security's value
// checks), ValidateRequestAuthentication (JWT rules) and ValidatePeerAuthentication.
import { goQuote } from '../../go/fmt.ts';
import { numError, parseUint10 } from '../../go/strconv.ts';
import { goJSONSyntaxError } from './goJson.ts';
import { goParseURL, urlPort } from './goUrl.ts';
import { parseAddr, parsePrefixError } from '../../go/netip.ts';
import { at, entries, get, has, idx, items, list, msg, s, strs, type Obj } from './read.ts';
import { V } from './result.ts';
import { policyTargeting, selectorLabels, SPEC, validateDuration, validateStrictHTTPHeaderName, type Cfg } from './common.ts';
import { validateWorkloadSelector } from './names.ts';

const ACTIONS = ['ALLOW', 'DENY', 'AUDIT', 'CUSTOM'] as const;

function checkEmptyValues(key: string, values: readonly string[]): string | undefined {
  return values.some((x) => x === '') ? `empty value not allowed, found in ${key}` : undefined;
}

function checkWildcardValues(key: string, values: readonly string[]): string | undefined {
  const e = checkEmptyValues(key, values);
  if (e) return e;
  for (const value of values) {
    const count = value.split('*').length - 1;
    if (count > 1) return `at most one wildcard is allowed, found in ${key}: ${goQuote(value)}`;
    if (count === 1 && value !== '*' && !value.startsWith('*') && !value.endsWith('*'))
      return `wildcard is only allowed at the start or end, found in ${key}: ${goQuote(value)}`;
  }
  return undefined;
}

function checkTrustDomainValues(key: string, values: readonly string[]): string | undefined {
  const e = checkWildcardValues(key, values);
  if (e) return e;
  for (const value of values) if (value.includes('/')) return `trust domain must not contain '/', found in ${key}: ${goQuote(value)}`;
  return undefined;
}

function checkServiceAccount(key: string, values: readonly string[]): string | undefined {
  if (values.length > 16) return 'may not have more than 16 values';
  for (const value of values) {
    if (value === '') return `empty value not allowed, found in ${key}`;
    if (value.includes('*')) return `wildcard not allowed, found in ${key}`;
    const segments = value.split('/').length - 1;
    if (segments !== 0 && segments !== 1) return `expected format 'serviceAccount' or 'namespace/serviceAccount', found ${goQuote(value)} in ${key}`;
    if (value.length > 320) return `value cannot exceed 320 characters, found ${goQuote(value)} in ${key}`;
    const slash = value.indexOf('/');
    if (slash >= 0) {
      if (slash === 0) return `expected format 'serviceAccount' or 'namespace/serviceAccount', found empty namespace ${goQuote(value)} in ${key}`;
      if (slash === value.length - 1)
        return `expected format 'serviceAccount' or 'namespace/serviceAccount', found empty serviceAccount ${goQuote(value)} in ${key}`;
    }
  }
  return undefined;
}

const VALID_LITERAL = /^[a-zA-Z0-9\-._~%!$&'()+,;:@=]+$/;

function checkValidPathTemplate(key: string, paths: readonly string[]): string | undefined {
  for (const original of paths) {
    const containsTemplate = original.includes('{*}') || original.includes('{**}');
    let foundAny = false;
    const path = original.replace(/^\/+|\/+$/g, '');
    for (const glob of path.split('/')) {
      if (glob === '{*}' && !foundAny) continue;
      if (glob === '{**}' && !foundAny) {
        foundAny = true;
        continue;
      }
      if ((glob === '{**}' || glob === '{*}') && foundAny) return `invalid or unsupported path ${path}, found in ${key}. {**} is not the last operator`;
      if (/[{}]/.test(glob)) return `invalid or unsupported path ${path}, found in ${key}. Contains '{' or '}' beyond a supported path template`;
      if (containsTemplate && !VALID_LITERAL.test(glob))
        return `invalid or unsupported path ${path}, found in ${key}. Contains segment ${glob} with invalid string literal`;
    }
  }
  return undefined;
}

/** security.ValidateIPs: one error per bad entry. */
function validateIPs(ips: readonly string[], path: string, v: V): void {
  for (const ip of ips) {
    if (ip.includes('/')) {
      const e = parsePrefixError(ip);
      if (e) v.err(`bad CIDR range (${ip}): ${e}`, path);
    } else if (typeof parseAddr(ip) === 'string') {
      v.err(`bad IP address (${ip})`, path);
    }
  }
}

function validatePorts(ports: readonly string[], path: string, v: V): void {
  for (const port of ports) {
    const value = parseUint10(port, 32);
    if (typeof value === 'string') v.err(`bad port (${port}): ${numError('ParseUint', port, value)}`, path);
    else if (value > 65535n) v.err(`bad port (${port}): <nil>`, path);
  }
}

function validateMapKey(key: string): string | undefined {
  const open = key.indexOf('[');
  if (key.endsWith(']') && open > 0 && open < key.length - 2) return undefined;
  return `bad key (${key}): should have format a[b]`;
}

/** security.ValidateAttribute: the first problem, as one text (several bad IPs or ports are a list). */
function validateAttribute(key: string, values: readonly string[]): string | undefined {
  const e = checkEmptyValues(key, values);
  if (e) return e;
  const r = attributeErrors(key, values);
  if (r.length === 0) return undefined;
  // ValidateIPs and ValidatePorts return a multierror, which %v prints as a list.
  return isListAttribute(key) ? multiText(r) : r[0];
}

function attributeErrors(key: string, values: readonly string[]): string[] {
  const list1 = (x: string | undefined) => (x ? [x] : []);
  const collect = (f: (v: V) => void): string[] => {
    const v = new V();
    f(v);
    return v.errors.map((x) => x.message);
  };
  if (key.startsWith('request.headers')) return list1(validateMapKey(key));
  if (key === 'source.ip' || key === 'remote.ip' || key === 'destination.ip') return collect((v) => validateIPs(values, '', v));
  if (key === 'source.namespace') return [];
  if (key === 'source.serviceAccount') return list1(checkServiceAccount(key, values));
  if (key === 'source.principal') return [];
  if (key === 'source.trustDomain') return list1(checkWildcardValues(key, values));
  if (key === 'request.auth.principal' || key === 'request.auth.audiences' || key === 'request.auth.presenter') return [];
  if (key.startsWith('request.auth.claims')) return list1(validateMapKey(key));
  if (key === 'destination.port') return collect((v) => validatePorts(values, '', v));
  if (key === 'connection.sni') return [];
  if (key.startsWith('experimental.envoy.filters.')) return list1(validateMapKey(key));
  if (key === 'destination.namespace') return [`attribute ${key} is replaced by the metadata.namespace`];
  if (key.startsWith('destination.labels')) return [`attribute ${key} is replaced by the workload selector`];
  if (key === 'destination.name' || key === 'destination.user') return [`deprecated attribute ${key}: only supported in v1alpha1`];
  return [`unknown attribute: ${key}`];
}

/** go-multierror's text for a list (as %v prints one). */
function multiText(messages: readonly string[]): string {
  if (messages.length === 1) return `1 error occurred:\n\t* ${messages[0]}\n\n`;
  return `${messages.length} errors occurred:\n${messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
}

const SOURCE_FIELDS = [
  'principals',
  'notPrincipals',
  'requestPrincipals',
  'notRequestPrincipals',
  'namespaces',
  'notNamespaces',
  'ipBlocks',
  'notIpBlocks',
  'remoteIpBlocks',
  'notRemoteIpBlocks',
  'serviceAccounts',
  'notServiceAccounts',
  'trustDomains',
  'notTrustDomains',
];
const OPERATION_FIELDS = ['ports', 'methods', 'paths', 'hosts', 'notPorts', 'notMethods', 'notPaths', 'notHosts'];

export function validateAuthorizationPolicy(cfg: Cfg): V {
  const spec = cfg.spec;
  const errs = new V();
  const warnings: { message: string; path?: string }[] = [];
  const targeting = policyTargeting(spec);
  errs.addErrors(targeting);
  for (const w of targeting.warnings) warnings.push(w);
  const action = ((): string => {
    const a = get(spec, 'action');
    if (typeof a === 'string') return ACTIONS.includes(a as (typeof ACTIONS)[number]) ? a : 'ALLOW';
    if (typeof a === 'number' && Number.isInteger(a)) return a >= 0 && a < ACTIONS.length ? (ACTIONS[a] as string) : String(a);
    return 'ALLOW';
  })();
  const rulesRaw = list(spec, 'rules');
  const rules = items(spec, 'rules');
  const rulesPath = at(SPEC, spec, 'rules');
  const provider = msg(spec, 'provider');
  if (action === 'CUSTOM') {
    if (rulesRaw === undefined)
      errs.err(
        'CUSTOM action without `rules` is meaningless as it will never be triggered, add an empty rule `{}` if you want it be triggered for every request',
        SPEC,
      );
    else if (!provider || s(provider, 'name') === '') errs.err('`provider.name` must not be empty', at(SPEC, spec, 'provider'));
    rules.forEach((rule, i) => {
      if (rule === null) return;
      const rp = idx(rulesPath, i);
      const check = (invalid: boolean, name: string) => {
        if (invalid) errs.err(`${name} is currently not supported with CUSTOM action`, rp);
      };
      for (const from of items(rule, 'from')) {
        const src = msg(from ?? undefined, 'source');
        if (!src) continue;
        const len = (k: string) => strs(src, k).length !== 0;
        check(len('namespaces'), 'From.Namespaces');
        check(len('notNamespaces'), 'From.NotNamespaces');
        check(len('serviceAccounts'), 'From.ServiceAccounts');
        check(len('notServiceAccounts'), 'From.NotServiceAccounts');
        check(len('trustDomains'), 'From.TrustDomains');
        check(len('notTrustDomains'), 'From.NotTrustDomains');
        check(len('principals'), 'From.Principals');
        check(len('notPrincipals'), 'From.NotPrincipals');
        check(len('requestPrincipals'), 'From.RequestPrincipals');
        check(len('notRequestPrincipals'), 'From.NotRequestPrincipals');
      }
      for (const when of items(rule, 'when')) {
        if (when === null) {
          errs.err('when field cannot be nil', rp);
          continue;
        }
        const key = s(when, 'key');
        check(key === 'source.namespace', key);
        check(key === 'source.serviceAccount', key);
        check(key === 'source.trustDomain', key);
        check(key === 'source.principal', key);
        check(key.startsWith('request.auth.'), key);
      }
    });
  }
  if (provider && action !== 'CUSTOM') errs.err(`\`provider\` must not be with non CUSTOM action, found ${action}`, at(SPEC, spec, 'provider'));
  if (action === 'DENY' && rulesRaw === undefined)
    errs.err(
      'DENY action without `rules` is meaningless as it will never be triggered, add an empty rule `{}` if you want it be triggered for every request',
      SPEC,
    );
  rules.forEach((rule, i) => {
    const rp = idx(rulesPath, i);
    if (rule === null) {
      errs.err(`\`rule\` must not be nil, found at rule ${i}`, rp);
      return;
    }
    const fromRaw = list(rule, 'from');
    if (fromRaw !== undefined && fromRaw.length === 0) errs.err(`\`from\` must not be empty, found at rule ${i}`, at(rp, rule, 'from'));
    let tcpInFrom = false;
    let tcpInTo = false;
    let fromExist = false;
    let toExist = false;
    items(rule, 'from').forEach((from, j) => {
      const fp = idx(at(rp, rule, 'from'), j);
      if (from === null) {
        errs.err(`\`from\` must not be nil, found at rule ${i}`, fp);
        return;
      }
      const src = msg(from, 'source');
      if (!src) {
        errs.err(`\`from.source\` must not be nil, found at rule ${i}`, fp);
        return;
      }
      fromExist = true;
      const sp = at(fp, from, 'source');
      const l = (k: string) => strs(src, k);
      const count = (...ks: string[]) => ks.reduce((a, k) => a + l(k).length, 0);
      if (count('principals', 'notPrincipals', 'namespaces', 'notNamespaces') > 0 && count('serviceAccounts', 'notServiceAccounts') > 0) {
        errs.err(`cannot set serviceAccounts with namespaces or principals, found at rule ${i}`, sp);
      }
      if (SOURCE_FIELDS.every((k) => l(k).length === 0)) errs.err(`\`from.source\` must not be empty, found at rule ${i}`, sp);
      for (const k of ['ipBlocks', 'notIpBlocks', 'remoteIpBlocks', 'notRemoteIpBlocks']) {
        const tmp = new V();
        validateIPs(l(k), at(sp, src, k), tmp);
        // ValidateIPs returns one multierror; appended, it flattens into its errors.
        errs.addErrors(tmp);
      }
      const push = (e: string | undefined, k: string) => {
        if (e) errs.err(e, at(sp, src, k));
      };
      push(checkEmptyValues('Principals', l('principals')), 'principals');
      push(checkEmptyValues('RequestPrincipals', l('requestPrincipals')), 'requestPrincipals');
      push(checkEmptyValues('Namespaces', l('namespaces')), 'namespaces');
      push(checkServiceAccount('ServiceAccounts', l('serviceAccounts')), 'serviceAccounts');
      push(checkTrustDomainValues('TrustDomains', l('trustDomains')), 'trustDomains');
      push(checkEmptyValues('IpBlocks', l('ipBlocks')), 'ipBlocks');
      push(checkEmptyValues('RemoteIpBlocks', l('remoteIpBlocks')), 'remoteIpBlocks');
      push(checkEmptyValues('NotPrincipals', l('notPrincipals')), 'notPrincipals');
      push(checkEmptyValues('NotRequestPrincipals', l('notRequestPrincipals')), 'notRequestPrincipals');
      push(checkEmptyValues('NotNamespaces', l('notNamespaces')), 'notNamespaces');
      push(checkServiceAccount('NotServiceAccounts', l('notServiceAccounts')), 'notServiceAccounts');
      push(checkTrustDomainValues('NotTrustDomains', l('notTrustDomains')), 'notTrustDomains');
      push(checkEmptyValues('NotIpBlocks', l('notIpBlocks')), 'notIpBlocks');
      push(checkEmptyValues('NotRemoteIpBlocks', l('notRemoteIpBlocks')), 'notRemoteIpBlocks');
      if (
        [
          'notPrincipals',
          'principals',
          'ipBlocks',
          'notIpBlocks',
          'namespaces',
          'notNamespaces',
          'remoteIpBlocks',
          'notRemoteIpBlocks',
          'serviceAccounts',
          'notServiceAccounts',
        ].some((k) => list(src, k) !== undefined)
      ) {
        tcpInFrom = true;
      }
    });
    const toRaw = list(rule, 'to');
    if (toRaw !== undefined && toRaw.length === 0) errs.err(`\`to\` must not be empty, found at rule ${i}`, at(rp, rule, 'to'));
    items(rule, 'to').forEach((to, j) => {
      const tp = idx(at(rp, rule, 'to'), j);
      if (to === null) {
        errs.err(`\`to\` must not be nil, found at rule ${i}`, tp);
        return;
      }
      const op = msg(to, 'operation');
      if (!op) {
        errs.err(`\`to.operation\` must not be nil, found at rule ${i}`, tp);
        return;
      }
      toExist = true;
      const opp = at(tp, to, 'operation');
      const l = (k: string) => strs(op, k);
      if (OPERATION_FIELDS.every((k) => l(k).length === 0)) errs.err(`\`to.operation\` must not be empty, found at rule ${i}`, opp);
      validatePorts(l('ports'), at(opp, op, 'ports'), errs);
      validatePorts(l('notPorts'), at(opp, op, 'notPorts'), errs);
      const push = (e: string | undefined, k: string) => {
        if (e) errs.err(e, at(opp, op, k));
      };
      push(checkEmptyValues('Ports', l('ports')), 'ports');
      push(checkEmptyValues('Methods', l('methods')), 'methods');
      push(checkEmptyValues('Paths', l('paths')), 'paths');
      push(checkEmptyValues('Hosts', l('hosts')), 'hosts');
      push(checkEmptyValues('NotPorts', l('notPorts')), 'notPorts');
      push(checkEmptyValues('NotMethods', l('notMethods')), 'notMethods');
      push(checkEmptyValues('NotPaths', l('notPaths')), 'notPaths');
      push(checkEmptyValues('NotHosts', l('notHosts')), 'notHosts');
      push(checkValidPathTemplate('Paths', l('paths')), 'paths');
      push(checkValidPathTemplate('NotPaths', l('notPaths')), 'notPaths');
      if (list(op, 'ports') !== undefined || list(op, 'notPorts') !== undefined) tcpInTo = true;
    });
    items(rule, 'when').forEach((cond, j) => {
      const cp = idx(at(rp, rule, 'when'), j);
      const key = s(cond ?? undefined, 'key');
      if (key === '') {
        errs.err('`key` must not be empty', cp);
        return;
      }
      const values = strs(cond ?? undefined, 'values');
      const notValues = strs(cond ?? undefined, 'notValues');
      if (values.length === 0 && notValues.length === 0) {
        errs.err(`at least one of \`values\` or \`notValues\` must be set for key ${key}`, cp);
        return;
      }
      const e1 = validateAttribute(key, values);
      if (e1 !== undefined) errs.err(`invalid \`value\` for \`key\` ${key}: ${e1}`, cp);
      const e2 = validateAttribute(key, notValues);
      if (e2 !== undefined) errs.err(`invalid \`notValue\` for \`key\` ${key}: ${e2}`, cp);
    });
    if (((fromExist && !toExist && !tcpInFrom) || (toExist && !tcpInTo)) && action === 'DENY') {
      warnings.push({
        message:
          'configured AuthorizationPolicy will deny all traffic to TCP ports under its scope due to the use of only HTTP attributes in a DENY rule; it is recommended to explicitly specify the port',
        path: rp,
      });
    }
  });
  const out = new V();
  errs.prefixErrors(`invalid policy ${cfg.name}.${cfg.namespace}:`);
  out.addErrors(errs);
  for (const w of warnings) out.warn(w.message, w.path);
  return out;
}

/** Attributes whose check returns a multierror (ValidateIPs, ValidatePorts) print as a list. */
function isListAttribute(key: string): boolean {
  return key === 'source.ip' || key === 'remote.ip' || key === 'destination.ip' || key === 'destination.port';
}

/** The keys of a JWKS document (a set, or a single key), or the parse error. */
function jwksKeys(jwks: string): Obj[] | string {
  const syntax = goJSONSyntaxError(jwks);
  if (syntax) return `failed to unmarshal JWK set: ${syntax}`;
  const doc = JSON.parse(jwks) as unknown;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return 'failed to unmarshal JWK set: json: cannot unmarshal non-object into Go value of type jwk.set';
  const keys = (doc as Obj).keys;
  if (Array.isArray(keys)) return keys.filter((k): k is Obj => typeof k === 'object' && k !== null && !Array.isArray(k));
  return [doc as Obj];
}

function validateJwtRule(rule: Obj, path: string): V {
  const v = new V();
  for (const aud of strs(rule, 'audiences')) if (aud.length === 0) v.err('audience must be non-empty string', at(path, rule, 'audiences'));
  const issuer = s(rule, 'issuer');
  const jwksUri = s(rule, 'jwksUri');
  if (issuer.length === 0 && jwksUri.length === 0) v.err('issuer or jwksUri must be non-empty string', path);
  if (jwksUri.length !== 0) {
    const u = goParseURL(jwksUri);
    if (typeof u === 'string') v.err(u, at(path, rule, 'jwksUri'));
    else if (u.scheme !== 'http' && u.scheme !== 'https') v.err(`URI scheme ${goQuote(u.scheme)} is not supported`, at(path, rule, 'jwksUri'));
    else {
      const port = urlPort(u);
      if (port !== '' && !Number.isSafeInteger(Number(port))) v.err(`strconv.Atoi: parsing ${goQuote(port)}: value out of range`, at(path, rule, 'jwksUri'));
    }
  }
  const jwks = s(rule, 'jwks');
  if (jwks !== '') {
    const keys = jwksKeys(jwks);
    if (typeof keys === 'string') v.err(`jwks parse error: ${keys}`, at(path, rule, 'jwks'));
  }
  for (const loc of items(rule, 'fromHeaders')) {
    if (loc === null) {
      v.err('location header name must be non-null', at(path, rule, 'fromHeaders'));
      continue;
    }
    if (s(loc, 'name').length === 0) v.err('location header name must be non-empty string', at(path, rule, 'fromHeaders'));
  }
  for (const p of strs(rule, 'fromParams')) if (p.length === 0) v.err('location query must be non-empty string', at(path, rule, 'fromParams'));
  for (const c of strs(rule, 'fromCookies')) if (c.length === 0) v.err('cookie name must be non-empty string', at(path, rule, 'fromCookies'));
  for (const ch of items(rule, 'outputClaimToHeaders')) {
    const p = at(path, rule, 'outputClaimToHeaders');
    if (ch === null) {
      v.err('outputClaimToHeaders must not be null', p);
      continue;
    }
    if (s(ch, 'claim') === '' || s(ch, 'header') === '') {
      v.err('outputClaimToHeaders header and claim value must be non-empty string', p);
      continue;
    }
    const e = validateStrictHTTPHeaderName(s(ch, 'header'));
    if (e) v.err(e, p);
  }
  v.add(validateDuration(rule, 'timeout', at(path, rule, 'timeout')));
  return v;
}

function warnPrivateJwksKeys(rule: Obj, path: string, v: V): void {
  const jwks = s(rule, 'jwks');
  if (jwks === '') return;
  const keys = jwksKeys(jwks);
  if (typeof keys === 'string') return;
  keys.forEach((key, i) => {
    const kty = typeof key.kty === 'string' ? key.kty : '';
    const isPrivate = (kty === 'RSA' || kty === 'EC' || kty === 'OKP') && has(key, 'd');
    if (isPrivate || kty === 'oct')
      v.warn(`jwks key at index ${i} contains private key material; only public keys are used for verification`, at(path, rule, 'jwks'));
  });
}

export function validateRequestAuthentication(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  v.add(policyTargeting(spec));
  items(spec, 'jwtRules').forEach((rule, i) => {
    if (rule === null) return;
    const p = idx(at(SPEC, spec, 'jwtRules'), i);
    v.add(validateJwtRule(rule, p));
    warnPrivateJwksKeys(rule, p, v);
  });
  return v;
}

export function validatePeerAuthentication(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const labels = selectorLabels(spec);
  const emptySelector = labels === undefined || labels.length === 0;
  const plm = entries(spec, 'portLevelMtls');
  const plmPath = at(SPEC, spec, 'portLevelMtls');
  if (emptySelector && plm !== undefined && plm.length !== 0) v.err('mesh/namespace peer authentication cannot have port level mTLS', plmPath);
  if (plm !== undefined && plm.length === 0) v.err('port level mTLS, if defined, must have at least one element', plmPath);
  for (const [port] of plm ?? []) {
    const p = /^-?\d+$/.test(port) ? Number(port) : 0;
    if (p <= 0 || p > 65535) v.err('port must be in range 1..65535', plmPath);
  }
  const sel = validateWorkloadSelector(labels, at(SPEC, spec, 'selector'));
  v.add(sel);
  return v;
}
