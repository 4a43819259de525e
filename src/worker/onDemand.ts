// A module the worker imports on demand, behind a stand-in that vite.config.ts gives the
// modules importing it in the worker build (credential.lazy.ts, fixes.lazy.ts,
// istioctl.lazy.ts). The stand-in's functions call the real module once it is loaded and
// throw before: the host loads it first (see host.ts), so a call that throws is a bug there.
export interface OnDemand<M> {
  /** The real module; throws if it is not loaded. */
  get(): M;
  loaded(): boolean;
  /** Imports it once; a failed import (a chunk that did not arrive) is tried again next call. */
  load(): Promise<void>;
}

export function onDemand<M>(what: string, importModule: () => Promise<M>): OnDemand<M> {
  let real: M | undefined;
  let loading: Promise<void> | undefined;
  return {
    get() {
      if (real === undefined) throw new Error(`${what} is not loaded`);
      return real;
    },
    loaded: () => real !== undefined,
    load() {
      loading ??= importModule().then(
        (m) => {
          real = m;
        },
        (e: unknown) => {
          loading = undefined;
          throw e;
        },
      );
      return loading;
    },
  };
}
