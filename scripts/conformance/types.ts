// The result of one conformance case, whatever the suite.
export interface CaseResult {
  suite: string;
  /** Suite-qualified id (`analyzers/<case id>`, `xds/authz/http/<case>`), as in the baseline file. */
  id: string;
  /** What ran the case: the analyzer's name, or the suite part. */
  analyzer: string;
  passed: boolean;
  missing: string[];
  extra: string[];
  error?: string;
}
