/**
 * One turn of the agent, top to bottom:
 *
 *   1. add the pending messages (the prompt, steering, follow-ups) to the transcript;
 *   2. stream one assistant message;
 *   3. run its tool calls — checked and cleared in call order, executed together, finished in
 *      completion order, their results added in call order;
 *   4. decide whether another turn follows: tool results to answer, steering typed meanwhile, or
 *      follow-ups queued for when the agent would stop.
 *
 * Every tool call gets exactly one result. A run ends early only when every result of a batch votes
 * `terminate`, when `finishTurn` says so, or on an error or abort.
 */
import { Value } from "@sinclair/typebox/value";
import {
  argumentsErrorOf,
  type AssistantMessage,
  type Context,
  type Message,
  type StreamOptions,
  type TelemetrySpan,
  type ToolCall,
  type ToolResultMessage,
} from "pi-host";
import type { AgentMessage, RunState, ToolCallInfo, TurnConfig } from "pi-host";
import type { AgentTool, ToolResult } from "pi-host";
import { CallSignals } from "./call-signals.js";
import { endToolSpan, noteAnswer, openToolSpan, openTurnSpan, type ToolSpan } from "./spans.js";

/** Runs one turn and returns the run's state for the next (or `done`), inside the turn's span. */
export async function runTurn(run: RunState, config: TurnConfig): Promise<RunState> {
  const span = openTurnSpan(config, run.turns + 1);
  try {
    return await playTurn(run, config, span);
  } finally {
    span.end();
  }
}

async function playTurn(run: RunState, config: TurnConfig, span: TelemetrySpan): Promise<RunState> {
  const { emit } = config;
  emit({ type: "turn_start" });
  if (run.turns === 0) run.pending.push(...config.takeSteering());
  run.turns++;

  for (const pending of run.pending.splice(0)) {
    emit({ type: "message_start", message: pending });
    const message = await endMessage(pending, config);
    run.messages.push(message);
    run.newMessages.push(message);
  }

  // A resumed durable run's answer whose calls did not all finish: run those instead of asking again.
  const due = run.toolsDue;
  run.toolsDue = undefined;
  const message = due?.message ?? (await streamAnswer(run, config, span));
  if (due === undefined) {
    noteAnswer(span, message);
    run.newMessages.push(message);
  }
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    emit({ type: "turn_end", message, toolResults: [] });
    run.done = true;
    return run;
  }

  const calls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
  const toRun = due === undefined ? calls : calls.filter((call) => due.callIds.includes(call.id));
  const batch =
    toRun.length === 0 ? { results: [], terminate: false } : await runToolCalls(message, toRun, run, config, span);
  const toolResults: ToolResultMessage[] = [];
  for (const ended of batch.results) {
    emit({ type: "message_start", message: ended });
    const result = await endMessage(ended, config);
    toolResults.push(result);
    run.messages.push(result);
    run.newMessages.push(result);
  }
  emit({ type: "turn_end", message, toolResults });

  if (config.signal?.aborted || batch.terminate) return finish(run);
  if (await config.hooks.finishTurn?.({ message, toolResults, messages: run.messages })) return finish(run);
  run.pending.push(...config.takeSteering());
  if (run.pending.length === 0 && calls.length === 0) run.pending.push(...config.takeFollowUps());
  if (run.pending.length === 0 && calls.length === 0) return finish(run);
  await config.hooks.prepareNextTurn?.({ message, toolResults });
  return run;
}

function finish(run: RunState): RunState {
  run.done = true;
  return run;
}

/** Converts the transcript, sends it (under the turn's span), and relays the stream as message events. Never throws. */
async function streamAnswer(run: RunState, config: TurnConfig, span: TelemetrySpan): Promise<AssistantMessage> {
  const { emit, hooks, signal } = config;
  const transcript = hooks.transformContext ? await hooks.transformContext(run.messages, signal) : run.messages;
  const llmMessages = hooks.convertToLlm ? await hooks.convertToLlm(transcript) : transcript.filter(isLlmMessage);
  let request: { context: Context; options: StreamOptions } = {
    context: {
      systemPrompt: config.systemPrompt,
      messages: llmMessages,
      tools: config.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
    },
    options: { ...config.streamOptions, signal, telemetry: span },
  };
  request = (await hooks.prepareRequest?.(request)) ?? request;

  const stream = config.stream(config.model, request.context, request.options);
  let partial: AssistantMessage | undefined;
  for await (const event of stream) {
    if (event.type === "start") {
      partial = event.partial;
      run.messages.push(partial);
      emit({ type: "message_start", message: partial });
    } else if (event.type !== "done" && event.type !== "error" && partial !== undefined) {
      emit({ type: "message_update", message: partial, assistantMessageEvent: event });
    }
  }
  const answer = await stream.result();
  if (partial === undefined) emit({ type: "message_start", message: answer });
  const final = await endMessage(answer, config);
  if (partial === undefined) run.messages.push(final);
  else run.messages[run.messages.lastIndexOf(partial)] = final;
  return final;
}

/**
 * Ends `message`: its `message_end` (which the session saves) carries the message the hooks replaced it
 * with, if any (pi's `message_end` handlers may). The loop waits only when a hook said it will answer.
 */
async function endMessage<M extends AgentMessage>(message: M, config: TurnConfig): Promise<M> {
  const replacing = config.hooks.endMessage?.(message);
  const final = ((replacing === undefined ? undefined : await replacing) ?? message) as M;
  config.emit({ type: "message_end", message: final });
  return final;
}

function isLlmMessage(message: AgentMessage): message is Message {
  return message.role === "user" || message.role === "assistant" || message.role === "toolResult";
}

/** A call that passed its checks and waits to run. */
interface ReadyCall {
  call: ToolCall;
  tool: AgentTool<any, any>;
  args: unknown;
}

/** One call's outcome before it becomes a result message. */
interface Outcome {
  result: ToolResult;
  isError: boolean;
}

/**
 * Checks every call in order (tool exists, arguments valid, `beforeToolCall` allows it), runs the
 * allowed ones together (one at a time when a tool asks for it), and returns the results in call order.
 */
async function runToolCalls(
  message: AssistantMessage,
  calls: ToolCall[],
  run: RunState,
  config: TurnConfig,
  turnSpan: TelemetrySpan,
): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
  const { emit, signal } = config;
  const outcomes = new Map<string, Outcome>();
  const spans = new Map<string, ToolSpan>();
  const ready: ReadyCall[] = [];
  const settle = (call: ToolCall, outcome: Outcome): void => {
    outcomes.set(call.id, outcome);
    endToolSpan(spans.get(call.id), outcome);
    emit({
      type: "tool_execution_end",
      toolCallId: call.id,
      toolName: call.name,
      result: outcome.result,
      isError: outcome.isError,
    });
  };

  for (const call of calls) {
    emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
    spans.set(call.id, openToolSpan(turnSpan, call));
    if (message.stopReason === "length") {
      settle(
        call,
        failure(
          `The answer was cut off at the output token limit, so the arguments of this "${call.name}" call may be incomplete. It was not run; issue the call again, smaller if it was large.`,
        ),
      );
      continue;
    }
    const malformed = argumentsErrorOf(call);
    if (malformed !== undefined) {
      // Never guess at a cut-off or broken call (an unterminated command must not run).
      settle(
        call,
        failure(
          `The call to "${call.name}" was not run: ${malformed}. Issue the call again with complete JSON arguments.`,
        ),
      );
      continue;
    }
    const tool = config.tools.find((t) => t.name === call.name);
    if (tool === undefined) {
      settle(
        call,
        failure(
          `Tool "${call.name}" not found. Available tools: ${config.tools.map((t) => t.name).join(", ") || "none"}.`,
        ),
      );
      continue;
    }
    const args = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
    const invalid = validationError(tool, args);
    if (invalid !== undefined) {
      settle(call, failure(invalid));
      continue;
    }
    const info: ToolCallInfo = { assistantMessage: message, toolCall: call, args, messages: run.messages };
    const verdict = await config.hooks.beforeToolCall?.(info, signal);
    if (verdict?.block) {
      settle(call, failure(verdict.reason ?? `The call to "${call.name}" was blocked.`));
      continue;
    }
    ready.push({ call, tool, args });
  }

  const callSignals = new CallSignals(signal);
  const execute = async (ready: ReadyCall): Promise<void> => {
    const callSignal = callSignals.open();
    try {
      await executeWith(ready, callSignal.signal);
    } finally {
      callSignal.release();
    }
  };
  const executeWith = async ({ call, tool, args }: ReadyCall, signal: AbortSignal | undefined): Promise<void> => {
    let outcome: Outcome;
    try {
      const onUpdate = (partialResult: ToolResult): void =>
        emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args, partialResult });
      const result = await tool.execute(call.id, args as never, signal, onUpdate, config.toolContext);
      outcome = { result, isError: result.isError === true };
    } catch (error) {
      outcome = failure(error instanceof Error ? error.message : String(error));
    }
    const info: ToolCallInfo = { assistantMessage: message, toolCall: call, args, messages: run.messages };
    const change = await config.hooks.afterToolCall?.({ ...info, ...outcome }, signal);
    if (change !== undefined) {
      outcome = {
        result: {
          ...outcome.result,
          ...(change.content !== undefined && { content: change.content }),
          ...(change.details !== undefined && { details: change.details }),
          ...(change.terminate !== undefined && { terminate: change.terminate }),
        },
        isError: change.isError ?? outcome.isError,
      };
    }
    settle(call, outcome);
  };
  const sequential = config.toolExecution === "sequential" || ready.some((r) => r.tool.executionMode === "sequential");
  try {
    if (sequential) for (const r of ready) await execute(r);
    else await Promise.all(ready.map(execute));
  } finally {
    callSignals.close();
  }

  const results = calls.map((call): ToolResultMessage => {
    const { result, isError } = outcomes.get(call.id)!;
    return {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      details: result.details,
      isError,
      timestamp: Date.now(),
    };
  });
  const terminate = calls.every((call) => outcomes.get(call.id)!.result.terminate === true);
  return { results, terminate };
}

function failure(text: string): Outcome {
  return { result: { content: [{ type: "text", text }] }, isError: true };
}

/** The first schema violation of the arguments, phrased for the model, or undefined when they are valid. */
function validationError(tool: AgentTool<any, any>, args: unknown): string | undefined {
  if (Value.Check(tool.parameters, args)) return undefined;
  const problems = [...Value.Errors(tool.parameters, args)].slice(0, 5).map((e) => `${e.path || "/"}: ${e.message}`);
  return `Invalid arguments for "${tool.name}": ${problems.join("; ")}. Fix the arguments and call it again.`;
}
