// The app's keyboard shortcuts: a key that matches a registered command's keybinding runs
// it, before the focused control (Monaco included) sees the key. Browser defaults such as
// Ctrl+S ("Save page") and Ctrl+P ("Print") are replaced by the workbench's commands.
import { commandForKey, runCommand } from '../../state/commands.ts';

let installed = false;

export function installKeybindings(): void {
  if (installed) return;
  installed = true;
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.defaultPrevented || e.isComposing) return;
      // A modal dialog (a question, Share) has the keyboard: no command runs behind it.
      if (document.querySelector('dialog:modal')) return;
      const c = commandForKey(e);
      if (!c) return;
      e.preventDefault();
      e.stopPropagation();
      void runCommand(c);
    },
    true,
  );
}
