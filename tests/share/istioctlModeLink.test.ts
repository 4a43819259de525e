// The share link carries the "istioctl file mode" setting as settings.istioctlMode, written only
// when it is on: a link made with the mode off is byte for byte the link of before, and a link
// without the key opens with the mode off.
import { describe, expect, it } from 'vitest';
import { decodeShareBytes, encodeShareBytes, encodeShareBytesWithRawMeta, type ShareState } from '../../src/core/share/link.ts';

const FILES = [{ path: 'a.yaml', text: 'kind: X\n' }];

describe('share link: settings.istioctlMode', () => {
  it('is carried when on', () => {
    const state: ShareState = { files: FILES, settings: { includePlaceholders: true, suppressions: [], istioctlMode: true } };
    expect(decodeShareBytes(encodeShareBytes(state)).settings).toStrictEqual({ includePlaceholders: true, suppressions: [], istioctlMode: true });
  });

  it('is left out when off, so the link is the one an older version made', () => {
    const off = encodeShareBytes({ files: FILES, settings: { includePlaceholders: true, suppressions: [], istioctlMode: false } });
    const before = encodeShareBytes({ files: FILES, settings: { includePlaceholders: true, suppressions: [] } });
    expect(off).toStrictEqual(before);
    expect(decodeShareBytes(off).settings).toStrictEqual({ includePlaceholders: true, suppressions: [] });
  });

  it('a wrong type is dropped, as for the other settings', () => {
    const bytes = encodeShareBytesWithRawMeta({ files: FILES }, JSON.stringify({ settings: { includePlaceholders: false, istioctlMode: 'yes' } }));
    expect(decodeShareBytes(bytes).settings).toStrictEqual({ includePlaceholders: false });
  });
});
