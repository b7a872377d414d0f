/**
 * One prompt turn's session events as ACP session updates, in the order they happen: text and thinking
 * deltas as message and thought chunks; a tool call announced ("pending") as soon as the model starts it,
 * its arguments, title, files and diffs once they are complete, "in_progress" when it is cleared to run,
 * streamed output while it runs, and "completed" or "failed" with its result. A call that never ran (the
 * turn was cancelled or failed first) is closed as "failed" when the turn ends, so no editor shows it
 * spinning forever.
 */
import { randomUUID } from "node:crypto";
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { SessionEvent } from "pi-host";
import type { AssistantMessage, ToolCall } from "pi-host";
import type { ToolResult } from "pi-host";
import { describeToolCall, resultContent, type ToolCallView } from "./tool-calls.js";

/** Translates one turn's events; `send` delivers each update, in call order. */
export class TurnUpdates {
  /** The last assistant message of the turn, for its stop reason. */
  lastAssistant: AssistantMessage | undefined;
  private messageId: string | undefined;
  private readonly views = new Map<string, ToolCallView>();
  private readonly finished = new Set<string>();
  private readonly nested = new Set<string>();

  constructor(
    private readonly cwd: string,
    private readonly send: (update: SessionUpdate) => void,
  ) {}

  /** Handles one session event of this turn. */
  onEvent(event: SessionEvent): void {
    switch (event.type) {
      case "message_start":
        if (event.message.role === "assistant") this.messageId = randomUUID();
        return;
      case "message_end":
        if (event.message.role === "assistant") this.lastAssistant = event.message as AssistantMessage;
        return;
      case "message_update":
        return this.onStreamEvent(event.assistantMessageEvent);
      case "tool_execution_start":
        if (!this.views.has(event.toolCallId)) this.announce(event.toolCallId, event.toolName, event.args, true);
        return;
      case "tool_execution_update":
        this.send({
          sessionUpdate: "tool_call_update",
          toolCallId: event.toolCallId,
          content: [...this.diffs(event.toolCallId), ...resultContent(event.partialResult.content)],
        });
        return;
      case "tool_execution_end":
        return this.end(event.toolCallId, event.result, event.isError);
      default:
        return;
    }
  }

  /**
   * A call the turn's events never showed: a nested call (codemode runs tools from inside its own call,
   * through the same hooks). It is announced now, and its end comes through `end`, from the hooks.
   */
  adopt(toolCallId: string, toolName: string, args: unknown): void {
    if (this.views.has(toolCallId)) return;
    this.nested.add(toolCallId);
    this.announce(toolCallId, toolName, args, true);
  }

  /** Whether `adopt` announced this call (so no tool_execution events will end it). */
  isNested(toolCallId: string): boolean {
    return this.nested.has(toolCallId);
  }

  /** The call ended: "completed" with its diffs and result, or "failed" with the error. */
  end(toolCallId: string, result: ToolResult, isError: boolean): void {
    this.finished.add(toolCallId);
    const update: SessionUpdate = {
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: isError ? "failed" : "completed",
      content: [...(isError ? [] : this.diffs(toolCallId)), ...resultContent(result.content)],
    };
    if (result.details !== undefined) update.rawOutput = result.details;
    this.send(update);
  }

  /** The call was cleared to run (it needed no permission, or the user gave it). */
  started(toolCallId: string, toolName: string, args: unknown): void {
    if (!this.views.has(toolCallId)) this.announce(toolCallId, toolName, args, true);
    this.send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
  }

  /** What the editor shows for a call: from its complete arguments once known. */
  view(toolCallId: string, toolName: string, args: unknown): ToolCallView {
    return this.views.get(toolCallId) ?? describeToolCall(toolName, args, this.cwd);
  }

  /** Closes calls that were announced but never finished; call once, when the turn is over. */
  finish(): void {
    for (const toolCallId of this.views.keys()) {
      if (this.finished.has(toolCallId)) continue;
      this.finished.add(toolCallId);
      this.send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    }
  }

  private onStreamEvent(event: Extract<SessionEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
    const messageId = this.messageId;
    switch (event.type) {
      case "text_delta":
        if (event.delta !== "")
          this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta }, messageId });
        return;
      case "thinking_delta":
        if (event.delta !== "")
          this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta }, messageId });
        return;
      case "toolcall_start": {
        const block = event.partial.content[event.contentIndex];
        if (block?.type === "toolCall" && !this.views.has(block.id)) this.announce(block.id, block.name, {}, false);
        return;
      }
      case "toolcall_end":
        return this.complete(event.toolCall);
      default:
        return;
    }
  }

  /** Announces a call as pending; `complete` says whether `args` are its final arguments. */
  private announce(toolCallId: string, toolName: string, args: unknown, complete: boolean): void {
    const view = describeToolCall(toolName, args, this.cwd);
    this.views.set(toolCallId, view);
    this.send({
      sessionUpdate: "tool_call",
      toolCallId,
      title: complete ? view.title : toolName,
      kind: view.kind,
      status: "pending",
      rawInput: args,
      ...(complete && { locations: view.locations, content: view.diffs }),
    });
  }

  /** The model finished writing a call's arguments: title, files and diffs are known now. */
  private complete(call: ToolCall): void {
    if (!this.views.has(call.id)) return this.announce(call.id, call.name, call.arguments, true);
    const view = describeToolCall(call.name, call.arguments, this.cwd);
    this.views.set(call.id, view);
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: call.id,
      title: view.title,
      kind: view.kind,
      rawInput: call.arguments,
      locations: view.locations,
      content: view.diffs,
    });
  }

  private diffs(toolCallId: string): ToolCallContent[] {
    return this.views.get(toolCallId)?.diffs ?? [];
  }
}
