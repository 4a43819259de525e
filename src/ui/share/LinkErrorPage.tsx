// A share link that cannot be opened: what went wrong and the way back, never a blank page.
import { leaveSharedLink, useShareView } from '../../state/shareOpen.ts';

const TITLES: Record<string, string> = {
  'not-a-link': 'This is not a share link',
  'bad-characters': 'This link was changed on the way',
  truncated: 'This link is incomplete',
  corrupt: 'This link is damaged',
  'too-large': 'This link is too large to open',
  'unsupported-version': 'This link is from a newer Mesh Workbench',
  unexpected: 'This link could not be opened',
};

export function LinkErrorPage() {
  const err = useShareView((s) => s.linkError);
  if (!err) return null;
  return (
    <main className="link-error" data-testid="link-error" data-code={err.code}>
      <h1>{TITLES[err.code] ?? TITLES.unexpected}</h1>
      <p data-testid="link-error-message">{err.message}</p>
      <p>Nothing from the link was run or saved, and your own workspaces are unchanged.</p>
      <button type="button" className="button primary" data-testid="link-error-home" onClick={leaveSharedLink}>
        Open my workspaces
      </button>
    </main>
  );
}
