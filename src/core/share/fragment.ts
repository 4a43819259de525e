// The share link's fragment check, on its own: the page asks it on every start, and it must
// not pull in the decoder (fflate, the dictionary) for an address that is not a share link.

export const SHARE_PREFIX = 'share=';

/** True when a location hash (with or without `#`) is a share link. */
export function isShareFragment(hash: string): boolean {
  return hash.replace(/^#/, '').startsWith(SHARE_PREFIX);
}
