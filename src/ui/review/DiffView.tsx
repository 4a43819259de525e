// Monaco's diff editor, side by side, for one file of the two sides (lazy chunk).
import { useEffect, useRef } from 'react';
import { monaco } from '../editor/monaco.ts';
import { prefersDark } from '../common/useColorScheme.ts';

let seq = 0;

export default function DiffView({ path, before, after }: { path: string; before: string; after: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const n = ++seq;
    const editor = monaco.editor.createDiffEditor(host.current!, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      theme: prefersDark() ? 'vs-dark' : 'vs',
    });
    // Models of their own (not the workspace's file:// models).
    const original = monaco.editor.createModel(before, 'yaml', monaco.Uri.from({ scheme: 'review', path: `/before/${n}/${path}` }));
    const modified = monaco.editor.createModel(after, 'yaml', monaco.Uri.from({ scheme: 'review', path: `/after/${n}/${path}` }));
    editor.setModel({ original, modified });
    return () => {
      editor.setModel(null);
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [path, before, after]);
  return <div className="diff-view" ref={host} data-testid="diff-view" role="region" aria-label={`Changes in ${path}`} />;
}
