/**
 * Checks the soak's session file the way pi reads one: line by line, a version-3 header, then entries
 * linked by id/parentId. Then it holds the file to what the soak knows happened:
 *
 *   - every line is whole JSON, the file ends with a newline, ids are unique, and (the soak never
 *     branches) each entry's parent is the entry before it;
 *   - every tool call has exactly one result, before the next assistant or user message, and every result
 *     answers a call of the assistant message before it; no tool call id repeats;
 *   - turns are balanced: each prompt "prompt N: steps: K" is followed by exactly K tool-call turns, each
 *     with its result, and one final answer "Prompt N done ...", and nothing ended "aborted" or "error";
 *   - the messages in the file are exactly the messages the driver saw at `message_end`, in order (no
 *     entry lost, none duplicated, none changed).
 *
 * Returns counts and a list of problems (empty when the file is valid).
 */
import { readFileSync } from "node:fs";

/** Reads and checks `path`; `seen` is the JSON of every message_end message, in order. */
export function checkSessionFile(path, seen) {
  const problems = [];
  const problem = (text) => {
    if (problems.length < 50) problems.push(text);
  };
  const text = readFileSync(path, "utf8");
  if (!text.endsWith("\n")) problem("the file does not end with a newline (a torn last line)");
  const lines = text.split("\n").filter((line, i, all) => !(i === all.length - 1 && line === ""));
  const parsed = [];
  lines.forEach((line, i) => {
    try {
      parsed.push(JSON.parse(line));
    } catch (error) {
      problem(`line ${i + 1} is not JSON: ${error.message}`);
    }
  });
  const [header, ...entries] = parsed;
  if (header?.type !== "session" || header?.version !== 3 || typeof header?.id !== "string")
    problem(`line 1 is not a version-3 session header: ${lines[0]?.slice(0, 120)}`);

  // The tree: unique ids, each parent the previous entry (the soak never branches or moves the leaf).
  const ids = new Set();
  const counts = { entries: entries.length, messages: 0, compactions: 0, leafMarkers: 0, other: {} };
  let previous = null;
  for (const [i, entry] of entries.entries()) {
    const where = `entry ${i + 1} (line ${i + 2})`;
    if (typeof entry.id !== "string" || ids.has(entry.id))
      problem(`${where}: id ${JSON.stringify(entry.id)} is missing or repeated`);
    ids.add(entry.id);
    if (entry.parentId !== previous)
      problem(`${where}: parentId ${entry.parentId} is not the previous entry ${previous}`);
    previous = entry.id;
    if (entry.type === "message") counts.messages++;
    else if (entry.type === "compaction") {
      counts.compactions++;
      if (!ids.has(entry.firstKeptEntryId))
        problem(`${where}: compaction keeps from ${entry.firstKeptEntryId}, which is not an earlier entry`);
    } else if (entry.type === "custom" && entry.customType === "pi-host/leaf") counts.leafMarkers++;
    else counts.other[entry.type] = (counts.other[entry.type] ?? 0) + 1;
  }
  if (counts.leafMarkers > 0)
    problem(`${counts.leafMarkers} leaf marker(s): the leaf moved, but the soak never navigates`);

  const messages = entries.filter((e) => e.type === "message").map((e) => e.message);
  const pairing = checkToolPairing(messages);
  for (const p of pairing.problems) problem(p);
  const turns = checkTurns(messages);
  for (const p of turns.problems) problem(p);

  // The same messages, in the same order, as the driver saw them end.
  if (messages.length !== seen.length)
    problem(`the file holds ${messages.length} messages; the driver saw ${seen.length} end`);
  const firstDifference = messages.findIndex((m, i) => JSON.stringify(m) !== seen[i]);
  if (firstDifference !== -1 && firstDifference < seen.length) {
    problem(
      `message ${firstDifference + 1} differs from the one the driver saw: file ${JSON.stringify(messages[firstDifference]).slice(0, 160)} vs seen ${String(seen[firstDifference]).slice(0, 160)}`,
    );
  }

  return {
    ok: problems.length === 0,
    problems,
    counts: {
      ...counts,
      toolCalls: pairing.calls,
      toolResults: pairing.results,
      prompts: turns.prompts,
      toolTurns: turns.toolTurns,
      aborted: turns.aborted,
      errored: turns.errored,
    },
  };
}

/** Every tool call answered exactly once, by the results that follow its assistant message. */
function checkToolPairing(messages) {
  const problems = [];
  const everyCall = new Set();
  let open = new Map();
  let calls = 0;
  let results = 0;
  for (const [i, m] of messages.entries()) {
    if (m.role === "assistant" || m.role === "user") {
      if (open.size > 0)
        problems.push(
          `message ${i + 1} (${m.role}) comes while tool call(s) ${[...open.keys()].join(", ")} have no result`,
        );
      open = new Map();
    }
    if (m.role === "assistant") {
      for (const block of m.content ?? []) {
        if (block.type !== "toolCall") continue;
        calls++;
        if (everyCall.has(block.id)) problems.push(`tool call id ${block.id} appears twice`);
        everyCall.add(block.id);
        open.set(block.id, block.name);
      }
    } else if (m.role === "toolResult") {
      results++;
      if (!open.has(m.toolCallId))
        problems.push(
          `message ${i + 1}: a result for ${m.toolCallId}, which is not an open call (duplicate or orphan)`,
        );
      open.delete(m.toolCallId);
    }
  }
  if (open.size > 0) problems.push(`the file ends with tool call(s) ${[...open.keys()].join(", ")} unanswered`);
  return { problems, calls, results };
}

/** Each prompt "prompt N: steps: K": K tool turns with their results, then the final answer; nothing aborted. */
function checkTurns(messages) {
  const problems = [];
  let prompts = 0;
  let toolTurns = 0;
  let aborted = 0;
  let errored = 0;
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    if (m.stopReason === "aborted") aborted++;
    if (m.stopReason === "error") errored++;
  }
  if (aborted > 0) problems.push(`${aborted} assistant message(s) ended "aborted"`);
  if (errored > 0) problems.push(`${errored} assistant message(s) ended "error"`);

  let i = 0;
  while (i < messages.length) {
    const m = messages[i];
    if (m.role !== "user") {
      problems.push(`message ${i + 1} (${m.role}) is outside any prompt's turns`);
      i++;
      continue;
    }
    prompts++;
    const text = typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? "").join("");
    const match = /^prompt (\d+): steps: (\d+)/.exec(text);
    const steps = match ? Number(match[2]) : 0;
    const id = match ? match[1] : "?";
    i++;
    for (let step = 1; step <= steps; step++) {
      const call = messages[i];
      const result = messages[i + 1];
      const expectedId = `p${id}-s${step}`;
      const callBlock = call?.role === "assistant" ? call.content.find((b) => b.type === "toolCall") : undefined;
      if (callBlock?.id !== expectedId || result?.role !== "toolResult" || result.toolCallId !== expectedId) {
        problems.push(
          `prompt ${id}: step ${step} is not a tool call ${expectedId} followed by its result (message ${i + 1})`,
        );
        break;
      }
      toolTurns++;
      i += 2;
    }
    const answer = messages[i];
    const answerText = answer?.role === "assistant" ? answer.content.map((b) => b.text ?? "").join("") : "";
    if (!answerText.startsWith(`Prompt ${id} done after ${steps} steps`)) {
      problems.push(
        `prompt ${id}: message ${i + 1} is not its final answer (${answer?.role} ${JSON.stringify(answerText).slice(0, 80)})`,
      );
      while (i < messages.length && messages[i].role !== "user") i++;
      continue;
    }
    i++;
  }
  return { problems, prompts, toolTurns, aborted, errored };
}
