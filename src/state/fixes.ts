// Applying quick fixes and annotation suppressions from the UI. Edits go through the editor
// model when the file has one (so they can be undone there), otherwise straight into the
// workspace store; either way the store ends up with the new text and analysis follows.
// Neither happens while a shared link is open read-only (the editor's model would otherwise
// take the edit even though the editor itself is read-only).
import type { Diagnostic, QuickFix, TextEdit } from '../core/document/types.ts';
import { applyTextEdits } from '../core/analysis/fixes/apply.ts';
import { fileText, refuseWhenReadOnly, textStamp, useWorkspace } from './workspace.ts';
import { useAnalysis, useEditorUi } from './analysis.ts';
import { openAt } from './navigation.ts';

/** Applies edits to a file's editor model; returns false when the file has none. */
export type ModelEditor = (path: string, edits: readonly TextEdit[]) => boolean;

let modelEditor: ModelEditor | undefined;

/** The editor registers itself while it is mounted. */
export function registerModelEditor(e: ModelEditor | undefined): void {
  modelEditor = e;
}

/**
 * Applies a fix computed by the analysis. Its ranges refer to the analyzed text, so a file
 * edited since then is left alone (the next analysis brings an up-to-date fix).
 */
export function applyQuickFix(fix: QuickFix): boolean {
  if (refuseWhenReadOnly()) return false;
  const analyzed = useAnalysis.getState().analyzedStamps;
  for (const e of fix.edits) {
    const now = textStamp(e.file);
    if (analyzed && now !== undefined && analyzed.get(e.file) !== now) {
      useWorkspace
        .getState()
        .notify({ id: 'quickfix', level: 'info', text: `${e.file} changed since it was analyzed; apply the fix again once the analysis has caught up.` });
      return false;
    }
  }
  return applyEdits(fix);
}

function applyEdits(fix: QuickFix): boolean {
  if (refuseWhenReadOnly()) return false;
  const byFile = new Map<string, TextEdit[]>();
  for (const e of fix.edits) {
    let l = byFile.get(e.file);
    if (!l) byFile.set(e.file, (l = []));
    l.push(e);
  }
  const ws = useWorkspace.getState();
  for (const path of byFile.keys()) {
    if (!ws.files.some((f) => f.path === path && f.kind === 'text')) {
      ws.notify({ id: 'quickfix', level: 'warning', text: `The fix "${fix.title}" needs ${path}, which is not an editable file in the workspace.` });
      return false;
    }
  }
  for (const [path, edits] of byFile) {
    if (modelEditor?.(path, edits)) continue;
    const text = fileText(path);
    if (text !== undefined) useWorkspace.getState().replaceText(path, applyTextEdits(text, edits));
  }
  // Show what changed in the file on screen: the editor scrolls to the first changed line (the
  // earliest edit's start line is where it was, since nothing before it moved), without taking
  // focus from a menu. A fix in another file is not navigation: the file on screen stays.
  const active = useWorkspace.getState().active;
  const edits = active ? byFile.get(active) : undefined;
  if (active && edits) {
    const line = Math.min(...edits.map((e) => e.range.startLine));
    useEditorUi.getState().requestReveal(active, undefined, line, { focus: false });
  }
  return true;
}

/**
 * Adds the diagnostic's code to its resource's `galley.istio.io/analyze-suppress`
 * annotation (`kiali.io/ignore-validations` for a KIA code). The edit is computed from the current text (the YAML code loads on first use).
 */
export async function suppressWithAnnotation(d: Diagnostic): Promise<boolean> {
  if (refuseWhenReadOnly()) return false;
  const ws = useWorkspace.getState();
  const file = d.file ? ws.files.find((f) => f.path === d.file) : undefined;
  if (file?.kind !== 'text') return false;
  const { suppressionForText } = await import('../core/analysis/fixes/suppression.ts');
  const text = fileText(file.path);
  const fix = text !== undefined ? suppressionForText(file.path, text, d) : undefined;
  if (!fix) {
    ws.notify({
      id: 'quickfix',
      level: 'warning',
      text: `Could not add the suppression annotation for ${d.code} on ${d.origin ?? 'this resource'}: the resource was not found as written (it may have changed, or already suppress ${d.code}).`,
    });
    return false;
  }
  if (!applyEdits(fix)) return false;
  // Show the annotation that now silences the message.
  const edit = fix.edits[0];
  if (edit) {
    const lines = edit.text.split('\n').length - 1;
    const line = edit.range.startLine + Math.max(lines, 0);
    openAt(edit.file, { line });
  }
  return true;
}
