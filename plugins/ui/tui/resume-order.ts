/**
 * The order of /resume's rows in pi's three sort modes (`app.session.toggleSort` cycles them):
 * threaded (forks under the session they came from, each level newest activity first, drawn with
 * `├─ `/`└─ ` connectors) while no query is typed; recent (newest first, a query only filters); and
 * relevance (a query's matches best first: in the name, then in the text or path, newest first on a tie).
 * With a query the threaded mode ranks by relevance too, as pi's does.
 */
import type { Picker, PickerItem } from "./state.js";

/** pi's sort modes, in the order the key cycles them. */
export const RESUME_SORTS = ["threaded", "recent", "relevance"] as const;
/** One of pi's sort modes. */
export type ResumeSort = (typeof RESUME_SORTS)[number];

/** The mode after `mode` (threaded → recent → relevance → threaded). */
export function nextResumeSort(mode: string | undefined): ResumeSort {
  const at = RESUME_SORTS.indexOf((mode ?? "threaded") as ResumeSort);
  return RESUME_SORTS[(at + 1) % RESUME_SORTS.length]!;
}

/** The label pi's header shows for a mode. */
export function resumeSortLabel(mode: string | undefined): string {
  return mode === "recent" ? "Recent" : mode === "relevance" ? "Fuzzy" : "Threaded";
}

/** The rows to show, in the picker's sort mode, each with its index in `items` (threaded rows carry connectors). */
export function resumeRows(picker: Picker): Array<{ item: PickerItem; index: number }> {
  const rows = picker.items.map((item, index) => ({ item, index }));
  const words = picker.query.toLowerCase().split(/\s+/).filter(Boolean);
  const mode = picker.sortMode ?? "threaded";
  if (words.length === 0) return mode === "threaded" ? threaded(rows) : rows;
  const scored: Array<{ row: { item: PickerItem; index: number }; score: number }> = [];
  for (const row of rows) {
    const score = matchScore(row.item, words);
    if (score !== undefined) scored.push({ row, score });
  }
  if (mode !== "recent")
    scored.sort((a, b) => a.score - b.score || (b.row.item.modified ?? 0) - (a.row.item.modified ?? 0));
  return scored.map(({ row }) => row);
}

/**
 * A row's score for the query's words, lower is better; undefined when a word matches nowhere. Each word
 * counts 0 when it is in the session's name, 1 when it is in the shown text, its details or its path.
 */
function matchScore(item: PickerItem, words: string[]): number | undefined {
  const name = item.named === true ? item.label.toLowerCase() : "";
  const text = `${item.label} ${item.detail ?? ""} ${item.value}`.toLowerCase();
  let score = 0;
  for (const word of words) {
    if (name.includes(word)) continue;
    if (!text.includes(word)) return undefined;
    score += 1;
  }
  return score;
}

interface Node {
  row: { item: PickerItem; index: number };
  children: Node[];
  latest: number;
}

/** pi's threaded layout: a fork under its parent session when that is listed, levels by latest activity in the subtree. */
function threaded(rows: Array<{ item: PickerItem; index: number }>): Array<{ item: PickerItem; index: number }> {
  const byPath = new Map<string, Node>();
  for (const row of rows) byPath.set(row.item.value, { row, children: [], latest: row.item.modified ?? 0 });
  const roots: Node[] = [];
  for (const node of byPath.values()) {
    const parent = node.row.item.parentPath;
    const under = parent !== undefined && parent !== node.row.item.value ? byPath.get(parent) : undefined;
    if (under !== undefined && !isAncestor(node, under)) under.children.push(node);
    else roots.push(node);
  }
  const latest = (node: Node): number => {
    for (const child of node.children) node.latest = Math.max(node.latest, latest(child));
    return node.latest;
  };
  for (const root of roots) latest(root);
  const sortLevel = (nodes: Node[]): void => {
    nodes.sort((a, b) => b.latest - a.latest);
    for (const node of nodes) sortLevel(node.children);
  };
  sortLevel(roots);
  const out: Array<{ item: PickerItem; index: number }> = [];
  const walk = (node: Node, depth: number, gutters: string, last: boolean): void => {
    const prefix = depth === 0 ? undefined : `${gutters}${last ? "└─ " : "├─ "}`;
    out.push({ item: prefix === undefined ? node.row.item : { ...node.row.item, prefix }, index: node.row.index });
    const childGutters = depth === 0 ? "" : `${gutters}${last ? "   " : "│  "}`;
    node.children.forEach((child, i) => {
      walk(child, depth + 1, childGutters, i === node.children.length - 1);
    });
  };
  for (const root of roots) walk(root, 0, "", true);
  return out;
}

/** Whether `node` is already above `candidate` (a parent loop in hand-edited headers): then it stays a root. */
function isAncestor(node: Node, candidate: Node): boolean {
  const seen = new Set<Node>();
  const stack = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === candidate) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...next.children);
  }
  return false;
}
