// A pointer-drag splitter. `onResize` receives the size the pane had when the drag
// started plus the pointer's travel (sign given by `direction`).
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface SplitterProps {
  /** 'col' splits side by side (drag horizontally); 'row' splits top/bottom. */
  orientation: 'col' | 'row';
  /** +1 when dragging right/down grows the pane, -1 when it shrinks it. */
  direction: 1 | -1;
  size: number;
  onResize: (size: number) => void;
  label: string;
  testId?: string;
}

export function Splitter({ orientation, direction, size, onResize, label, testId }: SplitterProps) {
  const start = useRef<{ pos: number; size: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { pos: orientation === 'col' ? e.clientX : e.clientY, size };
    document.body.classList.add(orientation === 'col' ? 'resizing-col' : 'resizing-row');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const s = start.current;
    if (!s) return;
    const pos = orientation === 'col' ? e.clientX : e.clientY;
    onResize(s.size + direction * (pos - s.pos));
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    start.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    document.body.classList.remove('resizing-col', 'resizing-row');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 50 : 10;
    const grow = orientation === 'col' ? (direction === 1 ? 'ArrowRight' : 'ArrowLeft') : direction === 1 ? 'ArrowDown' : 'ArrowUp';
    const shrink = orientation === 'col' ? (direction === 1 ? 'ArrowLeft' : 'ArrowRight') : direction === 1 ? 'ArrowUp' : 'ArrowDown';
    if (e.key === grow) onResize(size + step);
    else if (e.key === shrink) onResize(size - step);
    else return;
    e.preventDefault();
  };

  return (
    <div
      className={`splitter splitter-${orientation}`}
      role="separator"
      aria-orientation={orientation === 'col' ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-valuenow={size}
      tabIndex={0}
      data-testid={testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
    />
  );
}
