/**
 * How `/tree` draws the shown session tree, as pi 1.6.0 draws it: a chain stays flat, a branch point
 * opens `├─`/`└─` connectors with `│` gutters below them, the first generation after a branch steps in
 * once more, and several roots hang from an invisible branching root. Folding (`app.tree.foldOrUp`,
 * `app.tree.unfoldOrDown`) hides a segment's descendants; the connector of a segment start shows `⊟`
 * when it can fold and `⊞` when folded (a root shows `⊞ ` before its text).
 */

/** A node the filter and search show, with the shown nodes nearest below it (current branch first). */
export interface ShownNode {
  id: string;
  parent: ShownNode | undefined;
  children: ShownNode[];
}

/** One drawn row: the node, its connector text and its fold state. */
export interface TreeRow {
  shown: ShownNode;
  /** Gutters and connector, three cells per level (`│  `, `├⊟ `, `└─ `). */
  prefix: string;
  /** `⊞ ` for a folded node that has no connector to show it in (a root), else "". */
  rootMark: string;
  folded: boolean;
}

/** The glyph a folded segment start shows in its connector. */
export const FOLDED = "⊞";
/** The glyph a segment start that can fold shows in its connector. */
export const FOLDABLE = "⊟";

/** A gutter column below a connector: a `│` while more siblings follow, blank after the last. */
interface Gutter {
  level: number;
  line: boolean;
}

/** Where a node sits: its indent, whether its parent branched, its connector and the gutters left of it. */
interface Frame {
  shown: ShownNode;
  indent: number;
  afterBranch: boolean;
  connector: boolean;
  last: boolean;
  gutters: Gutter[];
  underVirtualRoot: boolean;
}

/** The children a node shows: none while it is folded. */
function shownChildren(node: ShownNode, folded: ReadonlySet<string>): ShownNode[] {
  return folded.has(node.id) ? [] : node.children;
}

/**
 * Whether a node can fold: it shows children and starts a segment (it is a root, or its parent shows
 * more than one child).
 */
export function canFold(node: ShownNode, folded: ReadonlySet<string>): boolean {
  if (shownChildren(node, folded).length === 0) return false;
  return node.parent === undefined || node.parent.children.length > 1;
}

/** The rows of the shown tree, depth-first in order, folded segments collapsed to their first row. */
export function layoutTree(roots: ShownNode[], folded: ReadonlySet<string>): TreeRow[] {
  const manyRoots = roots.length > 1;
  const rows: TreeRow[] = [];
  const stack: Frame[] = [];
  for (let i = roots.length - 1; i >= 0; i--)
    stack.push({
      shown: roots[i]!,
      indent: manyRoots ? 1 : 0,
      afterBranch: manyRoots,
      connector: manyRoots,
      last: i === roots.length - 1,
      gutters: [],
      underVirtualRoot: manyRoots,
    });
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { shown, indent } = frame;
    const isFolded = folded.has(shown.id);
    const drawn = frame.connector && !frame.underVirtualRoot;
    const shownIndent = manyRoots ? Math.max(0, indent - 1) : indent;
    const glyph = isFolded ? FOLDED : canFold(shown, folded) ? FOLDABLE : "─";
    rows.push({
      shown,
      prefix: prefixText(shownIndent, frame.gutters, drawn ? shownIndent - 1 : -1, frame.last, glyph),
      rootMark: isFolded && !drawn ? `${FOLDED} ` : "",
      folded: isFolded,
    });
    const children = shownChildren(shown, folded);
    const branches = children.length > 1;
    const childIndent = branches || (frame.afterBranch && indent > 0) ? indent + 1 : indent;
    const gutters = drawn
      ? [...frame.gutters, { level: Math.max(0, shownIndent - 1), line: !frame.last }]
      : frame.gutters;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({
        shown: children[i]!,
        indent: childIndent,
        afterBranch: branches,
        connector: branches,
        last: i === children.length - 1,
        gutters,
        underVirtualRoot: false,
      });
  }
  return rows;
}

/** Three cells per level: a gutter, the connector (with its fold glyph), or blank. */
function prefixText(levels: number, gutters: Gutter[], connectorLevel: number, last: boolean, glyph: string): string {
  let text = "";
  for (let level = 0; level < levels; level++) {
    const gutter = gutters.find((g) => g.level === level);
    if (gutter !== undefined) text += gutter.line ? "│  " : "   ";
    else if (level === connectorLevel) text += `${last ? "└" : "├"}${glyph} `;
    else text += "   ";
  }
  return text;
}

/**
 * Where `app.tree.foldOrUp` jumps when it does not fold: up the shown parents to the nearest segment
 * start above the selection (a node whose parent branches), else the root.
 */
export function segmentStartAbove(node: ShownNode, indexOf: (id: string) => number): ShownNode {
  const from = indexOf(node.id);
  let current = node;
  while (current.parent !== undefined) {
    if (current.parent.children.length > 1 && indexOf(current.id) < from) return current;
    current = current.parent;
  }
  return current;
}

/**
 * Where `app.tree.unfoldOrDown` jumps when it does not unfold: down the first children to the next
 * branch point's first child, else to the end of the branch.
 */
export function segmentStartBelow(node: ShownNode, folded: ReadonlySet<string>): ShownNode {
  let current = node;
  for (;;) {
    const children = shownChildren(current, folded);
    if (children.length === 0) return current;
    if (children.length > 1) return children[0]!;
    current = children[0]!;
  }
}
