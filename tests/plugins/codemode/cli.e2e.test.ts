/**
 * The codemode sandbox on the built CLI (`npm run build` first): `--tools codemode,read` keeps a
 * script away from bash, and SIGTERM stops a run whose script spins (the main thread stays live).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { agentHome, sessionLines } from "../../e2e/agent-home.js";
import { PI_BIN } from "../../e2e/run-pi.js";

/** A distribution overlay that offers codemode every turn (by default only with MCP codemode tools). */
function withCodemode(dir: string): string {
  const file = join(dir, "codemode-distribution.json");
  writeFileSync(
    file,
    JSON.stringify({ plugins: [{ id: "codemode", use: "codemode", enabled: true, config: { offer: "always" } }] }),
  );
  return file;
}

beforeAll(() => {
  if (!existsSync(PI_BIN) || !existsSync(join(PI_BIN, "../plugins/codemode/index.js")))
    throw new Error('dist is missing; run "npm run build" first');
});

describe("codemode on the built CLI", () => {
  it("under --tools codemode,read a script cannot run bash", async () => {
    const user = agentHome();
    const code = `let bash; try { await tools.bash({ command: "touch pwned" }); bash = "ran"; } catch (e) { bash = e.message; }\nreturn Object.keys(tools).join(",") + " | " + bash;`;
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "cm", name: "codemode", arguments: { code } }] },
      { content: "done" },
    ]);
    const run = await user.pi([
      "-p",
      "--model",
      "faux/faux-1",
      "--tools",
      "codemode,read",
      "--distribution",
      withCodemode(user.home),
      "try bash",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = sessionLines(user.sessionFiles()[0]!).find(
      (e) => e.type === "message" && e.message.role === "toolResult",
    ).message;
    expect(result).toMatchObject({ toolName: "codemode", isError: false });
    expect(result.content[0].text).toBe("read | not a function");
    expect(existsSync(join(user.project, "pwned"))).toBe(false);
  }, 60_000);

  it("SIGTERM stops a run whose script spins, long before the script's time limit", async () => {
    const user = agentHome();
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "spin", name: "codemode", arguments: { code: "while (true) {}" } }] },
      { content: "never" },
    ]);
    const child = spawn(
      process.execPath,
      [PI_BIN, "-p", "--model", "faux/faux-1", "--distribution", withCodemode(user.home), "spin"],
      {
        cwd: user.project,
        env: { ...process.env, ...user.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    try {
      // Wait until the assistant's tool call is saved: the script starts right after.
      const sawCall = (): boolean =>
        user.sessionFiles().some((file) => readFileSync(file, "utf8").includes('"id":"spin"'));
      for (let waited = 0; !sawCall(); waited += 100) {
        if (waited > 30_000) throw new Error(`the tool call never started; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalled = Date.now();
      child.kill("SIGTERM");
      const outcome = await Promise.race([
        exited,
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 15_000)),
      ]);
      expect(outcome).not.toBe("hung");
      // The default time limit is 60 s; the run ended well before it.
      expect(Date.now() - signalled).toBeLessThan(15_000);
      // The session file is intact: every line is JSON.
      for (const file of user.sessionFiles())
        for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) JSON.parse(line);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
