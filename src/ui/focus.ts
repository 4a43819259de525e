// Focus between panes (F6 / Shift+F6, "Focus …" commands) and back to where the user was
// after a menu, the palette or an action. Panes are the elements with `data-pane`, in DOM
// order; a pane remembers the last element focused in it.

/** What Tab stops at: a control (or a link) not taken out of the order with tabindex -1 (roving lists do that). */
const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
]
  .map((s) => `${s}:not([tabindex="-1"])`)
  .join(', ');

let editorFocus: (() => boolean) | undefined;
const lastInPane = new WeakMap<Element, HTMLElement>();
let tracking = false;

/** The editor registers how to focus it (Monaco's own focus keeps its cursor and selection). */
export function registerEditorFocus(f: (() => boolean) | undefined): void {
  editorFocus = f;
}

function visible(el: Element): boolean {
  const r = (el as HTMLElement).getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

export function firstTabbable(root: Element): HTMLElement | null {
  for (const el of root.querySelectorAll<HTMLElement>(TABBABLE)) if (visible(el)) return el;
  return null;
}

function trackFocus(): void {
  if (tracking) return;
  tracking = true;
  document.addEventListener('focusin', (e) => {
    const t = e.target as HTMLElement;
    const pane = t.closest?.('[data-pane]');
    if (pane) lastInPane.set(pane, t);
  });
}

export function panes(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-pane]')].filter(visible);
}

export function currentPane(): HTMLElement | null {
  return (document.activeElement?.closest('[data-pane]') as HTMLElement | null) ?? null;
}

/** Moves focus into a pane: the editor's text, else the element last focused there, else its first control. */
export function focusPane(pane: HTMLElement | string | null): boolean {
  trackFocus();
  const el = typeof pane === 'string' ? document.querySelector<HTMLElement>(`[data-pane="${pane}"]`) : pane;
  if (!el) return false;
  if (el.dataset.pane === 'editor' && el.querySelector('.monaco-editor') && editorFocus?.()) return true;
  const last = lastInPane.get(el);
  const preferred = [...el.querySelectorAll<HTMLElement>('[data-pane-focus]')].find(visible);
  const target =
    (last?.isConnected && el.contains(last) && visible(last) && last.tabIndex >= 0 ? last : null) ??
    (preferred ? (preferred.matches(TABBABLE) ? preferred : firstTabbable(preferred)) : null) ??
    firstTabbable(el) ??
    el;
  if (target === el && !el.hasAttribute('tabindex')) el.tabIndex = -1;
  target.focus();
  return document.activeElement === target || el.contains(document.activeElement);
}

/** F6 / Shift+F6: the next or previous pane. */
export function cyclePane(delta: 1 | -1): void {
  trackFocus();
  const list = panes();
  if (list.length === 0) return;
  const cur = currentPane();
  const i = cur ? list.indexOf(cur) : -1;
  const start = i < 0 ? (delta > 0 ? -1 : 0) : i;
  for (let k = 1; k <= list.length; k++) {
    const next = list[(start + delta * k + list.length * 2) % list.length];
    if (next && focusPane(next)) return;
  }
}

export function focusEditor(): boolean {
  return editorFocus?.() ?? false;
}

/**
 * Remembers what has focus now; the returned function puts focus back there (or, if that
 * element is gone, into its pane, else the editor) unless focus has since moved elsewhere
 * on purpose.
 */
export function rememberFocus(): () => void {
  trackFocus();
  const el = document.activeElement as HTMLElement | null;
  const pane = el?.closest('[data-pane]') as HTMLElement | null;
  return () => {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected && !now.closest('[data-transient-focus]')) return;
    if (el?.isConnected && el !== document.body) {
      if (el.closest('.monaco-editor') && focusEditor()) return;
      el.focus();
      if (document.activeElement === el) return;
    }
    if (pane?.isConnected && focusPane(pane)) return;
    focusEditor();
  };
}

if (typeof document !== 'undefined') trackFocus();
