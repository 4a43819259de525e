// Go's one-line protobuf text (`msg.String()`), which istioctl x describe prints for a fault,
// a TCP match and a regex string match: fields in field-number order (not the order the YAML
// writes them). Go's output also puts an extra space between fields in some builds (protobuf's
// deliberate instability, chosen by a hash of the binary); we print the stable form.
import { isObj } from '../../document/read.ts';
import { goQuote } from '../../go/fmt.ts';

/** Fields that are proto maps (printed as `key:{key:"k" value:…}` entries, sorted by key). */
const MAP_FIELDS = new Set(['headers', 'sourceLabels', 'queryParams', 'withoutHeaders', 'labels']);
/** google.protobuf.Duration fields, written as `5s` in YAML. */
const DURATION_FIELDS = new Set(['fixedDelay', 'exponentialDelay']);

function snake(k: string): string {
  return k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function durationText(v: unknown): string {
  const m = typeof v === 'string' ? /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(v.trim()) : null;
  if (!m) return scalar(v);
  const sign = m[1] ? -1 : 1;
  const seconds = Number(m[2]) * sign;
  const nanos = m[3] ? Number(m[3].padEnd(9, '0')) * sign : 0;
  const parts = [...(seconds !== 0 ? [`seconds:${seconds}`] : []), ...(nanos !== 0 ? [`nanos:${nanos}`] : [])];
  return `{${parts.join(' ')}}`;
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return '';
}

/**
 * The fields of the messages printed, in field-number order (istio.io/api
 * networking/v1alpha3/virtual_service.proto), with the message type of message fields.
 */
const MESSAGES: Readonly<Record<string, readonly (readonly [string, string?])[]>> = {
  HTTPFaultInjection: [
    ['delay', 'Delay'],
    ['abort', 'Abort'],
  ],
  Delay: [['percent'], ['fixed_delay'], ['exponential_delay'], ['percentage', 'Percent']],
  Abort: [['http_status'], ['grpc_status'], ['http2_error'], ['percentage', 'Percent']],
  Percent: [['value']],
  L4MatchAttributes: [['destination_subnets'], ['port'], ['source_subnet'], ['source_labels'], ['gateways'], ['source_namespace']],
  StringMatch: [['exact'], ['prefix'], ['regex']],
};

function value(k: string, v: unknown, type: string | undefined): string {
  if (DURATION_FIELDS.has(k)) return durationText(v);
  if (isObj(v)) return `{${fields(v, type)}}`;
  return scalar(v);
}

/** The keys of a YAML mapping in the message's field order (keys it does not know after, as written). */
function ordered(o: Record<string, unknown>, type: string | undefined): { key: string; type: string | undefined }[] {
  const schema = type ? MESSAGES[type] : undefined;
  const keys = Object.keys(o).map((key, i) => {
    const at = schema ? schema.findIndex(([f]) => f === snake(key)) : -1;
    return { key, i, at: at < 0 ? Number.MAX_SAFE_INTEGER : at, type: at < 0 ? undefined : schema?.[at]?.[1] };
  });
  return keys.sort((a, b) => a.at - b.at || a.i - b.i);
}

function fields(o: Record<string, unknown>, type: string | undefined): string {
  const out: string[] = [];
  for (const { key: k, type: fieldType } of ordered(o, type)) {
    const v = o[k];
    if (v === null || v === undefined) continue;
    const name = snake(k);
    if (MAP_FIELDS.has(k) && isObj(v)) {
      for (const key of Object.keys(v).sort()) out.push(`${name}:{key:${goQuote(key)} value:${value('', v[key], undefined)}}`);
    } else if (Array.isArray(v)) {
      for (const item of v) out.push(`${name}:${value(k, item, fieldType)}`);
    } else if (v === false || v === 0 || v === '') {
      // proto3 scalars at their zero value are not printed.
    } else out.push(`${name}:${value(k, v, fieldType)}`);
  }
  return out.join(' ');
}

/** The text form of a message of `type` (HTTPFaultInjection, L4MatchAttributes, StringMatch) given as parsed YAML (camelCase keys). */
export function protoText(message: unknown, type: string): string {
  return isObj(message) ? fields(message, type) : '';
}
