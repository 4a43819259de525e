// WorkspaceAnalyzer's view of the Kiali pack in the browser worker (vite.config.ts swaps it in
// for workspace.ts's import): the pack runs only when its toggle is on, and the host loads it
// after the first diagnostics, so it never delays them (see host.ts).
import type * as KialiDiagnostics from '../core/analysis/packs/kiali/diagnostics.ts';
import { onDemand } from './onDemand.ts';

export const kialiPack = onDemand('the Kiali pack', () => import('../core/analysis/packs/kiali/diagnostics.ts'));

export const kialiDiagnostics: typeof KialiDiagnostics.kialiDiagnostics = (...args) => kialiPack.get().kialiDiagnostics(...args);
