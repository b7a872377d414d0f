/**
 * One ACP run over a pair of streams: the official SDK's agent app speaks JSON-RPC on stdin/stdout and
 * this class answers it by driving `agent/session`. Work that touches the open conversation (creating,
 * loading, prompting) runs one request at a time in arrival order, because the agent session holds one
 * conversation; `session/cancel` acts at once. The run ends when the client closes stdin or the host
 * stops the mode: the current prompt is cancelled, queued ones answer "cancelled", and the exit code is 0.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type {
  AgentConnection,
  InitializeRequest,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  LoadSessionRequest,
  LoadSessionResponse,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  RequestPermissionOutcome,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { BeforeToolCallResult, ToolCallInfo } from "pi-host";
import type { AgentSession, SessionEvent } from "pi-host";
import type { ModeInput, ModeIO } from "pi-host";
import type { SessionStore } from "pi-host";
import type { ToolResult } from "pi-host";
import type { Handle } from "pi-host";
import { AnswerTracker } from "./answered.js";
import { needsAsking, PERMISSION_OPTIONS, rememberedRejection, verdictOf } from "./permissions.js";
import { promptInput, UnsupportedContentError, type PromptInput } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";
import { locateSession, newAcpSession, type AcpSession } from "./sessions.js";
import { turnEnd } from "./stop-reason.js";
import { readableFrom, writableTo } from "./streams.js";
import { TurnUpdates } from "./turn-updates.js";

/** The SDK module, loaded when a run starts. */
type AcpSdk = typeof import("@agentclientprotocol/sdk");

/** What a connection needs from the plugin. */
export interface AcpDeps {
  session: Handle<AgentSession>;
  store: Handle<SessionStore>;
  /** Tools whose calls ask the client for permission ("*": every tool). */
  askPermission: readonly string[];
  /** Name and version for `initialize`. */
  agentInfo: { name: string; title: string; version: string };
}

/** The prompt being answered: its session, its update translator, and whether the client cancelled it. */
interface Turn {
  sessionId: string;
  entry: AcpSession;
  updates: TurnUpdates;
  cancelled: boolean;
}

/** One ACP connection over stdin/stdout. */
export class AcpConnection {
  private sdk!: AcpSdk;
  private connection: AgentConnection | undefined;
  private readonly sessions = new Map<string, AcpSession>();
  /** The ACP session whose conversation the agent session has open. */
  private openSessionId: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private turn: Turn | undefined;
  /** Set once the run is ending: work that arrives now is refused instead of started. */
  private closing = false;
  private warnedMcp = false;
  private warnedWrite = false;

  constructor(
    private readonly input: ModeInput,
    private readonly io: ModeIO,
    private readonly deps: AcpDeps,
  ) {}

  /** Serves the client until it closes stdin or the host stops the mode; resolves with the exit code. */
  async run(): Promise<number> {
    if (this.input.messages.length > 0)
      this.warn("acp mode takes prompts from the client; the command-line messages were ignored");
    this.sdk = await import("@agentclientprotocol/sdk");
    const answers = new AnswerTracker();
    const stream = answers.wrap(this.sdk.ndJsonStream(writableTo(this.io.stdout), readableFrom(this.io.stdin)));
    const app = this.sdk
      .agent({ name: "pi" })
      .onRequest("initialize", ({ params }) => this.initialize(params))
      .onRequest("authenticate", () => ({}))
      .onRequest("session/new", ({ params }) => this.newSession(params))
      .onRequest("session/load", ({ params }) => this.loadSession(params))
      .onRequest("session/list", ({ params }) => this.listSessions(params))
      .onRequest("session/prompt", ({ params, signal }) => this.prompt(params, signal))
      .onNotification("session/cancel", ({ params }) => this.cancel(params.sessionId));
    const connection = app.connect(stream);
    this.connection = connection;

    await Promise.race([connection.closed, this.io.stopped]);
    // Queued prompts answer "cancelled"; the running one is aborted and answers once its run is over.
    this.closing = true;
    for (const sessionId of this.sessions.keys()) this.cancel(sessionId);
    await this.queue.catch(() => undefined);
    await Promise.resolve()
      .then(() => this.deps.session.api.idle())
      .catch((error: unknown) => this.warn(messageOf(error)));
    // Closing drops unwritten messages: let the last answers reach the client first (unless it has gone).
    await Promise.race([answers.answered(), connection.closed]);
    connection.close();
    return 0;
  }

  /** Routes a session event to the prompt being answered. */
  onSessionEvent(event: SessionEvent): void {
    if (event.type === "notice" && event.level !== "info") this.warn(`${event.level}: ${event.message}`);
    const turn = this.turn;
    if (turn === undefined) return;
    // A cancel that came before the run could be aborted: abort it as soon as it starts.
    if (turn.cancelled && event.type === "agent_start") this.abortRun();
    turn.updates.onEvent(event);
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────

  private initialize(_params: InitializeRequest): InitializeResponse {
    // pi-host speaks ACP v1 only; a client asking for another version gets ours and decides.
    return {
      protocolVersion: this.sdk.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { list: {} },
      },
      authMethods: [],
      agentInfo: this.deps.agentInfo,
    };
  }

  private async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    this.checkCwd(params.cwd);
    this.noteMcpServers(params.mcpServers.length);
    return this.serialized(async () => {
      const info = await this.deps.session.api.newSession();
      const state = this.deps.session.api.state();
      const sessionId = info?.id ?? state.sessionId;
      if (sessionId === undefined)
        throw this.internal("the session store opened no session; enable a session store plugin");
      this.sessions.set(sessionId, newAcpSession(info?.path));
      this.openSessionId = sessionId;
      return { sessionId };
    });
  }

  private async loadSession(params: LoadSessionRequest): Promise<LoadSessionResponse> {
    const cwd = this.checkCwd(params.cwd);
    this.noteMcpServers(params.mcpServers.length);
    return this.serialized(async () => {
      const known = this.sessions.get(params.sessionId);
      if (known === undefined || this.openSessionId !== params.sessionId) {
        const path = known?.path ?? (await locateSession(params.sessionId, cwd, this.deps.store));
        if (path === undefined) throw this.sessionNotFound(params.sessionId, "no stored session has this id or path");
        await this.deps.session.api.switchSession(path);
        this.sessions.set(params.sessionId, known ?? newAcpSession(path));
        this.openSessionId = params.sessionId;
      }
      for (const update of replayUpdates(this.deps.session.api.messages(), cwd)) this.send(params.sessionId, update);
      return {};
    });
  }

  /**
   * The stored sessions of this pi's folder, newest first, in one page. Sessions of other folders are
   * left out: they could not be loaded here (see checkCwd).
   */
  private async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    const ours = this.deps.session.api.cwd();
    const { store } = this.deps;
    if (!store.available || (typeof params.cwd === "string" && canonical(params.cwd) !== canonical(ours)))
      return { sessions: [] };
    const listed = await store.api.list({ cwd: ours });
    return {
      sessions: listed.map((s) => ({
        sessionId: s.id,
        cwd: ours,
        title: s.name ?? oneLine(s.firstMessage),
        updatedAt: s.modified,
      })),
    };
  }

  private async prompt(params: PromptRequest, signal: AbortSignal): Promise<PromptResponse> {
    const { sessionId } = params;
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) throw this.sessionNotFound(sessionId, "create it with session/new or session/load first");
    let input: PromptInput;
    try {
      input = promptInput(params.prompt);
    } catch (error) {
      if (error instanceof UnsupportedContentError) throw this.sdk.RequestError.invalidParams(undefined, error.message);
      throw error;
    }
    const ticket = entry.cancels;
    // The client may also cancel the request itself ($/cancel_request) or go away.
    signal.addEventListener("abort", () => this.cancel(sessionId), { once: true });
    return this.serialized(async () => {
      if (entry.cancels !== ticket) return { stopReason: "cancelled" };
      await this.activate(sessionId, entry);
      const cwd = this.deps.session.api.cwd();
      const turn: Turn = {
        sessionId,
        entry,
        updates: new TurnUpdates(cwd, (update) => this.send(sessionId, update)),
        cancelled: false,
      };
      this.turn = turn;
      let failure: unknown;
      try {
        await this.deps.session.api.prompt(input.text, input.images.length > 0 ? { images: input.images } : {});
      } catch (error) {
        failure = error;
      } finally {
        this.turn = undefined;
        turn.updates.finish();
      }
      if (failure !== undefined && !turn.cancelled) throw this.internal(messageOf(failure));
      const end = turnEnd(turn.updates.lastAssistant, turn.cancelled);
      if ("error" in end) throw this.internal(end.error);
      return { stopReason: end.stopReason };
    });
  }

  /** `session/cancel`: queued prompts of the session will answer "cancelled"; its running prompt is aborted. */
  private cancel(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    entry.cancels++;
    const turn = this.turn;
    if (turn === undefined || turn.sessionId !== sessionId || turn.cancelled) return;
    turn.cancelled = true;
    this.abortRun();
  }

  // ── permissions ─────────────────────────────────────────────────────────────────────────────

  /**
   * The `beforeToolCall` hook while a prompt runs: calls of tools on the ask list wait for the client's
   * answer through `session/request_permission`; a rejection blocks the call with a reason the model reads.
   */
  async beforeToolCall(call: ToolCallInfo, signal?: AbortSignal): Promise<BeforeToolCallResult | undefined> {
    const turn = this.turn;
    if (turn === undefined || this.connection === undefined) return undefined;
    const { id, name } = call.toolCall;
    turn.updates.adopt(id, name, call.args);
    const verdict = await this.permission(turn, call, signal);
    if (verdict?.block !== true) turn.updates.started(id, name, call.args);
    // A top-level call's end comes as a tool_execution_end event; a nested call's block ends it here.
    else if (turn.updates.isNested(id))
      turn.updates.end(id, { content: [{ type: "text", text: verdict.reason ?? "blocked" }] }, true);
    return verdict;
  }

  /** The `afterToolCall` hook: ends a nested call, which no tool_execution_end event will. */
  async afterToolCall(call: ToolCallInfo & { result: ToolResult; isError: boolean }): Promise<undefined> {
    const turn = this.turn;
    if (turn?.updates.isNested(call.toolCall.id)) turn.updates.end(call.toolCall.id, call.result, call.isError);
    return undefined;
  }

  /** Whether the call may run: remembered answers first, then the client, for tools on the ask list. */
  private async permission(
    turn: Turn,
    call: ToolCallInfo,
    signal: AbortSignal | undefined,
  ): Promise<BeforeToolCallResult | undefined> {
    const { id, name } = call.toolCall;
    const memory = turn.entry.permissions;
    const rejected = rememberedRejection(name, memory);
    if (rejected !== undefined) return rejected;
    if (!needsAsking(name, this.deps.askPermission, memory)) return undefined;
    const view = turn.updates.view(id, name, call.args);
    let outcome: RequestPermissionOutcome;
    try {
      const response = await this.connection!.client.request(
        "session/request_permission",
        {
          sessionId: turn.sessionId,
          toolCall: {
            toolCallId: id,
            title: view.title,
            kind: view.kind,
            status: "pending",
            rawInput: call.args,
            locations: view.locations,
            content: view.diffs,
          },
          options: PERMISSION_OPTIONS,
        },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      outcome = response.outcome;
    } catch (error) {
      if (signal?.aborted || turn.cancelled)
        return { block: true, reason: `The ${name} call was not run: the prompt was cancelled.` };
      return {
        block: true,
        reason: `The ${name} call was not run: asking the user for permission failed (${messageOf(error)}).`,
      };
    }
    return verdictOf(name, outcome, memory);
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────────────────

  /** Opens the session's conversation in the agent session, when another one is open. */
  private async activate(sessionId: string, entry: AcpSession): Promise<void> {
    if (this.openSessionId === sessionId) return;
    if (entry.path === undefined)
      throw this.internal(
        `session ${sessionId} was kept in memory only and another session was opened since; it cannot be reopened`,
      );
    await this.deps.session.api.switchSession(entry.path);
    this.openSessionId = sessionId;
  }

  /**
   * The agent session works in one folder, fixed when pi started (its cwd or the agent-session `cwd`
   * setting); no plugin can move it. A session for another folder is refused rather than run in the wrong one.
   */
  private checkCwd(requested: string): string {
    const ours = this.deps.session.api.cwd();
    if (!isAbsolute(requested))
      throw this.sdk.RequestError.invalidParams(undefined, `cwd must be an absolute path, not "${requested}"`);
    if (canonical(requested) !== canonical(ours)) {
      throw this.sdk.RequestError.invalidParams(
        undefined,
        `this pi works in ${ours}; start "pi --mode acp" in ${requested} to work there`,
      );
    }
    return ours;
  }

  private noteMcpServers(count: number): void {
    if (count === 0 || this.warnedMcp) return;
    this.warnedMcp = true;
    this.warn(
      `the client's ${count} MCP server(s) were not connected; configure MCP servers in pi's settings ("mcpServers") instead`,
    );
  }

  /** Runs `work` after every earlier piece of serialized work has settled; refused once the run is ending. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(this.internal("pi is shutting down; no new work is accepted"));
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private abortRun(): void {
    Promise.resolve()
      .then(() => this.deps.session.api.abort())
      .catch((error: unknown) => this.warn(messageOf(error)));
  }

  /** Sends one session update; a client that went away gets nothing more. */
  private send(sessionId: string, update: SessionUpdate): void {
    const connection = this.connection;
    if (connection === undefined || connection.signal.aborted) return;
    connection.client.notify("session/update", { sessionId, update }).catch((error: unknown) => {
      if (this.warnedWrite || connection.signal.aborted) return;
      this.warnedWrite = true;
      this.warn(`could not send a session update: ${messageOf(error)}`);
    });
  }

  private sessionNotFound(sessionId: string, hint: string): Error {
    return new this.sdk.RequestError(-32002, `Resource not found: session ${sessionId}; ${hint}`, { sessionId });
  }

  private internal(message: string): Error {
    return new this.sdk.RequestError(-32603, message);
  }

  /** Problems with no response to go in; stdout carries only protocol messages. */
  private warn(message: string): void {
    this.io.stderr.write(`pi: ${message}\n`);
  }
}

/** A folder as the file system names it (symlinks resolved), to compare two spellings of one folder. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** A first message as a thread title: one line, at most 80 characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
