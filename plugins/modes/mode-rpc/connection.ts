/**
 * One RPC run over a pair of streams: commands in, responses and session events out, one JSON record
 * per line. Lines are handled as they arrive, as pi does, so `get_state`, `steer` or `abort` answer while
 * a prompt runs. The run ends when stdin ends (after the current agent run has finished) or when the
 * host asks it to stop (the current run is aborted first); either way it resolves with exit code 0.
 */
import type { AgentSession, SessionEvent } from "pi-host";
import type { ModeInput, ModeIO } from "pi-host";
import type { AgentHooks, ResourceSource, SlashCommand } from "pi-host";
import type { SessionStore } from "pi-host";
import type { Handle, ManyHandle } from "pi-host";
import { COMMANDS, type CommandContext } from "./commands.js";
import { WireStream } from "pi-host";
import { jsonLine, MAX_LINE_LENGTH, readLines } from "./jsonl.js";
import {
  commandProblem,
  failure,
  optionalChoice,
  optionalImages,
  requireString,
  success,
  type RpcCommand,
  type RpcResponse,
  type UiResponse,
} from "./protocol.js";
import type { RpcUserInterface } from "./rpc-ui.js";
import { runUserBash, type BashResult, type Spawn } from "./user-bash.js";

/** What a connection needs from the plugin. */
export interface ConnectionDeps {
  session: Handle<AgentSession>;
  store: Handle<SessionStore>;
  resources: ManyHandle<ResourceSource>;
  hooks: ManyHandle<AgentHooks>;
  commands: ManyHandle<SlashCommand>;
  ui: RpcUserInterface;
  spawn: Spawn;
  publish(event: SessionEvent): void;
}

/** A prompt waiting for its run to start; its response goes out just before the run's first event. */
interface PromptAcceptance {
  accept(): void;
}

/** One RPC session over stdin/stdout. */
export class RpcConnection {
  private readonly inFlight = new Set<Promise<unknown>>();
  private writable = true;
  private starting: Promise<void> = Promise.resolve();
  private acceptance: PromptAcceptance | undefined;
  /** Prompts accept one at a time, so a run's start is never credited to the wrong prompt. */
  private promptTurn: Promise<void> = Promise.resolve();
  private bashAbort: AbortController | undefined;
  /** Every record goes out through it, so merged deltas never overtake a response or another event. */
  private readonly wire: WireStream;

  constructor(
    private readonly input: ModeInput,
    private readonly io: ModeIO,
    private readonly deps: ConnectionDeps,
  ) {
    this.wire = new WireStream((record) => this.writeLine(record), { compatEvents: input.compatEvents === true });
  }

  /** Serves the streams until stdin ends or the host stops the mode; resolves with the exit code. */
  async run(): Promise<number> {
    const { io, deps } = this;
    if (this.input.messages.length > 0)
      io.stderr.write("pi: rpc mode reads prompts from stdin as commands; the command-line messages were ignored\n");
    // A client that has gone away can neither read nor answer: stop as if the host had asked.
    const onStdoutError = () => {
      this.writable = false;
      this.stopWork();
    };
    io.stdout.on("error", onStdoutError);
    deps.ui.attach((record) => this.write(record));
    // Open the session and pick the model now, as pi starts with them ready, so get_state is true from the first line.
    this.starting = Promise.resolve()
      .then(() => deps.session.api.availableModels())
      .then(
        () => undefined,
        (error: unknown) => this.warn(error),
      );

    await new Promise<void>((resolve) => {
      const stopReading = readLines(io.stdin, {
        onLine: (line) => this.track(this.handleLine(line)),
        onOverlong: (length) =>
          this.write(
            failure(
              undefined,
              "parse",
              `Failed to parse command: the line is ${length} characters long, over the limit of ${MAX_LINE_LENGTH}; send large content in smaller commands`,
            ),
          ),
        onEnd: () => resolve(),
      });
      void io.stopped.then(() => {
        stopReading();
        resolve();
        this.stopWork();
      });
    });

    // Nobody can answer a dialog once stdin is gone; the current run finishes (or was aborted above).
    deps.ui.detach();
    await this.drain();
    await Promise.resolve()
      .then(() => deps.session.api.idle())
      .catch((error: unknown) => this.warn(error));
    await this.drain();
    this.wire.flush();
    io.stdout.off("error", onStdoutError);
    return 0;
  }

  /** Aborts the current agent run and user shell command (the host stops the mode, or the client left). */
  private stopWork(): void {
    this.bashAbort?.abort();
    const aborted = Promise.resolve().then(() => this.deps.session.api.abort());
    this.track(aborted.catch((error: unknown) => this.warn(error)));
  }

  /** Writes a session event; a prompt waiting for its run to start is answered just before `agent_start`. */
  onSessionEvent(event: SessionEvent): void {
    if (event.type === "agent_start" && this.acceptance !== undefined) this.acceptance.accept();
    this.wire.event(event);
  }

  // ── input ───────────────────────────────────────────────────────────────────────────────────

  private async handleLine(line: string): Promise<void> {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.write(failure(undefined, "parse", `Failed to parse command: ${(error as Error).message}`));
      return;
    }
    if (isUiResponse(parsed)) {
      this.deps.ui.answer(parsed);
      return;
    }
    const problem = commandProblem(parsed);
    if (problem !== undefined) {
      const id = (parsed as { id?: unknown } | null)?.id;
      this.write(failure(typeof id === "string" ? id : undefined, "parse", `Failed to parse command: ${problem}`));
      return;
    }
    const command = parsed as RpcCommand;
    await this.starting;
    if (command.type === "prompt") return this.prompt(command);
    this.write(await this.execute(command));
  }

  private async execute(command: RpcCommand): Promise<RpcResponse> {
    const handler = Object.hasOwn(COMMANDS, command.type) ? COMMANDS[command.type] : undefined;
    if (handler === undefined) return failure(command.id, command.type, `Unknown command: ${command.type}`);
    try {
      return success(command.id, command.type, await handler(command, this.commandContext()));
    } catch (error) {
      return failure(command.id, command.type, messageOf(error));
    }
  }

  /**
   * `prompt` answers once the prompt is accepted, with pi 1.6.0's `data.disposition`: "started" when its
   * run starts (the response goes out just before `agent_start`), "queued" when it was queued as steering
   * or a follow-up, "handled" when a slash command or an input hook took it without a run; or with the
   * error that refused it. Failures after acceptance reach the client as events, not as a second response.
   */
  private async prompt(command: RpcCommand): Promise<void> {
    let message: string;
    let options: { images?: ReturnType<typeof optionalImages>; streamingBehavior?: "steer" | "followUp" };
    try {
      message = requireString(command, "message");
      options = {
        images: optionalImages(command),
        streamingBehavior: optionalChoice(command, "streamingBehavior", ["steer", "followUp"] as const),
      };
    } catch (error) {
      this.write(failure(command.id, "prompt", messageOf(error)));
      return;
    }
    const previous = this.promptTurn;
    let turnDone!: () => void;
    this.promptTurn = new Promise((resolve) => (turnDone = resolve));
    await previous;
    let answered = false;
    const answer = (response: RpcResponse) => {
      if (answered) return;
      answered = true;
      this.acceptance = undefined;
      this.write(response);
      turnDone();
    };
    try {
      // Whether this prompt starts a run is the session's decision, made after this call: answer at the
      // next agent_start, or when the prompt settles (queued as steering/follow-up, handled, or refused).
      this.acceptance = { accept: () => answer(success(command.id, "prompt", { disposition: "started" })) };
      const queues = options.streamingBehavior !== undefined && this.deps.session.api.state().isStreaming;
      const run = this.deps.session.api.prompt(message, options);
      this.track(
        run.then(
          () => answer(success(command.id, "prompt", { disposition: queues ? "queued" : "handled" })),
          (error: unknown) => (answered ? this.warn(error) : answer(failure(command.id, "prompt", messageOf(error)))),
        ),
      );
    } catch (error) {
      answer(failure(command.id, "prompt", messageOf(error)));
    }
  }

  // ── services for the command handlers ───────────────────────────────────────────────────────

  private commandContext(): CommandContext {
    const { session, store, resources, hooks, commands, publish } = this.deps;
    return {
      session,
      store,
      resources,
      hooks,
      commands,
      publish,
      cwd: () => (store.available ? store.api.current()?.cwd : undefined) ?? process.cwd(),
      bash: { run: (command) => this.runBash(command), abort: () => this.bashAbort?.abort() },
      track: (work) => this.track(work.catch((error: unknown) => this.warn(error))),
    };
  }

  private async runBash(command: string): Promise<BashResult> {
    if (this.bashAbort !== undefined)
      throw new Error("a bash command is already running; wait for it or send abort_bash");
    const controller = new AbortController();
    this.bashAbort = controller;
    try {
      const cwd = this.commandContext().cwd();
      return await runUserBash(command, cwd, this.deps.spawn, controller.signal);
    } finally {
      this.bashAbort = undefined;
    }
  }

  // ── output and bookkeeping ──────────────────────────────────────────────────────────────────

  /** Writes one record after any delta still being merged. */
  private write(record: unknown): void {
    this.wire.record(record);
  }

  /** Writes one record as one line; a client that has gone away gets nothing more. */
  private writeLine(record: unknown): void {
    if (!this.writable) return;
    try {
      this.io.stdout.write(jsonLine(record));
    } catch {
      this.writable = false;
    }
  }

  /** Notes work in progress, so the run ends only after it. */
  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    const forget = () => void this.inFlight.delete(work);
    work.then(forget, forget);
  }

  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Problems that have no response to go in (stdout carries only protocol records). */
  private warn(error: unknown): void {
    this.io.stderr.write(`pi: ${messageOf(error)}\n`);
  }
}

function isUiResponse(value: unknown): value is UiResponse {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { type?: unknown }).type === "extension_ui_response" &&
    typeof (value as { id?: unknown }).id === "string"
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
