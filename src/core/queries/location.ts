// Where a resource is written, as the query views report it.

/** Where a resource is written in the workspace (1-based lines). */
export interface SourceLocation {
  file: string;
  /** The line istioctl prints for the resource (for a derived pod: its controller's). */
  line: number;
  /** The first and last line of the YAML document that holds it (of the item, for a `kind: List` item). */
  startLine: number;
  endLine: number;
  /** For a pod derived from a controller: where its template sits (`spec.template`). */
  templatePath?: string;
}
