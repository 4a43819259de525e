// Workspace export and import: one multi-document YAML file (each file introduced by a
// `# mesh-workbench-file: "<path>"` comment line), or a zip of the files. Import reads either,
// with caps, so a hostile zip (a bomb, thousands of entries) is refused with a message.
import { strToU8, unzipSync, zipSync } from 'fflate';
import { decodeFileBytes } from '../document/encoding.ts';
import type { ShareFile } from './link.ts';

export const BUNDLE_MARKER = '# mesh-workbench-file: ';
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
export const MAX_IMPORT_FILES = 5000;

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** All files as one multi-document YAML text; `importBundle` gives the same files back. */
export function exportYamlBundle(files: readonly ShareFile[], title?: string): string {
  const head = `# Mesh Workbench workspace${title ? ` ${JSON.stringify(title)}` : ''}: ${files.length} file${files.length === 1 ? '' : 's'}.\n# Each file starts at a "${BUNDLE_MARKER.trim()}" line; apply it as it is with kubectl, or import it back.\n`;
  const parts = files.map((f) => `${BUNDLE_MARKER}${JSON.stringify(f.path)}\n${f.text}${f.text === '' || f.text.endsWith('\n') ? '' : '\n'}`);
  return head + parts.join('---\n');
}

export function exportZip(files: readonly ShareFile[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) entries[f.path] = strToU8(f.text);
  return zipSync(entries, { level: 6, mtime: new Date('2025-01-01T00:00:00Z') });
}

/**
 * The signatures a zip file starts with (APPNOTE.TXT): a local file header `PK\3\4` (4.3.7),
 * the end of central directory record alone of an empty archive `PK\5\6` (4.3.16), or the
 * spanning marker `PK\7\8` of a split archive (8.5.3). Other pairings are not zip starts.
 */
const ZIP_SIGNATURES: ReadonlyArray<readonly [number, number]> = [
  [3, 4],
  [5, 6],
  [7, 8],
];

function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ZIP_SIGNATURES.some(([a, b]) => bytes[2] === a && bytes[3] === b);
}

/**
 * Reads an exported workspace: a zip, a YAML bundle with file markers, or else one plain file
 * (named `name`). Throws ImportError with a message for a person.
 */
export function importBundle(name: string, bytes: Uint8Array): ShareFile[] {
  if (bytes.length > MAX_IMPORT_BYTES) throw new ImportError(`${name} is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB.`);
  if (isZip(bytes)) return importZip(name, bytes);
  return importYaml(name, decodeFileBytes(bytes));
}

export function importYaml(name: string, text: string): ShareFile[] {
  const lines = text.split('\n');
  const starts: Array<{ line: number; path: string }> = [];
  lines.forEach((l, i) => {
    if (!l.startsWith(BUNDLE_MARKER)) return;
    try {
      const p = JSON.parse(l.slice(BUNDLE_MARKER.length).replace(/\r$/, '')) as unknown;
      if (typeof p === 'string' && p.trim() !== '') starts.push({ line: i, path: p });
    } catch {
      // Not one of our markers: part of the text.
    }
  });
  if (starts.length === 0) return [{ path: name, text }];
  if (starts.length > MAX_IMPORT_FILES) throw new ImportError(`${name} holds more than ${MAX_IMPORT_FILES} files.`);
  const out: ShareFile[] = [];
  const seen = new Set<string>();
  starts.forEach((s, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]!.line : lines.length;
    const body = lines.slice(s.line + 1, end);
    // The `---` before the next marker separates files; it is not part of this one.
    if (k + 1 < starts.length && body[body.length - 1]?.replace(/\r$/, '') === '---') body.pop();
    let t = body.join('\n');
    if (k + 1 < starts.length && body.length > 0) t += '\n';
    if (seen.has(s.path)) throw new ImportError(`${name} holds the file ${s.path} twice.`);
    seen.add(s.path);
    out.push({ path: s.path, text: t });
  });
  return out;
}

function importZip(name: string, bytes: Uint8Array): ShareFile[] {
  let total = 0;
  let count = 0;
  let tooBig: string | null = null;
  let unsupported: string | null = null;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (f) => {
        if (f.name.endsWith('/') || f.name.startsWith('__MACOSX/') || f.name.split('/').pop()?.startsWith('._')) return false;
        count++;
        total += f.originalSize;
        if (count > MAX_IMPORT_FILES || total > MAX_IMPORT_BYTES) {
          tooBig ??= f.name;
          return false;
        }
        if (f.compression !== 0 && f.compression !== 8) {
          unsupported ??= f.name;
          return false;
        }
        return true;
      },
    });
  } catch (e) {
    throw new ImportError(`${name} is not a zip file that can be read (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (tooBig) throw new ImportError(`${name} unpacks to more than ${MAX_IMPORT_FILES} files or ${MAX_IMPORT_BYTES / (1024 * 1024)} MB; it was not imported.`);
  if (unsupported) throw new ImportError(`${name}: ${unsupported} uses a compression method other than deflate.`);
  return Object.entries(entries).map(([path, data]) => ({ path, text: decodeFileBytes(data) }));
}
