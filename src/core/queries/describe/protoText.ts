// Go's one-line protobuf text (`msg.String()`), which istioctl x describe prints for a fault,
// a TCP match and a regex string match. Go's output also inserts a random extra space now and
// then (protobuf's deliberate instability); we print the stable form.
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

function value(k: string, v: unknown): string {
  if (DURATION_FIELDS.has(k)) return durationText(v);
  if (isObj(v)) return `{${fields(v)}}`;
  return scalar(v);
}

function fields(o: Record<string, unknown>): string {
  const out: string[] = [];
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === null || v === undefined) continue;
    const name = snake(k);
    if (MAP_FIELDS.has(k) && isObj(v)) {
      for (const key of Object.keys(v).sort()) out.push(`${name}:{key:${goQuote(key)} value:${value('', v[key])}}`);
    } else if (Array.isArray(v)) {
      for (const item of v) out.push(`${name}:${value(k, item)}`);
    } else if (v === false || v === 0 || v === '') {
      // proto3 scalars at their zero value are not printed.
    } else out.push(`${name}:${value(k, v)}`);
  }
  return out.join(' ');
}

/** The text form of a message given as parsed YAML (camelCase keys). */
export function protoText(message: unknown, _type: string): string {
  return isObj(message) ? fields(message) : '';
}
