// encoding/base64's StdEncoding decoding errors (go/base64.ts). Expected texts are Go 1.26's
// base64.StdEncoding.DecodeString(v) errors.
import { describe, expect, it } from 'vitest';
import { goBase64Error } from '../../src/core/go/base64.ts';

describe('base64.StdEncoding.DecodeString (go/base64.ts)', () => {
  const cases: Array<[string, string | undefined]> = [
    ['', undefined],
    ['aGVsbG8=', undefined],
    ['aGVsbG8', 'illegal base64 data at input byte 4'],
    ['aGVs\nbG8=', undefined],
    ['aGVsbG8==', 'illegal base64 data at input byte 8'],
    ['a', 'illegal base64 data at input byte 0'],
    ['ab', 'illegal base64 data at input byte 0'],
    ['abc', 'illegal base64 data at input byte 0'],
    ['ab==', undefined],
    ['ab=', 'illegal base64 data at input byte 3'],
    ['a===', 'illegal base64 data at input byte 1'],
    ['ab=c', 'illegal base64 data at input byte 2'],
    ['ab==x', 'illegal base64 data at input byte 4'],
    ['aGVs*G8=', 'illegal base64 data at input byte 4'],
    ['aé==', 'illegal base64 data at input byte 1'],
    ['YQ==\r\n', undefined],
    ['Y\nQ\n=\n=', undefined],
  ];
  it.each(cases)('%j', (value, err) => {
    expect(goBase64Error(value)).toBe(err);
  });
});
