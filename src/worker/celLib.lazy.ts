// The browser worker's stand-in for core/validation/schema/celLib.ts (vite.config.ts swaps it
// in for the worker build): the same two namespaces, filled by a dynamic import so
// @bufbuild/cel and @bufbuild/re2 (about 90 KB gzip) stay out of the worker's first chunk.
// Until the library has loaded both are undefined and cel.ts refuses to run a rule through CEL
// (it throws rather than judge); the worker loads the library before analyzing a resource that
// has a rule the native checks cannot decide (libGates.ts).
import type * as CelNamespace from '@bufbuild/cel';
import type * as CelExtNamespace from '@bufbuild/cel/ext';
import { onDemand } from './onDemand.ts';

// Live bindings: cel.ts reads them at call time, so assigning them here is all loading takes.
export let cel = undefined as unknown as typeof CelNamespace;
export let celExt = undefined as unknown as typeof CelExtNamespace;

export const celLibrary = onDemand('The CEL library', async () => {
  const [c, ext] = await Promise.all([import('@bufbuild/cel'), import('@bufbuild/cel/ext')]);
  cel = c;
  celExt = ext;
  return { cel: c, celExt: ext };
});

/** Whether the library is there (cel.ts may run rules through CEL). */
export const celLibLoaded = (): boolean => celLibrary.loaded();

/** Loads the library once; a failed load (a chunk that did not arrive) is tried again next call. */
export const loadCelLib = (): Promise<void> => celLibrary.load();
