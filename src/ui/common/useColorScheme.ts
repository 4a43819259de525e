import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(cb: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

export function prefersDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(QUERY).matches;
}

/** 'dark' or 'light', following the OS/browser setting live. */
export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(
    subscribe,
    () => (prefersDark() ? 'dark' : 'light'),
    () => 'light',
  );
}

export function onColorSchemeChange(cb: (dark: boolean) => void): () => void {
  return subscribe(() => cb(prefersDark()));
}
