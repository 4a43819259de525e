import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { boot } from '../state/boot.ts';
import { startEngine } from './engine.ts';
import { installDebugHook } from './debug.ts';
import { registerBuiltinCommands } from './commands/builtin.ts';
import { installKeybindings } from './commands/keys.ts';
import './app.css';

installDebugHook();
registerBuiltinCommands();
installKeybindings();
startEngine();
void boot();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
