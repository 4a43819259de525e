// Envoy matchers in proto3 JSON, built the way Istio's pilot/pkg/security/authz/matcher
// package builds them (string, header, metadata and URI-template matchers).
//
// proto3 JSON leaves out fields at their default value, so `ignoreCase` appears only when
// true, as in a config dump.

// Sanitised JSON values (what every generated object is made of): the config dump's JSON types.
import type { JsonObject, JsonValue } from '../configdump/dump.ts';

export type { JsonObject };

/** A deep copy of a JSON value (generated objects are plain JSON). */
export function cloneJson<T extends JsonValue>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** envoy.type.matcher.v3.StringMatcher */
export type StringMatcher = JsonObject;
/** envoy.type.matcher.v3.ValueMatcher */
export type ValueMatcher = JsonObject;
/** envoy.type.matcher.v3.MetadataMatcher */
export type MetadataMatcher = JsonObject;
/** envoy.config.route.v3.HeaderMatcher */
export type HeaderMatcher = JsonObject;

export const URI_TEMPLATE_TYPE = 'type.googleapis.com/envoy.extensions.path.match.uri_template.v3.UriTemplateMatchConfig';

function withCase(m: StringMatcher, ignoreCase: boolean): StringMatcher {
  if (ignoreCase) m.ignoreCase = true;
  return m;
}

export function stringMatcherRegex(regex: string): StringMatcher {
  return { safeRegex: { regex } };
}

export function stringMatcherPrefix(prefix: string, ignoreCase: boolean): StringMatcher {
  return withCase({ prefix }, ignoreCase);
}

export function stringMatcherSuffix(suffix: string, ignoreCase: boolean): StringMatcher {
  return withCase({ suffix }, ignoreCase);
}

export function stringMatcherExact(exact: string, ignoreCase: boolean): StringMatcher {
  return withCase({ exact }, ignoreCase);
}

/** Go's regexp.QuoteMeta: escapes `\.+*?()|[]{}^$`. */
export function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/**
 * StringMatcherWithPrefix: `*` → regex `.+` (the prefix is ignored); `*x` → suffix `x`, or
 * with a prefix the regex `<prefix>.*<QuoteMeta(x)>`; `x*` → prefix `<prefix>x`; else exact.
 */
export function stringMatcherWithPrefix(v: string, prefix: string): StringMatcher {
  if (v === '*') return stringMatcherRegex('.+');
  if (v.startsWith('*')) {
    if (prefix === '') return stringMatcherSuffix(v.slice(1), false);
    return stringMatcherRegex(`${prefix}.*${quoteMeta(v.slice(1))}`);
  }
  if (v.endsWith('*')) return stringMatcherPrefix(prefix + v.slice(0, -1), false);
  return stringMatcherExact(prefix + v, false);
}

/** StringMatcher: the same without a prefix. */
export function stringMatcher(v: string): StringMatcher {
  return stringMatcherWithPrefix(v, '');
}

/** OrMatcher: one matcher as itself, several under `orMatch`. */
export function orMatcher(matchers: ValueMatcher[]): ValueMatcher {
  if (matchers.length === 1) return matchers[0] as ValueMatcher;
  return { orMatch: { valueMatchers: matchers } };
}

/** StringOrMatcher: a string matcher per value, OR-ed. */
export function stringOrMatcher(values: readonly string[]): ValueMatcher {
  return orMatcher(values.map((v) => ({ stringMatch: stringMatcher(v) })));
}

function headerWith(name: string, v: string, ignoreCase: boolean): HeaderMatcher {
  // `*` first, so a prefix or suffix is never empty (Envoy rejects empty ones).
  if (v === '*') return { name, presentMatch: true };
  if (v.startsWith('*')) return { name, stringMatch: stringMatcherSuffix(v.slice(1), ignoreCase) };
  if (v.endsWith('*')) return { name, stringMatch: stringMatcherPrefix(v.slice(0, -1), ignoreCase) };
  return { name, stringMatch: stringMatcherExact(v, ignoreCase) };
}

/** HeaderMatcher: case-sensitive header value match. */
export function headerMatcher(name: string, v: string): HeaderMatcher {
  return headerWith(name, v, false);
}

/** HostMatcher: as HeaderMatcher, but ignoring case (hosts are case-insensitive). */
export function hostMatcher(name: string, v: string): HeaderMatcher {
  return headerWith(name, v, true);
}

/** PathMatcher: envoy.type.matcher.v3.PathMatcher with a `path` string matcher. */
export function pathMatcher(path: string): JsonObject {
  return { path: stringMatcher(path) };
}

const MATCH_ONE_TEMPLATE = '{*}';
const MATCH_ANY_TEMPLATE = '{**}';

/** security.ContainsPathTemplate */
export function containsPathTemplate(v: string): boolean {
  return v.includes(MATCH_ONE_TEMPLATE) || v.includes(MATCH_ANY_TEMPLATE);
}

/**
 * PathTemplateMatcher: `{*}` → `*`, `{**}` → `**` (strings.NewReplacer: left to right, at
 * each position the first listed pattern that matches, so `{**}` is not seen as `{*` + `*}`).
 */
export function pathTemplateMatcher(path: string): JsonObject {
  let out = '';
  for (let i = 0; i < path.length; ) {
    if (path.startsWith(MATCH_ONE_TEMPLATE, i)) {
      out += '*';
      i += MATCH_ONE_TEMPLATE.length;
    } else if (path.startsWith(MATCH_ANY_TEMPLATE, i)) {
      out += '**';
      i += MATCH_ANY_TEMPLATE.length;
    } else {
      out += path[i];
      i++;
    }
  }
  return { '@type': URI_TEMPLATE_TYPE, pathTemplate: out };
}

function pathOf(keys: readonly string[]): JsonValue[] {
  return keys.map((key) => ({ key }));
}

/** MetadataValueMatcher: filter + one key + value. */
export function metadataValueMatcher(filter: string, key: string, value: ValueMatcher): MetadataMatcher {
  return { filter, path: pathOf([key]), value };
}

/** MetadataStringMatcher */
export function metadataStringMatcher(filter: string, key: string, m: StringMatcher): MetadataMatcher {
  return metadataValueMatcher(filter, key, { stringMatch: m });
}

/**
 * MetadataListValueMatcher: a path of keys and a list matcher (`oneOf`). With the extended
 * JWT form the value is `orMatch [listMatch, value]`, so a claim that is a plain string
 * matches too.
 */
export function metadataListValueMatcher(filter: string, keys: readonly string[], value: ValueMatcher, useExtendedJwt: boolean): MetadataMatcher {
  const listMatch: ValueMatcher = { listMatch: { oneOf: value } };
  return {
    filter,
    path: pathOf(keys),
    value: useExtendedJwt ? { orMatch: { valueMatchers: [listMatch, value] } } : listMatch,
  };
}

/** MetadataListMatcher */
export function metadataListMatcher(filter: string, keys: readonly string[], value: StringMatcher, useExtendedJwt: boolean): MetadataMatcher {
  return metadataListValueMatcher(filter, keys, { stringMatch: value }, useExtendedJwt);
}
