// authorization.NamespaceMethodChecker (Kiali business/checkers/authorization/namespace_method_checker.go):
// `from[].source.namespaces[]` entries must match a known namespace (exactly, as `prefix*`,
// `*suffix`, or `*` when Kiali knows any), else KIA0101; `to[].operation.methods[]` must be HTTP
// methods (or their `*` prefix/suffix/presence forms), else KIA0102. Both leave the policy valid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'];

/** models.NamespaceNames.MatchesPattern. */
export function namespaceMatchesPattern(namespaces: readonly string[], pattern: string): boolean {
  if (pattern === '*') return namespaces.length > 0;
  if (namespaces.includes(pattern)) return true;
  return namespaces.some((ns) => {
    if (pattern.endsWith('*')) {
      const prefix = pattern.slice(0, -1);
      return prefix !== '' && ns.startsWith(prefix);
    }
    if (pattern.startsWith('*')) {
      const suffix = pattern.slice(1);
      return suffix !== '' && ns.endsWith(suffix);
    }
    return false;
  });
}

/** validMethod: an HTTP method, `*`, or an HTTP method's prefix (`GE*`) or suffix (`*ET`), any case. */
export function validMethod(m: string): boolean {
  const method = m.trim();
  if (method === '') return false;
  if (method === '*') return true;
  const prefixMatch = method.endsWith('*') && !method.startsWith('*');
  const suffixMatch = method.startsWith('*') && !method.endsWith('*');
  const pattern = (prefixMatch ? method.slice(0, -1) : suffixMatch ? method.slice(1) : method).toUpperCase();
  return HTTP_METHODS.some((h) => {
    if (prefixMatch) return pattern !== '' && h.startsWith(pattern);
    if (suffixMatch) return pattern !== '' && h.endsWith(pattern);
    return h === pattern;
  });
}

export const namespaceMethodChecker = objectChecker('authorization.NamespaceMethodChecker', KINDS.AuthorizationPolicy, ['KIA0101', 'KIA0102'], (ctx, ap) => {
  const spec = isObj(ap.body.spec) ? ap.body.spec : {};
  const checks: KialiCheck[] = [];
  const known = ctx.namespaces ?? [];
  arr(spec.rules).forEach((rule, r) => {
    if (!isObj(rule)) return;
    arr(rule.from).forEach((from, f) => {
      if (!isObj(from) || !isObj(from.source)) return;
      arr(from.source.namespaces).forEach((ns, i) => {
        if (!namespaceMatchesPattern(known, str(ns)))
          checks.push(buildCheck('authorizationpolicy.source.namespacenotfound', `spec/rules[${r}]/from[${f}]/source/namespaces[${i}]`));
      });
    });
    arr(rule.to).forEach((to, t) => {
      if (!isObj(to) || !isObj(to.operation)) return;
      arr(to.operation.methods).forEach((m, i) => {
        if (!validMethod(str(m))) checks.push(buildCheck('authorizationpolicy.to.wrongmethod', `spec/rules[${r}]/to[${t}]/operation/methods[${i}]`));
      });
    });
  });
  return { checks, valid: true };
});
