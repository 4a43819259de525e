// The Monaco editor (lazy chunk). One model per text file, kept across tab switches with
// its view state; markers from the latest diagnostics (hover: message, our explanation and
// the Istio doc link); quick fixes as code actions; reveal requests from Problems.
import { useEffect, useRef } from 'react';
import { monaco } from './monaco.ts';
import { READ_ONLY_NOTICE, isReadOnly, useWorkspace, type WsFile } from '../../state/workspace.ts';
import { LARGE_EDITOR_CHARS } from '../../state/fileKind.ts';
import { cappedMarkers, omittedMarkersMessage } from './markerCap.ts';
import { BUILD_IN_STEPS_CHARS, buildTextBufferInSteps } from './textBufferInSteps.ts';
import { emitTextEdited, registerTextModel, unregisterTextModel } from '../../state/texts.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { registerModelEditor } from '../../state/fixes.ts';
import type { Diagnostic, TextEdit } from '../../core/document/types.ts';
import { allCommands, blockedByReadOnly, commandTitle, menuItems, runCommand, useCommandRegistry } from '../../state/commands.ts';
import { useUi } from '../../state/ui.ts';
import { registerEditorFocus } from '../focus.ts';
import { defineThemes, themeFor } from './themes.ts';
import { messageByCode } from '../../core/analysis/messages.ts';
import { onColorSchemeChange, prefersDark } from '../common/useColorScheme.ts';
import { registerEditorDebug } from '../debug.ts';
import { registerSchemaHelp } from './schemaHelp.ts';

type Model = monaco.editor.ITextModel;

interface Entry {
  model: Model;
  /** The file rev whose text the model holds (external changes bump it). */
  rev: number;
  viewState: monaco.editor.ICodeEditorViewState | null;
  /** Markers were set on this model at least once (see markerSignatures). */
  markersSet?: boolean;
}

const MARKER_OWNER = 'mesh-workbench';
/** Models outlive the editor component (StrictMode remounts, lazy reloads). */
const entries = new Map<string, Entry>();
/** True while the store's text is pushed into a model (that change must not echo back: the worker gets it whole). */
let applyingExternal = false;
/** The diagnostic behind each marker of a file, for code actions. */
const markerSources = new Map<string, Array<{ marker: monaco.editor.IMarkerData; d: Diagnostic }>>();
/**
 * Markers are set in bands of lines, one marker owner per band, so an edit re-marks only the
 * bands whose markers changed (setting thousands of markers at once blocks the page).
 * Per path and band: what the band's markers were last set from.
 */
const markerSignatures = new Map<string, Map<number, string>>();
const MARKER_BAND_LINES = 400;
const bandOwner = (band: number) => `${MARKER_OWNER}#${band}`;

/**
 * Folding recomputes its ranges over the whole file after every edit (about 1 ms per
 * thousand lines here), so it is off for files longer than this.
 */
export const FOLDING_MAX_LINES = 20_000;

/** Runs a registry command from a code action (its id and argument). */
const RUN_COMMAND = 'meshWorkbench.runCommand';

function uriFor(path: string): monaco.Uri {
  return monaco.Uri.from({ scheme: 'file', path: '/' + path });
}

function severity(level: Diagnostic['level']): monaco.MarkerSeverity {
  return level === 'Error' ? monaco.MarkerSeverity.Error : level === 'Warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Info;
}

/**
 * Marker text and link: the message, then (for analyzer messages) our explanation, or for a
 * Kiali finding the Kiali check that made it; an istioctl message Kiali also gives names the
 * KIA code. The code links to Istio's (or Kiali's) page about it. The hover renders them in
 * that order.
 */
function markerDetails(d: Diagnostic): Pick<monaco.editor.IMarkerData, 'message' | 'code' | 'source'> {
  const kialiCheck = d.analyzer?.startsWith('kiali ') ? d.analyzer.slice('kiali '.length) : undefined;
  const description = d.source === 'analyzer' && !kialiCheck ? messageByCode(d.code)?.description : undefined;
  const notes: string[] = [];
  if (description) notes.push(description);
  if (kialiCheck) notes.push(`Kiali's check ${kialiCheck}, from the Kiali pack (turn it off under Assumed inputs in the inspector).`);
  if (d.alsoReportedAs?.length) notes.push(`Kiali reports this too, as ${d.alsoReportedAs.join(', ')}.`);
  return {
    message: [d.message, ...notes].join('\n\n'),
    code: d.docUrl ? { value: d.code, target: monaco.Uri.parse(d.docUrl) } : d.code,
    source: kialiCheck ? 'kiali' : d.source === 'analyzer' ? 'istio' : 'mesh-workbench',
  };
}

/**
 * Large-file mode (as VS Code's): plain text, so no tokenizing, and none of the YAML help that
 * reads the document around the cursor (schemaHelp.ts).
 */
function languageFor(text: string): string {
  return text.length > LARGE_EDITOR_CHARS ? 'plaintext' : 'yaml';
}

function toMarker(model: Model, d: Diagnostic): monaco.editor.IMarkerData | null {
  const lines = model.getLineCount();
  const base = { severity: severity(d.level), ...markerDetails(d) };
  if (d.range) {
    const startLine = Math.min(Math.max(1, d.range.startLine), lines);
    const endLine = Math.min(Math.max(startLine, d.range.endLine), lines);
    let endCol = d.range.endCol;
    // An end at column 1 of a later line means "to the end of the previous line".
    if (endLine > startLine && endCol <= 1) {
      return { ...base, startLineNumber: startLine, startColumn: d.range.startCol, endLineNumber: endLine - 1, endColumn: model.getLineMaxColumn(endLine - 1) };
    }
    if (endLine === startLine && endCol <= d.range.startCol) endCol = model.getLineMaxColumn(startLine);
    return { ...base, startLineNumber: startLine, startColumn: Math.max(1, d.range.startCol), endLineNumber: endLine, endColumn: endCol };
  }
  if (d.line) {
    const line = Math.min(Math.max(1, d.line), lines);
    return {
      ...base,
      startLineNumber: line,
      startColumn: model.getLineFirstNonWhitespaceColumn(line) || 1,
      endLineNumber: line,
      endColumn: model.getLineMaxColumn(line),
    };
  }
  return null;
}

function sameMarker(a: monaco.editor.IMarkerData, b: monaco.editor.IMarkerData): boolean {
  return (
    a.startLineNumber === b.startLineNumber &&
    a.startColumn === b.startColumn &&
    a.endLineNumber === b.endLineNumber &&
    a.endColumn === b.endColumn &&
    a.message === b.message
  );
}

function pathOfModel(model: Model): string | undefined {
  for (const [path, e] of entries) if (e.model === model) return path;
  return undefined;
}

let codeActionsRegistered = false;

/**
 * Quick fixes and suppressions for our markers, via the lightbulb and Ctrl+.: the command
 * registry's entries for each marker's diagnostic (the same ones the Problems row menus list).
 */
function registerCodeActions(): void {
  if (codeActionsRegistered) return;
  codeActionsRegistered = true;
  registerSchemaHelp();
  monaco.editor.registerCommand(RUN_COMMAND, (_accessor: unknown, id: string, arg: unknown) => {
    void runCommand(id, arg);
  });
  monaco.languages.registerCodeActionProvider(
    'yaml',
    {
      provideCodeActions(model, _range, context) {
        const path = pathOfModel(model);
        const sources = (path && markerSources.get(path)) || [];
        const actions: monaco.languages.CodeAction[] = [];
        const suppressions: monaco.languages.CodeAction[] = [];
        for (const m of context.markers) {
          const hit = sources.find((x) => sameMarker(x.marker, m));
          if (!hit) continue;
          for (const i of menuItems('problem.fix', hit.d)) {
            actions.push({
              title: i.title,
              kind: 'quickfix',
              diagnostics: [m],
              isPreferred: i.preferred,
              command: { id: RUN_COMMAND, title: i.title, arguments: [i.command.id, i.arg] },
            });
          }
          for (const i of menuItems('problem.suppress', hit.d)) {
            suppressions.push({
              title: i.title,
              kind: 'quickfix',
              diagnostics: [m],
              command: { id: RUN_COMMAND, title: i.title, arguments: [i.command.id, i.arg] },
            });
          }
        }
        return { actions: [...actions, ...suppressions], dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}

/**
 * The registry's editor commands in the editor's context menu (re-read when the registry
 * changes, and when a shared link makes the workspace read-only: commands that would change
 * it are left out then).
 */
function contextMenuActions(editor: monaco.editor.IStandaloneCodeEditor): monaco.IDisposable {
  const added: monaco.IDisposable[] = [];
  const add = () => {
    for (const d of added.splice(0)) d.dispose();
    const active = useWorkspace.getState().active ?? '';
    const list = allCommands()
      .filter((c) => c.menus?.includes('editor') && !blockedByReadOnly(c))
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
    list.forEach((c, n) => {
      // File commands act on the active file; the others take no argument.
      const argOf = () => (c.forFile ? (useWorkspace.getState().active ?? undefined) : undefined);
      added.push(
        editor.addAction({
          id: `meshWorkbench.menu.${c.id}`,
          label: commandTitle(c, c.forFile ? active : undefined),
          contextMenuGroupId: '0_meshWorkbench',
          contextMenuOrder: n,
          run: () => {
            const arg = argOf();
            if (c.when && !c.when(arg)) {
              useWorkspace.getState().notify({ id: 'command', level: 'info', text: `“${commandTitle(c, arg)}” does not apply here.` });
              return;
            }
            void runCommand(c, arg);
          },
        }),
      );
    });
  };
  add();
  const unsub = useCommandRegistry.subscribe(add);
  const unsubWs = useWorkspace.subscribe((s, p) => {
    if (s.active !== p.active || s.readOnly !== p.readOnly) add();
  });
  return {
    dispose() {
      unsub();
      unsubWs();
      for (const d of added.splice(0)) d.dispose();
    },
  };
}

/** Results with more diagnostics than this get their markers in a later task. */
const DEFER_MARKERS_ABOVE = 2000;

/** The marker updates still to do; a newer update replaces them. */
let markerGeneration = 0;
/** Longest slice of marker updates per task, so loading a large file never blocks for long. */
const MARKER_SLICE_MS = 25;

function runMarkerWork(work: Array<() => void>): void {
  const gen = ++markerGeneration;
  let i = 0;
  const step = () => {
    if (gen !== markerGeneration) return;
    const t0 = performance.now();
    while (i < work.length) {
      work[i++]!();
      if (performance.now() - t0 > MARKER_SLICE_MS) break;
    }
    if (i < work.length) setTimeout(step, 0);
  };
  step();
}

function applyMarkers(diagnostics: Diagnostic[]): void {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (!d.file) continue;
    let l = byFile.get(d.file);
    if (!l) byFile.set(d.file, (l = []));
    l.push(d);
  }
  markerSources.clear();
  const work: Array<() => void> = [];
  for (const [path, e] of entries) {
    const { shown: list, omitted } = cappedMarkers(byFile.get(path) ?? []);
    const markers: monaco.editor.IMarkerData[] = [];
    const sources: Array<{ marker: monaco.editor.IMarkerData; d: Diagnostic }> = [];
    for (const d of list) {
      const m = toMarker(e.model, d);
      if (!m) continue;
      markers.push(m);
      if (d.source === 'analyzer') sources.push({ marker: m, d });
    }
    const last = markers[markers.length - 1];
    if (omitted > 0 && last) {
      markers.push({
        severity: monaco.MarkerSeverity.Info,
        message: omittedMarkersMessage(omitted),
        startLineNumber: last.startLineNumber,
        startColumn: last.startColumn,
        endLineNumber: last.endLineNumber,
        endColumn: last.endColumn,
      });
    }
    markerSources.set(path, sources);
    const bands = new Map<number, monaco.editor.IMarkerData[]>();
    for (const m of markers) {
      const b = Math.floor((m.startLineNumber - 1) / MARKER_BAND_LINES);
      let l = bands.get(b);
      if (!l) bands.set(b, (l = []));
      l.push(m);
    }
    if (!e.markersSet) markerSignatures.delete(path);
    e.markersSet = true;
    let done = markerSignatures.get(path);
    if (!done) markerSignatures.set(path, (done = new Map()));
    const signatures = done;
    const model = e.model;
    for (const [b, list] of bands) {
      const signature = list.map((m) => `${m.severity}|${m.startLineNumber}:${m.startColumn}-${m.endLineNumber}:${m.endColumn}|${m.message}`).join('\n');
      // Skip bands whose markers are the same as last time (most of a large file after an edit).
      if (signatures.get(b) === signature) continue;
      work.push(() => {
        if (model.isDisposed()) return;
        monaco.editor.setModelMarkers(model, bandOwner(b), list);
        signatures.set(b, signature);
      });
    }
    for (const b of signatures.keys()) {
      if (bands.has(b)) continue;
      work.push(() => {
        if (model.isDisposed()) return;
        monaco.editor.setModelMarkers(model, bandOwner(b), []);
        signatures.delete(b);
      });
    }
  }
  runMarkerWork(work);
}

/** Applies quick fix edits to a file's model as one undoable step (never while the workspace is read-only). */
function editModel(path: string, edits: readonly TextEdit[]): boolean {
  const e = entries.get(path);
  if (!e) return false;
  // The caller (fixes.ts) has refused already; a model takes edits even when its editor is read-only.
  if (isReadOnly()) return true;
  const ops = edits.map((x) => ({
    range: new monaco.Range(x.range.startLine, x.range.startCol, x.range.endLine, x.range.endCol),
    text: x.text,
    forceMoveMarkers: true,
  }));
  e.model.pushStackElement();
  e.model.pushEditOperations(null, ops, () => null);
  e.model.pushStackElement();
  return true;
}

export default function MonacoEditor() {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current!;
    defineThemes();
    const editor = monaco.editor.create(el, {
      model: null,
      theme: themeFor(prefersDark()),
      automaticLayout: true,
      fontSize: 13,
      lineHeight: 20,
      fontFamily: "ui-monospace, 'Cascadia Code', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      tabSize: 2,
      insertSpaces: true,
      detectIndentation: false,
      renderWhitespace: 'selection',
      fixedOverflowWidgets: true,
      padding: { top: 6 },
      ariaLabel: 'YAML editor',
    });
    let current: string | null = null;
    let lastRevealSeq = 0;
    // A shared link is open read-only (copy it to your workspaces to edit): no typing, pasting,
    // undo or formatting; Monaco says why when someone tries.
    const applyReadOnly = () => editor.updateOptions({ readOnly: isReadOnly(), readOnlyMessage: { value: READ_ONLY_NOTICE } });
    applyReadOnly();
    const unsubReadOnly = useWorkspace.subscribe((s, prev) => {
      if (s.readOnly !== prev.readOnly) applyReadOnly();
    });
    registerCodeActions();
    registerModelEditor(editModel);

    /**
     * One model per text file. A new model takes the file's text from the store, which then
     * lets go of it: from then on the model is the page's only copy. Texts replaced from
     * outside the editor (a new rev with a text in the store) are pushed into the model.
     */
    /**
     * Makes `model` the editor's model of a file. True when the model's text differs from the
     * one the worker got (line ends normalised, a BOM dropped): the worker then needs it whole.
     */
    const adopt = (path: string, rev: number, text: string, model: Model): boolean => {
      model.updateOptions({ tabSize: 2, insertSpaces: true });
      // New files use LF unless the text says otherwise (Monaco may default to CRLF).
      if (!text.includes('\r\n')) model.setEOL(monaco.editor.EndOfLineSequence.LF);
      // Every change to a model (typing, undo, a quick fix) goes out as its content changes.
      model.onDidChangeContent((ev) => {
        if (applyingExternal || entries.get(path)?.model !== model) return;
        if (ev.isEolChange || ev.changes.length === 0) {
          useWorkspace.getState().touch(path);
          return;
        }
        emitTextEdited({
          path,
          changes: ev.changes.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })),
          length: model.getValueLength(),
        });
      });
      entries.set(path, { model, rev, viewState: null });
      registerTextModel(path, model);
      return (text.includes('\r') || text.charCodeAt(0) === 0xfeff) && model.getValue() !== text;
    };

    let disposed = false;
    /** Large texts whose models are being built in steps, by path: the rev being built. */
    const building = new Map<string, number>();
    const buildLater = (path: string, rev: number, text: string) => {
      if (building.get(path) === rev) return;
      building.set(path, rev);
      const current = () => useWorkspace.getState().files.find((x) => x.path === path);
      const stale = () => disposed || building.get(path) !== rev || current()?.rev !== rev || entries.has(path);
      void buildTextBufferInSteps(text, stale).then((buffer) => {
        if (!buffer || stale()) return;
        building.delete(path);
        const model = monaco.editor.createModel(buffer as unknown as string, languageFor(text), uriFor(path));
        const resend = adopt(path, rev, text, model);
        useWorkspace.getState().releaseTexts([path], resend ? [path] : []);
        refresh();
        applyMarkers(useAnalysis.getState().diagnostics);
      });
    };

    const syncModels = (files: WsFile[]) => {
      const live = new Set<string>();
      const released: string[] = [];
      const resend: string[] = [];
      for (const f of files) {
        if (f.kind !== 'text') continue;
        live.add(f.path);
        const e = entries.get(f.path);
        if (!e) {
          if (f.text === undefined) continue;
          const text = f.text;
          const existing = monaco.editor.getModel(uriFor(f.path));
          if (!existing && text.length >= BUILD_IN_STEPS_CHARS) {
            buildLater(f.path, f.rev, text);
            continue;
          }
          const model = existing ?? monaco.editor.createModel(text, languageFor(text), uriFor(f.path));
          if (existing && existing.getValue() !== text) existing.setValue(text);
          if (adopt(f.path, f.rev, text, model)) resend.push(f.path);
          released.push(f.path);
        } else if (e.rev !== f.rev) {
          e.rev = f.rev;
          if (f.text !== undefined) {
            if (e.model.getValue() !== f.text) {
              applyingExternal = true;
              try {
                e.model.pushEditOperations([], [{ range: e.model.getFullModelRange(), text: f.text }], () => null);
              } finally {
                applyingExternal = false;
              }
            }
            released.push(f.path);
          }
        }
      }
      for (const [path, e] of entries) {
        if (!live.has(path)) {
          if (current === path) {
            editor.setModel(null);
            current = null;
          }
          // A file that stays but leaves the editor (it became binary or too large) takes its text back.
          const still = files.find((x) => x.path === path);
          if (still && still.text === undefined) useWorkspace.getState().takeBackText(path, e.model.getValue());
          unregisterTextModel(path, e.model);
          e.model.dispose();
          entries.delete(path);
          markerSignatures.delete(path);
        }
      }
      if (released.length > 0 || resend.length > 0) useWorkspace.getState().releaseTexts(released, resend);
    };

    const applyReveal = () => {
      const r = useEditorUi.getState().reveal;
      if (!r || r.seq === lastRevealSeq || r.path !== current) return;
      lastRevealSeq = r.seq;
      const model = editor.getModel();
      if (!model) return;
      const lines = model.getLineCount();
      if (r.range) {
        const sl = Math.min(Math.max(1, r.range.startLine), lines);
        const sc = Math.min(Math.max(1, r.range.startCol), model.getLineMaxColumn(sl));
        const el2 = Math.min(Math.max(sl, r.range.endLine), lines);
        const ec = Math.min(Math.max(1, r.range.endCol), model.getLineMaxColumn(el2));
        // Selection from end back to start: the cursor sits at the start of the field.
        editor.setSelection(new monaco.Selection(el2, ec, sl, sc));
        editor.revealRangeInCenterIfOutsideViewport(new monaco.Range(sl, sc, el2, ec), monaco.editor.ScrollType.Smooth);
      } else if (r.line) {
        const line = Math.min(Math.max(1, r.line), lines);
        const col = model.getLineFirstNonWhitespaceColumn(line) || 1;
        editor.setPosition({ lineNumber: line, column: col });
        editor.revealLineInCenterIfOutsideViewport(line, monaco.editor.ScrollType.Smooth);
      }
      if (r.focus !== false) editor.focus();
    };

    const activate = (path: string | null) => {
      const next = path && entries.has(path) ? path : null;
      if (next === current) return;
      if (current) {
        const e = entries.get(current);
        if (e) e.viewState = editor.saveViewState();
      }
      current = next;
      if (!next) {
        editor.setModel(null);
        useEditorUi.getState().setCursor(null);
        return;
      }
      const e = entries.get(next)!;
      // Large files: no folding, bracket matching, bracket pair colours or indent guides
      // (each rescans lines around every edit or cursor move).
      const small = e.model.getLineCount() <= FOLDING_MAX_LINES;
      if (editor.getOption(monaco.editor.EditorOption.folding) !== small) {
        editor.updateOptions({
          folding: small,
          matchBrackets: small ? 'always' : 'never',
          guides: { indentation: small, highlightActiveIndentation: small, bracketPairs: false },
          // Word-based suggestions copy the whole model to Monaco's worker; highlights rescan it.
          wordBasedSuggestions: small ? 'currentDocument' : 'off',
          occurrencesHighlight: small ? 'singleFile' : 'off',
          selectionHighlight: small,
        });
      }
      if (!small) e.model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
      editor.setModel(e.model);
      if (e.viewState) editor.restoreViewState(e.viewState);
      const p = editor.getPosition();
      useEditorUi.getState().setCursor(p ? { line: p.lineNumber, col: p.column } : null);
    };

    const refresh = () => {
      const ws = useWorkspace.getState();
      syncModels(ws.files);
      activate(ws.active);
      applyReveal();
    };

    refresh();
    applyMarkers(useAnalysis.getState().diagnostics);
    // A reveal applied before the cursor listener below (a link that opens at a line) moved the cursor.
    const startPos = editor.getPosition();
    if (startPos) useEditorUi.getState().setCursor({ line: startPos.lineNumber, col: startPos.column });

    const unsubWs = useWorkspace.subscribe((s, prev) => {
      if (s.files === prev.files && s.active === prev.active) return;
      const modelsBefore = entries.size;
      refresh();
      if (entries.size !== modelsBefore || s.files.length !== prev.files.length) applyMarkers(useAnalysis.getState().diagnostics);
    });
    // A large result's markers are worked out in a task of their own, after the panels have
    // shown it (the result's own task already reads and lays out the list).
    let markersTimer: ReturnType<typeof setTimeout> | undefined;
    const unsubDiag = useAnalysis.subscribe((s, prev) => {
      if (s.diagnostics === prev.diagnostics) return;
      if (markersTimer !== undefined) clearTimeout(markersTimer);
      markersTimer = undefined;
      if (s.diagnostics.length <= DEFER_MARKERS_ABOVE) return applyMarkers(s.diagnostics);
      markersTimer = setTimeout(() => {
        markersTimer = undefined;
        if (!disposed) applyMarkers(useAnalysis.getState().diagnostics);
      }, 0);
    });
    const unsubReveal = useEditorUi.subscribe((s, prev) => {
      if (s.reveal !== prev.reveal) {
        // The file may have been opened in the same tick; make sure it is the active model.
        refresh();
        applyReveal();
      }
    });

    const cursorSub = editor.onDidChangeCursorPosition((e) => {
      useEditorUi.getState().setCursor({ line: e.position.lineNumber, col: e.position.column });
    });
    const unsubTheme = onColorSchemeChange((dark) => monaco.editor.setTheme(themeFor(dark)));
    const menuActions = contextMenuActions(editor);
    // Ctrl+M (the app's command) switches Tab between indenting and moving focus.
    editor.updateOptions({ tabFocusMode: useUi.getState().tabFocusMode });
    const unsubUi = useUi.subscribe((st, prev) => {
      if (st.tabFocusMode !== prev.tabFocusMode) editor.updateOptions({ tabFocusMode: st.tabFocusMode });
    });
    registerEditorFocus(() => {
      if (!editor.getModel()) return false;
      editor.focus();
      return editor.hasTextFocus();
    });

    registerEditorDebug({
      position: () => {
        const p = editor.getPosition();
        return p ? { line: p.lineNumber, col: p.column } : null;
      },
      markers: (path) => {
        const p = path ?? current;
        const e = p ? entries.get(p) : undefined;
        if (!e) return [];
        return monaco.editor
          .getModelMarkers({ resource: e.model.uri })
          .filter((m) => m.owner.startsWith(MARKER_OWNER))
          .sort((a, b) => a.startLineNumber - b.startLineNumber || a.startColumn - b.startColumn)
          .map((m) => ({
            line: m.startLineNumber,
            col: m.startColumn,
            endLine: m.endLineNumber,
            endCol: m.endColumn,
            severity: m.severity === monaco.MarkerSeverity.Error ? 'Error' : m.severity === monaco.MarkerSeverity.Warning ? 'Warning' : 'Info',
            message: m.message,
          }));
      },
      value: (path) => {
        const p = path ?? current;
        return (p && entries.get(p)?.model.getValue()) ?? null;
      },
    });

    return () => {
      disposed = true;
      if (current) {
        const e = entries.get(current);
        if (e) e.viewState = editor.saveViewState();
      }
      registerEditorDebug(undefined);
      registerModelEditor(undefined);
      registerEditorFocus(undefined);
      menuActions.dispose();
      unsubUi();
      unsubWs();
      unsubDiag();
      unsubReveal();
      unsubTheme();
      unsubReadOnly();
      cursorSub.dispose();
      editor.setModel(null);
      editor.dispose();
    };
  }, []);

  return <div className="monaco-host" ref={host} data-testid="editor" />;
}
