/**
 * `pi --mode rpc` never stuck and never silent (built CLI): `--watch` with nothing to watch still serves,
 * the first SIGTERM exits 0 while stdin stays open, a 100 MB line is refused and the loop goes on, and a
 * watched plugin rewritten with an endless loop at its top level cannot freeze the host.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, sessionLines } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

type Rec = Record<string, any>;

/** A spawned `pi --mode rpc`: records read from stdout split on LF only. */
class RpcProcess {
  readonly records: Rec[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private pending: string[] = [];
  private waiters: Array<{ match: (r: Rec) => boolean; resolve: (r: Rec) => void }> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      let start = 0;
      for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
        this.pending.push(chunk.slice(start, nl));
        start = nl + 1;
        this.accept(JSON.parse(this.pending.join("")) as Rec);
        this.pending = [];
      }
      if (start < chunk.length) this.pending.push(chunk.slice(start));
    });
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  }

  private accept(record: Rec): void {
    this.records.push(record);
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.match(record) ? w.resolve(record) : this.waiters.push(w);
  }

  send(command: Rec): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  next(match: (r: Rec) => boolean): Promise<Rec> {
    const found = this.records.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  response(id: string): Promise<Rec> {
    return this.next((r) => r.type === "response" && r.id === id);
  }

  /** Resolves with the exit, or with "still running" after `ms`. */
  exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | "still running"> {
    return Promise.race([
      this.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms)),
    ]);
  }
}

/** A file plugin that offers one prompt template named `marker`, and at its top level runs `topLevel`. */
function markerPlugin(marker: string, topLevel = ""): string {
  return `import { definePlugin, ResourcesContract } from "pi-host";
${topLevel}
export default definePlugin({
  id: "marker",
  version: "1.0.0",
  provides: [ResourcesContract],
  setup(ctx) {
    ctx.provide(ResourcesContract, {
      promptSections: async () => [],
      skills: async () => [],
      templates: async () => [{ name: ${JSON.stringify(marker)}, description: "marker", body: "", path: "/marker", origin: "user" }],
    });
  },
});
`;
}

const built = existsSync(PI_BIN);

describe.skipIf(!built)("pi --mode rpc stays alive and answers (built CLI)", () => {
  let home: string;
  let cwd: string;
  let env: Record<string, string>;
  let running: RpcProcess | undefined;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-rpc-live-"));
    cwd = join(home, "project");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(home, "agent"), { recursive: true });
    env = { PI_CODING_AGENT_DIR: join(home, "agent"), HOME: home };
  });

  afterEach(async () => {
    if (running !== undefined && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    running = undefined;
  });

  function start(args: string[]): RpcProcess {
    const child = spawn(process.execPath, [PI_BIN, "--mode", "rpc", "--no-session", ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    running = new RpcProcess(child);
    return running;
  }

  it("--watch with no plugin loaded from a file still serves, and says on stderr that nothing is watched", async () => {
    const pi = start(["--watch"]);
    pi.send({ id: "s1", type: "get_state" });
    expect(await Promise.race([pi.response("s1"), pi.exited.then(() => "exited before answering")])).toMatchObject({
      command: "get_state",
      success: true,
    });
    expect(pi.stderr).toContain("nothing is watched");
    pi.child.stdin.end();
    expect((await pi.exited).code).toBe(0);
  });

  it("the first SIGTERM exits 0 while stdin stays open", async () => {
    const pi = start([]);
    pi.send({ id: "s1", type: "get_state" });
    await pi.response("s1");
    pi.child.kill("SIGTERM");
    // Generous: a loaded shared machine; the process used to stay up until a second signal.
    expect(await pi.exitWithin(10_000)).toEqual({ code: 0, signal: null });
  });

  it("SIGTERM mid-answer (stdin open) aborts the turn, exits 0, and the session file ends with the partial answer, aborted", async () => {
    const server = await new MockLlmServer().start();
    try {
      server.enqueue({ sse: completionsText("Partial answer that never finishes"), stallAfter: 4 });
      const user = agentHome();
      user.useMockServer(server.url);
      const child = spawn(process.execPath, [PI_BIN, "--mode", "rpc", "--model", "mock/mock-1"], {
        cwd: user.project,
        env: { ...process.env, ...user.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const pi = (running = new RpcProcess(child));
      pi.send({ id: "p1", type: "prompt", message: "hello" });
      // The third text delta is the last one the server sends before holding the stream open (deltas
      // that arrive together go out merged, so the text so far is what to wait for).
      const textSoFar = () =>
        pi.records
          .filter((r) => r.type === "message_update" && r.assistantMessageEvent?.type === "text_delta")
          .map((r) => r.assistantMessageEvent.delta)
          .join("");
      await pi.next((r) => r.type === "message_update" && textSoFar().endsWith("swer "));
      pi.child.kill("SIGTERM");
      expect(await pi.exitWithin(10_000)).toEqual({ code: 0, signal: null });
      const files = user.sessionFiles();
      expect(files).toHaveLength(1);
      const messages = sessionLines(files[0]!)
        .filter((e) => e.type === "message")
        .map((e) => e.message);
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(messages[1].stopReason).toBe("aborted");
      expect(JSON.stringify(messages[1].content)).toContain("Partial answer");
    } finally {
      await server.close();
    }
  });

  it("the first SIGINT exits 0 too", async () => {
    const pi = start([]);
    pi.send({ id: "s1", type: "get_state" });
    await pi.response("s1");
    pi.child.kill("SIGINT");
    expect(await pi.exitWithin(10_000)).toEqual({ code: 0, signal: null });
  });

  it("a 100 MB line is refused with one error response, memory stays sane, and the next command still answers", async () => {
    const pi = start([]);
    pi.send({ id: "s0", type: "get_state" });
    await pi.response("s0");
    const mib = 1024 * 1024;
    const block = "x".repeat(mib);
    const head = '{"id":"big","type":"prompt","message":"';
    pi.child.stdin.write(head);
    for (let i = 0; i < 100; i++) {
      if (!pi.child.stdin.write(block)) await new Promise((resolve) => pi.child.stdin.once("drain", resolve));
    }
    pi.child.stdin.write('"}\n');
    const refused = await pi.next((r) => r.type === "response" && r.command === "parse");
    expect(refused).toMatchObject({ success: false, error: expect.stringContaining("over the limit") });
    pi.send({ id: "s1", type: "get_state" });
    expect(await pi.response("s1")).toMatchObject({ command: "get_state", success: true });
    // The dropped line is not kept: the process's peak resident size stays well under the line's size
    // in UTF-16 (200 MB) plus copies, where the old reader went past 1 GB.
    const status = await import("node:fs")
      .then((fs) => fs.readFileSync(`/proc/${pi.child.pid}/status`, "utf8"))
      .catch(() => "");
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    if (peakKb > 0) expect(peakKb / 1024).toBeLessThan(600);
    pi.child.stdin.end();
    expect((await pi.exited).code).toBe(0);
  }, 120_000);

  it("a watched plugin rewritten with an endless loop at its top level: the host still answers, the old plugin keeps serving, SIGTERM exits", async () => {
    const pluginDir = join(home, "marker");
    mkdirSync(pluginDir);
    const pluginFile = join(pluginDir, "index.ts");
    writeFileSync(pluginFile, markerPlugin("marker-v1"));
    const distribution = join(home, "marker.plugins.json");
    writeFileSync(distribution, JSON.stringify({ plugins: [{ id: "marker", use: pluginDir }] }));
    const pi = start(["--watch", "--distribution", distribution]);
    pi.send({ id: "c1", type: "get_commands" });
    expect((await pi.response("c1")).data.commands.map((c: Rec) => c.name)).toContain("marker-v1");

    writeFileSync(pluginFile, markerPlugin("marker-v2", "while (true) {}"));
    // The reload is refused with one line on stderr once the trial's deadline passes.
    const deadline = Date.now() + 60_000;
    while (!pi.stderr.includes("reload of marker failed") && Date.now() < deadline) {
      pi.send({ id: `poll-${Date.now()}`, type: "get_state" });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(pi.stderr).toMatch(/reload of marker failed: .*top level ran for over/);
    pi.send({ id: "s1", type: "get_state" });
    expect(await pi.response("s1")).toMatchObject({ command: "get_state", success: true });
    pi.send({ id: "c2", type: "get_commands" });
    const names = (await pi.response("c2")).data.commands.map((c: Rec) => c.name);
    expect(names).toContain("marker-v1");
    expect(names).not.toContain("marker-v2");

    // Fixing the source reloads as usual (the hung trial's worker was replaced).
    writeFileSync(pluginFile, markerPlugin("marker-v3"));
    let fixed: string[] = [];
    for (let i = 0; i < 240 && !fixed.includes("marker-v3"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      pi.send({ id: `c3-${i}`, type: "get_commands" });
      fixed = (await pi.response(`c3-${i}`)).data.commands.map((c: Rec) => c.name);
    }
    expect(fixed).toContain("marker-v3");

    pi.child.kill("SIGTERM");
    expect(await pi.exitWithin(10_000)).toEqual({ code: 0, signal: null });
  }, 90_000);
});
