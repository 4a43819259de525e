// Key material rules that the mutation run (issue #28) showed no unit test pinned, with
// expected values from the specifications: RFC 7468 armour (five dashes; the reader accepts
// three or more), RFC 4648 base64 runs as the comments of keyMaterial.ts define them
// (a run goes on over a line break only when the next line is nothing but base64, after
// indentation or a `#`), EncryptedPrivateKeyInfo (RFC 5958 §3, PBES2 of RFC 8018) against
// SubjectPublicKeyInfo (RFC 5280 §4.1), and kubeconfig user fields.
import { describe, expect, it } from 'vitest';
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  BASE64_RUN,
  hasPrivateKeyArmour,
  holdsPrivateKey,
  isKubeconfigWithCredentials,
  isPrivateKeyDer,
  keyStartInRun,
} from '../../src/core/share/keyMaterial.ts';
import { DATA_MARKER, redact } from '../../src/core/share/redact.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
const derOf = (pem: string) =>
  Uint8Array.from(
    Buffer.from(
      pem
        .split('\n')
        .filter((l) => l && !l.startsWith('-----'))
        .join(''),
      'base64',
    ),
  );
const runs = (text: string) => [...text.matchAll(BASE64_RUN)].map((m) => m[0]);

describe('private-key armour', () => {
  it('needs three or more dashes before BEGIN', () => {
    const body = 'MHcCAQEEICdZfv9x5fgAoGCCqGSM49AwEHoUQDQgAE';
    expect(hasPrivateKeyArmour(`-----BEGIN PRIVATE KEY-----\n${body}`)).toBe(true);
    expect(hasPrivateKeyArmour(`---BEGIN PRIVATE KEY---\n${body}`)).toBe(true);
    expect(hasPrivateKeyArmour(`--BEGIN PRIVATE KEY--\n${body}`)).toBe(false);
    expect(hasPrivateKeyArmour(`-BEGIN PRIVATE KEY-\n${body}`)).toBe(false);
    expect(hasPrivateKeyArmour(`see BEGIN PRIVATE KEY in the docs ${body}`)).toBe(false);
  });
});

describe('runs of base64 over lines', () => {
  it('a run goes on when the next line is nothing but base64, with or without indentation, trailing blanks or a #', () => {
    expect(runs('AAAA\nBBBB')).toEqual(['AAAA\nBBBB']);
    expect(runs('AAAA  \n  BBBB \t\nCCCC')).toEqual(['AAAA  \n  BBBB \t\nCCCC']);
    expect(runs('AAAA\r\n\tBBBB\rCCCC')).toEqual(['AAAA\r\n\tBBBB\rCCCC']);
    expect(runs('# AAAA\n  #  BBBB\n#CCCC')).toEqual(['AAAA\n  #  BBBB\n#CCCC']);
    expect(runs('AAAA==\nBBBB=\nCC+/_-')).toEqual(['AAAA==\nBBBB=\nCC+/_-']);
  });

  it('a line with anything else on it, or one shorter than a quantum, ends the run', () => {
    expect(runs('AAAA\nBBBB CCCC')).toEqual(['AAAA', 'BBBB', 'CCCC']);
    expect(runs('AAAA\nBBB\nCCCC')).toEqual(['AAAA', 'CCCC']);
    expect(runs('AAAA\nBBBB: x')).toEqual(['AAAA', 'BBBB']);
    expect(runs('AAAA\n\nBBBB')).toEqual(['AAAA', 'BBBB']);
    expect(runs('AAAA\n# # BBBB')).toEqual(['AAAA', 'BBBB']);
  });
});

describe('binary keys', () => {
  it('an EncryptedPrivateKeyInfo (PBES2) is a key; a SubjectPublicKeyInfo, shaped alike with another OID, is not', () => {
    expect(isPrivateKeyDer(derOf(M.encryptedPkcs8!))).toBe(true);
    for (const pem of [M.rsaPkcs8!, M.ecSec1!, M.ed25519Pkcs8!]) {
      const spki = Uint8Array.from(createPublicKey(pem).export({ type: 'spki', format: 'der' }));
      // SEQUENCE { SEQUENCE { OID … }, BIT STRING }: the shape of an EncryptedPrivateKeyInfo.
      expect(spki[0]).toBe(0x30);
      expect(isPrivateKeyDer(spki)).toBe(false);
      expect(holdsPrivateKey(Buffer.from(spki).toString('base64'))).toBe(false);
    }
  });
});

describe('a truncated EncryptedPrivateKeyInfo (16 bytes: SEQUENCE, SEQUENCE, OID)', () => {
  const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

  it('counts when the OID holds a whole scheme prefix (PKCS#5, 1.2.840.113549.1.5), not when it is cut inside one (PKCS#12 PBE, 1.2.840.113549.1.12.1)', () => {
    expect(isPrivateKeyDer(hex('30820100 300e 0609 2a864886f70d0105'))).toBe(true);
    expect(isPrivateKeyDer(hex('30820100 300e 0609 2a864886f70d010c'))).toBe(false);
  });
});

describe('kubeconfig credentials', () => {
  const users = (user: string) => `apiVersion: v1\nkind: Config\nusers:\n- name: a\n  user:\n${user}`;

  it('a credential field at the start of its line, indented as YAML writes it, quoted or not, with blanks around the colon', () => {
    for (const user of [
      '    token: abc\n',
      '    "token": abc\n',
      '    token : abc\n',
      '    token:  abc\n',
      '    token:\tabc\n',
      'token: abc\n',
      '\t\ttoken: abc\n',
    ]) {
      expect(isKubeconfigWithCredentials(users(user)), JSON.stringify(user)).toBe(true);
    }
  });

  it('not a field whose name only ends in a credential word, and not an empty credential', () => {
    for (const user of ['    mytoken: abc\n', '    token:\n', '    token:   \n    other: x\n', '    # token - see the vault\n']) {
      expect(isKubeconfigWithCredentials(users(user)), JSON.stringify(user)).toBe(false);
    }
  });
});

describe('words above a key that joined its run: any number of them (bug: a key below five one-word lines was shared)', () => {
  const keyLines = M.rsaPkcs1!.trim().split('\n').slice(1, -1);
  const hosts = ['node-1', 'node-2', 'node-3', 'node-4', 'node-5', 'node-6'];

  it('keyStartInRun finds the key where the width of the lines changes', () => {
    const run = `${hosts.join('\n')}\n${keyLines.join('\n')}`;
    expect(keyStartInRun(run)).toBe(hosts.join('\n').length + 1);
    expect(holdsPrivateKey(run)).toBe(true);
    // Words of several widths, and the key two lines below them.
    const mixed = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    expect(keyStartInRun(`${mixed.join('\n')}\n${keyLines.join('\n')}`)).toBe(mixed.join('\n').length + 1);
    // A certificate below the words holds no key.
    expect(keyStartInRun(`${hosts.join('\n')}\n${M.leafCert!.trim().split('\n').slice(1, -1).join('\n')}`)).toBe(-1);
  });

  it('a commented-out key below a list of host names: cut from its first line on', () => {
    const text = `kind: ConfigMap\n# hosts:\n${hosts.map((h) => `# ${h}`).join('\n')}\n${keyLines.map((l) => `# ${l}`).join('\n')}\n`;
    const r = redact([{ path: 'p.yaml', text }]);
    expect(r.files[0]!.text).toBe(`kind: ConfigMap\n# hosts:\n${hosts.map((h) => `# ${h}`).join('\n')}\n# ${DATA_MARKER}${'\n'.repeat(keyLines.length)}`);
    expect(r.items).toEqual([{ file: 'p.yaml', line: 3 + hosts.length, what: 'private key (encoded)' }]);
  });

  it('a key below host names in a value: the value is masked', () => {
    const text = `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  notes: |\n${[...hosts, ...keyLines].map((l) => `    ${l}`).join('\n')}\n`;
    const r = redact([{ path: 'p.yaml', text }]);
    expect(r.files[0]!.text).toBe(
      `kind: ConfigMap\nmetadata: {name: c}\ndata:\n  notes: ${JSON.stringify(DATA_MARKER)}${'\n'.repeat(hosts.length + keyLines.length + 1)}`,
    );
    expect(r.items).toEqual([{ file: 'p.yaml', line: 4, what: 'private key (encoded)' }]);
  });
});
