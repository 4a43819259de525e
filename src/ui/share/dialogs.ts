// Whether the share dialog is open, and the commands that open them. The commands
// are plain {id, title, run} records, ready to move into a command registry.
import { create } from 'zustand';
import { useViews } from '../../state/views.ts';

export type DialogId = 'share' | null;

export const useDialogs = create<{ open: DialogId; show(d: DialogId): void }>()((set) => ({
  open: null,
  show(open) {
    set({ open });
  },
}));

export interface ShareCommand {
  id: string;
  title: string;
  run(): void;
}

export const SHARE_COMMANDS: readonly ShareCommand[] = [
  { id: 'share.open', title: 'Share…', run: () => useDialogs.getState().show('share') },
  { id: 'review.open', title: 'Review changes…', run: () => useViews.getState().openView('review') },
];
