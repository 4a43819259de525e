// Target `share-link`: the share-link decoder and the workspace import (zip or YAML bundle).
// Any fragment either decodes or throws a ShareLinkError (never another error, never a hang,
// never more than the cap); what decodes encodes to a link that decodes to the same state.
// Inputs: links of real workspaces (the seed manifests), then damaged: bytes flipped, cut,
// spliced, characters swapped, and plain strings. Imports get the same treatment.
import fc from 'fast-check';
import { decodeShareFragment, encodeShareBytes, encodeShareFragment, SHARE_PREFIX, ShareLinkError, type ShareState } from '../../src/core/share/link.ts';
import { toBase64Url } from '../../src/core/share/bytes.ts';
import { exportYamlBundle, exportZip, importBundle, ImportError } from '../../src/core/share/bundle.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOptions, CheckOutcome, Target } from '../target.ts';
import type { Seeds } from '../gen/seeds.ts';

export interface ShareLinkInput {
  kind: 'link' | 'import';
  /** For `link`: the fragment after `#`. For `import`: the file's bytes as base64url. */
  data: string;
  name?: string;
}

/** Cap used while fuzzing: small, so bombs are cheap to find and to refuse. */
const FUZZ_CAP = 4 * 1024 * 1024;

type Mutation = { op: 'flip' | 'cut' | 'insert' | 'set'; at: number; value: number };

function mutate(bytes: Uint8Array, ms: Mutation[]): Uint8Array {
  let b = Array.from(bytes);
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    if (m.op === 'flip' && b.length) b[at] = b[at]! ^ (1 << (m.value % 8));
    else if (m.op === 'set' && b.length) b[at] = m.value & 0xff;
    else if (m.op === 'cut') b = b.slice(0, at);
    else b.splice(at, 0, m.value & 0xff);
  }
  return Uint8Array.from(b);
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({ op: fc.constantFrom('flip', 'cut', 'insert', 'set'), at: fc.nat(), value: fc.nat(255) });

function stateArb(seeds: Seeds): fc.Arbitrary<ShareState> {
  const file = fc.record({ path: fc.oneof(fc.constantFrom('a.yaml', 'dir/b.yaml', '<img src=x onerror=alert(1)>.yaml'), fc.string({ minLength: 1, maxLength: 12 })), text: fc.oneof(fc.constantFrom(...seeds.documents.slice(0, 200)), fc.string({ maxLength: 200 })) });
  return fc.record({
    files: fc.uniqueArray(file, { maxLength: 4, selector: (f) => f.path }),
    view: fc.option(fc.record({ file: fc.constant('a.yaml'), line: fc.nat(50) }), { nil: undefined }),
  }).map((s) => ({ files: s.files.filter((f) => !/[\u0000-\u001f\u007f]/.test(f.path)), ...(s.view && s.view.line > 0 ? { view: s.view } : {}) }));
}

export function checkShareLink(input: ShareLinkInput, options: CheckOptions): CheckOutcome {
  const t0 = performance.now();
  if (input.kind === 'import') {
    const r = fromB64(input.data);
    try {
      const files = importBundle(input.name ?? 'import.yaml', r);
      if (!Array.isArray(files)) throw new FuzzFailure('divergence', 'import gave no list');
    } catch (e) {
      if (e instanceof FuzzFailure) throw e;
      if (!(e instanceof ImportError)) throw new FuzzFailure('crash', `importBundle threw ${describeError(e)} (not an ImportError)`);
      if (!e.message || /undefined|\[object/.test(e.message)) throw new FuzzFailure('divergence', `import error without a sane message: ${e.message}`);
    }
    const ms = performance.now() - t0;
    if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `importBundle took ${ms.toFixed(0)} ms`);
    return 'ok';
  }
  let state: ShareState | undefined;
  try {
    state = decodeShareFragment(input.data, { maxDecompressedBytes: FUZZ_CAP });
  } catch (e) {
    if (!(e instanceof ShareLinkError)) throw new FuzzFailure('crash', `decodeShareFragment threw ${describeError(e)} (not a ShareLinkError)`);
    if (!e.message || /undefined|NaN|\[object/.test(e.message)) throw new FuzzFailure('divergence', `link error without a sane message: ${JSON.stringify(e.message)}`);
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `decodeShareFragment took ${ms.toFixed(0)} ms`);
  if (!state) return 'ok';
  const size = state.files.reduce((n, f) => n + f.text.length, 0) + (state.before ?? []).reduce((n, f) => n + f.text.length, 0);
  if (size > FUZZ_CAP) throw new FuzzFailure('divergence', `decoded ${size} characters, over the cap`);
  const again = decodeShareFragment(encodeShareFragment(state), { maxDecompressedBytes: FUZZ_CAP * 2 });
  if (JSON.stringify(again) !== JSON.stringify(state)) throw new FuzzFailure('divergence', 'a decoded link re-encodes to a different state');
  return 'ok';
}

function fromB64(s: string): Uint8Array {
  const bin = s.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(bin + '='.repeat((4 - (bin.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

export const shareLinkTarget: Target<ShareLinkInput> = {
  name: 'share-link',
  description: 'share-link decoder and workspace import: typed errors only, caps hold, decode∘encode round-trips',
  arbitrary: (seeds) =>
    fc.oneof(
      { weight: 5, arbitrary: fc.tuple(stateArb(seeds), fc.array(mutationArb, { maxLength: 3 })).map(([s, ms]) => ({ kind: 'link' as const, data: SHARE_PREFIX + toBase64Url(mutate(encodeShareBytes(s), ms)) })) },
      { weight: 2, arbitrary: fc.tuple(stateArb(seeds), fc.nat(), fc.constantFrom('!', '%', '=', ' ', 'A', '%zz', '\u00e9')).map(([s, at, c]) => { const f = encodeShareFragment(s); const i = SHARE_PREFIX.length + (at % Math.max(1, f.length - SHARE_PREFIX.length)); return { kind: 'link' as const, data: f.slice(0, i) + c + f.slice(i + 1) }; }) },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => ({ kind: 'link' as const, data: SHARE_PREFIX + s })) },
      { weight: 2, arbitrary: fc.tuple(stateArb(seeds), fc.boolean(), fc.array(mutationArb, { maxLength: 3 })).map(([s, zip, ms]) => ({ kind: 'import' as const, name: zip ? 'w.zip' : 'w.yaml', data: toBase64Url(mutate(zip ? exportZip(s.files) : new TextEncoder().encode(exportYamlBundle(s.files)), ms)) })) },
    ),
  check: checkShareLink,
  async: false,
  smokeRuns: 500,
};
