/**
 * `pi --mode acp` as an editor sees it: the built CLI spawned with pipes and a test client built on the
 * ACP SDK's client app over the child's stdin/stdout. The scripted faux provider answers, so nothing leaves
 * the machine. Also acceptance 4 of issue 9 for ACP: the plugin can be left out of the distribution, and
 * neither a fresh import of the built plugin nor a run in another mode loads the ACP SDK.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { agentHome, type AgentHome } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";
import { PI_BIN } from "./run-pi.js";

const PLUGIN = fileURLToPath(new URL("../../dist/plugins/mode-acp/index.js", import.meta.url));
const SDK_PATH = "/node_modules/@agentclientprotocol/sdk/";

/** A spawned `pi --mode acp` with an SDK client on its pipes. */
class AcpProcess {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissions: acp.RequestPermissionRequest[] = [];
  readonly connection: acp.ClientConnection;
  readonly exited: Promise<number | null>;
  stderr = "";
  private waiters: Array<{ match: (n: acp.SessionNotification) => boolean; resolve: () => void }> = [];

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    answer: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse,
  ) {
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
    const app = acp
      .client({ name: "e2e-client" })
      .onNotification("session/update", ({ params }) => {
        this.updates.push(params);
        const waiting = this.waiters;
        this.waiters = [];
        for (const w of waiting) w.match(params) ? w.resolve() : this.waiters.push(w);
      })
      .onRequest("session/request_permission", async ({ params }) => {
        this.permissions.push(params);
        return answer(params);
      });
    this.connection = app.connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  }

  /** Resolves when an update matching `match` has arrived. */
  update(match: (n: acp.SessionNotification) => boolean): Promise<void> {
    if (this.updates.some(match)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  kinds(sessionId: string): string[] {
    return this.updates
      .filter((n) => n.sessionId === sessionId)
      .map((n) =>
        n.update.sessionUpdate === "tool_call_update"
          ? `tool_call_update:${n.update.status ?? "-"}`
          : n.update.sessionUpdate,
      );
  }
}

describe("pi --mode acp (built CLI)", () => {
  let user: AgentHome;
  let running: AcpProcess | undefined;

  afterEach(async () => {
    if (running !== undefined && running.child.exitCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    running = undefined;
  });

  function start(
    answer: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse,
    extra: string[] = [],
  ): AcpProcess {
    const child = spawn(process.execPath, [PI_BIN, "--mode", "acp", "--model", "faux/faux-1", ...extra], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    running = new AcpProcess(child, answer);
    return running;
  }

  it("initializes, creates a session, streams a prompt with a write call the client allows, and exits 0 when stdin closes", async () => {
    user = agentHome();
    user.scriptFaux([
      {
        content: [
          { type: "thinking", thinking: "A file is wanted." },
          { type: "text", text: "Writing it." },
          { type: "toolCall", id: "w1", name: "write", arguments: { path: "hello.txt", content: "hi from acp\n" } },
        ],
      },
      { content: "Done." },
    ]);
    const pi = start(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    const agent = pi.connection.agent;

    const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    expect(init).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } },
    });
    const { sessionId } = await agent.request("session/new", { cwd: user.project, mcpServers: [] });
    expect(
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write hello.txt" }] }),
    ).toEqual({ stopReason: "end_turn" });

    const kinds = pi.kinds(sessionId).filter((k, i, all) => !(k.endsWith("_chunk") && all[i - 1] === k));
    expect(kinds).toEqual([
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update:-",
      "tool_call_update:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk",
    ]);
    expect(pi.permissions.map((p) => p.toolCall.title)).toEqual([`write ${join(user.project, "hello.txt")}`]);
    expect(readFileSync(join(user.project, "hello.txt"), "utf8")).toBe("hi from acp\n");

    pi.child.stdin.end();
    expect(await pi.exited).toBe(0);
    expect(pi.stderr).toBe("");
  });

  it("a rejected call is blocked and the model is told; cancel during a paced stream answers cancelled", async () => {
    user = agentHome();
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "b1", name: "bash", arguments: { command: "rm -rf build" } }] },
      { content: "Understood, I will not." },
      { content: "a long answer ".repeat(300) },
    ]);
    pace(user, 40);
    const pi = start(() => ({ outcome: { outcome: "selected", optionId: "reject_once" } }), ["--no-session"]);
    const agent = pi.connection.agent;
    await agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await agent.request("session/new", { cwd: user.project, mcpServers: [] });

    expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "clean up" }] })).toEqual({
      stopReason: "end_turn",
    });
    expect(pi.permissions.map((p) => p.toolCall)).toMatchObject([
      { toolCallId: "b1", kind: "execute", title: "bash: rm -rf build" },
    ]);
    const failed = pi.updates.find(
      (n) => n.update.sessionUpdate === "tool_call_update" && n.update.status === "failed",
    )!.update;
    expect(failed).toMatchObject({
      toolCallId: "b1",
      content: [
        { type: "content", content: { type: "text", text: "The user rejected this bash call, so it was not run." } },
      ],
    });

    const before = pi.updates.length;
    const prompt = agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
    await pi.update((n) => pi.updates.indexOf(n) >= before && n.update.sessionUpdate === "agent_message_chunk");
    await agent.notify("session/cancel", { sessionId });
    expect(await prompt).toEqual({ stopReason: "cancelled" });

    pi.child.stdin.end();
    expect(await pi.exited).toBe(0);
    expect(pi.stderr).toBe("");
  });

  it("SIGTERM with stdin still open: the running prompt answers cancelled and pi exits 0", async () => {
    user = agentHome();
    user.scriptFaux([{ content: "a long answer ".repeat(300) }]);
    pace(user, 40);
    const pi = start(() => ({ outcome: { outcome: "cancelled" } }), ["--no-session"]);
    const agent = pi.connection.agent;
    await agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await agent.request("session/new", { cwd: user.project, mcpServers: [] });
    const prompt = agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
    await pi.update((n) => n.update.sessionUpdate === "agent_message_chunk");
    pi.child.kill("SIGTERM");
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    expect(await pi.exited).toBe(0);
    expect(pi.stderr).toBe("");
  });

  it("a distribution without mode-acp runs other modes, and --mode acp then says no plugin provides that mode", async () => {
    user = agentHome();
    user.scriptFaux([{ content: "printed" }]);
    const printed = await user.pi(["--no-plugin", "mode-acp", "-p", "hi", "--model", "faux/faux-1"]);
    expect(printed).toMatchObject({ code: 0, stdout: "printed\n", stderr: "" });
    const refused = await user.pi(["--no-plugin", "mode-acp", "--mode", "acp", "--model", "faux/faux-1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('pi: no plugin provides the "acp" mode; enable one in plugins.json\n');
    expect(refused.stdout).toBe("");
  });

  it("cold start: neither importing the built plugin nor a print run with it in the distribution loads the ACP SDK; an ACP run does", async () => {
    expect(existsSync(PLUGIN)).toBe(true);
    user = agentHome();
    user.scriptFaux([{ content: "printed" }]);

    const imported = await importRecordingModules(PLUGIN, user.home);
    expect(imported.some((url) => url.endsWith("/dist/plugins/mode-acp/index.js"))).toBe(true);
    expect(imported.filter((url) => url.includes(SDK_PATH))).toEqual([]);

    const print = await runPiRecordingModules(["-p", "hi", "--model", "faux/faux-1"], user.project, user.env);
    expect(print.run).toMatchObject({ code: 0, stdout: "printed\n" });
    expect(print.modules.some((url) => url.endsWith("/dist/plugins/mode-acp/index.js"))).toBe(true);
    expect(print.modules.filter((url) => url.includes(SDK_PATH))).toEqual([]);

    // The same recording sees the SDK when the mode runs (stdin is closed at once, so the run ends at once).
    const acpRun = await runPiRecordingModules(["--mode", "acp", "--model", "faux/faux-1"], user.project, user.env);
    expect(acpRun.run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(acpRun.modules.some((url) => url.includes(SDK_PATH))).toBe(true);
  });
});

/** Paces the scripted stream (tokens per second), so a cancel lands mid-answer. */
function pace(user: AgentHome, tokensPerSecond: number): void {
  const file = join(user.agent, "plugins.json");
  const plugins = JSON.parse(readFileSync(file, "utf8")) as {
    plugins: Array<{ id: string; config?: Record<string, unknown> }>;
  };
  plugins.plugins.find((p) => p.id === "provider-faux")!.config!.tokensPerSecond = tokensPerSecond;
  writeFileSync(file, JSON.stringify(plugins));
}

/** A module resolve hook that appends every resolved URL to a log file (runs on the loader thread). */
const RECORDING_HOOK = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`;

/** Imports `file` in a fresh Node process with the recording hook; returns every module URL it resolved. */
async function importRecordingModules(file: string, dir: string): Promise<string[]> {
  const hook = join(dir, "import-hook.mjs");
  const register = join(dir, "import-register.mjs");
  const log = join(dir, "import-modules.log");
  writeFileSync(hook, RECORDING_HOOK);
  writeFileSync(log, "");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        pathToFileURL(register).href,
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(file).href)});`,
      ],
      { stdio: "inherit" },
    );
    child.on("error", reject);
    child.on("close", resolve);
  });
  expect(code).toBe(0);
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "");
}
