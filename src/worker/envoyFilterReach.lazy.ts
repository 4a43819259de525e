// The analyzers' view of core/xds/envoyFilterReach.ts in the browser worker (vite.config.ts
// swaps it in for their imports): the same function, calling the real module once loaded.
// It needs the whole xDS generator, which stays out of the worker's first chunk: only
// envoyfilter.PatchReachAnalyzer calls it, and only when the workspace holds an EnvoyFilter,
// so the host loads the module before a run whose resources hold one (libGates.ts). Called
// before that it throws, which the analyzer would report as an internal error: the gate must
// not miss.
import type * as Reach from '../core/xds/envoyFilterReach.ts';
import { onDemand } from './onDemand.ts';

export const envoyFilterReachModule = onDemand('The xDS generator', () => import('../core/xds/envoyFilterReach.ts'));

export const envoyFilterReach: typeof Reach.envoyFilterReach = (...args) => envoyFilterReachModule.get().envoyFilterReach(...args);
export const envoyFilterValueProblems: typeof Reach.envoyFilterValueProblems = (...args) => envoyFilterReachModule.get().envoyFilterValueProblems(...args);
