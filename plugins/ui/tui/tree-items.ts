/**
 * The `/tree` picker's rows: the session tree flattened into one list, one row per entry the tree shows,
 * indented only where the conversation branches, the current path and leaf marked.
 */
import type { Handle, SessionStore, TreeNode } from "pi-host";
import type { PickerItem } from "./state.js";
import { oneLine } from "./text.js";
import { contentText } from "./transcript.js";
import { syncCall } from "./view-deps.js";

/** The session tree, flattened: indentation grows only where the conversation branches. */
export function treeItems(store: Handle<SessionStore>): PickerItem[] {
  const roots = syncCall(() => store.api.tree(), [] as TreeNode[]);
  const onPath = new Set(syncCall(() => store.api.path(), []).map((e) => e.id));
  const leaf = syncCall(() => store.api.leafId(), null);
  const items: PickerItem[] = [];
  const visit = (node: TreeNode, depth: number): void => {
    const label = describeEntry(node);
    if (label !== undefined) {
      const marks = [node.label ? `[${node.label}]` : "", node.entry.id === leaf ? "← current" : ""]
        .filter(Boolean)
        .join(" ");
      items.push({
        label,
        value: node.entry.id,
        depth,
        current: onPath.has(node.entry.id),
        detail: marks || undefined,
      });
    }
    const branches = node.children.length > 1;
    for (const child of node.children) visit(child, branches ? depth + 1 : depth);
  };
  // Iterative over long single chains would be nicer to the stack; sessions are far shallower than it.
  for (const root of roots) visit(root, 0);
  return items;
}

/** One row describing a tree entry, or undefined for entries the tree does not show. */
function describeEntry(node: TreeNode): string | undefined {
  const entry = node.entry;
  switch (entry.type) {
    case "message": {
      const m = entry.message as { role: string; content?: unknown; toolName?: string };
      if (m.role === "user") return `user: ${oneLine(contentText(m.content as string))}`;
      if (m.role === "assistant") {
        const blocks = (m.content as Array<{ type: string; text?: string; name?: string }>) ?? [];
        const text = blocks
          .map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `[${b.name}]` : ""))
          .join(" ");
        return `assistant: ${oneLine(text)}`;
      }
      if (m.role === "toolResult") return `tool result: ${m.toolName ?? ""}`;
      return `${m.role}`;
    }
    case "compaction":
      return `[compaction: ${entry.tokensBefore} tokens]`;
    case "branch_summary":
      return `[branch summary]`;
    case "model_change":
      return `[model ${entry.provider}/${entry.modelId}]`;
    case "thinking_level_change":
      return `[thinking ${entry.thinkingLevel}]`;
    case "custom_message":
      return `[${entry.customType}]`;
    default:
      return undefined;
  }
}
