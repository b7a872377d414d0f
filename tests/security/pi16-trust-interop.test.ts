/**
 * The trust.json pi-host writes is read by pi 1.6.0 with the same rules: `pi trust <parent>` then
 * `pi trust --no` in the project (ours) makes pi 1.6.0 skip the project's APPEND_SYSTEM.md (nearest
 * ancestor, false beats a trusted parent), and a trusted sibling's loads. Runs the installed pi 1.6.0
 * against MockLlmServer; skipped with a reason when it is not installed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "../e2e/agent-home.js";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";

const installed = pi16Missing === undefined;
if (!installed) console.log(`[skip] pi 1.6.0 trust interop: ${pi16Missing}`);

let server: MockLlmServer;
beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});

/** Runs pi 1.6.0 -p in `cwd` with the user's environment. */
function pi16(
  user: AgentHome,
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, ...args], {
      cwd,
      env: { ...process.env, ...user.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end("");
  });
}

function systemPromptOfLastRequest(): string {
  const messages = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  const system = messages.find((m) => m.role === "system" || m.role === "developer");
  return typeof system?.content === "string" ? system.content : JSON.stringify(system?.content);
}

describe.skipIf(!installed)("trust.json written by pi-host, read by pi 1.6.0", () => {
  it("a saved no below a trusted parent keeps the project's APPEND_SYSTEM.md out; the trusted sibling's loads", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    const refused = join(user.project, "refused");
    const sibling = join(user.project, "sibling");
    for (const [dir, text] of [
      [refused, "REFUSED-APPEND"],
      [sibling, "SIBLING-APPEND"],
    ] as const) {
      mkdirSync(join(dir, ".pi"), { recursive: true });
      writeFileSync(join(dir, ".pi", "APPEND_SYSTEM.md"), `${text}\n`);
    }
    expect((await user.pi(["trust", user.project])).code).toBe(0);
    expect((await user.pi(["trust", "--no"], { cwd: refused })).code).toBe(0);

    server.enqueue({ sse: completionsText("ok") }, { sse: completionsText("ok") });
    const outside = await pi16(user, refused, ["-p", "--model", "mock/mock-1", "hi"]);
    expect(outside.code).toBe(0);
    expect(systemPromptOfLastRequest()).not.toContain("REFUSED-APPEND");
    const inside = await pi16(user, sibling, ["-p", "--model", "mock/mock-1", "hi"]);
    expect(inside.code).toBe(0);
    expect(systemPromptOfLastRequest()).toContain("SIBLING-APPEND");
  }, 60_000);
});
