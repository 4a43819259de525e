// Saving a file to the user's disk: a Blob URL and an anchor with `download`. Nothing is
// sent anywhere; the browser writes the text it already holds.
export function downloadText(path: string, text: string): void {
  const name = path.slice(path.lastIndexOf('/') + 1) || 'workspace.yaml';
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
