// Temporary directories for one test file, removed after its tests. Importing this module
// registers the clean-up in the importing file (vitest evaluates it once per test file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const scratch: string[] = [];

afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temporary directory, named from `prefix`. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
