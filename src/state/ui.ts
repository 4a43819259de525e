// Small UI state that commands change from anywhere: the palette, the file being renamed,
// the Samples menu, the open drawer (narrow windows) and the editor's Tab focus mode.
import { create } from 'zustand';

export type PaletteMode = 'commands' | 'files';
export type DrawerPane = 'workspace' | 'inspector';

export interface UiState {
  palette: { mode: PaletteMode; seq: number } | null;
  renaming: string | null;
  samplesOpen: boolean;
  drawer: DrawerPane | null;
  /** Tab moves focus instead of indenting (Ctrl+M), as in VS Code. */
  tabFocusMode: boolean;
  openPalette(mode: PaletteMode): void;
  closePalette(): void;
  setRenaming(path: string | null): void;
  setSamplesOpen(open: boolean): void;
  setDrawer(d: DrawerPane | null): void;
  setTabFocusMode(on: boolean): void;
}

let seq = 0;

export const useUi = create<UiState>()((set) => ({
  palette: null,
  renaming: null,
  samplesOpen: false,
  drawer: null,
  tabFocusMode: false,
  openPalette(mode) {
    set({ palette: { mode, seq: ++seq } });
  },
  closePalette() {
    set({ palette: null });
  },
  setRenaming(renaming) {
    set({ renaming });
  },
  setSamplesOpen(samplesOpen) {
    set({ samplesOpen });
  },
  setDrawer(drawer) {
    set({ drawer });
  },
  setTabFocusMode(tabFocusMode) {
    set({ tabFocusMode });
  },
}));
