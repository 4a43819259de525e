// What validation finds on one resource. Two layers produce findings, as in Istio: the CRD
// schema the API server checks (types, enums, required fields, formats, CEL rules) and the
// validating webhook's semantic rules (pkg/config/validation). Both report through the
// `schema.ValidationAnalyzer.<Kind>` analyzers: the webhook's errors as IST0106 and warnings
// as IST0133, as istioctl does; the schema layer's findings (which istioctl never reports) as
// our MWB-API-SERVER-REJECTS.

export interface ValidationFinding {
  level: 'error' | 'warning';
  /**
   * Istio's text for the failure, as it follows "Schema validation error: " in istioctl (the
   * webhook's error string), or the API server's wording for a schema failure
   * (`spec.x.y: Invalid value: ...`).
   */
  message: string;
  /** The field the finding is about (`spec.http[0].route[1].weight`), for the editor. */
  path?: string;
  layer: 'schema' | 'webhook';
  /**
   * Schema layer: what the refusal means for the user, when not "kubectl apply fails" (a
   * duplicate key: only a YAML body under strict field validation is refused).
   */
  consequence?: string;
  /** A repeated key: which of its occurrences `path` means (0 = the first; default the last). */
  occurrence?: number;
  /**
   * Istio's analysis-aware webhook findings, reported with their own codes instead of
   * IST0106/IST0133: IST0130 (unreachable rule) and IST0131 (ineffective match).
   */
  analysis?:
    | { type: 'VirtualServiceUnreachableRule'; rule: string; reason: string }
    | { type: 'VirtualServiceIneffectiveMatch'; rule: string; match: string; duplicate: string };
}
