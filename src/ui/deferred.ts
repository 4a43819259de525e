// Loads deferredUi.ts (the inspector, the titlebar menus, the palette's window) once, for
// everything that waits on it. The page asks for it when the first results are in (see
// state/firstResults.ts); the editor waits for it too, so once Monaco is on screen the whole
// page is.
import { lazy, type LazyExoticComponent } from 'react';

type DeferredUi = typeof import('./deferredUi.ts');

let loading: Promise<DeferredUi> | null = null;

export function loadDeferredUi(): Promise<DeferredUi> {
  loading ??= import('./deferredUi.ts');
  return loading;
}

/** A React.lazy component from the deferred chunk (with the props of the real one). */
export function deferredComponent<K extends keyof DeferredUi>(name: K): LazyExoticComponent<DeferredUi[K]> {
  return lazy(() => loadDeferredUi().then((m) => ({ default: m[name] })));
}
