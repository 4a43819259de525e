// Route tests over the analyzed workspace: the files that hold RouteTests documents, and the
// report of running one of them (or a text given by the caller, as the CLI does).
import { readRouteTestDocuments, readRouteTests, runRouteTests, looksLikeRouteTests, type RouteTestsReport } from '../xds/routeTests/index.ts';
import type { SourceDocument } from '../document/types.ts';
import { argBag, optString, QueryError, type QueryState } from './common.ts';
import type { RouteTestFilesResult } from './views.ts';

function documentsOf(state: QueryState, file: string): SourceDocument[] {
  const out: SourceDocument[] = [];
  for (let i = 0; ; i++) {
    const d = state.document(file, i);
    if (!d) break;
    out.push(d);
  }
  return out;
}

export function answerRouteTestFiles(_raw: unknown, state: QueryState): RouteTestFilesResult {
  const files: RouteTestFilesResult['files'] = [];
  for (const file of state.files?.() ?? []) {
    const docs = documentsOf(state, file).filter((d) => looksLikeRouteTests(d.text));
    if (docs.length === 0) continue;
    const read = readRouteTestDocuments(file, docs);
    files.push({ file, tests: read.suites.reduce((n, s) => n + s.tests.length, 0), problems: read.problems.length });
  }
  return { files };
}

export function answerRouteTests(raw: unknown, state: QueryState): RouteTestsReport {
  const bag = argBag(raw);
  const file = optString(bag, 'file');
  if (file === undefined || file === '') throw new QueryError('The routeTests query needs a file (a route-test file of the workspace).');
  const text = optString(bag, 'text');
  if (text !== undefined) return runRouteTests(state.view, readRouteTests(file, text));
  const docs = documentsOf(state, file);
  if (docs.length === 0 && !(state.files?.() ?? []).includes(file)) throw new QueryError(`No file "${file}" in the workspace.`);
  return runRouteTests(state.view, readRouteTestDocuments(file, docs));
}
