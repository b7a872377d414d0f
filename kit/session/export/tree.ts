/**
 * The session tree as the export page shows it: children by parent, the active path from the root to
 * the leaf, and a one-line preview of each entry for the tree's sidebar. Pure over the entries.
 */
import type { SessionEntry } from "../../../contracts/session.js";

/** Parent → children (in file order); `null` holds the roots. */
export type ChildrenMap = Map<string | null, SessionEntry[]>;

/** Groups entries under their parents; an entry whose parent is unknown counts as a root. */
export function childrenOf(entries: SessionEntry[]): ChildrenMap {
  const ids = new Set(entries.map((e) => e.id));
  const children: ChildrenMap = new Map();
  for (const entry of entries) {
    const parent = entry.parentId !== null && ids.has(entry.parentId) ? entry.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(entry);
    children.set(parent, list);
  }
  return children;
}

/** Ids from the root to `leafId` (empty when it is null or unknown); a parent loop stops the walk. */
export function pathTo(entries: SessionEntry[], leafId: string | null): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: string[] = [];
  const seen = new Set<string>();
  let current = leafId === null ? undefined : byId.get(leafId);
  while (current !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current.id);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return path;
}

/** Entries that are bookkeeping only (extension state, labels, names, usage, edits): no block, no tree row. */
export function isHiddenEntry(entry: SessionEntry): boolean {
  return (
    entry.type === "custom" ||
    entry.type === "label" ||
    entry.type === "session_info" ||
    entry.type === "usage" ||
    entry.type === "context_edit" ||
    (entry.type === "custom_message" && !entry.display)
  );
}

/** Labels by target id, the latest label entry winning (an empty label removes it). */
export function labelsOf(entries: SessionEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of entries) {
    if (entry.type !== "label") continue;
    if (entry.label) labels.set(entry.targetId, entry.label);
    else labels.delete(entry.targetId);
  }
  return labels;
}

/** A short plain-text preview of an entry for its tree row. */
export function previewOf(entry: SessionEntry): string {
  const clip = (text: string): string => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
  };
  switch (entry.type) {
    case "message": {
      const m = entry.message as { role: string; content?: unknown; toolName?: string; command?: string };
      if (m.role === "toolResult") return `${m.toolName ?? "tool"} result`;
      if (m.role === "bashExecution") return `$ ${clip(String(m.command ?? ""))}`;
      const text = textOf(m.content);
      if (m.role === "assistant" && text === "") {
        const calls = Array.isArray(m.content)
          ? m.content.filter((b: { type?: string }) => b?.type === "toolCall").map((b: { name?: string }) => b.name)
          : [];
        return calls.length > 0 ? `${m.role}: ${calls.join(", ")}` : m.role;
      }
      return `${m.role}: ${clip(text)}`;
    }
    case "compaction":
      return "compaction";
    case "branch_summary":
      return "branch summary";
    case "model_change":
      return `model ${entry.provider}/${entry.modelId}`;
    case "thinking_level_change":
      return `thinking ${entry.thinkingLevel}`;
    case "custom_message":
      return `${entry.customType}: ${clip(textOf(entry.content))}`;
    default:
      return entry.type;
  }
}

/** The text blocks of a content value (a string, or an array of blocks), joined. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b: { type?: string; text?: unknown }) => b?.type === "text" && typeof b.text === "string")
    .map((b: { text: string }) => b.text)
    .join("\n");
}
