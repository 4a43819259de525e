// Targets `pki-decode` and `pki-inspect`: the certificate readers (src/core/pki/input.ts:
// PEM/DER/base64/hex detection, Kubernetes Secrets and ConfigMaps, Envoy config dumps,
// istioctl proxy-config secret, ztunnel certificate dumps) and the inspection over them.
//
// Inputs start from our own sample PKI (public/samples/certificates, made by our generator),
// are wrapped in one of the forms users paste (raw, DER, base64 of DER or PEM, hex, a JSON
// string, CRLF, indented, a Secret with `data` or `stringData`, a ConfigMap, a config dump,
// istioctl's and ztunnel's JSON), and then perhaps damaged (bytes flipped, cut, inserted,
// repeated).
//
// pki-decode properties: decoding never throws and stays within the time limit; every problem
// is a sane sentence; an undamaged wrapping finds exactly the certificates of the bare seed
// (same DER), whatever the wrapper, as js-yaml and Node's X.509 parser read the seed (an
// oracle independent of our decoder).
// pki-inspect properties: inspecting never throws (or rejects) and stays within the time
// limit; the report is JSON; no private key's body appears in it.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { decodeInputs, type Decoded } from '../../src/core/pki/input.ts';
import { inspect } from '../../src/core/pki/inspect.ts';
import { FuzzFailure, describeError, guarded } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

export interface PkiInput {
  /** The input's name (a file name: `ca-key.pem`, `cacerts.yaml`, …). */
  name: string;
  /** The bytes, base64 (so the corpus is JSON). */
  b64: string;
  /** Undamaged wrapping of `seed`: its certificates must all be found. */
  seed?: string;
}

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SAMPLE = join(ROOT, 'public', 'samples', 'certificates');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

let seedFiles: Array<{ name: string; text: string }> | undefined;

function seeds(): Array<{ name: string; text: string }> {
  seedFiles ??= filesUnder(SAMPLE).map((f) => ({ name: relative(SAMPLE, f), text: readFileSync(f, 'utf8') }));
  return seedFiles;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

/** DER of every CERTIFICATE block of a PEM text (the wrappers that need bytes). */
function pemDers(text: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const m of text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g))
    out.push(new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
  return out;
}

const WRAPPERS = [
  'raw',
  'der',
  'base64-der',
  'base64-pem',
  'hex',
  'json-string',
  'crlf',
  'indented',
  'secret-data',
  'secret-stringdata',
  'configmap',
  'config-dump',
  'istioctl-secret',
  'ztunnel',
] as const;
type Wrapper = (typeof WRAPPERS)[number];
const KEYS = ['tls.crt', 'ca.crt', 'cert', 'cacert', 'ca-cert.pem', 'root-cert.pem', 'cert-chain.pem', 'tls.key', 'key', 'ca-key.pem', 'ca.crl', 'other'];

/** The seed in one of the forms users paste; undefined when the form does not apply. */
function wrap(name: string, text: string, w: Wrapper, key: string): { name: string; bytes: Uint8Array } | undefined {
  const ders = pemDers(text);
  const inline = b64(utf8(text));
  switch (w) {
    case 'raw':
      return { name, bytes: utf8(text) };
    case 'der':
      return ders.length === 1 ? { name: `${name}.der`, bytes: ders[0]! } : undefined;
    case 'base64-der':
      return ders.length === 1 ? { name: `${name}.b64`, bytes: utf8(b64(ders[0]!)) } : undefined;
    case 'base64-pem':
      return { name: `${name}.b64`, bytes: utf8(inline) };
    case 'hex':
      return ders.length === 1 ? { name: `${name}.hex`, bytes: utf8(Buffer.from(ders[0]!).toString('hex')) } : undefined;
    case 'json-string':
      return { name: `${name}.txt`, bytes: utf8(JSON.stringify(text)) };
    case 'crlf':
      return { name, bytes: utf8(text.replace(/\r?\n/g, '\r\n')) };
    case 'indented':
      // Indenting YAML changes what it means; PEM pasted indented does not.
      return /^-----BEGIN/m.test(text) && !/^(apiVersion|kind):/m.test(text) ? { name, bytes: utf8(text.replace(/^/gm, '    ')) } : undefined;
    case 'secret-data':
      return {
        name: 'secret.yaml',
        bytes: utf8(`apiVersion: v1\nkind: Secret\nmetadata:\n  name: fuzz\n  namespace: istio-system\ndata:\n  ${key}: ${inline}\n`),
      };
    case 'secret-stringdata':
      return {
        name: 'secret.yaml',
        bytes: utf8(
          `apiVersion: v1\nkind: Secret\nmetadata:\n  name: fuzz\n  namespace: istio-system\nstringData:\n  ${key}: |\n${text.replace(/^(?=.)/gm, '    ')}`,
        ),
      };
    case 'configmap':
      return {
        name: 'configmap.json',
        bytes: utf8(
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'istio-ca-root-cert', namespace: 'default' },
            data: { 'root-cert.pem': text },
          }),
        ),
      };
    case 'config-dump':
      return {
        name: 'config_dump.json',
        bytes: utf8(
          JSON.stringify({
            configs: [
              {
                '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump',
                dynamic_active_secrets: [
                  {
                    name: 'default',
                    version_info: 'v1',
                    last_updated: '2026-01-01T00:00:00Z',
                    secret: {
                      '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret',
                      name: 'default',
                      tls_certificate: { certificate_chain: { inline_bytes: inline }, private_key: { inline_bytes: b64(utf8('[redacted]')) } },
                    },
                  },
                ],
              },
            ],
          }),
        ),
      };
    case 'istioctl-secret':
      return {
        name: 'secret.json',
        bytes: utf8(
          JSON.stringify({
            dynamicActiveSecrets: [
              {
                name: 'ROOTCA',
                versionInfo: 'v1',
                lastUpdated: '2026-01-01T00:00:00Z',
                secret: {
                  '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret',
                  name: 'ROOTCA',
                  validationContext: { trustedCa: { inlineBytes: inline } },
                },
              },
            ],
          }),
        ),
      };
    case 'ztunnel':
      return ders.length > 0
        ? {
            name: 'certificates.json',
            bytes: utf8(
              JSON.stringify([
                {
                  identity: 'spiffe://cluster.local/ns/default/sa/fuzz',
                  state: 'Available',
                  certChain: [{ pem: inline, serialNumber: '1', validFrom: '2026-01-01T00:00:00Z', expirationTime: '2027-01-01T00:00:00Z' }],
                  rootCerts: [],
                },
              ]),
            ),
          }
        : undefined;
  }
}

interface Damage {
  op: 'flip' | 'cut' | 'insert' | 'delete' | 'repeat';
  at: number;
  len: number;
  byte: number;
}

const damageArb: fc.Arbitrary<Damage> = fc.record({
  op: fc.constantFrom('flip' as const, 'cut' as const, 'insert' as const, 'delete' as const, 'repeat' as const),
  at: fc.nat(),
  len: fc.nat({ max: 64 }),
  byte: fc.constantFrom(0x00, 0x0a, 0x0d, 0x20, 0x2d, 0x3d, 0x2b, 0x2f, 0x3a, 0x22, 0x5c, 0x41, 0x30, 0x80, 0xff, 0xc3),
});

function damage(bytes: Uint8Array, d: Damage): Uint8Array {
  const at = bytes.length === 0 ? 0 : d.at % bytes.length;
  const a = Array.from(bytes);
  if (d.op === 'flip' && a.length) a[at] = d.byte;
  else if (d.op === 'cut') a.length = at;
  else if (d.op === 'insert') a.splice(at, 0, ...new Array<number>(Math.max(1, d.len)).fill(d.byte));
  else if (d.op === 'delete') a.splice(at, Math.max(1, d.len));
  else if (d.op === 'repeat') a.splice(at, 0, ...a.slice(at, at + Math.max(1, d.len) * 8));
  return new Uint8Array(a);
}

const inputArb: fc.Arbitrary<PkiInput> = fc
  .record({ seed: fc.nat(), wrapper: fc.constantFrom(...WRAPPERS), key: fc.constantFrom(...KEYS), damages: fc.array(damageArb, { maxLength: 4 }) })
  .map(({ seed, wrapper, key, damages }) => {
    const all = seeds();
    const s = all[seed % all.length]!;
    const w = wrap(s.name, s.text, wrapper, key) ?? { name: s.name, bytes: utf8(s.text) };
    let bytes = w.bytes;
    for (const d of damages) bytes = damage(bytes, d);
    const input: PkiInput = { name: w.name, b64: b64(bytes) };
    if (damages.length === 0) input.seed = s.name;
    return input;
  });

function sane(message: unknown, what: string): void {
  if (typeof message !== 'string' || !message.trim() || /undefined|\[object |NaN/.test(message))
    throw new FuzzFailure('divergence', `${what}: not a sane message: ${JSON.stringify(message)}`);
}

/**
 * The seed's certificates by an independent reading: js-yaml for a YAML seed (a Secret's
 * `data` decoded from base64, its `stringData`, a ConfigMap's `data`), then every PEM
 * CERTIFICATE block parsed by Node's X.509 parser. Our decoder's answer must match it.
 */
function seedCertificates(seed: { name: string; text: string }): Set<string> {
  const texts: string[] = [];
  if (/\.ya?ml$/.test(seed.name)) {
    for (const doc of jsyaml.loadAll(seed.text)) {
      if (!doc || typeof doc !== 'object') continue;
      const o = doc as Record<string, unknown>;
      for (const [field, decode] of [
        ['data', true],
        ['stringData', false],
      ] as const) {
        const m = o[field];
        if (!m || typeof m !== 'object') continue;
        for (const v of Object.values(m as Record<string, unknown>))
          if (typeof v === 'string') texts.push(decode && o.kind === 'Secret' ? Buffer.from(v, 'base64').toString('latin1') : v);
      }
    }
  } else texts.push(seed.text);
  const out = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)) out.add(new X509Certificate(m[0]).raw.toString('hex'));
  return out;
}

function certDers(d: Decoded): Set<string> {
  const out = new Set<string>();
  const values = [...d.values, ...d.objects.flatMap((o) => [...o.values.values()])];
  for (const v of values) for (const a of v.artefacts) if (a.kind === 'certificate') out.add(Buffer.from(a.cert.der).toString('hex'));
  return out;
}

function bytesOf(input: PkiInput): Uint8Array {
  return new Uint8Array(Buffer.from(input.b64, 'base64'));
}

export function checkPkiDecode(input: PkiInput, options: CheckOptions): CheckOutcome {
  const bytes = bytesOf(input);
  const d = guarded('decodeInputs', options.timeLimitMs, () => decodeInputs([{ name: input.name, bytes }]));
  for (const p of d.problems) sane(p.message, 'problem');
  for (const v of d.values) for (const p of v.problems) sane(p.message, 'value problem');
  for (const h of d.hints) sane(h, 'hint');
  if (input.seed !== undefined) {
    const seed = seeds().find((s) => s.name === input.seed);
    if (!seed) return 'skipped';
    const want = seedCertificates(seed);
    const got = certDers(d);
    const missing = [...want].filter((x) => !got.has(x)).length;
    const extra = [...got].filter((x) => !want.has(x)).length;
    if (missing || extra)
      throw new FuzzFailure('divergence', `${input.name} (from ${seed.name}): ${missing} certificate(s) of the seed not found, ${extra} extra`);
  }
  return 'ok';
}

const NOW = new Date('2026-06-01T00:00:00Z');

export async function checkPkiInspect(input: PkiInput, options: CheckOptions): Promise<CheckOutcome> {
  const bytes = bytesOf(input);
  const t0 = performance.now();
  let json: string;
  try {
    const report = await inspect([{ name: input.name, bytes }], { now: NOW });
    for (const p of report.problems) sane(p.message, 'problem');
    for (const f of report.findings) sane(f.message, `finding ${f.id}`);
    json = JSON.stringify(report);
  } catch (e) {
    if (e instanceof FuzzFailure) throw e;
    throw new FuzzFailure('crash', `inspect threw ${describeError(e)}`);
  }
  // A hang is judged by the fastest of three runs of the whole check (the worker's retryingHangs).
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs * 2) throw new FuzzFailure('hang', `inspect took ${ms.toFixed(0)} ms`);
  // No private key's body in the report (it is described, masked, never copied).
  const text = Buffer.from(bytes).toString('latin1');
  for (const m of text.matchAll(/-----BEGIN [A-Z ]*PRIVATE KEY-----\s*([A-Za-z0-9+/=\s]{48,})/g)) {
    const body = m[1]!.replace(/\s+/g, '').slice(0, 40);
    if (body.length >= 40 && json.includes(body)) throw new FuzzFailure('divergence', 'a private key body appears in the report');
  }
  return 'ok';
}

export const pkiDecodeTarget: Target<PkiInput> = {
  name: 'pki-decode',
  description:
    'certificate readers (PEM/DER/base64/hex, Secrets, ConfigMaps, config dumps, istioctl and ztunnel JSON): no exception, sane problems, every wrapper finds the seed certificates',
  arbitrary: () => inputArb,
  check: checkPkiDecode,
  async: false,
  smokeRuns: 300,
};

export const pkiInspectTarget: Target<PkiInput> = {
  name: 'pki-inspect',
  description: 'certificate inspection over damaged inputs: no exception, JSON report, no private key body in it',
  arbitrary: () => inputArb,
  check: checkPkiInspect,
  async: true,
  smokeRuns: 100,
};
