// PEM blocks as src/core/pki/input.ts reports them (certs spec §1.2 row E): every block is
// scanned, and a block Go's encoding/pem Decode would not return is named with its index,
// its offset in the value and its 1-based line. What Go skips follows pem.go Decode: a
// block whose END label differs (the trailer check), one whose END line is not at the start
// of a line (it searches for "\n-----END "), one whose BEGIN is not at the start of a line,
// one with no END at all, one whose body is not StdEncoding base64. Lines and offsets are
// those of the texts built here; certificates come from pkiBuilder.ts.
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type Problem, type Value } from '../../src/core/pki/input.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { leaf, root } from './pkiBuilder.ts';
import { pem } from './istioFixtures.ts';

const ca = await root({ subject: 'CN=PEM Root' });
const server = await leaf(ca);
const caPem = pem(ca);
const serverPem = pem(server);

/** Three comment lines before the blocks, as `openssl x509 -text` or a shell prompt leaves. */
const PREAMBLE = '# exported from the cluster\n# by hand\n# on 2026-06-01\n';

function onlyValue(d: Decoded): Value {
  expect(d.values).toHaveLength(1);
  return d.values[0]!;
}

const decodeText = (text: string): Value => onlyValue(decodeInputs([{ name: 'bundle.pem', text }]));

/** 1-based line of a character offset in a text (what an editor shows). */
const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/** [severity, block, offset] of every problem. */
const where = (problems: Problem[]) => problems.map((p) => [p.severity, p.block, p.offset]);

/** The problem names the line as a number of its own (not a prefix of a longer one). */
const namesLine = (p: Problem, line: number): boolean => new RegExp(`\\bline ${line}\\b`).test(p.message);

describe('well-formed bundles', () => {
  it('two certificates: two blocks, each with its index, offset and label, and no problem', () => {
    const text = `${caPem}${serverPem}`;
    const v = decodeText(text);
    expect(v.artefacts.map((a) => [a.kind, a.block, a.offset, a.pemType])).toEqual([
      ['certificate', 0, 0, 'CERTIFICATE'],
      ['certificate', 1, caPem.length, 'CERTIFICATE'],
    ]);
    expect(v.problems).toEqual([]);
  });

  it('a BOM before the first block is stripped (spec §1.1), so the block starts at offset 0', () => {
    const v = decodeText(`\ufeff${caPem}`);
    expect(v.artefacts.map((a) => [a.block, a.offset])).toEqual([[0, 0]]);
    expect(v.problems).toEqual([]);
  });
});

describe('blocks Go skips, named by block, offset and line', () => {
  it('a block with no END line (truncated) is an error and gives no certificate', () => {
    const truncated = caPem.replace(/-----END CERTIFICATE-----\n$/, '');
    const text = `${PREAMBLE}${truncated}`;
    const offset = PREAMBLE.length;
    const v = decodeText(text);
    expect(v.artefacts).toEqual([]);
    expect(where(v.problems)).toEqual([['error', 0, offset]]);
    expect(lineAt(text, offset)).toBe(4);
    expect(namesLine(v.problems[0]!, 4)).toBe(true);
  });

  it('a block whose END label differs is one error for that block, and Go skips it (no certificate)', () => {
    const mismatched = serverPem.replace('-----END CERTIFICATE-----', '-----END X509 CERTIFICATE-----');
    const text = `${caPem}${PREAMBLE}${mismatched}`;
    const offset = caPem.length + PREAMBLE.length;
    const v = decodeText(text);
    expect(v.artefacts.map((a) => [a.kind, a.block])).toEqual([['certificate', 0]]);
    expect(where(v.problems)).toEqual([['error', 1, offset]]);
    expect(namesLine(v.problems[0]!, lineAt(text, offset))).toBe(true);
  });

  it('a body that is not valid base64 is an error naming the block line', () => {
    const lines = caPem.split('\n');
    lines[2] = `*${lines[2]!.slice(1)}`;
    const text = `${PREAMBLE}${lines.join('\n')}`;
    const v = decodeText(text);
    expect(v.artefacts).toEqual([]);
    expect(where(v.problems)).toEqual([['error', 0, PREAMBLE.length]]);
    expect(namesLine(v.problems[0]!, 4)).toBe(true);
  });

  it('indented markers are a warning (Go does not see the block)', () => {
    const indented = caPem
      .split('\n')
      .map((l) => (l ? `    ${l}` : l))
      .join('\n');
    const v = decodeText(indented);
    expect(where(v.problems)).toEqual([['warning', 0, 4]]);
  });

  it('an END line that is indented makes Go skip the block: a warning for that block only', () => {
    const indentedEnd = serverPem.replace('-----END CERTIFICATE-----', '  -----END CERTIFICATE-----');
    const text = `${caPem}${PREAMBLE}${indentedEnd}`;
    const offset = caPem.length + PREAMBLE.length;
    const v = decodeText(text);
    expect(where(v.problems)).toEqual([['warning', 1, offset]]);
    expect(v.problems[0]!.message).not.toBe('');
    expect(namesLine(v.problems[0]!, lineAt(text, offset))).toBe(true);
  });

  it('the skipped block is the one named even when the next block holds the same bytes under another label', () => {
    // Go returns only block 1 (X509 CERTIFICATE); block 0 has the same body but is the one skipped.
    const first = caPem.replace('-----END CERTIFICATE-----', ' -----END CERTIFICATE-----');
    const second = encodePem('X509 CERTIFICATE', ca.der);
    const v = decodeText(`${first}${second}`);
    // Block 1 has its own warning: Go's trust pools and key pairs take only "CERTIFICATE" blocks.
    expect(where(v.problems)).toEqual([
      ['warning', 0, 0],
      ['warning', 1, first.length],
    ]);
    expect(v.artefacts.map((a) => [a.kind, a.block, a.pemType])).toEqual([
      ['certificate', 0, 'CERTIFICATE'],
      ['certificate', 1, 'X509 CERTIFICATE'],
    ]);
  });

  it('a BEGIN marker that is not at the start of a line gives no block: an error, and nothing read', () => {
    const body = caPem.split('\n').slice(1).join('\n');
    const v = decodeText(`note: -----BEGIN CERTIFICATE-----\n${body}`);
    expect(v.encoding).toBe('pem');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
    expect(v.problems[0]!.message).not.toBe('');
  });
});
