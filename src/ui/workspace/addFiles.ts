// Uploaded or dropped files into the workspace. The reader (decoding) and the name-clash
// dialog load at the first upload or drop, not with the page.
export async function addFileList(list: readonly File[]): Promise<void> {
  const [{ readFiles }, { addFilesAsking }] = await Promise.all([import('./readFiles.ts'), import('./addFilesAsking.ts')]);
  addFilesAsking(await readFiles(list));
}
