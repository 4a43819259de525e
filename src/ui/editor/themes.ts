// Monaco themes with text contrast of at least 4.5:1 (WCAG AA): Monaco's own light and dark
// themes with the few colours that fall short (the dark theme's comments at 4.2:1) raised.
import { monaco } from './monaco.ts';

let defined = false;

export function defineThemes(): void {
  if (defined) return;
  defined = true;
  monaco.editor.defineTheme('mesh-light', {
    base: 'vs',
    inherit: true,
    rules: [
      { token: 'comment', foreground: '007300' },
      { token: 'number', foreground: '07704e' },
    ],
    colors: {
      'editorLineNumber.foreground': '#1f6b80',
    },
  });
  monaco.editor.defineTheme('mesh-dark', {
    base: 'vs-dark',
    inherit: true,
    rules: [{ token: 'comment', foreground: '8cbc76' }],
    colors: {
      'editorLineNumber.foreground': '#999999',
    },
  });
}

export function themeFor(dark: boolean): string {
  defineThemes();
  return dark ? 'mesh-dark' : 'mesh-light';
}
