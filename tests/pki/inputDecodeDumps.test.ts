// Envoy and ztunnel dumps as src/core/pki/input.ts reads them (certs spec §1.2 rows A–C, §4).
// Expectations follow:
// - Envoy's admin /config_dump (envoy.admin.v3.SecretsConfigDump, snake_case protojson):
//   dynamic_active_secrets, dynamic_warming_secrets (a secret not delivered yet has no `secret`)
//   and static_secrets (StaticSecret: name, last_updated, secret; no version_info), each secret's
//   tls_certificate.certificate_chain and validation_context.trusted_ca / crl as a DataSource
//   (inline_bytes base64, inline_string, filename); Envoy's redaction writes "[redacted]" in every
//   string and bytes field of a private key (source/common/protobuf/utility.cc: RedactedText,
//   base64 of it for bytes);
// - `istioctl proxy-config secret -o json`: the same SecretsConfigDump in lowerCamelCase, warming
//   rows before active ones (spec §4), SPIFFE validator trust bundles per trust domain;
// - Go's protojson reads bytes with encoding/base64, which skips newlines;
// - ztunnel's certificates dump (istioctl ztunnel-config certificates -o json): a list of
//   {identity, state, certChain[], rootCerts[]}, each entry {pem, serialNumber, validFrom,
//   expirationTime}; `pem` is PEM text in istioctl's fixture and base64 of it in current ztunnel;
// - the certs spec §1.1: at most four containers deep.
// Certificates come from pkiBuilder.ts, keys and CRLs from istioFixtures.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeInputs, type Decoded, type DumpSecret, type Value } from '../../src/core/pki/input.ts';
import { STRING_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { intermediate, leaf, root } from './pkiBuilder.ts';
import { crlDer, crlPem, keyPem, pem } from './istioFixtures.ts';
import { b64 } from './scenarioInputs.ts';

const ca = await root({ subject: 'CN=Dump Root' });
const signing = await intermediate(ca, 'CN=Dump Signing CA');
const workload = await leaf(signing, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
const caPem = pem(ca);
const workloadPem = pem(workload);
const workloadKeyPem = await keyPem(workload.keys);
const crlText = new TextDecoder().decode(crlPem(await crlDer(ca)));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const SECRET_TYPE = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret';
const ENVOY_REDACTED = b64('[redacted]');

const decodeJson = (doc: unknown, name = 'dump.json'): Decoded => decodeInputs([{ name, text: JSON.stringify(doc, null, 2) }]);

/** An Envoy /config_dump holding one SecretsConfigDump (after the bootstrap, as Envoy orders them). */
const configDump = (secrets: Record<string, unknown>) => ({
  configs: [
    { '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump', bootstrap: { node: { id: 'sidecar~10.0.0.1~cart.shop~shop.svc.cluster.local' } } },
    { '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump', ...secrets },
  ],
});

const certHexes = (v: Value | undefined): string[] => (v?.artefacts ?? []).flatMap((a) => (a.kind === 'certificate' ? [hexOf(a.cert.der)] : []));

function secretNamed(d: Decoded, name: string): DumpSecret {
  const s = d.dumps.flatMap((x) => x.secrets).find((x) => x.name === name);
  expect(s, `secret ${name}`).toBeDefined();
  return s!;
}

describe('Envoy /config_dump (snake_case)', () => {
  const dump = configDump({
    static_secrets: [
      {
        name: 'file-cert',
        last_updated: '2026-06-01T00:00:00.000Z',
        secret: {
          '@type': SECRET_TYPE,
          name: 'file-cert',
          tls_certificate: { certificate_chain: { inline_string: workloadPem }, private_key: { filename: '/etc/certs/key.pem' } },
          validation_context: { trusted_ca: { filename: '/etc/certs/root-cert.pem' } },
        },
      },
    ],
    dynamic_active_secrets: [
      {
        name: 'default',
        version_info: '2026-06-01T00:00:00Z/7',
        last_updated: '2026-06-01T00:00:01.000Z',
        secret: {
          '@type': SECRET_TYPE,
          name: 'default',
          tls_certificate: { certificate_chain: { inline_bytes: b64(workloadPem + pem(signing)) }, private_key: { inline_bytes: ENVOY_REDACTED } },
        },
      },
      {
        name: 'ROOTCA',
        version_info: '2026-06-01T00:00:00Z/7',
        last_updated: '2026-06-01T00:00:02.000Z',
        secret: { '@type': SECRET_TYPE, name: 'ROOTCA', validation_context: { trusted_ca: { inline_bytes: b64(caPem) }, crl: { inline_bytes: b64(crlText) } } },
      },
    ],
    dynamic_warming_secrets: [{ name: 'kubernetes://gw-cred', version_info: 'uninitialized', last_updated: '2026-06-01T00:00:03.000Z' }],
  });
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  beforeEach(() => {
    d = decodeJson(dump);
  });

  it('is one dump of style config_dump, under an "Envoy config dump" container', () => {
    expect(d.dumps.map((x) => [x.style, x.origin.path])).toEqual([['config_dump', ['Envoy config dump']]]);
    expect(d.problems).toEqual([]);
  });

  it('warming secrets come before active ones (istioctl’s order), and static secrets are kept too', () => {
    const rows = d.dumps[0]!.secrets.map((s) => [s.name, s.status]);
    expect(rows.slice(0, 3)).toEqual([
      ['kubernetes://gw-cred', 'WARMING'],
      ['default', 'ACTIVE'],
      ['ROOTCA', 'ACTIVE'],
    ]);
    expect(rows).toContainEqual(['file-cert', 'STATIC']);
    expect(rows).toHaveLength(4);
  });

  it('version_info and last_updated are read; a StaticSecret has no version_info', () => {
    expect(secretNamed(d, 'default')).toMatchObject({ versionInfo: '2026-06-01T00:00:00Z/7', lastUpdated: '2026-06-01T00:00:01.000Z' });
    expect(secretNamed(d, 'file-cert')).toMatchObject({ versionInfo: '', lastUpdated: '2026-06-01T00:00:00.000Z' });
    expect(secretNamed(d, 'kubernetes://gw-cred').versionInfo).toBe('uninitialized');
  });

  it('a warming secret without a `secret` has no certificate and no key', () => {
    const s = secretNamed(d, 'kubernetes://gw-cred');
    expect(s.certificateChain).toBeUndefined();
    expect(s.trustedCa).toBeUndefined();
    expect(s.privateKey).toBeUndefined();
  });

  it('the certificate chain (inline_bytes, base64 of PEM) is read under the secret and the field', () => {
    const chain = secretNamed(d, 'default').certificateChain;
    expect(certHexes(chain)).toEqual([hexOf(workload.der), hexOf(signing.der)]);
    expect(chain?.origin).toMatchObject({ input: 'dump.json', path: ['Envoy config dump', 'secret default', 'certificate chain'], key: 'default' });
  });

  it('the trusted CA and the CRL beside it are read under their fields', () => {
    const s = secretNamed(d, 'ROOTCA');
    expect(certHexes(s.trustedCa)).toEqual([hexOf(ca.der)]);
    expect(s.trustedCa?.origin.path).toEqual(['Envoy config dump', 'secret ROOTCA', 'trusted CA']);
    expect(s.crl?.artefacts.map((a) => a.kind)).toEqual(['crl']);
    expect(s.crl?.origin.path).toEqual(['Envoy config dump', 'secret ROOTCA', 'CRL']);
  });

  it('inline_string is PEM text; filename gives only the path', () => {
    const s = secretNamed(d, 'file-cert');
    expect(certHexes(s.certificateChain)).toEqual([hexOf(workload.der)]);
    expect(s.certificateChain?.origin.path).toEqual(['Envoy config dump', 'secret file-cert', 'certificate chain']);
    expect(s.trustedCaFile).toBe('/etc/certs/root-cert.pem');
    expect(s.trustedCa).toBeUndefined();
    expect(s.certificateChainFile).toBeUndefined();
  });

  it('the private key: [redacted] by Envoy (base64 in inline_bytes), a file, absent', () => {
    expect(secretNamed(d, 'default').privateKey).toBe('redacted');
    expect(secretNamed(d, 'file-cert').privateKey).toBe('file');
    // ROOTCA has no tls_certificate, so nothing is said about a key.
    expect(secretNamed(d, 'ROOTCA').privateKey).toBeUndefined();
  });
});

describe('private keys in a dump', () => {
  const keyOf = (privateKey: Record<string, unknown> | undefined, camel = false): DumpSecret['privateKey'] => {
    const tls = camel
      ? { certificateChain: { inlineBytes: b64(workloadPem) }, ...(privateKey ? { privateKey } : {}) }
      : { certificate_chain: { inline_bytes: b64(workloadPem) }, ...(privateKey ? { private_key: privateKey } : {}) };
    const entry = { name: 'default', secret: camel ? { tlsCertificate: tls } : { tls_certificate: tls } };
    const d = decodeJson(camel ? { dynamicActiveSecrets: [entry] } : configDump({ dynamic_active_secrets: [entry] }));
    return secretNamed(d, 'default').privateKey;
  };

  it('Envoy redacts a string field as "[redacted]" too (inline_string)', () => {
    expect(keyOf({ inline_string: '[redacted]' })).toBe('redacted');
    expect(keyOf({ inlineString: '[redacted]' }, true)).toBe('redacted');
    expect(keyOf({ inlineBytes: ENVOY_REDACTED }, true)).toBe('redacted');
  });

  it('a key left in the dump (a static secret written inline) is inline', () => {
    expect(keyOf({ inline_bytes: b64(workloadKeyPem) })).toBe('inline');
    expect(keyOf({ inline_string: workloadKeyPem })).toBe('inline');
  });

  it("a share link's marker in place of the key is redacted in the link", () => {
    expect(keyOf({ inline_string: STRING_MARKER })).toBe('redacted-in-link');
    expect(keyOf({ inlineString: STRING_MARKER }, true)).toBe('redacted-in-link');
    expect(keyOf({ inline_bytes: b64(STRING_MARKER) })).toBe('redacted-in-link');
  });

  it('a filename is a file; no private_key at all is absent', () => {
    expect(keyOf({ filename: '/etc/certs/key.pem' })).toBe('file');
    expect(keyOf(undefined)).toBe('absent');
  });
});

describe('istioctl proxy-config secret -o json (lowerCamelCase)', () => {
  const dump = {
    dynamicActiveSecrets: [
      {
        name: 'default',
        versionInfo: '2026-06-01T00:00:00Z/9',
        lastUpdated: '2026-06-01T00:00:04.000Z',
        secret: {
          '@type': SECRET_TYPE,
          name: 'default',
          tlsCertificate: { certificateChain: { inlineString: workloadPem }, privateKey: { inlineBytes: ENVOY_REDACTED } },
        },
      },
      {
        name: 'ROOTCA',
        secret: {
          '@type': SECRET_TYPE,
          name: 'ROOTCA',
          validationContext: {
            customValidatorConfig: {
              name: 'envoy.tls.cert_validator.spiffe',
              typedConfig: {
                '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.SPIFFECertValidatorConfig',
                trustDomains: [
                  { name: 'cluster.local', trustBundle: { inlineBytes: b64(caPem) } },
                  { name: 'other.example', trustBundle: { filename: '/etc/bundles/other.pem' } },
                ],
              },
            },
          },
        },
      },
    ],
    staticSecrets: [
      {
        name: 'file-root',
        lastUpdated: '2026-06-01T00:00:05.000Z',
        secret: { name: 'file-root', validationContext: { trustedCa: { inlineBytes: b64(caPem) } } },
      },
    ],
  };
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  beforeEach(() => {
    d = decodeJson(dump, 'secret.json');
  });

  it('is one dump of style istioctl, under its own container', () => {
    expect(d.dumps.map((x) => [x.style, x.origin.path])).toEqual([['istioctl', ['istioctl proxy-config secret']]]);
    expect(d.problems).toEqual([]);
  });

  it('camelCase fields: versionInfo, lastUpdated, inlineString, staticSecrets', () => {
    const s = secretNamed(d, 'default');
    expect(s).toMatchObject({ status: 'ACTIVE', versionInfo: '2026-06-01T00:00:00Z/9', lastUpdated: '2026-06-01T00:00:04.000Z', privateKey: 'redacted' });
    expect(certHexes(s.certificateChain)).toEqual([hexOf(workload.der)]);
    expect(s.certificateChain?.origin.path).toEqual(['istioctl proxy-config secret', 'secret default', 'certificate chain']);
    const file = secretNamed(d, 'file-root');
    expect(file).toMatchObject({ status: 'STATIC', lastUpdated: '2026-06-01T00:00:05.000Z' });
    expect(certHexes(file.trustedCa)).toEqual([hexOf(ca.der)]);
  });

  it('SPIFFE validator: each trust domain with its bundle; one given as a file has no bytes to list', () => {
    const s = secretNamed(d, 'ROOTCA');
    expect(s.spiffe.map((x) => x.trustDomain)).toEqual(['cluster.local']);
    for (const x of s.spiffe) expect(x.bundle).toBeDefined();
    expect(certHexes(s.spiffe[0]!.bundle)).toEqual([hexOf(ca.der)]);
    expect(s.spiffe[0]!.bundle.origin.path).toEqual(['istioctl proxy-config secret', 'secret ROOTCA', 'trust bundle cluster.local']);
  });
});

describe('inline bytes that are not plain base64 of PEM', () => {
  const chainOf = (inline: Record<string, unknown>): { d: Decoded; s: DumpSecret } => {
    const d = decodeJson(configDump({ dynamic_active_secrets: [{ name: 'default', secret: { tls_certificate: { certificate_chain: inline } } }] }));
    return { d, s: secretNamed(d, 'default') };
  };

  it('base64 broken into lines is read (protojson reads bytes with Go’s base64, which skips newlines)', () => {
    let wrapped = b64(workloadPem).replace(/(.{76})/g, '$1\n');
    // protojson picks the padded decoder only for a length that is a multiple of 4.
    while (wrapped.length % 4 !== 0) wrapped += '\n';
    const { d, s } = chainOf({ inline_bytes: wrapped });
    expect(certHexes(s.certificateChain)).toEqual([hexOf(workload.der)]);
    expect(d.problems).toEqual([]);
  });

  it('bytes that are not base64 are an error on the field, and there is no chain', () => {
    const { d, s } = chainOf({ inline_bytes: 'not*base64' });
    expect(s.certificateChain).toBeUndefined();
    expect(d.problems.map((p) => [p.severity, p.origin.key, p.origin.path])).toEqual([
      ['error', 'default', ['Envoy config dump', 'secret default', 'certificate chain']],
    ]);
  });

  it('base64 of base64 of the PEM: the chain is the inner value, with its certificate', () => {
    const { s } = chainOf({ inline_bytes: b64(b64(workloadPem)) });
    expect(certHexes(s.certificateChain)).toEqual([hexOf(workload.der)]);
    expect(s.certificateChain?.origin.path).toEqual(['Envoy config dump', 'secret default', 'certificate chain', 'base64 of PEM']);
  });

  it('a PEM under five more base64 layers is more than four containers deep: not read, a warning (spec §1.1)', () => {
    let inner = workloadPem;
    for (let i = 0; i < 6; i++) inner = b64(inner);
    const { d, s } = chainOf({ inline_bytes: inner });
    expect(d.values.flatMap((v) => v.artefacts)).toEqual([]);
    expect(d.problems.map((p) => p.severity)).toEqual(['warning']);
    expect(s.certificateChain?.artefacts).toEqual([]);
  });
});

describe('ztunnel certificates (istioctl ztunnel-config certificates -o json)', () => {
  const entry = (pemField: string, serialNumber: string) => ({
    pem: pemField,
    serialNumber,
    validFrom: '2026-05-31T12:00:00Z',
    expirationTime: '2026-06-01T12:00:00Z',
  });
  const truncated = workloadPem.replace(/-----END CERTIFICATE-----\n$/, '');
  const list = [
    {
      identity: 'spiffe://cluster.local/ns/shop/sa/cart',
      state: 'Available',
      // Current ztunnel writes base64 of the PEM.
      certChain: [entry(b64(workloadPem), '101'), entry(b64(pem(signing)), '102')],
      // istioctl's fixture holds PEM text.
      rootCerts: [entry(caPem, '103')],
    },
    { identity: 'spiffe://cluster.local/ns/shop/sa/db', state: 'Unavailable: signing failed', certChain: [entry(b64(truncated), '104')] },
  ];
  // Decoded before each test, not once for the describe: Stryker (npm run mutate) runs a mutant
  // only against the tests its dry run saw reach it, and sees none reach code run outside a test.
  let d!: Decoded;
  beforeEach(() => {
    d = decodeJson(list, 'ztunnel.json');
  });
  const z = () => d.ztunnel[0]!;

  it('one dump under a "ztunnel certificates" container, one identity per entry with its state', () => {
    expect(d.ztunnel).toHaveLength(1);
    expect(z().origin.path).toEqual(['ztunnel certificates']);
    expect(z().identities.map((i) => [i.identity, i.state])).toEqual([
      ['spiffe://cluster.local/ns/shop/sa/cart', 'Available'],
      ['spiffe://cluster.local/ns/shop/sa/db', 'Unavailable: signing failed'],
    ]);
  });

  it('each certificate entry is its own value (base64 of PEM or PEM text), in order, under identity and field', () => {
    const cart = z().identities[0]!;
    expect(cart.certChain.map((c) => certHexes(c.value))).toEqual([[hexOf(workload.der)], [hexOf(signing.der)]]);
    expect(cart.rootCerts.map((c) => certHexes(c.value))).toEqual([[hexOf(ca.der)]]);
    expect(cart.certChain.map((c) => c.value.encoding)).toEqual(['base64-pem', 'base64-pem']);
    expect(cart.rootCerts[0]!.value.encoding).toBe('pem');
    expect(cart.certChain[1]!.value.origin).toMatchObject({
      path: ['ztunnel certificates', 'spiffe://cluster.local/ns/shop/sa/cart', 'certChain[1]', 'base64 of PEM'],
      key: 'spiffe://cluster.local/ns/shop/sa/cart',
    });
    expect(cart.rootCerts[0]!.value.origin.path).toEqual(['ztunnel certificates', 'spiffe://cluster.local/ns/shop/sa/cart', 'rootCerts[0]']);
  });

  it('serial number and validity are kept as written', () => {
    expect(z().identities[0]!.certChain.map((c) => [c.serialNumber, c.validFrom, c.expirationTime])).toEqual([
      ['101', '2026-05-31T12:00:00Z', '2026-06-01T12:00:00Z'],
      ['102', '2026-05-31T12:00:00Z', '2026-06-01T12:00:00Z'],
    ]);
  });

  it('an entry whose PEM is truncated keeps its value, with the error, and no certificate', () => {
    const db = z().identities[1]!;
    expect(db.rootCerts).toEqual([]);
    const v = db.certChain[0]!.value;
    expect(v.encoding).toBe('base64-pem');
    expect(v.artefacts).toEqual([]);
    expect(v.problems.map((p) => p.severity)).toEqual(['error']);
    expect(v.origin.path.slice(0, 3)).toEqual(['ztunnel certificates', 'spiffe://cluster.local/ns/shop/sa/db', 'certChain[0]']);
  });
});
