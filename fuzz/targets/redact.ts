// Target `redact`: redaction before sharing (core/share/redact.ts), end to end through a
// real link. Inputs: workspaces with secret material in every shape (gen/secretWorkspace.ts)
// and edits people make. Properties, for every input:
//   - no secret string of the input's ground truth (random tokens, private-key bodies, the
//     base64 stretches that encode only secret bytes) appears in the decoded link, compared
//     without white space in 24-character pieces, so wrapping at any width counts too;
//   - the app's own reader (the same splitter and parser as the analysis) finds no Secret
//     value in the redacted text other than the marker, an empty value or certificates, and
//     certificates are judged by Node's X.509 parser, not by ours;
//   - every file keeps its number of line breaks (no line moves);
//   - nothing throws, and it returns within the time limit.
import { X509Certificate } from 'node:crypto';
import { redact } from '../../src/core/share/redact.ts';
import { decodeShareFragment, encodeShareFragment } from '../../src/core/share/link.ts';
import { splitDocuments } from '../../src/core/document/split.ts';
import { parseSourceDocument } from '../../src/core/document/parse.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import { publicMaterial, secretWorkspaceArb, type SecretWorkspace } from '../gen/secretWorkspace.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';

const PIECE = 24;

/**
 * What the workspaces show in public: their certificates, flat and in base64 at every
 * alignment. A key shares pieces with them (the P-256 OIDs of an EC key are also in its
 * certificate), and those pieces are no leak.
 */
const PUBLIC = (() => {
  const out: string[] = [];
  for (const p of publicMaterial()) {
    out.push(p.replace(/\s+/g, ''));
    for (let pad = 0; pad < 3; pad++) out.push(Buffer.from('x'.repeat(pad) + p).toString('base64'));
  }
  return out.join('\n');
})();

/** Node's reading: one DER certificate, or PEM certificates and nothing but white space. */
export function certificatesOnly(v: string): boolean {
  const blocks = v.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  try {
    if (blocks.length === 0) return new X509Certificate(Buffer.from(v, 'latin1')).raw.length === v.length;
    for (const b of blocks) new X509Certificate(b);
  } catch {
    return false;
  }
  return blocks.reduce((rest, b) => rest.replace(b, ''), v).trim() === '';
}

/** Secret values the app reads in a file (data decoded), by an independent walk of its parse. */
export function appSecretValues(path: string, text: string): string[] {
  const out: string[] = [];
  const visit = (o: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(o)) return o.forEach((x) => visit(x, depth + 1));
    if (!o || typeof o !== 'object') return;
    const r = o as Record<string, unknown>;
    if (r.kind === 'Secret') {
      for (const field of ['data', 'stringData']) {
        const m = r[field];
        if (!m || typeof m !== 'object') continue;
        for (const v of Object.values(m)) {
          if (v === null || v === undefined || v === '') continue;
          out.push(typeof v !== 'string' ? JSON.stringify(v) : field === 'data' ? Buffer.from(v, 'base64').toString('latin1') : v);
        }
      }
    }
    if (Array.isArray(r.items)) visit(r.items, depth + 1);
  };
  for (const d of splitDocuments(path, text)) visit(parseSourceDocument(d).value, 0);
  return out;
}

function breaks(s: string): number {
  return (s.match(/\r\n|\r|\n/g) ?? []).length;
}

function checkRedaction(input: SecretWorkspace, options: CheckOptions): CheckOutcome {
  const result = guarded('redact', options.timeLimitMs, () => redact(input.files));
  const link = guarded('encodeShareFragment', options.timeLimitMs, () => encodeShareFragment({ files: result.files, redacted: result.items }));
  const shared = guarded('decodeShareFragment', options.timeLimitMs, () => decodeShareFragment(link)).files;
  for (const [i, f] of shared.entries()) {
    const before = input.files[i]!;
    if (breaks(f.text) !== breaks(before.text)) throw new FuzzFailure('divergence', `${f.path}: ${breaks(before.text)} line breaks became ${breaks(f.text)}`);
    const flat = f.text.replace(/\s+/g, '');
    for (const s of input.secrets) {
      const secretFlat = s.replace(/\s+/g, '');
      for (let at = 0; at + PIECE <= secretFlat.length; at += PIECE / 2) {
        const piece = secretFlat.slice(at, at + PIECE);
        if (piece.includes('-----') || PUBLIC.includes(piece)) continue;
        if (flat.includes(piece))
          throw new FuzzFailure('divergence', `leak in ${f.path}: ${JSON.stringify(piece)} of secret ${JSON.stringify(s.slice(0, 40))}…`);
      }
    }
    for (const v of appSecretValues(f.path, f.text)) {
      if (v.trim() === 'REDACTED' || certificatesOnly(v)) continue;
      throw new FuzzFailure('divergence', `the app reads an unredacted Secret value in ${f.path}: ${JSON.stringify(v.slice(0, 60))}`);
    }
  }
  return 'ok';
}

export const redactTarget: Target<SecretWorkspace> = {
  name: 'redact',
  description: 'share-link redaction: no secret byte in the decoded link, no Secret value the app reads, no line moved',
  arbitrary: () => secretWorkspaceArb,
  check: checkRedaction,
  async: false,
  smokeRuns: 2000,
};
