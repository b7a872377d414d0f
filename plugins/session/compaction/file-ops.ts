/**
 * Which files the summarized work read and changed. The model loses the tool calls when their
 * messages are compacted away; the file lists at the end of a summary tell it where to look again.
 * Lists carry over from earlier summaries, so they grow across compactions.
 */
import type { AgentMessage } from "pi-host";
import type { SessionEntry } from "pi-host";

/** The files seen so far, by kind of access. */
export interface FileOps {
  read: Set<string>;
  modified: Set<string>;
}

/** The lists a summary ends with: files only read, and files written or edited (both sorted). */
export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

/** A fresh record for one summary; records are never shared, so the compactor stays stateless. */
export function createFileOps(): FileOps {
  return { read: new Set(), modified: new Set() };
}

/**
 * Records the `path` of each `read`, `write` and `edit` tool call of an assistant message — the tools
 * pi tracks (grep, find and ls look at folders and patterns, not files to reopen).
 */
export function recordToolCalls(message: AgentMessage, ops: FileOps): void {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    const path = (block.arguments as Record<string, unknown> | undefined)?.path;
    if (typeof path !== "string" || path === "") continue;
    if (block.name === "read") ops.read.add(path);
    else if (block.name === "write" || block.name === "edit") ops.modified.add(path);
  }
}

/**
 * Adds the lists an earlier compaction or branch summary stored in its `details`. Summaries written
 * by an extension (`fromHook`) have details of their own design and are skipped.
 */
export function recordSummaryDetails(entry: SessionEntry, ops: FileOps): void {
  if (entry.type !== "compaction" && entry.type !== "branch_summary") return;
  if (entry.fromHook || typeof entry.details !== "object" || entry.details === null) return;
  const details = entry.details as { readFiles?: unknown; modifiedFiles?: unknown };
  for (const path of stringsOf(details.readFiles)) ops.read.add(path);
  for (const path of stringsOf(details.modifiedFiles)) ops.modified.add(path);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Sorted lists; a file both read and modified is listed as modified only. */
export function fileLists(ops: FileOps): FileLists {
  return {
    readFiles: [...ops.read].filter((path) => !ops.modified.has(path)).sort(),
    modifiedFiles: [...ops.modified].sort(),
  };
}

/** pi's trailer: `<read-files>` and `<modified-files>` blocks, one path a line; empty when there are none. */
export function formatFileLists(lists: FileLists): string {
  const blocks: string[] = [];
  if (lists.readFiles.length > 0) blocks.push(`<read-files>\n${lists.readFiles.join("\n")}\n</read-files>`);
  if (lists.modifiedFiles.length > 0)
    blocks.push(`<modified-files>\n${lists.modifiedFiles.join("\n")}\n</modified-files>`);
  return blocks.length === 0 ? "" : `\n\n${blocks.join("\n\n")}`;
}

const FILE_LISTS_TRAILER = /(?:\n\n<(read-files|modified-files)>\n[\s\S]*?\n<\/\1>)+\s*$/;

/**
 * A previous summary without its file-list trailer. The lists are rebuilt from `details` and appended
 * again, so the summarizer need not copy them (and cannot garble or double them).
 */
export function withoutFileLists(summary: string): string {
  return summary.replace(FILE_LISTS_TRAILER, "");
}
