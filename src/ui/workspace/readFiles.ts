// Read user-supplied files (upload or drop) into workspace files.
import { decodeFileBytes } from '../../core/document/encoding.ts';

export interface ReadFile {
  path: string;
  text: string;
  bytes: number;
}

export async function readFiles(list: Iterable<File>): Promise<ReadFile[]> {
  const out: ReadFile[] = [];
  for (const f of list) {
    const buf = await f.arrayBuffer();
    // Never throws: UTF-16 is decoded, invalid UTF-8 becomes U+FFFD, NUL bytes stay NUL (the binary check sees them).
    const text = decodeFileBytes(new Uint8Array(buf));
    const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
    out.push({ path: rel || f.name, text, bytes: buf.byteLength });
  }
  return out;
}
