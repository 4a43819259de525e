// `mesh-workbench analyze --pack kiali`: Kiali's validations (KIA codes) on the files, offline,
// instead of Istio's analyzers. One line per finding, or JSON; exit 79 at --failure-threshold.
import type { Level } from '../core/document/types.ts';
import { loadMesh } from '../core/meshLoader.ts';
import { runKialiPack, type KialiSeverity } from '../core/analysis/packs/kiali/index.ts';
import { UsageError } from './args.ts';
import type { InputFile } from './files.ts';

export const PACKS = ['kiali'] as const;

/** Kiali's severities as our levels: `unknown` (neither error nor warning) is Info. */
export function kialiLevel(s: KialiSeverity): Level {
  return s === 'error' ? 'Error' : s === 'warning' ? 'Warning' : 'Info';
}

export interface KialiPackOptions {
  format: string;
  /** Namespace for resources without one. */
  defaultNamespace: string;
  /** Report only this namespace (undefined: all). */
  namespaceFilter?: string;
  meshConfigText?: string;
  meshNetworksText?: string;
  /** Assume the ingress gateway Istio's default chart installs when the files run none (as `analyze` does; off with --no-placeholders). */
  includePlaceholders?: boolean;
  shown: (level: Level) => boolean;
  fails: (level: Level) => boolean;
}

export interface KialiFindingLine {
  level: Level;
  code: string;
  kind: string;
  namespace: string;
  name: string;
  path: string;
  message: string;
  file?: string;
}

/** Runs the pack over the files; returns the findings in file, then object, then path order. */
export function kialiFindings(
  files: readonly InputFile[],
  o: Pick<KialiPackOptions, 'defaultNamespace' | 'meshConfigText' | 'meshNetworksText' | 'includePlaceholders'>,
): KialiFindingLine[] {
  const { view } = loadMesh(
    files.map((f) => ({ path: f.name, text: f.text })),
    {
      defaultNamespace: o.defaultNamespace,
      includePlaceholders: o.includePlaceholders ?? true,
      deriveWorkloads: false,
      ...(o.meshConfigText !== undefined ? { meshConfigText: o.meshConfigText } : {}),
      ...(o.meshNetworksText !== undefined ? { meshNetworksText: o.meshNetworksText } : {}),
    },
  );
  const out: KialiFindingLine[] = [];
  for (const v of runKialiPack(view))
    for (const c of v.checks)
      out.push({
        level: kialiLevel(c.severity),
        code: c.code,
        kind: v.object.kind,
        namespace: v.object.namespace,
        name: v.object.name,
        path: c.path,
        message: c.message,
        ...(v.resource?.source?.file !== undefined ? { file: v.resource.source.file } : {}),
      });
  const key = (f: KialiFindingLine) => `${f.file ?? ''}\u0000${f.kind}\u0000${f.namespace}\u0000${f.name}\u0000${f.path}\u0000${f.code}`;
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Prints the pack's findings; returns whether one reached the failure threshold. */
export function printKialiPack(files: readonly InputFile[], o: KialiPackOptions, stdout: (s: string) => void): boolean {
  if (o.format !== 'log' && o.format !== 'json') throw new UsageError(`--pack kiali prints -o log or -o json, not ${o.format}`);
  const all = kialiFindings(files, o).filter((f) => o.namespaceFilter === undefined || f.namespace === o.namespaceFilter);
  const shown = all.filter((f) => o.shown(f.level));
  if (o.format === 'json') stdout(`${JSON.stringify(shown, null, 2)}\n`);
  else for (const f of shown) stdout(`${f.level} [${f.code}] (${f.kind} ${f.namespace}/${f.name} ${f.path}) ${f.message}\n`);
  return all.some((f) => o.fails(f.level));
}
