/**
 * What each API refuses with a 400, written as checks on a recorded request body: the ordering rules
 * for tool calls and their results, id formats, and the block and part types each API knows. Each
 * check returns the problems it found (empty when the body is valid), so a failing test names them all.
 */

type Json = Record<string, any>;

const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const COMPLETIONS_TOOL_ID = /^[a-zA-Z0-9_-]{1,40}$/;
const RESPONSES_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const RESPONSES_ITEM_ID = /^fc_[a-zA-Z0-9_-]{1,61}$/;

/** Anthropic Messages: alternating roles starting with user, known blocks, every tool_use answered in the next user turn. */
export function anthropicProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages = body.messages as Json[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return ["messages is empty"];
  if (messages[0]!.role !== "user") problems.push("the first message is not from the user");
  const seenIds = new Set<string>();
  messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    if (message.role !== "user" && message.role !== "assistant") problems.push(`${where}: role ${message.role}`);
    const blocks: Json[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (!Array.isArray(blocks) || blocks.length === 0) {
      problems.push(`${where}: no content`);
      return;
    }
    const allowed =
      message.role === "user"
        ? ["text", "image", "tool_result"]
        : ["text", "thinking", "redacted_thinking", "tool_use"];
    blocks.forEach((block, j) => {
      const at = `${where}.content[${j}]`;
      if (!allowed.includes(block.type)) problems.push(`${at}: ${block.type} block in a ${message.role} message`);
      if (block.type === "text" && String(block.text ?? "").trim() === "") problems.push(`${at}: empty text`);
      if (block.type === "thinking" && !block.signature) problems.push(`${at}: thinking without signature`);
      if (block.type === "redacted_thinking" && !block.data) problems.push(`${at}: redacted_thinking without data`);
      if (block.type === "tool_use") {
        if (!ANTHROPIC_TOOL_ID.test(block.id))
          problems.push(`${at}: tool_use id ${JSON.stringify(block.id)} breaks ^[a-zA-Z0-9_-]{1,64}$`);
        if (seenIds.has(block.id)) problems.push(`${at}: tool_use id ${block.id} used twice`);
        seenIds.add(block.id);
      }
    });
    const calls = blocks.filter((b) => b.type === "tool_use").map((b) => b.id as string);
    const results = blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id as string);
    if (results.length > 0) {
      const previous = messages[i - 1];
      const asked =
        previous?.role === "assistant" && Array.isArray(previous.content)
          ? previous.content.filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id)
          : [];
      for (const id of results)
        if (!asked.includes(id))
          problems.push(`${where}: tool_result for ${id}, which the previous assistant turn did not call`);
      const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
      if (firstOther !== -1 && firstOther < results.length)
        problems.push(`${where}: tool_result blocks must come first`);
    }
    if (calls.length > 0) {
      const next = messages[i + 1];
      const answered =
        next?.role === "user" && Array.isArray(next.content)
          ? next.content.filter((b: Json) => b.type === "tool_result").map((b: Json) => b.tool_use_id)
          : [];
      for (const id of calls)
        if (!answered.includes(id)) problems.push(`${where}: tool_use ${id} has no tool_result in the next message`);
    }
  });
  return problems;
}

/** OpenAI Responses: known input items, call ids and fc_ item ids, every function_call answered once, reasoning replayable. */
export function responsesProblems(body: Json): string[] {
  const problems: string[] = [];
  const input = body.input as Json[] | undefined;
  if (!Array.isArray(input) || input.length === 0) return ["input is empty"];
  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  input.forEach((item, i) => {
    const at = `input[${i}]`;
    if (item.type === undefined) {
      if (!["user", "assistant", "system", "developer"].includes(item.role)) problems.push(`${at}: role ${item.role}`);
      if (item.role === "user") {
        if (!Array.isArray(item.content) || item.content.length === 0)
          problems.push(`${at}: user content must be a non-empty list of parts`);
        for (const part of item.content ?? []) {
          if (part.type === "input_image" && !String(part.image_url ?? "").startsWith("data:image/"))
            problems.push(`${at}: input_image without a data URL`);
          else if (part.type !== "input_text" && part.type !== "input_image")
            problems.push(`${at}: user part ${part.type}`);
        }
      } else if (typeof item.content !== "string" || item.content === "") {
        problems.push(`${at}: ${item.role} content must be a non-empty string`);
      }
    } else if (item.type === "message") {
      if (item.role !== "assistant" || !/^msg_/.test(item.id ?? ""))
        problems.push(`${at}: a message item must be the assistant's with a msg_ id`);
    } else if (item.type === "reasoning") {
      if (typeof item.encrypted_content !== "string" || item.encrypted_content === "")
        problems.push(`${at}: reasoning item without encrypted_content (store is false)`);
      if (input[i + 1] === undefined || input[i + 1]!.type === "function_call_output" || input[i + 1]!.role === "user")
        problems.push(`${at}: reasoning item without a following output item`);
    } else if (item.type === "function_call") {
      if (!RESPONSES_CALL_ID.test(item.call_id ?? ""))
        problems.push(`${at}: call_id ${JSON.stringify(item.call_id)} breaks ^[a-zA-Z0-9_-]{1,64}$`);
      if (item.id !== undefined && !RESPONSES_ITEM_ID.test(item.id))
        problems.push(`${at}: function_call id ${JSON.stringify(item.id)} must start with fc_`);
      if (calls.has(item.call_id)) problems.push(`${at}: call_id ${item.call_id} used twice`);
      calls.set(item.call_id, i);
      try {
        JSON.parse(item.arguments);
      } catch {
        problems.push(`${at}: arguments are not a JSON string`);
      }
    } else if (item.type === "function_call_output") {
      const callAt = calls.get(item.call_id);
      if (callAt === undefined) problems.push(`${at}: output for ${item.call_id}, which no earlier function_call made`);
      if (outputs.has(item.call_id)) problems.push(`${at}: second output for ${item.call_id}`);
      outputs.set(item.call_id, i);
      if (typeof item.output !== "string" && !Array.isArray(item.output))
        problems.push(`${at}: output must be a string or a list of parts`);
    } else {
      problems.push(`${at}: unknown item type ${item.type}`);
    }
  });
  for (const [callId, at] of calls)
    if (!outputs.has(callId)) problems.push(`input[${at}]: function_call ${callId} has no function_call_output`);
  return problems;
}

/** Chat Completions: known roles, tool_calls answered by tool messages right after, ids within 40 safe characters. */
export function completionsProblems(body: Json, options: { textOnly: boolean }): string[] {
  const problems: string[] = [];
  const messages = body.messages as Json[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return ["messages is empty"];
  const seenIds = new Set<string>();
  let open: string[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    if (message.role !== "tool" && open.length > 0) {
      problems.push(`${at}: ${message.role} message before the results of ${open.join(", ")}`);
      open = [];
    }
    if (message.role === "tool") {
      if (!open.includes(message.tool_call_id))
        problems.push(
          `${at}: tool message for ${message.tool_call_id}, which is not an open call of the previous assistant message`,
        );
      open = open.filter((id) => id !== message.tool_call_id);
      if (typeof message.content !== "string") problems.push(`${at}: tool content must be a string`);
    } else if (message.role === "assistant") {
      const calls = (message.tool_calls ?? []) as Json[];
      if (message.content === null && calls.length === 0)
        problems.push(`${at}: assistant message with neither content nor tool_calls`);
      if (message.content !== null && typeof message.content !== "string")
        problems.push(`${at}: assistant content must be a string or null`);
      for (const call of calls) {
        if (!COMPLETIONS_TOOL_ID.test(call.id ?? ""))
          problems.push(`${at}: tool call id ${JSON.stringify(call.id)} breaks ^[a-zA-Z0-9_-]{1,40}$`);
        if (seenIds.has(call.id)) problems.push(`${at}: tool call id ${call.id} used twice`);
        seenIds.add(call.id);
        if (call.type !== "function" || typeof call.function?.name !== "string")
          problems.push(`${at}: tool call ${call.id} is not a function call`);
        try {
          JSON.parse(call.function?.arguments);
        } catch {
          problems.push(`${at}: tool call ${call.id} arguments are not a JSON string`);
        }
      }
      open = calls.map((call) => call.id as string);
    } else if (message.role === "user") {
      if (typeof message.content !== "string") {
        for (const part of message.content ?? []) {
          if (part.type === "image_url" && options.textOnly) problems.push(`${at}: image sent to a text-only model`);
          else if (part.type !== "text" && part.type !== "image_url") problems.push(`${at}: user part ${part.type}`);
        }
      }
    } else if (message.role !== "system" && message.role !== "developer") {
      problems.push(`${at}: role ${message.role}`);
    }
  });
  if (open.length > 0) problems.push(`the request ends before the results of ${open.join(", ")}`);
  return problems;
}

/** Gemini: user/model contents with one kind of data per part; each model turn's function calls answered, by name and in order, in the next user turn. */
export function geminiProblems(body: Json): string[] {
  const problems: string[] = [];
  const contents = body.contents as Json[] | undefined;
  if (!Array.isArray(contents) || contents.length === 0) return ["contents is empty"];
  if (contents[0]!.role !== "user") problems.push("the first content is not from the user");
  contents.forEach((content, i) => {
    const at = `contents[${i}]`;
    if (content.role !== "user" && content.role !== "model") problems.push(`${at}: role ${content.role}`);
    const parts = content.parts as Json[] | undefined;
    if (!Array.isArray(parts) || parts.length === 0) {
      problems.push(`${at}: no parts`);
      return;
    }
    parts.forEach((part, j) => {
      const kinds = ["text", "inlineData", "functionCall", "functionResponse"].filter(
        (kind) => part[kind] !== undefined,
      );
      if (kinds.length !== 1)
        problems.push(`${at}.parts[${j}]: ${kinds.length} kinds of data (${kinds.join(", ") || "none"})`);
      if (part.functionCall !== undefined && content.role !== "model")
        problems.push(`${at}.parts[${j}]: functionCall in a user turn`);
      if (part.functionResponse !== undefined && content.role !== "user")
        problems.push(`${at}.parts[${j}]: functionResponse in a model turn`);
      if (part.thought === true && content.role !== "model") problems.push(`${at}.parts[${j}]: thought in a user turn`);
    });
    const responses = parts
      .filter((p) => p.functionResponse !== undefined)
      .map((p) => p.functionResponse.name as string);
    if (responses.length > 0) {
      const previous = contents[i - 1];
      const called = (previous?.role === "model" ? (previous.parts as Json[]) : [])
        .filter((p) => p.functionCall !== undefined)
        .map((p) => p.functionCall.name as string);
      if (JSON.stringify(called) !== JSON.stringify(responses))
        problems.push(
          `${at}: function responses ${JSON.stringify(responses)} do not answer the calls ${JSON.stringify(called)} of the turn before`,
        );
    }
    const calls = parts.filter((p) => p.functionCall !== undefined);
    if (calls.length > 0) {
      const next = contents[i + 1];
      if (next === undefined || !(next.parts as Json[]).some((p) => p.functionResponse !== undefined))
        problems.push(`${at}: function calls without responses in the next turn`);
    }
  });
  return problems;
}
