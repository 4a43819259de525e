// How large an input the CLI takes: what the machine can hold, not a round number. Two things
// bound it. A file is decoded into one JavaScript string, and V8 caps a string's length
// (buffer.constants.MAX_STRING_LENGTH: 2^29 - 24 characters, about 512 MB, on 64-bit Node 20);
// and its analysis must fit in the process's heap, whose size Node sets from the machine's
// memory (v8.getHeapStatistics().heap_size_limit, about 4 GB on a 16 GB machine, or what
// --max-old-space-size says). Past the first, decoding would throw; past the second, V8
// would abort the process with "heap out of memory". Refusing at the smaller of the two keeps
// a clear message in place of either crash. The limit is on bytes, applied while reading
// (readCapped.ts), and on all the inputs of one command together, which share the heap.
import { constants } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';
import { HEAP_BYTES_PER_INPUT_BYTE } from '../core/document/inputLimits.ts';

export { HEAP_BYTES_PER_INPUT_BYTE };

export interface InputLimit {
  /** The most bytes an input (or all inputs together) may have. */
  bytes: number;
  /** Where the limit comes from, for the message. */
  why: string;
}

const MIB = 1024 * 1024;

/**
 * The limit on this machine: the smaller of V8's longest string and the part of the heap an
 * analysis of that many bytes needs. Bytes bound characters from above (UTF-8 decodes to at
 * most one UTF-16 code unit per byte, UTF-16 to one per two), so an input within the limit
 * always decodes to a string V8 can hold.
 */
export function inputLimit(heapLimit: number = getHeapStatistics().heap_size_limit, maxString: number = constants.MAX_STRING_LENGTH): InputLimit {
  const byHeap = Math.floor(heapLimit / HEAP_BYTES_PER_INPUT_BYTE);
  if (byHeap < maxString) {
    return {
      bytes: byHeap,
      why: `what a ${Math.round(heapLimit / MIB)} MB heap can analyze, which NODE_OPTIONS=--max-old-space-size=MB raises`,
    };
  }
  return { bytes: maxString, why: 'the longest string Node can hold, and a file is read as one' };
}
