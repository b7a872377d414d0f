/**
 * pi's `/export [path]` in the built CLI's terminal UI, in tmux, against a local OpenAI-compatible
 * server: after one answer, `/export page.html` writes the session page in the project folder and says
 * where; `/export branch.jsonl` writes the active branch. Before anything is said, it says so.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the TUI /export end-to-end test");

let server: MockLlmServer;
let tmux: TmuxServer | undefined;
let user: AgentHome;

beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  server = await new MockLlmServer().start();
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(async () => {
  tmux?.close();
  await server.close();
});
beforeEach(() => {
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});
afterEach(() => tmux?.killPanes());

describe.skipIf(!HAS_TMUX)("TUI /export in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("/export writes the HTML page and the branch JSONL, and says where", async () => {
    server.enqueue({ sse: completionsText("Exported <soon>.") });
    const pane = tmux!.start({ cwd: user.project, env: user.env, args: ["--model", "mock/mock-1"] });
    await pane.waitFor("mock-1");
    pane.type("/export early.html");
    pane.keys("Enter");
    await pane.waitFor("Failed to export session: Nothing to export yet - start a conversation first");
    pane.type("hello </script> there");
    pane.keys("Enter");
    await pane.waitFor("Exported <soon>.");
    pane.type("/export page.html");
    pane.keys("Enter");
    await pane.waitFor("Session exported to: page.html");
    const html = readFileSync(join(user.project, "page.html"), "utf8");
    expect(html).toContain("hello &lt;/script&gt; there");
    expect(html).toContain("Exported &lt;soon&gt;.");
    pane.type("/export branch.jsonl");
    pane.keys("Enter");
    // The result line, not the typed command (which shows "branch.jsonl" before the file is written).
    await pane.waitFor(/Session exported to: \S*branch\.jsonl/);
    const lines = readFileSync(join(user.project, "branch.jsonl"), "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!).type).toBe("session");
    expect(lines.some((l) => l.includes("Exported <soon>."))).toBe(true);
    expect(existsSync(join(user.project, "early.html"))).toBe(false);
  });
});
