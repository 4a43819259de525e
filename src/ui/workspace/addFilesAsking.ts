// Adding uploaded or dropped files: a file with the name of one already in the workspace
// replaces it only when the person says so (in the app's dialog); otherwise the new one gets a
// free name.
import { fileText, normalizePath, useWorkspace } from '../../state/workspace.ts';
import type { ReadFile } from './readFiles.ts';
import { rememberFileBlob } from '../../state/fileBlobs.ts';
import { confirmDialog } from '../common/Dialog.tsx';

function freeName(path: string, taken: Set<string>): string {
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 2; ; n++) {
    const p = `${stem} (${n})${ext}`;
    if (!taken.has(p)) return p;
  }
}

export function addFilesAsking(read: ReadFile[]): void {
  void addAsking(read);
}

/** What an add did: the paths the files took, and the texts of files they replaced (to put back on a cancel). */
export interface Added {
  paths: string[];
  replaced: { path: string; text: string }[];
}

export async function addAsking(read: ReadFile[]): Promise<Added> {
  if (read.length === 0) return { paths: [], replaced: [] };
  const taken = new Set(useWorkspace.getState().files.map((f) => f.path));
  const clashes = read.filter((f) => taken.has(normalizePath(f.path)));
  let files = read;
  if (clashes.length > 0) {
    const names = clashes.map((f) => normalizePath(f.path));
    const one = names.length === 1;
    // Escape or "Keep both" keeps every file (the default of the question before it was the app's).
    const replace = await confirmDialog({
      title: one ? `Replace ${names[0]}?` : `Replace ${names.length} files?`,
      message: `${one ? `A file named ${names[0]} is` : `Files named ${names.join(', ')} are`} already in the workspace. Replace ${one ? 'it' : 'them'}, or keep both (the new ${one ? 'file gets' : 'files get'} another name)?`,
      confirmLabel: one ? 'Replace file' : 'Replace files',
      cancelLabel: 'Keep both',
      destructive: true,
      testId: 'replace-files-dialog',
    });
    if (!replace) {
      // The workspace may have changed while the question was open: names are free as of now.
      const now = new Set(useWorkspace.getState().files.map((f) => f.path));
      files = read.map((f) => {
        const p = normalizePath(f.path);
        if (!now.has(p)) return f;
        const free = freeName(p, now);
        now.add(free);
        return { ...f, path: free };
      });
    }
  }
  const ws = useWorkspace.getState();
  const paths = files.map((f) => normalizePath(f.path));
  const replaced = paths.flatMap((p) => {
    const text = ws.files.some((f) => f.path === p) ? fileText(p) : undefined;
    return text === undefined ? [] : [{ path: p, text }];
  });
  ws.addFiles(files);
  // Saving keeps each file as read (a Blob is stored by reference) until it is edited.
  const now = useWorkspace.getState().files;
  files.forEach((f, i) => {
    const rev = now.find((x) => x.path === paths[i])?.rev;
    if (f.file && rev !== undefined) rememberFileBlob(paths[i] as string, rev, f.file);
  });
  return { paths, replaced };
}
