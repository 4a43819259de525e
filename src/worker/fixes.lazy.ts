// WorkspaceAnalyzer's view of core/analysis/fixes/index.ts in the browser worker
// (vite.config.ts swaps it in for workspace.ts's import): quick fixes are computed after the
// diagnostics are posted, so their code (YAML edits and the fix providers) loads then, not
// before the first diagnostics. The host loads it before calling attachFixes.
import type * as Fixes from '../core/analysis/fixes/index.ts';
import { onDemand } from './onDemand.ts';

export const fixes = onDemand('The quick-fix module', () => import('../core/analysis/fixes/index.ts'));

export const attachFixes: typeof Fixes.attachFixes = (...args) => fixes.get().attachFixes(...args);
export const fixContext: typeof Fixes.fixContext = (...args) => fixes.get().fixContext(...args);
