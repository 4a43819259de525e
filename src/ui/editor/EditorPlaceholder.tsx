// What the editor area shows until Monaco has loaded (it loads after the first diagnostics,
// see state/firstResults.ts): the active file's text, read-only, in the editor's font, with a
// quiet note. Typing needs Monaco, so nothing here edits; a click or a key asks for the editor
// at once. A reveal (go to a line) scrolls here too, and Monaco applies it when it mounts.
import { useEffect, useRef } from 'react';
import { useWorkspace } from '../../state/workspace.ts';
import { useEditorUi } from '../../state/analysis.ts';
import { openAfterFirstResults } from '../../state/firstResults.ts';

/** Characters shown at most: a multi-megabyte text in one element costs more than it helps. */
export const PLACEHOLDER_MAX_CHARS = 200_000;
/** Matches the editor's line height and top padding (MonacoEditor's options). */
const LINE_HEIGHT = 20;
const TOP_PADDING = 6;

/** The text to show for a file: all of it, or its start and a note when it is very long. */
export function placeholderText(text: string, max = PLACEHOLDER_MAX_CHARS): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  // Cut at a line end, so the last line shown is whole.
  const nl = text.lastIndexOf('\n', max);
  return { text: text.slice(0, nl > 0 ? nl + 1 : max), cut: true };
}

export function EditorPlaceholder() {
  const active = useWorkspace((s) => s.active);
  const file = useWorkspace((s) => s.files.find((f) => f.path === s.active));
  const reveal = useEditorUi((s) => s.reveal);
  const pre = useRef<HTMLPreElement>(null);
  const text = file?.kind === 'text' ? (file.text ?? '') : null;

  // Show the revealed line (the first error on a first visit) in the middle, as Monaco will.
  const line = reveal && reveal.path === active ? (reveal.range?.startLine ?? reveal.line ?? 0) : 0;
  useEffect(() => {
    const el = pre.current;
    if (!el || line <= 0) return;
    el.scrollTop = Math.max(0, TOP_PADDING + (line - 1) * LINE_HEIGHT - el.clientHeight / 2);
  }, [line, text]);

  if (text === null) return null;
  const shown = placeholderText(text);
  const ask = () => openAfterFirstResults('asked');
  return (
    <div className="editor-placeholder" data-testid="editor-placeholder" onPointerDown={ask} onKeyDown={ask}>
      <pre
        ref={pre}
        className="editor-placeholder-text"
        tabIndex={0}
        role="textbox"
        aria-multiline="true"
        aria-readonly="true"
        aria-label={`${active ?? 'File'}, read-only until the editor has loaded`}
        data-testid="editor-placeholder-text"
      >
        {shown.text}
        {shown.cut && <span className="editor-placeholder-cut">{'\n'}… (the rest shows in the editor)</span>}
      </pre>
      <p className="editor-placeholder-note" role="status">
        Loading editor…
      </p>
    </div>
  );
}
