// istioctl's tables for pasted dumps (src/core/pki/tables.ts). Expected values come from
// istioctl's Go code in the Istio mirror:
// - `proxy-config secret`: istioctl/pkg/writer/envoy/configdump/configdump.go PrintSecretSummary,
//   istioctl/pkg/writer/compare/sds/util.go (GetEnvoySecrets, parseDynamicSecret,
//   secretMetaFromCert, parseTrustBundles) and writer.go (printSecretItemsTabular);
// - `ztunnel-config certificates`: istioctl/pkg/writer/ztunnel/configdump/certificates.go
//   (PrintSecretSummary, valueOrNA, certNotExpired);
// - both print through Go's text/tabwriter with padding 5 and no flags; the expected texts of
//   `tabwrite` were printed by Go 1.26's text/tabwriter (Init(w, 0, 8, 5, ' ', 0)) for the same cells.
import { describe, expect, it } from 'vitest';
import type { DumpSecret, EnvoyDump, Value, ZtunnelCert, ZtunnelDump, ZtunnelIdentity } from '../../src/core/pki/input.ts';
import { PkiContext } from '../../src/core/pki/istio.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { istioctlSecretTables, tabwrite, ztunnelTables } from '../../src/core/pki/tables.ts';
import { DAY, NOW, SIG_OIDS, leaf, parse, resign, root, signatures, type Issued } from './pkiBuilder.ts';

const origin = { input: 'dump.json', path: [] };
function value(bytes: Uint8Array | string): Value {
  const b = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return { origin, bytes: b, encoding: 'pem', artefacts: [], problems: [] };
}
const pem = (i: Issued) => value(encodePem('CERTIFICATE', i.der));
function secret(extra: Partial<DumpSecret> & { name: string }): DumpSecret {
  return { status: 'ACTIVE', versionInfo: '2026-06-01T00:00:00Z/1', lastUpdated: '', spiffe: [], ...extra };
}
function secretTable(secrets: DumpSecret[], now: Date = NOW) {
  const dump: EnvoyDump = { style: 'config_dump', origin, secrets };
  const [t] = istioctlSecretTables([dump], new PkiContext(now, signatures), now);
  return t!;
}
const NB = new Date('2026-05-01T00:00:00Z');
const NA = new Date('2026-07-01T00:00:00Z');
let pkiCache: { ca: Issued; workload: Issued; plain: Issued } | undefined;
async function pki() {
  if (pkiCache) return pkiCache;
  const ca = await root({ subject: 'CN=Table Root', notBefore: NB, notAfter: NA, serial: '0abc' });
  // URI SANs: a non-SPIFFE one after the SPIFFE one (istioctl keeps the last spiffe URI's host).
  const workload = await leaf(ca, {
    subject: 'CN=w',
    notBefore: NB,
    notAfter: NA,
    serial: '01',
    san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'https://example.com/x' }],
  });
  const plain = await leaf(ca, { notBefore: NB, notAfter: NA });
  pkiCache = { ca, workload, plain };
  return pkiCache;
}

describe('tabwrite — Go text/tabwriter, padding 5, no flags', () => {
  it('pads every cell but the last of a line to its column width + 5, counting characters', () => {
    const rows = [
      ['A', 'BB', 'C'],
      ['aaa', '', 'x'],
      ['é', 'b', ''],
    ];
    expect(tabwrite(rows, 5)).toBe('A       BB     C\naaa            x\né       b      \n');
  });
  it('a non-BMP character is one column (utf8.RuneCountInString), and padding 1 works alike', () => {
    expect(
      tabwrite(
        [
          ['🔒', 'x'],
          ['ab', 'y'],
        ],
        1,
      ),
    ).toBe('🔒  x\nab y\n');
  });
  it('the last cell of a shorter line does not widen the column (it is not tab-terminated)', () => {
    // Go: "a\tbbbbbbbb\n" + "c\td\te\n"
    expect(
      tabwrite(
        [
          ['a', 'bbbbbbbb'],
          ['c', 'd', 'e'],
        ],
        5,
      ),
    ).toBe('a     bbbbbbbb\nc     d     e\n');
  });
  it('no rows: no text', () => {
    expect(tabwrite([], 5)).toBe('');
  });
});

describe('proxy-config secret', () => {
  const BASE = ['RESOURCE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'];
  it('a leaf and a root: Cert Chain / CA, serial %032x, RFC 3339 dates; no trust domain column unless every row has one', async () => {
    const { ca, plain } = await pki();
    const t = secretTable([secret({ name: 'default', certificateChain: pem(plain) }), secret({ name: 'ROOTCA', trustedCa: pem(ca) })]);
    expect(t.columns).toEqual(BASE);
    expect(t.rows).toEqual([
      {
        'RESOURCE NAME': 'default',
        TYPE: 'Cert Chain',
        STATUS: 'ACTIVE',
        'VALID CERT': true,
        'SERIAL NUMBER': plain.cert.serial.toString(16).padStart(32, '0'),
        'NOT AFTER': '2026-07-01T00:00:00Z',
        'NOT BEFORE': '2026-05-01T00:00:00Z',
      },
      {
        'RESOURCE NAME': 'ROOTCA',
        TYPE: 'CA',
        STATUS: 'ACTIVE',
        'VALID CERT': true,
        'SERIAL NUMBER': '00000000000000000000000000000abc',
        'NOT AFTER': '2026-07-01T00:00:00Z',
        'NOT BEFORE': '2026-05-01T00:00:00Z',
      },
    ]);
    expect(t.notes).toEqual([]);
    const serial = plain.cert.serial.toString(16).padStart(32, '0');
    expect(t.text).toBe(
      [
        'RESOURCE NAME     TYPE           STATUS     VALID CERT     SERIAL NUMBER                        NOT AFTER                NOT BEFORE',
        `default           Cert Chain     ACTIVE     true           ${serial}     2026-07-01T00:00:00Z     2026-05-01T00:00:00Z`,
        'ROOTCA            CA             ACTIVE     true           00000000000000000000000000000abc     2026-07-01T00:00:00Z     2026-05-01T00:00:00Z',
        '',
      ].join('\n'),
    );
  });
  it('warming secrets come first, then active ones (GetEnvoySecrets); static ones are not listed', async () => {
    const { plain } = await pki();
    const t = secretTable([
      secret({ name: 'a', certificateChain: pem(plain) }),
      secret({ name: 's', status: 'STATIC', certificateChain: pem(plain) }),
      secret({ name: 'w', status: 'WARMING', certificateChain: pem(plain) }),
    ]);
    expect(t.rows.map((r) => [r['RESOURCE NAME'], r.STATUS])).toEqual([
      ['w', 'WARMING'],
      ['a', 'ACTIVE'],
    ]);
  });
  // secretMetaFromCert: Valid = today.After(NotBefore) && today.Before(NotAfter): both ends invalid.
  it('VALID CERT is false at exactly notBefore and notAfter, true strictly between', async () => {
    const { plain } = await pki();
    const valid = (now: Date) => secretTable([secret({ name: 'default', certificateChain: pem(plain) })], now).rows[0]!['VALID CERT'];
    expect(valid(new Date(NB.getTime() - 1000))).toBe(false);
    expect(valid(NB)).toBe(false);
    expect(valid(new Date(NB.getTime() + 1000))).toBe(true);
    expect(valid(new Date(NA.getTime() - 1000))).toBe(true);
    expect(valid(NA)).toBe(false);
    expect(valid(new Date(NA.getTime() + DAY))).toBe(false);
  });
  it('the trust domain is the last spiffe URI host; with every row having one, the TRUST DOMAIN column appears', async () => {
    const { workload } = await pki();
    const t = secretTable([secret({ name: 'default', certificateChain: pem(workload) })]);
    expect(t.columns).toEqual([...BASE, 'TRUST DOMAIN']);
    expect(t.rows[0]!['TRUST DOMAIN']).toBe('cluster.local');
    expect(t.text.split('\n')[0]).toMatch(/NOT BEFORE {15}TRUST DOMAIN$/);
    expect(t.text.split('\n')[1]).toMatch(/ {5}cluster\.local$/);
  });
  // url.Parse lowercases the scheme ("SPIFFE://" is scheme spiffe) and gives an opaque
  // "spiffe:x" URI an empty Host (checked with Go 1.26's net/url).
  it('the scheme is matched case-insensitively, and the last spiffe URI wins even when it has no host', async () => {
    const { ca } = await pki();
    const upper = await leaf(ca, { notBefore: NB, notAfter: NA, san: [{ uri: 'SPIFFE://Cluster.Local/ns/a/sa/b' }] });
    expect(secretTable([secret({ name: 'default', certificateChain: pem(upper) })]).rows[0]!['TRUST DOMAIN']).toBe('Cluster.Local');
    const opaque = await leaf(ca, { notBefore: NB, notAfter: NA, san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'spiffe:opaque' }] });
    const t = secretTable([secret({ name: 'default', certificateChain: pem(opaque) })]);
    expect(t.rows[0]!.TYPE).toBe('Cert Chain');
    expect(t.columns).not.toContain('TRUST DOMAIN');
    // Only the scheme decides: "spiffe:" inside another URI is not one, and an opaque spiffe: URI
    // stays hostless whatever its opaque part contains.
    const inside = await leaf(ca, { notBefore: NB, notAfter: NA, san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'https://example.com/spiffe:x' }] });
    expect(secretTable([secret({ name: 'default', certificateChain: pem(inside) })]).rows[0]!['TRUST DOMAIN']).toBe('cluster.local');
    const nested = await leaf(ca, {
      notBefore: NB,
      notAfter: NA,
      san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'spiffe:x/spiffe://other.local' }],
    });
    const n = secretTable([secret({ name: 'default', certificateChain: pem(nested) })]);
    expect(n.rows[0]!.TYPE).toBe('Cert Chain');
    expect(n.columns).not.toContain('TRUST DOMAIN');
  });
  it('the chain wins over the trusted CA; an empty chain falls back to the trusted CA (len(...) > 0)', async () => {
    const { ca, plain } = await pki();
    expect(secretTable([secret({ name: 'x', certificateChain: pem(plain), trustedCa: pem(ca) })]).rows[0]!.TYPE).toBe('Cert Chain');
    expect(secretTable([secret({ name: 'x', certificateChain: value(''), trustedCa: pem(ca) })]).rows[0]!.TYPE).toBe('CA');
  });
  it('a trusted CA without a URI SAN has no trust domain: no TRUST DOMAIN column', async () => {
    const { ca } = await pki();
    const t = secretTable([secret({ name: 'ROOTCA', trustedCa: pem(ca) })]);
    expect(t.columns).toEqual(BASE);
    expect(t.rows[0]!.TYPE).toBe('CA');
    expect(t.rows[0]!['TRUST DOMAIN']).toBeUndefined();
  });
  it('an empty trusted CA falls through to the SPIFFE bundles (len(caDataSecret) > 0)', async () => {
    const { ca } = await pki();
    const t = secretTable([secret({ name: 'ROOTCA', trustedCa: value(''), spiffe: [{ trustDomain: 'cluster.local', bundle: pem(ca) }] })]);
    expect(t.rows.map((r) => [r.TYPE, r['TRUST DOMAIN']])).toEqual([['CA', 'cluster.local']]);
  });
  it('SPIFFE validator bundles: one row per trust domain, named by the validator, not by the certificate', async () => {
    const { ca, workload } = await pki();
    const t = secretTable([
      secret({
        name: 'ROOTCA',
        spiffe: [
          { trustDomain: 'cluster.local', bundle: pem(ca) },
          // A bundle whose certificate carries another trust domain in its URI SAN: the validator's name is kept.
          { trustDomain: 'foo.org', bundle: pem(workload) },
        ],
      }),
    ]);
    expect(t.columns).toEqual([...BASE, 'TRUST DOMAIN']);
    expect(t.rows.map((r) => [r.TYPE, r['TRUST DOMAIN']])).toEqual([
      ['CA', 'cluster.local'],
      ['Cert Chain', 'foo.org'],
    ]);
  });
  // Build(): a bundle that is empty, not PEM or refused by x509.ParseCertificate leaves SecretMeta
  // (and so SecretMeta.TrustDomain) empty; printSecretItemsTabular then drops the TRUST DOMAIN column.
  it('a SPIFFE bundle that does not parse: an empty row, and no TRUST DOMAIN column', async () => {
    const { ca } = await pki();
    for (const bad of [value(''), value('not pem'), value('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')]) {
      const t = secretTable([
        secret({
          name: 'ROOTCA',
          spiffe: [
            { trustDomain: 'cluster.local', bundle: pem(ca) },
            { trustDomain: 'foo.org', bundle: bad },
          ],
        }),
      ]);
      expect(t.columns).toEqual(BASE);
      expect(t.rows[1]).toEqual({
        'RESOURCE NAME': 'ROOTCA',
        TYPE: '',
        STATUS: 'ACTIVE',
        'VALID CERT': false,
        'SERIAL NUMBER': '',
        'NOT AFTER': '',
        'NOT BEFORE': '',
      });
    }
  });
  it('a certificate Go refuses (negative serial) gives an empty row', async () => {
    const { ca, plain } = await pki();
    const neg = await resign(plain.der, ca.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
      tbs.serialNumber = new Uint8Array([0xff]).buffer;
    });
    expect((await parse(neg)).facts.serialNegative).toBe(true);
    const t = secretTable([secret({ name: 'default', certificateChain: value(encodePem('CERTIFICATE', neg)) })]);
    expect(t.rows).toEqual([
      { 'RESOURCE NAME': 'default', TYPE: '', STATUS: 'ACTIVE', 'VALID CERT': false, 'SERIAL NUMBER': '', 'NOT AFTER': '', 'NOT BEFORE': '' },
    ]);
  });
  it('a secret without certificate data: an empty row (Build with no data: Valid false)', () => {
    const t = secretTable([secret({ name: 'empty' })]);
    expect(t.columns).toEqual(BASE);
    expect(t.rows).toEqual([
      { 'RESOURCE NAME': 'empty', TYPE: '', STATUS: 'ACTIVE', 'VALID CERT': false, 'SERIAL NUMBER': '', 'NOT AFTER': '', 'NOT BEFORE': '' },
    ]);
  });
  // GetEnvoySecrets sets `secret.State = "UNINITIALIZED"` on a loop copy, so the row still says
  // ACTIVE: we keep ACTIVE and add a note, for active secrets only.
  it('an uninitialised active secret still says ACTIVE, with a note naming it; warming ones get no note', async () => {
    const { plain } = await pki();
    const t = secretTable([
      secret({ name: 'w', status: 'WARMING', versionInfo: 'uninitialized' }),
      secret({ name: 'default', versionInfo: 'uninitialized', certificateChain: pem(plain) }),
      secret({ name: 'ok', certificateChain: pem(plain) }),
    ]);
    expect(t.rows.map((r) => r.STATUS)).toEqual(['WARMING', 'ACTIVE', 'ACTIVE']);
    expect(t.notes).toHaveLength(1);
    expect(t.notes[0]).toMatch(/^default: /);
    expect(t.notes[0]).toContain('uninitialized');
  });
  it("no active or warming secret: istioctl's message (PrintSecretSummary)", () => {
    expect(secretTable([]).text).toBe('No active or warming secrets found.\n');
    expect(secretTable([secret({ name: 's', status: 'STATIC' })]).text).toBe('No active or warming secrets found.\n');
  });
});

describe('ztunnel-config certificates', () => {
  const COLUMNS = ['CERTIFICATE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'];
  const v = value('');
  const cert = (serialNumber: string, validFrom = '2026-05-01T00:00:00Z', expirationTime = '2026-07-01T00:00:00Z'): ZtunnelCert => ({
    value: v,
    serialNumber,
    validFrom,
    expirationTime,
  });
  function table(identities: ZtunnelIdentity[], now: Date = NOW) {
    const dump: ZtunnelDump = { origin, identities };
    return ztunnelTables([dump], now)[0]!;
  }
  const id = (extra: Partial<ZtunnelIdentity>): ZtunnelIdentity => ({
    identity: 'spiffe://cluster.local/ns/a/sa/b',
    state: 'Available',
    certChain: [],
    rootCerts: [],
    ...extra,
  });
  it('leaf, intermediate, then the root certificates; serials in hex; the exact text', () => {
    const t = table([id({ certChain: [cert('255'), cert('4096')], rootCerts: [cert('1')] })]);
    expect(t.columns).toEqual(COLUMNS);
    expect(t.rows.map((r) => [r.TYPE, r['SERIAL NUMBER'], r['VALID CERT']])).toEqual([
      ['Leaf', 'ff', true],
      ['Intermediate', '1000', true],
      ['Root', '1', true],
    ]);
    expect(t.notes).toEqual([]);
    expect(t.text).toBe(
      [
        'CERTIFICATE NAME                     TYPE             STATUS        VALID CERT     SERIAL NUMBER     NOT AFTER                NOT BEFORE',
        'spiffe://cluster.local/ns/a/sa/b     Leaf             Available     true           ff                2026-07-01T00:00:00Z     2026-05-01T00:00:00Z',
        'spiffe://cluster.local/ns/a/sa/b     Intermediate     Available     true           1000              2026-07-01T00:00:00Z     2026-05-01T00:00:00Z',
        'spiffe://cluster.local/ns/a/sa/b     Root             Available     true           1                 2026-07-01T00:00:00Z     2026-05-01T00:00:00Z',
        '',
      ].join('\n'),
    );
  });
  it('the legacy format (no root certs): the last certificate of a longer chain is the Root', () => {
    expect(table([id({ certChain: [cert('1'), cert('2'), cert('3')] })]).rows.map((r) => r.TYPE)).toEqual(['Leaf', 'Intermediate', 'Root']);
    expect(table([id({ certChain: [cert('1')] })]).rows.map((r) => r.TYPE)).toEqual(['Leaf']);
    expect(table([id({ certChain: [cert('1'), cert('2'), cert('3')], rootCerts: [cert('4')] })]).rows.map((r) => r.TYPE)).toEqual([
      'Leaf',
      'Intermediate',
      'Intermediate',
      'Root',
    ]);
  });
  it('no certificate: an NA row, not valid; any state containing "Unavailable" prints as Unavailable', () => {
    const t = table([id({ state: 'Unavailable: signing failed' })]);
    expect(t.rows).toEqual([
      {
        'CERTIFICATE NAME': 'spiffe://cluster.local/ns/a/sa/b',
        TYPE: 'NA',
        STATUS: 'Unavailable',
        'VALID CERT': false,
        'SERIAL NUMBER': 'NA',
        'NOT AFTER': 'NA',
        'NOT BEFORE': 'NA',
      },
    ]);
    expect(table([id({ state: 'Initializing' })]).rows[0]!.STATUS).toBe('Initializing');
  });
  // certNotExpired: false when both times are empty or either fails time.Parse(RFC3339);
  // otherwise today.After(from) && today.Before(exp). valueOrNA: "" prints NA.
  it('VALID CERT: strict at both ends, false for empty or unparsable times; empty times print NA', () => {
    const valid = (c: ZtunnelCert, now: Date = NOW) => table([id({ certChain: [c] })], now).rows[0]!['VALID CERT'];
    const from = '2026-05-01T00:00:00Z';
    const to = '2026-07-01T00:00:00Z';
    expect(valid(cert('1', from, to), new Date(from))).toBe(false);
    expect(valid(cert('1', from, to), new Date(Date.parse(from) + 1000))).toBe(true);
    expect(valid(cert('1', from, to), new Date(Date.parse(to) - 1000))).toBe(true);
    expect(valid(cert('1', from, to), new Date(to))).toBe(false);
    expect(valid(cert('1', '', ''))).toBe(false);
    expect(valid(cert('1', from, ''))).toBe(false);
    expect(valid(cert('1', '', to))).toBe(false);
    expect(valid(cert('1', 'garbage', to))).toBe(false);
    expect(valid(cert('1', from, 'garbage'))).toBe(false);
    const row = table([id({ certChain: [cert('1', '', to)] })]).rows[0]!;
    expect([row['NOT BEFORE'], row['NOT AFTER']]).toEqual(['NA', to]);
  });
  // certNotExpired parses both times with time.Parse(time.RFC3339, …); results of Go 1.26 for
  // these strings: refused "2026-05-01", "2026-05-01T00:00:00", "2026-05-01 00:00:00Z",
  // "2026-05-01T00:00:00+0000", "2026-02-30T00:00:00Z", "2026-05-01t00:00:00z",
  // "2026-05-01T24:00:00Z", "+002026-05-01T00:00:00Z", "2026-05-01T00:00Z", an RFC 1123 date;
  // accepted "2026-05-01T00:00:00,5Z" (comma fraction) and "2026-05-01T02:00:00+02:00".
  it("VALID CERT is false for any time Go's RFC 3339 parser refuses", () => {
    const to = '2026-07-01T00:00:00Z';
    const valid = (from: string, exp = to) => table([id({ certChain: [cert('1', from, exp)] })]).rows[0]!['VALID CERT'];
    const refused = [
      '2026-05-01',
      '2026-05-01T00:00:00',
      '2026-05-01 00:00:00Z',
      '2026-05-01T00:00:00+0000',
      '2026-02-30T00:00:00Z',
      '2026-05-01t00:00:00z',
      '2026-05-01T24:00:00Z',
      '+002026-05-01T00:00:00Z',
      '2026-05-01T00:00Z',
      'Fri, 01 May 2026 00:00:00 GMT',
    ];
    for (const bad of refused) expect(valid(bad)).toBe(false);
    // The same forms as the expiry (after NOW), 31 September for the day out of range.
    const refusedTo = [
      '2026-08-01',
      '2026-08-01T00:00:00',
      '2026-08-01 00:00:00Z',
      '2026-08-01T00:00:00+0000',
      '2026-09-31T00:00:00Z',
      '2026-08-01t00:00:00z',
      '2026-08-01T24:00:00Z',
      '+002026-08-01T00:00:00Z',
      '2026-08-01T00:00Z',
      'Sat, 01 Aug 2026 00:00:00 GMT',
    ];
    for (const bad of refusedTo) expect(valid('2026-05-01T00:00:00Z', bad)).toBe(false);
    expect(valid('2026-05-01T00:00:00,5Z')).toBe(true);
    expect(valid('2026-05-01T02:00:00+02:00')).toBe(true);
    expect(valid('2026-05-01T00:00:00Z', '2026-08-01T00:00:00,5Z')).toBe(true);
    // The comma fraction counts: NOW is 2026-06-01T12:00:00Z.
    expect(valid('2026-06-01T11:59:59,999Z', '2026-06-01T12:00:00,001Z')).toBe(true);
    expect(valid('2026-06-01T12:00:00,001Z')).toBe(false);
  });
  // `n, _ = new(big.Int).SetString(s, 10)` then `%x`: an optional sign and decimal digits only;
  // otherwise n is a nil *big.Int, which big.Int.Format prints as "<nil>" (math/big/intconv.go).
  // Checked with Go 1.26: "" "abc" "0x1f" "  12" "12 " "1_0" "0b1" "-" -> <nil>; "+12" -> c; "-255" -> -ff; "007" -> 7.
  it('serial numbers as Go prints them', () => {
    const hex = (s: string) => table([id({ certChain: [cert(s)] })]).rows[0]!['SERIAL NUMBER'];
    expect(hex('255')).toBe('ff');
    expect(hex('-255')).toBe('-ff');
    expect(hex('+12')).toBe('c');
    expect(hex('007')).toBe('7');
    expect(hex('340282366920938463463374607431768211455')).toBe('f'.repeat(32));
    for (const bad of ['', 'abc', '0x1f', '  12', '12 ', '1_0', '0b1', '-']) expect(hex(bad)).toBe('<nil>');
  });
});
