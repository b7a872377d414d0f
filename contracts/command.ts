/**
 * Slash commands (`/name args`) contributed by plugins and extensions. The session runs a command when a
 * prompt names it, so every mode — TUI, print, RPC — gets the same commands.
 */
import { defineContract } from "../kernel/index.js";

/**
 * Where a command comes from, in pi 1.6's `sourceInfo` shape (RPC `get_commands`): e.g. pi's built-in
 * extensions say `{ path: "builtin:llama.cpp", source: "builtin", scope: "temporary", origin: "top-level" }`.
 */
export interface CommandSourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "top-level" | "package";
  baseDir?: string;
}

/** One slash command. */
export interface SlashCommand {
  /** Without the slash. */
  readonly name: string;
  readonly description: string;
  /**
   * 1.1.0: where pi would say the command comes from, for RPC `get_commands`; without it the command is
   * listed as its plugin's (`plugin:<id>`).
   */
  readonly sourceInfo?: CommandSourceInfo;
  /** Runs the command with the text after its name. */
  run(args: string): Promise<void>;
}

/** Providers register one slot per command (`key` = name). */
export const CommandContract = defineContract<SlashCommand>({
  id: "command",
  version: "1.1.0",
  kind: "many",
  gate: "overlap",
  shape: { name: "string", description: "string", run: "function" },
  methods: { run: "async" },
});
