/**
 * Shell subcommands contributed by plugins (`pi <word> ...`, e.g. `pi mcp login <server>`): work done from
 * a shell without a session, by a plugin that owns the data (its config files, its stored sign-ins). The
 * host finds the provider by the word, so it never names the plugin.
 */
import { defineContract } from "../kernel/index.js";

/** Where a subcommand runs and how it talks to the user. */
export interface CliCommandIo {
  cwd: string;
  agentDir: string;
  /** Writes to stdout as is (add the newline). */
  stdout(text: string): void;
  /** Writes to stderr as is (add the newline). */
  stderr(text: string): void;
  /** Aborted when the user interrupts (Ctrl+C). */
  signal: AbortSignal;
}

/** One subcommand word and what it does. */
export interface CliCommand {
  /** The word after `pi`. */
  readonly name: string;
  /** One line for help listings. */
  readonly description: string;
  /** Runs with the arguments after the word; resolves with the exit code (0 ok, 1 failed, 2 bad usage). */
  run(args: string[], io: CliCommandIo): Promise<number>;
}

/** Providers register one slot per word (`key` = name). */
export const CliCommandContract = defineContract<CliCommand>({
  id: "cli/command",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { name: "string", description: "string", run: "function" },
  methods: { run: "async" },
});
