// Selections in the panels that belong to the workspace (the inspector's tab, a selected
// proxy or trace, …), by key. Saved with the workspace and carried by share links.
import { create } from 'zustand';

export interface SelectionsState {
  selections: Record<string, string>;
  select(key: string, value: string | null): void;
  replace(all: Record<string, string>): void;
}

export const useSelections = create<SelectionsState>()((set) => ({
  selections: {},
  select(key, value) {
    set((s) => {
      const next = { ...s.selections };
      if (value === null) delete next[key];
      else next[key] = value;
      return { selections: next };
    });
  },
  replace(all) {
    set({ selections: { ...all } });
  },
}));
