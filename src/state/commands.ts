// The command registry: every user action is one object (id, title, keybinding, when it
// applies, what it performs). The command palette (F1 / Ctrl+Shift+P), quick open (Ctrl+P),
// the Problems row menus, the file context menu, the editor's context menu and its quick
// fixes (lightbulb, Ctrl+.) all list commands from here, so an action is defined once.
//
// A panel adds its actions with one call:
//   registerCommands({ id: 'certs.refresh', title: 'Refresh certificates', category: 'Certificates', perform: () => … });
// Commands that act on something (a diagnostic, a file) take an argument: `targets` says
// which arguments a command offers for a diagnostic or a file, and `paletteArgs` which ones
// the palette lists.
//
// Review mode: a command that changes the workspace (`mutates`) is not offered while a shared
// link is open read-only (menus, the palette, the lightbulb), and running it anyway (a key,
// a stale menu) does nothing but say why. The workspace store refuses such changes too.
import { create } from 'zustand';
import type { Diagnostic } from '../core/document/types.ts';
import { isReadOnly, refuseWhenReadOnly } from './workspace.ts';

/** Where a command shows up besides the palette. */
export type CommandMenu = 'problem.fix' | 'problem.suppress' | 'file' | 'editor';

export interface Command<A = unknown> {
  id: string;
  /** Shown in the palette and in menus; may depend on the argument. */
  title: string | ((arg: A) => string);
  /** A second line in the palette (e.g. the problem a fix is for); searched too. */
  detail?: (arg: A) => string;
  /** Palette prefix, e.g. "File", "View", "Problems". */
  category?: string;
  /** Display form, e.g. "Ctrl+Shift+P", "F6", "Shift+F6"; the app's key handler matches it. */
  keybinding?: string;
  /** Let the focused control keep this key (e.g. Ctrl+M in an input); default: the app takes it. */
  keybindingWhen?: (e: KeyboardEvent) => boolean;
  /** Whether the command applies now (to this argument). Default: always. */
  when?: (arg: A) => boolean;
  /**
   * The command changes the workspace (a file's text, the files, the analysis settings): it is
   * not offered while a shared link is open read-only, and refuses to run then.
   */
  mutates?: boolean;
  perform(arg: A): unknown;
  /** Menus the command appears in. */
  menus?: readonly CommandMenu[];
  /** Arguments the command offers for a diagnostic (problem menus, code actions). */
  forDiagnostic?: (d: Diagnostic) => A[];
  /** Arguments the command offers for a file path (file context menu). */
  forFile?: (path: string) => A[];
  /** Arguments listed in the palette; without it the palette lists the command once, with no argument. */
  paletteArgs?: () => A[];
  /** Kept out of the palette (menu-only commands). */
  hidden?: boolean;
  /** Marks the preferred entry of a menu (bold; first). */
  preferred?: (arg: A) => boolean;
  /** Order inside menus (lower first). */
  order?: number;
}

/** One runnable entry: a command with its argument bound. */
export interface CommandItem {
  command: Command<unknown>;
  arg: unknown;
  title: string;
  detail?: string;
  preferred: boolean;
}

const registry = new Map<string, Command<unknown>>();

/** Bumped on every (un)registration, so menus and the palette re-read the registry. */
export const useCommandRegistry = create<{ version: number }>()(() => ({ version: 0 }));

/** Registers commands (replacing any with the same id); returns a function that removes them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own argument type
// biome-ignore lint/suspicious/noExplicitAny: commands of different argument types share one registry
export function registerCommands(...commands: Command<any>[]): () => void {
  for (const c of commands) registry.set(c.id, c as unknown as Command<unknown>);
  useCommandRegistry.setState((s) => ({ version: s.version + 1 }));
  return () => {
    for (const c of commands) if (registry.get(c.id) === (c as unknown)) registry.delete(c.id);
    useCommandRegistry.setState((s) => ({ version: s.version + 1 }));
  };
}

export function getCommand(id: string): Command<unknown> | undefined {
  return registry.get(id);
}

export function allCommands(): Command<unknown>[] {
  return [...registry.values()];
}

export function commandTitle(c: Command<unknown>, arg: unknown): string {
  return typeof c.title === 'function' ? c.title(arg) : c.title;
}

function whenHolds(c: Command<unknown>, arg: unknown): boolean {
  try {
    return c.when ? c.when(arg) : true;
  } catch {
    return false;
  }
}

/** Whether a command is blocked because it would change a shared link's read-only workspace. */
export function blockedByReadOnly(c: Command<unknown>): boolean {
  return c.mutates === true && isReadOnly();
}

function applies(c: Command<unknown>, arg: unknown): boolean {
  return !blockedByReadOnly(c) && whenHolds(c, arg);
}

function item(c: Command<unknown>, arg: unknown): CommandItem {
  const detail = c.detail?.(arg);
  return { command: c, arg, title: commandTitle(c, arg), ...(detail ? { detail } : {}), preferred: c.preferred?.(arg) ?? false };
}

function byOrder(a: Command<unknown>, b: Command<unknown>): number {
  return (a.order ?? 100) - (b.order ?? 100);
}

/** What a menu offers for a diagnostic or a file (preferred entries first). */
export function menuItems(menu: CommandMenu, target?: Diagnostic | string): CommandItem[] {
  const out: CommandItem[] = [];
  for (const c of allCommands()
    .filter((x) => x.menus?.includes(menu))
    .sort(byOrder)) {
    let args: unknown[];
    if (typeof target === 'string') args = c.forFile ? c.forFile(target) : [target];
    else if (target) args = c.forDiagnostic ? c.forDiagnostic(target) : [target];
    else args = [undefined];
    for (const a of args) if (applies(c, a)) out.push(item(c, a));
  }
  return out.sort((a, b) => Number(b.preferred) - Number(a.preferred));
}

/** Everything the palette lists right now. */
export function paletteItems(): CommandItem[] {
  const out: CommandItem[] = [];
  for (const c of allCommands()) {
    if (c.hidden) continue;
    const args = c.paletteArgs ? c.paletteArgs() : [undefined];
    for (const a of args) if (applies(c, a)) out.push(item(c, a));
  }
  return out;
}

/** Runs a command; errors become a console error, never a crash. */
export async function runCommand(id: string | Command<unknown>, arg?: unknown): Promise<unknown> {
  const c = typeof id === 'string' ? registry.get(id) : id;
  if (!c) return undefined;
  if (c.mutates && refuseWhenReadOnly()) return undefined;
  try {
    return await c.perform(arg);
  } catch (e) {
    console.error(`Command ${c.id} failed`, e);
    return undefined;
  }
}

/** The item's palette label: category, title. */
export function itemLabel(i: CommandItem): string {
  return i.command.category ? `${i.command.category}: ${i.title}` : i.title;
}

/** What the palette searches: the label and the detail. */
export function itemSearchText(i: CommandItem): string {
  return i.detail ? `${itemLabel(i)} ${i.detail}` : itemLabel(i);
}

// ---------- keybindings ----------

interface ParsedKey {
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  key: string;
}

function parseKeybinding(k: string): ParsedKey {
  const parts = k.split('+').map((p) => p.trim());
  const key = (parts.pop() ?? '').toLowerCase();
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  return { ctrl: mods.has('ctrl') || mods.has('cmd'), shift: mods.has('shift'), alt: mods.has('alt'), key };
}

function eventKey(e: KeyboardEvent): string {
  // Letters and digits by their physical key, so Shift and keyboard layouts do not change them.
  if (/^Key[A-Z]$/.test(e.code)) return e.code.slice(3).toLowerCase();
  if (/^Digit\d$/.test(e.code)) return e.code.slice(5);
  return e.key.toLowerCase();
}

/** Whether a keyboard event matches a keybinding such as "Ctrl+Shift+P" (Ctrl is Cmd on macOS). */
export function matchesKeybinding(e: KeyboardEvent, keybinding: string): boolean {
  return keybinding.split(/\s*\/\s*/).some((alt) => {
    const p = parseKeybinding(alt);
    return eventKey(e) === p.key && (e.ctrlKey || e.metaKey) === p.ctrl && e.shiftKey === p.shift && e.altKey === p.alt;
  });
}

/** The command bound to a key event, if any applies. */
export function commandForKey(e: KeyboardEvent): Command<unknown> | undefined {
  for (const c of registry.values()) {
    if (!c.keybinding || !matchesKeybinding(e, c.keybinding)) continue;
    if (c.keybindingWhen && !c.keybindingWhen(e)) continue;
    if (!whenHolds(c, undefined)) continue;
    // A command blocked by review mode still takes its key: running it says why nothing happens.
    return c;
  }
  return undefined;
}
