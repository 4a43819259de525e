// SDS secrets of generated proxies: the names they request, what istiod would send for each
// (credentials from the workspace's Secrets, Istio's own certificates by name), and the
// istioctl secret table over the generated dump.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { generateFor, viewOf } from './helpers.ts';
import { configDump } from '../../src/core/xds/dump.ts';
import { resolveProxySecret, sdsResourceNames, REDACTED_BYTES } from '../../src/core/xds/secrets.ts';
import { configDumpFromValue, secretSummary, secretItems } from '../../src/core/xds/configdump/index.ts';
import { checkEnvoyResource } from '../../src/core/xds/proto/index.ts';
import type { ConfigView } from '../../src/core/config/configView.ts';

const CERTS_GATEWAY = readFileSync(new URL('../../public/samples/certificates/gateway.yaml', import.meta.url), 'utf8');
const GW_POD = 'istio-ingressgateway-5d8f7c9b4-x2k7q';

function dumpOf(view: ConfigView, pod: string, ns: string) {
  const gen = generateFor(view, pod, ns);
  const d = configDump(gen, {
    secret: (n) => {
      const s = resolveProxySecret(view, gen.proxy, n);
      return { secret: s.secret, warming: !s.served };
    },
  });
  const read = configDumpFromValue(d.dump);
  if (!read.ok) throw new Error(read.error);
  return { gen, dump: read.dump, raw: d.dump };
}

describe('generated SDS secrets', () => {
  it("asks for the gateway's credential and Istio's certificates", () => {
    const view = viewOf(CERTS_GATEWAY);
    const gen = generateFor(view, GW_POD, 'istio-system');
    const names = sdsResourceNames(gen.listeners, gen.clusters);
    expect(names).toContain('kubernetes://shop-credential');
  });

  it('shows the credential certificate facts from the Secret in the workspace', () => {
    const view = viewOf(CERTS_GATEWAY);
    const { dump } = dumpOf(view, GW_POD, 'istio-system');
    const items = secretItems(dump, new Date('2023-06-01T00:00:00Z'));
    const cred = items.find((i) => i.name === 'kubernetes://shop-credential')!;
    expect(cred).toMatchObject({ state: 'ACTIVE', type: 'Cert Chain', notBefore: '2023-01-01T00:00:00Z', notAfter: '2024-01-01T00:00:00Z', valid: true });
    expect(cred.serialNumber).toMatch(/^[0-9a-f]{32}$/);
    // The sample's credential expired on 2024-01-01.
    expect(secretItems(dump, new Date('2026-01-01T00:00:00Z')).find((i) => i.name === 'kubernetes://shop-credential')!.valid).toBe(false);
    // Istio's own certificates are issued at run time: names only.
    expect(items.filter((i) => i.name === 'default' || i.name === 'ROOTCA').map((i) => [i.name, i.serialNumber])).toEqual([
      ['default', ''],
      ['ROOTCA', ''],
    ]);
    const table = secretSummary(dump, { now: new Date('2023-06-01T00:00:00Z') });
    expect(table.table?.columns.slice(0, 4)).toEqual(['RESOURCE NAME', 'TYPE', 'STATUS', 'VALID CERT']);
  });

  it('never puts the private key in the dump, and the Secret passes the proto check', () => {
    const view = viewOf(CERTS_GATEWAY);
    const gen = generateFor(view, GW_POD, 'istio-system');
    const s = resolveProxySecret(view, gen.proxy, 'kubernetes://shop-credential');
    expect(s).toMatchObject({ source: 'credential', role: 'cert', served: true, ref: { kind: 'Secret', namespace: 'istio-system', name: 'shop-credential' } });
    expect(s.resourceKey).toBe('core/Secret/istio-system/shop-credential');
    expect((s.secret.tlsCertificate as { privateKey: unknown }).privateKey).toEqual({ inlineBytes: REDACTED_BYTES });
    expect(JSON.stringify(s.secret)).not.toContain('PRIVATE');
    expect(checkEnvoyResource(s.secret)).toEqual([]);
    const ca = resolveProxySecret(view, gen.proxy, 'kubernetes://shop-credential-cacert');
    // No `shop-credential-cacert` Secret: istiod falls back to shop-credential's ca.crt.
    expect(ca).toMatchObject({ role: 'root', served: true, ref: { name: 'shop-credential' } });
    expect(checkEnvoyResource(ca.secret)).toEqual([]);
  });

  it('keeps a credential istiod cannot read warming, with the reason', () => {
    const broken = CERTS_GATEWAY.replace('credentialName: shop-credential', 'credentialName: missing-credential');
    const view = viewOf(broken);
    const { dump, gen } = dumpOf(view, GW_POD, 'istio-system');
    const items = secretItems(dump, new Date());
    expect(items.find((i) => i.name === 'kubernetes://missing-credential')?.state).toBe('WARMING');
    const s = resolveProxySecret(view, gen.proxy, 'kubernetes://missing-credential');
    expect(s.served).toBe(false);
    expect(s.note).toContain('Secret istio-system/missing-credential is not in the workspace');
    // A Secret without the expected keys is refused the way istiod's ExtractCertInfo refuses it.
    const noKeys = viewOf(`${broken}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: missing-credential, namespace: istio-system}\ndata: {foo: YmFy}\n`);
    const r = resolveProxySecret(noKeys, gen.proxy, 'kubernetes://missing-credential');
    expect(r.served).toBe(false);
    expect(r.note).toContain("didn't have expected keys");
  });

  it('resolves namespaced, Gateway API and file resource names', () => {
    const view = viewOf(CERTS_GATEWAY);
    const proxy = { namespace: 'default' };
    expect(resolveProxySecret(view, proxy, 'kubernetes://istio-system/shop-credential').served).toBe(true);
    expect(resolveProxySecret(view, proxy, 'kubernetes://shop-credential')).toMatchObject({ served: false, ref: { namespace: 'default' } });
    expect(resolveProxySecret(view, proxy, 'kubernetes-gateway://istio-system/shop-credential').served).toBe(true);
    expect(resolveProxySecret(view, proxy, 'kubernetes-gateway://shop-credential')).toMatchObject({ served: false });
    expect(resolveProxySecret(view, proxy, 'file-cert:/etc/certs/cert.pem~/etc/certs/key.pem')).toMatchObject({ source: 'file', role: 'cert' });
    expect(resolveProxySecret(view, proxy, 'file-root:/etc/certs/root.pem')).toMatchObject({ source: 'file', role: 'root' });
    expect(resolveProxySecret(view, proxy, 'default')).toMatchObject({ source: 'istiod', role: 'cert' });
    expect(resolveProxySecret(view, proxy, 'ROOTCA')).toMatchObject({ source: 'istiod', role: 'root' });
  });

  it('names file certificates of a gateway server that uses mounted files', () => {
    const files = CERTS_GATEWAY.replace(
      '      mode: SIMPLE\n      credentialName: shop-credential',
      '      mode: MUTUAL\n      serverCertificate: /etc/istio/gw/cert.pem\n      privateKey: /etc/istio/gw/key.pem\n      caCertificates: /etc/istio/gw/ca.pem',
    );
    expect(files).toContain('mode: MUTUAL');
    const view = viewOf(files);
    const gen = generateFor(view, GW_POD, 'istio-system');
    expect(sdsResourceNames(gen.listeners, gen.clusters)).toEqual(
      expect.arrayContaining(['file-cert:/etc/istio/gw/cert.pem~/etc/istio/gw/key.pem', 'file-root:/etc/istio/gw/ca.pem']),
    );
  });
});
