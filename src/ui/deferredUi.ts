// The parts of the page the first diagnostics do not need: the inspector and its summaries,
// the titlebar's workspace and sample menus, the command palette's window,
// popup menus and the views' panels. One chunk, loaded by deferred.ts once the first results
// are in.
export { Inspector } from './inspector/Inspector.tsx';
export { WorkspaceSwitcher } from './workspaces/WorkspaceSwitcher.tsx';
export { SamplesMenu } from './workspace/SamplesMenu.tsx';
export { CommandPalette } from './commands/CommandPalette.tsx';
export { Menu } from './common/Menu.tsx';
export { ViewPanel } from './views/ViewHost.tsx';
