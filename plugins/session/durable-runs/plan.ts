/**
 * Where a crashed run goes on from, read from the session alone: the checkpoints (`custom` entries of
 * type DURABLE_RUN_ENTRY) and the messages on the branch from root to leaf. Pure, so every case of a
 * crash — before an answer, between tool results, after the last answer — is a unit test.
 */
import { DURABLE_RUN_ENTRY } from "pi-host";
import type { AssistantMessage, DurableMark, InterruptedRun, ResumePlan, SessionEntry, ToolCall } from "pi-host";
import type { ToolResultMessage } from "pi-host";

/** The checkpoint an entry holds, if it is one. */
export function markOf(entry: SessionEntry): DurableMark | undefined {
  if (entry.type !== "custom" || entry.customType !== DURABLE_RUN_ENTRY) return undefined;
  const data = entry.data as DurableMark | undefined;
  return typeof data?.runId === "string" && typeof data.kind === "string" ? data : undefined;
}

/** The one line a parked run is refused with: what happened and what to do. */
export function parkedNotice(crashes: number): string {
  return `the interrupted run of this session crashed ${crashes} times in a row and is parked; run "pi --continue --retry-parked" to try it again, or start a new session without --continue`;
}

/**
 * The run on `path` (root → leaf) that started and has no end checkpoint, or undefined. `parkAfter`
 * crashes in a row (interruptions with no step committed between them) park it unless `retryParked`.
 */
export function findInterrupted(
  path: SessionEntry[],
  parkAfter: number,
  retryParked: boolean,
): InterruptedRun | undefined {
  let start = -1;
  for (let i = path.length - 1; i >= 0 && start < 0; i--) if (markOf(path[i]!)?.kind === "start") start = i;
  if (start < 0) return undefined;
  const runId = markOf(path[start]!)!.runId;
  const after = path.slice(start + 1);
  const marks = after.map(markOf).filter((m): m is DurableMark => m !== undefined && m.runId === runId);
  if (marks.some((m) => m.kind === "end")) return undefined;
  const crashes = 1 + resumesSinceProgress(marks);
  const parked = crashes >= parkAfter && !retryParked;
  return { runId, crashes, parked, notice: parkedNotice(crashes), plan: planFrom(after, marks) };
}

/** Resume checkpoints after the last step (an answer, a tool result, or a forced retry). */
function resumesSinceProgress(marks: DurableMark[]): number {
  let count = 0;
  for (const mark of marks) {
    if (mark.kind === "resume" && mark.retry !== true) count++;
    else count = 0;
  }
  return count;
}

/** What the run's last committed message leaves to do. */
export function planFrom(after: SessionEntry[], marks: DurableMark[]): ResumePlan {
  const messages = after.flatMap((e) => (e.type === "message" ? [e.message] : []));
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role !== "assistant") index--;
  // No prompt committed: nothing of the run was ever shown, so there is nothing to carry on.
  if (messages.length === 0) return { kind: "finish" };
  // Only the prompt (and steering) committed: the first answer was cut off, so ask for it.
  if (index < 0) return { kind: "answer" };
  const trailing = messages.slice(index + 1);
  // Something other than the answer's tool results came after it (steering, a follow-up): ask again.
  if (trailing.some((m) => m.role !== "toolResult")) return { kind: "answer" };
  const answer = messages[index] as AssistantMessage;
  if (answer.stopReason === "error") return { kind: "answer" };
  if (answer.stopReason === "aborted") return { kind: "finish" };
  const calls = answer.content.filter((block): block is ToolCall => block.type === "toolCall");
  if (calls.length === 0) return { kind: "finish" };
  const answered = new Set(trailing.map((m) => (m as ToolResultMessage).toolCallId));
  const missing = calls.filter((call) => !answered.has(call.id));
  if (missing.length === 0) return { kind: "answer" };
  const recovered: ToolResultMessage[] = [];
  const rerun: string[] = [];
  for (const call of missing) {
    const mark = marks.find(
      (m): m is Extract<DurableMark, { kind: "tool" }> => m.kind === "tool" && m.toolCallId === call.id,
    );
    if (mark === undefined) rerun.push(call.id);
    else
      recovered.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: mark.toolName,
        content: mark.content,
        details: mark.details,
        isError: mark.isError,
        timestamp: Date.now(),
      });
  }
  return { kind: "tools", message: answer, recovered, rerun };
}
