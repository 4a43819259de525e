// VirtualService retries → Envoy RetryPolicy (pilot/pkg/networking/core/route/retry).
import type { Json } from '../types.ts';
import { durationJson } from '../duration.ts';
import { isObj, str } from '../../document/read.ts';

const DEFAULT_RETRY_ON = 'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes';
const DEFAULT_INBOUND_RETRY_ON = 'reset-before-request';

export const PREVIOUS_HOSTS_PREDICATE: Json = {
  name: 'envoy.retry_host_predicates.previous_hosts',
  typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate' },
};

const PREVIOUS_PRIORITIES: Json = {
  name: 'envoy.retry_priorities.previous_priorities',
  typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.retry.priority.previous_priorities.v3.PreviousPrioritiesConfig', updateFrequency: 2 },
};

/** An Istio HTTPRetry as read from a VirtualService or mesh config. */
export interface HttpRetry {
  attempts: number;
  perTryTimeout?: string;
  retryOn: string;
  retryRemoteLocalities?: boolean;
  retryIgnorePreviousHosts?: boolean;
  backoff?: string;
}

export function retryFromRaw(v: unknown): HttpRetry | undefined {
  if (!isObj(v)) return undefined;
  return {
    attempts: typeof v.attempts === 'number' ? v.attempts : 0,
    ...(v.perTryTimeout !== undefined ? { perTryTimeout: str(v.perTryTimeout) } : {}),
    retryOn: str(v.retryOn),
    ...(typeof v.retryRemoteLocalities === 'boolean' ? { retryRemoteLocalities: v.retryRemoteLocalities } : {}),
    ...(typeof v.retryIgnorePreviousHosts === 'boolean' ? { retryIgnorePreviousHosts: v.retryIgnorePreviousHosts } : {}),
    ...(v.backoff !== undefined ? { backoff: str(v.backoff) } : {}),
  };
}

/** HTTP status codes Go's http.StatusText knows (retryOn integers that count as status codes). */
const HTTP_STATUS = new Set([
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408,
  409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
]);

function parseRetryOn(retryOn: string): { on: string; codes: number[] } {
  const codes: number[] = [];
  const join: string[] = [];
  for (let part of retryOn.split(',')) {
    part = part.trim();
    if (part === '') continue;
    if (/^[+-]?\d+$/.test(part) && HTTP_STATUS.has(Number(part))) codes.push(Number(part));
    else join.push(part);
  }
  return { on: join.join(','), codes };
}

function defaultPolicy(hashPolicy: boolean): Json {
  const p: Json = { retryOn: DEFAULT_RETRY_ON, numRetries: 2 };
  if (!hashPolicy) p.retryHostPredicate = [PREVIOUS_HOSTS_PREDICATE];
  p.hostSelectionRetryMaxAttempts = '5';
  return p;
}

/** retry.ConvertPolicy; undefined when retries are disabled (attempts ≤ 0). */
export function convertRetryPolicy(inp: HttpRetry | undefined, hashPolicy: boolean): Json | undefined {
  if (!inp) return defaultPolicy(hashPolicy);
  if (inp.attempts <= 0) return undefined;
  const out = defaultPolicy(hashPolicy);
  out.numRetries = inp.attempts;
  if (inp.retryOn !== '') {
    const { on, codes } = parseRetryOn(inp.retryOn);
    out.retryOn = on;
    if (codes.length > 0) {
      out.retriableStatusCodes = codes;
      if (!on.includes('retriable-status-codes')) out.retryOn = `${on},retriable-status-codes`;
    }
    if (out.retryOn === '') delete out.retryOn;
  }
  if (inp.perTryTimeout !== undefined) {
    const d = durationJson(inp.perTryTimeout);
    if (d) out.perTryTimeout = d;
  }
  if (inp.retryIgnorePreviousHosts !== undefined) {
    if (inp.retryIgnorePreviousHosts) out.retryHostPredicate = [PREVIOUS_HOSTS_PREDICATE];
    else delete out.retryHostPredicate;
  }
  if (inp.retryRemoteLocalities) out.retryPriority = PREVIOUS_PRIORITIES;
  if (inp.backoff !== undefined) {
    const d = durationJson(inp.backoff);
    if (d) out.retryBackOff = { baseInterval: d };
  }
  return orderRetry(out);
}

/** retry.ConvertInboundPolicy. */
export function convertInboundRetryPolicy(inp: HttpRetry | undefined): Json | undefined {
  if (!inp) return { retryOn: DEFAULT_INBOUND_RETRY_ON, numRetries: 2 };
  if (inp.attempts <= 0) return undefined;
  const out: Json = { retryOn: DEFAULT_INBOUND_RETRY_ON, numRetries: inp.attempts };
  if (inp.retryOn !== '') {
    const { on, codes } = parseRetryOn(inp.retryOn);
    out.retryOn = on;
    if (codes.length > 0) {
      out.retriableStatusCodes = codes;
      if (!on.includes('retriable-status-codes')) out.retryOn = `${on},retriable-status-codes`;
    }
    if (out.retryOn === '') delete out.retryOn;
  }
  if (inp.backoff !== undefined) {
    const d = durationJson(inp.backoff);
    if (d) out.retryBackOff = { baseInterval: d };
  }
  return out;
}

/** Fields in RetryPolicy's proto order (retry_on 1, num_retries 2, per_try_timeout 3, …). */
function orderRetry(p: Json): Json {
  const order = [
    'retryOn',
    'numRetries',
    'perTryTimeout',
    'retryPriority',
    'retryHostPredicate',
    'hostSelectionRetryMaxAttempts',
    'retriableStatusCodes',
    'retryBackOff',
  ];
  const out: Json = {};
  for (const k of order) if (p[k] !== undefined) out[k] = p[k];
  return out;
}
