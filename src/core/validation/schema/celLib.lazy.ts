// The browser worker's stand-in for celLib.ts (vite.config.ts swaps it in for the worker
// build): the same two namespaces, filled by a dynamic import so @bufbuild/cel and
// @bufbuild/re2 (about 90 KB gzip) stay out of the worker's first chunk. Until
// `loadCelLib()` has resolved both are undefined and cel.ts refuses to run a rule through CEL
// (it throws rather than judge); the worker loads the library before analyzing a resource
// that has a rule the native checks cannot decide (src/worker/libGates.ts).
import type * as CelNamespace from '@bufbuild/cel';
import type * as CelExtNamespace from '@bufbuild/cel/ext';

// Live bindings: cel.ts reads them at call time, so assigning them here is all loading takes.
export let cel = undefined as unknown as typeof CelNamespace;
export let celExt = undefined as unknown as typeof CelExtNamespace;

let loading: Promise<void> | undefined;

/** Whether the library is there (cel.ts may run rules through CEL). */
export function celLibLoaded(): boolean {
  return cel !== undefined && celExt !== undefined;
}

/** Loads the library once; a failed load (a chunk that did not arrive) is tried again next call. */
export function loadCelLib(): Promise<void> {
  loading ??= Promise.all([import('@bufbuild/cel'), import('@bufbuild/cel/ext')]).then(
    ([c, ext]) => {
      cel = c;
      celExt = ext;
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}
