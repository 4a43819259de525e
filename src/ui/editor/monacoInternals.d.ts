// Monaco modules we import by path that ship without type declarations.
declare module 'monaco-editor/editor/common/model/pieceTreeTextBuffer/pieceTreeTextBufferBuilder' {
  /** Builds a text buffer from pieces of text (each piece's line starts are found as it comes). */
  export class PieceTreeTextBufferBuilder {
    acceptChunk(chunk: string): void;
    /** The factory Monaco's model creation accepts in place of a string. */
    finish(normalizeEOL?: boolean): object;
  }
}
