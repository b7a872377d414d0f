/**
 * Any built-in can be swapped: the per-run flags reach whichever plugin provides the contract they
 * belong to, whatever its id, because the host hands them over through `host/environment` and never by
 * plugin id. The user's plugins.json turns agent-session, auth and resources off and runs copies of
 * them under new ids; `--model`, `--api-key`, `--session`, `--append-system-prompt` and `--skill` still
 * take effect on the built CLI against the mock server.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, messageRoles, type AgentHome } from "./agent-home.js";

const PLUGINS = fileURLToPath(new URL("../../plugins/", import.meta.url));

let server: MockLlmServer;
let user: AgentHome;

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
});

/** Copies the built-in plugin's source (`kind/name`) into the user's home, as `pi plugin eject` does, and returns its folder. */
function copyOfBuiltin(kindAndName: string): string {
  const target = join(user.home, "copies", kindAndName.split("/")[1]!);
  cpSync(join(PLUGINS, kindAndName), target, { recursive: true });
  return target;
}

describe("built-ins replaced by copies under new ids (plugins.json)", () => {
  it("--model, --api-key, --session, --append-system-prompt and --skill still take effect", async () => {
    writeFileSync(
      join(user.agent, "plugins.json"),
      JSON.stringify({
        plugins: [
          { id: "agent-session", enabled: false },
          { id: "auth", enabled: false },
          { id: "resources", enabled: false },
          { id: "my-session", use: copyOfBuiltin("session/agent-session") },
          { id: "my-keys", use: copyOfBuiltin("ai/auth") },
          { id: "my-resources", use: copyOfBuiltin("config/resources") },
        ],
      }),
    );
    const skillDir = join(user.home, "skills", "release-notes");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, "SKILL.md"),
      "---\nname: release-notes\ndescription: Writes release notes from the changes.\n---\nList every change.\n",
    );
    const sessionFile = join(user.home, "chosen", "run.jsonl");
    mkdirSync(join(user.home, "chosen"), { recursive: true });
    server.enqueue({ sse: completionsText("done") });

    const run = await user.pi([
      "-p",
      "--model",
      "mock/mock-1",
      "--api-key",
      "key-from-the-flag",
      "--session",
      sessionFile,
      "--append-system-prompt",
      "Appended by the flag.",
      "--skill",
      skillDir,
      "hello",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");

    const plugins = await user.pi(["plugins", "--json"]);
    const active = (JSON.parse(plugins.stdout) as Array<{ id: string; status: string }>)
      .filter((p) => p.status === "active")
      .map((p) => p.id);
    expect(active).toEqual(expect.arrayContaining(["my-session", "my-keys", "my-resources"]));
    expect(active).not.toEqual(expect.arrayContaining(["agent-session"]));

    const request = server.requests[0]!;
    expect(request.body.model).toBe("mock-1");
    expect(request.headers.authorization).toBe("Bearer key-from-the-flag");
    const system = request.body.messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toContain("Appended by the flag.");
    expect(system.content).toContain("<name>release-notes</name>");
    expect(existsSync(sessionFile)).toBe(true);
    expect(messageRoles(sessionFile)).toEqual(["user", "assistant"]);
  });
});
