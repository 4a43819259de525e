// Workspace bundles against their formats: the YAML bundle as docs/sharing.md documents it (a
// `# mesh-workbench-file: "<path>"` line before each file, `---` between them, so kubectl
// applies it as it is), and zips as APPNOTE.TXT defines them (signatures, the local and
// central directory headers, compression methods 0 and 8 only), with the import caps (64 MB
// unpacked, 5,000 files).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import {
  BUNDLE_MARKER,
  exportYamlBundle,
  exportZip,
  importBundle,
  importYaml,
  ImportError,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_FILES,
} from '../../src/core/share/bundle.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const MiB = 1024 * 1024;

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error('no ImportError');
}

/** Offsets of every record with this signature (APPNOTE 4.3.7 local, 4.3.12 central). */
function records(zip: Uint8Array, third: number, fourth: number): number[] {
  const at: number[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === third && zip[i + 3] === fourth) at.push(i);
  return at;
}
const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const setU16 = (b: Uint8Array, at: number, v: number) => {
  b[at] = v & 0xff;
  b[at + 1] = v >>> 8;
};
const setU32 = (b: Uint8Array, at: number, v: number) => {
  for (let k = 0; k < 4; k++) b[at + k] = (v >>> (8 * k)) & 0xff;
};

/** One entry's compression method, in its local header (+8) and central directory header (+10). */
function setMethod(zip: Uint8Array, method: number): Uint8Array {
  const z = zip.slice();
  for (const at of records(z, 3, 4)) setU16(z, at + 8, method);
  for (const at of records(z, 1, 2)) setU16(z, at + 10, method);
  return z;
}

/** The uncompressed size the central directory declares (+24), which is what a reader sees first. */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const z = zip.slice();
  for (const at of records(z, 1, 2)) setU32(z, at + 24, size);
  return z;
}

describe('the YAML bundle', () => {
  it('is the documented text: a header, then each file after its marker line, files separated by ---', () => {
    const text = exportYamlBundle(
      [
        { path: 'a.yaml', text: 'kind: A\n' },
        { path: 'dir/b.yaml', text: 'kind: B' },
      ],
      'my "mesh"',
    );
    expect(text).toBe(
      '# Mesh Workbench workspace "my \\"mesh\\"": 2 files.\n' +
        '# Each file starts at a "# mesh-workbench-file:" line; apply it as it is with kubectl, or import it back.\n' +
        '# mesh-workbench-file: "a.yaml"\nkind: A\n---\n' +
        '# mesh-workbench-file: "dir/b.yaml"\nkind: B\n',
    );
  });

  it('says "1 file" for one and "0 files" for none, and leaves out a missing title', () => {
    expect(exportYamlBundle([{ path: 'a', text: '' }]).split('\n')[0]).toBe('# Mesh Workbench workspace: 1 file.');
    expect(exportYamlBundle([]).split('\n')[0]).toBe('# Mesh Workbench workspace: 0 files.');
    expect(exportYamlBundle([], '').split('\n')[0]).toBe('# Mesh Workbench workspace: 0 files.');
  });

  it('a marker is exactly the marker prefix and a JSON string naming a path', () => {
    expect(BUNDLE_MARKER).toBe('# mesh-workbench-file: ');
    const text =
      '# mesh-workbench-file: "a.yaml"\nx: 1\n---\n# mesh-workbench-fil: "zz.yaml"\n#  mesh-workbench-file: "q.yaml"\n# other-comment-line-xx "b.yaml"\ny: 2\n';
    expect(importYaml('w.yaml', text)).toEqual([
      { path: 'a.yaml', text: 'x: 1\n---\n# mesh-workbench-fil: "zz.yaml"\n#  mesh-workbench-file: "q.yaml"\n# other-comment-line-xx "b.yaml"\ny: 2\n' },
    ]);
  });

  it('a marker line whose value is not a usable path (not JSON, not a string, blank) is part of the text', () => {
    for (const bad of ['a.yaml', '42', 'null', '["a"]', '""', '"  "', '"\\t"']) {
      const text = `# mesh-workbench-file: "first.yaml"\nx: 1\n# mesh-workbench-file: ${bad}\ny: 2\n`;
      expect(importYaml('w.yaml', text)).toEqual([{ path: 'first.yaml', text: `x: 1\n# mesh-workbench-file: ${bad}\ny: 2\n` }]);
    }
    expect(importYaml('w.yaml', '# mesh-workbench-file: 42\n')).toEqual([{ path: 'w.yaml', text: '# mesh-workbench-file: 42\n' }]);
  });

  it('only the --- right before the next marker separates; the last file keeps a --- of its own', () => {
    const text = '# mesh-workbench-file: "a"\nx: 1\n---\n# mesh-workbench-file: "b"\ny: 2\n---';
    expect(importYaml('w', text)).toEqual([
      { path: 'a', text: 'x: 1\n' },
      { path: 'b', text: 'y: 2\n---' },
    ]);
  });

  it('files written one after the other without --- keep every line', () => {
    const text = '# mesh-workbench-file: "a"\nx: 1\n# mesh-workbench-file: "b"\ny: 2\n';
    expect(importYaml('w', text)).toEqual([
      { path: 'a', text: 'x: 1\n' },
      { path: 'b', text: 'y: 2\n' },
    ]);
  });

  it('a marker right after a marker is an empty file', () => {
    const text = '# mesh-workbench-file: "a"\n# mesh-workbench-file: "b"\ny: 2\n';
    expect(importYaml('w', text)).toEqual([
      { path: 'a', text: '' },
      { path: 'b', text: 'y: 2\n' },
    ]);
  });

  it('reads a bundle saved with CRLF line breaks: "---\\r" separates, a CR elsewhere is text', () => {
    const text = '# mesh-workbench-file: "a"\r\nx: 1\r\n---\r\n# mesh-workbench-file: "b"\r\ny: 2\r\n\r---\n# mesh-workbench-file: "c"\r\n';
    expect(importYaml('w', text)).toEqual([
      { path: 'a', text: 'x: 1\r\n' },
      { path: 'b', text: 'y: 2\r\n\r---\n' },
      { path: 'c', text: '' },
    ]);
  });

  it('refuses a file named twice, naming it', () => {
    const text = '# mesh-workbench-file: "a"\nx\n---\n# mesh-workbench-file: "a"\ny\n';
    expect(importError(() => importYaml('w.yaml', text)).message).toBe('w.yaml holds the file a twice.');
  });

  it('takes 5,000 files and refuses 5,001', () => {
    expect(MAX_IMPORT_FILES).toBe(5000);
    const bundle = (n: number) => Array.from({ length: n }, (_, i) => `# mesh-workbench-file: "f${i}"\nk: ${i}\n`).join('---\n');
    expect(importYaml('w.yaml', bundle(5000))).toHaveLength(5000);
    expect(importError(() => importYaml('w.yaml', bundle(5001))).message).toBe('w.yaml holds more than 5000 files.');
  });

  it('an import error is an ImportError by name too', () => {
    expect(new ImportError('x').name).toBe('ImportError');
  });
});

describe('what importBundle takes for a zip (APPNOTE signatures)', () => {
  it('an empty archive is its end of central directory record alone (PK\\5\\6 and 18 zero bytes): no files', () => {
    const eocd = Uint8Array.from([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)]);
    expect(importBundle('empty.zip', eocd)).toEqual([]);
  });

  it('a local file header signature (PK\\3\\4) makes it a zip, even when nothing follows', () => {
    expect(importError(() => importBundle('x.zip', Uint8Array.from([0x50, 0x4b, 3, 4]))).message).toMatch(
      /^x\.zip is not a zip file that can be read \(.+\)\.$/,
    );
  });

  it('a split archive in one segment (spanning marker PK\\7\\8 first, APPNOTE 8.5.3) is a zip', () => {
    const plain = exportZip([{ path: 'a.yaml', text: 'kind: A\n' }]);
    const split = new Uint8Array([0x50, 0x4b, 7, 8, ...plain]);
    // Offsets count from the start of the segment, marker included (central header +42, end record +16).
    for (const at of records(split, 1, 2)) setU32(split, at + 42, u32(split, at + 42) + 4);
    const end = records(split, 5, 6)[0]!;
    setU32(split, end + 16, u32(split, end + 16) + 4);
    expect(importBundle('w.zip', split)).toEqual([{ path: 'a.yaml', text: 'kind: A\n' }]);
  });

  it('other PK pairings, or fewer than four bytes, are plain text', () => {
    for (const [c, d] of [
      [3, 6],
      [5, 4],
      [3, 8],
      [1, 2],
      [7, 4],
    ] as const) {
      const bytes = Uint8Array.from([0x50, 0x4b, c, d, 0x41]);
      expect(importBundle('x.yaml', bytes)).toEqual([{ path: 'x.yaml', text: String.fromCharCode(0x50, 0x4b, c, d, 0x41) }]);
    }
    expect(importBundle('p.yaml', enc('PK'))).toEqual([{ path: 'p.yaml', text: 'PK' }]);
    expect(importBundle('p.yaml', Uint8Array.from([0x50, 0x4b, 3]))).toEqual([{ path: 'p.yaml', text: 'PK\u0003' }]);
    expect(importBundle('q.yaml', Uint8Array.from([0x51, 0x4b, 3, 4]))).toEqual([{ path: 'q.yaml', text: 'QK\u0003\u0004' }]);
    expect(importBundle('q.yaml', Uint8Array.from([0x50, 0x4c, 3, 4]))).toEqual([{ path: 'q.yaml', text: 'PL\u0003\u0004' }]);
  });

  it('takes a file of exactly 64 MB and refuses one byte more, before reading it', () => {
    expect(MAX_IMPORT_BYTES).toBe(64 * MiB);
    const exact = new Uint8Array(64 * MiB);
    exact.set([0x50, 0x4b, 3, 4]);
    expect(importError(() => importBundle('big.zip', exact)).message).toMatch(/not a zip file that can be read/);
    const over = new Uint8Array(64 * MiB + 1);
    expect(importError(() => importBundle('big.zip', over)).message).toBe('big.zip is larger than 64 MB.');
  });
});

describe('zip entries', () => {
  it('reads stored (method 0) and deflated (method 8) entries', () => {
    const stored = zipSync({ 'a.yaml': strToU8('kind: A\n') }, { level: 0 });
    const at = records(stored, 1, 2)[0]!;
    expect(u16(stored, at + 10)).toBe(0);
    expect(importBundle('s.zip', stored)).toEqual([{ path: 'a.yaml', text: 'kind: A\n' }]);
    const deflated = zipSync({ 'a.yaml': strToU8('kind: A\n'.repeat(50)) }, { level: 9 });
    expect(u16(deflated, records(deflated, 1, 2)[0]! + 10)).toBe(8);
    expect(importBundle('d.zip', deflated)).toEqual([{ path: 'a.yaml', text: 'kind: A\n'.repeat(50) }]);
  });

  it('refuses another compression method (12, bzip2), naming the entry', () => {
    const z = setMethod(zipSync({ 'a.yaml': strToU8('kind: A\n') }, { level: 0 }), 12);
    expect(importError(() => importBundle('w.zip', z)).message).toBe('w.zip: a.yaml uses a compression method other than deflate.');
    const two = setMethod(zipSync({ 'b.yaml': strToU8('kind: B\n') }, { level: 0 }), 14);
    expect(importError(() => importBundle('w.zip', two)).message).toBe('w.zip: b.yaml uses a compression method other than deflate.');
  });

  it('skips directory entries, macOS resource forks (__MACOSX/, ._ files) and keeps the rest', () => {
    const z = zipSync({
      'dir/': new Uint8Array(0),
      'dir/a.yaml': strToU8('kind: A\n'),
      '__MACOSX/dir/._a.yaml': strToU8('\u0000\u0005\u0016\u0007'),
      '__MACOSX/notes.yaml': strToU8('junk'),
      'dir/._b.yaml': strToU8('junk'),
      '._c.yaml': strToU8('junk'),
      'x._d.yaml': strToU8('kind: D\n'),
      'e/__MACOSX/f.yaml': strToU8('kind: F\n'),
    } as Record<string, Uint8Array>);
    expect(importBundle('mac.zip', z)).toEqual([
      { path: 'dir/a.yaml', text: 'kind: A\n' },
      { path: 'x._d.yaml', text: 'kind: D\n' },
      { path: 'e/__MACOSX/f.yaml', text: 'kind: F\n' },
    ]);
  });

  it('takes 5,000 entries and refuses 5,001 (skipped entries do not count)', () => {
    const entries = (n: number) => {
      const e: Record<string, Uint8Array> = { 'd/': new Uint8Array(0), '._x': strToU8('x') };
      for (let i = 0; i < n; i++) e[`f${i}.yaml`] = strToU8('k: v\n');
      return zipSync(e, { level: 0 });
    };
    expect(importBundle('w.zip', entries(5000))).toHaveLength(5000);
    expect(importError(() => importBundle('w.zip', entries(5001))).message).toBe('w.zip unpacks to more than 5000 files or 64 MB; it was not imported.');
  });

  it('takes entries declaring exactly 64 MB in all and refuses one byte more, without unpacking them', () => {
    const z = zipSync({ 'a.yaml': strToU8('k: v\n') }, { level: 0 });
    expect(importBundle('w.zip', declareSize(z, 64 * MiB))).toEqual([{ path: 'a.yaml', text: 'k: v\n' }]);
    expect(importError(() => importBundle('w.zip', declareSize(z, 64 * MiB + 1))).message).toBe(
      'w.zip unpacks to more than 5000 files or 64 MB; it was not imported.',
    );
    // A deflated entry over the cap whose data is not even deflate: refused for its size, never inflated.
    const d = zipSync({ 'b.yaml': strToU8('k: v\n'.repeat(20)) }, { level: 9 });
    const local = records(d, 3, 4)[0]!;
    const dataAt = local + 30 + u16(d, local + 26) + u16(d, local + 28);
    d.fill(0xff, dataAt, dataAt + 4);
    expect(importError(() => importBundle('w.zip', declareSize(d, 64 * MiB + 1))).message).toBe(
      'w.zip unpacks to more than 5000 files or 64 MB; it was not imported.',
    );
  });
});

describe('zip export', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('deflates (method 8) and dates every entry 2025-01-01T00:00:00Z in MS-DOS form (APPNOTE 4.4.6), whenever it runs', () => {
    const files = [{ path: 'a.yaml', text: 'kind: A\n'.repeat(20) }];
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-06-15T12:34:56Z'));
    const one = exportZip(files);
    vi.setSystemTime(new Date('2031-02-03T04:05:06Z'));
    const two = exportZip(files);
    vi.useRealTimers();
    expect(two).toEqual(one);
    const at = records(one, 3, 4)[0]!;
    expect(u16(one, at + 8)).toBe(8);
    const d = new Date('2025-01-01T00:00:00Z');
    const dosTime = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
    const dosDate = ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
    expect(u16(one, at + 10)).toBe(dosTime);
    expect(u16(one, at + 12)).toBe(dosDate);
    expect(importBundle('w.zip', one)).toEqual(files);
  });
});
