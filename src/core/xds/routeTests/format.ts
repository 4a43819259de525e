// The route-test file: requests with the destination each should reach, in the spirit of
// getyourguide/istio-config-validator, checked against the Envoy config we generate. A file
// holds one or more YAML documents of kind RouteTests (documents of other kinds are skipped,
// so a test file can sit in the workspace next to the manifests):
//
//   apiVersion: mesh-workbench.dev/v1alpha1
//   kind: RouteTests
//   metadata: {name: bookinfo, namespace: bookinfo}   # namespace: default source namespace
//   spec:
//     source: productpage-v1.bookinfo                  # optional default source proxy
//     tests:
//       - description: reviews is split between v1 and v2
//         source: productpage-v1.bookinfo              # or namespace: bookinfo (any sidecar there)
//         request: {host: reviews, port: 9080, method: GET, path: /reviews/1, headers: {end-user: jason}}
//         expect:
//           route:
//             - destination: {host: reviews, port: 9080, subset: v1}
//               weight: 75
//
// `host`, `method` and `path` may be lists: every combination is checked. Reading never throws;
// every problem names the file line of the offending field.
import type { SourceDocument } from '../../document/types.ts';
import { splitDocuments } from '../../document/split.ts';
import { parseSourceDocument } from '../../document/parse.ts';
import { locateInDocument } from '../../document/locate.ts';
import { isObj } from '../../document/read.ts';
import { REQUEST_PROTOCOLS, type RequestProtocol } from '../request.ts';
import { parseGoDuration } from '../../go/duration.ts';

export const ROUTE_TESTS_API_VERSION = 'mesh-workbench.dev/v1alpha1';
export const ROUTE_TESTS_KIND = 'RouteTests';

export interface RouteTestProblem {
  file: string;
  line: number;
  message: string;
}

export interface ExpectedDestination {
  host: string;
  port?: number;
  subset?: string;
  /** Percent of the traffic (omitted: not checked). */
  weight?: number;
}

export interface RouteExpectation {
  route?: ExpectedDestination[];
  /** Envoy cluster names (one, or every cluster of a weighted route). */
  cluster?: string[];
  redirect?: { scheme?: string; host?: string; path?: string; port?: number; code?: number };
  /** What the upstream receives after the route's rewrites. */
  rewrite?: { path?: string; authority?: string };
  fault?: { abort?: number; delay?: string };
  timeout?: string;
  /** The status Envoy itself answers with (404, 403, 301, a direct response), or 200 when the request is forwarded. */
  status?: number;
}

export interface RouteTestRequest {
  hosts: string[];
  port: number;
  methods: string[];
  paths: string[];
  headers: Record<string, string>;
  protocol: RequestProtocol;
}

export interface RouteTest {
  description: string;
  /** 1-based file line of the test (its `description`, else the list item). */
  line: number;
  /** A proxy id or controller (`productpage-v1.bookinfo`); else any sidecar of `namespace`. */
  source?: string;
  namespace: string;
  request: RouteTestRequest;
  expect: RouteExpectation;
  /** false: the expectation must NOT hold. */
  wantMatch: boolean;
}

export interface RouteTestSuite {
  name: string;
  file: string;
  line: number;
  tests: RouteTest[];
}

export interface RouteTestFile {
  file: string;
  suites: RouteTestSuite[];
  problems: RouteTestProblem[];
}

/**
 * The key js-yaml gives a mapping (or a list of mappings) written as a key with `?`: it cannot be
 * quoted back, so such a key is named by what it is.
 */
const MAPPING_KEY = '[object Object]';

const TEST_KEYS = new Set(['description', 'source', 'namespace', 'request', 'expect', 'wantMatch']);
const REQUEST_KEYS = new Set(['host', 'authority', 'port', 'method', 'path', 'uri', 'headers', 'protocol']);
const EXPECT_KEYS = new Set(['route', 'cluster', 'redirect', 'rewrite', 'fault', 'timeout', 'status']);

class Reader {
  readonly problems: RouteTestProblem[] = [];
  constructor(private readonly doc: SourceDocument) {}

  lineOf(path: Array<string | number>): number {
    try {
      const at = locateInDocument(this.doc, path);
      if (at) return (at.key ?? at.value).startLine;
    } catch {
      // Fall back to the document's line.
    }
    return this.doc.referenceLine;
  }

  problem(path: Array<string | number>, message: string): void {
    this.problems.push({ file: this.doc.file, line: this.lineOf(path), message: `${pathText(path)}: ${message}` });
  }

  string(v: unknown, path: Array<string | number>, what = 'a string'): string | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    this.problem(path, `must be ${what}, not ${describe(v)}`);
    return undefined;
  }

  /** A duration as Istio config writes one (time.ParseDuration reads it: `5s`, `250ms`, `1m30s`). */
  duration(v: unknown, path: Array<string | number>): string | undefined {
    const s = this.string(v, path, 'a duration');
    if (s === undefined) return undefined;
    if (parseGoDuration(s) === undefined) {
      this.problem(path, `must be a duration such as 5s, 250ms or 1m30s, not ${describe(v)}`);
      return undefined;
    }
    return s;
  }

  strings(v: unknown, path: Array<string | number>): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v)) {
      const out: string[] = [];
      v.forEach((x, i) => {
        // An empty item (`[~]`, `- `) is a mistake, not "nothing": a list of them must not read as no value.
        if (x === null || x === undefined) {
          this.problem([...path, i], 'must be a string, not null');
          return;
        }
        const s = this.string(x, [...path, i]);
        if (s !== undefined) out.push(s);
      });
      if (v.length === 0) this.problem(path, 'must not be an empty list');
      return out;
    }
    const s = this.string(v, path, 'a string or a list of strings');
    return s === undefined ? undefined : [s];
  }

  int(v: unknown, path: Array<string | number>, min: number, max: number, what: string): number | undefined {
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problem(path, `must be ${what} (${min}–${max}), not ${describe(v)}`);
      return undefined;
    }
    return n;
  }

  port(v: unknown, path: Array<string | number>): number | undefined {
    // `port: 9080` or Istio's `port: {number: 9080}`.
    if (isObj(v)) return this.int(v.number, [...path, 'number'], 1, 65535, 'a port number');
    return this.int(v, path, 1, 65535, 'a port number');
  }

  /** A mapping; with `keys`, other fields are reported. */
  object(v: unknown, path: Array<string | number>, keys?: ReadonlySet<string>): Record<string, unknown> | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      this.problem(path, `must be a mapping, not ${describe(v)}`);
      return undefined;
    }
    if (keys) {
      for (const k of Object.keys(v)) {
        if (keys.has(k)) continue;
        if (k === MAPPING_KEY) this.problem(path, `has a field whose name is a mapping (a "?" key); field names are words (known: ${[...keys].join(', ')})`);
        else this.problem([...path, k], `unknown field "${k}" (known: ${[...keys].join(', ')})`);
      }
    }
    return v;
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function pathText(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out || '(document)';
}

function readDestination(r: Reader, v: unknown, path: Array<string | number>): ExpectedDestination | undefined {
  const o = r.object(v, path, new Set(['destination', 'weight']));
  if (!o) return undefined;
  const d = r.object(o.destination, [...path, 'destination'], new Set(['host', 'port', 'subset']));
  if (!d) {
    r.problem(path, 'needs a destination with a host');
    return undefined;
  }
  const host = r.string(d.host, [...path, 'destination', 'host']);
  if (!host) {
    r.problem([...path, 'destination'], 'needs a host');
    return undefined;
  }
  const out: ExpectedDestination = { host };
  const port = r.port(d.port, [...path, 'destination', 'port']);
  if (port !== undefined) out.port = port;
  const subset = r.string(d.subset, [...path, 'destination', 'subset']);
  if (subset) out.subset = subset;
  const weight = r.int(o.weight, [...path, 'weight'], 0, 100, 'a percentage');
  if (weight !== undefined) out.weight = weight;
  return out;
}

function readExpect(r: Reader, v: unknown, path: Array<string | number>): RouteExpectation | undefined {
  const o = r.object(v, path, EXPECT_KEYS);
  if (!o) return undefined;
  const out: RouteExpectation = {};
  if (o.route !== undefined && o.route !== null) {
    const list = Array.isArray(o.route) ? o.route : [o.route];
    const dests = list
      .map((x, i) => readDestination(r, x, Array.isArray(o.route) ? [...path, 'route', i] : [...path, 'route']))
      .filter((x): x is ExpectedDestination => x !== undefined);
    if (dests.length > 0) out.route = dests;
  }
  const clusters = r.strings(o.cluster, [...path, 'cluster']);
  if (clusters && clusters.length > 0) out.cluster = clusters;
  const red = r.object(o.redirect, [...path, 'redirect'], new Set(['scheme', 'host', 'path', 'port', 'code']));
  if (red) {
    const x: NonNullable<RouteExpectation['redirect']> = {};
    const scheme = r.string(red.scheme, [...path, 'redirect', 'scheme']);
    if (scheme !== undefined) x.scheme = scheme;
    const host = r.string(red.host, [...path, 'redirect', 'host']);
    if (host !== undefined) x.host = host;
    const p = r.string(red.path, [...path, 'redirect', 'path']);
    if (p !== undefined) x.path = p;
    const port = r.port(red.port, [...path, 'redirect', 'port']);
    if (port !== undefined) x.port = port;
    const code = r.int(red.code, [...path, 'redirect', 'code'], 300, 399, 'a redirect status');
    if (code !== undefined) x.code = code;
    out.redirect = x;
  }
  const rw = r.object(o.rewrite, [...path, 'rewrite'], new Set(['path', 'uri', 'authority']));
  if (rw) {
    const x: NonNullable<RouteExpectation['rewrite']> = {};
    const p = r.string(rw.path ?? rw.uri, [...path, 'rewrite', rw.path !== undefined ? 'path' : 'uri']);
    if (p !== undefined) x.path = p;
    const a = r.string(rw.authority, [...path, 'rewrite', 'authority']);
    if (a !== undefined) x.authority = a;
    out.rewrite = x;
  }
  const f = r.object(o.fault, [...path, 'fault'], new Set(['abort', 'delay']));
  if (f) {
    const x: NonNullable<RouteExpectation['fault']> = {};
    const abort = isObj(f.abort)
      ? r.int(f.abort.httpStatus, [...path, 'fault', 'abort', 'httpStatus'], 100, 599, 'an HTTP status')
      : r.int(f.abort, [...path, 'fault', 'abort'], 100, 599, 'an HTTP status');
    if (abort !== undefined) x.abort = abort;
    const delay = isObj(f.delay) ? r.duration(f.delay.fixedDelay, [...path, 'fault', 'delay', 'fixedDelay']) : r.duration(f.delay, [...path, 'fault', 'delay']);
    if (delay !== undefined) x.delay = delay;
    out.fault = x;
  }
  const timeout = r.duration(o.timeout, [...path, 'timeout']);
  if (timeout !== undefined) out.timeout = timeout;
  const status = r.int(o.status, [...path, 'status'], 100, 599, 'an HTTP status');
  if (status !== undefined) out.status = status;
  if (Object.keys(o).length === 0) r.problem(path, `expects nothing: give one of ${[...EXPECT_KEYS].join(', ')}`);
  return out;
}

function readTest(r: Reader, v: unknown, path: Array<string | number>, defaults: { source?: string; namespace: string }): RouteTest | undefined {
  const before = r.problems.length;
  const o = r.object(v, path, TEST_KEYS);
  if (!o) return undefined;
  const description = r.string(o.description, [...path, 'description']) ?? '';
  if (description === '') r.problem(path, 'needs a description');
  const source = r.string(o.source, [...path, 'source']) ?? defaults.source;
  const namespace = r.string(o.namespace, [...path, 'namespace']) ?? defaults.namespace;
  const req = r.object(o.request, [...path, 'request'], REQUEST_KEYS);
  if (!req) r.problem(path, 'needs a request (host and port)');
  const rp = [...path, 'request'];
  const hosts = req ? r.strings(req.host ?? req.authority, [...rp, req.host !== undefined ? 'host' : 'authority']) : undefined;
  if (req && !hosts) r.problem(rp, 'needs a host (the authority, a service name or an IP)');
  const port = req ? r.port(req.port, [...rp, 'port']) : undefined;
  if (req && port === undefined && req.port === undefined) r.problem(rp, 'needs a port');
  const methods = (req ? r.strings(req.method, [...rp, 'method']) : undefined) ?? ['GET'];
  const paths = (req ? r.strings(req.path ?? req.uri, [...rp, req.path !== undefined ? 'path' : 'uri']) : undefined) ?? ['/'];
  const headers: Record<string, string> = {};
  const h = req ? r.object(req.headers, [...rp, 'headers']) : undefined;
  if (h)
    for (const [k, hv] of Object.entries(h)) {
      if (k === MAPPING_KEY) {
        r.problem([...rp, 'headers'], 'has a header whose name is a mapping (a "?" key); a header name is text');
        continue;
      }
      const s = r.string(hv, [...rp, 'headers', k]);
      if (s !== undefined) headers[k] = s;
    }
  let protocol: RequestProtocol = 'http';
  const proto = req ? r.string(req.protocol, [...rp, 'protocol']) : undefined;
  if (proto !== undefined) {
    if ((REQUEST_PROTOCOLS as readonly string[]).includes(proto.toLowerCase())) protocol = proto.toLowerCase() as RequestProtocol;
    else r.problem([...rp, 'protocol'], `must be one of ${REQUEST_PROTOCOLS.join(', ')}, not ${JSON.stringify(proto)}`);
  }
  for (const [i, p] of paths.entries())
    if (!p.startsWith('/'))
      r.problem([...rp, req?.path !== undefined ? 'path' : 'uri', ...(paths.length > 1 ? [i] : [])], `must start with "/", not ${JSON.stringify(p)}`);
  const expect = o.expect === undefined ? undefined : readExpect(r, o.expect, [...path, 'expect']);
  if (o.expect === undefined) r.problem(path, 'needs an expect (route, cluster, redirect, rewrite, fault, timeout or status)');
  let wantMatch = true;
  if (o.wantMatch !== undefined) {
    if (typeof o.wantMatch === 'boolean') wantMatch = o.wantMatch;
    else r.problem([...path, 'wantMatch'], `must be true or false, not ${describe(o.wantMatch)}`);
  }
  if (r.problems.length > before || !hosts || port === undefined || !expect) return undefined;
  return {
    description,
    line: r.lineOf(o.description !== undefined ? [...path, 'description'] : path),
    ...(source ? { source } : {}),
    namespace,
    request: { hosts, port, methods, paths, headers, protocol },
    expect,
    wantMatch,
  };
}

/** Reads the RouteTests documents of a file (already split into documents). */
export function readRouteTestDocuments(file: string, docs: readonly SourceDocument[]): RouteTestFile {
  const out: RouteTestFile = { file, suites: [], problems: [] };
  let sawKind = false;
  for (const doc of docs) {
    const parsed = parseSourceDocument(doc);
    if (parsed.problems.length > 0) {
      for (const p of parsed.problems) out.problems.push({ file, line: p.line ?? doc.referenceLine, message: p.message });
      continue;
    }
    const v = parsed.value;
    if (v === undefined || v === null) continue;
    const r = new Reader(doc);
    if (!isObj(v)) {
      r.problem([], `a RouteTests document is a mapping, not ${describe(v)}`);
      out.problems.push(...r.problems);
      continue;
    }
    if (v.kind !== ROUTE_TESTS_KIND) continue;
    sawKind = true;
    if (v.apiVersion !== ROUTE_TESTS_API_VERSION) r.problem(['apiVersion'], `must be ${ROUTE_TESTS_API_VERSION}, not ${describe(v.apiVersion)}`);
    const md = isObj(v.metadata) ? v.metadata : {};
    const name = r.string(md.name, ['metadata', 'name']) ?? '';
    const namespace = r.string(md.namespace, ['metadata', 'namespace']) ?? 'default';
    const spec = r.object(v.spec, ['spec'], new Set(['source', 'tests']));
    if (!spec) {
      r.problem([], 'needs a spec with a list of tests');
      out.problems.push(...r.problems);
      continue;
    }
    const source = r.string(spec.source, ['spec', 'source']);
    const suite: RouteTestSuite = { name: name || `document ${doc.index + 1}`, file, line: doc.referenceLine, tests: [] };
    if (!Array.isArray(spec.tests))
      r.problem(
        spec.tests === undefined ? ['spec'] : ['spec', 'tests'],
        spec.tests === undefined ? 'needs tests: a list of tests' : `tests must be a list, not ${describe(spec.tests)}`,
      );
    else
      spec.tests.forEach((t, i) => {
        const test = readTest(r, t, ['spec', 'tests', i], { ...(source ? { source } : {}), namespace });
        if (test) suite.tests.push(test);
      });
    out.problems.push(...r.problems);
    out.suites.push(suite);
  }
  if (!sawKind && out.problems.length === 0) {
    out.problems.push({
      file,
      line: docs[0]?.referenceLine ?? 1,
      message: `no RouteTests document: a route-test file has apiVersion: ${ROUTE_TESTS_API_VERSION} and kind: ${ROUTE_TESTS_KIND}`,
    });
  }
  return out;
}

/** Reads a route-test file from its text. Never throws. */
export function readRouteTests(file: string, text: string): RouteTestFile {
  return readRouteTestDocuments(file, splitDocuments(file, text));
}

/** Whether a document's text declares a RouteTests object (cheap check for listing files). */
export function looksLikeRouteTests(text: string): boolean {
  return /^kind:[ \t]*["']?RouteTests["']?[ \t]*(#.*)?$/m.test(text);
}
