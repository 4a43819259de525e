// Going to a place in a file: the one way every view (Problems, proxy config sources, route
// tests, certificates, the data plane, the inspector, fixes) opens a file and asks the editor
// to show a line or a range.
import type { SourceRange } from '../core/document/types.ts';
import { useEditorUi } from './analysis.ts';
import { useWorkspace } from './workspace.ts';

/** Opens `file` in the editor and reveals `range` (else `line`); `focus: false` keeps focus where it is. */
export function openAt(file: string, where: { line?: number; range?: SourceRange } = {}, opts?: { focus?: boolean }): void {
  useWorkspace.getState().openFile(file);
  useEditorUi.getState().requestReveal(file, where.range, where.line, opts);
}
