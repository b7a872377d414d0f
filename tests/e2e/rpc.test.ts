/**
 * `pi --mode rpc` as a client sees it: the built CLI spawned with pipes, commands written to its stdin
 * as JSON lines, responses and events read from its stdout split on LF only. The scripted faux provider
 * answers, so nothing leaves the machine. Skipped (and says so) while the built CLI has no `--mode`.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PI_BIN } from "./run-pi.js";

/** Whether the built CLI knows `--mode` (the mode selection lands in hosts/cli.ts separately). */
const cliSupportsRpc =
  existsSync(PI_BIN) && spawnSync(process.execPath, [PI_BIN, "--help"], { encoding: "utf8" }).stdout.includes("--mode");

type Rec = Record<string, any>;

/** A spawned `pi --mode rpc` with an LF-only line reader and waits on records. */
class RpcProcess {
  readonly records: Rec[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  private buffer = "";
  private waiters: Array<{ match: (r: Rec) => boolean; resolve: (r: Rec) => void }> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf("\n"); nl !== -1; nl = this.buffer.indexOf("\n")) {
        const record = JSON.parse(this.buffer.slice(0, nl)) as Rec;
        this.buffer = this.buffer.slice(nl + 1);
        this.records.push(record);
        const waiting = this.waiters;
        this.waiters = [];
        for (const w of waiting) w.match(record) ? w.resolve(record) : this.waiters.push(w);
      }
    });
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  }

  send(command: Rec | string): void {
    this.child.stdin.write(`${typeof command === "string" ? command : JSON.stringify(command)}\n`);
  }

  next(match: (r: Rec) => boolean): Promise<Rec> {
    const found = this.records.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  response(id: string): Promise<Rec> {
    return this.next((r) => r.type === "response" && r.id === id);
  }
}

describe("pi --mode rpc (built CLI)", () => {
  let home: string;
  let cwd: string;
  let env: Record<string, string>;
  let distribution: string;
  let running: RpcProcess | undefined;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-rpc-e2e-"));
    cwd = join(home, "project");
    const agent = join(home, "agent");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(agent, { recursive: true });
    env = { PI_CODING_AGENT_DIR: agent, HOME: home };
    // The scripted model and the plugins this run needs, as a distribution overlay.
    distribution = join(home, "rpc.plugins.json");
    writeFileSync(
      distribution,
      JSON.stringify({
        plugins: [
          {
            id: "models",
            use: "models",
            config: {
              providers: {
                faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] },
              },
            },
          },
          {
            id: "provider-faux",
            use: "provider-faux",
            config: { responses: [{ content: "first answer" }, { content: "second\u2028answer" }] },
          },
          { id: "llm", use: "llm" },
          { id: "session-jsonl", use: "session-jsonl" },
          { id: "compaction", use: "compaction" },
          { id: "agent-loop", use: "agent-loop" },
          { id: "agent-session", use: "agent-session" },
          { id: "mode-rpc", use: "mode-rpc" },
        ],
      }),
    );
  });

  afterEach(async () => {
    if (running !== undefined && running.child.exitCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    running = undefined;
  });

  function start(extra: string[] = []): RpcProcess {
    const child = spawn(
      process.execPath,
      [PI_BIN, "--mode", "rpc", "--distribution", distribution, "--model", "faux/faux-1", ...extra],
      {
        cwd,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    running = new RpcProcess(child);
    return running;
  }

  it.skipIf(!cliSupportsRpc)(
    "answers commands, streams a prompt's events, keeps U+2028 inside a record, survives a malformed line, exits 0 when stdin ends",
    async () => {
      const pi = start(["--no-session"]);
      pi.send({ id: "s1", type: "get_state" });
      expect(await pi.response("s1")).toMatchObject({
        type: "response",
        command: "get_state",
        success: true,
        data: { model: { provider: "faux", id: "faux-1" }, isStreaming: false },
      });

      pi.send("{this is not json");
      expect(await pi.next((r) => r.type === "response" && r.command === "parse")).toMatchObject({
        success: false,
        error: expect.stringMatching(/^Failed to parse command: /),
      });

      pi.send({ id: "p1", type: "prompt", message: "hello" });
      expect(await pi.response("p1")).toEqual({
        id: "p1",
        type: "response",
        command: "prompt",
        success: true,
        data: { disposition: "started" },
      });
      await pi.next((r) => r.type === "agent_settled");

      pi.send({ id: "p2", type: "prompt", message: "line\u2028separator" });
      await pi.response("p2");
      const secondEnd = await pi.next(
        (r) =>
          r.type === "message_end" && r.message.role === "assistant" && r.message.content[0].text !== "first answer",
      );
      expect(secondEnd.message.content).toEqual([{ type: "text", text: "second\u2028answer" }]);

      pi.send({ id: "m1", type: "get_messages" });
      const messages = (await pi.response("m1")).data.messages;
      expect(messages.filter((m: Rec) => m.role === "user").map((m: Rec) => m.content)).toEqual([
        "hello",
        "line\u2028separator",
      ]);

      pi.send({ id: "u1", type: "no_such_command" });
      expect(await pi.response("u1")).toMatchObject({ success: false, error: "Unknown command: no_such_command" });

      pi.child.stdin.end();
      expect(await pi.exited).toBe(0);
      expect(pi.stderr).toBe("");
      const types = pi.records.map((r) => r.type);
      expect(types.indexOf("agent_start")).toBeGreaterThan(types.indexOf("response"));
      expect(types).toContain("message_update");
    },
  );

  it.skipIf(!cliSupportsRpc)(
    "a prompt piped with stdin closed at once still runs to the end before the process exits",
    async () => {
      const pi = start(["--no-session"]);
      pi.send({ id: "p1", type: "prompt", message: "hello" });
      pi.child.stdin.end();
      expect(await pi.exited).toBe(0);
      expect(pi.records.find((r) => r.id === "p1")).toMatchObject({ success: true });
      const end = pi.records.find((r) => r.type === "message_end" && r.message.role === "assistant");
      expect(end?.message.content).toEqual([{ type: "text", text: "first answer" }]);
      expect(pi.records.slice(-2)).toMatchObject([{ type: "agent_end" }, { type: "agent_settled", aborted: false }]);
    },
  );

  it.skipIf(!cliSupportsRpc)(
    "export_html writes the session page (default name in the folder, or outputPath) and answers its path",
    async () => {
      const pi = start(["--session-dir", join(home, "sessions")]);
      pi.send({ id: "p1", type: "prompt", message: "export <this> please" });
      await pi.response("p1");
      await pi.next((r) => r.type === "agent_settled");
      pi.send({ id: "e1", type: "export_html" });
      const first = await pi.response("e1");
      expect(first).toMatchObject({ type: "response", command: "export_html", success: true });
      expect(first.data.path).toMatch(/^pi-session-.*\.html$/);
      expect(readFileSync(join(cwd, first.data.path), "utf8")).toContain("export &lt;this&gt; please");
      const out = join(home, "out", "page.html");
      pi.send({ id: "e2", type: "export_html", outputPath: out });
      expect(await pi.response("e2")).toEqual({
        id: "e2",
        type: "response",
        command: "export_html",
        success: true,
        data: { path: out },
      });
      expect(readFileSync(out, "utf8")).toContain("first answer");
      pi.child.stdin.end();
      expect(await pi.exited).toBe(0);
    },
  );
});
