// Envoy's matchers as routing and RBAC both apply them: StringMatcher, HeaderMatcher and
// RE2 regexes (a safe_regex matches the whole value). One implementation, so a route and an
// AuthorizationPolicy read the same header the same way.
import { isObj } from '../document/read.ts';
import type { Json } from './types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** An RE2 regex as JavaScript reads it, anchored at both ends; undefined when it does not compile. */
export function fullRegex(re: string): RegExp | undefined {
  let src = re;
  let flags = '';
  const m = /^\(\?([imsU]+)\)/.exec(src);
  if (m) {
    src = src.slice(m[0].length);
    if (m[1]?.includes('i')) flags += 'i';
    if (m[1]?.includes('s')) flags += 's';
  }
  try {
    return new RegExp(`^(?:${src.replace(/\(\?P</g, '(?<')})$`, flags);
  } catch {
    return undefined;
  }
}

/** envoy.type.matcher.v3.StringMatcher (`ignoreCase` does not apply to `safeRegex`, as in Envoy). */
export function stringMatches(m: unknown, value: string | undefined): boolean {
  if (!isObj(m) || value === undefined) return false;
  const ic = m.ignoreCase === true;
  const v = ic ? value.toLowerCase() : value;
  const want = (x: unknown) => (ic ? str(x).toLowerCase() : str(x));
  if (typeof m.exact === 'string') return v === want(m.exact);
  if (typeof m.prefix === 'string') return v.startsWith(want(m.prefix));
  if (typeof m.suffix === 'string') return v.endsWith(want(m.suffix));
  if (typeof m.contains === 'string') return v.includes(want(m.contains));
  if (isObj(m.safeRegex)) return fullRegex(str(m.safeRegex.regex))?.test(value) ?? false;
  return false;
}

/** envoy.config.route.v3.HeaderMatcher over lower-case header names (pseudo-headers included). */
export function headerMatches(h: Json, headers: ReadonlyMap<string, string>): boolean {
  let value = headers.get(str(h.name).toLowerCase());
  if (value === undefined && h.treatMissingHeaderAsEmpty === true) value = '';
  const valueMatch =
    isObj(h.stringMatch) || ['exactMatch', 'prefixMatch', 'suffixMatch', 'containsMatch'].some((k) => typeof h[k] === 'string') || isObj(h.safeRegexMatch);
  // A missing header never matches a value rule, inverted or not, unless treatMissingHeaderAsEmpty
  // (route_components.proto, HeaderMatcher.treat_missing_header_as_empty: "the header matcher rule
  // ... will be ignored so it will not match"). Only presence rules answer for a missing header.
  if (value === undefined && valueMatch && typeof h.presentMatch !== 'boolean') return false;
  let ok: boolean;
  if (typeof h.presentMatch === 'boolean') ok = (value !== undefined) === h.presentMatch;
  else if (isObj(h.stringMatch)) ok = stringMatches(h.stringMatch, value);
  else if (typeof h.exactMatch === 'string') ok = value === h.exactMatch;
  else if (typeof h.prefixMatch === 'string') ok = value !== undefined && value.startsWith(h.prefixMatch);
  else if (typeof h.suffixMatch === 'string') ok = value !== undefined && value.endsWith(h.suffixMatch);
  else if (typeof h.containsMatch === 'string') ok = value !== undefined && value.includes(h.containsMatch);
  else if (isObj(h.safeRegexMatch)) ok = value !== undefined && (fullRegex(str(h.safeRegexMatch.regex))?.test(value) ?? false);
  else ok = value !== undefined;
  return h.invertMatch === true ? !ok : ok;
}
