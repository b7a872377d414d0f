/**
 * pi's `bash` tool: runs a command with `<shell> -c` in the session's folder, streams its merged
 * stdout/stderr as it arrives, keeps the tail (2,000 lines / 50 KB) for the model and the full log in a
 * temp file. A non-zero exit or a timeout is an error result carrying the output so far; an abort kills
 * the command's whole process group and rejects.
 */
import { existsSync } from "node:fs";
import {
  BashParameters,
  bashDescription,
  bashOutcomeResult,
  bashScript,
  renderBashOutput,
  resolveTimeoutMs,
  TailOutput,
  ThrottledUpdates,
  TOOL_LIMITS,
  type AgentTool,
  type BashDetails,
  type OutputLimits,
} from "pi-host";
import { runCommand, type CommandOutcome } from "./run-command.js";
import type { RunningCommands } from "./running-commands.js";
import { resolveShell } from "./shell.js";

export { BashParameters, type BashDetails } from "pi-host";

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
    description: bashDescription(limits),
    parameters: BashParameters,
    async execute(_toolCallId, params: { command: string; timeout?: number }, signal, onUpdate, ctx) {
      const { command, timeout } = params;
      if (typeof command !== "string") throw new Error("bash: `command` must be a string");
      const timeoutMs = resolveTimeoutMs(timeout);
      if (!existsSync(ctx.cwd))
        throw new Error(`Working directory does not exist: ${ctx.cwd}. Cannot execute bash commands.`);
      if (signal?.aborted) throw new Error("Command aborted");
      const shell = resolveShell(options.shellPath);
      const output = new TailOutput(limits);
      const updates = new ThrottledUpdates(() => {
        const shown = renderBashOutput(output.snapshot(), limits, "");
        onUpdate?.({ content: [{ type: "text", text: shown.text }], details: shown.details });
      }, options.updateIntervalMs);
      onUpdate?.({ content: [], details: undefined });

      let outcome: CommandOutcome;
      try {
        outcome = await runCommand({
          shell,
          script: bashScript(command, options.commandPrefix ?? (await options.commandPrefixFor?.(ctx.cwd))),
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

      return bashOutcomeResult(outcome, output.snapshot(), limits, timeout);
    },
  };
}
