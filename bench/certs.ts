// Certificates in `npm run bench` (alone: `npm run bench:certs`): the time to parse and to
// verify a 200-certificate PEM bundle. The bundle is made by our test-PKI generator: a root,
// three cluster intermediates and 196 workload certificates (EC P-256), shuffled into one
// file as a user might paste a pile of certificates.
//   parse:  reading the bundle (PEM scan, DER decoding of every certificate, facts);
//   verify: the whole inspection the Certificates tab runs: parse, then every chain built
//           as Go does with each signature checked through WebCrypto, Istio's checks, lints.
import { fileURLToPath } from 'node:url';
import { generatePki } from '../src/core/pki/generate.ts';
import { decodeInputs } from '../src/core/pki/input.ts';
import { inspect } from '../src/core/pki/inspect.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** A PEM bundle of `count` certificates (count >= 5). */
export async function makeBundle(count = 200, now = new Date('2026-06-01T00:00:00Z')): Promise<string> {
  const clusters = ['cluster1', 'cluster2', 'cluster3'];
  const workloads = Array.from({ length: count - 1 - clusters.length }, (_, i) => `ns${i % 10}/sa${i}`);
  const pki = await generatePki({ now, clusters, workloads });
  const certs = new Set<string>();
  for (const f of pki.files) {
    if (f.secret) continue;
    for (const m of f.text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g)) certs.add(m[0].endsWith('\n') ? m[0] : `${m[0]}\n`);
  }
  const list = [...certs];
  if (list.length !== count) throw new Error(`bundle: ${list.length} certificates, wanted ${count}`);
  // A fixed shuffle (the order a pile of pasted certificates comes in).
  let seed = 7;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list.join('');
}

export interface CertsBench {
  lines: string[];
}

export async function benchCerts(runs = 5, count = 200): Promise<CertsBench> {
  const now = new Date('2026-06-01T00:00:00Z');
  const text = await makeBundle(count, now);
  const parse: number[] = [];
  const verify: number[] = [];
  let chains = 0;
  let verified = 0;
  for (let i = 0; i <= runs; i++) {
    gc();
    const t0 = performance.now();
    const d = decodeInputs([{ name: 'bundle.pem', text }]);
    const t1 = performance.now();
    const found = d.values.reduce((n, v) => n + v.artefacts.filter((a) => a.kind === 'certificate').length, 0);
    if (found !== count) throw new Error(`parsed ${found} certificates, wanted ${count}`);
    gc();
    const t2 = performance.now();
    const r = await inspect([{ name: 'bundle.pem', text }], { now });
    const t3 = performance.now();
    chains = r.chains.length;
    verified = r.chains.filter((c) => c.go.ok).length;
    if (i > 0) {
      parse.push(t1 - t0);
      verify.push(t3 - t2);
    }
  }
  return {
    lines: [
      `\nCertificates (a ${count}-certificate PEM bundle, EC P-256; median of ${runs} runs after a warm-up):`,
      `  parse (PEM, DER, facts):                                    ${median(parse).toFixed(1).padStart(7)} ms`,
      `  parse and verify (${chains} chains built and checked, ${verified} verified; Istio checks, lints): ${median(verify).toFixed(1).padStart(7)} ms`,
    ],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const b = await benchCerts();
  for (const l of b.lines) console.log(l);
}
