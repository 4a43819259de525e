import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { exportYamlBundle, exportZip, importBundle, importYaml, ImportError } from '../../src/core/share/bundle.ts';

const files = [
  { path: 'a.yaml', text: 'kind: A\n---\nkind: B\n' },
  { path: 'dir/b.yaml', text: 'kind: C' },
  { path: 'empty.yaml', text: '' },
];

describe('workspace export and import', () => {
  it('a YAML bundle reads back as the same files (a missing final newline is added)', () => {
    const text = exportYamlBundle(files, 'w');
    expect(text).toContain('# mesh-workbench-file: "dir/b.yaml"');
    const back = importBundle('w.yaml', new TextEncoder().encode(text));
    expect(back).toEqual([files[0], { path: 'dir/b.yaml', text: 'kind: C\n' }, files[2]]);
  });

  it('a YAML file without markers is one file', () => {
    expect(importYaml('x.yaml', 'kind: A\n---\nkind: B\n')).toEqual([{ path: 'x.yaml', text: 'kind: A\n---\nkind: B\n' }]);
  });

  it('a zip reads back as the same files', () => {
    expect(importBundle('w.zip', exportZip(files))).toEqual(files);
  });

  it('refuses a zip bomb and a damaged zip with a message', () => {
    const big = zipSync({ 'z.yaml': new Uint8Array(70 * 1024 * 1024) }, { level: 9 });
    expect(big.length).toBeLessThan(1024 * 1024);
    expect(() => importBundle('bomb.zip', big)).toThrow(ImportError);
    const broken = exportZip(files).slice(0, 40);
    expect(() => importBundle('broken.zip', broken)).toThrow(/not a zip file that can be read/);
  });
});
