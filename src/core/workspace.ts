// Contract stub: replaced by the real implementation (parser cache + store + analyzers).
import type { Diagnostic, Resource, WorkspaceFile } from './model/types.ts';
import type { AnalysisSettings } from './analysis/settings.ts';

export interface WorkspaceResult {
  diagnostics: Diagnostic[];
  resources: Resource[];
  assumptions: string[];
  stats: { files: number; documents: number; resources: number; parseMs: number; analyzeMs: number; reparsedDocuments: number };
}

export interface RunOptions {
  /** Polled between units of work; return true to abandon the run. */
  canceled?: () => boolean;
  /** Yield to the event loop this often (ms) so newer messages can arrive. 0 = never. */
  yieldEveryMs?: number;
}

export class WorkspaceAnalyzer {
  private files = new Map<string, string>();
  update(changed: WorkspaceFile[], removed: string[]): void {
    for (const f of changed) this.files.set(f.path, f.text);
    for (const p of removed) this.files.delete(p);
  }
  async run(_settings: AnalysisSettings, _options: RunOptions = {}): Promise<WorkspaceResult | 'canceled'> {
    return { diagnostics: [], resources: [], assumptions: [], stats: { files: this.files.size, documents: 0, resources: 0, parseMs: 0, analyzeMs: 0, reparsedDocuments: 0 } };
  }
}
