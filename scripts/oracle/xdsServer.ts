// istiod's side of the xds oracle in one long-lived process: `xds-oracle --serve`
// (oracle/cmd/xds-oracle), spoken to in JSON lines. One request is a workspace (its files, the
// proxies to generate, an optional mesh config); the answer holds each proxy's clusters,
// listeners, routes and endpoints as Envoy proto JSON, or why the harness could not make them.
// Process start and Istio's module initialisation (about 40 ms, and the page faults of a 200 MB
// binary) happen once; each request still gets its own test discovery server.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
  private child: ChildProcessWithoutNullStreams | undefined;
  private next = 0;
  private readonly pending = new Map<number, (a: XdsAnswer) => void>();
  private stderrTail = '';
  private runsOnChild = 0;
  runs = 0;
  restarts = 0;
  recycled = 0;

  /** Each request starts a test discovery server (informers, a push queue) whose memory Go does not all give back: a fresh process every `recycleEvery` requests. */
  constructor(private readonly bin = XDS_ORACLE_BIN, private readonly recycleEvery = 300) {}

  static available(bin = XDS_ORACLE_BIN): boolean {
    return existsSync(bin);
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.bin, ['--serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-4000)));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      let msg: { id: number; error?: string; proxies?: XdsProxyAnswer[]; rejected?: XdsRejected[] };
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      p({ ...(msg.error ? { error: msg.error } : {}), proxies: msg.proxies ?? [], rejected: msg.rejected ?? [] });
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      // A panic on one of istiod's own goroutines ends the process: fail what was asked.
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p({ error: `xds-oracle exited (${signal ?? code}): ${this.stderrTail.trim().split('\n').slice(-3).join(' | ')}`, proxies: [], rejected: [] });
      }
      this.restarts++;
    });
    child.stdin.on('error', () => {
      // the exit handler answers what was pending
    });
    return child;
  }

  generate(files: readonly XdsFile[], proxies: readonly XdsProxyRequest[], mesh?: string): Promise<XdsAnswer> {
    if (this.child && this.runsOnChild >= this.recycleEvery && this.pending.size === 0) {
      const old = this.child;
      this.child = undefined;
      old.removeAllListeners('exit');
      old.stdin.end();
      this.recycled++;
    }
    if (!this.child) {
      this.stderrTail = '';
      this.child = this.start();
      this.runsOnChild = 0;
    }
    this.runsOnChild++;
    this.runs++;
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child!.stdin.write(`${JSON.stringify({ id, files, proxies, ...(mesh !== undefined ? { mesh } : {}) })}\n`);
    });
  }

  close(): void {
    const c = this.child;
    this.child = undefined;
    if (c) {
      c.removeAllListeners('exit');
      c.stdin.end();
    }
  }
}
