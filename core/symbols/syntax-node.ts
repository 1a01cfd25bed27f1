// The slice of a tree-sitter node this folder reads. A structural type instead of an import of
// web-tree-sitter keeps the symbol logic independent of how (and where) grammars are loaded.

export interface SyntaxPoint {
  row: number;
  column: number;
}

export interface SyntaxNodeLike {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly startIndex: number;
  readonly namedChildren: ReadonlyArray<SyntaxNodeLike | null>;
  readonly parent: SyntaxNodeLike | null;
  childForFieldName(name: string): SyntaxNodeLike | null;
}

/** 1-based first line of a node. */
export function startLine(node: SyntaxNodeLike): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node; a node ending at column 0 ends on the line before. */
export function endLine(node: SyntaxNodeLike): number {
  const { row, column } = node.endPosition;
  if (column === 0 && row > node.startPosition.row) return row;
  return row + 1;
}

export function namedChildren(node: SyntaxNodeLike): SyntaxNodeLike[] {
  return node.namedChildren.filter((c): c is SyntaxNodeLike => c !== null);
}
