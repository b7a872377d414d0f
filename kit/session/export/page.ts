/**
 * The exported session page: one self-contained HTML document (inline style and script, a content
 * security policy that forbids every network load) with the whole transcript and its tree. Pure: entries
 * in, a string out, so the command line, the TUI's /export and RPC's export_html share it.
 */
import type { SessionEntry, SessionHeader } from "../../../contracts/session.js";
import { entryKind, renderEntryBody } from "./entries.js";
import { escapeHtml } from "./markdown.js";
import { PAGE_CSS, PAGE_JS } from "./page-assets.js";
import { childrenOf, isHiddenEntry, labelsOf, pathTo, previewOf, textOf } from "./tree.js";

/** What the page is made from: the session file's header, every entry, and the active leaf. */
export interface SessionExportInput {
  header: SessionHeader;
  entries: SessionEntry[];
  /** The active leaf (pi: the last entry of the file); null shows no path. */
  leafId: string | null;
}

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** Renders the session as one HTML document; every session value in it is escaped. */
export function renderSessionHtml(input: SessionExportInput): string {
  const { header, entries } = input;
  const shown = entries.filter((e) => !isHiddenEntry(e));
  const shownIds = new Set(shown.map((e) => e.id));
  const byId = new Map(entries.map((e) => [e.id, e]));
  const visibleParent = (entry: SessionEntry): string => {
    const seen = new Set<string>();
    let parentId = entry.parentId;
    while (parentId !== null && !seen.has(parentId)) {
      if (shownIds.has(parentId)) return parentId;
      seen.add(parentId);
      parentId = byId.get(parentId)?.parentId ?? null;
    }
    return "";
  };
  const onPath = new Set(pathTo(entries, input.leafId));
  const blocks = shown.map((entry) => {
    const body = renderEntryBody(entry) ?? "";
    const hidden = onPath.has(entry.id) ? "" : " hidden";
    return `<section class="entry ${entryKind(entry)}" id="e-${escapeHtml(entry.id)}" data-id="${escapeHtml(entry.id)}" data-parent="${escapeHtml(visibleParent(entry))}"${hidden}>${body}</section>`;
  });
  const title = titleOf(entries) ?? `Session ${header.id}`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_CSS}</style></head><body>`,
    `<nav id="tree" aria-label="Session tree"><h2>Session tree</h2>${renderTree(entries, onPath, input.leafId)}</nav>`,
    "<main><header>",
    `<h1>${escapeHtml(title)}</h1>`,
    `<div class="meta">Session ${escapeHtml(header.id)} · ${escapeHtml(header.timestamp)} · ${escapeHtml(header.cwd)}</div>`,
    `</header><div id="entries">${blocks.join("\n")}</div></main>`,
    `<script>${PAGE_JS}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}

/** The session's name (its latest session_info), else its first user message, clipped. */
function titleOf(entries: SessionEntry[]): string | undefined {
  let name: string | undefined;
  for (const e of entries) if (e.type === "session_info" && e.name.trim() !== "") name = e.name.trim();
  if (name !== undefined) return name;
  for (const e of entries) {
    if (e.type === "message" && (e.message as { role?: string }).role === "user") {
      const text = textOf((e.message as { content?: unknown }).content)
        .replace(/\s+/g, " ")
        .trim();
      if (text !== "") return text.length > 80 ? `${text.slice(0, 79)}…` : text;
    }
  }
  return undefined;
}

/**
 * The tree as rows of buttons, depth-first without recursion (a long session is a deep chain): a row
 * indents one step more only below a branch point, so a linear conversation stays flush.
 */
function renderTree(entries: SessionEntry[], onPath: Set<string>, leafId: string | null): string {
  const children = childrenOf(entries);
  const labels = labelsOf(entries);
  const rows: string[] = [];
  const stack: Array<{ entry: SessionEntry; depth: number }> = [];
  const pushChildren = (parent: string | null, depth: number): void => {
    const list = children.get(parent) ?? [];
    const next = list.length > 1 ? depth + 1 : depth;
    for (let i = list.length - 1; i >= 0; i--) stack.push({ entry: list[i]!, depth: next });
  };
  pushChildren(null, -1);
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { entry, depth } = stack.pop()!;
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    if (!isHiddenEntry(entry)) {
      const classes = ["node", onPath.has(entry.id) ? "on-path" : "", entry.id === leafId ? "selected" : ""];
      const label = labels.get(entry.id);
      const labelHtml = label === undefined ? "" : `<span class="label">[${escapeHtml(label)}]</span>`;
      rows.push(
        `<button type="button" class="${classes.join(" ").trim()}" data-target="${escapeHtml(entry.id)}" style="padding-left:${6 + Math.max(0, depth) * 12}px">${escapeHtml(previewOf(entry))}${labelHtml}</button>`,
      );
    }
    pushChildren(entry.id, depth);
  }
  return rows.join("\n");
}
