/**
 * One HTML block per session entry for the export page: user and assistant messages (Markdown), thinking,
 * tool calls with their arguments, tool results, images, shell runs, compaction and branch summaries,
 * model and thinking changes. Every value from the session is escaped; images are inline data URLs of
 * image types only, so the page never loads anything.
 */
import type { SessionEntry } from "../../../contracts/session.js";
import { escapeHtml, renderMarkdown } from "./markdown.js";

type Block = { type?: string; [key: string]: unknown };

/** The HTML of one entry's block body (without its wrapper), or undefined for an entry with no block. */
export function renderEntryBody(entry: SessionEntry): string | undefined {
  switch (entry.type) {
    case "message":
      return renderMessage(entry.message as unknown as Record<string, unknown>);
    case "compaction":
      return `${head("compaction", `Compaction · ${entry.tokensBefore.toLocaleString("en-US")} tokens summarized`)}<div class="md">${renderMarkdown(entry.summary)}</div>`;
    case "branch_summary":
      return `${head("branch-summary", "Branch summary")}<div class="md">${renderMarkdown(entry.summary)}</div>`;
    case "model_change":
      return `<div class="info">Model: ${escapeHtml(`${entry.provider}/${entry.modelId}`)}</div>`;
    case "thinking_level_change":
      return `<div class="info">Thinking level: ${escapeHtml(entry.thinkingLevel)}</div>`;
    case "custom_message":
      return entry.display ? `${head("custom", entry.customType)}${renderContent(entry.content, true)}` : undefined;
    default:
      return undefined;
  }
}

/** The CSS class of an entry's block, by kind and role. */
export function entryKind(entry: SessionEntry): string {
  if (entry.type !== "message") return entry.type.replace(/_/g, "-");
  const role = String((entry.message as { role?: unknown }).role ?? "message");
  return role.replace(/[^A-Za-z0-9-]/g, "");
}

function head(kind: string, title: string): string {
  return `<div class="head ${kind}">${escapeHtml(title)}</div>`;
}

function renderMessage(message: Record<string, unknown>): string {
  const role = String(message.role ?? "message");
  switch (role) {
    case "user":
      return `${head("user", "User")}${renderContent(message.content, false)}`;
    case "assistant":
      return `${head("assistant", assistantTitle(message))}${renderAssistant(message)}`;
    case "toolResult": {
      const name = String(message.toolName ?? "tool");
      const error = message.isError === true;
      return `<div class="tool-result${error ? " error" : ""}">${head("tool", `${name} ${error ? "error" : "result"}`)}${renderContent(message.content, false, true)}</div>`;
    }
    case "bashExecution": {
      const exit = message.exitCode === undefined || message.exitCode === null ? "" : ` (exit ${message.exitCode})`;
      return `${head("tool", `$ ${String(message.command ?? "")}${exit}`)}<pre class="output">${escapeHtml(String(message.output ?? ""))}</pre>`;
    }
    case "custom":
      return `${head("custom", String(message.customType ?? "custom"))}${renderContent(message.content, true)}`;
    default:
      return `${head("other", role)}<pre class="output">${escapeHtml(JSON.stringify(message, null, 2))}</pre>`;
  }
}

function assistantTitle(message: Record<string, unknown>): string {
  const model = typeof message.model === "string" ? ` · ${message.provider ?? ""}/${message.model}` : "";
  const stop = message.stopReason === "error" || message.stopReason === "aborted" ? ` · ${message.stopReason}` : "";
  return `Assistant${model}${stop}`;
}

function renderAssistant(message: Record<string, unknown>): string {
  const content = Array.isArray(message.content) ? (message.content as Block[]) : [];
  const parts = content.map((block) => {
    if (block.type === "text") return `<div class="md">${renderMarkdown(String(block.text ?? ""))}</div>`;
    if (block.type === "thinking")
      return `<details class="thinking" open><summary>Thinking</summary><div class="plain">${escapeHtml(String(block.thinking ?? ""))}</div></details>`;
    if (block.type === "toolCall") {
      const args = JSON.stringify(block.arguments ?? {}, null, 2);
      return `<div class="tool-call" data-call="${escapeHtml(String(block.id ?? ""))}">${head("tool", `Tool call: ${String(block.name ?? "")}`)}<pre class="args">${escapeHtml(args)}</pre></div>`;
    }
    if (block.type === "image") return image(block);
    return `<pre class="output">${escapeHtml(JSON.stringify(block, null, 2))}</pre>`;
  });
  if (typeof message.errorMessage === "string")
    parts.push(`<div class="error-text">${escapeHtml(message.errorMessage)}</div>`);
  return parts.join("");
}

/** A message's content: a string or text/image blocks; Markdown for `markdown`, else preformatted text. */
function renderContent(content: unknown, markdown: boolean, output = false): string {
  const blocks: Block[] =
    typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  return blocks
    .map((block) => {
      if (block.type === "image") return image(block);
      if (block.type !== "text") return "";
      const text = String(block.text ?? "");
      if (markdown) return `<div class="md">${renderMarkdown(text)}</div>`;
      return output ? `<pre class="output">${escapeHtml(text)}</pre>` : `<div class="plain">${escapeHtml(text)}</div>`;
    })
    .join("");
}

/** An inline image, only for image MIME types and base64 data (anything else is shown as a note). */
function image(block: Block): string {
  const mime = String(block.mimeType ?? "");
  const data = String(block.data ?? "");
  if (!/^image\/[a-z0-9.+-]+$/i.test(mime) || !/^[A-Za-z0-9+/=\s]*$/.test(data))
    return `<div class="info">[image not shown: ${escapeHtml(mime || "unknown type")}]</div>`;
  return `<img class="image" alt="image" src="data:${mime};base64,${data.replace(/\s/g, "")}">`;
}
