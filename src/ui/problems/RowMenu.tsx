// A small popup menu anchored to a button of a Problems row. It is rendered into the body
// (the table cells clip overflow), follows its button when the panel scrolls, and closes on
// Escape, a click elsewhere, or when the button scrolls out of sight.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';

export interface RowMenuItem {
  label: string;
  testId: string;
  preferred?: boolean;
  onSelect(): void;
}

interface Props {
  anchor: RefObject<HTMLElement | null>;
  label: string;
  testId: string;
  items: RowMenuItem[];
  onClose(): void;
}

export function RowMenu({ anchor, label, testId, items, onClose }: Props) {
  const menu = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ top: number; right: number } | null>(null);

  /** Places the menu under its button (above when there is no room); false when the button is hidden. */
  const place = useCallback((): boolean => {
    const el = anchor.current;
    const m = menu.current;
    if (!el || !m || !el.isConnected) return false;
    const a = el.getBoundingClientRect();
    if (a.width === 0 || a.bottom < 0 || a.top > window.innerHeight) return false;
    const height = m.offsetHeight;
    const top = a.bottom + 2 + height <= window.innerHeight ? a.bottom + 2 : Math.max(4, a.top - 2 - height);
    setPos({ top, right: Math.max(4, window.innerWidth - a.right) });
    return true;
  }, [anchor]);

  useLayoutEffect(() => {
    if (place()) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
  }, [place]);

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (menu.current?.contains(t) || anchor.current?.contains(t)) return;
      onClose();
    };
    const onScroll = (e: Event) => {
      if (menu.current?.contains(e.target as Node)) return;
      if (!place()) onClose();
    };
    document.addEventListener('mousedown', onDown, true);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('mousedown', onDown, true);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onClose);
    };
  }, [anchor, onClose, place]);

  const move = (delta: number) => {
    const list = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = list.indexOf(document.activeElement as HTMLElement);
    list[(i + delta + list.length) % list.length]?.focus();
  };

  return createPortal(
    <div
      ref={menu}
      className="row-menu"
      role="menu"
      aria-label={label}
      data-testid={testId}
      style={pos ? { top: pos.top, right: pos.right } : { visibility: 'hidden', top: 0, right: 0 }}
      // React events bubble through portals: keep clicks away from the row (which opens the file).
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          onClose();
          anchor.current?.focus();
        } else if (e.key === 'ArrowDown') {
          e.preventDefault();
          move(1);
        } else if (e.key === 'ArrowUp') {
          e.preventDefault();
          move(-1);
        }
      }}
    >
      {items.map((item, i) => (
        <button
          key={i}
          type="button"
          role="menuitem"
          className={`row-menu-item${item.preferred ? ' preferred' : ''}`}
          data-testid={item.testId}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
