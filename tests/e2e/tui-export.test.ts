/**
 * pi's `/export [path]` in the built CLI's terminal UI, in tmux, against a local OpenAI-compatible
 * server: after one answer, `/export page.html` writes the session page in the project folder and says
 * where; `/export branch.jsonl` writes the active branch. Before anything is said, it says so.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completionsText } from "./agent-home.js";
import { tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the TUI /export end-to-end test", [{ id: "mock-1" }]);

describe.skipIf(!suite.hasTmux)("TUI /export in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("/export writes the HTML page and the branch JSONL, and says where", async () => {
    suite.server.enqueue({ sse: completionsText("Exported <soon>.") });
    const pane = suite.start();
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
    const html = readFileSync(join(suite.user.project, "page.html"), "utf8");
    expect(html).toContain("hello &lt;/script&gt; there");
    expect(html).toContain("Exported &lt;soon&gt;.");
    pane.type("/export branch.jsonl");
    pane.keys("Enter");
    // The result line, not the typed command (which shows "branch.jsonl" before the file is written).
    await pane.waitFor(/Session exported to: \S*branch\.jsonl/);
    const lines = readFileSync(join(suite.user.project, "branch.jsonl"), "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!).type).toBe("session");
    expect(lines.some((l) => l.includes("Exported <soon>."))).toBe(true);
    expect(existsSync(join(suite.user.project, "early.html"))).toBe(false);
  });
});
