// istiod's side of the xds oracle in one long-lived process: `xds-oracle --serve`
// (oracle/cmd/xds-oracle), spoken to in JSON lines. One request is a workspace (its files, the
// proxies to generate, an optional mesh config); the answer holds each proxy's clusters,
// listeners, routes and endpoints as Envoy proto JSON, or why the harness could not make them.
// Process start and Istio's module initialisation (about 40 ms, and the page faults of a 200 MB
// binary) happen once; each request still gets its own test discovery server.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { JsonLinesProcess } from './jsonLinesProcess.ts';

const CACHE = process.env.MESH_WORKBENCH_ORACLE_CACHE || join(homedir(), '.cache', 'mesh-workbench-oracle');
export const XDS_ORACLE_BIN = process.env.XDS_ORACLE || join(CACHE, 'bin', 'xds-oracle');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface XdsFile {
  name: string;
  text: string;
}

export interface XdsProxyRequest {
  /** NAME.NAMESPACE of a Pod in the files. */
  name: string;
  type: 'sidecar' | 'router';
}

/** One proxy's answer: its resources, or the harness's error. */
export interface XdsProxyAnswer {
  name: string;
  type: string;
  error?: string;
  clusters?: Json[];
  listeners?: Json[];
  routes?: Json[];
  endpoints?: Json[];
}

/** An Istio config object left out because Istio's validation refuses it (the webhook would not admit it). */
export interface XdsRejected {
  kind: string;
  namespace: string;
  name: string;
  error: string;
}

export interface XdsAnswer {
  /** The workspace could not be loaded (or the process died): no proxy was generated. */
  error?: string;
  proxies: XdsProxyAnswer[];
  rejected: XdsRejected[];
}

/** `xds-oracle --serve`, one request at a time, restarted after a crash and recycled to bound memory. */
export class XdsServer {
  private readonly process: JsonLinesProcess<XdsAnswer>;

  /** Each request starts a test discovery server (informers, a push queue) whose memory Go does not all give back: a fresh process every `recycleEvery` requests. */
  constructor(bin = XDS_ORACLE_BIN, recycleEvery = 300) {
    this.process = new JsonLinesProcess<XdsAnswer>({
      bin,
      args: ['--serve'],
      recycleEvery,
      answer: (m) => ({
        ...(m.error ? { error: String(m.error) } : {}),
        proxies: (m.proxies as XdsProxyAnswer[] | undefined) ?? [],
        rejected: (m.rejected as XdsRejected[] | undefined) ?? [],
      }),
      // A panic on one of istiod's own goroutines ends the process: fail what was asked.
      died: (how, tail) => ({ error: `xds-oracle exited (${how}): ${tail.trim().split('\n').slice(-3).join(' | ')}`, proxies: [], rejected: [] }),
    });
  }

  static available(bin = XDS_ORACLE_BIN): boolean {
    return existsSync(bin);
  }

  get runs(): number {
    return this.process.runs;
  }
  get restarts(): number {
    return this.process.restarts;
  }
  get recycled(): number {
    return this.process.recycled;
  }

  generate(files: readonly XdsFile[], proxies: readonly XdsProxyRequest[], mesh?: string): Promise<XdsAnswer> {
    return this.process.request({ files, proxies, ...(mesh !== undefined ? { mesh } : {}) });
  }

  close(): void {
    this.process.close();
  }
}
