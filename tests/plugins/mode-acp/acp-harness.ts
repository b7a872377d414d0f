/**
 * Runs the ACP mode in-process on the real agent session stack (see the agent-session harness) with
 * PassThrough streams as stdin/stdout, and puts a test client built on the ACP SDK's client app on the
 * other ends: it records every session update, answers permission requests with a scripted choice, and
 * keeps every raw stdout line for the "nothing but protocol on stdout" check. Nothing polls or sleeps:
 * every wait resolves when the update or request it waits for arrives.
 */
import { PassThrough, Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { ModeContract, type Mode, type ModeInput } from "../../../contracts/mode.js";
import type { Handle } from "../../../kernel/index.js";
import modeAcp from "../../../plugins/modes/mode-acp/index.js";
import toolWrite from "../../../plugins/tools/tool-write/index.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";

/** How the test client answers one permission request. */
export type PermissionAnswer =
  | acp.RequestPermissionResponse
  | ((request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>);

interface Waiter<T> {
  match: (item: T) => boolean;
  resolve: (item: T) => void;
}

/** A list that can be awaited for an item matching a predicate. */
class Recorded<T> {
  readonly items: T[] = [];
  private waiters: Waiter<T>[] = [];

  add(item: T): void {
    this.items.push(item);
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.match(item) ? w.resolve(item) : this.waiters.push(w);
  }

  /** The first item matching `match`, now or when it arrives. */
  next(match: (item: T) => boolean): Promise<T> {
    const found = this.items.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

/** The test client: an ACP SDK client app connected to the mode's streams. */
export class TestClient {
  readonly updates = new Recorded<acp.SessionNotification>();
  readonly permissionRequests = new Recorded<acp.RequestPermissionRequest>();
  /** Answers for the next permission requests, in order; without one, the request waits for `answerNext`. */
  readonly answers: PermissionAnswer[] = [];
  readonly connection: acp.ClientConnection;

  constructor(toAgent: Writable, fromAgent: Readable) {
    const app = acp
      .client({ name: "test-client" })
      .onNotification("session/update", ({ params }) => this.updates.add(params))
      .onRequest("session/request_permission", async ({ params }) => {
        this.permissionRequests.add(params);
        const answer = this.answers.shift();
        if (answer === undefined) throw new Error("the test gave no answer for this permission request");
        return typeof answer === "function" ? answer(params) : answer;
      });
    this.connection = app.connect(
      acp.ndJsonStream(
        Writable.toWeb(toAgent) as WritableStream<Uint8Array>,
        Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>,
      ),
    );
  }

  /** The agent side, for requests and notifications. */
  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** `initialize` with protocol version 1 and no client capabilities. */
  initialize(protocolVersion = 1): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", { protocolVersion, clientCapabilities: {} });
  }

  /** `session/new` in `cwd`; resolves with the session id. */
  async newSession(cwd: string): Promise<string> {
    return (await this.agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
  }

  /** `session/prompt` with one text block. */
  prompt(sessionId: string, text: string | acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.agent.request("session/prompt", {
      sessionId,
      prompt: typeof text === "string" ? [{ type: "text", text }] : text,
    });
  }

  /** The updates of one session, in arrival order. */
  updatesOf(sessionId: string): acp.SessionUpdate[] {
    return this.updates.items.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }
}

/** The answer that picks the option `optionId`. */
export function choose(optionId: string): acp.RequestPermissionResponse {
  return { outcome: { outcome: "selected", optionId } };
}

/** A booted stack with the ACP mode running on PassThrough streams and a test client attached. */
export interface AcpHarness extends SessionHarness {
  client: TestClient;
  mode: Handle<Mode>;
  /** The run's exit code, once stdin ends or `stop()` is called. */
  exit: Promise<number>;
  stderr: () => string;
  /** Every line the mode wrote to stdout, raw. */
  stdoutLines: string[];
  /** Ends the mode's stdin, as an editor closing the pipe. */
  endInput(): void;
  /** Resolves `io.stopped`, as the host does on SIGINT/SIGTERM. */
  stop(): void;
}

/** Boots the agent-session stack with the write tool and the ACP mode (plus `extra`), and starts `run()`. */
export async function startAcp(
  options: Parameters<typeof bootSession>[0] & { input?: Partial<ModeInput>; acpConfig?: Record<string, unknown> } = {},
): Promise<AcpHarness> {
  const harness = await bootSession({
    ...options,
    extra: [toolWrite, ...(options.extra ?? [])],
    entries: [
      ...(options.entries ?? []),
      { id: "mode-acp", source: { kind: "inline", label: "mode-acp", definition: modeAcp }, config: options.acpConfig },
    ],
  });
  const mode = harness.kernel
    .useAll(ModeContract)
    .list()
    .find((h) => h.peek()?.name === "acp");
  if (mode === undefined) throw new Error("the acp mode is not provided");
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = "";
  stderr.setEncoding("utf8");
  stderr.on("data", (chunk: string) => (errors += chunk));
  const stdoutLines: string[] = [];
  let partial = "";
  const forClient = new PassThrough();
  stdout.on("data", (chunk: Buffer) => {
    partial += chunk.toString("utf8");
    for (let nl = partial.indexOf("\n"); nl !== -1; nl = partial.indexOf("\n")) {
      stdoutLines.push(partial.slice(0, nl));
      partial = partial.slice(nl + 1);
    }
    forClient.write(chunk);
  });
  stdout.on("end", () => forClient.end());
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const client = new TestClient(stdin, forClient);
  const exit = mode.call("run", { messages: [], images: [], ...options.input }, { stdin, stdout, stderr, stopped });
  return { ...harness, client, mode, exit, stderr: () => errors, stdoutLines, endInput: () => stdin.end(), stop };
}
