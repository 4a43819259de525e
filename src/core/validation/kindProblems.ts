// Problems with a document's apiVersion/kind that the API server would report and that
// analysis would otherwise pass over in silence: a kind that does not exist in an Istio or
// Gateway API group (named, with the closest kind), a version the API server does not serve,
// and deprecated versions (with the version to move to). The wording comes from
// validation/schema/kinds.ts; here it becomes a document problem on the offending line. The
// document layer (document/) calls it through the KindJudge it is given, as it knows no schemas.
import type { Diagnostic, KindJudge, SourceDocument } from '../document/types.ts';
import { kindFindings } from './schema/kinds.ts';
import { PairCache } from '../document/maps.ts';

export const KIND_PROBLEM_CODES = { unknownKind: 'MWB-UNKNOWN-KIND', deprecatedApi: 'MWB-DEPRECATED-API' } as const;

const cache = new PairCache<ReturnType<typeof kindFindings>>(4096);

function findingsOf(apiVersion: string, kind: string): ReturnType<typeof kindFindings> {
  return cache.get(apiVersion, kind, () => kindFindings(apiVersion, kind));
}

/** The 1-based file line and columns of a top-level `field:` in the document, if written plainly. */
function fieldLine(doc: SourceDocument, field: string): { line: number; startCol: number; endCol: number } | undefined {
  const lines = doc.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    const m = new RegExp(`^(["']?)${field}\\1\\s*:\\s*(.*?)\\s*$`).exec(l);
    if (m) {
      const valueStart = l.indexOf(':') + 1 + (l.slice(l.indexOf(':') + 1).length - l.slice(l.indexOf(':') + 1).trimStart().length);
      return { line: doc.startLine + i, startCol: valueStart + 1, endCol: Math.max(valueStart + 2, l.trimEnd().length + 1) };
    }
  }
  return undefined;
}

/** Problems of one resource's apiVersion/kind (only for documents read from a file). */
export const kindProblems: KindJudge = (doc: SourceDocument, apiVersion: string, kind: string): Diagnostic[] => {
  const found = findingsOf(apiVersion, kind);
  if (found.length === 0) return [];
  return found.map((f) => {
    const at = fieldLine(doc, f.path === 'kind' ? 'kind' : 'apiVersion');
    const line = at?.line ?? doc.referenceLine;
    return {
      level: 'Warning',
      code: f.level === 'warning' ? KIND_PROBLEM_CODES.deprecatedApi : KIND_PROBLEM_CODES.unknownKind,
      message: f.level === 'warning' ? f.message : `${f.message}${/[.?]$/.test(f.message) ? '' : '.'} It was not analyzed.`,
      file: doc.file,
      line,
      range: { startLine: line, startCol: at?.startCol ?? 1, endLine: line, endCol: at?.endCol ?? 200 },
      source: 'parser',
    } satisfies Diagnostic;
  });
};
