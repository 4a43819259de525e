// What the title bar names: the loaded sample, or "Your workspace" once files come from
// elsewhere. Kept in localStorage beside the workspace so a reload shows the same name.
import { create } from 'zustand';
import { readJson, writeJson } from './persistence.ts';

export const TITLE_KEY = 'mesh-workbench/title/v1';

export interface TitleState {
  /** The workspace's name: a sample's title, or a name given by whoever loaded it. */
  name: string;
  /** True when the name is a sample's. */
  sample: boolean;
  setName(name: string, sample?: boolean): void;
}

function initial(): { name: string; sample: boolean } {
  const saved = readJson<{ name?: unknown; sample?: unknown }>(TITLE_KEY);
  return typeof saved?.name === 'string' && saved.name ? { name: saved.name, sample: saved.sample === true } : { name: 'Your workspace', sample: false };
}

export const useTitle = create<TitleState>()((set) => ({
  ...initial(),
  setName(name, sample = false) {
    set({ name, sample });
    writeJson(TITLE_KEY, { name, sample });
  },
}));
