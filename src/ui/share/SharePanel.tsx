// The inspector's Share tab: the share and review commands, and what sharing sends where.
import { SHARE_COMMANDS } from './dialogs.ts';

export function SharePanel() {
  return (
    <div className="share-panel" data-testid="share-panel">
      <p className="empty-line">
        A share link carries the files themselves, compressed, after the <code>#</code> of the address: no server sees them. Private keys and Secret values are
        removed unless you choose otherwise.
      </p>
      <div className="share-panel-actions">
        {SHARE_COMMANDS.map((c) => (
          <button key={c.id} type="button" className="button" data-testid={`panel-${c.id}`} onClick={c.run}>
            {c.title}
          </button>
        ))}
      </div>
    </div>
  );
}
