// Inputs are read with the size cap while reading (src/cli/readCapped.ts): an endless input —
// /dev/zero behind a .yaml symlink, a FIFO whose writer never stops, stdin fed forever — is
// refused with the model's too-large message and exit 65 instead of being read to an end
// that never comes. The cap is what the machine holds (src/cli/inputLimit.ts): the smaller of
// V8's longest string and the process's heap over HEAP_BYTES_PER_INPUT_BYTE. The real CLI runs
// as a process with a small heap (--max-old-space-size), so its cap is small too; a guard
// kills it if it hangs (nothing here measures time).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { constants } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';
import { InputTooLargeError, MAX_INPUT_BYTES, readCapped, readCappedStream } from '../../src/cli/readCapped.ts';
import { HEAP_BYTES_PER_INPUT_BYTE, inputLimit } from '../../src/cli/inputLimit.ts';
import { TAB_MAX_FILE_CHARS, tooLargeMessage, WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { PARSER_CODES } from '../../src/core/document/parse.ts';
import { REPO } from './helpers.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const BIN = `${REPO}bin/mesh-workbench.js`;
const HANG_GUARD_MS = 20000;
const MIB = 1024 * 1024;
/** The old-space size the CLI processes run with, so that their cap is small. */
const CHILD_OLD_SPACE_MB = 128;
const CHILD_NODE_OPTIONS = `--max-old-space-size=${CHILD_OLD_SPACE_MB}`;
/** The heap limit V8 gives a process with that old space, and the cap the rule makes of it. */
const CHILD_HEAP = Number(
  execFileSync(process.execPath, [CHILD_NODE_OPTIONS, '-e', "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))"], {
    encoding: 'utf8',
  }),
);
const CHILD_LIMIT = { bytes: Math.floor(CHILD_HEAP / HEAP_BYTES_PER_INPUT_BYTE), why: inputLimit(CHILD_HEAP).why };
/** What such a process says of an input over its cap whose size it does not know. */
const OVER = tooLargeMessage(undefined, CHILD_LIMIT.bytes, CHILD_LIMIT.why);
/** certs reads certificate inputs with their own cap, 32 MB (src/core/pki/input.ts). */
const CERT_OVER = 'File is too large to analyze (more than 32 MB; the limit is 32 MB). Split it into smaller files.';
const GOOD = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n';

const scratch: string[] = [];
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mwb-capped-'));
  scratch.push(dir);
  return dir;
}
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const hasDevZero = existsSync('/dev/zero');
const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', [join(scratchDir(), 'probe')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function mkfifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** A process that opens the FIFO and writes to it until it is killed (or the reader goes). */
function endlessFifoWriter(path: string): ChildProcess {
  const script = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(path)}, 'w'); const b = Buffer.alloc(65536, 'a: 1\\n'); for (;;) fs.writeSync(fd, b);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** A process that writes `bytes` to the FIFO, then closes it. */
function fifoWriter(path: string, bytes: Buffer): ChildProcess {
  const child = spawn(
    process.execPath,
    ['-e', `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(path)}, 'w'); process.stdin.pipe(fs.createWriteStream(null, { fd }));`],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  children.push(child);
  child.stdin!.end(bytes);
  return child;
}

interface Run {
  code: number | null;
  hung: boolean;
  stdout: string;
  stderr: string;
}

/** Runs bin/mesh-workbench.js; `feedForever` writes YAML to its stdin until it exits. */
function run(args: string[], cwd: string, opts: { feedForever?: boolean; nodeOptions?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: [opts.feedForever ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: opts.nodeOptions ?? CHILD_NODE_OPTIONS },
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout!.setEncoding('utf8').on('data', (s: string) => void (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => void (stderr += s));
    const guard = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    if (opts.feedForever) {
      const stdin = child.stdin!;
      const chunk = Buffer.alloc(64 * 1024, 'a: 1\n');
      let stop = false;
      stdin.on('error', () => void (stop = true));
      const pump = (): void => {
        while (!stop && stdin.write(chunk));
        if (!stop) stdin.once('drain', pump);
      };
      child.on('exit', () => {
        stop = true;
        stdin.destroy();
      });
      pump();
    }
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, hung, stdout, stderr });
    });
  });
}

/** What analyze prints for one input over the cap, before its notice about skipped analyzers. */
function addingError(name: string, message = OVER): string {
  return `Error(s) adding files:\n  ${name}:1:1: error: ${message} (${PARSER_CODES.tooLarge})\n`;
}

describe('readCapped', () => {
  it('caps inputs at what the machine holds: the longest string, or the heap over HEAP_BYTES_PER_INPUT_BYTE', () => {
    const heap = getHeapStatistics().heap_size_limit;
    expect(MAX_INPUT_BYTES).toBe(Math.min(constants.MAX_STRING_LENGTH, Math.floor(heap / HEAP_BYTES_PER_INPUT_BYTE)));
    // V8's string limit on 64-bit (2^29 - 24) against a 4 GiB and a 16 GiB heap.
    const maxString = 2 ** 29 - 24;
    expect(inputLimit(4 * 1024 * MIB, maxString).bytes).toBe(Math.floor((4 * 1024 * MIB) / HEAP_BYTES_PER_INPUT_BYTE));
    expect(inputLimit(4 * 1024 * MIB, maxString).why).toContain('4096 MB heap');
    expect(inputLimit(16 * 1024 * MIB, maxString)).toEqual({ bytes: maxString, why: 'the longest string Node can hold, and a file is read as one' });
    // Far above the old fixed 32 MB: a whole-cluster dump of 100 MB is read on any machine
    // whose heap is at least HEAP_BYTES_PER_INPUT_BYTE times that.
    expect(inputLimit(1024 * MIB * 2, maxString).bytes).toBeGreaterThan(100 * MIB);
    // The browser tab keeps its own limit (the model's default): what Chrome's largest heap,
    // 4 GiB, holds at the same rate.
    expect(TAB_MAX_FILE_CHARS).toBe(Math.floor((4 * 1024 * MIB) / HEAP_BYTES_PER_INPUT_BYTE));
  });

  it('reads a file of exactly the cap and refuses one byte more, with the model’s message', async () => {
    const dir = scratchDir();
    const limit = { bytes: 3 * MIB + 7, why: 'the reason given' };
    const exact = join(dir, 'exact.yaml');
    const content = Buffer.alloc(limit.bytes, 'a');
    writeFileSync(exact, content);
    const bytes = await readCapped(exact, 'exact.yaml', limit);
    expect(bytes.length).toBe(limit.bytes);
    expect(bytes.equals(content)).toBe(true);

    const over = join(dir, 'over.yaml');
    writeFileSync(over, Buffer.alloc(limit.bytes + 1, 'a'));
    const e = await readCapped(over, 'over.yaml', limit).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputTooLargeError);
    const err = e as InputTooLargeError;
    expect(err.input).toBe('over.yaml');
    expect(err.bytes).toBe(limit.bytes + 1);
    expect(err.message).toBe(`over.yaml: ${err.detail}`);
    // The message the model gives a text of as many characters, under the same limit.
    const model = new WorkspaceModel(kindProblems, { maxFileChars: limit.bytes, maxFileWhy: limit.why });
    model.update([{ path: 'over.yaml', text: 'a'.repeat(limit.bytes + 1) }], []);
    const problem = model.problems().find((p) => p.code === PARSER_CODES.tooLarge);
    expect(problem?.message).toBe(err.detail);
    expect(err.detail).toBe('File is too large to analyze (3.0 MB; the limit is 3.0 MB, the reason given). Split it into smaller files.');
    // The message's default limit is the tab's: 4 GiB / 20 = 214,748,364 characters, 204.8 MiB.
    expect(tooLargeMessage(TAB_MAX_FILE_CHARS + 1)).toBe('File is too large to analyze (204.8 MB; the limit is 204.8 MB). Split it into smaller files.');
  });

  it('reads small caps exactly, in any number of chunks', async () => {
    const dir = scratchDir();
    for (const size of [0, 1, 999, 1000]) {
      const p = join(dir, `f${size}`);
      writeFileSync(p, Buffer.alloc(size, 'b'));
      expect((await readCapped(p, 'f', 1000)).length).toBe(size);
    }
    writeFileSync(join(dir, 'f1001'), Buffer.alloc(1001, 'b'));
    await expect(readCapped(join(dir, 'f1001'), 'f', 1000)).rejects.toBeInstanceOf(InputTooLargeError);
    await expect(readCapped(join(dir, 'missing'), 'missing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!hasDevZero)('stops reading a device at the cap (its size is 0)', async () => {
    const e = (await readCapped('/dev/zero', 'zero', 3 * MIB).catch((err: unknown) => err)) as InputTooLargeError;
    expect(e).toBeInstanceOf(InputTooLargeError);
    expect(e.bytes).toBeUndefined();
    expect(e.detail).toBe(tooLargeMessage(undefined, 3 * MIB));
    expect(tooLargeMessage(undefined, 32 * MIB)).toBe(CERT_OVER);
  });

  it.skipIf(!hasMkfifo)('reads a FIFO of exactly the cap (several chunks), and refuses one byte more', async () => {
    const dir = scratchDir();
    const cap = 3 * MIB + 5;
    const content = Buffer.alloc(cap);
    for (let i = 0; i < cap; i++) content[i] = (i * 7 + (i >> 13)) & 0xff;
    const exact = mkfifo(dir, 'exact');
    fifoWriter(exact, content);
    const got = await readCapped(exact, 'exact', cap);
    expect(got.length).toBe(cap);
    expect(got.equals(content)).toBe(true);

    const over = mkfifo(dir, 'over');
    fifoWriter(over, Buffer.concat([content, Buffer.from('x')]));
    await expect(readCapped(over, 'over', cap)).rejects.toBeInstanceOf(InputTooLargeError);
  });

  it('stops an endless stream at the cap and destroys it', async () => {
    let chunks = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          chunks++;
          yield Buffer.alloc(1000, 'c');
        }
      })(),
    );
    const e = await readCappedStream(endless, '-', 10_000).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputTooLargeError);
    expect((e as InputTooLargeError).input).toBe('-');
    expect(endless.destroyed).toBe(true);
    // At most the cap and what the stream buffered ahead of it.
    expect(chunks).toBeLessThan(100);
    const exact = await readCappedStream(Readable.from([Buffer.alloc(6000, 'd'), Buffer.alloc(4000, 'e')]), '-', 10_000);
    expect(exact.length).toBe(10_000);
    expect(exact.subarray(5999, 6001).toString()).toBe('de');
  });
});

describe.skipIf(!hasDevZero)('the CLI on endless inputs', () => {
  it('analyze: a .yaml symlink to /dev/zero', async () => {
    const dir = scratchDir();
    symlinkSync('/dev/zero', join(dir, 'x.yaml'));
    const r = await run(['analyze', 'x.yaml'], dir);
    expect(r.hung).toBe(false);
    expect(r.stderr.startsWith(addingError('x.yaml'))).toBe(true);
    expect(r.stderr).toContain("Error: Some files couldn't be parsed.\n");
    expect(r.code).toBe(65);
  });

  it('certs /dev/zero', async () => {
    const r = await run(['certs', '/dev/zero'], scratchDir());
    expect(r.hung).toBe(false);
    expect(r.stderr).toBe(`Error: /dev/zero: ${CERT_OVER}\n`);
    expect(r.code).toBe(65);
  });

  it('analyze --meshConfigFile /dev/zero good.yaml', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const r = await run(['analyze', '--meshConfigFile', '/dev/zero', 'good.yaml'], dir);
    expect(r.hung).toBe(false);
    expect(r.stderr).toBe(`Error: --meshConfigFile: /dev/zero: ${OVER}\n`);
    expect(r.code).toBe(65);
    const networks = await run(['analyze', '--meshNetworksFile', '/dev/zero', 'good.yaml'], dir);
    expect(networks.stderr).toBe(`Error: --meshNetworksFile: /dev/zero: ${OVER}\n`);
    expect(networks.code).toBe(65);
  });

  it('every other command that reads files', async () => {
    const dir = scratchDir();
    symlinkSync('/dev/zero', join(dir, 'x.yaml'));
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const cases: [string[], string][] = [
      [['proxy-config', 'clusters', '--file', '/dev/zero'], `Error: /dev/zero: ${OVER}\n`],
      [['proxy-config', 'clusters', 'p.shop', 'x.yaml'], `Error: x.yaml: ${OVER}\n`],
      [['proxy-config', 'diff', 'p.shop', '--file', '/dev/zero', 'good.yaml'], `Error: /dev/zero: ${OVER}\n`],
      [['simulate', 'p.shop', '--host', 'a', '--port', '80', 'x.yaml'], `Error: x.yaml: ${OVER}\n`],
      [['route-test', 'x.yaml', 'good.yaml'], `Error: x.yaml: ${OVER}\n`],
      [['route-test', 'good.yaml', 'x.yaml'], `Error: x.yaml: ${OVER}\n`],
      [['ztunnel-config', 'workloads', 'x.yaml'], `Error: x.yaml: ${OVER}\n`],
      [['trace', '--from', 'shop/a', '--to', 'b:80', 'x.yaml'], `Error: x.yaml: ${OVER}\n`],
    ];
    for (const [args, stderr] of cases) {
      const r = await run(args, dir);
      expect(r.hung, args.join(' ')).toBe(false);
      expect(r.stderr, args.join(' ')).toBe(stderr);
      expect(r.code, args.join(' ')).toBe(65);
    }
  }, 120000);

  it.skipIf(!hasMkfifo)('analyze: a FIFO whose writer never stops', async () => {
    const dir = scratchDir();
    const fifo = mkfifo(dir, 'f.yaml');
    const writer = endlessFifoWriter(fifo);
    try {
      const r = await run(['analyze', 'f.yaml'], dir);
      expect(r.hung).toBe(false);
      expect(r.stderr.startsWith(addingError('f.yaml'))).toBe(true);
      expect(r.code).toBe(65);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('analyze -: stdin fed forever', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const r = await run(['analyze', 'good.yaml', '-', '-'], dir, { feedForever: true });
    expect(r.hung).toBe(false);
    // Named once, though given twice; the other files are still analyzed.
    expect(r.stderr.startsWith(addingError('-'))).toBe(true);
    expect(r.stdout).toContain('Info [IST0102] (Namespace shop good.yaml:4)');
    expect(r.stderr).toContain("Error: Some files couldn't be parsed.\n");
    expect(r.code).toBe(65);
    const certs = await run(['certs', '-'], dir, { feedForever: true });
    expect(certs.hung).toBe(false);
    expect(certs.stderr).toBe(`Error: -: ${OVER}\n`);
    expect(certs.code).toBe(65);
  });
});

describe('a regular file over the cap', () => {
  it('is reported as before, with its size, among the files that could not be parsed', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'a.yaml'), 'a: [\n');
    const bigBytes = CHILD_LIMIT.bytes + 3 * MIB;
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(bigBytes, 'a'));
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const r = await run(['analyze', 'good.yaml', 'big.yaml', 'a.yaml'], dir);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('Error(s) adding files:');
    expect(lines[1]).toMatch(/^ {2}a\.yaml:1:\d+: error: YAML syntax error/);
    // good.yaml's bytes were read before it: what is left of the cap is the limit big.yaml is held to.
    const left = CHILD_LIMIT.bytes - GOOD.length;
    const why = `what is left of ${(CHILD_LIMIT.bytes / MIB).toFixed(1)} MB (${CHILD_LIMIT.why}) after the ${GOOD.length} bytes of the inputs before it`;
    expect(lines[2]).toBe(`  big.yaml:1:1: error: ${tooLargeMessage(bigBytes, left, why)} (${PARSER_CODES.tooLarge})`);
    expect(lines[3]).not.toMatch(/^ {2}/); // nothing else under the heading
    expect(r.stdout).toContain('Info [IST0102] (Namespace shop good.yaml:4)');
    expect(r.stderr).toContain("Error: Some files couldn't be parsed.\n");
    expect(r.code).toBe(65);
    // Alone, it is held to the whole cap; SARIF carries it as the model's FileTooLarge result.
    const sarif = await run(['analyze', '-o', 'sarif', 'big.yaml'], dir);
    expect(sarif.stderr).toContain(tooLargeMessage(bigBytes, CHILD_LIMIT.bytes, CHILD_LIMIT.why));
    expect(JSON.parse(sarif.stdout).runs[0].results).toMatchObject([
      { ruleId: PARSER_CODES.tooLarge, locations: [{ physicalLocation: { artifactLocation: { uri: 'big.yaml' } } }] },
    ]);
  });
});

describe('a file above the old 32 MB cap', () => {
  it('is analyzed (a ConfigMap of 40 MB beside a Namespace)', async () => {
    const dir = scratchDir();
    // Long lines of a block scalar: cheap to read, so the test is about the size, not speed.
    const line = `    ${'x'.repeat(1019)}\n`;
    const body = line.repeat(Math.ceil((40 * MIB) / line.length));
    writeFileSync(join(dir, 'dump.yaml'), `${GOOD}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: shop\ndata:\n  blob: |\n${body}`);
    const r = await run(['analyze', '-A', 'dump.yaml'], dir, { nodeOptions: '' });
    expect(r.hung).toBe(false);
    expect(r.stderr).not.toContain('too large');
    expect(r.stdout).toContain('Info [IST0102] (Namespace shop dump.yaml:4)');
    expect(r.code).toBe(0);
  }, 60000);
});
