// Large files are stored as Blobs (fileBlobs.ts, blobText.ts): encoded a piece at a time,
// reused while the file is unchanged, decoded back to the same text, and workspaces stored
// before (texts only) still load.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// The page's events and storage the workspaces module uses (this runs in Node).
const listeners = new Map<string, () => void>();
const stubStorage = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
};
vi.stubGlobal('window', { addEventListener: (type: string, fn: () => void) => listeners.set(type, fn), removeEventListener: () => undefined });
vi.stubGlobal('document', { addEventListener: () => undefined, removeEventListener: () => undefined, visibilityState: 'visible' });
vi.stubGlobal('localStorage', stubStorage());
vi.stubGlobal('sessionStorage', stubStorage());

// What each save hands to IndexedDB, before it is cloned: to check which Blob it stored.
const puts: Array<{ id?: string; files?: Array<{ path: string; text?: string; blob?: Blob }>; baseline?: { files: Array<{ path: string; blob?: Blob }> } }> =
  [];
const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
  if (this.name === 'workspaces') puts.push(value as (typeof puts)[number]);
  return put.call(this, value, key);
};

const { blobText, textBlob } = await import('../../src/state/blobText.ts');
const { decodeFileBytes } = await import('../../src/core/document/encoding.ts');
const ws = await import('../../src/state/workspaces.ts');
const { fileTexts, getWorkspace, saveWorkspace, BLOB_FILE_BYTES } = await import('../../src/state/idb.ts');
const { fileText, getFile, useWorkspace } = await import('../../src/state/workspace.ts');
const { emitTextEdited, registerTextModel, unregisterTextModel } = await import('../../src/state/texts.ts');
const { cachedBlob, rememberFileBlob } = await import('../../src/state/fileBlobs.ts');

/** A text of about `bytes` UTF-8 bytes with accents, CJK and characters outside the BMP. */
function bigText(bytes: number, tag: string): string {
  const line = `- name: svc-é-日本-😀-${tag}\n`;
  return `kind: List # ${tag}\n${line.repeat(Math.ceil(bytes / new TextEncoder().encode(line).length))}`;
}

/** Cuts a text into pieces of varied sizes, some of them splitting a surrogate pair. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    let end = Math.min(text.length, at + 1 + ((i * 7919) % 40_000));
    const pair = text.indexOf('😀', end);
    if (i % 3 === 0 && pair > 0 && pair < end + 5000) end = pair + 1; // between the two halves of 😀
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

const latest = (id: string) => puts.filter((p) => p.id === id).at(-1)!;
const storedBlob = (id: string, path: string) => latest(id).files!.find((f) => f.path === path)?.blob;

describe('textBlob and blobText', () => {
  it('encode a text from many pieces as TextEncoder does, and decode it back', async () => {
    const text = bigText(3 * 1024 * 1024, 'pieces');
    const parts = pieces(text);
    expect(parts.length).toBeGreaterThan(100);
    expect(parts.filter((p) => /[\ud800-\udbff]$/.test(p)).length).toBeGreaterThan(10);
    let i = 0;
    const blob = await textBlob({ read: () => parts[i++] ?? null });
    expect(Buffer.from(await blob.arrayBuffer()).equals(new TextEncoder().encode(text))).toBe(true);
    expect(await blobText(blob)).toBe(text);
    expect(await blobText(await textBlob(text))).toBe(text);
    expect(await blobText(await textBlob(''))).toBe('');
  });

  it('give the bytes of TextEncoder on the whole text however it is cut, lone surrogates too', async () => {
    const alphabet = ['a', '\n', 'é', '日', '😀', '\ud83d', '\ude00', ''];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const parts = Array.from({ length: random(12) }, () => Array.from({ length: random(6) }, () => alphabet[random(alphabet.length)]).join(''));
      let i = 0;
      const blob = await textBlob({ read: () => parts[i++] ?? null });
      const bytes = Buffer.from(await blob.arrayBuffer());
      expect(bytes.equals(new TextEncoder().encode(parts.join(''))), JSON.stringify(parts)).toBe(true);
    }
  });

  it('decode an uploaded file as decodeFileBytes does (UTF-16 with a BOM, UTF-8 with a BOM)', async () => {
    const text = bigText(300_000, 'utf16');
    const le = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      le[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      le[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const be = le.slice();
    for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
    const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    for (const bytes of [le, be, bom8]) {
      expect(await blobText(new Blob([bytes]))).toBe(text);
      expect(decodeFileBytes(bytes)).toBe(text);
    }
  });
});

describe('saving large files as Blobs', () => {
  const big = bigText(2 * 1024 * 1024, 'big');
  const small = 'kind: ConfigMap\nmetadata:\n  name: é\n';
  let id = '';

  beforeAll(async () => {
    expect(
      await ws.startLocalWorkspaces(async () => ({
        files: [
          { path: 'big.yaml', text: big },
          { path: 'small.yaml', text: small },
        ],
        name: 'Cluster',
      })),
    ).toBe(true);
    id = ws.useWorkspaces.getState().currentId!;
  });

  it('stores a large file as a Blob and a small one as text, and loads the same texts', async () => {
    expect(getFile('big.yaml')!.bytes).toBeGreaterThanOrEqual(BLOB_FILE_BYTES);
    await ws.saveNow();
    const rec = await getWorkspace(id);
    const [b, s] = rec!.files;
    expect(b!.blob).toBeInstanceOf(Blob);
    expect(b!.text).toBeUndefined();
    expect(s).toEqual({ path: 'small.yaml', text: small });
    expect((await fileTexts(rec!.files)).map((f) => f.text)).toEqual([big, small]);

    // Away and back: the files come back from the stored record.
    const other = await ws.createWorkspace('Other', [{ path: 'o.yaml', text: 'kind: O\n' }]);
    expect(fileText('o.yaml')).toBe('kind: O\n');
    await ws.switchWorkspace(id);
    expect(fileText('big.yaml')).toBe(big);
    expect(fileText('small.yaml')).toBe(small);
    expect(other).not.toBeNull();
  });

  it('reuses the Blob of an unchanged large file, also after loading it', async () => {
    // Just loaded: the Blob read from storage is written back as it is.
    const loaded = cachedBlob('big.yaml');
    expect(loaded).toBeInstanceOf(Blob);
    useWorkspace.getState().replaceText('small.yaml', `${small}# 1\n`);
    await ws.saveNow();
    const first = storedBlob(id, 'big.yaml');
    expect(first).toBe(loaded);
    useWorkspace.getState().replaceText('small.yaml', `${small}# 2\n`);
    await ws.saveNow();
    expect(storedBlob(id, 'big.yaml')).toBe(first);
    expect(latest(id).files!.find((f) => f.path === 'small.yaml')?.text).toBe(`${small}# 2\n`);
  });

  it('reads an edited large file from its editor model, a piece at a time', async () => {
    const edited = `${big}- name: added-😀\n`;
    const parts = pieces(edited);
    const model = {
      getValue: () => edited,
      getValueLength: () => edited.length,
      createSnapshot: () => {
        let i = 0;
        return { read: () => parts[i++] ?? null };
      },
    };
    registerTextModel('big.yaml', model);
    useWorkspace.getState().releaseTexts(['big.yaml']);
    emitTextEdited({ path: 'big.yaml', changes: [], length: edited.length });
    const before = storedBlob(id, 'big.yaml');
    await ws.saveNow();
    const after = storedBlob(id, 'big.yaml');
    expect(after).not.toBe(before);
    expect(await blobText(after!)).toBe(edited);
    // Saved again unchanged: the same Blob.
    await ws.saveNow();
    expect(storedBlob(id, 'big.yaml')).toBe(after);
    unregisterTextModel('big.yaml', model);
    useWorkspace.getState().replaceText('big.yaml', edited);
    await ws.saveNow();
    expect(await blobText((await getWorkspace(id))!.files[0]!.blob!)).toBe(edited);
  });

  it('stores an uploaded file as handed over, until it is edited', async () => {
    const text = bigText(1.5 * 1024 * 1024, 'upload');
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const file = new Blob([utf16]);
    useWorkspace.getState().addFiles([{ path: 'upload.yaml', text, bytes: utf16.length }]);
    rememberFileBlob('upload.yaml', getFile('upload.yaml')!.rev, file);
    await ws.saveNow();
    expect(storedBlob(id, 'upload.yaml')).toBe(file);
    expect(await blobText((await getWorkspace(id))!.files.find((f) => f.path === 'upload.yaml')!.blob!)).toBe(text);
    // Edited: the seeded bytes no longer hold its text.
    useWorkspace.getState().replaceText('upload.yaml', `${text}x: 1\n`);
    await ws.saveNow();
    expect(storedBlob(id, 'upload.yaml')).not.toBe(file);
    expect(await blobText(storedBlob(id, 'upload.yaml')!)).toBe(`${text}x: 1\n`);
    useWorkspace.getState().remove('upload.yaml');
    await ws.saveNow();
  });

  it('stores a pinned baseline once, its large files as Blobs', async () => {
    await ws.pinBaseline();
    const pinned = latest(id).baseline!.files[0]!.blob;
    expect(pinned).toBeInstanceOf(Blob);
    useWorkspace.getState().replaceText('small.yaml', `${small}# 3\n`);
    await ws.saveNow();
    expect(latest(id).baseline!.files[0]!.blob).toBe(pinned);
    const texts = ws.useWorkspaces.getState().baseline!;
    const other = ws.useWorkspaces.getState().list.find((w) => w.id !== id)!.id;
    await ws.switchWorkspace(other);
    await ws.switchWorkspace(id);
    expect(ws.useWorkspaces.getState().baseline).toEqual(texts);
    // Loaded from storage: the same stored Blob is written back.
    useWorkspace.getState().replaceText('small.yaml', `${small}# 4\n`);
    await ws.saveNow();
    const again = latest(id).baseline!.files[0]!.blob!;
    expect(await blobText(again)).toBe(texts[0]!.text);
    await ws.clearBaseline();
  });

  it('journals an unchanged large file by reference, and restores it from the stored record', async () => {
    useWorkspace.getState().replaceText('small.yaml', 'kind: Journaled\n');
    listeners.get('pagehide')!();
    const raw = localStorage.getItem(ws.JOURNAL_KEY)!;
    expect(raw.length).toBeLessThan(10_000);
    const j = JSON.parse(raw) as { baseRev: number; snap: { files: Array<{ path: string; text?: string; stored?: boolean }> } };
    expect(j.snap.files).toEqual([
      { path: 'big.yaml', stored: true },
      { path: 'small.yaml', text: 'kind: Journaled\n' },
    ]);
    await ws.saveNow();
    // As if the save had not landed: the journal names the stored revision and holds a newer text.
    const rec = (await getWorkspace(id))!;
    j.baseRev = rec.rev;
    j.snap.files[1]!.text = 'kind: FromJournal\n';
    localStorage.setItem(ws.JOURNAL_KEY, JSON.stringify(j));
    const other = ws.useWorkspaces.getState().list.find((w) => w.id !== id)!.id;
    await ws.switchWorkspace(other);
    localStorage.setItem(ws.JOURNAL_KEY, JSON.stringify(j));
    await ws.switchWorkspace(id);
    expect(fileText('small.yaml')).toBe('kind: FromJournal\n');
    expect(fileText('big.yaml')).toBe(await blobText(rec.files[0]!.blob!));
    expect(localStorage.getItem(ws.JOURNAL_KEY)).toBeNull();

    // A changed large file goes in whole while it fits; beyond that, the stored one stands in.
    const journaled = () => (JSON.parse(localStorage.getItem(ws.JOURNAL_KEY)!) as typeof j).snap.files[0];
    useWorkspace.getState().replaceText('big.yaml', 'b'.repeat(1.5 * 1024 * 1024));
    listeners.get('pagehide')!();
    expect(journaled()?.text?.length).toBe(1.5 * 1024 * 1024);
    await ws.saveNow();
    useWorkspace.getState().replaceText('big.yaml', 'c'.repeat(3 * 1024 * 1024));
    listeners.get('pagehide')!();
    expect(journaled()).toEqual({ path: 'big.yaml', stored: true });
    await ws.saveNow();
  });

  it('loads a workspace stored before Blobs (texts only)', async () => {
    const text = bigText(1.2 * 1024 * 1024, 'old');
    expect(
      (await saveWorkspace({ id: 'old-format', name: 'Old', files: [{ path: 'old.yaml', text }], openTabs: ['old.yaml'], active: 'old.yaml' }, 0)).ok,
    ).toBe(true);
    await ws.switchWorkspace('old-format');
    expect(fileText('old.yaml')).toBe(text);
    // Its next save turns the large file into a Blob.
    await ws.saveNow();
    expect(await blobText((await getWorkspace('old-format'))!.files[0]!.blob!)).toBe(text);
  });
});
