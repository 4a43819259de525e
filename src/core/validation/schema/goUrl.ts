// Go's url.ParseRequestURI as far as the API server's CEL `isURL()`/`url()` need it: the
// scheme, an authority's userinfo and host characters, and percent escapes. Returns the
// parsed parts, or Go's error text.

export type ParsedUrl = { scheme: string; host: string; path: string; query: string } | { error: string };

function ishex(c: string): boolean {
  return /^[0-9a-fA-F]$/.test(c);
}

/** The first bad `%` escape in `s`, if any. */
function badEscape(s: string): string | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '%') continue;
    if (i + 2 >= s.length || !ishex(s[i + 1] ?? '') || !ishex(s[i + 2] ?? '')) return s.slice(i, i + 3);
    i += 2;
  }
  return undefined;
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

export function parseRequestUri(raw: string): ParsedUrl {
  const fail = (msg: string): ParsedUrl => ({ error: `parse ${JSON.stringify(raw)}: ${msg}` });
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  if (raw === '') return fail('empty url');
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return fail('missing protocol scheme');
      scheme = raw.slice(0, i).toLowerCase();
      rest = raw.slice(i + 1);
    }
    break;
  }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, host: '', path: rest, query }; // opaque
    return fail('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      if (!validUserinfo(authority.slice(0, at))) return fail('net/url: invalid userinfo');
    }
    host = at >= 0 ? authority.slice(at + 1) : authority;
    const bad = badEscape(host);
    if (bad !== undefined) return fail(`invalid URL escape ${JSON.stringify(bad)}`);
    if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:[\]%]*$/.test(host))
      return fail(`invalid character ${JSON.stringify(host.replace(/[A-Za-z0-9\-._~!$&'()*+,;=:[\]%]/g, '')[0])} in host name`);
  }
  const bad = badEscape(rest);
  if (bad !== undefined) return fail(`invalid URL escape ${JSON.stringify(bad)}`);
  return { scheme, host, path: rest, query };
}
