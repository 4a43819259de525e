// schema.ValidationAnalyzer.VirtualService, the route-rule part of Istio's VirtualService
// validation that the analyzer turns into its own messages: rules that can never be
// reached (IST0130) and matches already covered by an earlier one (IST0131), for http,
// tcp and tls rules. Matches are compared as Istio compares them: field by field with
// zero values ignored and the match name left out; http prefix matches are also checked
// for being covered by an earlier, shorter prefix.
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { goQuote } from '../../gofmt.ts';
import { arr, isObj, num, specOf, str, type Obj } from '../../../model/read.ts';

/**
 * Where a message is about, for the editor (Istio maps no field): rule `ruleIndex` of
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

/** A field of a protobuf message as written in YAML: JSON (lowerCamel) name or proto name. */
function field(o: Obj, camel: string): unknown {
  if (camel in o) return o[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return o[snake];
}

const STRING_MATCH_KINDS = ['exact', 'prefix', 'regex'] as const;

/** StringMatch: which oneof is set (an empty value still counts) and its value. */
function stringMatch(v: unknown): { kind: string; value: string } | undefined {
  if (!isObj(v)) return undefined;
  for (const k of STRING_MATCH_KINDS) if (v[k] !== undefined && v[k] !== null) return { kind: k, value: str(v[k]) };
  return { kind: '', value: '' };
}

function stringMatchText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const m = stringMatch(v);
  if (!m) return 'invalid';
  return m.kind === '' ? '{}' : `${m.kind}:${JSON.stringify(m.value)}`;
}

function sortedMap(v: unknown, value: (x: unknown) => string | undefined): string | undefined {
  if (!isObj(v)) return undefined;
  const keys = Object.keys(v).sort();
  if (keys.length === 0) return undefined;
  return `{${keys.map((k) => `${JSON.stringify(k)}:${value(v[k]) ?? 'null'}`).join(',')}}`;
}

function stringList(v: unknown): string | undefined {
  const a = arr(v);
  return a.length === 0 ? undefined : JSON.stringify(a.map(str));
}

type FieldKind = 'string' | 'uint' | 'bool' | 'stringMatch' | 'stringMatchMap' | 'stringMap' | 'stringList';

const HTTP_MATCH_FIELDS: Array<[string, FieldKind]> = [
  ['uri', 'stringMatch'], ['scheme', 'stringMatch'], ['method', 'stringMatch'], ['authority', 'stringMatch'],
  ['headers', 'stringMatchMap'], ['port', 'uint'], ['sourceLabels', 'stringMap'], ['gateways', 'stringList'],
  ['queryParams', 'stringMatchMap'], ['ignoreUriCase', 'bool'], ['withoutHeaders', 'stringMatchMap'],
  ['sourceNamespace', 'string'], ['statPrefix', 'string'],
];
const TCP_MATCH_FIELDS: Array<[string, FieldKind]> = [
  ['destinationSubnets', 'stringList'], ['port', 'uint'], ['sourceSubnet', 'string'], ['sourceLabels', 'stringMap'],
  ['gateways', 'stringList'], ['sourceNamespace', 'string'],
];
const TLS_MATCH_FIELDS: Array<[string, FieldKind]> = [
  ['sniHosts', 'stringList'], ['destinationSubnets', 'stringList'], ['port', 'uint'], ['sourceLabels', 'stringMap'],
  ['gateways', 'stringList'], ['sourceNamespace', 'string'],
];

function fieldText(kind: FieldKind, v: unknown): string | undefined {
  switch (kind) {
    case 'string': {
      const s = str(v);
      return s === '' ? undefined : JSON.stringify(s);
    }
    case 'uint': {
      const n = num(v);
      return n === 0 ? undefined : String(n);
    }
    case 'bool':
      return v === true || v === 'true' ? 'true' : undefined;
    case 'stringMatch':
      return stringMatchText(v);
    case 'stringMatchMap':
      return sortedMap(v, stringMatchText);
    case 'stringMap':
      return sortedMap(v, (x) => JSON.stringify(str(x)));
    case 'stringList':
      return stringList(v);
  }
}

/** A serialization of a match that is equal exactly when Istio's JSON comparison is. */
export function matchKey(match: unknown, fields: Array<[string, FieldKind]>): string {
  if (!isObj(match)) return 'null';
  const parts: string[] = [];
  for (const [name, kind] of fields) {
    const t = fieldText(kind, field(match, name));
    if (t !== undefined) parts.push(`${name}=${t}`);
  }
  return parts.join(';');
}

function routeName(route: unknown, index: number, named: boolean): string {
  const name = named && isObj(route) ? str(route.name) : '';
  return name !== '' ? goQuote(name) : `#${index}`;
}

function requestName(match: unknown, index: number, named: boolean): string {
  const name = named && isObj(match) ? str(match.name) : '';
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

function exactOrPrefix(v: unknown): string {
  const m = stringMatch(v);
  if (!m) return '';
  if (m.kind === 'exact' && m.value !== '') return `exact:${m.value}`;
  if (m.kind === 'prefix' && m.value !== '') return `prefix:${m.value}`;
  return '';
}

function exactOrPrefixMap(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isObj(v)) for (const [k, x] of Object.entries(v)) out.set(k, exactOrPrefix(x));
  return out;
}

/** The parts of an http match with a URI prefix that the overlap check compares. */
function prefixMatch(ruleIndex: number, matchIndex: number, route: string, matchName: string, match: unknown): PrefixMatch | undefined {
  if (!isObj(match)) return undefined;
  const uri = stringMatch(field(match, 'uri'));
  if (!uri || uri.kind !== 'prefix' || uri.value === '') return undefined;
  return {
    ruleIndex,
    matchIndex,
    route,
    match: matchName,
    prefix: uri.value,
    port: num(match.port),
    // no method means GET
    method: exactOrPrefix(match.method) || 'exact:GET',
    authority: exactOrPrefix(match.authority),
    headers: exactOrPrefixMap(match.headers),
    queryParams: exactOrPrefixMap(field(match, 'queryParams')),
    withoutHeaders: exactOrPrefixMap(field(match, 'withoutHeaders')),
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

function analyzeRules(kind: 'http' | 'tcp' | 'tls', rules: unknown[], fields: Array<[string, FieldKind]>, report: Report): void {
  const http = kind === 'http';
  const seen = new Map<string, number>();
  let emptyMatchAt = -1;
  const prefixes: PrefixMatch[] = [];
  rules.forEach((rule, i) => {
    if (rule === null || rule === undefined) return;
    const matches = isObj(rule) ? arr(rule.match) : [];
    const name = routeName(rule, i, http);
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
        report.ineffective(name, requestName(m, j, http), routeName(rules[dup], dup, http), { kind, ruleIndex: i, matchIndex: j });
        duplicates++;
        return;
      }
      seen.set(key, i);
      if (http) {
        const p = prefixMatch(i, j, name, requestName(m, j, http), m);
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
      if (covered(pa, pb)) report.ineffective(pb.route, `${pb.match} of prefix ${pb.prefix}`, `${pa.match} of prefix ${pa.prefix} on ${pa.route}`, { kind, ruleIndex: pb.ruleIndex, matchIndex: pb.matchIndex });
    }
  }
}

export const virtualServiceValidationAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'schema.ValidationAnalyzer.VirtualService',
    description: "Runs schema validation as an analyzer on 'VirtualService' resources (unreachable rules and ineffective matches)",
    inputs: [KINDS.VirtualService],
  },
  {
    kind: KINDS.VirtualService,
    check(ctx, vs) {
      const spec = specOf(vs);
      const report: Report = {
        unreachable: (rule, reason, at) => ctx.report(MESSAGES.VirtualServiceUnreachableRule.at(vs, rule, reason), { highlightPath: placePath(at) }),
        ineffective: (rule, match, dup, at) => ctx.report(MESSAGES.VirtualServiceIneffectiveMatch.at(vs, rule, match, dup), { highlightPath: placePath(at) }),
      };
      analyzeRules('http', arr(spec.http), HTTP_MATCH_FIELDS, report);
      analyzeRules('tcp', arr(spec.tcp), TCP_MATCH_FIELDS, report);
      analyzeRules('tls', arr(spec.tls), TLS_MATCH_FIELDS, report);
    },
  },
);
