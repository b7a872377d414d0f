/**
 * How a tool call looks to an editor: an icon kind, a one-line title, the files it touches (so the editor
 * can follow along) and, for edits, diffs the user can review before allowing the call. pi's built-in tool
 * names and parameters are known here; any other tool is shown by its name with kind "other".
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { ImageContent, TextContent } from "pi-host";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  ls: "read",
  edit: "edit",
  write: "edit",
  bash: "execute",
  grep: "search",
  find: "search",
};

/** What the editor shows for a call before and while it runs. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
  /** Diffs of an edit or write, shown with the permission request and kept with the result. */
  diffs: ToolCallContent[];
}

/** Describes a call from its tool name and (possibly partial) arguments; `cwd` resolves relative paths. */
export function describeToolCall(name: string, args: unknown, cwd: string): ToolCallView {
  const a = (args !== null && typeof args === "object" ? args : {}) as Record<string, unknown>;
  const path = typeof a.path === "string" && a.path !== "" ? absolute(a.path, cwd) : undefined;
  const kind = KINDS[name] ?? "other";
  return {
    title: titleOf(name, a, path),
    kind,
    locations: path === undefined ? [] : [{ path }],
    diffs: diffsOf(name, a, path),
  };
}

function titleOf(name: string, a: Record<string, unknown>, path: string | undefined): string {
  if (name === "bash" && typeof a.command === "string") return `bash: ${oneLine(a.command)}`;
  if ((name === "grep" || name === "find") && typeof a.pattern === "string")
    return `${name} ${oneLine(a.pattern)}${path ? ` in ${path}` : ""}`;
  if (path !== undefined) return `${name} ${path}`;
  return name;
}

function diffsOf(name: string, a: Record<string, unknown>, path: string | undefined): ToolCallContent[] {
  if (path === undefined) return [];
  if (name === "write" && typeof a.content === "string")
    return [{ type: "diff", path, oldText: null, newText: a.content }];
  if (name !== "edit") return [];
  // pi's `edits` array, plus the older single oldText/newText pair some models still send.
  const edits: unknown[] = [...(Array.isArray(a.edits) ? a.edits : []), a];
  return edits
    .filter(
      (e): e is { oldText: string; newText: string } =>
        typeof (e as any)?.oldText === "string" && typeof (e as any)?.newText === "string",
    )
    .map((e) => ({ type: "diff", path, oldText: e.oldText, newText: e.newText }));
}

/** A tool result's blocks as ACP tool-call content. */
export function resultContent(blocks: ReadonlyArray<TextContent | ImageContent> | undefined): ToolCallContent[] {
  return (blocks ?? []).map((block) =>
    block.type === "text"
      ? { type: "content", content: { type: "text", text: block.text } }
      : { type: "content", content: { type: "image", data: block.data, mimeType: block.mimeType } },
  );
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The first line, cut to 80 characters, for a title. */
function oneLine(text: string): string {
  const first = text.split("\n", 1)[0]!.trim();
  const cut = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return text.includes("\n") ? `${cut} …` : cut;
}
