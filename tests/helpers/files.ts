// YAML files under a folder, for tests that run over every document we have.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}
