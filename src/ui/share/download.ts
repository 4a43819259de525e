// Saving a file to the person's disk: a Blob and a temporary link (nothing leaves the page).
export function downloadBlob(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name.split('/').pop() || 'download';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type = 'application/yaml'): void {
  downloadBlob(name, new Blob([text], { type: `${type};charset=utf-8` }));
}
