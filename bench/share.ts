// Share-link sizes and speed: for each sample, our link (deflate with the preset dictionary,
// base64url) against lz-string's compressToEncodedURIComponent of the files as JSON (the
// TypeScript playground's encoding); then encode and decode time of a 1 MB workspace.
// `npm run bench` runs it; `npm run bench:share` runs only this.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import lz from 'lz-string';
import { decodeShareFragment, encodeShareFragment } from '../src/core/share/link.ts';
import { redact } from '../src/core/share/redact.ts';
import { generateMesh } from './generateMesh.ts';

interface SampleIndex {
  samples: Array<{ id: string; title: string; files: string[] }>;
}

export interface ShareCheck {
  label: string;
  pass: boolean;
  detail: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export function benchShare(): ShareCheck[] {
  const root = fileURLToPath(new URL('../public/samples/', import.meta.url));
  const idx = JSON.parse(readFileSync(`${root}index.json`, 'utf8')) as SampleIndex;
  const checks: ShareCheck[] = [];
  console.log(
    '\nShare links (characters after "#"; ours: deflate + preset dictionary + base64url; lz-string: compressToEncodedURIComponent of the files as JSON):',
  );
  console.log(`  ${'sample'.padEnd(26)} ${'YAML'.padStart(8)} ${'ours'.padStart(7)} ${'lz-string'.padStart(10)}  smaller by`);
  for (const s of idx.samples) {
    const files = s.files.map((f) => ({ path: f, text: readFileSync(`${root}${s.id}/${f}`, 'utf8') }));
    const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const ours = encodeShareFragment({ files }).length;
    const theirs = lz.compressToEncodedURIComponent(JSON.stringify(files)).length;
    const saving = 1 - ours / theirs;
    console.log(
      `  ${s.id.padEnd(26)} ${bytes.toLocaleString('en-US').padStart(8)} ${ours.toLocaleString('en-US').padStart(7)} ${theirs.toLocaleString('en-US').padStart(10)}  ${(saving * 100).toFixed(0)}%`,
    );
    if (s.id === 'bookinfo') {
      // A small link is made per click (Share…) and per fuzz input: its cost should be the sample's, not a fixed table's.
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        encodeShareFragment({ files });
        times.push(performance.now() - t0);
      }
      console.log(`  ${''.padEnd(26)} encode of the Bookinfo link: ${median(times.slice(20)).toFixed(2)} ms (median of 20 after 20 to warm up)`);
      checks.push({
        label: 'share link of Bookinfo >= 45% smaller than lz-string',
        pass: saving >= 0.45,
        detail: `${ours} vs ${theirs} characters (${(saving * 100).toFixed(0)}% smaller)`,
      });
      checks.push({
        label: `Bookinfo workspace (${(bytes / 1024).toFixed(1)} KB of YAML) in a link under 2,500 characters`,
        pass: ours < 2500,
        detail: `${ours} characters`,
      });
    }
  }

  // A 1 MB workspace: the generated mesh, cut to 1 MiB at a document boundary.
  let text = generateMesh(400).text;
  while (Buffer.byteLength(text) < 1024 * 1024) text += text;
  text = text.slice(0, text.indexOf('\n---\n', 1024 * 1024) + 1 || text.length);
  const big = [{ path: 'mesh.yaml', text }];
  const enc: number[] = [];
  const dec: number[] = [];
  let link = '';
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    link = encodeShareFragment({ files: big });
    const t1 = performance.now();
    decodeShareFragment(link);
    const t2 = performance.now();
    if (i > 0) {
      enc.push(t1 - t0);
      dec.push(t2 - t1);
    }
  }
  console.log(
    `  1 MB workspace (${(Buffer.byteLength(text) / (1024 * 1024)).toFixed(2)} MB, ${big.length} file): link ${link.length.toLocaleString('en-US')} characters; encode ${median(enc).toFixed(0)} ms, decode ${median(dec).toFixed(0)} ms (median of 5)`,
  );

  // Redaction runs on the page's thread when the Share dialog opens and when its choices change.
  const material = JSON.parse(readFileSync(fileURLToPath(new URL('../tests/fixtures/share/secret-material.json', import.meta.url)), 'utf8')) as Record<
    string,
    string
  >;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  let withSecrets = text;
  for (let i = 0; i < 50; i++)
    withSecrets += `---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: tls-${i}\n  namespace: shop\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${b64(material.leafCert!)}\n  tls.key: ${b64(material.rsaPkcs8!)}\n`;
  for (const [label, body, budget] of [
    ['1 MB workspace', text, 250],
    ['same workspace with 50 TLS Secrets', withSecrets, 500],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      redact([{ path: 'mesh.yaml', text: body }]);
      if (i > 0) times.push(performance.now() - t0);
    }
    const ms = median(times);
    console.log(`  redaction of the ${label}: ${ms.toFixed(0)} ms (median of 5)`);
    checks.push({ label: `redaction of the ${label} <= ${budget} ms`, pass: ms <= budget, detail: `${ms.toFixed(0)} ms` });
  }
  return checks;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const checks = benchShare();
  console.log('\nTargets:');
  for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.label}: ${c.detail}`);
  process.exitCode = checks.every((c) => c.pass) ? 0 : 1;
}
