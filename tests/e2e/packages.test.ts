/**
 * `pi install/list/update/remove` on the built CLI against real package sources on 127.0.0.1: npm
 * packages published to a verdaccio registry, git repositories served by `git daemon`. A fixture package
 * holds a pi-host plugin (the `greet` tool), a skill and a prompt template; installed, its tool runs in
 * `pi -p` and its skill reaches the system prompt.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeFixturePackage } from "../fixtures/packages/fixture-package.js";
import { startGitServer, type GitServer } from "../fixtures/packages/git-server.js";
import { runPiExact } from "../fixtures/packages/pi-process.js";
import { startRegistry, type TestRegistry } from "../fixtures/packages/registry.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, sessionLines, type AgentHome } from "./agent-home.js";
import type { PiRun } from "./run-pi.js";

let registry: TestRegistry;
let gitServer: GitServer;
let llm: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  [registry, gitServer, llm] = await Promise.all([startRegistry(), startGitServer(), new MockLlmServer().start()]);
  await registry.publish(writeFixturePackage("greeter", { name: "pi-fixture-greeter", version: "1.0.0" }));
}, 60_000);
afterAll(async () => {
  await Promise.all([registry?.close(), gitServer?.close(), llm?.close()]);
});
beforeEach(() => {
  user = agentHome();
  llm.requests.length = 0;
});

/** Runs the built pi as this test's user, with npm pointed at the test registry. */
function pi(args: string[]): Promise<PiRun> {
  return runPiExact(args, user.project, { ...registry.env, ...user.env });
}

/** Runs pi and fails the test with its stderr when it does not exit 0. */
async function piOk(args: string[]): Promise<PiRun> {
  const run = await pi(args);
  if (run.code !== 0) throw new Error(`pi ${args.join(" ")} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

const settings = (): any => JSON.parse(readFileSync(join(user.agent, "settings.json"), "utf8"));
const listJson = async (): Promise<any[]> => JSON.parse((await piOk(["list", "--json"])).stdout);

/** Scripts faux to call greet for "ada", then answer; runs pi -p; returns the tool result text. */
async function greetThroughFaux(): Promise<string> {
  user.scriptFaux([{ content: [{ type: "toolCall", id: "call_greet_1", name: "greet", arguments: { name: "ada" } }] }, { content: "Greeted." }]);
  const run = await piOk(["-p", "--model", "faux/faux-1", "greet ada"]);
  expect(run.stdout).toBe("Greeted.\n");
  const files = user.sessionFiles();
  const result = sessionLines(files[files.length - 1]!).find((e) => e.type === "message" && e.message.role === "toolResult").message;
  expect(result).toMatchObject({ toolName: "greet", isError: false });
  return result.content[0].text;
}

describe("npm: packages from a verdaccio registry on 127.0.0.1", () => {
  it("install → list shows it → its tool works in pi -p and its skill reaches the prompt → update moves to 1.1.0 → remove removes it", async () => {
    const install = await piOk(["install", "npm:pi-fixture-greeter"]);
    expect(install.stdout).toContain("Installed npm:pi-fixture-greeter 1.0.0 (global)");
    expect(install.stderr).toContain("fetching pi-fixture-greeter with npm"); // progress on stderr
    expect(settings().packages).toEqual(["npm:pi-fixture-greeter"]);
    const folder = join(user.agent, "npm", "pi-fixture-greeter");
    expect(existsSync(join(folder, "plugins", "greeter", "index.ts"))).toBe(true);

    const list = await piOk(["list"]);
    expect(list.stdout).toContain("npm:pi-fixture-greeter  (1.0.0)");
    expect(list.stdout).toContain("plugins: greeter (plugins/greeter)");
    expect(list.stdout).toContain("skills: skills");
    const [entry] = await listJson();
    expect(entry).toMatchObject({ source: "npm:pi-fixture-greeter", scope: "global", kind: "npm", version: "1.0.0", pinned: false, installed: true, path: folder, problems: [] });

    const plugins = JSON.parse((await piOk(["plugins", "--json"])).stdout) as any[];
    expect(plugins.find((p) => p.id === "greeter")).toMatchObject({ status: "active", version: "1.0.0", source: join(folder, "plugins", "greeter", "index.ts") });

    expect(await greetThroughFaux()).toBe("hello ada from greeter 1.0.0");

    // The same run against a real wire protocol: the tool is offered and the package's skill is in the system prompt.
    user.useMockServer(`${llm.url}/v1`);
    llm.enqueue({ sse: completionsToolCall("call_greet_2", "greet", { name: "bo" }) }, { sse: completionsText("done") });
    await piOk(["-p", "--model", "mock/mock-1", "greet bo"]);
    const first = llm.requests[0]!.body;
    expect(first.tools.map((t: any) => t.function.name)).toContain("greet");
    expect(first.messages[0].content).toContain("greeting-style");
    expect(first.messages[0].content).toContain(join(folder, "skills", "greeting-style", "SKILL.md"));
    expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain("hello bo from greeter 1.0.0");

    await registry.publish(writeFixturePackage("greeter", { name: "pi-fixture-greeter", version: "1.1.0" }));
    const update = await piOk(["update"]);
    expect(update.stdout).toContain("Updated npm:pi-fixture-greeter 1.0.0 -> 1.1.0");
    expect((await listJson())[0].version).toBe("1.1.0");
    expect(await greetThroughFaux()).toBe("hello ada from greeter 1.1.0");
    expect((await piOk(["update"])).stdout).toContain("Current npm:pi-fixture-greeter is at the newest 1.1.0");

    const remove = await piOk(["remove", "npm:pi-fixture-greeter"]);
    expect(remove.stdout).toContain("Removed npm:pi-fixture-greeter");
    expect(settings().packages).toEqual([]);
    expect(existsSync(folder)).toBe(false);
    expect((await piOk(["list"])).stdout).toBe("No packages installed.\n");
    const after = JSON.parse((await piOk(["plugins", "--json"])).stdout) as any[];
    expect(after.find((p) => p.id === "greeter")).toBeUndefined();
  });
});
