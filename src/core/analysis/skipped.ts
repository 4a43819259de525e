// Analyzers skipped for lack of input, as istioctl does. `istioctl analyze` on files does
// not read Pods, Services, Namespaces, Nodes or Secrets, and skips every analyzer whose
// inputs include one of them (RemoveSkipped in pkg/config/analysis/analyzer.go). We read
// those kinds from files; an analyzer is skipped only when the workspace holds no object of
// a kind it needs (Pods derived from controllers count; the assumed ingress gateway does
// not), since it would otherwise report every reference to them as missing.
import { KINDS, type KindInfo } from '../document/kinds.ts';
import type { ResourceReader } from '../config/resourceReader.ts';
import type { Analyzer } from './types.ts';

/** The kinds istioctl's file reader leaves out (kuberesource.DefaultExcludedSchemas). */
export const KINDS_NOT_READ_FROM_FILES: readonly KindInfo[] = [KINDS.Service, KINDS.Namespace, KINDS.Node, KINDS.Pod, KINDS.Secret];

export interface SkippedAnalyzer {
  analyzer: string;
  /** Kinds it needs that the workspace holds none of (`Pod`, `Secret`, …). */
  missing: string[];
}

/** The kinds of KINDS_NOT_READ_FROM_FILES of which the workspace holds no object. */
export function absentKinds(store: ResourceReader): Set<KindInfo> {
  const absent = new Set<KindInfo>();
  for (const kind of KINDS_NOT_READ_FROM_FILES) {
    if (!store.list(kind).some((r) => r.synthetic !== 'placeholder')) absent.add(kind);
  }
  return absent;
}

export function partitionByInputs(analyzers: readonly Analyzer[], absent: ReadonlySet<KindInfo>): { run: Analyzer[]; skipped: SkippedAnalyzer[] } {
  const run: Analyzer[] = [];
  const skipped: SkippedAnalyzer[] = [];
  for (const a of analyzers) {
    const optional = new Set(a.metadata.optionalInputs ?? []);
    const missing = a.metadata.inputs.filter((k) => absent.has(k) && !optional.has(k));
    if (missing.length === 0) run.push(a);
    else skipped.push({ analyzer: a.metadata.name, missing: missing.map((k) => k.kind) });
  }
  return { run, skipped };
}

/** One sentence on what was skipped and what to add, for the CLI's stderr and the app. */
export function skippedNotice(skipped: readonly SkippedAnalyzer[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const kinds = [...new Set(skipped.flatMap((s) => s.missing))];
  const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);
  const names = skipped.map((s) => s.analyzer).join(', ');
  const n = skipped.length;
  return `Skipped ${n} analyzer${n === 1 ? '' : 's'} that need${n === 1 ? 's' : ''} ${list(kinds.map((k) => `${k}s`))}, of which the files hold none (istioctl analyze skips them too): ${names}. Add those objects (for example from kubectl get ${kinds.map((k) => k.toLowerCase() + 's').join(',')} -A -o yaml) to run them.`;
}
