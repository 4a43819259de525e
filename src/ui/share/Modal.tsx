// A modal dialog on the native <dialog> element (focus trap, Escape, backdrop for free).
import { useEffect, useRef, type ReactNode } from 'react';

export function Modal(props: { title: string; onClose: () => void; children: ReactNode; testId: string; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal${props.wide ? ' modal-wide' : ''}`}
      aria-label={props.title}
      data-testid={props.testId}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <div className="modal-header">
        <h2 className="modal-title">{props.title}</h2>
        <button type="button" className="icon-button" aria-label="Close" title="Close" data-testid="modal-close" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{props.children}</div>
    </dialog>
  );
}
