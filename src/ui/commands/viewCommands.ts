// Commands that open the capability views in the main area (palette: "View: …"), close the
// one on screen, and split it beside the file.
import { registerCommands, type Command } from '../../state/commands.ts';
import { useViews, VIEW_IDS, VIEW_TITLES } from '../../state/views.ts';

export function registerViewCommands(): () => void {
  const open: Command[] = VIEW_IDS.map((id) => ({
    id: `view.open.${id}`,
    category: 'View',
    title: `Open ${VIEW_TITLES[id]}`,
    perform: () => useViews.getState().openView(id),
  }));
  return registerCommands(
    ...open,
    {
      id: 'view.split',
      category: 'View',
      title: 'Split the view beside the file',
      when: () => useViews.getState().active !== null && !useViews.getState().split,
      perform: () => useViews.getState().setSplit(true),
    },
    {
      id: 'view.unsplit',
      category: 'View',
      title: 'Show the view over the editor',
      when: () => useViews.getState().active !== null && useViews.getState().split,
      perform: () => useViews.getState().setSplit(false),
    },
    {
      id: 'view.close',
      category: 'View',
      title: 'Close the view',
      when: () => useViews.getState().active !== null,
      perform: () => {
        const a = useViews.getState().active;
        if (a) useViews.getState().closeView(a);
      },
    },
  );
}
