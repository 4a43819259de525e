// A long-lived oracle process spoken to in JSON lines (analyze-oracle, `xds-oracle --serve`): one
// request per line with an `id`, one answer line per request carrying the same `id`. A crash of
// the process answers every pending request with `died`; the process is replaced, between
// requests, after `recycleEvery` requests, because Go does not give back all a request's memory.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface JsonLinesProcessSpec<Answer> {
  bin: string;
  args: readonly string[];
  recycleEvery: number;
  /** The answer for one reply line (already parsed; it carried the request's id). */
  answer(reply: Record<string, unknown>): Answer;
  /** The answer for each pending request when the process exits (`how`: exit code or signal). */
  died(how: string, stderrTail: string): Answer;
}

export class JsonLinesProcess<Answer> {
  private child: ChildProcessWithoutNullStreams | undefined;
  private next = 0;
  private readonly pending = new Map<number, (a: Answer) => void>();
  private stderrTail = '';
  private requestsOnChild = 0;
  /** Requests sent. */
  runs = 0;
  /** Processes that exited on their own (crashes). */
  restarts = 0;
  /** Fresh processes started to bound memory. */
  recycled = 0;

  constructor(private readonly spec: JsonLinesProcessSpec<Answer>) {}

  private start(): ChildProcessWithoutNullStreams {
    this.stderrTail = '';
    const child = spawn(this.spec.bin, [...this.spec.args], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-4000)));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      let reply: Record<string, unknown>;
      try {
        reply = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      const id = reply.id as number;
      const resolve = this.pending.get(id);
      if (!resolve) return;
      this.pending.delete(id);
      resolve(this.spec.answer(reply));
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      for (const [id, resolve] of this.pending) {
        this.pending.delete(id);
        resolve(this.spec.died(String(signal ?? code), this.stderrTail));
      }
      this.restarts++;
    });
    child.stdin.on('error', () => {
      // the exit handler answers what was pending
    });
    return child;
  }

  request(body: Record<string, unknown>): Promise<Answer> {
    if (this.child && this.requestsOnChild >= this.spec.recycleEvery && this.pending.size === 0) {
      this.close();
      this.recycled++;
    }
    if (!this.child) {
      this.child = this.start();
      this.requestsOnChild = 0;
    }
    this.requestsOnChild++;
    this.runs++;
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child!.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  }

  /** Ends the process after what it was asked (its exit is not counted as a crash). */
  close(): void {
    const c = this.child;
    this.child = undefined;
    if (c) {
      c.removeAllListeners('exit');
      c.stdin.end();
    }
  }
}
