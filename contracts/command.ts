/**
 * Slash commands (`/name args`) contributed by plugins and extensions. The session runs a command when a
 * prompt names it, so every mode — TUI, print, RPC — gets the same commands.
 */
import { defineContract } from "../kernel/index.js";

/** One slash command. */
export interface SlashCommand {
  /** Without the slash. */
  readonly name: string;
  readonly description: string;
  /** Runs the command with the text after its name. */
  run(args: string): Promise<void>;
}

/** Providers register one slot per command (`key` = name). */
export const CommandContract = defineContract<SlashCommand>({
  id: "command",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { name: "string", description: "string", run: "function" },
  methods: { run: "async" },
});
