/**
 * The SDK decides project trust like the CLI: an untrusted project's `.pi/APPEND_SYSTEM.md` and
 * `.pi/extensions` stay out by default (and the diagnostics say so in one line); `projectTrust: true`
 * loads them for that session, `projectTrust: false` beats a saved trust. Built dist/sdk.js, in process,
 * against MockLlmServer.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "../e2e/agent-home.js";

const SDK = fileURLToPath(new URL("../../dist/sdk.js", import.meta.url));

async function sdk(): Promise<typeof import("../../hosts/sdk.js")> {
  if (!existsSync(SDK)) throw new Error(`${SDK} is missing; run "npm run build" first`);
  return import(pathToFileURL(SDK).href);
}

let server: MockLlmServer;
let user: AgentHome;
let marker: string;
beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
  marker = join(user.home, "extension-ran");
  mkdirSync(join(user.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(join(user.project, ".pi", "APPEND_SYSTEM.md"), "PROJECT-APPEND\n");
  writeFileSync(
    join(user.project, ".pi", "extensions", "mark.ts"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default function () {}\n`,
  );
});

/** One prompt through the SDK; returns the system prompt the model got and the diagnostics. */
async function promptOnce(options: { projectTrust?: boolean }): Promise<{ system: string; diagnostics: string[] }> {
  const { createAgentSession } = await sdk();
  server.enqueue({ sse: completionsText("ok") });
  const runtime = await createAgentSession({
    cwd: user.project,
    agentDir: user.agent,
    model: "mock/mock-1",
    session: "none",
    ...options,
  });
  try {
    await runtime.session.call("prompt", "hi");
  } finally {
    await runtime.dispose();
  }
  const messages = server.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
  return { system: messages.find((m) => m.role === "system")!.content, diagnostics: runtime.diagnostics };
}

describe("createAgentSession and project trust", () => {
  it("untrusted by default: project files stay out, one diagnostic line says so", async () => {
    const { system, diagnostics } = await promptOnce({});
    expect(system).not.toContain("PROJECT-APPEND");
    expect(existsSync(marker)).toBe(false);
    expect(diagnostics.filter((d) => d.includes("skipped project resources"))).toEqual([
      `skipped project resources in ${user.project} (.pi/extensions, .pi/APPEND_SYSTEM.md): the project is not trusted; run "pi trust" or /trust to trust it, or pass --approve for this run`,
    ]);
  }, 60_000);

  it("projectTrust: true loads them; projectTrust: false beats a saved trust", async () => {
    const trusted = await promptOnce({ projectTrust: true });
    expect(trusted.system).toContain("PROJECT-APPEND");
    expect(existsSync(marker)).toBe(true);

    expect((await user.pi(["trust"])).code).toBe(0);
    const refused = await promptOnce({ projectTrust: false });
    expect(refused.system).not.toContain("PROJECT-APPEND");
  }, 60_000);
});
