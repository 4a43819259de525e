// Uploaded or dropped files into the workspace. The reader (decoding) and the name-clash
// dialog load at the first upload or drop, not with the page. A large load (a whole-cluster
// dump) shows its progress until its first diagnostics arrive, and can be stopped: while it is
// read, reading stops; once it is in, it is taken out again (a replaced file gets its old text
// back) and the worker, which may be deep in reading its documents, is replaced.
import { SHOW_LOAD_PROGRESS_BYTES, useFileLoad, type FileLoad } from '../../state/fileLoad.ts';
import { useAnalysis } from '../../state/analysis.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { formatBytes } from '../../state/fileKind.ts';
import { getEngine } from '../engine.ts';
import { nextTask } from '../../core/nextTask.ts';

export async function addFileList(list: readonly File[]): Promise<void> {
  const [{ readFiles }, { addAsking }] = await Promise.all([import('./readFiles.ts'), import('./addFilesAsking.ts')]);
  const bytes = list.reduce((n, f) => n + f.size, 0);
  if (bytes < SHOW_LOAD_PROGRESS_BYTES) {
    await addAsking(await readFiles(list));
    return;
  }
  const names = list.map((f) => f.name);
  const what = names.length === 1 ? names[0] : `${names.length} files`;
  const controller = new AbortController();
  let undo: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  // The store holds a copy per update; `ours` tells this load's copies from a later load's.
  let ours: FileLoad | null = null;
  const show = (patch: Partial<FileLoad>) => {
    if (useFileLoad.getState().load !== ours) return;
    ours = { ...(ours as FileLoad), ...patch };
    useFileLoad.setState({ load: ours });
  };
  const finish = () => {
    unsubscribe?.();
    if (useFileLoad.getState().load === ours) useFileLoad.setState({ load: null });
  };
  ours = {
    names,
    bytes,
    read: 0,
    step: 'reading',
    cancel() {
      controller.abort();
      undo?.();
      finish();
      useWorkspace.getState().notify({ id: 'file-load', level: 'info', text: `Stopped loading ${what} (${formatBytes(bytes)}); the workspace is as it was.` });
    },
  };
  useFileLoad.setState({ load: ours });
  let read: Awaited<ReturnType<typeof readFiles>>;
  try {
    // Progress at most every 50 ms: each update re-renders the bar.
    let shownAt = 0;
    read = await readFiles(list, {
      signal: controller.signal,
      onProgress: (n) => {
        const now = performance.now();
        if (now - shownAt < 50) return;
        shownAt = now;
        show({ read: n });
      },
    });
  } catch (e) {
    finish();
    if (controller.signal.aborted) return;
    useWorkspace.getState().notify({ id: 'file-load', level: 'error', text: `Could not read ${what}: ${e instanceof Error ? e.message : String(e)}` });
    return;
  }
  if (controller.signal.aborted) return;
  show({ read: bytes, step: 'analyzing' });
  // Each step below handles the whole text once (the file list and the editor take it, then it
  // goes to the worker): one task each, so a click between them is answered.
  await nextTask();
  const added = await addAsking(read);
  if (added.paths.length === 0) return finish();
  const engine = getEngine();
  undo = () => {
    const ws = useWorkspace.getState();
    const replaced = new Set(added.replaced.map((r) => r.path));
    for (const p of added.paths) if (!replaced.has(p)) ws.remove(p);
    if (added.replaced.length > 0) ws.addFiles(added.replaced);
    engine?.restartWorker();
  };
  // Stopped while the name-clash question was open: the files went in meanwhile.
  if (controller.signal.aborted) return undo();
  await nextTask();
  if (controller.signal.aborted) return undo();
  engine?.flush();
  const version = useAnalysis.getState().requestedVersion;
  // The load is over when a result (or a failure) of a version that holds the files arrives.
  unsubscribe = useAnalysis.subscribe((s) => {
    if (s.resultVersion >= version || (s.failure !== null && s.requestedVersion >= version)) finish();
  });
  if (useAnalysis.getState().resultVersion >= version) finish();
}
