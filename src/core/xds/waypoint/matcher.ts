// Walks a listener's filter_chain_matcher (xds.type.matcher.v3.Matcher) the way Envoy does for
// a connection: destination IP (IPMatcher ranges, longest prefix first), destination port
// (exact map), application protocol (exact map, `'http/1.1'` / `'h2c'` from the HTTP
// inspector), each with its on_no_match fallback. Used by the request simulator for waypoints.
import type { Json } from '../types.ts';
import { isObj } from '../../document/read.ts';
import { parsePrefix, prefixContains } from '../net.ts';

export interface MatcherConnection {
  address: string;
  port: number;
  /** ALPN the HTTP inspector reports (`http/1.1`, `h2c`), or '' for anything else. */
  applicationProtocol: string;
}

export interface MatcherResult {
  /** The filter chain the matcher names, if any. */
  chain?: string;
  /** How it got there, one entry per matcher level. */
  trace: string[];
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function inputValue(input: unknown, c: MatcherConnection): { name: string; value: string } | undefined {
  if (!isObj(input) || !isObj(input.typedConfig)) return undefined;
  const t = String(input.typedConfig['@type'] ?? '');
  if (t.endsWith('.DestinationIPInput')) return { name: 'destination IP', value: c.address };
  if (t.endsWith('.DestinationPortInput')) return { name: 'destination port', value: String(c.port) };
  if (t.endsWith('.ApplicationProtocolInput')) return { name: 'application protocol', value: c.applicationProtocol ? `'${c.applicationProtocol}'` : '' };
  return undefined;
}

function onMatch(m: unknown, c: MatcherConnection, trace: string[], depth: number): string | undefined {
  if (!isObj(m) || depth > 16) return undefined;
  if (isObj(m.action)) return String(m.action.name ?? '');
  if (isObj(m.matcher)) return evaluate(m.matcher, c, trace, depth + 1);
  return undefined;
}

/** The chain a matcher tree selects for a connection. */
function evaluate(matcher: Json, c: MatcherConnection, trace: string[], depth: number): string | undefined {
  const tree = isObj(matcher.matcherTree) ? matcher.matcherTree : undefined;
  let next: unknown;
  if (tree) {
    const input = inputValue(tree.input, c);
    if (input) {
      if (isObj(tree.exactMatchMap) && isObj(tree.exactMatchMap.map)) {
        const map = tree.exactMatchMap.map;
        if (Object.hasOwn(map, input.value)) {
          trace.push(`${input.name} ${input.value || '(none)'} matched`);
          next = map[input.value];
        } else trace.push(`${input.name} ${input.value || '(none)'}: no entry`);
      } else if (isObj(tree.customMatch) && isObj(tree.customMatch.typedConfig)) {
        let best: { len: number; m: unknown; cidr: string } | undefined;
        for (const rm of arr(tree.customMatch.typedConfig.rangeMatchers)) {
          if (!isObj(rm)) continue;
          for (const r of arr(rm.ranges)) {
            if (!isObj(r)) continue;
            const cidr = `${String(r.addressPrefix ?? '')}/${Number(r.prefixLen ?? 0)}`;
            const p = parsePrefix(cidr);
            if (p && prefixContains(p, c.address) && (!best || p.bits > best.len)) best = { len: p.bits, m: rm.onMatch, cidr };
          }
        }
        if (best) {
          trace.push(`${input.name} ${c.address} in ${best.cidr}`);
          next = best.m;
        } else trace.push(`${input.name} ${c.address}: no range`);
      }
    }
  }
  if (next !== undefined) {
    const r = onMatch(next, c, trace, depth);
    if (r !== undefined) return r;
  }
  if (matcher.onNoMatch !== undefined) {
    trace.push('fallback (on_no_match)');
    return onMatch(matcher.onNoMatch, c, trace, depth);
  }
  return undefined;
}

/** Evaluates `listener.filterChainMatcher` for a connection. */
export function matchFilterChainMatcher(listener: Json, c: MatcherConnection): MatcherResult {
  const trace: string[] = [];
  const m = listener.filterChainMatcher;
  if (!isObj(m)) return { trace: ['no filter chain matcher'] };
  const chain = evaluate(m, c, trace, 0);
  return chain !== undefined ? { chain, trace } : { trace };
}
