// ValidateTelemetry, and the extensions: WasmPlugin, TrafficExtension; and ProxyConfig.
import { utf8Length } from '../../go/strings.ts';
import { goParseURL } from './goUrl.ts';
import { at, enumv, get, has, idx, items, list, msg, msgEntries, n, s, wrappedNum, type Obj } from './read.ts';
import { V } from './result.ts';
import { policyTargeting, SPEC, workloadSelector, type Cfg } from './common.ts';
import { celSyntaxError } from './cel.ts';

function validateProviders(providers: readonly (Obj | null)[], path: string): V {
  for (const p of providers) if (p === null || s(p, 'name') === '') return new V().err('providers.name may not be empty', path);
  return new V();
}

export function validateTelemetry(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  v.add(policyTargeting(spec));
  // metrics
  items(spec, 'metrics').forEach((m, i) => {
    if (m === null) return;
    const p = idx(at(SPEC, spec, 'metrics'), i);
    v.add(validateProviders(items(m, 'providers'), at(p, m, 'providers')));
    items(m, 'overrides').forEach((o, j) => {
      const op = idx(at(p, m, 'overrides'), j);
      if (o === null) {
        v.err('tagOverrides may not be null', op);
        return;
      }
      for (const [tagName, to] of msgEntries(o, 'tagOverrides')) {
        if (tagName === '') v.warn('tagOverrides.name may not be empty', op);
        if (to === null) {
          v.err('tagOverrides may not be null', op);
          continue;
        }
        const operation = enumv(to, 'operation', ['UPSERT', 'REMOVE']);
        const value = s(to, 'value');
        if (operation === 'UPSERT' && value === '') v.err('tagOverrides.value must be set when operation is UPSERT', op);
        if (operation === 'REMOVE' && value !== '') v.err('tagOverrides.value may only be set when operation is UPSERT', op);
      }
      const match = msg(o, 'match');
      if (match && has(match, 'customMetric') && s(match, 'customMetric') === '') v.err('customMetric may not be empty', op);
    });
  });
  // tracing
  const tracing = items(spec, 'tracing');
  const tracingPath = at(SPEC, spec, 'tracing');
  if (tracing.length > 1) v.warn('multiple tracing is not currently supported', tracingPath);
  tracing.forEach((t, i) => {
    if (t === null) return;
    const p = idx(tracingPath, i);
    const providers = items(t, 'providers');
    if (providers.length > 1) v.warn('multiple providers is not currently supported', at(p, t, 'providers'));
    v.add(validateProviders(providers, at(p, t, 'providers')));
    const pct = wrappedNum(t, 'randomSamplingPercentage') ?? 0;
    if (pct < 0 || pct > 100) v.err('randomSamplingPercentage must be in range [0.0, 100.0]', at(p, t, 'randomSamplingPercentage'));
    for (const [name, tag] of msgEntries(t, 'customTags')) {
      const tp = at(p, t, 'customTags');
      if (name === '') v.err('tag name may not be empty', tp);
      if (tag === null) {
        v.err(`tag '${name}' may not have a nil value`, tp);
        continue;
      }
      if (has(tag, 'literal')) {
        if (s(msg(tag, 'literal'), 'value') === '') v.err('literal tag value may not be empty', tp);
      } else if (has(tag, 'header')) {
        if (s(msg(tag, 'header'), 'name') === '') v.err('header tag name may not be empty', tp);
      } else if (has(tag, 'environment')) {
        if (s(msg(tag, 'environment'), 'name') === '') v.err('environment tag name may not be empty', tp);
      }
    }
  });
  // access logging
  items(spec, 'accessLogging').forEach((l, i) => {
    if (l === null) return;
    const p = idx(at(SPEC, spec, 'accessLogging'), i);
    const filter = msg(l, 'filter');
    if (filter) {
      const e = celSyntaxError(s(filter, 'expression'));
      if (e) v.err(`must be a valid CEL expression, ${e}`, at(at(p, l, 'filter'), filter, 'expression'));
    }
    v.add(validateProviders(items(l, 'providers'), at(p, l, 'providers')));
  });
  return v;
}

// ---- WasmPlugin / TrafficExtension ------------------------------------------------------

function validateWasmURL(url: string, path: string): string | undefined {
  if (url === '') return 'url field needs to be set';
  let u = goParseURL(url, true);
  if (typeof u === 'string') {
    const original = u;
    const nu = goParseURL(`http://${url}`, true);
    if (typeof nu === 'string') return `failed to parse url: ${original}`;
    const strict = goParseURL(`http://${url}`);
    if (typeof strict === 'string') return `failed to strict parse url: ${strict}`;
    u = nu;
  } else {
    const strict = goParseURL(url);
    if (typeof strict === 'string') return `failed to strict parse url: ${strict}`;
  }
  void path;
  if (!['', 'file', 'http', 'https', 'oci'].includes(u.scheme)) return `url contains unsupported scheme: ${u.scheme}`;
  return undefined;
}

function validateSHA(sha: string): string | undefined {
  if (sha === '') return undefined;
  if (utf8Length(sha) !== 64) return 'sha256 field must be 64 characters long';
  if (!/^[a-f0-9]*$/.test(sha)) return 'sha256 field must match [a-f0-9]{64} pattern';
  return undefined;
}

function validateVMConfig(vm: Obj | undefined): string | undefined {
  const env = items(vm, 'env');
  if (!vm || env.length === 0) return undefined;
  const keys = new Set<string>();
  for (const e of env) {
    if (e === null) continue;
    const name = s(e, 'name');
    if (name === '') return 'spec.vmConfig.env invalid';
    if (utf8Length(name) > 256) return 'env.name field must be less than 255 characters long';
    if (keys.has(name)) return 'duplicate env';
    keys.add(name);
    if (enumv(e, 'valueFrom', ['INLINE', 'HOST']) !== 'INLINE' && s(e, 'value') !== '') return 'value may only be set when valueFrom is INLINE';
  }
  return undefined;
}

function validateTrafficSelectors(selectors: readonly (Obj | null)[]): string | undefined {
  for (let i = 0; i < selectors.length; i++) {
    const sel = selectors[i];
    if (sel === null) return `spec.Match[${i}] is nil`;
    const ports = items(sel, 'ports');
    for (let j = 0; j < ports.length; j++) {
      const port = ports[j];
      if (port === null) return `spec.Match[${i}].Ports[${j}] is nil`;
      const number = n(port, 'number');
      if (number <= 0 || number > 65535) return `spec.Match[${i}].Ports[${j}] is out of range: ${number}`;
    }
  }
  return undefined;
}

function push(v: V, e: string | undefined, path: string): void {
  if (e) v.err(e, path);
}

export function validateWasmPlugin(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  v.add(policyTargeting(spec));
  push(v, validateWasmURL(s(spec, 'url'), at(SPEC, spec, 'url')), at(SPEC, spec, 'url'));
  push(v, validateSHA(s(spec, 'sha256')), at(SPEC, spec, 'sha256'));
  if (utf8Length(s(spec, 'imagePullSecret')) > 253) v.err('imagePullSecret field must be less than 253 characters long', at(SPEC, spec, 'imagePullSecret'));
  if (utf8Length(s(spec, 'pluginName')) > 256) v.err('pluginName field must be less than 255 characters long', at(SPEC, spec, 'pluginName'));
  push(v, validateVMConfig(msg(spec, 'vmConfig')), at(SPEC, spec, 'vmConfig'));
  push(v, validateTrafficSelectors(items(spec, 'match')), at(SPEC, spec, 'match'));
  return v;
}

export function validateTrafficExtension(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const wasm = msg(spec, 'wasm');
  const lua = msg(spec, 'lua');
  if ((wasm && lua) || (!wasm && !lua)) v.err('exactly one of wasm or lua must be set', SPEC);
  v.add(policyTargeting(spec, false));
  if (lua) {
    const code = s(lua, 'inlineCode');
    const lp = at(SPEC, spec, 'lua');
    if (code.length === 0) v.err('lua.inlineCode cannot be empty', lp);
    else if (utf8Length(code) > 65536) v.err('lua.inlineCode exceeds maximum size of 64KB', lp);
  }
  if (wasm) {
    const wp = at(SPEC, spec, 'wasm');
    push(v, validateWasmURL(s(wasm, 'url'), wp), at(wp, wasm, 'url'));
    push(v, validateSHA(s(wasm, 'sha256')), at(wp, wasm, 'sha256'));
    if (utf8Length(s(wasm, 'imagePullSecret')) > 253) v.err('imagePullSecret field must be less than 253 characters long', at(wp, wasm, 'imagePullSecret'));
    if (utf8Length(s(wasm, 'pluginName')) > 256) v.err('pluginName field must be less than 256 characters long', at(wp, wasm, 'pluginName'));
    push(v, validateVMConfig(msg(wasm, 'vmConfig')), at(wp, wasm, 'vmConfig'));
  }
  push(v, validateTrafficSelectors(items(spec, 'match')), at(SPEC, spec, 'match'));
  return v;
}

export function validateProxyConfig(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  v.add(workloadSelector(spec));
  if ((wrappedNum(spec, 'concurrency') ?? 0) < 0) v.err('concurrency must be greater than or equal to 0', at(SPEC, spec, 'concurrency'));
  return v;
}

export { get, list };
