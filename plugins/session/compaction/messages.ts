/**
 * What each session entry contributes to the model's context, as a message. Compaction measures,
 * cuts and serializes entries through these functions, so "what counts" is decided in one place.
 */
import type { AgentMessage, CustomAgentMessage } from "pi-host";
import type { ImageContent, Message, TextContent } from "pi-host";
import { estimateMessageTokens } from "pi-host";
import type { SessionEntry } from "pi-host";

/** Roles that begin a turn: the user speaking, or something that stands in for the user (pi's rule). */
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** Roles a compaction may cut before: every context message except a tool result. */
const CUTTABLE_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/**
 * The message an entry puts into the context, or undefined for entries the model never sees
 * (settings changes, labels, extension state). A compaction entry yields its summary message.
 */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message":
      return { role: "custom", customType: entry.customType, content: entry.content, display: entry.display, details: entry.details, timestamp: Date.parse(entry.timestamp) };
    case "branch_summary":
      return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) };
    case "compaction":
      return { role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: Date.parse(entry.timestamp) };
    default:
      return undefined;
  }
}

/** True for entries that put something into the context (a compaction entry's summary counts). */
export function isContextEntry(entry: SessionEntry): boolean {
  return entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary" || entry.type === "compaction";
}

/**
 * True where a compaction may start the kept part. Never a tool result: it must stay behind the
 * assistant message that called the tool, or the provider rejects the orphaned result.
 */
export function isValidCutPoint(entry: SessionEntry): boolean {
  if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
  return entry.type === "message" && CUTTABLE_ROLES.has(entry.message.role);
}

/** True where a turn begins: a user message or something the user side injected. */
export function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
  return entry.type === "message" && TURN_START_ROLES.has(entry.message.role);
}

/**
 * Converts session-level messages (bash runs, extension messages, summaries) into the user messages
 * an LLM accepts, the way the session shows them to the model. Unknown roles are dropped.
 */
export function toLlmMessages(messages: readonly AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const converted = toLlmMessage(message);
    if (converted) out.push(converted);
  }
  return out;
}

function toLlmMessage(agentMessage: AgentMessage): Message | undefined {
  if (agentMessage.role === "user" || agentMessage.role === "assistant" || agentMessage.role === "toolResult") return agentMessage as Message;
  const message = agentMessage as CustomAgentMessage;
  switch (message.role) {
    case "bashExecution":
      if (message.excludeFromContext === true) return undefined;
      return userText(bashRunText(message), message.timestamp);
    case "custom": {
      const content = message.content as string | Array<TextContent | ImageContent>;
      return { role: "user", content: typeof content === "string" ? [{ type: "text", text: content }] : content, timestamp: message.timestamp };
    }
    case "branchSummary":
      return userText(`A summary of a conversation branch that was left before coming back here:\n\n<summary>\n${String(message.summary)}\n</summary>`, message.timestamp);
    case "compactionSummary":
      return userText(`The earlier part of this conversation was compacted into this summary:\n\n<summary>\n${String(message.summary)}\n</summary>`, message.timestamp);
    default:
      return undefined;
  }
}

function userText(text: string, timestamp: number): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** A `!command` run as the model reads it: the command, its output, and how it ended. */
function bashRunText(message: CustomAgentMessage): string {
  const run = message as unknown as { command: string; output?: string; exitCode?: number | null; cancelled?: boolean; truncated?: boolean; fullOutputPath?: string };
  const parts = [`Ran \`${run.command}\``];
  parts.push(run.output ? `\`\`\`\n${run.output}\n\`\`\`` : "(no output)");
  if (run.cancelled) parts.push("(command cancelled)");
  else if (typeof run.exitCode === "number" && run.exitCode !== 0) parts.push(`Exit code ${run.exitCode}`);
  if (run.truncated && run.fullOutputPath) parts.push(`[Output truncated; full output in ${run.fullOutputPath}]`);
  return parts.join("\n");
}

/** The chars/4 estimate of what one entry adds to the context (0 for entries the model never sees). */
export function estimateEntryTokens(entry: SessionEntry): number {
  const message = messageOfEntry(entry);
  if (!message) return 0;
  let tokens = 0;
  for (const llmMessage of toLlmMessages([message])) tokens += estimateMessageTokens(llmMessage);
  return tokens;
}
