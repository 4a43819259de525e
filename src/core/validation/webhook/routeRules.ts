// The route-rule analysis of Istio's VirtualService validation (analyzeUnreachableHTTPRules and
// its tcp/tls twins): rules that can never be reached and matches already covered by an
// earlier one, for http, tcp and tls rules. Istio returns them as AnalysisAwareError
// warnings, which istioctl reports as IST0130 and IST0131 instead of IST0133. Matches are
// compared as Istio compares them: field by field with zero values ignored and the match
// name left out; http prefix matches are also checked for being covered by an earlier,
// shorter prefix.
import { goQuote } from '../../go/fmt.ts';
import {
  VirtualServiceRuleLists,
  type HTTPMatchRequest,
  type L4MatchAttributes,
  type StringMatch,
  type TLSMatchAttributes,
} from '../../config/api/networking.ts';
import type { V } from './result.ts';
import type { Obj } from './read.ts';

/**
 * Where a finding is about, for the editor (Istio maps no field): rule `ruleIndex` of
 * `spec.<kind>`, its `match` list, or (with `matchIndex`) one match.
 */
interface RulePlace {
  kind: string;
  ruleIndex: number;
  matchIndex?: number;
  wholeMatchList?: boolean;
}

type Report = { unreachable(rule: string, reason: string, at: RulePlace): void; ineffective(rule: string, match: string, dup: string, at: RulePlace): void };

function placePath(at: RulePlace): string {
  const rule = `spec.${at.kind}[${at.ruleIndex}]`;
  if (at.matchIndex !== undefined) return `${rule}.match[${at.matchIndex}]`;
  return at.wholeMatchList ? `${rule}.match` : rule;
}

/** StringMatch: which oneof is set (an empty value still counts; '' when none is) and its value. */
function stringMatch(m: StringMatch): { kind: string; value: string } {
  if (m.exact !== undefined) return { kind: 'exact', value: m.exact };
  if (m.prefix !== undefined) return { kind: 'prefix', value: m.prefix };
  if (m.regex !== undefined) return { kind: 'regex', value: m.regex };
  return { kind: '', value: '' };
}

function stringMatchText(m: StringMatch | undefined): string | undefined {
  if (!m) return undefined;
  const { kind, value } = stringMatch(m);
  return kind === '' ? '{}' : `${kind}:${JSON.stringify(value)}`;
}

function sortedMap<T>(m: Readonly<Record<string, T>>, value: (x: T) => string | undefined): string | undefined {
  const keys = Object.keys(m).sort();
  if (keys.length === 0) return undefined;
  return `{${keys.map((k) => `${JSON.stringify(k)}:${value(m[k] as T) ?? 'null'}`).join(',')}}`;
}

type FieldKind = 'string' | 'uint' | 'bool' | 'stringMatch' | 'stringMatchMap' | 'stringMap' | 'stringList';

/** The fields of a match that its serialization compares, in Istio's field order. */
type MatchFields<M> = ReadonlyArray<readonly [keyof M & string, FieldKind]>;

/** A rule as route-rule validation reads it; null is Go's nil rule (or match). */
type RuleWithNils<M> = { name: string; match: readonly (M | null)[] } | null;

const HTTP_MATCH_FIELDS: MatchFields<HTTPMatchRequest> = [
  ['uri', 'stringMatch'],
  ['scheme', 'stringMatch'],
  ['method', 'stringMatch'],
  ['authority', 'stringMatch'],
  ['headers', 'stringMatchMap'],
  ['port', 'uint'],
  ['sourceLabels', 'stringMap'],
  ['gateways', 'stringList'],
  ['queryParams', 'stringMatchMap'],
  ['ignoreUriCase', 'bool'],
  ['withoutHeaders', 'stringMatchMap'],
  ['sourceNamespace', 'string'],
  ['statPrefix', 'string'],
];
const TCP_MATCH_FIELDS: MatchFields<L4MatchAttributes> = [
  ['destinationSubnets', 'stringList'],
  ['port', 'uint'],
  ['sourceSubnet', 'string'],
  ['sourceLabels', 'stringMap'],
  ['gateways', 'stringList'],
  ['sourceNamespace', 'string'],
];
const TLS_MATCH_FIELDS: MatchFields<TLSMatchAttributes> = [
  ['sniHosts', 'stringList'],
  ['destinationSubnets', 'stringList'],
  ['port', 'uint'],
  ['sourceLabels', 'stringMap'],
  ['gateways', 'stringList'],
  ['sourceNamespace', 'string'],
];

/** A field's text in the serialization; undefined for its zero value (left out, as omitempty does). */
function fieldText(kind: FieldKind, v: unknown): string | undefined {
  switch (kind) {
    case 'string':
      return v === '' ? undefined : JSON.stringify(v as string);
    case 'uint':
      return v === 0 ? undefined : String(v as number);
    case 'bool':
      return v === true ? 'true' : undefined;
    case 'stringMatch':
      return stringMatchText(v as StringMatch | undefined);
    case 'stringMatchMap':
      return sortedMap(v as Readonly<Record<string, StringMatch | undefined>>, stringMatchText);
    case 'stringMap':
      return sortedMap(v as Readonly<Record<string, string>>, (x) => JSON.stringify(x));
    case 'stringList': {
      const a = v as readonly string[];
      return a.length === 0 ? undefined : JSON.stringify(a);
    }
  }
}

/** A serialization of a match that is equal exactly when Istio's JSON comparison is (a nil match is `null`). */
function matchKey<M extends object>(match: M | null, fields: MatchFields<M>): string {
  if (match === null) return 'null';
  const parts: string[] = [];
  for (const [name, kind] of fields) {
    const t = fieldText(kind, match[name]);
    if (t !== undefined) parts.push(`${name}=${t}`);
  }
  return parts.join(';');
}

/** Istio's routeName: a quoted http rule name, else `#index` (tcp and tls rules have no name). */
function routeName(name: string, index: number, named: boolean): string {
  return named && name !== '' ? goQuote(name) : `#${index}`;
}

/** Istio's requestName: a quoted http match name, else `#index`. */
function requestName(match: unknown, index: number, named: boolean): string {
  const name = named && match !== null ? (match as HTTPMatchRequest).name : '';
  return name !== '' ? goQuote(name) : `#${index}`;
}

interface PrefixMatch {
  ruleIndex: number;
  matchIndex: number;
  route: string;
  match: string;
  prefix: string;
  port: number;
  method: string;
  authority: string;
  headers: Map<string, string>;
  queryParams: Map<string, string>;
  withoutHeaders: Map<string, string>;
}

function exactOrPrefix(m: StringMatch | undefined): string {
  if (!m) return '';
  const { kind, value } = stringMatch(m);
  if (kind === 'exact' && value !== '') return `exact:${value}`;
  if (kind === 'prefix' && value !== '') return `prefix:${value}`;
  return '';
}

function exactOrPrefixMap(m: Readonly<Record<string, StringMatch | undefined>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of Object.keys(m)) out.set(k, exactOrPrefix(m[k]));
  return out;
}

/** The parts of an http match with a URI prefix that the overlap check compares. */
function prefixMatch(ruleIndex: number, matchIndex: number, route: string, matchName: string, match: HTTPMatchRequest | null): PrefixMatch | undefined {
  if (!match?.uri) return undefined;
  const uri = stringMatch(match.uri);
  if (uri.kind !== 'prefix' || uri.value === '') return undefined;
  return {
    ruleIndex,
    matchIndex,
    route,
    match: matchName,
    prefix: uri.value,
    port: match.port,
    // no method means GET
    method: exactOrPrefix(match.method) || 'exact:GET',
    authority: exactOrPrefix(match.authority),
    headers: exactOrPrefixMap(match.headers),
    queryParams: exactOrPrefixMap(match.queryParams),
    withoutHeaders: exactOrPrefixMap(match.withoutHeaders),
  };
}

/** Same keys; each earlier value equals the later one or starts with it. */
function mapCovered(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, av] of a) {
    const bv = b.get(k);
    if (bv === undefined) return false;
    if (av !== bv && !av.startsWith(bv)) return false;
  }
  return true;
}

/** Istio's coveredValidation: does the earlier match `a` catch everything the later `b` does? */
function covered(a: PrefixMatch, b: PrefixMatch): boolean {
  if (!b.prefix.startsWith(a.prefix)) return false;
  if (a.port !== b.port) return false;
  if (a.method !== b.method && !a.method.startsWith(b.method)) return false;
  if (a.authority !== b.authority && !a.authority.startsWith(b.authority)) return false;
  return mapCovered(a.headers, b.headers) && mapCovered(a.queryParams, b.queryParams) && mapCovered(a.withoutHeaders, b.withoutHeaders);
}

function analyzeRules<M extends object>(kind: 'http' | 'tcp' | 'tls', rules: readonly RuleWithNils<M>[], fields: MatchFields<M>, report: Report): void {
  const http = kind === 'http';
  const seen = new Map<string, number>();
  let emptyMatchAt = -1;
  const prefixes: PrefixMatch[] = [];
  rules.forEach((rule, i) => {
    // Istio skips nil rules.
    if (rule === null) return;
    const matches = rule.match;
    const name = routeName(rule.name, i, http);
    if (matches.length === 0) {
      if (emptyMatchAt >= 0) report.unreachable(name, 'only the last rule can have no matches', { kind, ruleIndex: i });
      emptyMatchAt = i;
      return;
    }
    let duplicates = 0;
    matches.forEach((m, j) => {
      if (emptyMatchAt >= 0) {
        report.unreachable(name, 'route without matches defined before', { kind, ruleIndex: i, matchIndex: j });
        return;
      }
      const key = matchKey(m, fields);
      const dup = seen.get(key);
      if (dup !== undefined) {
        report.ineffective(name, requestName(m, j, http), routeName(rules[dup]?.name ?? '', dup, http), { kind, ruleIndex: i, matchIndex: j });
        duplicates++;
        return;
      }
      seen.set(key, i);
      if (http) {
        const p = prefixMatch(i, j, name, requestName(m, j, http), m as HTTPMatchRequest | null);
        if (p) prefixes.push(p);
      }
    });
    if (duplicates === matches.length) report.unreachable(name, 'all matches used by prior rules', { kind, ruleIndex: i, wholeMatchList: true });
  });
  for (let a = 0; a < prefixes.length; a++) {
    const pa = prefixes[a] as PrefixMatch;
    for (let b = a + 1; b < prefixes.length; b++) {
      const pb = prefixes[b] as PrefixMatch;
      if (pb.prefix === pa.prefix) continue;
      if (covered(pa, pb))
        report.ineffective(pb.route, `${pb.match} of prefix ${pb.prefix}`, `${pa.match} of prefix ${pa.prefix} on ${pa.route}`, {
          kind,
          ruleIndex: pb.ruleIndex,
          matchIndex: pb.matchIndex,
        });
    }
  }
}

/** Appends the rule analysis of a VirtualService spec to `v`, as Istio's warnings. */
export function analyzeRouteRules(spec: Obj, v: V): void {
  const lists = VirtualServiceRuleLists.readOrEmpty(spec);
  const report: Report = {
    unreachable: (rule, reason, at) =>
      v.warnings.push({
        message: `virtualService rule ${rule} not used (${reason})`,
        path: placePath(at),
        analysis: { type: 'VirtualServiceUnreachableRule', rule, reason },
      }),
    ineffective: (rule, match, duplicate, at) =>
      v.warnings.push({
        message: `virtualService rule ${rule} match ${match} is not used (duplicate/overlapping match in rule ${duplicate})`,
        path: placePath(at),
        analysis: { type: 'VirtualServiceIneffectiveMatch', rule, match, duplicate },
      }),
  };
  analyzeRules('http', lists.http, HTTP_MATCH_FIELDS, report);
  analyzeRules('tcp', lists.tcp, TCP_MATCH_FIELDS, report);
  analyzeRules('tls', lists.tls, TLS_MATCH_FIELDS, report);
}
