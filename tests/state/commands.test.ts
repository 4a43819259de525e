// The command registry: one registration call per panel, menus and the palette listing the
// same commands, keybindings matched from keyboard events, and errors kept inside a command.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allCommands,
  commandForKey,
  getCommand,
  itemLabel,
  matchesKeybinding,
  menuItems,
  paletteItems,
  registerCommands,
  runCommand,
  useCommandRegistry,
  type Command,
} from '../../src/state/commands.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';

function key(init: Partial<KeyboardEvent> & { key: string; code?: string }): KeyboardEvent {
  return { ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, code: '', ...init } as KeyboardEvent;
}

const diag = (over: Partial<Diagnostic> = {}): Diagnostic =>
  ({
    level: 'Error',
    code: 'IST0101',
    message: 'Referenced host not found: "reviews2"',
    source: 'analyzer',
    file: 'a.yaml',
    line: 3,
    origin: 'VirtualService ns/vs',
    ...over,
  }) as Diagnostic;

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

describe('command registry', () => {
  it("registers and removes a panel's commands with one call, and bumps the version", () => {
    const before = useCommandRegistry.getState().version;
    const off = registerCommands({ id: 't.one', title: 'One', perform: () => 1 }, { id: 't.two', title: 'Two', perform: () => 2 });
    expect(getCommand('t.one')?.title).toBe('One');
    expect(useCommandRegistry.getState().version).toBeGreaterThan(before);
    off();
    expect(getCommand('t.one')).toBeUndefined();
    expect(getCommand('t.two')).toBeUndefined();
  });

  it('lists a diagnostic command once per argument in its menu, preferred entries first, and honours when', () => {
    const fixes: Command<{ title: string; preferred: boolean }> = {
      id: 't.fix',
      title: (a) => a.title,
      menus: ['problem.fix'],
      forDiagnostic: () => [
        { title: 'second', preferred: false },
        { title: 'first', preferred: true },
      ],
      preferred: (a) => a.preferred,
      perform: () => undefined,
    };
    const suppress: Command<Diagnostic> = {
      id: 't.sup',
      title: (d) => `Suppress ${d.code}`,
      menus: ['problem.suppress'],
      when: (d) => !!d.origin,
      perform: () => undefined,
    };
    cleanup.push(registerCommands(fixes, suppress));
    expect(menuItems('problem.fix', diag()).map((i) => i.title)).toEqual(['first', 'second']);
    expect(menuItems('problem.suppress', diag()).map((i) => i.title)).toEqual(['Suppress IST0101']);
    expect(menuItems('problem.suppress', diag({ origin: undefined }))).toEqual([]);
  });

  it('the palette lists commands with their category, per palette argument, and skips hidden ones', () => {
    cleanup.push(
      registerCommands(
        { id: 't.view', category: 'View', title: 'Focus things', perform: () => undefined },
        { id: 't.hidden', title: 'Secret', hidden: true, perform: () => undefined },
        { id: 't.files', category: 'File', title: (p: string) => `Download ${p}`, paletteArgs: () => ['a.yaml', 'b.yaml'], perform: () => undefined },
        { id: 't.never', title: 'Never', when: () => false, perform: () => undefined },
      ),
    );
    const labels = paletteItems().map(itemLabel);
    expect(labels).toContain('View: Focus things');
    expect(labels).toContain('File: Download a.yaml');
    expect(labels).toContain('File: Download b.yaml');
    expect(labels).not.toContain('Secret');
    expect(labels).not.toContain('Never');
    expect(allCommands().some((c) => c.id === 't.hidden')).toBe(true);
  });

  it('matches keybindings by physical key, with Ctrl or Cmd, and alternatives', () => {
    expect(matchesKeybinding(key({ key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true }), 'Ctrl+Shift+P')).toBe(true);
    expect(matchesKeybinding(key({ key: 'p', code: 'KeyP', metaKey: true, shiftKey: true }), 'Ctrl+Shift+P')).toBe(true);
    expect(matchesKeybinding(key({ key: 'p', code: 'KeyP', ctrlKey: true }), 'Ctrl+Shift+P')).toBe(false);
    expect(matchesKeybinding(key({ key: 'F1', code: 'F1' }), 'F1 / Ctrl+Shift+P')).toBe(true);
    expect(matchesKeybinding(key({ key: 'F6', code: 'F6', shiftKey: true }), 'F6')).toBe(false);
    expect(matchesKeybinding(key({ key: 'F6', code: 'F6', shiftKey: true }), 'Shift+F6')).toBe(true);
    // A layout where KeyM types another letter still matches Ctrl+M by position.
    expect(matchesKeybinding(key({ key: ',', code: 'KeyM', ctrlKey: true }), 'Ctrl+M')).toBe(true);
  });

  it('finds the command for a key event, unless it does not apply', () => {
    let enabled = true;
    cleanup.push(registerCommands({ id: 't.key', title: 'Key', keybinding: 'Alt+F9', when: () => enabled, perform: () => undefined }));
    expect(commandForKey(key({ key: 'F9', code: 'F9', altKey: true }))?.id).toBe('t.key');
    enabled = false;
    expect(commandForKey(key({ key: 'F9', code: 'F9', altKey: true }))).toBeUndefined();
  });

  it('runs a command with its argument; a failing command is logged, not thrown', async () => {
    const seen: unknown[] = [];
    cleanup.push(
      registerCommands(
        { id: 't.run', title: 'Run', perform: (a: unknown) => seen.push(a) },
        {
          id: 't.fail',
          title: 'Fail',
          perform: () => {
            throw new Error('boom');
          },
        },
      ),
    );
    await runCommand('t.run', 42);
    expect(seen).toEqual([42]);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(runCommand('t.fail')).resolves.toBeUndefined();
    expect(err).toHaveBeenCalled();
    err.mockRestore();
    await expect(runCommand('t.missing')).resolves.toBeUndefined();
  });
});
