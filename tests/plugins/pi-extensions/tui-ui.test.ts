/**
 * Extension UI in the terminal view, in-process (the real session stack, the tui and mode-interactive
 * plugins on a virtual terminal): custom message and tool renderers in the transcript, `ctx.ui.custom`
 * as a screen in place of the editor and as an overlay, header, footer and component widgets, themes,
 * and the editor text, as pi 1.6.0's docs describe them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DARK_THEME } from "../../../plugins/ui/tui/theme-builtin.js";
import { fauxThinking, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootTui, type TuiHarness } from "../tui/harness.js";
import { fixture, withExtensions } from "./ext-harness.js";

let harness: TuiHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  await harness?.kernel.shutdown();
  harness = undefined;
});

const boot = async (options: Parameters<typeof withExtensions>[1] = {}) =>
  (harness = await bootTui({ ...withExtensions([fixture("tui-surfaces.ts")], options), width: 80, height: 24 }));

describe("extension UI in the TUI", () => {
  it("a custom message is drawn by its registered renderer; one without a renderer gets pi's [customType] box", async () => {
    const h = await boot();
    h.type("/card\r");
    const screen = await h.waitFor("no renderer here");
    expect(screen).toContain("CARD 3 hello");
    expect(screen).toContain("[plain]");
    // Ctrl+O expands: the renderer is asked again with expanded: true.
    h.type("\x0f");
    await h.waitFor("CARD 3 hello expanded");
  });

  it("a tool's renderCall and renderResult replace the call row and the output", async () => {
    const h = await boot({
      faux: { responses: [{ content: [fauxToolCall("deploy", { target: "prod" }, "d1")] }, { content: "shipped" }] },
    });
    h.type("ship it\r");
    const screen = await h.waitFor("shipped");
    expect(screen).toContain("DEPLOY CALL prod");
    expect(screen).toContain("DEPLOY RESULT ok=true for prod");
    expect(screen).not.toContain("deployed prod");
  });

  it("ctx.ui.custom takes the editor's place and the keyboard until done(value)", async () => {
    const h = await boot();
    h.type("/pick\r");
    await h.waitFor("> PICK alpha");
    h.type("\x1b[B");
    await h.waitFor("> PICK beta");
    // Typed text goes to the component, not the editor.
    h.type("zz");
    h.type("\r");
    const screen = await h.waitFor("picked beta");
    expect(screen).not.toContain("PICK gamma");
    expect(screen).not.toContain("zz");
  });

  it("an overlay is drawn over the screen at its anchor and width, and keeps the keyboard", async () => {
    const h = await boot();
    h.type("/overlay\r");
    await h.waitFor("[OVERLAY w=20]");
    const row = h.vt.lines().find((line) => line.includes("[OVERLAY"))!;
    // top-right with a margin of 1: the box ends one cell before the right edge.
    expect(row.indexOf("[OVERLAY")).toBe(80 - 1 - 20);
    expect(h.vt.lines().indexOf(row)).toBe(1);
    h.type("\x18");
    await h.waitFor("overlay said closed by ctrl+x (hidden at start: false)");
    expect(h.screen()).not.toContain("[OVERLAY w=20]");
  });

  it("setHeader, setFooter (with the statuses) and a component widget below the editor; undefined restores", async () => {
    const h = await boot();
    h.type("/chrome\r");
    const screen = await h.waitFor("MY FOOTER ready to ship");
    expect(screen).toContain("MY HEADER");
    const lines = h.vt.lines();
    const widget = lines.findIndex((l) => l.includes("WIDGET BELOW"));
    const footer = lines.findIndex((l) => l.includes("MY FOOTER"));
    expect(widget).toBeGreaterThan(0);
    expect(footer).toBeGreaterThan(widget);
    h.type("/unchrome\r");
    await h.waitFor((s) => !s.includes("MY FOOTER") && !s.includes("WIDGET BELOW"));
  });

  it("theme: the view's themes are listed and switched; colours come from the active theme", async () => {
    const h = await boot();
    h.type("/themes\r");
    const screen = await h.waitFor("painted");
    expect(screen.replace(/\s+/g, " ")).toContain(
      "themes system,dark,light; now light true; missing false; painted true; dark dark",
    );
  });

  it("setEditorComponent: a CustomEditor subclass sees keys first and passes the rest to the view's editor", async () => {
    const h = await boot();
    h.type("/vim\r");
    await h.waitFor("editor set: true");
    await h.waitFor("─ INSERT");
    h.type("abc");
    await h.waitFor("abc");
    h.type("\x1b");
    await h.waitFor("─ NORMAL");
    // In normal mode "h" moves left and "x" deletes under the cursor: the view's editor does both.
    h.type("h");
    h.type("x");
    h.type("i");
    await h.waitFor("─ INSERT");
    h.type("Z");
    await h.waitFor((s) => s.includes("abZ") && !s.includes("abc"));
    // Completion still opens under the replacement editor.
    h.type("\x03");
    await h.waitFor((s) => !s.includes("abZ"));
    // App keys reached the view through super.handleInput: Ctrl+C cleared the editor.
    h.type("/nov");
    await h.waitFor((s) => /\/nov\s*\n[─ ]*INSERT\s*\n.*novim/.test(s));
    h.type("im\r");
    await h.waitFor((s) => !s.includes("INSERT"));
    h.type("plain");
    await h.waitFor("plain");
  });

  it("setWorkingMessage, setWorkingIndicator and setHiddenThinkingLabel change the working row and thinking label", async () => {
    const h = await boot({
      faux: {
        responses: [
          { content: [fauxThinking("deep thoughts"), fauxToolCall("deploy", { target: "slow" }, "w1")] },
          { content: "done working" },
        ],
      },
    });
    h.type("/working\r");
    await h.waitFor("working row set");
    h.type("go\r");
    const screen = await h.waitFor("done working");
    expect(screen).toContain("Pondering (ctrl+t)");
    expect(screen).not.toContain("Thinking (ctrl+t to expand)");
  });

  it("setWorkingVisible(false) hides the working row; onTerminalInput sees a key first and consumes it", async () => {
    const h = await boot({
      faux: { responses: [{ content: [fauxToolCall("hold", {}, "h1")] }, { content: "held done" }] },
    });
    h.type("/quiet\r");
    await h.waitFor("quiet set");
    h.type("go\r");
    const holding = await h.waitFor("hold");
    expect(holding).not.toContain("QUIET ROW");
    expect(holding).not.toContain("Working…");
    h.type("§");
    const screen = await h.waitFor("held done");
    expect(screen).toContain("terminal input seen");
    expect(screen).not.toMatch(/^§/m);
  });

  it("themePaths from resources_discover join the TUI's themes; a broken one is a warning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-ext-themes-"));
    writeFileSync(join(dir, "ext-theme.json"), JSON.stringify({ ...DARK_THEME, name: "ext-theme" }));
    writeFileSync(join(dir, "broken.json"), "{ not json");
    const file = join(dir, "themes-ext.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.on("resources_discover", () => ({ themePaths: [${JSON.stringify(join(dir, "ext-theme.json"))}, ${JSON.stringify(join(dir, "broken.json"))}] }));
  pi.registerCommand("use-ext-theme", { handler: async (_a, ctx) => {
    const listed = ctx.ui.getAllThemes().some((t) => t.name === "ext-theme");
    const result = ctx.ui.setTheme("ext-theme");
    ctx.ui.notify("listed " + listed + " switched " + result.success + " now " + ctx.ui.theme.name, "info");
  } });
}`,
    );
    const h = (harness = await bootTui({ ...withExtensions([file]), width: 100, height: 24 }));
    h.type("/use-ext-theme\r");
    const screen = await h.waitFor("listed true switched true now ext-theme");
    expect(screen).toContain("broken.json");
  });

  it("an appendEntry entry shows through its entry renderer; one without a renderer is not shown", async () => {
    const h = await boot();
    h.type("/entries\r");
    const screen = await h.waitFor("entries appended");
    expect(screen).toContain("STATUS CARD Indexed files: 17");
    expect(screen).not.toContain("hidden");
    h.type("\x0f");
    await h.waitFor("STATUS CARD Indexed files: 17 (expanded)");
  });

  it("an appendEntry entry stays in its place when the view rebuilds the transcript (a session change)", async () => {
    const h = await boot({ faux: { responses: [{ content: "answer one" }] } });
    h.type("/entries\r");
    await h.waitFor("entries appended");
    h.type("hello there\r");
    await h.waitFor("answer one");
    // A clone opens a copy of the branch: the view rebuilds its transcript from the session.
    await h.session.call("clone");
    const screen = await h.waitFor((s) => s.includes("answer one") && !s.includes("entries appended"));
    const rows = screen.split("\n");
    const card = rows.findIndex((r) => r.includes("STATUS CARD Indexed files: 17"));
    expect(card).toBeGreaterThanOrEqual(0);
    expect(card).toBeLessThan(rows.findIndex((r) => r.includes("hello there")));
    expect(screen).not.toContain("hidden");
  });

  it("a markdown transformer changes the answer as shown, not as saved", async () => {
    const h = await boot({ faux: { responses: [{ content: "step one --> step two" }] } });
    h.type("go\r");
    const screen = await h.waitFor("step two");
    expect(screen).toContain("step one → step two");
    const saved = JSON.stringify(h.session.api.messages());
    expect(saved).toContain("step one --> step two");
  });

  it("pasteToEditor, getEditorText and the tools' expansion reach the view", async () => {
    const h = await boot();
    h.type("/editor-io\r");
    await h.waitFor('editor has "pasted words" expanded true');
  });
});
