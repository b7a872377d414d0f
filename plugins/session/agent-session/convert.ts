/**
 * What the model sees of session-level messages: shell runs, extension messages and summaries become
 * user messages; the three LLM roles pass through; anything else stays out.
 */
import type { AgentMessage } from "pi-host";
import type { ImageContent, Message, TextContent } from "pi-host";

const COMPACTION_INTRO = "Earlier parts of this conversation were compacted into the summary below.\n\n<summary>\n";
const BRANCH_INTRO = "The conversation returned here from another branch, summarized below.\n\n<summary>\n";
const SUMMARY_END = "\n</summary>";

/** Converts a transcript for a request; pure. */
export function convertToLlm(messages: readonly AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === "user" || m.role === "assistant" || m.role === "toolResult") {
      out.push(m as Message);
      continue;
    }
    const text = (value: string): Message => ({ role: "user", content: [{ type: "text", text: value }], timestamp: m.timestamp });
    const c = m as Record<string, any>;
    if (m.role === "bashExecution" && !c.excludeFromContext) out.push(text(bashText(c)));
    else if (m.role === "custom") {
      const content: Array<TextContent | ImageContent> = typeof c.content === "string" ? [{ type: "text", text: c.content }] : (c.content ?? []);
      out.push({ role: "user", content, timestamp: m.timestamp });
    } else if (m.role === "compactionSummary") out.push(text(COMPACTION_INTRO + String(c.summary) + SUMMARY_END));
    else if (m.role === "branchSummary") out.push(text(BRANCH_INTRO + String(c.summary) + SUMMARY_END));
  }
  return out;
}

/** A user-run shell command as the model reads it. */
function bashText(m: Record<string, any>): string {
  let text = `Ran \`${m.command}\`\n`;
  text += m.output ? `\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (typeof m.exitCode === "number" && m.exitCode !== 0) text += `\n\nCommand exited with code ${m.exitCode}`;
  if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return text;
}
