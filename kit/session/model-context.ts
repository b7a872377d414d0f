/**
 * The one conversion of session entries and agent messages into what the model reads, with pi's exact
 * wording (pi 1.6 `core/messages.ts` and `buildSessionContext`). The model request (agent-session), the
 * session store's context (session-jsonl) and compaction's token count and summarizer all go through
 * here, so compaction measures and summarizes the very text the model is sent.
 */
import type { AgentMessage, CustomAgentMessage } from "../../contracts/agent.js";
import type { ImageContent, Message, TextContent } from "../../contracts/ai/index.js";
import type { CompactionEntry, ContextEditEntry, SessionContext, SessionEntry } from "../../contracts/session.js";

/** pi's text before a compaction summary. */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** pi's text after a compaction summary. */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
/** pi's text before a branch summary. */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/** pi's text after a branch summary (pi writes no newline before it). */
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** The fields of a `!command` run (a `bashExecution` message) that the model reads. */
interface BashRun {
  command: string;
  output?: string;
  exitCode?: number | null;
  cancelled?: boolean;
  truncated?: boolean;
  fullOutputPath?: string;
}

/** A user-run shell command as the model reads it: the command, its output and how it ended (pi's text). */
export function bashExecutionToText(run: BashRun): string {
  let text = `Ran \`${run.command}\`\n`;
  text += run.output ? `\`\`\`\n${run.output}\n\`\`\`` : "(no output)";
  if (run.cancelled) text += "\n\n(command cancelled)";
  else if (typeof run.exitCode === "number" && run.exitCode !== 0)
    text += `\n\nCommand exited with code ${run.exitCode}`;
  if (run.truncated && run.fullOutputPath) text += `\n\n[Output truncated. Full output: ${run.fullOutputPath}]`;
  return text;
}

/**
 * Agent messages as the LLM accepts them (pi's `convertToLlm`): shell runs, extension messages and
 * summaries become user messages; the LLM roles pass through; excluded runs and unknown roles drop out.
 */
export function convertToLlm(messages: readonly AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const converted = toLlmMessage(message);
    if (converted !== undefined) out.push(converted);
  }
  return out;
}

function toLlmMessage(agentMessage: AgentMessage): Message | undefined {
  if (agentMessage.role === "user" || agentMessage.role === "assistant" || agentMessage.role === "toolResult")
    return agentMessage as Message;
  const message = agentMessage as CustomAgentMessage;
  switch (message.role) {
    case "bashExecution":
      return message.excludeFromContext === true
        ? undefined
        : userText(bashExecutionToText(message as unknown as BashRun), message.timestamp);
    case "custom": {
      const content = message.content as string | Array<TextContent | ImageContent>;
      return {
        role: "user",
        content: typeof content === "string" ? [{ type: "text", text: content }] : content,
        timestamp: message.timestamp,
      };
    }
    case "branchSummary":
      return userText(BRANCH_SUMMARY_PREFIX + String(message.summary) + BRANCH_SUMMARY_SUFFIX, message.timestamp);
    case "compactionSummary":
      return userText(
        COMPACTION_SUMMARY_PREFIX + String(message.summary) + COMPACTION_SUMMARY_SUFFIX,
        message.timestamp,
      );
    default:
      return undefined;
  }
}

function userText(text: string, timestamp: number): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/**
 * The message one entry puts into the context, or undefined for entries the model never sees
 * (settings changes, labels, extension state, an empty branch summary). A compaction entry yields its
 * summary message.
 */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message": {
      const message: AgentMessage = {
        role: "custom",
        customType: entry.customType,
        content: entry.content ?? [],
        display: entry.display,
        timestamp: epochMs(entry.timestamp),
      };
      if (entry.details !== undefined) message.details = entry.details;
      return message;
    }
    case "branch_summary":
      return entry.summary
        ? { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: epochMs(entry.timestamp) }
        : undefined;
    case "compaction":
      return {
        role: "compactionSummary",
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: epochMs(entry.timestamp),
      };
    default:
      return undefined;
  }
}

/**
 * What the model sees of a root → leaf path, built the way pi 1.6 builds it: the latest compaction on
 * the path contributes its summary first, then the entries it kept (from `firstKeptEntryId` up to the
 * compaction), then everything after it. Then the `context_edit` entries among those selected entries
 * apply, the latest per target winning: `null` leaves the target out, a replacement swaps its content
 * (an edit the compaction summarized away is gone with it; one on another branch never applies). The
 * model and thinking level are the last ones set on the path. O(path length).
 */
export function buildSessionContext(path: readonly SessionEntry[]): SessionContext {
  const context: SessionContext = { messages: [], entryIds: [] };
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    noteModelAndThinking(context, entry);
    if (entry.type === "compaction") compactionIndex = i;
  }

  const selected = selectedEntries(path, compactionIndex);
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of selected) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  for (let i = 0; i < selected.length; i++) {
    const entry = selected[i]!;
    // Only the newest compaction (first when there is one) gives its summary; an older one kept in range gives none.
    const original = entry.type === "compaction" && i > 0 ? undefined : messageOfEntry(entry);
    if (original === undefined) continue;
    const message = applyContextEdit(original, edits.get(entry.id));
    if (message === undefined) continue;
    context.messages.push(message);
    context.entryIds.push(entry.id);
  }
  return context;
}

/**
 * Extends, in place, the context of a path by entries that followed its leaf (in order), as
 * `buildSessionContext` of the longer path would give it, so a turn's few new entries cost a few steps,
 * not a walk of the whole history. Returns false, leaving `context` unchanged, when one of them is a
 * compaction or a context edit (each changes what comes before it): the caller builds the path anew.
 */
export function extendSessionContext(context: SessionContext, added: readonly SessionEntry[]): boolean {
  if (added.some((entry) => entry.type === "compaction" || entry.type === "context_edit")) return false;
  for (const entry of added) {
    noteModelAndThinking(context, entry);
    const message = messageOfEntry(entry);
    if (message === undefined) continue;
    context.messages.push(message);
    context.entryIds.push(entry.id);
  }
  return true;
}

/** The model and thinking level an entry sets: the last one on the path wins. */
function noteModelAndThinking(context: SessionContext, entry: SessionEntry): void {
  if (entry.type === "thinking_level_change") context.thinkingLevel = entry.thinkingLevel;
  else if (entry.type === "model_change") context.model = { provider: entry.provider, modelId: entry.modelId };
  else if (entry.type === "message" && entry.message.role === "assistant") {
    const message = entry.message as { provider: string; model: string };
    context.model = { provider: message.provider, modelId: message.model };
  }
}

/** The entries the context is built from: the whole path, or the latest compaction, what it kept and what followed. */
function selectedEntries(path: readonly SessionEntry[], compactionIndex: number): readonly SessionEntry[] {
  if (compactionIndex < 0) return path;
  const compaction = path[compactionIndex] as CompactionEntry;
  const selected: SessionEntry[] = [compaction];
  let kept = false;
  for (let i = 0; i < compactionIndex; i++) {
    if (path[i]!.id === compaction.firstKeptEntryId) kept = true;
    if (kept) selected.push(path[i]!);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) selected.push(path[i]!);
  return selected;
}

/**
 * A message under its latest context edit (pi 1.6 `projectContextEntry`): undefined when the edit leaves
 * it out; a replacement changes only the content of user, assistant, tool-result and custom messages,
 * with a string made one text block for assistant and tool-result messages (their content is a list).
 */
export function applyContextEdit(message: AgentMessage, edit: ContextEditEntry | undefined): AgentMessage | undefined {
  if (edit === undefined) return message;
  if (edit.replacement === null) return undefined;
  const role = message.role;
  if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") return message;
  const content = edit.replacement.content;
  const asList = (role === "assistant" || role === "toolResult") && typeof content === "string";
  return { ...message, content: asList ? [{ type: "text", text: content }] : content } as AgentMessage;
}

/** Entry times are ISO strings; message times are Unix milliseconds. */
function epochMs(isoTime: string): number {
  return new Date(isoTime).getTime();
}
