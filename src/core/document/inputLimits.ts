// How large a file the tab analyzes. A file is decoded into one JavaScript string, and V8 caps
// a string's length (2^29 - 24 characters on 64-bit); and its analysis must fit in the heap of
// the tab's analysis worker. Chrome gives a page or a worker a heap of up to 4 GiB on a 64-bit
// machine with the memory for it (performance.memory.jsHeapSizeLimit says how much), and the
// analysis needs about HEAP_BYTES_PER_INPUT_BYTE times the file at its peak. Past the first,
// decoding throws; past the second, the worker runs out of memory and the tab crashes. The
// CLI applies the same two bounds to Node's heap (src/cli/inputLimit.ts).

/**
 * Heap an analysis may need per byte of input, at its peak. On the generated meshes of
 * bench/scale.ts the live heap peaks at about 15 times the file (20,000 services, 23 MB) and a
 * whole process's RSS at about 18 times past the runtime's own (50,000 services, 57 MB);
 * twenty leaves room for YAML of shorter scalars than theirs.
 */
export const HEAP_BYTES_PER_INPUT_BYTE = 20;

/** V8's longest string on 64-bit platforms (String::kMaxLength), in UTF-16 code units. */
export const V8_MAX_STRING_LENGTH = 2 ** 29 - 24;

/** The heap assumed when the browser does not say: Chrome's largest on 64-bit machines. */
export const DEFAULT_TAB_HEAP_BYTES = 4 * 1024 ** 3;

/** Files larger than this are analyzed, with a note that the editor is in large-file mode. */
export const LARGE_FILE_CHARS = 8 * 1024 * 1024;

export interface FileLimit {
  /** The longest file analyzed, in characters. */
  chars: number;
  /** Where the limit comes from, for the message a larger file gets. */
  why: string;
}

const MIB = 1024 * 1024;

/** The tab's limit for a heap of `heapLimit` bytes. */
export function tabFileLimit(heapLimit: number = DEFAULT_TAB_HEAP_BYTES): FileLimit {
  const byHeap = Math.floor(heapLimit / HEAP_BYTES_PER_INPUT_BYTE);
  if (byHeap < V8_MAX_STRING_LENGTH) {
    return { chars: byHeap, why: `what this tab's ${Math.round(heapLimit / MIB)} MB heap can analyze; the CLI takes larger files` };
  }
  return { chars: V8_MAX_STRING_LENGTH, why: 'the longest string a browser holds, and a file is read as one' };
}
