// Inputs are read with the size cap while reading (src/cli/readCapped.ts): an endless input —
// /dev/zero behind a .yaml symlink, a FIFO whose writer never stops, stdin fed forever — is
// refused with the model's too-large message and exit 65 instead of being read to an end
// that never comes. The real CLI runs as a process; a guard kills it if it hangs (nothing
// here measures time).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLargeError, MAX_INPUT_BYTES, readCapped, readCappedStream } from '../../src/cli/readCapped.ts';
import { tooLargeMessage } from '../../src/core/document/workspaceModel.ts';
import { MAX_FILE_CHARS, WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { PARSER_CODES } from '../../src/core/document/parse.ts';
import { cli, REPO } from './helpers.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const BIN = `${REPO}bin/mesh-workbench.js`;
const HANG_GUARD_MS = 20000;
const MIB = 1024 * 1024;
const OVER = 'File is too large to analyze (more than 32 MB; the limit is 32 MB). Split it into smaller files.';
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
function run(args: string[], cwd: string, opts: { feedForever?: boolean } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: [opts.feedForever ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
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
  it('has the byte cap equal to the model’s character limit', () => {
    expect(MAX_INPUT_BYTES).toBe(MAX_FILE_CHARS);
  });

  it('reads a file of exactly the cap and refuses one byte more, with the model’s message', async () => {
    const dir = scratchDir();
    const exact = join(dir, 'exact.yaml');
    const content = Buffer.alloc(MAX_INPUT_BYTES, 'a');
    writeFileSync(exact, content);
    const bytes = await readCapped(exact, 'exact.yaml');
    expect(bytes.length).toBe(MAX_INPUT_BYTES);
    expect(bytes.equals(content)).toBe(true);

    const over = join(dir, 'over.yaml');
    writeFileSync(over, Buffer.alloc(MAX_INPUT_BYTES + 1, 'a'));
    const e = await readCapped(over, 'over.yaml').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputTooLargeError);
    const err = e as InputTooLargeError;
    expect(err.input).toBe('over.yaml');
    expect(err.bytes).toBe(MAX_INPUT_BYTES + 1);
    expect(err.message).toBe(`over.yaml: ${err.detail}`);
    // The message the model gives a text of as many characters.
    const model = new WorkspaceModel(kindProblems);
    model.update([{ path: 'over.yaml', text: 'a'.repeat(MAX_INPUT_BYTES + 1) }], []);
    const problem = model.problems().find((p) => p.code === PARSER_CODES.tooLarge);
    expect(problem?.message).toBe(err.detail);
    expect(err.detail).toBe('File is too large to analyze (32.0 MB; the limit is 32 MB). Split it into smaller files.');
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
    expect(tooLargeMessage(undefined)).toBe(OVER);
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
    expect(r.stderr).toBe(`Error: /dev/zero: ${OVER}\n`);
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
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(MAX_INPUT_BYTES + 3 * MIB, 'a'));
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const r = await cli(['analyze', 'good.yaml', 'big.yaml', 'a.yaml'], { cwd: dir });
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('Error(s) adding files:');
    expect(lines[1]).toMatch(/^ {2}a\.yaml:1:\d+: error: YAML syntax error/);
    expect(lines[2]).toBe(
      `  big.yaml:1:1: error: File is too large to analyze (35.0 MB; the limit is 32 MB). Split it into smaller files. (${PARSER_CODES.tooLarge})`,
    );
    expect(lines[3]).not.toMatch(/^ {2}/); // nothing else under the heading
    expect(r.stdout).toContain('Info [IST0102] (Namespace shop good.yaml:4)');
    expect(r.stderr).toContain("Error: Some files couldn't be parsed.\n");
    expect(r.code).toBe(65);
    // SARIF carries it as the model's FileTooLarge result.
    const sarif = await cli(['analyze', '-o', 'sarif', 'big.yaml'], { cwd: dir });
    expect(JSON.parse(sarif.stdout).runs[0].results).toMatchObject([
      { ruleId: PARSER_CODES.tooLarge, locations: [{ physicalLocation: { artifactLocation: { uri: 'big.yaml' } } }] },
    ]);
  });
});
