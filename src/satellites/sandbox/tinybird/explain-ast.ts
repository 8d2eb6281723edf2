/** One node of ClickHouse's `EXPLAIN AST` dump: its kind (`Function`, `Set`, `SelectQuery`, …), the word after it, its children. */
export interface AstNode {
  kind: string;
  /** The second word of the line: a function's or identifier's name, empty when there is none. */
  name: string;
  children: AstNode[];
}

/** Thrown when the dump does not read as a tree; the gate then refuses the query. */
export class AstShapeError extends Error {}

const CHILD_COUNT = / \(children (\d+)\)$/;

/**
 * Rebuilds the tree from `EXPLAIN AST` output in TSV: one node per line, one leading space
 * per level. TSV escapes newlines and tabs inside literals, so a line is always one whole
 * node; each `(children N)` the engine wrote is checked against the children found.
 */
export function parseExplainAst(text: string): AstNode[] {
  const roots: AstNode[] = [];
  const open: { depth: number; node: AstNode; expected: number }[] = [];
  const close = (depth: number) => {
    while (open.length && open[open.length - 1]!.depth >= depth) {
      const done = open.pop()!;
      if (done.node.children.length !== done.expected) throw new AstShapeError(`${done.node.kind} has an unexpected number of children`);
    }
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const depth = line.length - line.replace(/^ +/, '').length;
    const label = line.slice(depth);
    const [kind = '', name = ''] = label.split(' ');
    const node: AstNode = { kind, name, children: [] };
    close(depth);
    const parent = open[open.length - 1];
    if (parent ? depth !== parent.depth + 1 : depth !== 0) throw new AstShapeError('a node is indented out of its tree');
    (parent ? parent.node.children : roots).push(node);
    open.push({ depth, node, expected: Number(CHILD_COUNT.exec(label)?.[1] ?? 0) });
  }
  close(0);
  return roots;
}

/** Every node of the tree, the root first. */
export function* walk(node: AstNode): Generator<AstNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}
