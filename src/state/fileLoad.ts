// A large file on its way into the workspace: read from disk, then analyzed. The tab shows how
// far it is and lets the person stop it (src/ui/workspace/LoadProgress.tsx); small files come
// in at once and never show it.
import { create } from 'zustand';

/** Files from this size on show their progress (a smaller one is read and analyzed in a blink). */
export const SHOW_LOAD_PROGRESS_BYTES = 2 * 1024 * 1024;

export interface FileLoad {
  /** The files' names, as the person picked them. */
  names: string[];
  /** Their size together, and how much of it is read. */
  bytes: number;
  read: number;
  step: 'reading' | 'analyzing';
  /** Stops the load: reading stops, or the files added are taken out again. */
  cancel(): void;
}

export const useFileLoad = create<{ load: FileLoad | null }>()(() => ({ load: null }));
