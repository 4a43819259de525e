// The Monaco subset we use, loaded lazily (this module is only reached via dynamic import).
// Subpath imports keep the chunk small: the editor API, YAML highlighting, and the few
// contributions a person expects (hover for markers, quick fixes, find/replace, clipboard, folding…).
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/editor/browser/coreCommands';
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution';
import 'monaco-editor/editor/contrib/find/browser/findController';
import 'monaco-editor/editor/contrib/clipboard/browser/clipboard';
import 'monaco-editor/editor/contrib/folding/browser/folding';
import 'monaco-editor/editor/contrib/gotoError/browser/gotoError';
import 'monaco-editor/editor/contrib/bracketMatching/browser/bracketMatching';
import 'monaco-editor/editor/contrib/comment/browser/comment';
import 'monaco-editor/editor/contrib/linesOperations/browser/linesOperations';
import 'monaco-editor/editor/contrib/multicursor/browser/multicursor';
import 'monaco-editor/editor/contrib/wordOperations/browser/wordOperations';
import 'monaco-editor/editor/contrib/contextmenu/browser/contextmenu';
// Quick fixes: the lightbulb, Ctrl+. and the "Quick Fix…" link in marker hovers.
import 'monaco-editor/editor/contrib/codeAction/browser/codeActionContributions';
// "This is a shared link, read-only…" where someone types into a read-only editor (the editor's readOnlyMessage).
import 'monaco-editor/editor/contrib/readOnlyMessage/browser/contribution';
// Go to line (Ctrl+G), on Monaco's quick input.
import 'monaco-editor/editor/standalone/browser/quickAccess/standaloneGotoLineQuickAccess';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };
