/**
 * pi 1.6.0's `!cmd` and `!!cmd` in the built CLI's terminal UI, in tmux, against a local
 * OpenAI-compatible server: both run the command in the shell and show its output; `!cmd` adds the run
 * to the context the next request carries, `!!cmd` does not.
 */
import { describe, expect, it } from "vitest";
import { completionsText } from "./agent-home.js";
import { tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the TUI !command end-to-end tests", [{ id: "mock-1" }]);

/** The text of every user message of a recorded Chat Completions body. */
function userTexts(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")));
}

describe.skipIf(!suite.hasTmux)("TUI !command in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("!echo hi shows hi and the next request carries the run", async () => {
    suite.server.enqueue({ sse: completionsText("I saw the run.") });
    const pane = suite.start();
    await pane.waitFor("mock-1");
    pane.type("!echo hi");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("$ echo hi") && /^\s*hi\s*$/m.test(s));
    pane.type("what was printed?");
    pane.keys("Enter");
    await pane.waitFor("I saw the run.");
    expect(suite.server.requests).toHaveLength(1);
    expect(userTexts(suite.server.requests[0]!.body)).toEqual(["Ran `echo hi`\n```\nhi\n\n```", "what was printed?"]);
  });

  it("!!echo hi shows hi and the next request does not carry it", async () => {
    suite.server.enqueue({ sse: completionsText("Nothing to see.") });
    const pane = suite.start();
    await pane.waitFor("mock-1");
    pane.type("!!echo hi");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("$ echo hi (not sent to the model)") && /^\s*hi\s*$/m.test(s));
    pane.type("anything?");
    pane.keys("Enter");
    await pane.waitFor("Nothing to see.");
    expect(suite.server.requests).toHaveLength(1);
    expect(userTexts(suite.server.requests[0]!.body)).toEqual(["anything?"]);
  });
});
