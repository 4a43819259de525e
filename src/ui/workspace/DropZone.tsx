// Drag files from the desktop anywhere onto the window to add them to the workspace. On a
// shared link (read-only) a drop adds nothing and says why; the browser does not open the
// dropped file in place of the link either.
import { useEffect, useState } from 'react';
import { addFileList } from './addFiles.ts';
import { isReadOnly, refuseWhenReadOnly } from '../../state/workspace.ts';

function hasFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

export function DropZone() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (isReadOnly()) return;
      depth++;
      setOver(true);
    };
    const overH = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      // Also on a shared link: the drop then says why nothing was added.
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      if (refuseWhenReadOnly()) return;
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) return;
      void addFileList(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overH);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overH);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-card">Drop YAML or JSON files to add them to the workspace</div>
    </div>
  );
}
