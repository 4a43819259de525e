// Pane sizes (px), persisted so the layout survives a reload.
import { create } from 'zustand';
import { LAYOUT_KEY, readJson, writeJson } from './persistence.ts';

export interface LayoutSizes {
  left: number;
  right: number;
  bottom: number;
}

const DEFAULTS: LayoutSizes = { left: 240, right: 320, bottom: 240 };

export const LIMITS: Record<keyof LayoutSizes, [number, number]> = {
  left: [140, 600],
  right: [200, 720],
  bottom: [90, 900],
};

function clampSize(k: keyof LayoutSizes, v: number): number {
  const [lo, hi] = LIMITS[k];
  return Math.round(Math.min(hi, Math.max(lo, v)));
}

function initial(): LayoutSizes {
  const saved = readJson<Partial<LayoutSizes>>(LAYOUT_KEY) ?? {};
  const out = { ...DEFAULTS };
  for (const k of Object.keys(DEFAULTS) as (keyof LayoutSizes)[]) {
    const v = saved[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = clampSize(k, v);
  }
  return out;
}

export interface LayoutState extends LayoutSizes {
  resize(k: keyof LayoutSizes, v: number): void;
}

export const useLayout = create<LayoutState>()((set, get) => ({
  ...initial(),
  resize(k, v) {
    set({ [k]: clampSize(k, v) } as Pick<LayoutSizes, typeof k>);
    const { left, right, bottom } = get();
    writeJson(LAYOUT_KEY, { left, right, bottom });
  },
}));
