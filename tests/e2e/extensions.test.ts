import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { agentHome, sessionLines, type AgentHome } from "./agent-home.js";

const GREET = fileURLToPath(new URL("../fixtures/pi-extensions/greet-tool.ts", import.meta.url));

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

/** The tool results a run's session file holds: [toolCallId, isError, text]. */
function toolResults(user: AgentHome): Array<[string, boolean, string]> {
  const [file] = user.sessionFiles();
  return sessionLines(file!)
    .filter((e) => e.type === "message" && e.message.role === "toolResult")
    .map((e) => [e.message.toolCallId, e.message.isError, e.message.content[0].text]);
}

const greetTurns = [
  { content: [{ type: "toolCall" as const, id: "g1", name: "greet", arguments: { name: "e2e" } }] },
  { content: "Greeted." },
];

describe("pi extensions through the built CLI", () => {
  it('pi -p -e <ext.ts> "..." loads the extension: the model calls its tool and gets the tool\'s result', async () => {
    copyFileSync(GREET, join(user.project, "greet.ts"));
    user.scriptFaux(greetTurns);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "-e", "greet.ts", "greet e2e"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Greeted.\n");
    expect(toolResults(user)).toEqual([["g1", false, "Hello, e2e!"]]);
  });

  it("extensions in <agentDir>/extensions/ load without a flag; --no-extensions skips them", async () => {
    mkdirSync(join(user.agent, "extensions"), { recursive: true });
    copyFileSync(GREET, join(user.agent, "extensions", "greet.ts"));
    user.scriptFaux(greetTurns);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "greet e2e"]);
    expect(run.stderr).toBe("");
    expect(toolResults(user)).toEqual([["g1", false, "Hello, e2e!"]]);

    const other = agentHome();
    mkdirSync(join(other.agent, "extensions"), { recursive: true });
    copyFileSync(GREET, join(other.agent, "extensions", "greet.ts"));
    other.scriptFaux(greetTurns);
    const skipped = await other.pi(["-p", "--model", "faux/faux-1", "--no-extensions", "greet e2e"]);
    expect(skipped.code).toBe(0);
    const [[id, isError, text]] = toolResults(other);
    expect([id, isError]).toEqual(["g1", true]);
    expect(text).toMatch(/^Tool "greet" not found/);
  });

  it("an -e path that does not exist is one line on stderr; the run goes on", async () => {
    user.scriptFaux([{ content: "fine" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "-e", "missing.ts", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("fine\n");
    expect(run.stderr).toBe(`pi-extensions: extension ${join(user.project, "missing.ts")} not found\n`);
  });
});
