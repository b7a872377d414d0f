/**
 * pi 1.6.0's own RPC clients against the built pi-host: its `RpcClient` class (from the installed
 * package, run under Node 22 in a child process) drives `dist/cli.js --mode rpc` through prompt-and-wait,
 * steer, follow-up, clear queue, abort, compact, fork, new session and get state; and the minimal Python
 * client printed in pi 1.6.0's docs/rpc.md (taken from the installed docs, only the command line
 * changed) runs to its end instead of waiting for `agent_settled` forever. The scripted faux provider
 * answers, so nothing leaves the machine. Skipped with the install command when pi 1.6.0 is missing.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const installed = pi16Missing === undefined;
if (!installed) console.log(`[skip] pi 1.6.0's RPC clients: ${pi16Missing}`);
const built = existsSync(PI_BIN);
if (!built) console.log(`[skip] pi 1.6.0's RPC clients: ${PI_BIN} is missing; run "npm run build"`);
const python = spawnSync("python3", ["--version"]).status === 0;

const PI16_PACKAGE = join(dirname(PI16_CLI), "..");
const DRIVER = fileURLToPath(new URL("./fixtures/pi16-rpc-client.mjs", import.meta.url));
const LONG = "word ".repeat(80).trim();

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

/** The faux provider, paced so a run is still streaming when steering arrives, answering `responses` in order. */
function scriptFaux(responses: Array<{ content: string }>): void {
  const fauxModels = {
    faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] },
  };
  writeFileSync(
    join(user.agent, "plugins.json"),
    JSON.stringify({
      plugins: [
        { id: "models", config: { providers: fauxModels } },
        { id: "provider-faux", config: { tokensPerSecond: 100, responses } },
      ],
    }),
  );
}

/** Runs `program` under Node 22 with `node` on PATH being Node 22 too (RpcClient spawns "node"). */
function runNode22(
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, args, {
      cwd: user.project,
      env: { ...process.env, ...user.env, PATH: `${dirname(PI16_NODE)}:${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!installed || !built)("pi 1.6.0's RpcClient drives pi-host", () => {
  it("prompt-and-wait, steer, follow-up, clear queue, abort, compact, fork, new session and get state all pass", async () => {
    scriptFaux([
      { content: "first answer" },
      { content: LONG },
      { content: "steered" },
      { content: LONG },
      { content: "followed" },
      { content: LONG },
      { content: "## Goal\nsummary of it" },
      { content: "## Goal\nturn prefix" },
    ]);
    writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 100 } }));
    const clientJs = join(PI16_PACKAGE, "dist/modes/rpc/rpc-client.js");
    const run = await runNode22([DRIVER, clientJs, PI_BIN, user.project], 90_000);
    expect(run.code, run.stderr).toBe(0);
    const { results } = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    for (const [name, result] of Object.entries<any>(results)) expect(result.error, name).toBeUndefined();

    expect(results.getState.value).toMatchObject({
      model: { provider: "faux", id: "faux-1" },
      isStreaming: false,
      messageCount: 0,
    });
    const waited = results.promptAndWait.value;
    expect(waited.types.slice(0, 1)).toEqual(["agent_start"]);
    expect(waited.types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    expect(waited.answer).toBe("first answer");

    const steer = results.steer.value;
    expect(steer.disposition).toBe("started");
    expect(steer.steer).toBe("queued");
    expect(steer.settled).toEqual({ type: "agent_settled", aborted: false });
    expect(steer.users.slice(-2)).toEqual(["long one", "turn left"]);
    expect(steer.answer).toBe("steered");

    const followUp = results.followUp.value;
    expect(followUp.followUp).toBe("queued");
    expect(followUp.users.slice(-2)).toEqual(["long two", "then this"]);
    expect(followUp.answer).toBe("followed");

    const cleared = results.clearQueueAndAbort.value;
    expect(cleared.pending).toBe(2);
    expect(cleared.cleared).toEqual({ steering: ["queued steer"], followUp: ["queued follow-up"] });
    expect(cleared.settled).toEqual({ type: "agent_settled", aborted: true });
    expect(cleared.isStreaming).toBe(false);
    expect(cleared.users.at(-1)).toBe("long three");

    expect(results.compact.value).toMatchObject({
      summary: expect.stringContaining("summary of it"),
      firstKeptEntryId: expect.stringMatching(/^[0-9a-f]{8}$/),
      tokensBefore: expect.any(Number),
      estimatedTokensAfter: expect.any(Number),
    });
    expect(results.thinkingLevels.value).toEqual(["off"]);

    expect(results.fork.value.fork).toEqual({ text: "hello", cancelled: false });
    expect(results.fork.value.users).toEqual([]);
    expect(results.newSession.value).toEqual({ result: { cancelled: false }, changed: true, messageCount: 0 });
  }, 120_000);

  it.skipIf(!python)(
    "the minimal Python client of pi 1.6.0's docs/rpc.md prints the answer and ends",
    async () => {
      scriptFaux([{ content: "Hello from pi-host" }]);
      const docs = readFileSync(join(PI16_PACKAGE, "docs/rpc.md"), "utf8");
      const program = /## Minimal client[\s\S]*?```python\n([\s\S]*?)```/.exec(docs)?.[1];
      expect(program, "pi 1.6.0's docs/rpc.md has a Python minimal client").toBeDefined();
      const argv = '["pi", "--mode", "rpc", "--no-session"]';
      expect(program).toContain(argv);
      const ours = JSON.stringify([
        process.execPath,
        PI_BIN,
        "--mode",
        "rpc",
        "--no-session",
        "--model",
        "faux/faux-1",
      ]);
      const script = join(user.home, "minimal_client.py");
      writeFileSync(script, program!.replace(argv, ours));
      const started = Date.now();
      const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn("python3", [script], { cwd: user.project, env: { ...process.env, ...user.env } });
        let stdout = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ code, stdout });
        });
      });
      const seconds = (Date.now() - started) / 1000;
      console.log(`pi 1.6.0's minimal Python client against pi-host: ${seconds.toFixed(2)} s`);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Hello from pi-host\n");
      expect(seconds).toBeLessThan(15);
    },
    30_000,
  );
});
