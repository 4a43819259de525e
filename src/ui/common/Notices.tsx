import { useWorkspace } from '../../state/workspace.ts';

export function Notices() {
  const notices = useWorkspace((s) => s.notices);
  const dismiss = useWorkspace((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'} data-testid="notice">
          <span className="notice-text">{n.text}</span>
          {n.action && (
            <button type="button" className="button" data-testid={n.action.testId ?? 'notice-action'} onClick={() => n.action?.run()}>
              {n.action.label}
            </button>
          )}
          <button type="button" className="icon-button" aria-label="Dismiss" title="Dismiss" data-testid="notice-dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
