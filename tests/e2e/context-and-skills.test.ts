/**
 * Issue 6, acceptance 5, on the built CLI against the mock server: an AGENTS.md in a PARENT folder and a
 * skill found in the project's own .pi/skills reach the system prompt the server receives; `/skill:x`
 * expands to the skill's instructions and a project prompt template to its filled body.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";

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

describe("context files, project skills and templates reach the request", () => {
  it("parent AGENTS.md + project skill in the system prompt; /skill:x and /template expand", async () => {
    // project/ holds the parent's rules; project/app/ is where pi runs, with its own skill and template.
    writeFileSync(join(user.project, "AGENTS.md"), "Parent rule: every change needs a test.\n");
    const app = join(user.project, "app");
    mkdirSync(join(app, ".pi", "skills", "changelog"), { recursive: true });
    mkdirSync(join(app, ".pi", "prompts"), { recursive: true });
    writeFileSync(join(app, "AGENTS.md"), "App rule: keep functions short.\n");
    writeFileSync(
      join(app, ".pi", "skills", "changelog", "SKILL.md"),
      "---\nname: changelog\ndescription: Writes a changelog entry for a change.\n---\nRead git diff, then write one line per change.\n",
    );
    writeFileSync(
      join(app, ".pi", "prompts", "fix.md"),
      "---\ndescription: Fix an issue\n---\nFix issue $1 in ${@:2}.\n",
    );
    server.enqueue({ sse: completionsText("ok") }, { sse: completionsText("ok") });
    // Project skills and prompts are protected resources: they load once the folder is trusted.
    expect((await user.pi(["trust"], { cwd: app })).code).toBe(0);

    const skillRun = await user.pi(["-p", "--model", "mock/mock-1", "/skill:changelog for the parser"], { cwd: app });
    expect(skillRun.stderr).toBe("");
    expect(skillRun.code).toBe(0);
    const [system, ...rest] = server.requests[0]!.body.messages;
    expect(system.content).toContain("Parent rule: every change needs a test.");
    expect(system.content).toContain("App rule: keep functions short.");
    // Parent first, then the folder pi runs in.
    expect(system.content.indexOf("Parent rule")).toBeLessThan(system.content.indexOf("App rule"));
    expect(system.content).toContain("<name>changelog</name>");
    expect(system.content).toContain(join(app, ".pi", "skills", "changelog", "SKILL.md"));
    // Only name, description and path go into the prompt; the body comes with /skill:changelog.
    expect(system.content).not.toContain("write one line per change");
    const user1 = rest.at(-1);
    expect(user1.role).toBe("user");
    expect(user1.content).toContain("Read git diff, then write one line per change.");
    expect(user1.content).toContain("for the parser");

    const templateRun = await user.pi(["-p", "--model", "mock/mock-1", "/fix 42 the lexer and parser"], { cwd: app });
    expect(templateRun.code).toBe(0);
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Fix issue 42 in the lexer and parser.",
    });
  });
});
