// Adding uploaded or dropped files: a file with the name of one already in the workspace
// replaces it only when the person says so; otherwise the new one gets a free name.
import { normalizePath, useWorkspace } from '../../state/workspace.ts';
import type { ReadFile } from './readFiles.ts';

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
  if (read.length === 0) return;
  const ws = useWorkspace.getState();
  const taken = new Set(ws.files.map((f) => f.path));
  const clashes = read.filter((f) => taken.has(normalizePath(f.path)));
  let files = read;
  if (clashes.length > 0) {
    const names = clashes.map((f) => normalizePath(f.path));
    const replace = window.confirm(
      `${names.length === 1 ? `A file named ${names[0]} is` : `Files named ${names.join(', ')} are`} already in the workspace.\n\nOK replaces ${names.length === 1 ? 'it' : 'them'}; Cancel keeps both (the new ${names.length === 1 ? 'file gets' : 'files get'} another name).`,
    );
    if (!replace) {
      files = read.map((f) => {
        const p = normalizePath(f.path);
        if (!taken.has(p)) return f;
        const free = freeName(p, taken);
        taken.add(free);
        return { ...f, path: free };
      });
    }
  }
  ws.addFiles(files);
}
