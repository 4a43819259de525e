// A popup menu anchored to a button (or opened at the pointer, for context menus). It is
// rendered into the body (table cells and panes clip overflow), takes focus when it opens,
// moves with the arrow keys, Home and End, and closes on Escape or Tab (focus goes back to
// the button), a click elsewhere, or when its anchor scrolls out of sight. Choosing an item
// closes the menu, gives focus back, then runs the item (which may move focus on purpose,
// e.g. to the editor after a fix).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import type { MenuItem } from './menuItems.ts';

export { commandMenuItems, type MenuItem } from './menuItems.ts';

interface Props {
  /** The button that opened the menu (focus returns there). */
  anchor: RefObject<HTMLElement | null>;
  /** Open at this point (a context menu) instead of under the anchor. */
  at?: { x: number; y: number };
  label: string;
  testId: string;
  items: MenuItem[];
  /** Shown instead of items (e.g. "Loading…"); default when there are none: "Nothing applies here." */
  note?: string;
  className?: string;
  onClose(): void;
}

export function Menu({ anchor, at, label, testId, items, note, className, onClose }: Props) {
  const menu = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);

  /** Places the menu under its button (above when there is no room); false when the button is hidden. */
  const place = useCallback((): boolean => {
    const m = menu.current;
    if (!m) return false;
    const w = m.offsetWidth;
    const h = m.offsetHeight;
    if (at) {
      setPos({ top: Math.max(4, Math.min(at.y, window.innerHeight - h - 4)), left: Math.max(4, Math.min(at.x, window.innerWidth - w - 4)) });
      return true;
    }
    const el = anchor.current;
    if (!el?.isConnected) return false;
    const a = el.getBoundingClientRect();
    if (a.width === 0 || a.bottom < 0 || a.top > window.innerHeight) return false;
    const top = a.bottom + 2 + h <= window.innerHeight ? a.bottom + 2 : Math.max(4, a.top - 2 - h);
    const left = Math.max(4, Math.min(a.right - w, window.innerWidth - w - 4));
    setPos({ top, left });
    return true;
  }, [anchor, at]);

  useLayoutEffect(() => {
    if (!place()) onClose();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Focus the first item once the menu is visible (a hidden element cannot take focus).
  const focused = useRef(false);
  useEffect(() => {
    if (!pos || focused.current) return;
    const first = menu.current?.querySelector<HTMLElement>('[role="menuitem"]');
    if (first) {
      focused.current = true;
      first.focus({ preventScroll: true });
    } else menu.current?.focus({ preventScroll: true });
  }, [pos, items.length]);
  // Items that arrive later (a list being fetched) change the menu's size.
  useLayoutEffect(() => {
    place();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items.length, note]);

  const close = useCallback(
    (refocus: boolean) => {
      onClose();
      if (refocus) anchor.current?.focus({ preventScroll: true });
    },
    [anchor, onClose],
  );

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (menu.current?.contains(t) || anchor.current?.contains(t)) return;
      onClose();
    };
    const onScroll = (e: Event) => {
      if (menu.current?.contains(e.target as Node)) return;
      if (at || !place()) onClose();
    };
    document.addEventListener('mousedown', onDown, true);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('mousedown', onDown, true);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onClose);
    };
  }, [anchor, at, onClose, place]);

  const move = (to: (i: number, n: number) => number) => {
    const list = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    if (list.length === 0) return;
    const i = list.indexOf(document.activeElement as HTMLElement);
    list[to(i, list.length)]?.focus();
  };

  return createPortal(
    <div
      ref={menu}
      className={`row-menu${className ? ` ${className}` : ''}`}
      role="menu"
      tabIndex={-1}
      aria-label={label}
      data-testid={testId}
      data-transient-focus=""
      style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
      // React events bubble through portals: keep clicks and keys away from the row.
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          e.preventDefault();
          close(true);
        } else if (e.key === 'Tab') {
          e.preventDefault();
          close(true);
        } else if (e.key === 'ArrowDown') {
          e.preventDefault();
          move((i, n) => (i + 1) % n);
        } else if (e.key === 'ArrowUp') {
          e.preventDefault();
          move((i, n) => (i - 1 + n) % n);
        } else if (e.key === 'Home') {
          e.preventDefault();
          move(() => 0);
        } else if (e.key === 'End') {
          e.preventDefault();
          move((_, n) => n - 1);
        }
      }}
    >
      {(note || items.length === 0) && (
        <div className="menu-note" role="none">
          {note ?? 'Nothing applies here.'}
        </div>
      )}
      {items.map((item, i) => (
        <button
          key={i}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`row-menu-item${item.preferred ? ' preferred' : ''}`}
          data-testid={item.testId}
          onClick={() => {
            close(true);
            item.onSelect();
          }}
        >
          <span className="row-menu-text">
            <span className="row-menu-label">{item.label}</span>
            {item.description && <span className="menu-item-desc">{item.description}</span>}
          </span>
          {item.hint && <kbd className="menu-hint">{item.hint}</kbd>}
        </button>
      ))}
    </div>,
    document.body,
  );
}
