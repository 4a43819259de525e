// The app's own confirm and prompt dialogs (instead of the browser's window.confirm and
// window.prompt, which block the page, cannot be styled or labelled, and which browsers may
// suppress): a question is asked with a promise and answered when the person chooses. One
// question is on screen at a time; a second one asked meanwhile waits its turn.
import { create } from 'zustand';

/** Something focus can go back to (an element; kept structural so this file needs no DOM types). */
export interface Focusable {
  focus(): void;
  readonly isConnected: boolean;
}

interface Common {
  /** The dialog's heading (its accessible name). */
  title: string;
  /** What is being asked, in a sentence or two. */
  message?: string;
  /** The button that says yes: what it does, e.g. "Delete workspace". */
  confirmLabel: string;
  /** The button that says no (and what Escape does). Defaults to "Cancel". */
  cancelLabel?: string;
  /** The yes button destroys something: it is drawn as a warning and does not take focus. */
  destructive?: boolean;
  testId?: string;
  /** What had focus when the question was asked: it gets focus back. */
  opener?: Focusable | null;
  /** Where focus goes when the opener is gone (e.g. a menu item whose menu closed). */
  fallback?: Focusable | null;
}

export interface ConfirmRequest extends Common {
  kind: 'confirm';
}

export interface PromptRequest extends Common {
  kind: 'prompt';
  /** The text field's label. */
  label: string;
  /** The text the field starts with (selected). */
  value?: string;
  /** A reason the answer cannot be taken (shown under the field), or null when it can. */
  validate?: (value: string) => string | null;
}

export type DialogRequest = ConfirmRequest | PromptRequest;

export type Asked = DialogRequest & { id: number; settle(answer: boolean | string | null): void };

export interface DialogsState {
  /** The question on screen, then those waiting. */
  queue: Asked[];
}

export const useDialogQueue = create<DialogsState>()(() => ({ queue: [] }));

let nextId = 1;

function ask(req: DialogRequest): Promise<boolean | string | null> {
  return new Promise((resolve) => {
    const id = nextId++;
    const settle = (answer: boolean | string | null) => {
      const { queue } = useDialogQueue.getState();
      if (!queue.some((q) => q.id === id)) return;
      useDialogQueue.setState({ queue: queue.filter((q) => q.id !== id) });
      resolve(answer);
    };
    useDialogQueue.setState((s) => ({ queue: [...s.queue, { ...req, id, settle }] }));
  });
}

/** True when the person chose the confirm button; false on Cancel or Escape. */
export async function askConfirm(req: Omit<ConfirmRequest, 'kind'>): Promise<boolean> {
  return (await ask({ ...req, kind: 'confirm' })) === true;
}

/** The text the person confirmed (valid by `validate`), or null on Cancel or Escape. */
export async function askPrompt(req: Omit<PromptRequest, 'kind'>): Promise<string | null> {
  const answer = await ask({ ...req, kind: 'prompt' });
  return typeof answer === 'string' ? answer : null;
}
