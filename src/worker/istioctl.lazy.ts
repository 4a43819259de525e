// WorkspaceAnalyzer's view of core/analysis/istioctlMode.ts in the browser worker
// (vite.config.ts swaps it in for workspace.ts's import): istioctl's file reader and analyzer
// selection are used only in istioctl mode, which the host loads before a run in that mode.
import type * as IstioctlMode from '../core/analysis/istioctlMode.ts';
import { onDemand } from './onDemand.ts';

export const istioctlMode = onDemand('istioctl mode', () => import('../core/analysis/istioctlMode.ts'));

export const istioctlRun: typeof IstioctlMode.istioctlRun = (...args) => istioctlMode.get().istioctlRun(...args);
export const isIstioCode: typeof IstioctlMode.isIstioCode = (...args) => istioctlMode.get().isIstioCode(...args);
