/**
 * pi's `bash` tool: runs a command with `<shell> -c` in the session's folder, streams its merged
 * stdout/stderr as it arrives, keeps the tail (2,000 lines / 50 KB) for the model and the full log in a
 * temp file. A non-zero exit or a timeout is an error result carrying the output so far; an abort kills
 * the command's whole process group and rejects.
 */
import { existsSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { formatSize, TOOL_LIMITS, type AgentTool, type ToolResult } from "pi-host";
import { runCommand, type CommandOutcome } from "./run-command.js";
import type { RunningCommands } from "./running-commands.js";
import { resolveShell } from "./shell.js";
import { TailOutput, type OutputLimits, type TailSnapshot, type TailTruncation } from "./tail-output.js";
import { ThrottledUpdates } from "./throttled-updates.js";
import { resolveTimeoutMs } from "./timeout.js";

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

/** How the tool is set up. */
export interface BashToolOptions {
  /** The generation's running commands, stopped when it retires. */
  running: RunningCommands;
  /** A shell to use instead of /bin/bash (pi's `shellPath` setting). */
  shellPath?: string;
  /** Lines run before every command, e.g. `shopt -s expand_aliases` (pi's `shellCommandPrefix`). */
  commandPrefix?: string;
  /**
   * Where the prefix comes from when `commandPrefix` is not set: pi's `shellCommandPrefix` setting for
   * the command's folder (the settings plugin applies a project's only in a trusted project).
   */
  commandPrefixFor?: (cwd: string) => Promise<string | undefined>;
  /** Output limits; pi's by default. */
  limits?: OutputLimits;
  /** Minimum time between streamed updates. */
  updateIntervalMs?: number;
}

/** Builds the bash tool. */
export function createBashTool(options: BashToolOptions): AgentTool<typeof BashParameters, BashDetails | undefined> {
  const limits = options.limits ?? TOOL_LIMITS;
  return {
    name: "bash",
    label: "bash",
    description:
      `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${limits.maxLines} lines ` +
      `or ${limits.maxBytes / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`,
    parameters: BashParameters,
    async execute(_toolCallId, params: Static<typeof BashParameters>, signal, onUpdate, ctx) {
      const { command, timeout } = params;
      if (typeof command !== "string") throw new Error("bash: `command` must be a string");
      const timeoutMs = resolveTimeoutMs(timeout);
      if (!existsSync(ctx.cwd))
        throw new Error(`Working directory does not exist: ${ctx.cwd}. Cannot execute bash commands.`);
      if (signal?.aborted) throw new Error("Command aborted");
      const shell = resolveShell(options.shellPath);
      const output = new TailOutput(limits);
      const updates = new ThrottledUpdates(() => {
        const shown = render(output.snapshot(), limits, "");
        onUpdate?.({ content: [{ type: "text", text: shown.text }], details: shown.details });
      }, options.updateIntervalMs);
      onUpdate?.({ content: [], details: undefined });

      let outcome: CommandOutcome;
      try {
        outcome = await runCommand({
          shell,
          script: buildScript(command, options.commandPrefix ?? (await options.commandPrefixFor?.(ctx.cwd))),
          cwd: ctx.cwd,
          timeoutMs,
          signal,
          running: options.running,
          onData: (chunk) => {
            const keepGoing = output.append(chunk);
            if (onUpdate !== undefined) updates.changed();
            return keepGoing ? undefined : output.drained();
          },
        });
      } finally {
        updates.stop();
        await output.close();
      }

      const snapshot = output.snapshot();
      if (outcome.kind !== "exited") {
        const shown = render(snapshot, limits, "");
        if (outcome.kind === "timed-out")
          return errorResult(withStatus(shown.text, `Command timed out after ${timeout} seconds`), shown.details);
        const why = outcome.kind === "retired" ? "Command aborted: the bash tool was unloaded" : "Command aborted";
        throw new Error(withStatus(shown.text, why));
      }
      const shown = render(snapshot, limits, "(no output)");
      if (outcome.code !== null && outcome.code !== 0) {
        return errorResult(withStatus(shown.text, `Command exited with code ${outcome.code}`), shown.details);
      }
      if (outcome.signal !== null)
        return errorResult(withStatus(shown.text, `Command was killed by signal ${outcome.signal}`), shown.details);
      return { content: [{ type: "text", text: shown.text }], details: shown.details };
    },
  };
}

/**
 * The script the shell runs. `exec 2>&1` on the command's first line sends stderr into the stdout pipe,
 * so the two streams reach us in the exact order they were written (two pipes can be read out of order),
 * and line numbers in the shell's error messages stay those of the command.
 */
function buildScript(command: string, prefix: string | undefined): string {
  return prefix === undefined || prefix === "" ? `exec 2>&1; ${command}` : `exec 2>&1; ${prefix}\n${command}`;
}

/** The text shown for a snapshot, with pi's continuation note when the output was cut. */
function render(
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

function withStatus(text: string, status: string): string {
  return text === "" ? status : `${text}\n\n${status}`;
}

function errorResult(text: string, details: BashDetails | undefined): ToolResult<BashDetails | undefined> {
  return { content: [{ type: "text", text }], details, isError: true };
}
