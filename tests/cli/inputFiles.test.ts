// How the CLI reads and reports awkward input files: UTF-16, templates, deep nesting, large
// files, JSON that is really YAML.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.ts';
import { decodeFileBytes, detectEncoding, looksLikeMisreadUtf16 } from '../../src/core/document/encoding.ts';
import { LARGE_FILE_CHARS } from '../../src/core/document/workspaceModel.ts';

// The Service makes the host check run (without any Service it is skipped, as istioctl does).
const VS =
  'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\n  namespace: default\nspec:\n  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: reviews-typo\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\n  namespace: default\nspec:\n  ports: [{name: http, port: 9080}]\n';
const EXPECTED = 'Error [IST0101] (VirtualService default/reviews f.yaml:11) Referenced host not found: "reviews-typo"\n';

function dirWith(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mwb-cli-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function utf16(text: string, order: 'le' | 'be', bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  if (order === 'le') return le;
  const be = Buffer.from(le);
  for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1] as number, be[i] as number];
  return be;
}

describe('input files', () => {
  it('decodes UTF-16 files, with or without a byte-order mark, in either byte order', async () => {
    for (const [order, bom] of [
      ['le', true],
      ['be', true],
      ['le', false],
      ['be', false],
    ] as const) {
      const bytes = utf16(VS, order, bom);
      expect(detectEncoding(bytes)).toBe(`utf-16${order}`);
      expect(decodeFileBytes(bytes)).toBe(VS);
      const r = await cli(['analyze', 'f.yaml'], { cwd: dirWith({ 'f.yaml': bytes }) });
      expect(r.stdout, `${order} ${bom}`).toBe(EXPECTED);
      expect(r.code).toBe(79);
    }
    // UTF-8, with its BOM dropped; a stray NUL does not make UTF-8 look like UTF-16.
    expect(decodeFileBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('a');
    expect(detectEncoding(Buffer.from('a: 1\n\u0000b: 2\n'))).toBe('utf-8');
  });

  it('names UTF-16 text that reached the workspace undecoded, rather than calling it binary', async () => {
    const misread = Buffer.from(utf16(VS, 'le', true)).toString('latin1');
    expect(looksLikeMisreadUtf16(misread)).toBe(true);
    expect(looksLikeMisreadUtf16(VS)).toBe(false);
    const r = await cli(['analyze', '-'], { stdin: misread });
    expect(r.stderr).toMatch(/-:1:1: error: This file looks like UTF-16 text/);
    expect(r.stderr).not.toMatch(/binary/);
  });

  it('gives one error per document of a template, naming its first problem', async () => {
    const template =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n{{- include "labels" . | nindent 4 }}\nspec:\n  ports:\n  {{- range .Values.ports }}\n  - port: {{ .port }}\n  {{- end }}\n';
    const r = await cli(['analyze', 't.yaml'], { cwd: dirWith({ 't.yaml': `${template}---\n${template}---\n${VS}` }) });
    const errors = r.stderr.split('\n').filter((l) => l.includes('error:'));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^ {2}t\.yaml:6:\d+: error: YAML syntax error: .*template.*helm template/);
    expect(errors[1]).toMatch(/^ {2}t\.yaml:18:\d+: error: /);
    // The valid document of the file is still analyzed.
    expect(r.stdout).toContain('Referenced host not found: "reviews-typo"');
  });

  it('reports nesting beyond 100 levels in one clear line', async () => {
    const deep = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\ndata:\n  x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const r = await cli(['analyze', 'd.yaml'], { cwd: dirWith({ 'd.yaml': deep }) });
    expect(r.stderr).toMatch(/d\.yaml:6:\d+: error: Document is nested too deeply \(more than 100 levels/);
    expect(r.stderr).not.toMatch(/call stack/i);
    expect(r.code).toBe(65);
  });

  it('keeps notices about the editor out of the CLI, and nothing but errors under the error heading', async () => {
    let big = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: default\ndata:\n';
    const line = `  k: "${'x'.repeat(100)}"\n`;
    const lines: string[] = [];
    for (let i = 0; big.length + lines.length * line.length <= LARGE_FILE_CHARS; i++) lines.push(line.replace('k:', `k${i}:`));
    big += lines.join('');
    const r = await cli(['analyze', 'big.yaml'], { cwd: dirWith({ 'big.yaml': big }) });
    expect(r.stderr).not.toMatch(/Error\(s\) adding files/);
    expect(r.stderr).not.toMatch(/editor/);
    expect(r.stderr).toMatch(/No validation issues found/);
    expect(r.code).toBe(0);
    const sarif = await cli(['analyze', '-o', 'sarif', 'big.yaml'], { cwd: dirWith({ 'big.yaml': big }) });
    expect(sarif.stdout).not.toMatch(/editor/);
  });

  it('reads .json files as YAML, with a byte-order mark or in flow style', async () => {
    const dir = dirWith({
      'a.json': `\ufeff${JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } })}`,
      'b.json': '{apiVersion: v1, kind: Namespace, metadata: {name: b}}\n',
    });
    const r = await cli(['analyze', 'a.json', 'b.json'], { cwd: dir });
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
  });
});
