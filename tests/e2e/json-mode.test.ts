import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

const parse = (stdout: string): any[] =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

/** Starts pi with a slowly streamed faux answer; resolves once the first text delta is on stdout. */
async function startStreaming(
  user: AgentHome,
  args: string[],
): Promise<{
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}> {
  const fauxModels = {
    faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] },
  };
  writeFileSync(
    join(user.agent, "plugins.json"),
    JSON.stringify({
      plugins: [
        { id: "models", config: { providers: fauxModels } },
        { id: "provider-faux", config: { tokensPerSecond: 20, responses: [{ content: "word ".repeat(400) }] } },
      ],
    }),
  );
  const child = spawn(process.execPath, [PI_BIN, ...args], {
    cwd: user.project,
    env: { ...process.env, ...user.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end();
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes('"text_delta"')) resolve();
    });
  });
  return { child, stdout: () => out, stderr: () => err, exit };
}

describe("pi --mode json (built CLI, faux provider)", () => {
  it("emits the header and the whole event sequence of a tool round trip, with pi's event names", async () => {
    writeFileSync(join(user.project, "notes.txt"), "tangerine\n");
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "notes.txt" } }] },
      { content: "It says tangerine." },
    ]);
    const run = await user.pi(["--mode", "json", "--model", "faux/faux-1", "read notes.txt"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = parse(run.stdout);
    const sequence = events.map((e) => e.type).filter((t) => t !== "message_update");
    expect(sequence).toEqual([
      "session",
      "agent_start",
      "turn_start",
      "message_start", // user
      "message_end",
      "message_start", // assistant calling read
      "message_end",
      "tool_execution_start",
      "tool_execution_end",
      "message_start", // tool result
      "message_end",
      "turn_end",
      "turn_start",
      "message_start", // final answer
      "message_end",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const toolEnd = events.find((e) => e.type === "tool_execution_end");
    expect(toolEnd).toMatchObject({ toolCallId: "call_1", toolName: "read", isError: false });
    expect(events.at(-2).messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  it("a 2,000-token answer: merged deltas, under 300 KB (pi 0.73's shape: megabytes)", async () => {
    const answer = Array.from({ length: 2000 }, (_, i) => `t${String(i % 1000).padStart(3, "0")}`).join("");
    user.scriptFaux([{ content: answer }]);
    const run = await user.pi(["--mode", "json", "--model", "faux/faux-1", "write"]);
    expect(run.code).toBe(0);
    const events = parse(run.stdout);
    const text = events
      .filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta")
      .map((e) => e.assistantMessageEvent.delta)
      .join("");
    expect(text).toBe(answer);
    expect(Buffer.byteLength(run.stdout)).toBeLessThan(Math.min(300_000, 5 * answer.length + 250 * events.length));

    user.scriptFaux([{ content: answer }]);
    const compat = await user.pi(["--mode", "json", "--compat-events", "--model", "faux/faux-1", "write"]);
    expect(compat.code).toBe(0);
    expect(Buffer.byteLength(compat.stdout)).toBeGreaterThan(1000 * answer.length);
  });

  it("--compat-events and --compat-events=0.73 give pi 0.73's shape; the next argument stays the message; other values exit 2", async () => {
    for (const flag of ["--compat-events", "--compat-events=0.73"]) {
      user.scriptFaux([{ content: "old shape" }]);
      const run = await user.pi(["--mode", "json", flag, "--model", "faux/faux-1", "say it"]);
      expect(run.code, run.stderr).toBe(0);
      const events = parse(run.stdout);
      expect(events.find((e) => e.type === "message_start" && e.message.role === "user").message.content).toBe(
        "say it",
      );
      const update = events.find((e) => e.type === "message_update");
      expect(update.message).toMatchObject({ role: "assistant" });
      expect(update.assistantMessageEvent.partial).toMatchObject({ role: "assistant" });
    }
    const bad = await user.pi(["--mode", "json", "--compat-events=0.5", "--model", "faux/faux-1", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain('--compat-events takes 0.73 or no value (pi 0.73\'s event shapes), not "0.5"');
  });

  it("Ctrl+C aborts the streaming answer: the aborted message ends the stream, exit 1", async () => {
    const run = await startStreaming(user, ["--mode", "json", "--model", "faux/faux-1", "write a lot"]);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(1);
    const events = parse(run.stdout());
    expect(events.find((e) => e.type === "message_end" && e.message.role === "assistant").message).toMatchObject({
      stopReason: "aborted",
    });
    expect(events.slice(-2).map((e) => e.type)).toEqual(["agent_end", "agent_settled"]);
    expect(events.at(-1).aborted).toBe(true);
    expect(run.stderr()).toBe("");
  });

  it("a reader that goes away (| head) stops the run quietly instead of crashing", async () => {
    const run = await startStreaming(user, ["--mode", "json", "--model", "faux/faux-1", "write a lot"]);
    run.child.stdout.destroy();
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toBe("");
  });
});
