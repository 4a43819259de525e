// A menu's entries, apart from the Menu component (Menu.tsx): the Problems rows build their
// entries with the page, the component loads after the first results (ui/deferred.ts).
import type { CommandItem } from '../../state/commands.ts';
import { runCommand } from '../../state/commands.ts';

export interface MenuItem {
  label: string;
  testId: string;
  preferred?: boolean;
  /** Keybinding shown on the right. */
  hint?: string;
  /** A second, quieter line. */
  description?: string;
  onSelect(): void;
}

/** Menu entries for registry items (Problems row menus, file context menu). */
export function commandMenuItems(items: CommandItem[], testId: (i: CommandItem) => string): MenuItem[] {
  return items.map((i) => ({
    label: i.title,
    testId: testId(i),
    preferred: i.preferred,
    ...(i.command.keybinding ? { hint: i.command.keybinding } : {}),
    onSelect: () => void runCommand(i.command, i.arg),
  }));
}
