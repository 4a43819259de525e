// One tab of the editor's strip, for a file or a view: Enter/Space or a click activates it;
// Delete, a middle click or the × beside it closes it (the × sits beside the tab, not in it:
// no control inside a control).
import type { ReactNode } from 'react';

export interface TabShellProps {
  id: string;
  active: boolean;
  /** The panel the tab shows. */
  controls: string;
  title: string;
  closeTitle: string;
  className?: string;
  /** data-testid of the tab and of its ×. */
  testId: string;
  closeTestId: string;
  /** More data-* attributes of the tab (data-path, data-view). */
  data: Record<`data-${string}`, string>;
  onActivate(): void;
  onClose(): void;
  children: ReactNode;
}

export function TabShell(p: TabShellProps) {
  return (
    <div className={`tab${p.className ? ` ${p.className}` : ''}${p.active ? ' active' : ''}`} role="presentation">
      <div
        className="tab-label"
        role="tab"
        id={p.id}
        data-testid={p.testId}
        {...p.data}
        aria-selected={p.active}
        aria-controls={p.controls}
        title={p.title}
        onClick={p.onActivate}
        onKeyDown={(e) => {
          if (e.key === 'Delete') {
            e.preventDefault();
            p.onClose();
          } else if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            p.onActivate();
          }
        }}
        onMouseDown={(e) => {
          if (e.button === 1) {
            e.preventDefault();
            p.onClose();
          }
        }}
      >
        {p.children}
      </div>
      <button
        type="button"
        className="tab-close"
        tabIndex={-1}
        aria-hidden="true"
        title={p.closeTitle}
        data-testid={p.closeTestId}
        onClick={(e) => {
          e.stopPropagation();
          p.onClose();
        }}
      >
        ×
      </button>
    </div>
  );
}
