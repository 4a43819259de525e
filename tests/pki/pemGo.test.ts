// PEM decoding and encoding (src/core/pki/pem.ts) against Go's encoding/pem. Every expected
// value in GO_DECODE was printed by a small Go 1.26 program (encoding/pem Decode, called once
// for `rest` and repeatedly for the block list) on exactly these inputs; the encodePem
// expectations follow pem.Encode (64-column lines, `-----END` on its own line, RFC 7468 §2).
import { describe, expect, it } from 'vitest';
import { decodePem, decodePemBundle, encodePem } from '../../src/core/pki/pem.ts';

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

type GoBlock = { type: string; headers: Record<string, string>; hex: string };
// [name, input, every block Decode finds in order, rest after the first Decode]
const GO_DECODE: [string, string, GoBlock[], string][] = [
  ['noFinalNewline', '-----BEGIN X-----\nQUJD\n-----END X-----', [{ type: 'X', headers: {}, hex: '414243' }], ''],
  ['restAfter', '-----BEGIN X-----\nQUJD\n-----END X-----\nrest text\n', [{ type: 'X', headers: {}, hex: '414243' }], 'rest text\n'],
  ['trailingWs', '-----BEGIN X----- \t \r\nQUJD\r\n-----END X-----  \t\r\nnext', [{ type: 'X', headers: {}, hex: '414243' }], 'next'],
  ['doubleCr', '-----BEGIN X-----\r\r\nQUJD\n-----END X-----\n', [], '-----BEGIN X-----\r\r\nQUJD\n-----END X-----\n'],
  ['leadingJunk', 'junk\n-----BEGIN X-----\nQUJD\n-----END X-----\n', [{ type: 'X', headers: {}, hex: '414243' }], ''],
  ['noDashesType', '-----BEGIN X\nQUJD\n-----END X-----\n-----BEGIN Y-----\nREVG\n-----END Y-----\n', [{ type: 'Y', headers: {}, hex: '444546' }], ''],
  ['truncHeaderNoNl', '-----BEGIN X-----\nProc-Type: 4,ENCRYPTED', [], '-----BEGIN X-----\nProc-Type: 4,ENCRYPTED'],
  ['truncHeaderNl', '-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n', [], '-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n'],
  ['colonFirst', '-----BEGIN X-----\n:empty\n\nQUJD\n-----END X-----\n', [{ type: 'X', headers: { '': 'empty' }, hex: '414243' }], ''],
  [
    'headerSpaces',
    '-----BEGIN X-----\n Proc-Type :  4,ENCRYPTED \n\nQUJD\n-----END X-----\n',
    [{ type: 'X', headers: { 'Proc-Type': '4,ENCRYPTED' }, hex: '414243' }],
    '',
  ],
  ['headerThenEnd', '-----BEGIN X-----\nA: b\n-----END X-----\n', [], '-----BEGIN X-----\nA: b\n-----END X-----\n'],
  [
    'junkAfterEnd',
    '-----BEGIN X-----\nQUJD\n-----END X----- junk\n-----BEGIN Y-----\nREVG\n-----END Y-----\n',
    [{ type: 'Y', headers: {}, hex: '444546' }],
    '',
  ],
  ['spacesInBody', '-----BEGIN X-----\nQU JD\n\tRE VG\n-----END X-----\n', [{ type: 'X', headers: {}, hex: '414243444546' }], ''],
  ['emptyBody', '-----BEGIN X-----\n-----END X-----\n', [{ type: 'X', headers: {}, hex: '' }], ''],
  ['badBase64First', '-----BEGIN X-----\nQUJ!\n-----END X-----\n-----BEGIN Y-----\nREVG\n-----END Y-----\n', [{ type: 'Y', headers: {}, hex: '444546' }], ''],
  ['endMismatch', '-----BEGIN X-----\nQUJD\n-----END Y-----\n', [], '-----BEGIN X-----\nQUJD\n-----END Y-----\n'],
  [
    'twoBlocksRest',
    '-----BEGIN A-----\nQUJD\n-----END A-----\n-----BEGIN B-----\nREVG\n-----END B-----\ntail',
    [
      { type: 'A', headers: {}, hex: '414243' },
      { type: 'B', headers: {}, hex: '444546' },
    ],
    '-----BEGIN B-----\nREVG\n-----END B-----\ntail',
  ],
  ['shortTrailer', '-----BEGIN LONGTYPE-----\nQUJD\n-----END LONG', [], '-----BEGIN LONGTYPE-----\nQUJD\n-----END LONG'],
  ['crAtEof', '-----BEGIN X-----\nQUJD\n-----END X-----\r', [], '-----BEGIN X-----\nQUJD\n-----END X-----\r'],
  ['crSpaceNl', '-----BEGIN X-----\r \nQUJD\n-----END X-----\n', [], '-----BEGIN X-----\r \nQUJD\n-----END X-----\n'],
  ['spaceCrNl', '-----BEGIN X----- \r\nQUJD\n-----END X-----\t\r\n', [{ type: 'X', headers: {}, hex: '414243' }], ''],
  ['crOnlyLines', '-----BEGIN X-----\rQUJD\r-----END X-----\r', [], '-----BEGIN X-----\rQUJD\r-----END X-----\r'],
  ['dashLineBeforeBegin', 'A-----\n-----BEGIN B:C-----\nQUJD\n-----END A-----\n', [], 'A-----\n-----BEGIN B:C-----\nQUJD\n-----END A-----\n'],
  ['typeLineNoDashes', '-----BEGIN ABCDEFGHIJ\nQUJD\n-----END ABCDE-----\n', [], '-----BEGIN ABCDEFGHIJ\nQUJD\n-----END ABCDE-----\n'],
  ['emptyTypeLine', '-----BEGIN \n-----BEGIN X-----\nQUJD\n-----END X-----\n', [{ type: 'X', headers: {}, hex: '414243' }], ''],
  ['midLineBegin', 'x-----BEGIN X-----\nQUJD\n-----END X-----\n', [], 'x-----BEGIN X-----\nQUJD\n-----END X-----\n'],
];

describe('decodePem / decodePemBundle agree with Go encoding/pem Decode', () => {
  it.each(GO_DECODE)('%s', (_name, input, blocks, rest) => {
    const got = decodePemBundle(input).map((b) => ({ type: b.type, headers: b.headers, hex: hexOf(b.bytes) }));
    expect(got).toEqual(blocks);
    const first = decodePem(input);
    expect(first.rest).toBe(rest);
    if (blocks.length) expect({ type: first.block!.type, headers: first.block!.headers, hex: hexOf(first.block!.bytes) }).toEqual(blocks[0]);
    else expect(first.block).toBeUndefined();
  });

  it('reads bytes as well as text (latin-1, one char per byte)', () => {
    const bytes = new TextEncoder().encode('-----BEGIN X-----\nQUJD\n-----END X-----\nrest');
    const r = decodePem(bytes);
    expect(r.block?.type).toBe('X');
    expect(r.rest).toBe('rest');
    expect(decodePemBundle(bytes).map((b) => b.type)).toEqual(['X']);
  });
});

describe('encodePem writes what Go pem.EncodeToMemory writes (printed by Go 1.26 for these bytes)', () => {
  const seq = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
  it.each([
    [0, '-----BEGIN T-----\n-----END T-----\n'],
    [3, '-----BEGIN T-----\nAAcO\n-----END T-----\n'],
    [48, '-----BEGIN T-----\nAAcOFRwjKjE4P0ZNVFtiaXB3foWMk5qhqK+2vcTL0tng5+71/AMKERgfJi00O0JJ\n-----END T-----\n'],
    [49, '-----BEGIN T-----\nAAcOFRwjKjE4P0ZNVFtiaXB3foWMk5qhqK+2vcTL0tng5+71/AMKERgfJi00O0JJ\nUA==\n-----END T-----\n'],
  ])('%i bytes', (n, pem) => {
    expect(encodePem('T', seq(n))).toBe(pem);
    expect(hexOf(decodePem(pem).block!.bytes)).toBe(hexOf(seq(n)));
  });
});
