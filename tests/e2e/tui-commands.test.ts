/**
 * pi 1.6.0's `/thinking`, `/clone`, `/copy` and `/session` in the built CLI's terminal UI, in tmux, against a local
 * OpenAI-compatible server that records each request.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { completionsText } from "./agent-home.js";
import { tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the TUI slash command end-to-end tests", [{ id: "think-1", reasoning: true }]);

/** Waits until the answer is on screen and the run around it has ended (the working line is gone). */
const answered = (pane: ReturnType<typeof start>, text: string) =>
  pane.waitFor((screen) => screen.includes(text) && !screen.includes("Working…"));

const start = () => suite.start();

describe.skipIf(!suite.hasTmux)("TUI slash commands in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("/thinking high sets the level the next request carries; /thinking alone picks from the levels", async () => {
    suite.server.enqueue({ sse: completionsText("first") }, { sse: completionsText("second") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("/thinking high");
    pane.keys("Enter");
    await pane.waitFor("Thinking level: high");
    pane.type("one");
    pane.keys("Enter");
    await pane.waitFor("first");
    expect((suite.server.requests[0]!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
    pane.type("/thinking");
    pane.keys("Enter");
    await pane.waitFor("Thinking level");
    pane.type("minimal");
    pane.keys("Enter");
    await pane.waitFor("think-1 • minimal");
    pane.type("two");
    pane.keys("Enter");
    await pane.waitFor("second");
    expect((suite.server.requests[1]!.body as { reasoning_effort?: string }).reasoning_effort).toBe("minimal");
  });

  it("/clone copies the session into a new file and carries on there", async () => {
    suite.server.enqueue({ sse: completionsText("the first answer") }, { sse: completionsText("after the clone") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("remember this");
    pane.keys("Enter");
    await answered(pane, "the first answer");
    pane.type("/clone");
    pane.keys("Enter");
    await pane.waitFor("Cloned into a new session");
    pane.type("and now?");
    pane.keys("Enter");
    await pane.waitFor("after the clone");
    const files = suite.user.sessionFiles();
    expect(files).toHaveLength(2);
    const clone = readFileSync(files[1]!, "utf8");
    expect(clone).toContain("remember this");
    expect(clone).toContain("and now?");
    expect(readFileSync(files[0]!, "utf8")).not.toContain("and now?");
  });

  it("/copy puts the last answer on the terminal's clipboard (OSC 52 without a display)", async () => {
    suite.tmux.run("set-option", "-s", "set-clipboard", "on");
    suite.server.enqueue({ sse: completionsText("copy me, please") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("say it");
    pane.keys("Enter");
    await answered(pane, "copy me, please");
    pane.type("/copy");
    pane.keys("Enter");
    await pane.waitFor("Copied the last assistant message");
    expect(suite.tmux.run("show-buffer")).toBe("copy me, please");
  });

  it("/copy before any answer says there is nothing to copy", async () => {
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("/copy");
    pane.keys("Enter");
    await pane.waitFor("Nothing to copy");
  });

  it("/session shows the session's id, file, model, message counts and tokens", async () => {
    suite.server.enqueue({ sse: completionsText("noted") });
    // Wide enough for the whole file path on one line.
    const pane = suite.start({ width: 220 });
    await pane.waitFor("think-1");
    pane.type("count me");
    pane.keys("Enter");
    await answered(pane, "noted");
    pane.type("/session");
    pane.keys("Enter");
    await pane.waitFor("tokens:");
    const file = suite.user.sessionFiles()[0]!;
    const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { id: string };
    const screen = pane.capture();
    expect(screen).toContain(`Session ${header.id}`);
    expect(screen).toContain(basename(file));
    expect(screen).toContain("model: mock/think-1");
    expect(screen).toContain("messages: 1 user, 1 assistant, 0 tool calls");
    expect(screen).toMatch(/tokens: [1-9]\d* in, [1-9]\d* out/);
  });
});
