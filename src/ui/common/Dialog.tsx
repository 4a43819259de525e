// The app's confirm and prompt dialogs, asked with a promise:
//   if (await confirmDialog({ title: 'Delete workspace?', confirmLabel: 'Delete workspace', destructive: true })) …
//   const name = await promptDialog({ title: 'New workspace', label: 'Name', confirmLabel: 'Create' });
// Each is a native <dialog> opened with showModal(): it is in the top layer, so it works above
// another modal (the Share dialog) and makes the page behind it inert. Focus goes to the text
// field, or to the safe (cancel) button of a confirm; Enter in the field confirms, Escape
// cancels, and focus goes back to what had it when the question was asked (or `returnFocus`
// when that is gone, e.g. a menu item whose menu closed).
//
// The dialogs render in a React root of their own, started on the first question, so they
// work wherever they are asked from (a shared link, the no-IndexedDB fallback) without a host
// component in App. Their code (DialogLayer.tsx) loads then too: the question waits in the
// queue (state/dialogs.ts) until it has.
import { createRoot } from 'react-dom/client';
import { askConfirm, askPrompt, type ConfirmRequest, type PromptRequest } from '../../state/dialogs.ts';

interface FocusReturn {
  /** Where focus goes after the dialog when the element that had it is no longer on the page. */
  returnFocus?: HTMLElement | null;
}

export type ConfirmOptions = Omit<ConfirmRequest, 'kind' | 'opener' | 'fallback'> & FocusReturn;
export type PromptOptions = Omit<PromptRequest, 'kind' | 'opener' | 'fallback'> & FocusReturn;

function opener(): HTMLElement | null {
  const a = typeof document === 'undefined' ? null : document.activeElement;
  return a instanceof HTMLElement && a !== document.body ? a : null;
}

/** Asks a yes/no question in the app: true when the person chose `confirmLabel`. */
export function confirmDialog({ returnFocus, ...req }: ConfirmOptions): Promise<boolean> {
  startLayer();
  return askConfirm({ ...req, opener: opener(), fallback: returnFocus ?? null });
}

/** Asks for a line of text in the app: the text, or null when the person cancelled. */
export function promptDialog({ returnFocus, ...req }: PromptOptions): Promise<string | null> {
  startLayer();
  return askPrompt({ ...req, opener: opener(), fallback: returnFocus ?? null });
}

let started = false;

function startLayer(): void {
  if (started || typeof document === 'undefined') return;
  started = true;
  const el = document.createElement('div');
  el.className = 'dialog-layer';
  document.body.appendChild(el);
  void import('./DialogLayer.tsx').then(({ DialogLayer }) => createRoot(el).render(<DialogLayer />));
}
