// The confirm and prompt dialogs themselves (see Dialog.tsx, which asks them and loads this
// module on the first question): the first question in the queue, as a native modal <dialog>.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useDialogQueue, type Asked } from '../../state/dialogs.ts';

export function DialogLayer() {
  const first = useDialogQueue((s) => s.queue[0]);
  // Keyed by the question, so the next one in the queue gets a fresh dialog (and focus).
  return first ? <QuestionDialog key={first.id} q={first} /> : null;
}

function QuestionDialog({ q }: { q: Asked }) {
  const ref = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const done = useRef(false);
  const [value, setValue] = useState(q.kind === 'prompt' ? (q.value ?? '') : '');
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const messageId = useId();
  const errorId = useId();

  const finish = (answer: boolean | string | null) => {
    if (done.current) return;
    done.current = true;
    const d = ref.current;
    if (d?.open) d.close();
    // Focus back to where the person was, before the caller's code runs (which may move it on).
    const back = [q.opener, q.fallback].find((e) => e?.isConnected);
    back?.focus();
    q.settle(answer);
  };
  const cancelled = q.kind === 'prompt' ? null : false;

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    if (q.kind === 'prompt') {
      field.current?.focus();
      field.current?.select();
    } else cancel.current?.focus();
    return () => {
      if (d.open) d.close();
    };
  }, [q.kind]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (q.kind !== 'prompt') return finish(true);
    const why = q.validate?.(value) ?? null;
    if (why) {
      setError(why);
      field.current?.focus();
      return;
    }
    finish(value);
  };

  const described = [q.message ? messageId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <dialog
      ref={ref}
      className="modal"
      style={{ width: 'min(460px, 92vw)' }}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={q.message ? messageId : undefined}
      data-testid={q.testId ?? 'app-dialog'}
      onCancel={(e) => {
        e.preventDefault();
        finish(cancelled);
      }}
      // Closed some other way (the browser may force a repeated Escape through): a cancel.
      onClose={() => finish(cancelled)}
      // Keys typed in the dialog are its own: the page's document-level handlers (menus,
      // panes) stay out of it while it is open.
      onKeyDown={(e) => e.stopPropagation()}
    >
      <form method="dialog" onSubmit={submit}>
        <div className="modal-header">
          <h2 className="modal-title" id={titleId}>
            {q.title}
          </h2>
        </div>
        <div className="modal-body">
          {q.message && (
            <p id={messageId} style={{ margin: 0, whiteSpace: 'pre-line' }}>
              {q.message}
            </p>
          )}
          {q.kind === 'prompt' && (
            <label style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
              <span>{q.label}</span>
              <input
                ref={field}
                className="text-input"
                type="text"
                data-testid="dialog-input"
                value={value}
                aria-invalid={error ? true : undefined}
                aria-describedby={described}
                onChange={(e) => {
                  setValue(e.target.value);
                  setError(null);
                }}
              />
            </label>
          )}
          {error && (
            <p id={errorId} className="field-error" role="alert" data-testid="dialog-error" style={{ margin: 0 }}>
              {error}
            </p>
          )}
          <div className="modal-actions" style={{ justifyContent: 'flex-end' }}>
            <button ref={cancel} type="button" className="button" data-testid="dialog-cancel" onClick={() => finish(cancelled)}>
              {q.cancelLabel ?? 'Cancel'}
            </button>
            <button
              type="submit"
              className="button primary"
              data-testid="dialog-confirm"
              // A destructive answer is drawn in the error colour, so it does not read as the usual "OK".
              style={q.destructive ? { background: 'var(--error)', borderColor: 'var(--error)', color: 'var(--on-error)' } : undefined}
            >
              {q.confirmLabel}
            </button>
          </div>
        </div>
      </form>
    </dialog>
  );
}
