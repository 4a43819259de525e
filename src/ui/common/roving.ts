// Roving tabindex for lists, tab strips and menus: the list is one Tab stop (its current
// item), the arrow keys move between items, Home and End go to the ends. With `inner`, the
// controls inside an item (buttons, links) are Tab stops only in the current item.
import { useEffect, useRef, useState } from 'react';

export interface RovingOptions {
  /** Selector of the items, relative to the container. */
  items: string;
  orientation?: 'vertical' | 'horizontal';
  /** Click an item when the arrows move to it (tabs: automatic activation). */
  activateOnMove?: boolean;
  /** Controls inside items are Tab stops only in the current item. */
  inner?: boolean;
  /**
   * Long lists: items and their controls are rendered with tabIndex -1, and only the current
   * item (and the one before it) are touched when the current item changes.
   */
  lazy?: boolean;
  /**
   * With `lazy`: the Tab stop while the user has chosen no item (by focusing or moving to one),
   * instead of the first item. A windowed list renders rows above its view; its Tab stop
   * should be the first row in view. Asked again whenever the items change.
   */
  initial?: (items: HTMLElement[]) => HTMLElement | undefined;
}

const INNER = 'a[href], button, input, select, textarea';

function initialItem(items: HTMLElement[]): HTMLElement | undefined {
  return (
    items.find((i) => i.getAttribute('aria-selected') === 'true') ??
    items.find((i) => i.hasAttribute('aria-current') && i.getAttribute('aria-current') !== 'false') ??
    items.find((i) => i.classList.contains('active')) ??
    items[0]
  );
}

/**
 * Returns a callback ref for the container (it may mount later than the component, e.g. a
 * table shown once there are rows).
 */
export function useRoving(opts: RovingOptions): (el: HTMLElement | null) => void {
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const { items: selector, orientation = 'vertical', activateOnMove = false, inner = false, lazy = false } = opts;
  // The latest `initial` (a new function each render must not restart the effect).
  const initial = useRef(opts.initial);
  initial.current = opts.initial;
  useEffect(() => {
    if (!root) return;
    let current: HTMLElement | null = null;
    /** The current item is one the user focused or moved to (else it is a default). */
    let chosen = false;
    let applied: HTMLElement | null = null;
    let queued = false;
    const list = () => [...root.querySelectorAll<HTMLElement>(selector)];
    const setStop = (it: HTMLElement, on: boolean) => {
      it.tabIndex = on ? 0 : -1;
      if (inner) for (const c of it.querySelectorAll<HTMLElement>(INNER)) c.tabIndex = on ? 0 : -1;
    };
    const normalize = () => {
      queued = false;
      if (lazy) {
        if (!current?.isConnected || !root.contains(current)) chosen = false;
        if (!chosen) {
          const items = list();
          current = initial.current?.(items) ?? initialItem(items) ?? null;
        }
        if (applied && applied !== current && applied.isConnected) setStop(applied, false);
        // The current item's controls may have changed (a Fix button arriving later).
        if (current) setStop(current, true);
        applied = current;
        return;
      }
      const items = list();
      if (!current?.isConnected || !root.contains(current) || !items.includes(current)) {
        current = initialItem(items) ?? null;
      }
      for (const it of items) {
        const on = it === current;
        if (it.tabIndex !== (on ? 0 : -1) || !it.hasAttribute('tabindex')) it.tabIndex = on ? 0 : -1;
        if (inner) for (const c of it.querySelectorAll<HTMLElement>(INNER)) c.tabIndex = on ? 0 : -1;
      }
    };
    const schedule = () => {
      if (queued) return;
      queued = true;
      queueMicrotask(normalize);
    };
    const itemOf = (t: EventTarget | null) => {
      const el = (t as HTMLElement | null)?.closest?.(selector) as HTMLElement | null;
      return el && root.contains(el) ? el : null;
    };
    const onFocusIn = (e: FocusEvent) => {
      const it = itemOf(e.target);
      if (it) chosen = true;
      if (it && it !== current) {
        current = it;
        normalize();
      }
    };
    const onKey = (e: KeyboardEvent) => {
      const it = itemOf(e.target);
      // Only keys on an item itself (not a text field or button inside it).
      if (!it || e.target !== it || e.altKey || e.ctrlKey || e.metaKey) return;
      const next = orientation === 'vertical' ? 'ArrowDown' : 'ArrowRight';
      const prev = orientation === 'vertical' ? 'ArrowUp' : 'ArrowLeft';
      const items = list();
      const i = items.indexOf(it);
      let to: HTMLElement | undefined;
      if (e.key === next) to = items[Math.min(items.length - 1, i + 1)];
      else if (e.key === prev) to = items[Math.max(0, i - 1)];
      else if (e.key === 'Home') to = items[0];
      else if (e.key === 'End') to = items[items.length - 1];
      else return;
      e.preventDefault();
      e.stopPropagation();
      if (!to) return;
      current = to;
      chosen = true;
      normalize();
      to.focus();
      to.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
      if (activateOnMove && to !== it) to.click();
    };
    normalize();
    const mo = new MutationObserver(schedule);
    mo.observe(
      root,
      lazy
        ? { childList: true, subtree: true }
        : { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-selected', 'aria-current', 'class'] },
    );
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('keydown', onKey);
    return () => {
      mo.disconnect();
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('keydown', onKey);
    };
  }, [root, selector, orientation, activateOnMove, inner, lazy]);
  return setRoot;
}
