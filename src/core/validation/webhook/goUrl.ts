// Go's net/url.Parse, as far as its errors go (Istio quotes them for JWKS URIs and Wasm URLs).
import { goQuote } from '../../go/fmt.ts';

export interface GoURL {
  scheme: string;
  host: string;
  opaque: string;
  path: string;
}

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);

function parseError(op: string, url: string, err: string): string {
  return `${op} ${goQuote(url)}: ${err}`;
}

/** Characters net/url refuses unescaped in a host. */
function hostCharOk(c: string): boolean {
  if (/^[A-Za-z0-9\-_.~]$/.test(c)) return true;
  return '!$&\'()*+,;=:[]<>"'.includes(c);
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function unescapeCheck(s: string, host: boolean): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '%') {
      const hex = s.slice(i, i + 3);
      if (!/^%[0-9A-Fa-f]{2}$/.test(hex)) return `invalid URL escape ${goQuote(s.slice(i, Math.min(i + 3, s.length)))}`;
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !hostCharOk(c)) {
      return `invalid character ${goQuote(c)} in host name`;
    }
  }
  return undefined;
}

function parseHost(host: string): string | undefined {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) return "missing ']' in host";
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) return `invalid port ${goQuote(colonPort)} after host`;
    return unescapeCheck(host.slice(0, i + 1), true);
  }
  const i = host.lastIndexOf(':');
  if (i !== -1) {
    const colonPort = host.slice(i);
    if (!validOptionalPort(colonPort)) return `invalid port ${goQuote(colonPort)} after host`;
  }
  return unescapeCheck(host, true);
}

/** url.Parse (viaRequest false) or url.ParseRequestURI (viaRequest true): the URL or Go's error text. */
export function goParseURL(raw: string, viaRequest = false): GoURL | string {
  const op = 'parse';
  let rawURL = raw;
  let frag = '';
  if (!viaRequest) {
    const h = raw.indexOf('#');
    if (h >= 0) {
      rawURL = raw.slice(0, h);
      frag = raw.slice(h + 1);
    }
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(rawURL)) return parseError(op, raw, 'net/url: invalid control character in URL');
  if (rawURL === '' && viaRequest) return parseError(op, raw, 'empty url');
  const url: GoURL = { scheme: '', host: '', opaque: '', path: '' };
  if (rawURL === '*') {
    url.path = '*';
    return url;
  }
  let rest = rawURL;
  for (let i = 0; i < rawURL.length; i++) {
    const c = rawURL[i] as string;
    if (isLetter(c)) continue;
    if (/^[0-9+\-.]$/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return parseError(op, raw, 'missing protocol scheme');
      url.scheme = rawURL.slice(0, i).toLowerCase();
      rest = rawURL.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length - 1 === 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    if (viaRequest) return parseError(op, raw, 'invalid URI for request');
    const seg = rest.split('/')[0] as string;
    if (seg.includes(':')) return parseError(op, raw, 'first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    let after = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      after = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    const host = at < 0 ? authority : authority.slice(at + 1);
    const herr = parseHost(host);
    if (herr) return parseError(op, raw, herr);
    url.host = host;
    rest = after;
  }
  const perr = unescapeCheck(rest, false);
  if (perr) return parseError(op, raw, perr);
  url.path = rest;
  if (frag !== '') {
    const ferr = unescapeCheck(frag, false);
    if (ferr) return parseError(op, raw, ferr);
  }
  return url;
}

/** URL.Port(): the digits after the host's last colon. */
export function urlPort(u: GoURL): string {
  const host = u.host;
  const i = host.lastIndexOf(':');
  if (i < 0) return '';
  if (host.startsWith('[') && host.lastIndexOf(']') > i) return '';
  const port = host.slice(i + 1);
  return /^[0-9]*$/.test(port) ? port : '';
}
