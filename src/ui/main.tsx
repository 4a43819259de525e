import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { boot } from '../state/boot.ts';
import { startEngine } from './engine.ts';
import { installDebugHook } from './debug.ts';
import { registerBuiltinCommands } from './commands/builtin.ts';
import { installKeybindings } from './commands/keys.ts';
import { registerViewCommands } from './commands/viewCommands.ts';
import { followReveals } from '../state/views.ts';
import { useEditorUi } from '../state/analysis.ts';
import { useWorkspace } from '../state/workspace.ts';
import { startFirstResultsGate } from '../state/firstResults.ts';
import './app.css';
import './chrome.css';
import './sharing.css';
import './views.css';

installDebugHook();
registerBuiltinCommands();
registerViewCommands();
// Going to a line, or opening another file, shows the editor again over a full-size view.
followReveals((cb) => useEditorUi.subscribe((s, prev) => (s.reveal !== prev.reveal ? cb() : undefined)));
// (Only a change of the active file among the same files: loading a workspace keeps the view.)
followReveals((cb) => useWorkspace.subscribe((s, prev) => (s.active !== prev.active && prev.ready && s.files === prev.files ? cb() : undefined)));
installKeybindings();
startFirstResultsGate();
startEngine();
void boot();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
