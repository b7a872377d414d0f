/**
 * What pi's `bash` tool says, wherever the command runs: its parameters and description, the script
 * around the command, the tail shown with pi's continuation notes, and how an ended command becomes a
 * result (exit code, signal, timeout, abort). Shared by the local and the remote bash tools.
 */
import { Type } from "@sinclair/typebox";
import type { ToolResult } from "../../../contracts/tool.js";
import { formatSize } from "../../text/truncate.js";
import type { OutputLimits, TailSnapshot, TailTruncation } from "./tail-output.js";

/** pi's bash parameters, names and meaning unchanged. */
export const BashParameters = Type.Object({
  command: Type.String({ description: "Bash command to execute" }),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

/** What a bash result carries besides its text (pi's shape): present when the output was cut. */
export interface BashDetails {
  truncation?: TailTruncation;
  fullOutputPath?: string;
}

/** Why a command was stopped before it ended on its own. */
export type CommandStopReason = "aborted" | "timed-out" | "retired";

/** How a command ended: on its own (exit code or signal), or stopped. */
export type CommandOutcome =
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | string | null }
  | { kind: CommandStopReason };

/** pi's bash description for these limits, shown to the model. */
export function bashDescription(limits: OutputLimits): string {
  return (
    `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${limits.maxLines} lines ` +
    `or ${limits.maxBytes / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`
  );
}

/**
 * The script the shell runs. `exec 2>&1` on the command's first line sends stderr into the stdout pipe,
 * so the two streams reach us in the exact order they were written (two pipes can be read out of order),
 * and line numbers in the shell's error messages stay those of the command.
 */
export function bashScript(command: string, prefix: string | undefined): string {
  return prefix === undefined || prefix === "" ? `exec 2>&1; ${command}` : `exec 2>&1; ${prefix}\n${command}`;
}

/** The text shown for a snapshot, with pi's continuation note when the output was cut. */
export function renderBashOutput(
  snapshot: TailSnapshot,
  limits: OutputLimits,
  emptyText: string,
): { text: string; details: BashDetails | undefined } {
  const { truncation } = snapshot;
  let text = snapshot.text === "" ? emptyText : snapshot.text;
  if (!truncation.truncated) return { text, details: undefined };
  const fullOutput =
    snapshot.fullOutputPath === undefined
      ? "Full output could not be saved"
      : `Full output: ${snapshot.fullOutputPath}`;
  const endLine = truncation.totalLines;
  const startLine = endLine - truncation.outputLines + 1;
  if (truncation.lastLinePartial) {
    text += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${endLine} (line is ${formatSize(snapshot.lastLineBytes)}). ${fullOutput}]`;
  } else if (truncation.truncatedBy === "lines") {
    text += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines}. ${fullOutput}]`;
  } else {
    text += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines} (${formatSize(limits.maxBytes)} limit). ${fullOutput}]`;
  }
  return { text, details: { truncation, fullOutputPath: snapshot.fullOutputPath } };
}

/**
 * The result of an ended command: its output, or an error result for a non-zero exit, a signal or a
 * timeout; an abort (or the tool unloading) throws, as pi does. `timeout` is the call's seconds.
 */
export function bashOutcomeResult(
  outcome: CommandOutcome,
  snapshot: TailSnapshot,
  limits: OutputLimits,
  timeout: number | undefined,
): ToolResult<BashDetails | undefined> {
  if (outcome.kind !== "exited") {
    const shown = renderBashOutput(snapshot, limits, "");
    if (outcome.kind === "timed-out")
      return errorResult(withStatus(shown.text, `Command timed out after ${timeout} seconds`), shown.details);
    const why = outcome.kind === "retired" ? "Command aborted: the bash tool was unloaded" : "Command aborted";
    throw new Error(withStatus(shown.text, why));
  }
  const shown = renderBashOutput(snapshot, limits, "(no output)");
  if (outcome.code !== null && outcome.code !== 0) {
    return errorResult(withStatus(shown.text, `Command exited with code ${outcome.code}`), shown.details);
  }
  if (outcome.signal !== null)
    return errorResult(withStatus(shown.text, `Command was killed by signal ${outcome.signal}`), shown.details);
  return { content: [{ type: "text", text: shown.text }], details: shown.details };
}

function withStatus(text: string, status: string): string {
  return text === "" ? status : `${text}\n\n${status}`;
}

function errorResult(text: string, details: BashDetails | undefined): ToolResult<BashDetails | undefined> {
  return { content: [{ type: "text", text }], details, isError: true };
}
