// base64.ts against Go's encoding/base64 StdEncoding, and spiffe.ts against Go's net/url and
// Istio's spiffe.ParseIdentity. Every expected value was printed by a small Go 1.26 program
// (base64.StdEncoding.DecodeString / EncodeToString on the same bytes, url.Parse(u).Host);
// non-ASCII characters are single latin-1 bytes there, as decodeBase64Std sees a string.
import { describe, expect, it } from 'vitest';
import { decodeBase64Std, encodeBase64Std, bytesToLatin1 } from '../../src/core/pki/base64.ts';
import { parseSpiffeUri, spiffeHost } from '../../src/core/pki/spiffe.ts';

const hexOf = (b: Uint8Array | undefined): string | undefined => (b ? Buffer.from(b).toString('hex') : undefined);

describe('decodeBase64Std = Go base64.StdEncoding.DecodeString', () => {
  it.each([
    ['QUJD\r\nREVG', '414243444546'],
    ['QUJD\rREVG', '414243444546'],
    ['\r\n', ''],
    ['QUJDRA==', '41424344'],
    ['QUJDREU=', '4142434445'],
    ['QQ==QUJD', undefined],
    ['QUJ\u0080', undefined],
    ['QUJ\u00e9', undefined],
    ['QUJDR', undefined],
    ['QUJDRQ=', undefined],
  ])('%j', (input, hex) => {
    expect(hexOf(decodeBase64Std(input))).toBe(hex);
  });
});

describe('encodeBase64Std = Go base64.StdEncoding.EncodeToString', () => {
  it.each([
    [1, '8A=='],
    [2, '8PE='],
    [3, '8PHy'],
    [4, '8PHy8w=='],
    [5, '8PHy8/Q='],
  ])('%i bytes f0 f1 …', (n, text) => {
    expect(encodeBase64Std(Uint8Array.from({ length: n }, (_, i) => 0xf0 + i))).toBe(text);
  });

  it('bytesToLatin1 maps each byte to one character, across its internal chunks', () => {
    const bytes = Uint8Array.from({ length: 0x2000 * 2 + 3 }, (_, i) => i & 0xff);
    const s = bytesToLatin1(bytes);
    expect(s.length).toBe(bytes.length);
    expect(Buffer.from(s, 'latin1').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('spiffeHost = Go url.Parse(u).Host', () => {
  it.each([
    ['spiffe://td', 'td'],
    ['spiffe://td/ns/a/sa/b', 'td'],
    ['spiffe:///x', ''],
    ['spiffe://@host/x', 'host'],
    ['spiffe://u@host', 'host'],
    ['spiffe://a@b@c/x', 'c'],
    ['spiffe://td?q', 'td'],
    ['spiffe://td#f', 'td'],
  ])('%s', (uri, host) => {
    expect(spiffeHost(uri)).toBe(host);
  });
});

describe('parseSpiffeUri (Istio spiffe.ParseIdentity: no spiffe:// prefix is not an identity)', () => {
  it("a URI without the prefix has no trust domain and is not Istio's format", () => {
    expect(parseSpiffeUri('https://td/ns/a/sa/b')).toEqual({ uri: 'https://td/ns/a/sa/b', istioIdentityFormat: false, trustDomain: '' });
  });
});
