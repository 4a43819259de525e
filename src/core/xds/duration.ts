// Durations: Istio's CRDs accept Go duration text (`1m30s`, `100ms`) and protobuf's (`1.5s`);
// Envoy's proto3 JSON writes a Duration as seconds with 0, 3, 6 or 9 fractional digits (`90s`,
// `0.100s`).

export interface Duration {
  seconds: number;
  nanos: number;
}

const UNITS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Parses Go (`time.ParseDuration`) or protobuf duration text; undefined when it is neither. */
export function parseDuration(text: unknown): Duration | undefined {
  if (typeof text === 'number' && Number.isFinite(text)) return fromNanos(text * 1e9);
  if (typeof text !== 'string') return undefined;
  let s = text.trim();
  if (s === '') return undefined;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { seconds: 0, nanos: 0 };
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    pos = re.lastIndex;
  }
  return fromNanos(neg ? -total : total);
}

function fromNanos(n: number): Duration {
  const r = Math.round(n);
  const seconds = Math.trunc(r / 1e9);
  const nanos = r - seconds * 1e9;
  return { seconds, nanos };
}

/** protojson's Duration text. */
export function formatDuration(d: Duration): string {
  let { seconds, nanos } = d;
  const neg = seconds < 0 || nanos < 0;
  seconds = Math.abs(seconds);
  nanos = Math.abs(nanos);
  let frac = '';
  if (nanos !== 0) {
    let digits = String(nanos).padStart(9, '0');
    if (digits.endsWith('000000')) digits = digits.slice(0, 3);
    else if (digits.endsWith('000')) digits = digits.slice(0, 6);
    frac = `.${digits}`;
  }
  return `${neg ? '-' : ''}${seconds}${frac}s`;
}

/** Duration text normalized to protojson's form; undefined for text that is not a duration. */
export function durationJson(text: unknown): string | undefined {
  const d = parseDuration(text);
  return d ? formatDuration(d) : undefined;
}

/** Whole seconds of a duration text (for fields Envoy takes as integer seconds). */
export function durationSeconds(text: unknown): number | undefined {
  const d = parseDuration(text);
  return d ? d.seconds : undefined;
}

export function isZeroDuration(text: string): boolean {
  const d = parseDuration(text);
  return d !== undefined && d.seconds === 0 && d.nanos === 0;
}
