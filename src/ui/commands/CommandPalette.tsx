// The command palette (F1 / Ctrl+Shift+P: the input starts with ">") and quick open (Ctrl+P:
// files). Both list the command registry: commands with their keybindings, or the
// `file.open` command's files. Escape closes it and focus goes back where it was; a command
// runs after focus is back, so it acts where the user was (the editor, for a quick fix).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useUi } from '../../state/ui.ts';
import { getCommand, itemLabel, itemSearchText, paletteItems, runCommand, useCommandRegistry, type CommandItem } from '../../state/commands.ts';
import { rememberFocus } from '../focus.ts';

const MAX_SHOWN = 100;

function matches(label: string, query: string): boolean {
  const l = label.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => l.includes(w));
}

export function CommandPalette() {
  const palette = useUi((s) => s.palette);
  if (!palette) return null;
  return <Palette key={palette.seq} initial={palette.mode === 'commands' ? '>' : ''} />;
}

function Palette({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const restore = useRef<(() => void) | null>(null);
  const version = useCommandRegistry((s) => s.version);
  if (restore.current === null) restore.current = rememberFocus();

  const commandsMode = value.startsWith('>');
  const query = commandsMode ? value.slice(1).trim() : value.trim();
  const all = useMemo<CommandItem[]>(() => {
    if (commandsMode) return paletteItems();
    const open = getCommand('file.open');
    return open ? (open.paletteArgs?.() ?? []).map((p) => ({ command: open, arg: p, title: String(p), preferred: false })) : [];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [commandsMode, version]);
  const shown = useMemo(() => {
    const out: CommandItem[] = [];
    for (const i of all) {
      if (!matches(commandsMode ? itemSearchText(i) : i.title, query)) continue;
      out.push(i);
      if (out.length >= MAX_SHOWN) break;
    }
    return out;
  }, [all, query, commandsMode]);
  const sel = Math.min(index, Math.max(0, shown.length - 1));

  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${sel}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [sel]);

  const close = (run?: CommandItem) => {
    useUi.getState().closePalette();
    // Focus goes back first, so the command acts where the user was.
    restore.current?.();
    if (run) void runCommand(run.command, run.arg);
  };

  return (
    <div
      className="palette-backdrop"
      data-transient-focus=""
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-label={commandsMode ? 'Command palette' : 'Go to file'} data-testid="command-palette">
        <input
          ref={input}
          className="text-input palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-autocomplete="list"
          aria-activedescendant={shown.length > 0 ? `palette-item-${sel}` : undefined}
          aria-label={commandsMode ? 'Type a command' : 'Type a file name (start with > for commands)'}
          placeholder={commandsMode ? 'Type a command' : 'Go to file (type > for commands)'}
          data-testid="palette-input"
          value={value}
          spellCheck={false}
          onChange={(e) => {
            setValue(e.target.value);
            setIndex(0);
          }}
          onBlur={(e) => {
            if (!e.currentTarget.closest('.palette')?.contains(e.relatedTarget as Node | null)) useUi.getState().closePalette();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close();
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              setIndex((sel + 1) % Math.max(1, shown.length));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setIndex((sel - 1 + shown.length) % Math.max(1, shown.length));
            } else if (e.key === 'PageDown' || e.key === 'PageUp') {
              e.preventDefault();
              setIndex(Math.max(0, Math.min(shown.length - 1, sel + (e.key === 'PageDown' ? 10 : -10))));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              const it = shown[sel];
              if (it) close(it);
            } else if (e.key === 'Tab') {
              e.preventDefault();
            }
          }}
        />
        <ul ref={list} id="palette-list" className="palette-list" role="listbox" aria-label={commandsMode ? 'Commands' : 'Files'}>
          {shown.map((it, i) => (
            <li
              key={`${it.command.id}|${i}`}
              id={`palette-item-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === sel}
              className={`palette-item${i === sel ? ' selected' : ''}`}
              data-testid="palette-item"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => close(it)}
              onMouseMove={() => i !== sel && setIndex(i)}
            >
              <span className="palette-text">
                <span className="palette-label">{commandsMode ? itemLabel(it) : it.title}</span>
                {commandsMode && it.detail && <span className="palette-detail">{it.detail}</span>}
              </span>
              {commandsMode && it.command.keybinding && <kbd className="menu-hint">{it.command.keybinding}</kbd>}
            </li>
          ))}
        </ul>
        {shown.length === 0 && <div className="palette-empty">{commandsMode ? 'No matching commands' : 'No matching files'}</div>}
      </div>
    </div>
  );
}
