// Tests over the reference data in ../shared: run when it is there; otherwise skipped with
// the reason in the test's name (and failed under CI, where it must be present).
import { existsSync } from 'node:fs';
import { it } from 'vitest';

export function sharedTest(name: string, dir: string, body: (dir: string) => void): void {
  if (existsSync(dir)) {
    it(`${name} (${dir})`, () => body(dir));
  } else if (process.env.CI) {
    it(`${name} (${dir})`, () => {
      throw new Error(`${dir} is absent: CI runs with ../shared beside the checkout`);
    });
  } else {
    it.skip(`${name} — skipped: ${dir} is absent`, () => {});
  }
}
