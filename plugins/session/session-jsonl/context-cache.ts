/**
 * The open session's model context, kept between calls. A turn asks for the context several times (the
 * model pick, the run, the state, the compaction check) and appends a few entries in between; building it
 * anew each time walks the whole history (20,000 entries in a long session) each time. The cache is keyed
 * by the tree, its leaf and its size: the same key is a hit; a leaf that moved down by the entries just
 * appended extends the cached context by them (kit's `extendSessionContext`); anything else — another
 * tree, a branch move, a compaction or context edit — builds it from the path again.
 */
import { buildSessionContext, extendSessionContext, type SessionContext, type SessionTree } from "pi-host";

/** One kept context and the tree state it is for. */
interface Kept {
  tree: SessionTree;
  leafId: string | null;
  size: number;
  context: SessionContext;
  /** The path held a context edit: a new entry could be its target, so the context is never extended. */
  edited: boolean;
}

/** The context of a tree's current path, rebuilt only when the path changed other than by growing. */
export class ContextCache {
  private kept: Kept | undefined = undefined;

  /** The context of `tree`'s path to its leaf. The returned object is the cache's own: callers copy it. */
  context(tree: SessionTree): SessionContext {
    const kept = this.kept;
    const leafId = tree.leafId;
    const size = tree.entries.length;
    if (kept !== undefined && kept.tree === tree) {
      if (kept.leafId === leafId && kept.size === size) return kept.context;
      if (!kept.edited && size > kept.size) {
        const added = tree.pathAfter(kept.leafId, leafId, size - kept.size);
        if (added !== undefined && extendSessionContext(kept.context, added)) {
          kept.leafId = leafId;
          kept.size = size;
          return kept.context;
        }
      }
    }
    const path = tree.rawPath(leafId);
    const context = buildSessionContext(path);
    this.kept = { tree, leafId, size, context, edited: path.some((entry) => entry.type === "context_edit") };
    return context;
  }
}
