// Shared shapes of the resource model. Everything here is plain data so it can cross the
// worker boundary with structuredClone.

/** 1-based lines and columns; end is exclusive (like Monaco's ranges). */
export interface SourceRange {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

/** Where a field path points in a document (see locate.ts and fastLocate.ts). */
export interface FieldLocation {
  /** Range of the key (absent for sequence items and the document root). */
  key?: SourceRange;
  /** Range of the value node. */
  value: SourceRange;
  /** True when the value is a scalar (Istio's field map only holds scalars). */
  scalar: boolean;
  /** True when the whole path resolved (otherwise this is the deepest ancestor found). */
  exact: boolean;
}

export interface WorkspaceFile {
  path: string;
  text: string;
}

/** One YAML document (or a whole JSON file) cut out of a workspace file. */
export interface SourceDocument {
  file: string;
  /** 0-based index of the document inside its file. */
  index: number;
  text: string;
  /** Offset of `text` inside the file. */
  startOffset: number;
  /** 1-based file line on which `text` starts. */
  startLine: number;
  /**
   * The line istioctl prints for a message on this document when no field is mapped:
   * the first line of the chunk after the `---` separator.
   */
  referenceLine: number;
  isJson: boolean;
  /**
   * istioctl's chunk for this document begins with the separator line just above `text`
   * (line startLine - 1): its reader puts a separator that ends no document (the file's
   * first line, or one right after a separator that ended one) into the next chunk, and
   * counts that chunk's field lines from it. Absent means false.
   */
  separatorInChunk?: boolean;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Where a resource came from. Synthetic resources (mesh config, placeholders) have none. */
export interface ResourceSource {
  file: string;
  docIndex: number;
  /** Index inside `items` when the resource came from a `kind: List` document. */
  itemIndex?: number;
  /** Reference line istioctl would print for this resource (file line, 1-based). */
  line: number;
  isJson: boolean;
  /**
   * For a pod derived from a controller: the path of the pod template in the controller
   * (`spec.template`), under which the pod's `metadata` and `spec` are found in the file.
   */
  templatePath?: readonly string[];
}

export interface Resource {
  /** Unique in a store: `<kindId>/<namespace>/<name>`. */
  key: string;
  /** Registry id of the kind, e.g. `networking.istio.io/VirtualService`; see kinds.ts. */
  kindId: string;
  gvk: GroupVersionKind;
  namespace: string;
  name: string;
  /** Prototype-less: any key can be looked up safely. */
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  /** The whole object as parsed (apiVersion, kind, metadata, spec, …). */
  body: Record<string, unknown>;
  source?: ResourceSource;
  /**
   * Set on resources we add ourselves: placeholders, synthetic mesh config, and pods
   * derived from a controller whose own pods are not in the workspace.
   */
  synthetic?: 'placeholder' | 'meshconfig' | 'meshnetworks' | 'derived';
  /** For a derived pod: the controller it was derived from. */
  derivedFrom?: { kind: string; namespace: string; name: string };
  /** Multi-cluster analysis: the cluster the resource belongs to. */
  cluster?: string;
  /**
   * Keys its document repeats inside this object (the later value is in `body`), with the
   * API server's strict decoding error and the editor path of the earlier key. Set on Istio's
   * kinds, whose validation reports them (see parse.ts DuplicateKey).
   */
  duplicateKeys?: ReadonlyArray<{ path?: string; occurrence?: number; message: string }>;
}

export type Level = 'Error' | 'Warning' | 'Info';

export const LEVEL_ORDER: Record<Level, number> = { Error: 0, Warning: 1, Info: 2 };

/**
 * What the UI, CLI and formatters consume: an analyzer message or a parser problem,
 * already rendered and located.
 */
export interface Diagnostic {
  level: Level;
  /** `IST0101` for analyzer messages; `MWB-…` codes for our own parser/input problems. */
  code: string;
  message: string;
  /** istioctl's FriendlyName of the resource (`Kind ns/name`), when there is one. */
  origin?: string;
  resourceKey?: string;
  /** Workspace file and the line istioctl prints (`file:line`). */
  file?: string;
  line?: number;
  /** Exact range of the offending key/value (or the document) for the editor. */
  range?: SourceRange;
  fieldPath?: string;
  analyzer?: string;
  docUrl?: string;
  cluster?: string;
  /** The message is about a pod we derived from this controller (`Deployment ns/name`). */
  derivedFrom?: string;
  source: 'analyzer' | 'parser';
  /** Codes of another tool's checks reporting the same problem here (Kiali's, for an IST message). */
  alsoReportedAs?: string[];
  /**
   * Editor quick fixes computed after analysis (best first). Not part of istioctl's output:
   * the formatters never print it.
   */
  fixes?: QuickFix[];
}

/**
 * Problems with a document's apiVersion/kind (validation/kindProblems.ts). The document layer
 * is given it rather than importing it: it knows no API schemas.
 */
export type KindJudge = (doc: SourceDocument, apiVersion: string, kind: string) => Diagnostic[];

/** One text replacement in a workspace file (an insertion when the range is empty). */
export interface TextEdit {
  file: string;
  range: SourceRange;
  text: string;
}

/** A change that resolves a diagnostic; its edits may touch several files. */
export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The most likely fix of the diagnostic (at most one per diagnostic). */
  isPreferred?: boolean;
}
