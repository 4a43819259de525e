// What fix providers see: the analyzed mesh (typed reads, and lookups shared by many
// diagnostics), the source documents, and an editor for the document a resource came from
// (List items are addressed through their `items[i]` path).
import type { Diagnostic, QuickFix, Resource, SourceDocument, TextEdit } from '../../document/types.ts';
import type { ConfigView } from '../../config/configView.ts';
import type { AnalysisMessage } from '../types.ts';
import { DocumentEditor, type YamlPath, type YamlValue } from './yamlEdit.ts';

export interface FixContext {
  /** The mesh as analyzed; candidate lists are built once through `view.lookups`. */
  view: ConfigView;
  document(file: string, docIndex: number): SourceDocument | undefined;
}

export interface FixRequest {
  diagnostic: Diagnostic;
  message: AnalysisMessage;
}

export type FixProvider = (req: FixRequest, ctx: FixContext) => QuickFix[];

/** Edits of one resource's source, with paths relative to the resource object. */
export class ResourceEditor {
  constructor(
    readonly resource: Resource,
    private readonly ed: DocumentEditor,
    private readonly prefix: YamlPath,
  ) {}

  private at(path: YamlPath): YamlPath {
    return [...this.prefix, ...path];
  }

  has(path: YamlPath): boolean {
    return this.ed.has(this.at(path));
  }

  replaceScalar(path: YamlPath, value: string | number | boolean, opts: { quote?: 'double' } = {}): TextEdit | undefined {
    return this.ed.replaceScalar(this.at(path), value, opts);
  }

  renameKey(path: YamlPath, newKey: string): TextEdit | undefined {
    return this.ed.renameKey(this.at(path), newKey);
  }

  addMapEntry(mapPath: YamlPath, key: string, value: YamlValue): TextEdit | undefined {
    return this.ed.addMapEntry(this.at(mapPath), key, value);
  }

  addSequenceItem(seqPath: YamlPath, value: YamlValue): TextEdit | undefined {
    return this.ed.addSequenceItem(this.at(seqPath), value);
  }

  removeMapEntry(path: YamlPath): TextEdit | undefined {
    return this.ed.removeMapEntry(this.at(path));
  }
}

/** An editor for the resource's source document; undefined for synthetic resources. */
export function editorFor(resource: Resource | undefined, ctx: FixContext): ResourceEditor | undefined {
  const src = resource?.source;
  if (!resource || !src) return undefined;
  const doc = ctx.document(src.file, src.docIndex);
  if (!doc) return undefined;
  const ed = DocumentEditor.for(doc);
  if (!ed) return undefined;
  return new ResourceEditor(resource, ed, src.itemIndex !== undefined ? ['items', src.itemIndex] : []);
}

/** A fix from one edit, or nothing when the edit could not be built. */
export function fix(title: string, edit: TextEdit | undefined): QuickFix[] {
  return edit ? [{ title, edits: [edit] }] : [];
}

function before(a: { line: number; col: number }, b: { line: number; col: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.col < b.col);
}

/** A fix made of several edits, or nothing when one is missing or two of them overlap. */
export function fixOf(title: string, edits: Array<TextEdit | undefined>): QuickFix[] {
  if (edits.some((e) => e === undefined)) return [];
  const list = edits as TextEdit[];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i] as TextEdit;
      const b = list[j] as TextEdit;
      if (a.file !== b.file) continue;
      const as = { line: a.range.startLine, col: a.range.startCol };
      const ae = { line: a.range.endLine, col: a.range.endCol };
      const bs = { line: b.range.startLine, col: b.range.startCol };
      const be = { line: b.range.endLine, col: b.range.endCol };
      // Touching is fine; any shared interior (or an insertion inside a replaced span) is not.
      if (before(as, be) && before(bs, ae)) return [];
      if (!before(as, ae) && before(bs, as) && before(as, be)) return [];
      if (!before(bs, be) && before(as, bs) && before(bs, ae)) return [];
    }
  }
  return [{ title, edits: list }];
}
