// EXTENSION_CONFIG patches (pilot/pkg/networking/core/envoyfilter/
// extension_configuration_patch.go): the ADDed TypedExtensionConfigs a proxy asks for by name
// over ECDS. Only ADD counts and the patch context is not consulted. Generation asks for the
// names the listeners' filters take from ECDS (generate.ts extensionConfigNames).
import type { Json } from '../types.ts';
import { patchesFor } from './select.ts';
import { valueCopy, type PatchRun } from './run.ts';

/** InsertedExtensionConfigurations: the ADDed extension configs named in `names`, in patch order. */
export function insertedExtensionConfigurations(run: PatchRun, names: readonly string[]): Json[] {
  const wanted = new Set(names);
  const out: Json[] = [];
  for (const p of patchesFor(run.merged, 'EXTENSION_CONFIG')) {
    if (p.operation !== 'ADD' || !p.value) continue;
    if (typeof p.value.name === 'string' && wanted.has(p.value.name)) out.push(valueCopy(run, p, 'added'));
  }
  return out;
}
