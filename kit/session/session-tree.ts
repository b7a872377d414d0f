/**
 * One session's entries in memory, indexed for the questions the store answers: an id → entry map, a
 * children index (built when the tree is first asked for), the labels, the name and the active leaf.
 * Walking a path is O(path length), so building the context of a 20,000-message session costs a walk,
 * not a scan.
 */
import type { LabelEntry, SessionEntry, TreeNode } from "../../contracts/session.js";
import { isLeafMarker } from "./leaf-marker.js";

/** The indexed entries of one session. Entries are only ever added, never changed. */
export class SessionTree {
  readonly entries: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  /** Children by parent id, built the first time the tree is asked for (a `-p` run never asks). */
  private children: Map<string | null, SessionEntry[]> | undefined = undefined;
  private readonly labels = new Map<string, LabelEntry>();
  private leaf: string | null = null;
  private sessionName: string | undefined = undefined;
  private assistantSeen = false;

  /** Indexes `entries` in file order; the leaf ends where pi would put it (the last line, unless a leaf marker). */
  constructor(entries: readonly SessionEntry[] = []) {
    for (const entry of entries) this.add(entry);
  }

  /** Adds one entry and moves the leaf to it (to its parent, for a leaf marker). */
  add(entry: SessionEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    if (this.children !== undefined) addChild(this.children, entry);
    if (entry.type === "label") {
      if (entry.label) this.labels.set(entry.targetId, entry);
      else this.labels.delete(entry.targetId);
    } else if (entry.type === "session_info") {
      this.sessionName = typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name.trim() : undefined;
    } else if (entry.type === "message" && entry.message.role === "assistant") {
      this.assistantSeen = true;
    }
    this.leaf = isLeafMarker(entry) ? this.visible(entry.parentId) : entry.id;
  }

  /** The active leaf: new entries become its children. */
  get leafId(): string | null {
    return this.leaf;
  }

  /** Moves the leaf (in memory only; the store persists the move). */
  moveLeaf(id: string | null): void {
    this.leaf = id;
  }

  /** The latest session name, if one is set. */
  get name(): string | undefined {
    return this.sessionName;
  }

  /** Whether any assistant message exists: pi writes a new file only once one does. */
  get hasAssistant(): boolean {
    return this.assistantSeen;
  }

  /** The ids in use, for choosing a fresh one. */
  get ids(): { has(id: string): boolean } {
    return this.byId;
  }

  entry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  label(id: string): string | undefined {
    return this.labels.get(id)?.label;
  }

  /** The label entry in force for each labelled entry, by target id. */
  labelEntries(): ReadonlyMap<string, LabelEntry> {
    return this.labels;
  }

  /**
   * Entries from the root to `id`, leaf markers included (the context builder ignores them). A path
   * cannot be longer than the entries: a walk that goes on past that is in a loop, and stops where the
   * loop closes.
   */
  rawPath(id: string | null): SessionEntry[] {
    const path: SessionEntry[] = [];
    let current = id === null ? undefined : this.byId.get(id);
    while (current !== undefined && path.length <= this.entries.length) {
      path.push(current);
      current = current.parentId === null ? undefined : this.byId.get(current.parentId);
    }
    if (path.length > this.entries.length) return this.loopedPath(id);
    return path.reverse();
  }

  /**
   * The entries after `ancestor` on the path to `id`, oldest first, when `ancestor` is at most `limit`
   * steps up from `id` (null: the root's side); undefined when it is not on that stretch of the path.
   */
  pathAfter(ancestor: string | null, id: string | null, limit: number): SessionEntry[] | undefined {
    const after: SessionEntry[] = [];
    let current = id;
    while (current !== ancestor) {
      if (current === null || after.length >= limit) return undefined;
      const entry = this.byId.get(current);
      if (entry === undefined) return undefined;
      after.push(entry);
      current = entry.parentId;
    }
    return after.reverse();
  }

  /** rawPath for a parent chain that loops back (only hand-edited data can): each entry once. */
  private loopedPath(id: string | null): SessionEntry[] {
    const path: SessionEntry[] = [];
    const seen = new Set<string>();
    let current = id === null ? undefined : this.byId.get(id);
    while (current !== undefined && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      current = current.parentId === null ? undefined : this.byId.get(current.parentId);
    }
    return path.reverse();
  }

  /**
   * The tree as users see it, from the children index: roots are entries without a known parent (pi
   * shows orphans as roots); leaf markers are hidden and their children hang from the marker's parent;
   * children are ordered oldest first.
   */
  tree(): TreeNode[] {
    const roots: TreeNode[] = [];
    const lists: TreeNode[][] = [];
    const queue: Array<{ entry: SessionEntry; into: TreeNode[] }> = [];
    for (const entry of this.entries) {
      if (entry.parentId === null || entry.parentId === entry.id || !this.byId.has(entry.parentId))
        queue.push({ entry, into: roots });
    }
    const placed = new Set<SessionEntry>();
    for (let i = 0; i < queue.length; i++) {
      const { entry, into } = queue[i];
      if (placed.has(entry)) continue;
      placed.add(entry);
      let childrenGoTo = into;
      if (!isLeafMarker(entry)) {
        const node: TreeNode = { entry, children: [] };
        const label = this.labels.get(entry.id)?.label;
        if (label !== undefined) node.label = label;
        into.push(node);
        childrenGoTo = node.children;
        lists.push(node.children);
      }
      for (const child of this.childIndex().get(entry.id) ?? [])
        if (child.id !== entry.id) queue.push({ entry: child, into: childrenGoTo });
    }
    const byTime = (a: TreeNode, b: TreeNode): number => Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp);
    for (const list of lists) if (list.length > 1) list.sort(byTime);
    return roots;
  }

  /** The children index, built from the entries on first use and kept up to date by `add` after that. */
  private childIndex(): Map<string | null, SessionEntry[]> {
    if (this.children === undefined) {
      this.children = new Map();
      for (const entry of this.entries) addChild(this.children, entry);
    }
    return this.children;
  }

  /** The nearest entry at or above `id` that is not a leaf marker (null at the root). */
  private visible(id: string | null): string | null {
    const seen = new Set<string>();
    let current = id;
    while (current !== null && !seen.has(current)) {
      seen.add(current);
      const entry = this.byId.get(current);
      if (entry === undefined) return null;
      if (!isLeafMarker(entry)) return current;
      current = entry.parentId;
    }
    return null;
  }
}

/** Files `entry` under its parent, after its older siblings. */
function addChild(children: Map<string | null, SessionEntry[]>, entry: SessionEntry): void {
  const siblings = children.get(entry.parentId);
  if (siblings === undefined) children.set(entry.parentId, [entry]);
  else siblings.push(entry);
}
