// Input detection corner cases found by the pki-decode fuzz target.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded } from '../../src/core/pki/input.ts';

const pem = readFileSync(new URL('../../public/samples/certificates/cacerts/ca-cert.pem', import.meta.url), 'utf8');
const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

function certs(d: Decoded): string[] {
  return d.values.flatMap((v) => v.artefacts.flatMap((a) => (a.kind === 'certificate' ? [Buffer.from(a.cert.der).toString('hex')] : [])));
}

describe('hex DER', () => {
  it('is read as hex even when it is also valid base64 (hex digits are base64 characters)', () => {
    const hex = der.toString('hex');
    expect(hex.length % 4).toBe(0);
    expect(certs(decodeInputs([{ name: 'ca-cert.hex', text: hex }]))).toEqual([hex]);
  });

  it('is read with colons and line breaks, as openssl prints it', () => {
    const hex = der.toString('hex');
    const colons = hex
      .match(/../g)!
      .join(':')
      .replace(/(.{45})/g, '$1\n');
    expect(certs(decodeInputs([{ name: 'ca-cert.txt', text: colons }]))).toEqual([hex]);
  });

  it('base64 of the same DER is still base64', () => {
    expect(certs(decodeInputs([{ name: 'ca-cert.b64', text: der.toString('base64') }]))).toEqual([der.toString('hex')]);
  });
});
