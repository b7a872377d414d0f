/**
 * Modes: the ways to run the agent (interactive TUI, print, JSON, RPC, ACP). The host picks one by name
 * and hands it the process's streams and the user's input; the mode drives `agent/session` through its
 * contract and returns the exit code.
 */
import { defineContract } from "../kernel/index.js";
import type { ImageContent } from "./ai/index.js";

/** What the user gave on the command line and stdin, already parsed by the host. */
export interface ModeInput {
  /** Prompts from the command line, in order (the first includes piped stdin and @file texts). */
  messages: string[];
  /** Images attached with @file arguments. */
  images: ImageContent[];
  /** `--compat-events` (`=0.73`): pi 0.73's event shapes (whole partial messages) instead of pi 1.6.0's. */
  compatEvents?: boolean;
}

/** The process's streams, so tests and embedders can run a mode on their own. */
export interface ModeIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Resolves when the host wants the mode to stop (SIGINT, SIGTERM). */
  stopped: Promise<void>;
}

/** A way to run. */
export interface Mode {
  /** "print", "json", "rpc", "interactive", "acp". */
  readonly name: string;
  run(input: ModeInput, io: ModeIO): Promise<number>;
}

/** Several modes may be installed; the host runs one. A mode swaps only between frames or commands. */
export const ModeContract = defineContract<Mode>({
  id: "mode",
  version: "1.0.0",
  kind: "many",
  gate: "boundary",
  deadlineMs: 1_000,
  shape: { name: "string", run: "function" },
  methods: { run: "async" },
});

/**
 * Bus event a plugin emits to ask the host to end the run, as pi's `ctx.shutdown()` does (payload: none).
 * Plugins cannot reach the process; a host that honours it stops the running mode once the session is
 * idle (the interactive and RPC modes), and ignores it in print and JSON mode, which end by themselves
 * after their prompts, as pi's print mode does.
 */
export const HOST_SHUTDOWN_REQUEST_EVENT = "host:shutdown-request";
