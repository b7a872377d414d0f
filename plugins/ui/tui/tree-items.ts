/**
 * The `/tree` picker's rows: the session tree flattened into one list, one row per entry the filter
 * shows, indented only where the visible conversation branches (an entry the filter hides hands its
 * children to its nearest shown ancestor, as pi 1.6.0 lays it out), the current path and leaf marked.
 */
import type { Handle, SessionEntry, SessionStore, TreeNode } from "pi-host";
import type { PickerItem } from "./state.js";
import { oneLine } from "./text.js";
import { layoutTree, type ShownNode } from "./tree-layout.js";
import { contentText } from "./transcript.js";
import { syncCall } from "./view-deps.js";

/** pi 1.6.0's `treeFilterMode` values, in the order its cycle keys step through them. */
export const TREE_FILTER_MODES = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;

/** One of pi's tree filters. */
export type TreeFilterMode = (typeof TREE_FILTER_MODES)[number];

/** The mode a setting names, or "default" for anything else (pi falls back the same way). */
export function treeFilterModeOf(value: unknown): TreeFilterMode {
  return (TREE_FILTER_MODES as readonly unknown[]).includes(value) ? (value as TreeFilterMode) : "default";
}

/** The status label pi shows after the position for a filter (none for the default). */
export function treeFilterLabel(mode: TreeFilterMode): string {
  switch (mode) {
    case "no-tools":
      return " [no-tools]";
    case "user-only":
      return " [user]";
    case "labeled-only":
      return " [labeled]";
    case "all":
      return " [all]";
    default:
      return "";
  }
}

/** Bookkeeping entries the default view hides (pi's "settings" entries). */
const SETTINGS_ENTRIES = new Set([
  "label",
  "context_edit",
  "custom",
  "model_change",
  "thinking_level_change",
  "session_info",
]);

/** Whether the filter shows an entry (before the search words). */
export function passesTreeFilter(node: TreeNode, mode: TreeFilterMode, leafId: string | null): boolean {
  const entry = node.entry;
  if (entry.type === "usage") return false;
  // An assistant turn that only called tools says nothing in a row; pi hides it unless it is the leaf.
  if (entry.type === "message" && entry.message.role === "assistant" && entry.id !== leafId) {
    const m = entry.message as { content?: unknown; stopReason?: string };
    const failed = m.stopReason !== undefined && m.stopReason !== "stop" && m.stopReason !== "toolUse";
    if (!hasText(m.content) && !failed) return false;
  }
  const settings = SETTINGS_ENTRIES.has(entry.type);
  switch (mode) {
    case "user-only":
      return entry.type === "message" && entry.message.role === "user";
    case "no-tools":
      return !settings && !(entry.type === "message" && entry.message.role === "toolResult");
    case "labeled-only":
      return node.label !== undefined;
    case "all":
      return true;
    default:
      return !settings;
  }
}

/** What the tree shows besides the filter: folded segments and the typed search. */
export interface TreeView {
  folded?: ReadonlySet<string>;
  /** `app.tree.toggleLabelTimestamp`: a label shows when it was set. */
  labelTimes?: boolean;
  /** Whether a row with this label and detail matches the search typed. */
  matches?: (label: string, detail: string | undefined) => boolean;
}

/**
 * The session tree under `mode`, laid out as pi lays it out: the branch holding the current point first
 * at every branch point, entries the filter or search hides handing their children to their nearest
 * shown ancestor, folded segments collapsed.
 */
export function treeItems(
  store: Handle<SessionStore>,
  mode: TreeFilterMode = "default",
  view: TreeView = {},
): PickerItem[] {
  const roots = syncCall(() => store.api.tree(), [] as TreeNode[]);
  const onPath = new Set(syncCall(() => store.api.path(), []).map((e) => e.id));
  const leaf = syncCall(() => store.api.leafId(), null);
  const tools = toolCalls(roots);
  const labelTimes = view.labelTimes === true ? labelTimestamps(store) : new Map<string, string>();
  const rows = new Map<string, { node: TreeNode; label: string; detail: string | undefined }>();
  const shownRoots: ShownNode[] = [];
  const firstCurrent = (nodes: TreeNode[]): TreeNode[] => [
    ...nodes.filter((n) => onPath.has(n.entry.id)),
    ...nodes.filter((n) => !onPath.has(n.entry.id)),
  ];
  const stack: Array<{ node: TreeNode; parent: ShownNode | undefined }> = [];
  const ordered = firstCurrent(roots);
  for (let i = ordered.length - 1; i >= 0; i--) stack.push({ node: ordered[i]!, parent: undefined });
  // Depth-first, children in order, without recursion (a long session is a long chain).
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    let childParent = parent;
    if (passesTreeFilter(node, mode, leaf)) {
      const label = describeEntry(node.entry, tools);
      const time = labelTimes.get(node.entry.id);
      const labelMark = node.label ? `[${node.label}]${time !== undefined ? ` ${labelTime(time)}` : ""}` : "";
      const marks = [labelMark, node.entry.id === leaf ? "← current" : ""].filter(Boolean).join(" ");
      const detail = marks || undefined;
      if (view.matches === undefined || view.matches(label, detail)) {
        const shown: ShownNode = { id: node.entry.id, parent, children: [] };
        (parent?.children ?? shownRoots).push(shown);
        rows.set(shown.id, { node, label, detail });
        childParent = shown;
      }
    }
    const children = firstCurrent(node.children);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, parent: childParent });
  }
  return layoutTree(shownRoots, view.folded ?? new Set()).map(({ shown, prefix, rootMark }) => {
    const row = rows.get(shown.id)!;
    return {
      label: row.label,
      value: shown.id,
      prefix,
      rootMark,
      current: onPath.has(shown.id),
      detail: row.detail,
      parent: shown.parent?.id,
    };
  });
}

/** When each entry's current label was set (the latest label entry naming it). */
function labelTimestamps(store: Handle<SessionStore>): Map<string, string> {
  const times = new Map<string, string>();
  for (const entry of syncCall(() => store.api.entries(), [] as SessionEntry[]))
    if (entry.type === "label") times.set(entry.targetId, entry.timestamp);
  return times;
}

/** A label's time as pi shows it: `14:05` today, `3/9 14:05` this year, else `25/3/9 14:05`. */
export function labelTime(timestamp: string, now: Date = new Date()): string {
  const date = new Date(timestamp);
  const two = (n: number): string => String(n).padStart(2, "0");
  const time = `${two(date.getHours())}:${two(date.getMinutes())}`;
  const sameYear = date.getFullYear() === now.getFullYear();
  if (sameYear && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return time;
  const day = `${date.getMonth() + 1}/${date.getDate()} ${time}`;
  return sameYear ? day : `${String(date.getFullYear()).slice(-2)}/${day}`;
}

/** The shown tree the rows of `treeItems` describe (their parent links), to move along its segments. */
export function shownTree(items: PickerItem[]): Map<string, ShownNode> {
  const nodes = new Map<string, ShownNode>();
  for (const item of items) {
    const parent = item.parent !== undefined ? nodes.get(item.parent) : undefined;
    const node: ShownNode = { id: item.value, parent, children: [] };
    parent?.children.push(node);
    nodes.set(item.value, node);
  }
  return nodes;
}

/** Whether message content has any non-blank text. */
function hasText(content: unknown): boolean {
  if (typeof content === "string") return content.trim() !== "";
  if (!Array.isArray(content)) return false;
  return content.some((b: { type?: string; text?: string }) => b.type === "text" && (b.text ?? "").trim() !== "");
}

/** Tool call id → name and arguments, so a tool result's row can say what it ran. */
function toolCalls(roots: TreeNode[]): Map<string, { name: string; args: unknown }> {
  const calls = new Map<string, { name: string; args: unknown }>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const entry = node.entry;
    if (entry.type === "message" && entry.message.role === "assistant" && Array.isArray(entry.message.content)) {
      for (const block of entry.message.content as Array<{
        type: string;
        id?: string;
        name?: string;
        arguments?: unknown;
      }>)
        if (block.type === "toolCall" && block.id !== undefined)
          calls.set(block.id, { name: block.name ?? "tool", args: block.arguments });
    }
    stack.push(...node.children);
  }
  return calls;
}

/** One row describing a tree entry, worded as pi's tree does. */
function describeEntry(entry: SessionEntry, tools: Map<string, { name: string; args: unknown }>): string {
  switch (entry.type) {
    case "message": {
      const m = entry.message as {
        role: string;
        content?: unknown;
        toolName?: string;
        toolCallId?: string;
        stopReason?: string;
        errorMessage?: string;
        command?: string;
      };
      if (m.role === "user") return `user: ${oneLine(contentText(m.content as string))}`;
      if (m.role === "assistant") {
        const blocks = Array.isArray(m.content) ? (m.content as Array<{ type: string; text?: string }>) : [];
        const text = oneLine(blocks.map((b) => (b.type === "text" ? b.text : "")).join(""));
        if (text !== "") return `assistant: ${text}`;
        if (m.stopReason === "aborted") return "assistant: (aborted)";
        if (m.errorMessage) return `assistant: ${oneLine(m.errorMessage).slice(0, 80)}`;
        return "assistant: (no content)";
      }
      if (m.role === "toolResult") {
        const call = m.toolCallId !== undefined ? tools.get(m.toolCallId) : undefined;
        return call !== undefined ? toolCallText(call.name, call.args) : `[${m.toolName ?? "tool"}]`;
      }
      if (m.role === "bashExecution") return `[bash]: ${oneLine(m.command ?? "")}`;
      return `[${m.role}]`;
    }
    case "custom_message": {
      const text = typeof entry.content === "string" ? entry.content : contentText(entry.content as never);
      return `[${entry.customType}]: ${oneLine(text)}`;
    }
    case "compaction":
      return `[compaction: ${Math.round(entry.tokensBefore / 1000)}k tokens]`;
    case "branch_summary":
      return `[branch summary]: ${oneLine(entry.summary)}`;
    case "model_change":
      return `[model: ${entry.modelId}]`;
    case "thinking_level_change":
      return `[thinking: ${entry.thinkingLevel}]`;
    case "custom":
      return `[custom: ${entry.customType}]`;
    case "context_edit":
      return `[context ${entry.replacement === null ? "omit" : "replace"}: ${entry.targetId}]`;
    case "label":
      return `[label: ${entry.label ?? "(cleared)"}]`;
    case "session_info":
      return `[title: ${entry.name || "empty"}]`;
    default:
      return `[${(entry as { type: string }).type}]`;
  }
}

/** A tool call in a row, worded as pi's tree words it (`[read: ~/a.ts]`, `[bash: npm test]`). */
function toolCallText(name: string, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  const home = process.env.HOME || process.env.USERPROFILE || "";
  const short = (p: unknown): string => {
    const text = String(p || "");
    return home !== "" && text.startsWith(home) ? `~${text.slice(home.length)}` : text;
  };
  switch (name) {
    case "read": {
      const range = (a.offset ?? a.limit ?? undefined) !== undefined ? lineRange(a.offset, a.limit) : "";
      return `[read: ${short(a.path || a.file_path)}${range}]`;
    }
    case "write":
    case "edit":
      return `[${name}: ${short(a.path || a.file_path)}]`;
    case "bash": {
      const raw = String(a.command || "");
      return `[bash: ${raw
        .replace(/[\n\t]/g, " ")
        .trim()
        .slice(0, 50)}${raw.length > 50 ? "..." : ""}]`;
    }
    case "grep":
      return `[grep: /${String(a.pattern || "")}/ in ${short(a.path || ".")}]`;
    case "find":
      return `[find: ${String(a.pattern || "")} in ${short(a.path || ".")}]`;
    case "ls":
      return `[ls: ${short(a.path || ".")}]`;
    default: {
      const json = JSON.stringify(args) ?? "";
      return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
    }
  }
}

/** `:10-29` for a read's offset and limit (1-based lines, as the read tool counts them). */
function lineRange(offset: unknown, limit: unknown): string {
  const start = typeof offset === "number" ? offset : 1;
  if (typeof limit !== "number") return `:${start}`;
  return `:${start}-${start + limit - 1}`;
}
