/**
 * Rows for one transcript entry: user messages on their own background, answers as markdown, thinking
 * collapsed to one row (Ctrl+T shows it), tool calls as boxes coloured by state with their arguments in
 * brief, the tail of their output (Ctrl+O shows all) and an edit's diff in colour. Every row is exactly
 * the width or shorter, and each entry starts with one blank row.
 */
import { linkPathIn } from "./hyperlinks.js";
import { imageRows } from "./image-render.js";
import { renderMarkdown } from "./markdown.js";
import type { Entry } from "./state.js";
import { hardWrap, oneLine, padTo, sanitize, truncate, wrapText } from "./text.js";
import type { Theme } from "./theme.js";
import type { ViewSurfaces } from "./surfaces.js";
import type { TuiMarkdownContext } from "pi-host";

/** What rendering depends on besides the entry itself. */
export interface EntryStyle {
  width: number;
  theme: Theme;
  thinkingExpanded: boolean;
  toolsExpanded: boolean;
  /** Other plugins' renderers for custom messages and tools (pi extensions'); absent: the view's own. */
  surfaces?: ViewSurfaces;
  /** pi's `setHiddenThinkingLabel`: the collapsed thinking row's text in place of the default. */
  hiddenThinkingLabel?: string;
}

/** Output rows a collapsed tool box shows (its last ones). */
const TOOL_PREVIEW_ROWS = 8;

/** Markdown as other plugins' transformers change it for display (pi extensions' markdown transformers). */
function transformed(
  style: EntryStyle,
  text: string,
  messageType: TuiMarkdownContext["messageType"],
  isStreaming = false,
): string {
  if (style.surfaces === undefined) return text;
  return style.surfaces.transformMarkdown(text, {
    messageType,
    isStreaming,
    availableWidth: Math.max(1, style.width - 2),
  });
}

/** The rows of one entry. */
export function renderEntry(entry: Entry, style: EntryStyle): string[] {
  const { width, theme } = style;
  const inner = Math.max(1, width - 2);
  switch (entry.kind) {
    case "user": {
      const rows = wrapText(sanitize(transformed(style, entry.text, "user")), inner).map((row) =>
        theme.bg("userMessageBg", padTo(` ${row}`, width)),
      );
      return ["", ...rows, ...imagesRows(entry, style)];
    }
    case "text":
      return [
        "",
        ...renderMarkdown(transformed(style, entry.text, "assistant", entry.streaming === true), inner, theme, {
          diagrams: true,
          streaming: entry.streaming === true,
        }).map((row) => ` ${row}`),
      ];
    case "thinking": {
      // One label while streaming and after: a row that changes once the answer has scrolled far below
      // it would be out of the renderer's reach and cost a full redraw.
      if (!style.thinkingExpanded)
        return [
          "",
          ` ${theme.italic(theme.fg("thinkingText", style.hiddenThinkingLabel ?? "Thinking (ctrl+t to expand)"))}`,
        ];
      return [
        "",
        ...wrapText(
          sanitize(transformed(style, entry.text, "assistant-thinking", entry.streaming === true)),
          inner,
        ).map((row) => ` ${theme.italic(theme.fg("thinkingText", row))}`),
      ];
    }
    case "tool":
      return ["", ...renderTool(entry, style), ...imagesRows(entry, style)];
    case "notice": {
      const token = entry.level === "error" ? "error" : entry.level === "warning" ? "warning" : "muted";
      return ["", ...wrapText(sanitize(entry.text), inner).map((row) => ` ${theme.fg(token, row)}`)];
    }
    case "custom":
      return ["", ...renderCustomMessage(entry, style)];
    case "entry": {
      // A custom entry (an extension's appendEntry) shows only through its extension's renderer, as in pi.
      const custom = { id: entry.entryId ?? "", customType: entry.name ?? "", data: entry.details };
      const rows = style.surfaces?.renderEntry(custom, { width, expanded: style.toolsExpanded });
      return rows === undefined ? [] : ["", ...rows];
    }
    case "summary": {
      const title = ` ${theme.fg("accent", theme.bold(entry.name ?? "Summary"))}`;
      if (!style.toolsExpanded) return ["", title + theme.fg("muted", " (ctrl+o to show the summary)")];
      const text = transformed(style, entry.text, "summary");
      return ["", title, ...wrapText(sanitize(text), inner).map((row) => ` ${theme.fg("muted", row)}`)];
    }
  }
}

/** An entry's images under it: inline where the terminal draws them, else pi's placeholder. */
function imagesRows(entry: Entry, style: EntryStyle): string[] {
  if (entry.images === undefined) return [];
  return entry.images.flatMap((image, index) =>
    imageRows(image, style.width, (text) => style.theme.fg(entry.kind === "tool" ? "toolOutput" : "muted", text), {
      key: `${entry.id}:${index}`,
    }),
  );
}

/** A one-row summary of a tool call's arguments, the way a user thinks of the call. */
export function toolTitle(name: string, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));
  switch (name) {
    case "bash":
      // A user's `!!` run is shown but kept out of the model's context.
      return `$ ${oneLine(str(a.command))}${a.excludeFromContext === true ? " (not sent to the model)" : ""}`;
    case "read": {
      const range =
        a.offset !== undefined || a.limit !== undefined
          ? `:${str(a.offset ?? 1)}${a.limit !== undefined ? `-${Number(a.offset ?? 1) + Number(a.limit) - 1}` : ""}`
          : "";
      return `read ${str(a.path)}${range}`;
    }
    case "edit":
    case "write":
    case "ls":
      return `${name} ${str(a.path ?? ".")}`;
    case "grep":
    case "find":
      return `${name} ${str(a.pattern)}${a.path !== undefined ? ` in ${str(a.path)}` : ""}`;
    default: {
      const json = args === undefined ? "" : JSON.stringify(args);
      return `${name} ${json === "{}" ? "" : json}`;
    }
  }
}

/**
 * A custom message (an extension's `sendMessage`): its extension's renderer, else pi's default — a box
 * on the custom message background with the `[customType]` label over the content as markdown.
 */
function renderCustomMessage(entry: Entry, style: EntryStyle): string[] {
  const { width, theme } = style;
  const message = { customType: entry.name ?? "custom", content: entry.text, display: true, details: entry.details };
  const own = style.surfaces?.renderMessage(message, { width, expanded: style.toolsExpanded });
  if (own !== undefined) return own;
  const box = (text: string): string => theme.bg("customMessageBg", padTo(text, width));
  const inner = Math.max(1, width - 2);
  const label = theme.fg("customMessageLabel", theme.bold(`[${message.customType}]`));
  const body = renderMarkdown(transformed(style, entry.text, "custom"), inner, theme).map((row) =>
    box(` ${theme.fg("customMessageText", row)}`),
  );
  return [box(""), box(` ${label}`), box(""), ...body, box("")];
}

/** A tool's own rows (its extension's `renderCall` / `renderResult`), or undefined for the view's box. */
function ownToolRows(entry: Entry, style: EntryStyle): string[] | undefined {
  if (style.surfaces === undefined || entry.name === undefined || entry.callId === undefined) return undefined;
  const finished = entry.status === "done" || entry.status === "error";
  const started = entry.status !== "pending";
  const own = style.surfaces.renderTool(
    {
      toolCallId: entry.callId,
      toolName: entry.name,
      args: entry.args ?? {},
      ...((finished || entry.text !== "") && {
        result: {
          content: [{ type: "text", text: entry.text }],
          details: entry.details,
          isError: entry.status === "error",
        },
      }),
      isPartial: !finished,
      executionStarted: started,
    },
    { width: Math.max(1, style.width - 2), expanded: style.toolsExpanded },
  );
  if (own === undefined) return undefined;
  const rows = [...(own.call ?? [ownCallTitle(entry, style)]), ...(own.result ?? fallbackResult(entry, style))];
  if (own.selfShell === true) return rows;
  const bg = entry.status === "error" ? "toolErrorBg" : entry.status === "done" ? "toolSuccessBg" : "toolPendingBg";
  const box = (text: string): string => style.theme.bg(bg, padTo(text, style.width));
  return [box(""), ...rows.map((row) => box(` ${row}`)), box("")];
}

/** pi's fallback for a tool without `renderCall`: the tool's name. */
function ownCallTitle(entry: Entry, style: EntryStyle): string {
  return style.theme.bold(style.theme.fg("toolTitle", entry.name ?? "tool"));
}

/** pi's fallback for a tool without `renderResult`: the result's text. */
function fallbackResult(entry: Entry, style: EntryStyle): string[] {
  if (entry.text === "") return [];
  const token = entry.status === "error" ? "error" : "toolOutput";
  const inner = Math.max(1, style.width - 2);
  return sanitize(entry.text.replace(/\n+$/, ""))
    .split("\n")
    .flatMap((line) => hardWrap(line, inner))
    .map((row) => style.theme.fg(token, row));
}

function renderTool(entry: Entry, style: EntryStyle): string[] {
  const own = ownToolRows(entry, style);
  if (own !== undefined) return own;
  const { width, theme } = style;
  const bg = entry.status === "error" ? "toolErrorBg" : entry.status === "done" ? "toolSuccessBg" : "toolPendingBg";
  const box = (text: string): string => theme.bg(bg, padTo(text, width));
  const inner = Math.max(1, width - 2);
  const args = entry.args ?? (entry.argsText ? { "…": entry.argsText } : undefined);
  const title =
    entry.name === undefined ? "tool" : toolTitle(entry.name, entry.args ?? (entry.argsText ? undefined : args));
  const status = entry.status === "running" || entry.status === "pending" ? theme.fg("muted", " …") : "";
  const shown = linkPathIn(truncate(sanitize(title), inner - 2), (entry.args as { path?: unknown } | undefined)?.path);
  const rows = [box(""), box(` ${theme.bold(theme.fg("toolTitle", shown))}${status}`)];

  let body: string[] = [];
  if (entry.diff !== undefined && entry.status !== "error") {
    body = entry.diff.split("\n").map((line) => {
      const token = line.startsWith("+")
        ? "toolDiffAdded"
        : line.startsWith("-")
          ? "toolDiffRemoved"
          : "toolDiffContext";
      return theme.fg(token, truncate(sanitize(line), inner));
    });
  } else if (entry.text !== "") {
    const token = entry.status === "error" ? "error" : "toolOutput";
    body = sanitize(entry.text.replace(/\n+$/, ""))
      .split("\n")
      .flatMap((line) => hardWrap(line, inner))
      .map((row) => theme.fg(token, row));
  }
  if (!style.toolsExpanded && body.length > TOOL_PREVIEW_ROWS) {
    const hidden = body.length - TOOL_PREVIEW_ROWS;
    body = [
      theme.fg("muted", `… ${hidden} earlier line${hidden === 1 ? "" : "s"} (ctrl+o to expand)`),
      ...body.slice(-TOOL_PREVIEW_ROWS),
    ];
  }
  if (body.length > 0) rows.push(box(""));
  for (const row of body) rows.push(box(` ${row}`));
  rows.push(box(""));
  return rows;
}
