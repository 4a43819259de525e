import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, redact } from '../../src/core/share/redact.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n-----END PRIVATE KEY-----\n';

const secret = `apiVersion: v1
kind: Secret
metadata:
  name: ingress-cert
  namespace: istio-system
type: kubernetes.io/tls
data:
  tls.crt: ${b64(CERT)}
  tls.key: ${b64(KEY)}
  empty: ""
stringData:
  password: hunter2
  key.pem: |
    -----BEGIN RSA PRIVATE KEY-----
    MIIEowIBAAKCAQEA
    -----END RSA PRIVATE KEY-----
  ca.pem: |
${CERT.trimEnd().split('\n').map((l) => '    ' + l).join('\n')}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app
data:
  key: |
    -----BEGIN EC PRIVATE KEY-----
    MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49
    -----END EC PRIVATE KEY-----
  inline: "-----BEGIN PRIVATE KEY-----\\nMIGHAgEA\\n-----END PRIVATE KEY-----\\n"
  encoded: ${b64(KEY)}
  cert: |
${CERT.trimEnd().split('\n').map((l) => '    ' + l).join('\n')}
`;

describe('redaction', () => {
  const r = redact([{ path: 'tls.yaml', text: secret }]);
  const out = r.files[0]!.text;

  it('replaces Secret values and private keys, keeps certificates', () => {
    expect(out).not.toMatch(/PRIVATE KEY-----/);
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain(b64(KEY));
    expect(out).toContain(`tls.crt: ${b64(CERT)}`);
    expect(out).toContain(`tls.key: "${DATA_MARKER}"`);
    expect(out).toContain(`password: "${STRING_MARKER}"`);
    expect(out).toContain(PRIVATE_KEY_MARKER);
    expect(out.match(/BEGIN CERTIFICATE/g)?.length).toBe(2);
  });

  it('lists every redacted item with its line', () => {
    expect(r.items).toEqual([
      { file: 'tls.yaml', line: 9, what: 'Secret istio-system/ingress-cert data["tls.key"]' },
      { file: 'tls.yaml', line: 12, what: 'Secret istio-system/ingress-cert stringData["password"]' },
      { file: 'tls.yaml', line: 13, what: 'Secret istio-system/ingress-cert stringData["key.pem"]' },
      { file: 'tls.yaml', line: 28, what: 'ec private key' },
      { file: 'tls.yaml', line: 31, what: 'private key' },
      { file: 'tls.yaml', line: 32, what: 'private key (base64)' },
    ]);
  });

  it('keeps the YAML valid, every line where it was, and data values base64', () => {
    expect(out.split('\n').length).toBe(secret.split('\n').length);
    const docs: unknown[] = [];
    for (const d of out.split(/^---$/m)) docs.push(load(d));
    const s = docs[0] as { data: Record<string, string>; stringData: Record<string, string> };
    expect(Buffer.from(s.data['tls.key']!, 'base64').toString()).toBe('REDACTED');
    expect(s.stringData['key.pem']).toBe(STRING_MARKER);
    expect(s.stringData['ca.pem']).toContain('BEGIN CERTIFICATE');
    expect(out.split('\n').indexOf('  cert: |')).toBe(secret.split('\n').indexOf('  cert: |'));
  });

  it('handles Secrets in a List, in JSON, and leaves other files alone', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n  stringData: {token: abc}\n`;
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'j' }, data: { k: b64('x') } }, null, 2);
    const plain = 'kind: ConfigMap\ndata:\n  a: b\n';
    const res = redact([{ path: 'l.yaml', text: list }, { path: 'j.json', text: json }, { path: 'p.yaml', text: plain }]);
    expect(res.files[0]!.text).toContain('token: "REDACTED"');
    expect(JSON.parse(res.files[1]!.text).data.k).toBe(DATA_MARKER);
    expect(res.files[2]!.text).toBe(plain);
    expect(res.items.map((i) => i.file)).toEqual(['l.yaml', 'j.json']);
  });

  it('finds a private key in a file that is not YAML', () => {
    const res = redact([{ path: 'k.pem', text: `junk: [\n${KEY}` }]);
    expect(res.files[0]!.text).not.toContain('MIGHAgEA');
    expect(res.items).toHaveLength(1);
  });
});
