// The unit tests' openssl check (scripts/ensure-openssl.mjs): it uses what is there, installs
// Debian's package only as root with apt-get, and otherwise says what to install.
import { describe, expect, it } from 'vitest';
import { ensureOpenssl, INSTRUCTION } from '../../scripts/ensure-openssl.mjs';

function machine(o: { has?: boolean; root?: boolean; aptGet?: boolean; aptWorks?: boolean }) {
  const calls: string[] = [];
  let has = o.has ?? false;
  return {
    calls,
    effects: {
      version: () => (has ? 'OpenSSL 3.0.19' : undefined),
      runAptInstall: async () => {
        calls.push('apt-get install');
        if (o.aptWorks) has = true;
        return o.aptWorks ?? false;
      },
      isRoot: o.root ?? false,
      hasAptGet: o.aptGet ?? false,
      log: (line: string) => void calls.push(line),
    },
  };
}

describe('ensureOpenssl', () => {
  it('takes the openssl on the PATH and installs nothing', async () => {
    const m = machine({ has: true, root: true, aptGet: true });
    expect(await ensureOpenssl(m.effects)).toEqual({ source: 'system', version: 'OpenSSL 3.0.19' });
    expect(m.calls).toEqual([]);
  });

  it("installs Debian's package as root with apt-get", async () => {
    const m = machine({ root: true, aptGet: true, aptWorks: true });
    expect(await ensureOpenssl(m.effects)).toEqual({ source: 'apt', version: 'OpenSSL 3.0.19' });
    expect(m.calls).toContain('apt-get install');
  });

  it('says what to install when it cannot', async () => {
    for (const o of [{}, { root: true }, { aptGet: true }, { root: true, aptGet: true, aptWorks: false }]) {
      const m = machine(o);
      expect(await ensureOpenssl(m.effects)).toEqual({ source: 'none', message: INSTRUCTION });
      expect(m.calls.includes('apt-get install')).toBe(o.root === true && o.aptGet === true);
    }
  });
});
