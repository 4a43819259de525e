// Collects the input files the way istioctl analyze does: `-` is stdin, directories are
// walked recursively in lexical order (paths joined under the argument, as Go's
// filepath.Join would), and only .json/.yaml/.yml files are read; others are skipped
// with istioctl's notice on stderr.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeFileBytes } from '../core/document/encoding.ts';
import { INPUT_LIMIT, InputError, InputTooLargeError, readCapped, type Cap } from './readCapped.ts';

export { InputError, InputTooLargeError } from './readCapped.ts';

export const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'] as const;

export interface InputFile {
  /** The name printed in references: as given, or joined under the directory argument. */
  name: string;
  text: string;
}

/** Go's filepath.Ext: the suffix from the last dot in the last path element. */
function extOf(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/' && p[i] !== '\\'; i--) {
    if (p[i] === '.') return p.slice(i);
  }
  return '';
}

export function isRecognizedFile(p: string): boolean {
  return (FILE_EXTENSIONS as readonly string[]).includes(extOf(p));
}

export function skippingNotice(p: string): string {
  return `Skipping file ${p}, recognized file extensions are: [${FILE_EXTENSIONS.join(' ')}]\n`;
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return err.message ?? String(e);
}

export interface GatherIo {
  cwd: string;
  /** Stdin's text; may throw InputTooLargeError (see main.ts). */
  stdin: () => Promise<string>;
  stderr: (s: string) => void;
  /**
   * Called for an input over the size cap (then left out of the result, and the other inputs
   * are still read). Without it, gatherFiles throws the InputTooLargeError.
   */
  onTooLarge?: (e: InputTooLargeError) => void;
}

/** A size for a message: bytes, KB or MB. */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What the inputs read so far leave of the limit: the inputs of one command share the heap
 * (inputLimit.ts), so the limit holds for all of them together.
 */
class Budget {
  /** Bytes read so far. */
  used = 0;
  cap(): Cap {
    if (this.used === 0) return INPUT_LIMIT;
    return {
      bytes: Math.max(0, INPUT_LIMIT.bytes - this.used),
      why: `what is left of ${sizeText(INPUT_LIMIT.bytes)} (${INPUT_LIMIT.why}) after the ${sizeText(this.used)} of the inputs before it`,
    };
  }
}

/** A file's text (UTF-8, or UTF-16 with a BOM or recognised by its zero bytes), read with the cap. */
async function readText(abs: string, name: string, budget: Budget): Promise<string> {
  try {
    const bytes = await readCapped(abs, name, budget.cap());
    budget.used += bytes.length;
    return decodeFileBytes(bytes);
  } catch (e) {
    if (e instanceof InputTooLargeError) throw e;
    throw new InputError(`open ${name}: ${describe(e)}`);
  }
}

/** Adds the file to `out`, or reports it to onTooLarge when it is over the cap. */
async function readInto(abs: string, name: string, io: GatherIo, out: InputFile[], budget: Budget): Promise<void> {
  try {
    out.push({ name, text: await readText(abs, name, budget) });
  } catch (e) {
    if (!(e instanceof InputTooLargeError) || !io.onTooLarge) throw e;
    io.onTooLarge(e);
  }
}

async function walk(dirName: string, io: GatherIo, out: InputFile[], budget: Budget): Promise<void> {
  let entries;
  try {
    entries = await readdir(resolve(io.cwd, dirName), { withFileTypes: true });
  } catch (e) {
    throw new InputError(`open ${dirName}: ${describe(e)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ent of entries) {
    const name = join(dirName, ent.name);
    // Like filepath.Walk, symbolic links are not followed into directories.
    if (ent.isDirectory()) {
      await walk(name, io, out, budget);
      continue;
    }
    if (!isRecognizedFile(name)) {
      io.stderr(skippingNotice(name));
      continue;
    }
    await readInto(resolve(io.cwd, name), name, io, out, budget);
  }
}

/** Reads every input named on the command line, in order. */
export async function gatherFiles(args: readonly string[], io: GatherIo): Promise<InputFile[]> {
  const out: InputFile[] = [];
  const budget = new Budget();
  // Stdin is read once, however often `-` is named.
  let stdin: Promise<string> | undefined;
  for (const arg of args) {
    if (arg === '-') {
      const first = stdin === undefined;
      stdin ??= io.stdin();
      try {
        const text = await stdin;
        // Stdin is read with the whole limit (main.ts); what it took counts for the files after it.
        if (first) budget.used += text.length;
        out.push({ name: '-', text });
      } catch (e) {
        if (!(e instanceof InputTooLargeError) || !io.onTooLarge) throw e;
        io.onTooLarge(e);
      }
      continue;
    }
    let st;
    try {
      st = await stat(resolve(io.cwd, arg));
    } catch (e) {
      throw new InputError(`stat ${arg}: ${describe(e)}`);
    }
    if (st.isDirectory()) {
      // Go's filepath.Walk cleans the root path when joining children.
      await walk(arg, io, out, budget);
    } else if (!isRecognizedFile(arg)) {
      io.stderr(skippingNotice(arg));
    } else {
      await readInto(resolve(io.cwd, arg), arg, io, out, budget);
    }
  }
  return out;
}
